"""The token view wraps lines between words where it can."""

from __future__ import annotations

from tokexplorer.core.backends import BPETokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.gui.widgets.token_layout import inside_word
from tokexplorer.gui.widgets.token_view import TokenView

WORDS = "tokenizers split frequent words rarely while uncommon spellings become several pieces "


def _shown(qtbot, tz, width: int, height: int, *, lines: int) -> TokenView:
    """A token view of ``tz`` at ``width`` x ``height`` pixels, once it is laid out in more than ``lines`` lines."""
    view = TokenView()
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    view.set_tokenization(tz)
    qtbot.waitUntil(lambda: len(view._lay.line_items) > lines)
    return view


def _line_texts(view: TokenView) -> list[str]:
    return ["".join(it.text for it in view._lay.items[a:b]) for a, b in view._lay.line_items]


def test_lines_break_between_words_not_inside_them(qtbot):
    # a tiny vocabulary: most words are several tokens, so token boundaries
    # fall inside words all the time
    bpe, _ = train_bpe(WORDS * 3, vocab_size=300, pattern="gpt2")
    text = WORDS * 6
    tz = BPETokenizer(bpe).tokenize(text)
    inner = [t for t in tz.tokens if t.bytes[:1].isalpha() and text[t.char_start - 1] != " "]
    assert len(inner) > 20  # tokens that begin inside a word
    view = _shown(qtbot, tz, 260, 400, lines=3)
    lines = _line_texts(view)
    assert "".join(lines) == text
    words = set(WORDS.split())
    for line in lines:
        # every line holds whole words: it starts at a space (or the text start)
        # and ends after a letter or a space, never in the middle of a word
        for w in line.split():
            assert w in words, (w, lines)


def test_wide_characters_may_break_anywhere():
    assert inside_word("a", "b") and inside_word("é", "9")
    assert not inside_word("a", " ") and not inside_word(" ", "b") and not inside_word("a", ",")
    assert not inside_word("中", "文") and not inside_word("a", "中")


def test_a_piece_inside_a_normalized_character_says_so(qtbot, sp_models):
    # SP120 turns 'a…b' into '▁a...b': each '.' is a piece made from part of '…'
    tz = sp_models["SP120"].tokenize("a\u2026b")
    view = TokenView()
    qtbot.addWidget(view)
    view.resize(400, 200)
    view.show()
    view.set_tokenization(tz)
    tip = view.tooltip_text(2).splitlines()
    assert tip[0] == "token 2 · id 94 · inside a normalized character"
    assert "part of what the normalizer made of '\u2026' (U+2026); the span is all of it" in tip
    assert tip[-1] == "byte span [1, 4) · characters [1, 2)"
    assert "inside a normalized character" not in view.tooltip_text(0)
    # the tokens of one expanded character all highlight that character
    view.highlight_bytes(1, 4)
    assert view.highlighted_tokens() == [1, 2, 3]
def test_ids_are_drawn_apart(qtbot):
    """In the Ids view a gap separates the boxes of neighbouring tokens (issue 16: the
    numbers ran together), and the text view keeps its boxes touching."""
    bpe, _ = train_bpe(WORDS * 3, vocab_size=300, pattern="gpt2")
    tz = BPETokenizer(bpe).tokenize(WORDS)
    view = TokenView()
    qtbot.addWidget(view)
    view.resize(2000, 400)
    view.show()
    view.set_tokenization(tz)
    view.set_show_ids(True)
    ids = "".join(str(t.id) for t in tz.tokens)
    qtbot.waitUntil(lambda: "".join(it.text for it in view._lay.items) == ids)
    boxes = [segs[0] for segs in view._lay.token_segments if segs]
    same_line = [(a, b) for a, b in zip(boxes, boxes[1:]) if a[0] == b[0]]
    assert len(same_line) > 5
    assert all(b[1] - a[2] >= 3 for a, b in same_line)  # a space between two ids
    view.set_show_ids(False)
    qtbot.waitUntil(lambda: "".join(it.text for it in view._lay.items) == WORDS)
    boxes = [segs[0] for segs in view._lay.token_segments if segs]
    assert all(b[1] == a[2] for a, b in zip(boxes, boxes[1:]) if a[0] == b[0])


def test_cr_and_lf_tokens_are_boxes_one_can_see(qtbot):
    """Without whitespace glyphs a CR token and an LF token (the newcomer's CRLF file, its
    CR and LF tokens apart) were slivers of 2 pixels; each is now as wide as two spaces."""
    from PySide6.QtGui import QFontMetricsF

    bpe, _ = train_bpe(WORDS * 3, vocab_size=300, pattern="gpt2")  # no merge joins CR and LF
    tz = BPETokenizer(bpe).tokenize("a\r\nb\nc\rd")
    pieces = [tz.text[t.char_start : t.char_end] for t in tz.tokens]
    assert pieces == ["a", "\r", "\n", "b", "\n", "c", "\r", "d"]
    view = TokenView()
    qtbot.addWidget(view)
    view.resize(600, 300)
    view.show()
    view.set_tokenization(tz)
    qtbot.waitUntil(lambda: bool(view._lay.token_segments))
    two_spaces = QFontMetricsF(view.font()).horizontalAdvance("  ")
    widths = [sum(x1 - x0 for _line, x0, x1 in segs) for segs in view._lay.token_segments]
    for piece, width in zip(pieces, widths):
        if piece in ("\r", "\n"):
            assert width >= two_spaces - 0.5, (piece, width)


def test_tokens_drawn_by_their_bytes_keep_the_line_breaks(qtbot, tmp_path):
    """A Hugging Face tokenizer whose NFKC normalizer changes the text ('ﬁ' -> 'fi') has no
    exact offsets, so its tokens are drawn by their bytes: a newline still ends the line,
    as in the other columns (it ran all the lines into one)."""
    from tokenizers import normalizers

    from fixtures import hf
    from tokexplorer.core.backends.huggingface.tokenizer import HuggingFaceTokenizer

    tok = hf.byte_level_bpe()
    tok.normalizer = normalizers.NFKC()
    ours = HuggingFaceTokenizer.from_file(hf.save(tok, tmp_path))
    tz = ours.tokenize("ab \ufb01\ncd\nef\n")
    assert not tz.exact_offsets
    view = _shown(qtbot, tz, 600, 300, lines=1)
    assert _line_texts(view) == ["<s>ab fi\n", "cd\n", "ef\n"]  # <s>: the BOS its post-processor adds
