"""A desktop journey through the real window, with an event-loop probe (issue 16).

The journey, in one offscreen window (the real ``MainWindow``, its startup work,
its workers):

1. open a corpus (default ``bench/corpora/en_10mb.txt``, built by ``bench/run.py``; the startup trains its
   default models on it, as it does for a user);
2. train a BPE to ``--vocab-size`` (default 32000) from the window (Train);
3. switch through every tab, letting each settle;
4. open a binary file (default: the first 1.2 MB of this Python interpreter) as raw
   bytes (File > Open raw bytes), then go to its last part and scroll to its end;
5. settle, then quit.

A 10 ms QTimer records the longest gap between its ticks over the whole journey
(an event-loop stall: the GUI thread was busy), with the step it happened in.
The journey runs in a child process so that quitting is timed as a user sees it:
from the window's close to the process's end (the interpreter freeing what is
left included).

With ``--folder FOLDER`` (issue 14.3: a large corpus, e.g. 1 GB) the window opens with
its built-in sample, then opens FOLDER as the corpus (File > Open folder: streamed when it
is large) and trains from it; the time for the file list to fill and the RSS once it is
filled are printed too.

Printed: each step's longest stall with the CPU time used during it by the GUI
thread (near the stall: the GUI thread itself was busy; near 0: it waited for the
interpreter lock or for a core) and by the whole process (well under the stall
times the cores: the machine's other processes had the cores), the longest stall (target
<= 100 ms), the raw file's first-screen time
(target <= 0.5 s), peak RSS (<= 1.5 GB; the window's process, and the sum over it and its
child processes, sampled every 250 ms by the measuring process: training from files runs in a
child process, counting in worker processes), settled RSS after the journey (<= 800 MB)
and the quit time (<= 2 s). ``--profile OUT.prof`` writes a cProfile of the GUI
thread (the child's main thread) for ``python -m pstats``.

Corpora: any text file works. The benchmark corpora are rebuilt deterministically
by ``../shared/tools/make-corpora`` (``../shared/tools/make-corpora --install bench/corpora``; it writes
``en_10mb.txt`` among others); a 10 MB file can also be made from any text by
repeating it, e.g. ``python -c "t=open('small.txt').read(); open('big.txt','w').write((t*9999)[:10_485_760])"``.

Usage: ``python bench/desktop_journey.py [CORPUS] [--folder FOLDER] [--binary FILE] [--vocab-size N]
[--profile OUT.prof] [--stall-dump FILE [--stall-ms MS]] [--gil-watch FILE [--gil-ms MS]] [--screenshot PNG]``
(``--stall-dump`` writes every thread's stack, under the name of its step, whenever the loop stalls
``--stall-ms``, default 100 ms; faulthandler reads the frames of running threads, which can crash the
journey now and then: a diagnostic, not a measurement). ``--gil-watch`` finds who keeps the
interpreter lock: a thread that sleeps 1 ms in a loop needs the lock to wake, so when it wakes
``--gil-ms`` (default 25) late, the other threads' frames are written (the one that held the lock
is still at the line of its long call); it competes for the lock too, so also a diagnostic.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = str(ROOT / "bench" / "corpora" / "en_10mb.txt")  # where bench/run.py builds it
BINARY_BYTES = 1_200_000
TARGETS = {"stall_ms": 100, "first_screen_s": 0.5, "peak_mb": 1536, "settled_mb": 800, "quit_s": 2.0}


def rss_mb() -> tuple[float, float]:
    """(current RSS, peak RSS) of this process in MiB, from /proc/self/status."""
    cur = peak = 0.0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                cur = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    return cur, peak


def tree_rss_mb(pid: int) -> float:
    """RSS in MiB of process ``pid`` and all its descendants (the training child and its
    counting workers), summed from /proc; 0 for a process that is gone."""
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0) / 1024
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total


def sample_tree(pid: int, peak: dict[str, float], every_s: float = 0.25) -> threading.Thread:
    """Sample :func:`tree_rss_mb` of ``pid`` every ``every_s`` seconds into ``peak["mb"]``
    (in this, the measuring process, so the window's own process does no extra work)."""

    def run() -> None:
        while True:
            mb = tree_rss_mb(pid)
            if not mb:
                return
            peak["mb"] = max(peak["mb"], mb)
            time.sleep(every_s)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def default_binary(folder: str) -> str:
    """The first :data:`BINARY_BYTES` bytes of this interpreter's executable (a real binary)."""
    src = os.path.realpath(sys.executable)
    with open(src, "rb") as f:
        data = f.read(BINARY_BYTES)
    if len(data) < BINARY_BYTES:  # a small launcher: pad with libpython's bytes
        import sysconfig

        lib = os.path.join(sysconfig.get_config_var("LIBDIR") or "", sysconfig.get_config_var("LDLIBRARY") or "")
        with open(lib, "rb") as f:
            data = (data + f.read(BINARY_BYTES))[:BINARY_BYTES]
    path = os.path.join(folder, "binary.bin")
    with open(path, "wb") as f:
        f.write(data)
    return path


class StallProbe:
    """A 10 ms timer on the GUI thread that keeps, per step of the journey (``step["name"]``):
    the longest gap between its ticks (a stall), the CPU time the GUI thread and the
    whole process used in that gap, the most CPU time the GUI thread used between
    two ticks (its own longest busy stretch, whatever the machine's load), and the
    longest pause of Python's garbage collector in the GUI thread and in the others.
    ``stall_dump``: a file to write every thread's stack to whenever a tick is
    ``stall_ms`` late."""

    def __init__(self, *, stall_dump: str | None, stall_ms: int) -> None:
        from PySide6.QtCore import QElapsedTimer, QTimer

        self.step = {"name": "start"}
        self.worst = (0.0, "")  # (seconds, step)
        # step -> [stall, GUI CPU in it, process CPU in it, GUI busy, GC in GUI, GC elsewhere] (s)
        self.per_step: dict[str, list[float]] = {}
        self._clock = QElapsedTimer()
        self._cpu = (0.0, 0.0)
        self._timer = QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._tick)
        self._gc_started = 0.0
        self._stall_ms = stall_ms
        self._dump = open(stall_dump, "w") if stall_dump else None  # noqa: SIM115 - open for the journey
        self._dumped_step = ""

    def start(self) -> None:
        import gc

        self._clock.start()
        self._cpu = (time.thread_time(), time.process_time())
        gc.callbacks.append(self._on_gc)
        self._timer.start()

    def stop(self) -> None:
        import faulthandler
        import gc

        self._timer.stop()
        gc.callbacks.remove(self._on_gc)
        if self._dump is not None:
            faulthandler.cancel_dump_traceback_later()
            self._dump.close()

    def _row(self) -> list[float]:
        return self.per_step.setdefault(self.step["name"], [0.0] * 6)

    def _on_gc(self, phase: str, info: dict) -> None:
        import threading

        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        pause = time.perf_counter() - self._gc_started
        row = self._row()
        k = 4 if threading.current_thread() is threading.main_thread() else 5
        row[k] = max(row[k], pause)

    def _tick(self) -> None:
        import faulthandler

        gap = self._clock.restart() / 1000.0
        now = (time.thread_time(), time.process_time())
        gui, process = now[0] - self._cpu[0], now[1] - self._cpu[1]
        self._cpu = now
        name = self.step["name"]
        row = self._row()
        if gap >= row[0]:
            row[:3] = [gap, gui, process]
        row[3] = max(row[3], gui)
        if gap > self.worst[0]:
            self.worst = (gap, name)
        if self._dump is not None:  # re-arm: every thread's stack is written if the next tick is late
            if name != self._dumped_step:
                self._dumped_step = name
                self._dump.write(f"== step: {name}\n")
                self._dump.flush()
            faulthandler.dump_traceback_later(self._stall_ms / 1000, file=self._dump)


