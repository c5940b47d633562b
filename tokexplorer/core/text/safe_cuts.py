"""Where text may be cut without changing how it splits: the safe cut points.

A *safe cut point* of the built-in split patterns (gpt2, cl100k, o200k) is a
position where every pattern ends a chunk and where scanning the two sides
separately gives the same chunks as scanning the whole text (none of the
patterns looks behind, and the left side's last chunk never depends on the
character after it). Pre-tokenizing or counting the pieces of a text cut there
gives exactly the chunks of the whole text.

The one rule every user shares is :data:`LINE_START_CUT`: after a line break
that follows a non-space character, before a letter or digit (``x\\n|T``). The
line break is a chunk of its own, or ends a punctuation chunk, with or without
the cut (the ``\\s++$`` and ``\\s+(?!\\S)`` branches agree because only one
whitespace character is involved), and SentencePiece starts a new ``▁word``
there as well.

Each user adds one rule of its own for text without such line breaks; they
differ on purpose and are named here:

* :data:`SPACE_CUT`, after a non-space character followed by a space and a
  non-space (``word| word``, ``x| ;``): the splitter
  (:class:`~tokexplorer.core.text.pretokenize.Splitter`), which only needs
  cuts where the patterns agree;
* :data:`LETTER_SPACE_CUT`, between a letter and a space followed by a letter
  (``ab| cd``): chunk counting for training
  (:func:`tokexplorer.core.bpe.counting.safe_pieces`), with its ASCII twin on
  raw file bytes (:data:`LINE_START_CUT_ASCII`, :data:`LETTER_SPACE_CUT_ASCII`;
  a byte below 0x80 is that ASCII character in UTF-8 and in ASCII-compatible
  encodings);
* :data:`WORD_SPACE_CUT`, between a letter or digit and a space followed by a
  letter (``a1| cd``): the blocks of corpus statistics and of the compare pane
  (:func:`tokexplorer.core.analysis.blocks.text_blocks`), as a fallback when no
  line start is near.

>>> import regex
>>> [m.start() for m in regex.finditer(LINE_START_CUT, "a\\nB \\nc\\n\\nd")]
[2]
>>> def cut_points(rule, text):
...     return [m.start() for m in regex.finditer(rule, text)]
>>> cut_points(SPACE_CUT, "ab cd ;e"), cut_points(LETTER_SPACE_CUT, "ab cd ;e")
([2, 5], [2])
>>> cut_points(LETTER_SPACE_CUT, "a1 cd"), cut_points(WORD_SPACE_CUT, "a1 cd")
([], [2])
"""

from __future__ import annotations

#: A safe cut of every built-in pattern: after a line break that follows a
#: non-space character, before a letter or digit (``x\n|T``). Zero-width.
LINE_START_CUT = r"(?<=\S\n)(?=[\p{L}\p{N}])"

#: The cuts of :data:`LINE_START_CUT`, found fast: a match is the line break
#: before a cut (the cut is the match's end), so a search skips to line breaks
#: instead of trying every character (14 times faster on indented prose). To find
#: the first cut at or after ``pos``, search from ``pos - 1``.
#:
#: >>> import regex
#: >>> [m.end() for m in regex.finditer(LINE_START_CUT_AT_BREAK, "a\nB \nc\n\nd")]
#: [2]
LINE_START_CUT_AT_BREAK = r"(?<=\S)\n(?=[\p{L}\p{N}])"

#: The splitter's second rule: after a non-space character followed by a space
#: and a non-space (``word| word``, ``x| ;``).
SPACE_CUT = r"(?<=\S)(?= \S)"

#: Chunk counting's second rule: between a letter and a space followed by a letter (``ab| cd``).
LETTER_SPACE_CUT = r"(?<=\p{L})(?= \p{L})"

#: The statistics blocks' second rule: between a letter or digit and a space
#: followed by a letter (``a1| cd``).
WORD_SPACE_CUT = r"(?<=[\p{L}\p{N}])(?= \p{L})"

#: :data:`LINE_START_CUT` on raw bytes, ASCII only: after a ``\n`` that follows a
#: printable non-space ASCII byte, before an ASCII letter or digit.
LINE_START_CUT_ASCII = rb"(?<=[\x21-\x7e]\n)(?=[A-Za-z0-9])"

#: :data:`LETTER_SPACE_CUT` on raw bytes, ASCII letters only.
LETTER_SPACE_CUT_ASCII = rb"(?<=[A-Za-z])(?= [A-Za-z])"
