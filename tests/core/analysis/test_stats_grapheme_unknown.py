"""``grapheme_part_pct`` is None (shown "—"), not 0, where a normalizer made the spans
approximate in lines holding grapheme clusters of several code points; lines without
such clusters, or with exact spans, keep their number."""

from __future__ import annotations

from tokenizers import Tokenizer, decoders, models, normalizers

from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.backends import HuggingFaceTokenizer

ZWJ = "lab \U0001F469\u200d\U0001F52C ok\n"  # 👩‍🔬: 3 code points, 1 grapheme cluster


def _llama2_style() -> HuggingFaceTokenizer:
    """BPE with byte fallback; the normalizer prepends '▁' and turns spaces into '▁'."""
    vocab = {"<unk>": 0, "\u2581": 1, "\u200d": 2, **{f"<0x{b:02X}>": 3 + b for b in range(256)}}
    vocab |= {c: 259 + i for i, c in enumerate("labok")}
    lib = Tokenizer(models.BPE(vocab, [], unk_token="<unk>", byte_fallback=True))
    lib.normalizer = normalizers.Sequence([normalizers.Prepend("\u2581"), normalizers.Replace(" ", "\u2581")])
    lib.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse()])
    return HuggingFaceTokenizer(lib)


def _rows(tok, files):
    st = compute_stats([tok], files)
    return {(r["group_kind"], r["group"]): r for r in st.rows()}


def test_hf_normalizer_with_clusters_gives_no_number():
    tok = _llama2_style()
    tz = tok.tokenize(ZWJ)
    assert not tz.exact_offsets
    assert [t.piece for t in tz.tokens][:6] == ["\u2581", "l", "a", "b", "\u2581", "<0xF0>"]
    rows = _rows(tok, [("zwj.txt", ZWJ), ("plain.txt", "lab ok\n")])
    assert rows[("file", "zwj.txt")]["grapheme_part_pct"] is None
    assert rows[("total", "all")]["grapheme_part_pct"] is None
    assert rows[("file", "plain.txt")]["grapheme_part_pct"] == 0.0  # no cluster there: truly none


def test_sentencepiece_exact_spans_keep_the_number(sp_models):
    # identity normalizer, no whitespace clean-up: exact spans, the ZWJ piece is part of a grapheme
    tok = sp_models["SPID"]
    line = "\U0001F469\u200d\U0001F52C lab"
    assert [t.piece for t in tok.tokenize(line).tokens] == ["\u2581\U0001F469", "\u200d\U0001F52C", "\u2581l", "ab"]
    assert tok.tokenize(line).exact_offsets
    rows = _rows(tok, [("zwj.txt", line)])
    assert rows[("file", "zwj.txt")]["grapheme_part_pct"] == 50.0  # ▁👩 ends inside the cluster, ‍🔬 starts inside it


def test_sentencepiece_normalized_line_with_clusters_gives_no_number(sp_models):
    tok = sp_models["SP120"]
    line = "\U0001F469\u200d\U0001F52C  lab"  # nmt_nfkc's clean-up removes a space: spans approximate
    assert not tok.tokenize(line).exact_offsets
    assert _rows(tok, [("zwj.txt", line)])[("file", "zwj.txt")]["grapheme_part_pct"] is None
