"""``tokexplorer train --algorithm sp-bpe|sp-unigram`` with the SentencePiece options.

Every option is checked against SentencePiece itself: the model the command
line saves holds exactly the pieces and scores (read back with
``sentencepiece.SentencePieceProcessor``) that ``SentencePieceTrainer.train``
gives when it reads the same file with the same options, as ``spm_train`` does.
Each case also shows that the option changes the model on this corpus, so a
flag that was dropped on the way would fail.

SentencePiece's unigram trainer sums its statistics per thread, so its scores
depend on the thread count; tokexplorer trains with 2 threads, and the unigram
references are trained with ``num_threads=2``. The BPE references keep
SentencePiece's default thread count (16), which gives the same model.
"""

from __future__ import annotations

import io
import itertools
import tempfile
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import sentencepiece as spm

from tokexplorer.cli import main
from tokexplorer.cli.commands import train as train_command
from tokexplorer.cli.commands.train import SP_FLAGS
from tokexplorer.core.backends import SentencePieceOptions

#: Piece counts that fit the corpus with every option (the unigram trainer makes fewer).
VOCAB = {"bpe": 80, "unigram": 56}
#: A text the models encode: how they normalize and cut it shows the normalizer
#: settings, which the pieces alone do not (a BPE keeps its pieces when only
#: whitespace handling changes).
PROBE = "  the big  cat 1234 \uff21\uff22 Hello \u01c5 \ua66e \u2603  "
#: Our trainer's thread count (tokexplorer.core.backends.sentencepiece.training).
OUR_THREADS = 2


def corpus_text() -> str:
    """A generated corpus where every option changes the model: 339 lines with
    digits, double spaces, a line of spaces and an empty one, U+0085 inside a
    line, full-width and capital letters, and two characters seen once (rarer
    than SentencePiece's default coverage keeps)."""
    adj = "good bad old new big small".split()
    noun = "day cat hat mat world home tab lead trail".split()
    lines = [
        f"the {a} {n} is  here {i * 37 % 1000}."
        for i, (a, n, _) in enumerate(itertools.product(adj, noun, range(6)))
    ]
    lines += ["\uff21\uff22\uff23 Hello World \u2460\u2461", "caf\u00e9 na\u00efve \u00c6r\u00f8"] * 3
    lines += ["   spaced    out  "] * 3
    lines.insert(100, " ")  # a line of spaces is a sentence to SentencePiece (an empty line is not)
    lines.insert(200, "")
    lines += ["one\x85line"] * 3  # U+0085 is a line break to str.splitlines, not to SentencePiece
    lines += ["rare \u01c5 \ua66e"]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sp_cli") / "corpus.txt"
    path.write_bytes(corpus_text().encode("utf-8"))
    return path


def pieces(model: bytes) -> tuple[list[tuple[str, float]], list[int]]:
    """Every piece of a serialized model with its score, in id order, and the ids of :data:`PROBE`."""
    sp = spm.SentencePieceProcessor(model_proto=model)
    return [(sp.id_to_piece(i), sp.get_score(i)) for i in range(sp.get_piece_size())], sp.encode(PROBE)


@cache
def _reference(path: str, items: tuple[tuple[str, Any], ...]) -> bytes:
    buf = io.BytesIO()
    with tempfile.TemporaryFile() as log:
        spm.SentencePieceTrainer.train(input=path, model_writer=buf, logstream=log, **dict(items))
    return buf.getvalue()


def reference(corpus: Path, model_type: str, **options: Any) -> tuple[list[tuple[str, float]], list[int]]:
    """What SentencePiece itself trains from the file (as ``spm_train --input``),
    with ``vocab_size`` from :data:`VOCAB` unless ``options`` name another."""
    options = dict(dict(model_type=model_type, vocab_size=VOCAB[model_type]), **options)
    if model_type == "unigram":
        options["num_threads"] = OUR_THREADS
    return pieces(_reference(str(corpus), tuple(sorted(options.items()))))


