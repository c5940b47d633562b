"""Quitting the window while a training runs, after answering Discard: the time to process exit.

The journey, in one offscreen window (the real ``MainWindow``, its startup work, its workers),
in a child process so that quitting is timed as a user sees it (from the window's close to
the process's end):

1. open a corpus (default ``bench/corpora/en_10mb.txt``; see ``bench/desktop_journey.py``
   for how the corpora are made) and train a BPE to ``--vocab-size`` (unsaved: the quit asks);
2. start a second training with ``--algorithm`` (default wordpiece) and let it run
   ``--seconds`` (default 3);
3. close the window; the unsaved-model prompt is answered Discard.

Printed: the time from the close to the process's end, PASS or MISS against 2 s. Before
WordPiece counted a long text in blocks, its pre-tokenizing of a 10 MB file was one step
that a cancel had to wait for: the quit took 7.8 s (5 s of ``cancel_all_and_wait``'s
timeout, then the pool's thread still finishing).

Usage: ``python bench/quit_after_discard.py [CORPUS] [--algorithm bpe|sp-bpe|sp-unigram|wordpiece]
[--vocab-size N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 2.0


def child(ns: argparse.Namespace) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp(prefix="tokexplorer-"))
    app = QApplication(["tokexplorer"])
    from tokexplorer.gui import app as gui_app
    from tokexplorer.gui import saving
    from tokexplorer.gui.main_window import MainWindow

    gui_app.configure_application(app)
    asked: list[str] = []

    def discard(_parent: object, title: str, *_args: object) -> QMessageBox.StandardButton:
        asked.append(title)
        return QMessageBox.StandardButton.Discard

    saving.QMessageBox.question = discard  # type: ignore[method-assign]
    window = MainWindow()
    window.show_error_dialogs = False
    window.resize(1280, 800)
    window.show()

    def wait(pred, timeout: float) -> None:
        t_end = time.perf_counter() + timeout
        loop = QEventLoop()
        while time.perf_counter() < t_end and not pred():
            QTimer.singleShot(20, loop.quit)
            loop.exec()

    window.startup.run([ns.corpus])
    wait(lambda: window.startup.finished, 600)
    pane = window.corpus_pane
    done = {"v": False}
    pane.training_finished.connect(lambda *_: done.update(v=True))
    pane.training_failed.connect(lambda *_: done.update(v=True))
    pane.form.vocab_spin.setValue(ns.vocab_size)
    window.train()
    wait(lambda: done["v"], 900)
    combo = pane.form.algorithm_combo
    combo.setCurrentIndex(combo.findData(ns.algorithm))
    pane.form.vocab_spin.setValue(ns.vocab_size * 4)
    done["v"] = False
    window.train()  # with --algorithm bpe, replacing the unsaved BPE asks first: Discard
    wait(lambda: done["v"], ns.seconds)
    print(json.dumps({"event": "closing", "still_training": not done["v"]}), flush=True)
    QTimer.singleShot(0, window.close)
    app.exec()
    print(json.dumps({"event": "asked", "titles": asked}), flush=True)
    window.deleteLater()
    return 0


def parent(ns: argparse.Namespace) -> int:
    cmd = [sys.executable, __file__, ns.corpus, "--algorithm", ns.algorithm, "--vocab-size", str(ns.vocab_size),
           "--seconds", str(ns.seconds), "--child"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    closed_at = 0.0
    still = False
    for line in proc.stdout:
        rec = json.loads(line)
        if rec["event"] == "closing":
            closed_at, still = time.time(), rec["still_training"]
        else:
            print(f"prompts answered Discard: {', '.join(rec['titles']) or 'none'}")
    proc.wait()
    quit_s = time.time() - closed_at
    verdict = "PASS" if quit_s <= TARGET_S else "MISS"
    state = "while it trained" if still else "after it had finished (raise --vocab-size or lower --seconds)"
    print(f"{ns.algorithm}: closed {state}; close -> process exit {quit_s:.2f} s  {verdict} (<= {TARGET_S} s)")
    return proc.returncode


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("corpus", nargs="?", default=str(Path(__file__).resolve().parent / "corpora" / "en_10mb.txt"))
    p.add_argument("--algorithm", default="wordpiece", choices=("bpe", "sp-bpe", "sp-unigram", "wordpiece"))
    p.add_argument("--vocab-size", type=int, default=8000)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ns = p.parse_args()
    return child(ns) if ns.child else parent(ns)


if __name__ == "__main__":
    raise SystemExit(main())
