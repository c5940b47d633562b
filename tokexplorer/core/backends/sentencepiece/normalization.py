"""Running SentencePiece's normalizer on its own, and describing in words what it changed in a text."""

from __future__ import annotations

import difflib
from collections import Counter
from typing import Any

import unicodedata2


def load_normalizer(spm: Any, model_proto: bytes) -> Any:
    """The model's normalizer on its own (``spm.SentencePieceNormalizer``), or None where
    the installed sentencepiece has none (then the pieces tell what it made)."""
    try:
        return spm.SentencePieceNormalizer(model_proto=model_proto)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - older sentencepiece: fall back to decode
        return None


def run_normalizer(normalizer: Any, text: str, *, with_offsets: bool) -> Any:
    """``normalizer.Normalize(text)`` (a ``sentencepiece.SentencePieceNormalizer``): the
    normalized str, or with ``with_offsets`` a ``(str, offsets)`` pair; None when there is
    no normalizer (``normalizer`` None: an older sentencepiece), it fails or gives
    something else (older bindings without offsets).
    """
    if normalizer is None:
        return None
    try:
        out = normalizer.Normalize(text, with_offsets=True) if with_offsets else normalizer.Normalize(text)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - older bindings without offsets
        return None
    if with_offsets:
        return out if isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], str) else None
    return out if isinstance(out, str) else None


# --------------------------------------------------------------------------
# describing what the normalizer changed
# --------------------------------------------------------------------------

_WS_NAMES = {
    " ": ("space", "spaces"),
    "\t": ("tab", "tabs"),
    "\n": ("line break", "line breaks"),
    "\r": ("carriage return", "carriage returns"),
}


def _plural(n: int, names: tuple[str, str]) -> str:
    return f"{n:,} {names[0] if n == 1 else names[1]}"


def _tally(chars: list[str]) -> str:
    """Characters a normalizer removed or inserted, each distinct one once with how
    often: ``"4 spaces"`` (white space by name), ``"U+0301"``, ``"U+200B ×3"``; the
    first five kinds, then how many more kinds.

    >>> _tally([" ", "x", " ", "\u200b", "\u200b"])
    '2 spaces, U+0078, U+200B ×2'
    """
    counts: dict[str, int] = {}
    for ch in chars:
        counts[ch] = counts.get(ch, 0) + 1
    shown = [
        _plural(n, _WS_NAMES[ch]) if ch in _WS_NAMES else f"U+{ord(ch):04X}" + (f" ×{n:,}" if n > 1 else "")
        for ch, n in list(counts.items())[:5]
    ]
    more = f" and {len(counts) - 5:,} more kinds" if len(counts) > 5 else ""
    return ", ".join(shown) + more


def _rewrite(old: str, new: str) -> str:
    """``'︰' → '..'``; look-alikes (NFC vs NFD) with their code points."""
    if unicodedata2.normalize("NFC", old) == unicodedata2.normalize("NFC", new):
        points = [" ".join(f"U+{ord(c):04X}" for c in t) for t in (old, new)]
        return f"{old!r} ({points[0]}) → {new!r} ({points[1]})"
    return f"{old!r} → {new!r}"


def _without_space(text: str) -> str:
    """``text`` without its white space (``str.isspace``)."""
    return "".join(text.split())  # (str.split cuts at what str.isspace calls white space)


def _shown_chars(counts: Counter[str]) -> str:
    """``'…' ×13, 'ﬁ' ×2`` (the three most frequent, then how many kinds more)."""
    top = counts.most_common(3)
    shown = ", ".join(f"{ch!r} ×{n:,}" if n > 1 else repr(ch) for ch, n in top)
    return shown + (f" and {len(counts) - 3:,} more kinds" if len(counts) > 3 else "")


def _rewritten_counts(before: str, after: str) -> str:
    """What a normalizer rewrote in a long text (``before`` and ``after`` without white
    space), counted in linear time: the characters it took away (those more frequent
    before than after) and those it put instead; tagged NFKC when NFKC of ``before``
    is ``after``."""
    old, new = Counter(before), Counter(after)
    gone, came = old - new, new - old
    tag = " by NFKC" if unicodedata2.normalize("NFKC", before) == after else ""
    n_gone, n_came = sum(gone.values()), sum(came.values())
    if not gone and not came:  # the same characters in another order
        return f"non-whitespace characters reordered{tag}"
    if not gone:  # only new characters (Metaspace's '▁' for each space it took)
        return f"{n_came:,} character{'s' if n_came != 1 else ''} inserted ({_shown_chars(came)})"
    if not came:
        return f"{n_gone:,} non-whitespace character{'s' if n_gone != 1 else ''} removed ({_shown_chars(gone)})"
    text = f"{n_gone:,} non-whitespace character{'s' if n_gone != 1 else ''} rewritten{tag}"
    if gone:
        text += f" ({_shown_chars(gone)})"
    return text + f" into {n_came:,}" + (f" ({_shown_chars(came)})" if came else "")


