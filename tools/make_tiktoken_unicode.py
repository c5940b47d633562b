"""Write tokexplorer/core/text/tiktoken_unicode.py: where tiktoken's character classes differ from ``regex``'s.

tiktoken runs its split patterns on the Rust ``fancy-regex``/``regex`` crates, whose Unicode
tables are older than those of the Python ``regex`` module our splitter uses. The table is
:func:`tokexplorer.core.text.class_drift.probe_class_table`: for each class of the split
patterns (``\\p{L}``, ``\\p{N}``... ``\\s``, and ``(?i:a)``... for each letter) a probe ``tiktoken.Encoding``
whose pattern is the class and whose ranks are the 256 bytes encodes the string of every
code point; tiktoken encodes only the text its pattern matches, so the bytes of its ids are
the code points in its class. The same question is asked of ``regex``, and the code points
where the two differ are written as ranges, with the versions of ``tiktoken`` and ``regex``
they hold for (at run time, other versions are probed again).

This script also checks that ``regex`` assigns exactly the code points ``unicodedata2``
assigns (so that the Unicode version written for ``regex`` is ``unicodedata2``'s).

Run (a few seconds):  python tools/make_tiktoken_unicode.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import regex
import tiktoken
import unicodedata2

from tokexplorer.core.text.class_drift import probe_class_table

OUT = Path(__file__).resolve().parent.parent / "tokexplorer" / "core" / "text" / "tiktoken_unicode.py"


def _ranges_lines(ranges: tuple[tuple[int, int], ...]) -> list[str]:
    if not ranges:
        return ["        (),"]
    lines = ["        ("]
    row = "           "
    for a, b in ranges:
        item = f" (0x{a:X}, 0x{b:X}),"
        if len(row) + len(item) > 110:
            lines.append(row)
            row = "           "
        row += item
    return [*lines, row, "        ),"]


def main() -> int:
    cps = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    every = "".join(map(chr, cps))
    regex_assigned = {ord(ch) for ch in regex.findall(r"\P{Cn}", every)}
    if regex_assigned != {c for c in cps if unicodedata2.category(chr(c)) != "Cn"}:
        print("regex and unicodedata2 follow different Unicode versions; install matching ones", file=sys.stderr)
        return 1
    table = probe_class_table()
    lines = [
        '"""Where tiktoken\'s character classes differ from those of the ``regex`` module (generated).',
        "",
        "Written by ``tools/make_tiktoken_unicode.py`` (see there how: each code point is put",
        "through tiktoken's own regex), do not edit. tiktoken's split patterns run on the Rust",
        f"regex crate, whose tables follow Unicode {table.tiktoken_unicode}; ``regex`` follows Unicode",
        f"{table.regex_unicode}, so the code points assigned since are letters or digits to",
        "``regex`` and unassigned to tiktoken. Ranges are inclusive code point ranges. The table",
        "holds for the versions of tiktoken and regex below; with others installed,",
        ":func:`tokexplorer.core.text.class_drift.class_table` probes the engines again.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "#: The tiktoken and regex versions this table was generated with.",
        f'TIKTOKEN_VERSION = "{tiktoken.__version__}"',
        f'REGEX_VERSION = "{regex.__version__}"',
        f"#: The Unicode version of tiktoken's regex tables (tiktoken {tiktoken.__version__}).",
        f'TIKTOKEN_UNICODE_VERSION = "{table.tiktoken_unicode}"',
        f"#: The Unicode version of the ``regex`` module's tables (regex {regex.__version__}).",
        f'REGEX_UNICODE_VERSION = "{table.regex_unicode}"',
        "",
        "#: Class of the split patterns (``L`` for ``\\p{L}``..., ``S`` for ``\\s``, ``i:s`` for",
        "#: ``(?i:s)``...) -> (ranges ``regex`` puts in the class but tiktoken does not, ranges",
        "#: tiktoken puts in it but ``regex`` does not).",
        "CLASS_DIFFS: dict[str, tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {",
    ]
    for key, (only_regex, only_tiktoken) in table.diffs.items():
        if not only_regex and not only_tiktoken:
            lines.append(f'    "{key}": ((), ()),')
            continue
        lines += [f'    "{key}": (', *_ranges_lines(only_regex), *_ranges_lines(only_tiktoken), "    ),"]
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} (tiktoken: Unicode {table.tiktoken_unicode}, regex: Unicode {table.regex_unicode})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
