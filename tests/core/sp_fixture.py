"""The SentencePiece fixture of docs edge-cases.md, as importable helper code.

The fixture corpus is generated, so the three models (SP120, SPID, SPBF) can be
rebuilt exactly in a test run; training all three takes a few seconds.
"""

from __future__ import annotations

import io
import itertools
import tempfile
from collections.abc import Sequence
from typing import Any

import sentencepiece as spm


def fixture_lines() -> list[str]:
    """The 300 fixture lines (33 distinct characters, space included)."""
    adj = "good bad old new big small".split()
    noun = "day cat hat mat world home tab lead trail".split()
    end = ["is here.", "is ok.", "and more.", "was there.", "went away."]
    lines = [f"the {a} {n} {e}" for a, n, e in itertools.product(adj, noun, end)]
    lines += [
        "hello world",
        "Max and Ann",
        "la col\u00b7lecci\u00f3",
        "dis \u02bcn goeie dag",
        "\U0001F469\u200d\U0001F52C lab",
        "\u0dc1\u0dca\u200d\u0dbb\u0dd3 ok",
    ] * 5
    return lines


def train_proto(lines: Sequence[str] | None = None, **options: Any) -> tuple[bytes, str]:
    """Train with the fixture defaults straight through SentencePiece.

    Returns:
        (serialized ModelProto, captured trainer log text).

    Raises:
        RuntimeError: SentencePiece refused (E19/E20 cases).
    """
    opts: dict[str, Any] = dict(
        model_type="bpe", vocab_size=120, character_coverage=1.0, num_threads=1
    )
    opts.update(options)
    buf = io.BytesIO()
    with tempfile.TemporaryFile() as log:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(lines or fixture_lines()), model_writer=buf, logstream=log, **opts
        )
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    return buf.getvalue(), text


def train(lines: Sequence[str] | None = None, **options: Any) -> spm.SentencePieceProcessor:
    """A raw SentencePieceProcessor trained like edge-cases.md's ``train()``."""
    proto, _log = train_proto(lines, **options)
    return spm.SentencePieceProcessor(model_proto=proto)


SP120_OPTIONS: dict[str, Any] = {}
SPID_OPTIONS: dict[str, Any] = dict(normalization_rule_name="identity", remove_extra_whitespaces=False)
SPBF_OPTIONS: dict[str, Any] = dict(vocab_size=400, byte_fallback=True)
