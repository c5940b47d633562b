"""The SentencePiece training dialog shows every explanation whole, wrapped, at its default
size and at its minimum size (the split-digits note was cut to one line)."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QLabel

from tokexplorer.gui.dialogs.sp_train import SPTrainDialog
from tokexplorer.gui.widgets.sp_options import BYTE_FALLBACK_NOTE, SPLIT_DIGITS_NOTE, USER_SYMBOLS_NOTE


def _cut(dialog: SPTrainDialog) -> list[str]:
    """The texts shown that do not fit their widget: a wrapped label shorter than its lines
    need, a label or button narrower than its one line."""
    out = []
    for w in dialog.findChildren(QLabel) + dialog.findChildren(QAbstractButton):
        if not w.isVisible() or not w.text():
            continue
        if isinstance(w, QLabel) and w.wordWrap():
            if w.height() < w.heightForWidth(w.width()):
                out.append(w.text())
        elif w.width() < w.sizeHint().width():
            out.append(w.text())
    return out


def test_every_explanation_wraps_and_shows_whole_at_default_and_minimum_size(qtbot):
    dialog = SPTrainDialog(["the cat in the hat " * 50])
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.checked, timeout=10_000):
        dialog.show()
    qtbot.waitUntil(lambda: dialog.problems_label.text() != "checking…")
    form = dialog.sp_form
    notes = (form.byte_fallback_note, form.split_digits_note, dialog.symbols_note, dialog.problems_label)
    assert [n.text() for n in notes[:3]] == [BYTE_FALLBACK_NOTE, SPLIT_DIGITS_NOTE, USER_SYMBOLS_NOTE]
    assert all(n.wordWrap() for n in notes)
    assert form.byte_fallback_check.text() == "byte fallback"  # its explanation wraps under it
    assert dialog.problems_label.text().startswith("⚠ vocab_size 1,000 is too large for this corpus")
    qtbot.wait(50)
    assert _cut(dialog) == []
    assert dialog.sp_form.split_digits_note.height() >= 2 * dialog.fontMetrics().height()  # two lines here
    dialog.resize(100, 100)  # as small as it goes
    qtbot.waitUntil(lambda: dialog.size() == dialog.minimumSize())
    qtbot.wait(50)
    assert dialog.width() < 400
    assert _cut(dialog) == []
    # a longer finding (the fix button shown) grows the minimum: still whole
    dialog.vocab_spin.setValue(20)
    qtbot.waitUntil(lambda: dialog.problems_label.text() != "checking…", timeout=10_000)
    qtbot.wait(50)
    assert _cut(dialog) == []
