"""Special token texts as one pattern, for the model (:mod:`tokexplorer.core.bpe.model`)
and the counting (:mod:`tokexplorer.core.bpe.counting`); a module of its own so that
loading a model does not import the counting's process pools."""

from __future__ import annotations

from collections.abc import Iterable

import regex

__all__ = ["special_regex"]


def special_regex(specials: Iterable[str]) -> regex.Pattern[str] | None:
    """One regex matching any of the special token texts (longest first), or None.

    >>> special_regex(["<a>", "<ab>"]).pattern, special_regex([])
    ('<ab>|<a>', None)
    """
    toks = sorted(set(specials), key=lambda s: (-len(s), s))
    if not toks:
        return None
    return regex.compile("|".join(regex.escape(t) for t in toks))
