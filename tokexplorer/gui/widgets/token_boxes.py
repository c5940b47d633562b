"""Token boxes of the byte inspector when several tokens share one span.

SentencePiece pieces made from one character the normalizer expanded (NFKC:
``'…'`` → ``'...'``) all span that character: the inspector draws them as one box
labelled with every id, and its hover text names the others.
"""

from __future__ import annotations

from collections.abc import Sequence

from tokexplorer.core.types import Token


def box_labels(tokens: Sequence[Token]) -> list[str | None]:
    """The label of each token's box: its id; tokens sharing one span share one box
    labelled with all their ids (``"94 94 94"``), the others get None (no box of
    their own).

    >>> box_labels([Token(94, b".", 1, 4, 1, 2, False)] * 3 + [Token(102, b"b", 4, 5, 2, 3, False)])
    ['94 94 94', None, None, '102']
    """
    out: list[str | None] = []
    i = 0
    while i < len(tokens):
        j = i + 1
        span = (tokens[i].byte_start, tokens[i].byte_end)
        while j < len(tokens) and (tokens[j].byte_start, tokens[j].byte_end) == span and span[1] > span[0]:
            j += 1
        out.append(" ".join(str(t.id) for t in tokens[i:j]))
        out.extend([None] * (j - i - 1))
        i = j
    return out


def shared_line(tokens: Sequence[Token], index: int, offset: int) -> str:
    """``"\\nalso tokens 2, 3 over this byte"``: the later tokens that also cover byte
    ``offset`` besides token ``index`` (``""`` when none).

    >>> shared_line([Token(94, b".", 1, 4, 1, 2, False)] * 3, 0, 2)
    '\\nalso tokens 1, 2 over this byte'
    """
    same = []
    for k in range(index + 1, len(tokens)):
        if tokens[k].byte_start > offset:
            break
        if offset < tokens[k].byte_end:
            same.append(k)
    if not same:
        return ""
    return f"\nalso token{'s' if len(same) > 1 else ''} {', '.join(map(str, same))} over this byte"
