"""A Unigram model explained: piece scores, n-best lists and samples against
sentencepiece's own values, the lattice's best path against its encoding."""

from __future__ import annotations

import math
import struct
from collections import Counter
from pathlib import Path

import pytest

from fixtures.sp import fixture_lines, train_proto
from tokexplorer.core.analysis import lattice, nbest, piece_scores, sample
from tokexplorer.core.analysis import unigram as unigram_module
from tokexplorer.core.backends import SampledSentencePieceTokenizer, SentencePieceTokenizer
from tokexplorer.core.errors import InputError

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = (ROOT / "resources/samples/sample.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def fixture_unigram() -> SentencePieceTokenizer:
    return SentencePieceTokenizer(train_proto(model_type="unigram", vocab_size=60)[0])


@pytest.fixture(scope="module")
def real_unigram() -> SentencePieceTokenizer:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [ln for ln in (SAMPLE + readme).splitlines() if ln.strip()]
    return SentencePieceTokenizer(train_proto(lines, model_type="unigram", vocab_size=800)[0])


def _words(text: str) -> list[str]:
    return sorted({w for w in text.split() if len(w) < 40})


def test_piece_scores_are_sentencepieces(real_unigram):
    sp = real_unigram.processor
    scores = piece_scores(real_unigram)
    assert len(scores) == sp.get_piece_size() == 800
    assert [(s.id, s.piece, s.score) for s in scores] == [
        (i, sp.id_to_piece(i), pytest.approx(sp.get_score(i), abs=0)) for i in range(800)
    ]
    assert [s.kind for s in scores[:3]] == ["unknown", "control", "control"]
    assert {s.kind for s in scores[3:]} == {"normal"}
    # log probabilities: the pieces left after the last pruning hold most of the mass, not all of it
    assert 0.5 < sum(s.probability for s in scores if s.kind == "normal") <= 1.0


def test_nbest_is_sentencepieces(real_unigram):
    sp = real_unigram.processor
    for word in _words(SAMPLE)[:80]:
        best = nbest(real_unigram, word, 5)
        assert [list(s.pieces) for s in best] == sp.nbest_encode_as_pieces(word, 5)
        assert [list(s.ids) for s in best] == sp.nbest_encode_as_ids(word, 5)
        for s in best:  # the score SentencePiece reports is the sum of its pieces' log probabilities
            assert s.score == pytest.approx(sum(sp.get_score(i) for i in s.ids), abs=1e-3)
        scores = [s.score for s in best]  # best first: sentencepiece sums its float scores in its own
        assert all(a >= b - 1e-4 for a, b in zip(scores, scores[1:]))  # order, so near-ties may swap by 1e-6


@pytest.mark.parametrize("which", ["fixture_unigram", "real_unigram"])
def test_lattice_best_path_is_sentencepieces_encoding(which, request):
    tok = request.getfixturevalue(which)
    sp = tok.processor
    texts = _words(SAMPLE) + ["the small world", "naïve 東京 🙂 ok", "x"] + fixture_lines()[:20]
    for text in texts:
        lat = lattice(tok, text)
        assert [i for _, i in lat.encoding] == sp.encode(text), text
        assert [p for p, _ in lat.encoding] == sp.encode(text, out_type=str)
        assert "".join(n.piece for n in lat.best) == lat.normalized
        # each of the n best segmentations is a path of the lattice with the same score
        # (SentencePiece's runs of unknown characters are one node a character here)
        spans = {(n.start, n.end, n.id): n.score for n in lat.nodes}
        for seg in nbest(tok, text, 3):
            pos, total = 0, 0.0
            for piece, i in zip(seg.pieces, seg.ids):
                if i == sp.unk_id():
                    steps = [(pos + k, pos + k + 1) for k in range(len(piece))]
                else:
                    steps = [(pos, pos + len(piece))]
                total += sum(spans[(s, e, i)] for s, e in steps)
                pos += len(piece)
            assert pos == len(lat.normalized)
            assert total == pytest.approx(seg.score, abs=1e-3)  # a run of unknowns: the penalty a character


def test_unknown_character_gets_the_penalised_unknown_piece(fixture_unigram):
    sp = fixture_unigram.processor
    lat = lattice(fixture_unigram, "東")
    unk = [n for n in lat.nodes if n.id == sp.unk_id()]
    low = min(sp.get_score(i) for i in range(sp.get_piece_size()) if sp.is_control(i) is False)
    assert [(n.piece, n.score) for n in unk] == [("東", pytest.approx(low - 10.0))]
    assert lat.best[-1].id == sp.unk_id()


def test_samples_follow_the_lattice_probabilities(real_unigram):
    word = "tokenizers"
    lat = lattice(real_unigram, word)
    draws = sample(real_unigram, word, alpha=0.2, count=1000)
    assert {"".join(s.pieces) for s in draws} == {lat.normalized}
    freq = Counter(s.pieces for s in draws)
    top = nbest(real_unigram, word, 3)
    for seg in top:  # 1000 draws: the frequencies are within 5 standard deviations of p
        p = lat.probability(seg.score, 0.2)
        assert abs(freq[seg.pieces] / 1000 - p) < 5 * math.sqrt(p * (1 - p) / 1000) + 1e-9
    sharp = sample(real_unigram, word, alpha=100.0, count=20)
    assert {s.pieces for s in sharp} == {top[0].pieces}


def test_refusals(fixture_unigram):
    bpe = SentencePieceTokenizer(train_proto(model_type="bpe", vocab_size=60)[0])
    with pytest.raises(InputError, match="is a SentencePiece bpe model: n-best and sampling need a Unigram model"):
        nbest(bpe, "the", 2)
    with pytest.raises(InputError, match="the n-best count must be an integer from 1 to 512, not 0"):
        nbest(fixture_unigram, "the", 0)
    with pytest.raises(InputError, match="^alpha must be a positive number, not -1$"):
        sample(fixture_unigram, "the", alpha=-1)
    with pytest.raises(InputError, match="the lattice is drawn for at most 200"):
        lattice(fixture_unigram, "the cat " * 40)
    with pytest.raises(InputError, match="only Unigram samples"):
        SampledSentencePieceTokenizer(bpe, alpha=0.1)


def test_sampled_tokenizer_gives_sentencepiece_draws(real_unigram):
    tok = SampledSentencePieceTokenizer(real_unigram, alpha=0.05)
    text = "Tokenizers split words into pieces."
    seen = set()
    for _ in range(30):
        tz = tok.tokenize(text)
        assert tok.decode(tz.ids) == text
        assert all(t.piece == real_unigram.piece(t.id) for t in tz.tokens)
        seen.add(tuple(tz.ids))
    assert len(seen) > 1  # alpha 0.05: the draws differ
    assert tuple(real_unigram.encode(text)) != () and tok.name.endswith("· sampled α=0.05")


def _sentencepiece_scores(sp, text: str, n: int) -> list[float]:
    """The scores SentencePiece writes in its n-best proto (field 3, a float32, of each entry)."""
    raw = sp.nbest_encode(text, nbest_size=n, out_type="serialized_proto")
    entries = [value for field, _wire, value in unigram_module._fields(raw) if field == 1]
    return [
        next(struct.unpack("<f", v)[0] for f, w, v in unigram_module._fields(e) if f == 3 and w == 5) for e in entries
    ]


@pytest.mark.parametrize("text", ["tokenization", "zzz tokenization", "the small world"])
def test_scores_are_sentencepieces_lattice_scores_with_unknowns_and_for_samples(fixture_unigram, text):
    """A sample's score (and the only one of ``n = 1``, which SentencePiece leaves 0) is the path's
    score in SentencePiece's lattice, unknown characters included: a sample of 'tokenization'
    ('z' is unknown) was scored without the unknown's penalty, P (at alpha) 2.87."""
    sp = fixture_unigram.processor
    theirs = _sentencepiece_scores(sp, text, 3)
    ours = nbest(fixture_unigram, text, 3)
    assert [s.score for s in ours] == pytest.approx(theirs, abs=1e-4)  # SentencePiece's float32 sums
    lat = lattice(fixture_unigram, text)
    assert nbest(fixture_unigram, text, 1)[0].score == pytest.approx(lat.best_score, abs=1e-9)
    spans = {(n.start, n.end, n.id): n.score for n in lat.nodes}  # one node a character for unknowns
    for drawn in sample(fixture_unigram, text, alpha=0.1, count=20):
        pos, path = 0, 0.0
        for piece, i in zip(drawn.pieces, drawn.ids):
            steps = (
                [(pos + k, pos + k + 1) for k in range(len(piece))] if i == sp.unk_id() else [(pos, pos + len(piece))]
            )
            path += sum(spans[(a, b, i)] for a, b in steps)
            pos += len(piece)
        assert drawn.score == pytest.approx(path, abs=1e-9)
        assert 0.0 < lat.probability(drawn.score, 0.1) <= 1.0


def test_an_unknown_run_scores_the_penalty_once_a_character(fixture_unigram):
    sp = fixture_unigram.processor
    low = min(sp.get_score(i) for i in range(sp.get_piece_size()) if sp.is_control(i) is False)
    (best,) = nbest(fixture_unigram, "zzz", 1)
    assert best.pieces == ("▁", "zzz") and best.ids == (3, sp.unk_id())
    assert best.score == pytest.approx(sp.get_score(3) + 3 * (low - 10.0), abs=1e-9)
    assert best.score == pytest.approx(_sentencepiece_scores(sp, "zzz", 2)[0], abs=1e-4)


def test_nbest_asks_sentencepiece_for_at_most_its_512(fixture_unigram):
    """SentencePiece refuses more than 512 n-best (an internal error): 512 works, 513 is refused
    with our message before it is asked."""
    from tokexplorer.core.analysis import MAX_NBEST

    assert MAX_NBEST == 512
    best = nbest(fixture_unigram, "tokenization", 512)
    assert 1 <= len(best) <= 512
    assert [list(s.pieces) for s in best[:3]] == fixture_unigram.processor.nbest_encode_as_pieces("tokenization", 3)
    with pytest.raises(InputError, match=r"^the n-best count must be an integer from 1 to 512, not 513$"):
        nbest(fixture_unigram, "tokenization", 513)
    assert len(sample(fixture_unigram, "tokenization", alpha=0.1, count=1000)) == 1000  # draws: up to 1,000
