"""Write tokexplorer/core/text/tiktoken_unicode.py: where tiktoken's character classes differ from ``regex``'s.

tiktoken runs its split patterns on the Rust ``fancy-regex``/``regex`` crates, whose Unicode
tables are older than those of the Python ``regex`` module our splitter uses. This script asks
tiktoken itself which class each code point is in: for each class ``\\p{X}`` of the split
patterns it builds a probe ``tiktoken.Encoding`` whose pattern is ``\\x01\\p{X}|[\\s\\S]`` and
whose ranks are the 256 bytes plus one token ``01 NN`` per byte ``NN``; encoding ``"\\x01" + c``
then starts with a token >= 256 exactly when tiktoken's chunk holds ``\\x01`` and ``c``
together, that is when ``c`` is in tiktoken's ``\\p{X}``. The same question is asked of
``regex``. The code points where the two differ are written as ranges.

The Unicode version each side follows is read off marker letters, the first letters of
scripts new in each version (Kawi 15.0, CJK extension I 15.1, Garay 16.0, Sidetic 17.0), and
for ``regex`` by checking that it assigns exactly the code points ``unicodedata2`` assigns.

Run (about 3 minutes on two cores):  python tools/make_tiktoken_unicode.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import regex
import tiktoken
import unicodedata2

CLASSES = {
    "L": r"\p{L}", "N": r"\p{N}", "M": r"\p{M}", "Lu": r"\p{Lu}", "Ll": r"\p{Ll}",
    "Lt": r"\p{Lt}", "Lm": r"\p{Lm}", "Lo": r"\p{Lo}", "S": r"\s",
}
#: the first letter of a script new in each Unicode version
MARKERS = {"15.0": 0x11F04, "15.1": 0x2EBF0, "16.0": 0x10D4A, "17.0": 0x10940}
OUT = Path(__file__).resolve().parent.parent / "tokexplorer" / "core" / "text" / "tiktoken_unicode.py"


def _ranges(points: set[int]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for c in sorted(points):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return [(a, b) for a, b in out]


def tiktoken_members(cls: str, cps: list[int]) -> set[int]:
    """The code points tiktoken's regex puts in ``cls``."""
    ranks = {bytes([b]): b for b in range(256)} | {b"\x01" + bytes([b]): 256 + b for b in range(256)}
    enc = tiktoken.Encoding(name="probe", pat_str=f"\\x01{cls}|[\\s\\S]", mergeable_ranks=ranks, special_tokens={})
    texts = ["\x01" + chr(c) for c in cps]
    return {c for c, ids in zip(cps, enc.encode_ordinary_batch(texts, num_threads=2)) if ids[0] >= 256}


def main() -> int:
    cps = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    every = "".join(map(chr, cps))
    regex_assigned = {ord(ch) for ch in regex.findall(r"\P{Cn}", every)}
    if regex_assigned != {c for c in cps if unicodedata2.category(chr(c)) != "Cn"}:
        print("regex and unicodedata2 follow different Unicode versions; install matching ones", file=sys.stderr)
        return 1
    diffs: dict[str, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
    letters: set[int] = set()
    for key, cls in CLASSES.items():
        tk = tiktoken_members(cls, cps)
        rx = {ord(ch) for ch in regex.findall(cls, every)}
        diffs[key] = (_ranges(rx - tk), _ranges(tk - rx))
        if key == "L":
            letters = tk
        print(f"{key}: regex {len(rx)}, tiktoken {len(tk)}", flush=True)
    known = [v for v, c in MARKERS.items() if c in letters]
    version = known[-1] if known else "older than 15.0"
    lines = [
        '"""Where tiktoken\'s character classes differ from those of the ``regex`` module (generated).',
        "",
        "Written by ``tools/make_tiktoken_unicode.py`` (see there how: each code point is put",
        "through tiktoken's own regex), do not edit. tiktoken's split patterns run on the Rust",
        f"regex crate, whose tables follow Unicode {version}; ``regex`` follows Unicode",
        f"{unicodedata2.unidata_version}, so the code points assigned since are letters or digits to",
        "``regex`` and unassigned to tiktoken. Ranges are inclusive code point ranges.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        f"#: The Unicode version of tiktoken's regex tables (tiktoken {tiktoken.__version__}).",
        f'TIKTOKEN_UNICODE_VERSION = "{version}"',
        f"#: The Unicode version of the ``regex`` module's tables (regex {regex.__version__}).",
        f'REGEX_UNICODE_VERSION = "{unicodedata2.unidata_version}"',
        "",
        "#: Class of the split patterns (``L`` for ``\\p{L}``..., ``S`` for ``\\s``) -> (ranges",
        "#: ``regex`` puts in the class but tiktoken does not, ranges tiktoken puts in it but",
        "#: ``regex`` does not).",
        "CLASS_DIFFS: dict[str, tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {",
    ]
    for key, (only_regex, only_tiktoken) in diffs.items():
        lines.append(f'    "{key}": (')
        for part in (only_regex, only_tiktoken):
            if not part:
                lines.append("        (),")
                continue
            lines.append("        (")
            row = "           "
            for a, b in part:
                item = f" (0x{a:X}, 0x{b:X}),"
                if len(row) + len(item) > 110:
                    lines.append(row)
                    row = "           "
                row += item
            lines.append(row)
            lines.append("        ),")
        lines.append("    ),")
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} (tiktoken: Unicode {version})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