def cli_pieces(capfd, tmp_path: Path, corpus: Path, model_type: str, *flags: str) -> tuple[tuple, str]:
    """Train with ``tokexplorer train``; return the saved model's :func:`pieces` and the report line."""
    model = tmp_path / f"{model_type}.model"
    args = ["train", str(corpus), "--vocab-size", str(VOCAB[model_type]), "--algorithm", f"sp-{model_type}"]
    code = main([*args, *flags, "-o", str(model)])
    out, err = capfd.readouterr()  # capfd: SentencePiece's trainer writes to fd 2
    assert code == 0, err
    return pieces(model.read_bytes()), out


#: (flags, the SentencePiece options they stand for; ``extra_vocab``: pieces
#: added to the size of :data:`VOCAB`, for the 256 byte pieces)
CASES = [
    (["--character-coverage", "0.9995"], dict(character_coverage=0.9995)),
    (["--character-coverage", "0.98"], dict(character_coverage=0.98)),
    (["--byte-fallback"], dict(character_coverage=1.0, byte_fallback=True, extra_vocab=260)),
    (["--normalization", "identity"], dict(character_coverage=1.0, normalization_rule_name="identity")),
    (["--normalization", "nmt_nfkc_cf"], dict(character_coverage=1.0, normalization_rule_name="nmt_nfkc_cf")),
    (["--normalization", "nfkc_cf"], dict(character_coverage=1.0, normalization_rule_name="nfkc_cf")),
    (["--no-remove-extra-whitespaces"], dict(character_coverage=1.0, remove_extra_whitespaces=False)),
    (["--split-digits"], dict(character_coverage=1.0, split_digits=True)),
    (
        ["--max-sentence-length", "26", "--skip-long-lines"],
        dict(character_coverage=1.0, max_sentence_length=26),
    ),
    (
        ["--character-coverage", "0.9995", "--split-digits", "--normalization", "identity",
         "--no-remove-extra-whitespaces"],
        dict(split_digits=True, normalization_rule_name="identity", remove_extra_whitespaces=False),
    ),  # fmt: skip
]


