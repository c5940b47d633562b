"""``encode``, ``decode`` and ``compare``: a text and its token ids under one or
more tokenizers."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from tokexplorer.cli.errors import UsageError
from tokexplorer.cli.inputs import input_text, load, load_all, set_add_special_tokens
from tokexplorer.cli.output import PROG, note, print_json, print_named_notes, print_notes, say, table, write_out
from tokexplorer.core.errors import InputError
from tokexplorer.core.text import grapheme_parts
from tokexplorer.core.types import Tokenization


def tokenization_json(result: Tokenization, tokenizer: Tokenizer) -> dict:
    """``result.to_json()`` with ``"partial_grapheme": true`` and ``"grapheme_part"``
    (its role, e.g. ``"combining mark U+0301 ◌́ of grapheme é"``) added to each
    token that holds whole code points but only part of a grapheme cluster; for a
    tokenizer whose tokens leave out the spaces between words (WordPiece), each token's
    ``"word_start"`` (:func:`~tokexplorer.core.backends.word_boundaries.word_starts`)."""
    from tokexplorer.core.backends import word_starts

    obj = result.to_json()
    for i, part in grapheme_parts(result).items():
        obj["tokens"][i].update(partial_grapheme=True, grapheme_part=part)
    for token, start in zip(obj["tokens"], word_starts(tokenizer, result) or ()):
        token["word_start"] = start
    return obj


if TYPE_CHECKING:  # the engine is imported when the command runs
    from tokexplorer.core.backends import Tokenizer

#: The sampling parameter ``encode --sample`` uses without ``--alpha``.
DEFAULT_ALPHA = 0.1


def _unigram_flags(ns: argparse.Namespace) -> None:
    """Refuse the Unigram flags without ``--json`` or out of their pairing.

    Raises:
        UsageError: ``--nbest``/``--sample`` without ``--json``, or ``--alpha``/``--samples`` without ``--sample``.
    """
    if (ns.nbest is not None or ns.sample) and not ns.json:
        raise UsageError("--nbest and --sample add to the JSON output: pass --json", f"{PROG} encode")
    if (ns.alpha is not None or ns.samples is not None) and not ns.sample:
        raise UsageError("--alpha and --samples go with --sample", f"{PROG} encode")


def _unigram_json(tokenizer: Tokenizer, text: str, ns: argparse.Namespace) -> dict:
    """The ``"nbest"`` and ``"samples"`` members ``--nbest``/``--sample`` ask for.

    Raises:
        InputError: the tokenizer is not a SentencePiece Unigram model, or a bad count or alpha.
    """
    from tokexplorer.core.analysis import nbest, sample

    out: dict = {}
    if ns.nbest is not None:
        out["nbest"] = [s.to_json() for s in nbest(tokenizer, text, ns.nbest)]
    if ns.sample:
        alpha = DEFAULT_ALPHA if ns.alpha is None else ns.alpha
        draws = sample(tokenizer, text, alpha=alpha, count=ns.samples or 1)
        out["sampling"] = {"alpha": alpha, "nbest_size": -1}
        out["samples"] = [s.to_json() for s in draws]
    return out


def cmd_encode(ns: argparse.Namespace) -> int:
    """``tokexplorer encode``: ids, JSON, or the token count; with ``--json``,
    ``--nbest`` and ``--sample`` add a Unigram model's n best and sampled segmentations."""
    _unigram_flags(ns)
    tokenizer = load(ns.tokenizer, ns.pattern)
    set_add_special_tokens([tokenizer], ns.add_special_tokens)
    text = input_text(ns)
    if ns.json:  # the only output with spans
        result = tokenizer.tokenize(text, special=ns.special)
        print_notes(result)
        print_json(tokenization_json(result, tokenizer) | _unigram_json(tokenizer, text, ns))
        return 0
    if ns.count:  # the count and its notes from one run where the notes need the library's output
        from tokexplorer.core.analysis import count_tokens_noted
        from tokexplorer.core.analysis.text_tokens import added_note, text_tokens_only

        # the text's tokens, as stats counts them; the post-processor's named apart
        counted, added = text_tokens_only(tokenizer)
        n, notes = count_tokens_noted(counted, text, special=ns.special)
        extra = added_note(added, n, texts=1)
        if extra:
            notes = tuple(x for x in notes if not x.startswith("add special tokens: off")) + (extra,)
        out = str(n)
    else:
        ids, notes = tokenizer.encode_with_notes(text, special=ns.special)
        out = " ".join(map(str, ids))
    for line in notes + tokenizer.counting_notes:
        note(line)
    say(out)
    return 0


def cmd_decode(ns: argparse.Namespace) -> int:
    """``tokexplorer decode``: the text of ids (``errors="replace"``), or their bytes in hex."""
    words = ns.ids
    if not words or words == ["-"]:
        if sys.stdin is None or sys.stdin.isatty():
            raise UsageError("give token ids, or pipe them on stdin", f"{PROG} decode")
        words = sys.stdin.read().split()
    ids = []
    for w in words:
        try:
            ids.append(int(w))
        except ValueError:
            raise InputError(f"token id {w!r} is not an integer") from None
    tokenizer = load(ns.tokenizer, ns.pattern)
    data = tokenizer.decode_bytes(ids)
    if ns.bytes:
        say(data.hex())
    else:
        # exactly the text, so that ``encode | decode`` gives a file back byte
        # for byte; a newline only for a terminal, to keep the prompt apart
        text = data.decode("utf-8", "replace")
        write_out(text)
        if text and not text.endswith("\n") and sys.stdout.isatty():
            write_out("\n")
    return 0


def cmd_compare(ns: argparse.Namespace) -> int:
    """``tokexplorer compare``: one row (or JSON object) per tokenizer, named by its
    distinct name; each distinct note once, after the names of the tokenizers that gave it."""
    tokenizers = load_all(ns.tokenizer, ns.pattern)
    set_add_special_tokens(tokenizers, ns.add_special_tokens)
    text = input_text(ns)
    if ns.json:
        results = [tok.tokenize(text, special=ns.special) for tok in tokenizers]
        print_named_notes([(tok.name, r.notes) for tok, r in zip(tokenizers, results)])
        print_json([tokenization_json(r, tok) for r, tok in zip(results, tokenizers)])
        return 0
    from tokexplorer.core.analysis import count_tokens_noted
    from tokexplorer.core.text import clean_text

    n_chars = len(clean_text(text).text)
    rows = [["tokenizer", "tokens", "chars/token"]]  # each row named once, by its distinct name
    named_notes = []
    for tok in tokenizers:
        n, notes = count_tokens_noted(tok, text, special=ns.special)
        named_notes.append((tok.name, notes + tok.counting_notes))
        cpt = f"{n_chars / n:.2f}" if n else "—"  # as stats shows a missing value
        rows.append([tok.name, str(n), cpt])
    print_named_notes(named_notes)
    write_out(table(rows, right=[False, True, True]))
    return 0