def describe_normalization(original: str, normalized: str, *, limit: int = 2_000) -> str:
    """One line saying how a normalizer turned ``original`` into ``normalized``.

    Whitespace removals and whitespace turned into spaces are counted; other
    rewrites are listed (up to three) and tagged NFKC when
    ``unicodedata2.normalize("NFKC", old) == new``. Texts longer than ``limit``
    characters get counts only (the character diff is quadratic): how many of the
    whitespace characters went, and which other characters went and came instead
    (by how often each occurs before and after: the characters the normalizer
    rewrote, not the whole text).

    >>> describe_normalization("  lead and trail  ", "lead and trail")
    'normalized: 4 spaces removed'
    >>> describe_normalization("a\\ufe30b", "a..b")
    "normalized (NFKC): '︰' → '..'"
    >>> print(describe_normalization("ﬁne  ﬁsh ", "fine fish", limit=4).replace("; ", "\\n"))
    normalized: 2 of 3 whitespace characters removed
    2 non-whitespace characters rewritten by NFKC ('ﬁ' ×2) into 4 ('f' ×2, 'i' ×2)
    >>> describe_normalization("a b c", "\u2581a\u2581b\u2581c", limit=4)
    "normalized: 2 of 2 whitespace characters removed; 3 characters inserted ('▁' ×3)"
    >>> describe_normalization("a··b", "ab", limit=2)
    "normalized: 2 non-whitespace characters removed ('·' ×2)"
    >>> describe_normalization("你好 ok", " 你  好  ok", limit=4)
    'normalized: 4 whitespace characters added (1 before, 5 after)'
    >>> describe_normalization("你好", " 你  好 "), describe_normalization("a\\u200bb\\u200b", "ab")
    ('normalized: 4 spaces inserted', 'normalized: U+200B ×2 removed')
    >>> describe_normalization("a\\x01 cafe\\u0301", "a caf\\u00e9")
    "normalized (NFKC): U+0001 removed; 'e\u0301' (U+0065 U+0301) → '\u00e9' (U+00E9)"
    """
    if len(original) > limit or len(normalized) > limit:
        # difflib is quadratic: long texts get counts instead of a diff
        other_o, other_n = _without_space(original), _without_space(normalized)
        ws_o, ws_n = len(original) - len(other_o), len(normalized) - len(other_n)
        parts = []
        if ws_o > ws_n:
            parts.append(f"{ws_o - ws_n:,} of {ws_o:,} whitespace characters removed")
        elif ws_n > ws_o:  # BERT's normalizer puts a space on each side of every CJK character
            parts.append(f"{ws_n - ws_o:,} whitespace characters added ({ws_o:,} before, {ws_n:,} after)")
        if other_o != other_n:
            parts.append(_rewritten_counts(other_o, other_n))
        return "normalized: " + ("; ".join(parts) if parts else "whitespace rewritten")
    removed: dict[str, int] = {}
    to_space: dict[str, int] = {}
    rewrites: list[tuple[str, str]] = []
    dropped: list[str] = []
    added: list[str] = []
    nfkc = True
    sm = difflib.SequenceMatcher(None, original, normalized, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        old, new = original[i1:i2], normalized[j1:j2]
        if op == "equal":
            continue
        if op == "delete" and old.isspace():
            for ch in old:
                removed[ch] = removed.get(ch, 0) + 1
        elif op == "replace" and old.isspace() and new.strip(" ") == "":
            # whitespace run rewritten as spaces: the surplus is removed
            for ch in old:
                if ch != " ":
                    to_space[ch] = to_space.get(ch, 0) + 1
            surplus = len(old) - len(new)
            if surplus > 0:
                removed[" "] = removed.get(" ", 0) + surplus
        elif op == "delete":
            dropped.extend(old)
        elif op == "insert":
            added.extend(new)
        else:
            rewrites.append((old, new))
            if unicodedata2.normalize("NFKC", old) != new:
                nfkc = False
    parts: list[str] = []
    if removed:
        parts.append(
            ", ".join(_plural(n, _WS_NAMES.get(ch, (repr(ch), repr(ch)))) for ch, n in removed.items()) + " removed"
        )
    for ch, n in to_space.items():
        names = _WS_NAMES.get(ch, (f"U+{ord(ch):04X}", f"U+{ord(ch):04X}"))
        parts.append(f"{_plural(n, names)} turned into {'a space' if n == 1 else 'spaces'}")
    if dropped:
        parts.append(f"{_tally(dropped)} removed")
    if added:
        parts.append(f"{_tally(added)} inserted")
    if rewrites:
        shown = ", ".join(_rewrite(o, n) for o, n in rewrites[:3])
        more = f" and {len(rewrites) - 3} more" if len(rewrites) > 3 else ""
        parts.append(shown + more)
    tag = " (NFKC)" if rewrites and nfkc else ""
    return f"normalized{tag}: " + "; ".join(parts) if parts else "normalized: text changed"