@pytest.mark.parametrize("model_type", ["bpe", "unigram"])
@pytest.mark.parametrize(("flags", "options"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_option_gives_sentencepieces_model(capfd, tmp_path, corpus, model_type, flags, options):
    options = dict(options)
    vocab = VOCAB[model_type] + options.pop("extra_vocab", 0)
    got, _ = cli_pieces(capfd, tmp_path, corpus, model_type, *flags, "--vocab-size", str(vocab))
    want = reference(corpus, model_type, vocab_size=vocab, **options)
    assert got == want
    assert want != reference(corpus, model_type, character_coverage=1.0)  # what no flag gives


@pytest.mark.parametrize("model_type", ["bpe", "unigram"])
def test_default_coverage_is_ours_and_the_report_says_so(capfd, tmp_path, corpus, model_type, monkeypatch):
    times = itertools.count(10.0, 0.5)
    monkeypatch.setattr(train_command, "_clock", lambda: next(times))
    got, out = cli_pieces(capfd, tmp_path, corpus, model_type)
    assert got == reference(corpus, model_type, character_coverage=1.0)
    assert got != reference(corpus, model_type)  # SentencePiece's own default, 0.9995
    model = tmp_path / f"{model_type}.model"
    assert out == (
        f"trained SentencePiece {model_type}; vocab {VOCAB[model_type]}; character coverage 1.0 "
        f"(the default; spm_train's is 0.9995); 0.5 s; saved to {model}\n"
    )


def test_given_coverage_is_in_the_report(capfd, tmp_path, corpus):
    got, out = cli_pieces(capfd, tmp_path, corpus, "bpe", "--character-coverage", "0.9995")
    assert got == reference(corpus, "bpe")  # a plain spm_train
    assert "; character coverage 0.9995; " in out
    assert "default" not in out


def test_bpe_reference_does_not_depend_on_threads(corpus):
    """Why the BPE cases may compare with SentencePiece's default thread count."""
    assert reference(corpus, "bpe") == reference(corpus, "bpe", num_threads=OUR_THREADS)


def test_every_option_has_a_flag():
    dests = {f.name for f in fields(SentencePieceOptions)} - {"model_type"} | {"skip_long_lines"}
    assert set(SP_FLAGS) == dests


def test_help_names_the_flags_and_both_coverages(capsys):
    assert main(["train", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for flag in SP_FLAGS.values():
        assert flag in out
    assert "--no-remove-extra-whitespaces" in out
    assert "Default 1.0, every character" in out
    assert "spm_train's default is 0.9995" in out
    assert "{nmt_nfkc,nfkc,nmt_nfkc_cf,nfkc_cf,identity}" in out


# ---------------------------------------------------------------------------
# usage errors
# ---------------------------------------------------------------------------


def run_error(capfd, *args: str) -> tuple[int, str]:
    code = main(list(args))
    out, err = capfd.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return code, lines[0]


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--character-coverage", "1.0"], "--character-coverage applies"),
        (["--byte-fallback"], "--byte-fallback applies"),
        (["--normalization", "identity"], "--normalization applies"),
        (["--max-sentence-length", "100"], "--max-sentence-length applies"),
        (["--skip-long-lines"], "--skip-long-lines applies"),
        (["--no-remove-extra-whitespaces", "--split-digits"], "--no-remove-extra-whitespaces, --split-digits apply"),
    ],
)
def test_sentencepiece_flags_refused_for_bpe(capfd, tmp_path, corpus, flags, named):
    model = tmp_path / "m.bpe"
    code, line = run_error(capfd, "train", str(corpus), "--vocab-size", "300", *flags, "-o", str(model))
    assert code == 2
    assert line == (
        f"tokexplorer train: error: {named} to --algorithm sp-bpe or sp-unigram (SentencePiece) only, "
        "not bpe (see 'tokexplorer train --help')"
    )
    assert not model.exists()


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--character-coverage", "0.9"], "argument --character-coverage: character_coverage 0.9 is outside "
                                          "0.98–1.0 (SentencePiece's range)"),
        (["--character-coverage", "1.5"], "argument --character-coverage: character_coverage 1.5 is outside"),
        (["--character-coverage", "all"], "argument --character-coverage: not a number: 'all'"),
        (["--normalization", "nfc"], "argument --normalization: invalid choice: 'nfc'"),
        (["--max-sentence-length", "0"], "argument --max-sentence-length: must be at least 1, not 0"),
        (["--max-sentence-length", "2k"], "argument --max-sentence-length: not a whole number: '2k'"),
    ],
)  # fmt: skip
def test_bad_option_values_are_usage_errors(capfd, tmp_path, corpus, flags, message):
    model = tmp_path / "m.model"
    args = ["train", str(corpus), "--vocab-size", "80", "--algorithm", "sp-bpe", *flags, "-o", str(model)]
    code, line = run_error(capfd, *args)
    assert code == 2
    assert line.startswith(f"tokexplorer train: error: {message}")
    assert not model.exists()


def test_long_lines_refused_without_skip_long_lines(capfd, tmp_path, corpus):
    model = tmp_path / "m.model"
    args = ["train", str(corpus), "--vocab-size", "80", "--algorithm", "sp-bpe", "--max-sentence-length", "26"]
    code = main([*args, "-o", str(model)])
    _, err = capfd.readouterr()
    sizes = [len(line.encode("utf-8")) for line in corpus_text().split("\n") if line]
    n_long, longest = sum(n > 26 for n in sizes), max(sizes)
    assert (code, n_long, longest, sizes.index(longest) + 1) == (1, 119, 29, 296)
    assert err.splitlines()[-1] == (
        "tokexplorer: error: 119 lines are longer than --max-sentence-length 26 bytes (longest: line 296, "
        "29 bytes); pass --max-sentence-length 29 to keep them, or --skip-long-lines to let SentencePiece "
        "skip them"
    )
    assert not model.exists()
