"""GUI training vs command-line training, and event-loop stalls while training.

Trains the same file to the same vocabulary three ways in one run:

* the command line (``python -m tokexplorer train``, a subprocess);
* the app's corpus pane (offscreen Qt, the real window code and worker);

and, while the pane trains, a 5 ms QTimer records the longest gap between its
ticks (an event-loop stall). Prints the GUI/CLI time ratio (target <= 1.2,
issue 3) and the longest stall (target < 100 ms).

Usage: ``python3 bench/gui_training.py [FILE] [--vocab-size N]``; FILE defaults
to ``bench/corpora/en_10mb.txt`` (built by ``bench/run.py``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cli_seconds(path: str, vocab: int) -> float:
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "tokexplorer", "train", path, "--vocab-size", str(vocab),
             "-o", os.path.join(d, "m.bpe")],
            check=True, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        return time.perf_counter() - t0


def gui_seconds(path: str, vocab: int) -> tuple[float, float, float]:
    """Returns (training seconds measured from Train to result, longest stall in s,
    reading seconds)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from tokexplorer.gui.panes.corpus_pane import CorpusPane
    from tokexplorer.gui.state import AppState

    _app = QApplication.instance() or QApplication([])  # kept alive while the pane trains
    state = AppState()
    pane = CorpusPane(state)
    loop = QEventLoop()
    t_read = time.perf_counter()
    pane.corpus_loaded.connect(lambda *_: loop.quit())
    pane.load_paths([path])
    loop.exec()
    t_read = time.perf_counter() - t_read

    gaps: list[float] = []
    clock = QElapsedTimer()
    timer = QTimer()
    timer.setInterval(5)

    def tick() -> None:
        gaps.append(clock.restart() / 1000.0)

    timer.timeout.connect(tick)
    done = QEventLoop()
    pane.training_finished.connect(lambda *_: done.quit())
    pane.training_failed.connect(lambda *_: done.quit())
    pane.vocab_spin.setValue(vocab) if hasattr(pane, "vocab_spin") else None
    clock.start()
    timer.start()
    t0 = time.perf_counter()
    pane.start_training(vocab_size=vocab, algorithm="bpe", confirm=False)
    done.exec()
    seconds = time.perf_counter() - t0
    timer.stop()
    return seconds, max(gaps[1:] or [0.0]), t_read


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(ROOT / "bench" / "corpora" / "en_10mb.txt"))
    ap.add_argument("--vocab-size", type=int, default=32000)
    ns = ap.parse_args()
    if not os.path.exists(ns.file):
        print(f"no such file: {ns.file} (run bench/run.py --quick once to build the corpora)")
        return 2
    cli = cli_seconds(ns.file, ns.vocab_size)
    gui, stall, read = gui_seconds(ns.file, ns.vocab_size)
    print(f"file {ns.file}  vocab {ns.vocab_size}")
    print(f"command line (read + train + save): {cli:6.2f} s")
    print(f"GUI (train, after a {read:.2f} s read): {gui:6.2f} s")
    print(f"GUI / CLI = {gui / cli:.2f}   (target <= 1.2)  {'PASS' if gui / cli <= 1.2 else 'MISS'}")
    print(f"longest event-loop stall while training: {stall * 1000:.0f} ms   (target < 100 ms)  "
          f"{'PASS' if stall < 0.1 else 'MISS'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
