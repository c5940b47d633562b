"""Write tokexplorer/core/wordpiece/bert_unicode.py: where ``tokenizers``' BERT normalizer and
pre-tokenizer read characters otherwise than our ``bert`` rules do.

Our rules (``tokexplorer/core/wordpiece/pretokenize.py``) take categories from the ``regex``
module (Unicode 18.0), NFD from :mod:`unicodedata` and lowercasing from :meth:`str.lower`
(Python's Unicode); ``tokenizers`` takes its categories from older tables (Unicode 8.0) and NFD
and lowercasing from Rust's. Every code point is put through ``tokenizers`` itself (its
``BertNormalizer`` and ``BertPreTokenizer``), beside the plain rules, and what differs is written:

* format characters (``Cf``) it keeps, punctuation (``P*``) that is no punctuation to it, and
  characters that are punctuation to it but not to ``regex``;
* what its accent stripping makes of a character where NFD-and-drop-``Mn`` gives otherwise;
* what its lowercasing makes of a character where :meth:`str.lower` gives otherwise.

Run (under a minute):  python tools/make_bert_unicode.py
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import regex
import tokenizers
from tokenizers import normalizers, pre_tokenizers

OUT = Path(__file__).resolve().parent.parent / "tokexplorer" / "core" / "wordpiece" / "bert_unicode.py"
CODE_POINTS = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
_ASCII_PUNCT = regex.compile(r"[!-/:-@\[-`{-~]")


def _ranges(points: set[int]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for c in sorted(points):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return [(a, b) for a, b in out]


def _cleaned(c: int) -> bool:
    """True when the BERT normalizer's clean_text drops the code point."""
    lib = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False)
    return lib.normalize_str(f"x{chr(c)}y") == "xy"


def _probe_format() -> set[int]:
    fmt = [c for c in CODE_POINTS if regex.match(r"\p{Cf}", chr(c))]
    return {c for c in fmt if not _cleaned(c)}


def _probe_punctuation() -> tuple[set[int], set[int]]:
    pre = pre_tokenizers.BertPreTokenizer()
    lib = {c for c in CODE_POINTS if len(pre.pre_tokenize_str(f"x{chr(c)}y")) == 3}
    ours = {c for c in CODE_POINTS if regex.match(r"\p{P}", chr(c)) or _ASCII_PUNCT.match(chr(c))}
    return ours - lib, lib - ours


def _probe_mapping(lib: normalizers.Normalizer, ours) -> dict[int, str]:
    out = {}
    for c in CODE_POINTS:
        got = lib.normalize_str(chr(c))
        if got != ours(chr(c)):
            out[c] = got
    return out


def _strip(c: str) -> str:
    return "".join(x for x in unicodedata.normalize("NFD", c) if not regex.match(r"\p{Mn}", x))


def _wrapped(items: list[str]) -> list[str]:
    """``items`` in rows of at most 110 characters, each row indented by three spaces."""
    rows, row = [], "   "
    for item in items:
        if len(row) + len(item) > 110:
            rows.append(row)
            row = "   "
        row += item
    if row.strip():
        rows.append(row)
    return rows


def _dict_lines(name: str, doc: str, table: dict[int, str]) -> list[str]:
    items = [f" 0x{c:X}: {ascii(s)}," for c, s in sorted(table.items())]
    return [f"#: {doc}", f"{name}: dict[int, str] = {{", *_wrapped(items), "}  # fmt: skip"]


def _range_lines(name: str, doc: str, ranges: list[tuple[int, int]]) -> list[str]:
    items = [f" (0x{a:X}, 0x{b:X})," for a, b in ranges]
    return [f"#: {doc}", f"{name}: tuple[tuple[int, int], ...] = (", *_wrapped(items), ")  # fmt: skip"]


def main() -> int:
    kept_format = _probe_format()
    not_punct, only_punct = _probe_punctuation()
    strip = _probe_mapping(
        normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False),
        _strip,
    )
    lower = _probe_mapping(
        normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=False, lowercase=True),
        lambda c: c.lower(),
    )
    head = f'''"""Where ``tokenizers``' BERT normalizer and pre-tokenizer read characters otherwise than
our ``bert`` rules (generated).

Written by ``tools/make_bert_unicode.py`` (see there how: each code point is put through
``tokenizers`` itself), do not edit. Our rules take categories from the ``regex`` module
(Unicode 18.0), NFD and lowercasing from Python (Unicode {unicodedata.unidata_version}); ``tokenizers``
{tokenizers.__version__} takes its categories from older tables (Unicode 8.0) and NFD and lowercasing
from Rust's. The tables hold for the versions below.
"""

from __future__ import annotations

#: The tokenizers version and Python's Unicode version this table was generated with.
TOKENIZERS_VERSION = "{tokenizers.__version__}"
PYTHON_UNICODE_VERSION = "{unicodedata.unidata_version}"
'''
    body = [
        *_range_lines("KEPT_FORMAT", "Format characters (``Cf``) the normalizer keeps (newer than its tables).",
                      _ranges(kept_format)),
        "",
        *_range_lines("NOT_PUNCTUATION", "Punctuation (``P*``) to ``regex``, part of a word to the pre-tokenizer.",
                      _ranges(not_punct)),
        "",
        *_range_lines("ONLY_PUNCTUATION", "Punctuation to the pre-tokenizer that ``regex`` classes otherwise.",
                      _ranges(only_punct)),
        "",
        *_dict_lines("STRIP", "What accent stripping makes of a character where NFD-and-drop-``Mn`` gives otherwise.",
                     strip),
        "",
        *_dict_lines("LOWER", "What lowercasing makes of a character where :meth:`str.lower` gives otherwise.",
                     lower),
    ]  # fmt: skip
    OUT.write_text(head + "\n" + "\n".join(body) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(kept_format)} kept format, {len(not_punct)}+{len(only_punct)} punctuation, "
          f"{len(strip)} strip, {len(lower)} lower")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
