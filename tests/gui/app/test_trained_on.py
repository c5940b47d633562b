"""The startup models say what they were trained on: the SentencePiece column trained on the
built-in sample says so once the user opens their own files, as the BPE's message does."""

from __future__ import annotations

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted


def test_startup_columns_say_they_were_trained_on_the_sample(qtbot, window, tmp_path):
    window.resize(1280, 800)
    window.show()
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([])
    columns = {c.tokenizer.family: c for c in window.compare_pane.columns_view.columns}
    sp, bpe, tik = columns["sentencepiece"], columns["bpe"], columns["tiktoken"]
    assert sp.header.toolTip().endswith("\ntrained on sample.txt (built-in)")
    assert bpe.header.toolTip().endswith("\ntrained on sample.txt (built-in)")
    assert "trained on" not in tik.header.toolTip()  # loaded, not trained here
    assert sp.trained_label.isHidden()  # trained on the corpus open now: nothing to warn of
    mine = tmp_path / "mine.txt"
    mine.write_text("def f(x):\n    return x + 1\n" * 50, encoding="utf-8")
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.open_paths([str(mine)])
    columns = {c.tokenizer.family: c for c in window.compare_pane.columns_view.columns}
    sp = columns["sentencepiece"]
    line = "⚠ trained on sample.txt (built-in), not on this corpus (Train in the Corpus tab retrains)"
    assert not sp.trained_label.isHidden() and sp.trained_label.text() == line
    assert sp.header.toolTip().endswith("\ntrained on sample.txt (built-in)")
    assert window.corpus_pane.form.train_message.text().startswith(
        "The default models shown were trained at startup on the corpus opened then"
    )
    # retrained on the user's file: the warning goes
    window.corpus_pane.form.set_algorithm("sp-bpe")
    window.corpus_pane.form.vocab_spin.setValue(300)
    with qtbot.waitSignal(window.corpus_pane.training_finished, timeout=WAIT):
        window.corpus_pane.start_training(confirm=False, auto_fit=True)
    sp = next(c for c in window.compare_pane.columns_view.columns if c.tokenizer.family == "sentencepiece")
    assert sp.trained_label.isHidden() and sp.header.toolTip().endswith("\ntrained on mine.txt")