def watch_gil(path: str, late_ms: int, step: dict[str, str]) -> None:
    """Start the ``--gil-watch`` thread (see the module docstring), writing to ``path``."""
    import threading
    import traceback

    out = open(path, "w")  # noqa: SIM115 - open for the journey

    def where(frame) -> str:
        calls = reversed(traceback.extract_stack(frame)[-4:])
        return " <- ".join(f"{f.name}@{Path(f.filename).name}:{f.lineno}" for f in calls)

    def watch() -> None:
        me = threading.get_ident()
        while True:
            t0 = time.perf_counter()
            time.sleep(0.001)
            late = time.perf_counter() - t0
            if late * 1000 < late_ms:
                continue
            names = {t.ident: t.name for t in threading.enumerate()}
            frames = [f"  [{names.get(i, i)}] {where(f)}" for i, f in sys._current_frames().items() if i != me]
            out.write(f"== {late * 1000:.0f} ms late, step {step['name']}\n" + "\n".join(frames) + "\n")
            out.flush()

    threading.Thread(target=watch, daemon=True, name="gil-watch").start()


def child(ns: argparse.Namespace) -> int:  # noqa: C901 - one journey, step by step
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    settings_dir = tempfile.mkdtemp(prefix="tokexplorer-bench-settings-")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
    app = QApplication.instance() or QApplication(["tokexplorer"])
    from tokexplorer.gui import app as gui_app
    from tokexplorer.gui.main_window import MainWindow

    gui_app.configure_application(app)
    profiler = None
    if ns.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()

    probe = StallProbe(stall_dump=ns.stall_dump, stall_ms=ns.stall_ms)
    step = probe.step
    peak = {"mb": 0.0}
    memory_probe = QTimer()  # RSS every 250 ms (reading /proc each tick would itself stall)
    memory_probe.setInterval(250)
    memory_probe.timeout.connect(lambda: peak.update(mb=max(peak["mb"], rss_mb()[0])))

    def wait(pred, timeout: float) -> bool:
        t_end = time.perf_counter() + timeout
        loop = QEventLoop()
        while time.perf_counter() < t_end:
            if pred():
                return True
            QTimer.singleShot(20, loop.quit)
            loop.exec()
        return pred()

    def settle(seconds: float) -> None:
        wait(lambda: False, seconds)

    def out(**kv: object) -> None:
        print(json.dumps(kv), flush=True)

    if ns.gil_watch:
        watch_gil(ns.gil_watch, ns.gil_ms, probe.step)
    window = MainWindow()
    window.show_error_dialogs = False
    window.resize(1280, 800)
    window.show()
    probe.start()
    memory_probe.start()

    step["name"] = "open corpus + startup models"
    t0 = time.perf_counter()
    window.startup.run([] if ns.folder else [ns.corpus])
    if not wait(lambda: window.startup.finished, 600):
        out(error="startup did not finish")
    out(event="startup", seconds=round(time.perf_counter() - t0, 2))
    if ns.folder:
        step["name"] = "open folder"
        opened = {"v": False}
        window.corpus_pane.corpus_loaded.connect(lambda *_: opened.update(v=True))
        t0 = time.perf_counter()
        window.open_paths([ns.folder])
        wait(lambda: opened["v"], 900)
        out(
            event="folder open",
            seconds=round(time.perf_counter() - t0, 2),
            rss_mb=round(rss_mb()[0]),
            files=len(window.corpus_pane.corpus.files),
            streamed=window.corpus_pane.corpus.streamed,
        )
        step["name"] = "after opening"
        settle(2.0)
        if ns.screenshot:
            window.grab().save(ns.screenshot)

    step["name"] = f"train {ns.vocab_size}"
    done = {"v": False}
    pane = window.corpus_pane
    pane.training_finished.connect(lambda *_: done.update(v=True))
    pane.training_failed.connect(lambda *_: done.update(v=True))
    pane.form.vocab_spin.setValue(ns.vocab_size)
    t0 = time.perf_counter()
    window.train()
    wait(lambda: done["v"], 900)
    out(event="trained", seconds=round(time.perf_counter() - t0, 2))
    step["name"] = "after training"
    settle(3.0)

    for i in range(window.tabs.count()):
        step["name"] = f"tab {window.tabs.tabText(i)}"
        window.tabs.setCurrentIndex(i)
        settle(2.0)

    step["name"] = "open raw bytes"
    bytes_pane = window.bytes_pane
    shown = {"v": False}
    bytes_pane.updated.connect(lambda: shown.update(v=True))
    t0 = time.perf_counter()
    window.open_raw_bytes(ns.binary)
    wait(lambda: shown["v"] and bytes_pane.raw is not None, 120)
    first_screen = time.perf_counter() - t0
    out(event="raw first screen", seconds=round(first_screen, 3))

    step["name"] = "raw: scroll to end"
    bytes_pane.show_last()
    wait(lambda: not bytes_pane.busy, 120)
    bar = bytes_pane.scroll.verticalScrollBar()
    for k in range(1, 21):
        bar.setValue(bar.maximum() * k // 20)
        settle(0.05)
    settle(1.0)

    step["name"] = "raw: back to text"
    bytes_pane.leave_raw()
    wait(lambda: not bytes_pane.busy, 120)
    settle(1.0)
    step["name"] = "settle"
    settle(5.0)
    settled = rss_mb()[0]
    probe.stop()
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(ns.profile)
    out(
        event="journey",
        stall_ms=round(probe.worst[0] * 1000),
        stall_step=probe.worst[1],
        per_step_ms={k: [round(v * 1000) for v in vs] for k, vs in probe.per_step.items()},
        first_screen_s=round(first_screen, 3),
        peak_mb=round(max(peak["mb"], rss_mb()[1])),
        settled_mb=round(settled),
    )
    out(event="quitting", t=time.time())
    # quit as the app does: close the window, leave the event loop (aboutToQuit stops the workers)
    QTimer.singleShot(0, window.close)
    QTimer.singleShot(0, app.quit)
    app.exec()
    return 0


def parent(ns: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        binary = ns.binary or default_binary(tmp)
        cmd = [sys.executable, __file__, ns.corpus, "--binary", binary, "--vocab-size", str(ns.vocab_size), "--child"]
        if ns.folder:
            cmd += ["--folder", ns.folder] + (["--screenshot", ns.screenshot] if ns.screenshot else [])
        if ns.profile:
            cmd += ["--profile", ns.profile]
        if ns.stall_dump:
            cmd += ["--stall-dump", ns.stall_dump, "--stall-ms", str(ns.stall_ms)]
        if ns.gil_watch:
            cmd += ["--gil-watch", ns.gil_watch, "--gil-ms", str(ns.gil_ms)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        tree_peak = {"mb": 0.0}
        sampler = sample_tree(proc.pid, tree_peak)
        journey: dict[str, object] = {}
        quit_at = 0.0
        assert proc.stdout is not None
        for line in proc.stdout:
            rec = json.loads(line)
            if rec.get("event") == "journey":
                journey = rec
            elif rec.get("event") == "folder open":
                print(
                    f"folder {ns.folder}: list filled in {rec['seconds']} s ({rec['files']} files, "
                    f"streamed: {rec['streamed']}); RSS once filled {rec['rss_mb']} MB"
                )
            elif rec.get("event") == "quitting":
                quit_at = time.time()
            else:
                print("  ", rec)
        proc.wait()
        sampler.join(1.0)
        quit_s = time.time() - quit_at if quit_at else float("nan")
    if not journey:
        print("the journey did not finish")
        return 1
    size = os.path.getsize(binary) if ns.binary else BINARY_BYTES
    print(f"corpus {ns.corpus} · vocab {ns.vocab_size} · binary {size:,} bytes")
    print(
        "per step (ms): longest stall | CPU in it: GUI thread, process | longest GUI-thread CPU"
        " between ticks | longest GC pause (GUI thread, other threads)"
    )
    for name, (stall, gui, process, busy, gc_gui, gc_other) in journey["per_step_ms"].items():  # type: ignore[union-attr]
        print(f"    {stall:6d} | {gui:5d} {process:5d} | {busy:5d} | {gc_gui:5d} {gc_other:5d}  {name}")
    rows = [
        ("longest event-loop stall", journey["stall_ms"], "ms", "stall_ms", f" (in: {journey['stall_step']})"),
        ("raw first screen", journey["first_screen_s"], "s", "first_screen_s", ""),
        ("peak RSS, window", journey["peak_mb"], "MB", "peak_mb", ""),
        ("peak RSS, with children", round(tree_peak["mb"]), "MB", "peak_mb", " (its training and counting processes)"),
        ("settled RSS", journey["settled_mb"], "MB", "settled_mb", ""),
        ("quit", round(quit_s, 2), "s", "quit_s", ""),
    ]
    for label, value, unit, key, extra in rows:
        ok = float(value) <= TARGETS[key]  # type: ignore[arg-type]
        print(f"{label:26s} {value:>8} {unit:2s}  target <= {TARGETS[key]}  {'PASS' if ok else 'MISS'}{extra}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", default=DEFAULT_CORPUS)
    ap.add_argument("--binary", help="file opened as raw bytes (default: 1.2 MB of a real binary)")
    ap.add_argument("--vocab-size", type=int, default=32000)
    ap.add_argument("--profile", metavar="OUT.prof", help="cProfile the GUI thread to this file")
    ap.add_argument(
        "--stall-dump",
        metavar="FILE",
        help="write every thread's stack to FILE whenever the event loop stalls over --stall-ms",
    )
    ap.add_argument("--stall-ms", type=int, default=100, help="the stall that --stall-dump reports (ms, default 100)")
    ap.add_argument(
        "--gil-watch",
        metavar="FILE",
        help="write who held the interpreter lock whenever a 1 ms sleeper woke --gil-ms late",
    )
    ap.add_argument("--gil-ms", type=int, default=25, help="how late --gil-watch's sleeper must wake (ms, default 25)")
    ap.add_argument("--folder", help="open this folder as the corpus after a start on the sample, and train on it")
    ap.add_argument("--screenshot", metavar="PNG", help="with --folder: the window once the folder is open")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.folder and not os.path.isdir(ns.folder):
        print(f"no such folder: {ns.folder}")
        return 2
    if not os.path.exists(ns.corpus):
        print(f"no such corpus: {ns.corpus}")
        return 2
    return child(ns) if ns.child else parent(ns)


if __name__ == "__main__":
    raise SystemExit(main())
