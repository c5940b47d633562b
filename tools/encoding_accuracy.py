"""How often the encoding guess (core.io.encoding_guess) reads real European text right, and
how often a wrong guess is called high confidence.

The text is the measuring half of the gettext catalogues installed on this machine
(tools/locale_text.py: catalogues the letter statistics were not made from), in each
language's legacy code pages, at four lengths: one line (a message of 20-150 characters
with a character past ASCII), a paragraph (messages joined up to 400 characters or more), a
page (3,000 or more), and a line written 40 times (a file of one repeated line holds many bytes
past ASCII but says no more). A guess is right when its codec decodes the bytes to the text
itself (cp1252 and latin-1 read most French alike: either is right).

Run (half a minute):  python tools/encoding_accuracy.py [--lines 30 --paragraphs 10 --pages 4 --repeated 5]
[--wrong FILE]   (FILE: each wrong guess, its bytes read both ways)
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from locale_text import LANGUAGES, MEASURED, in_code_page, text_of  # noqa: E402

from tokexplorer.core.io import encoding_guess  # noqa: E402

LENGTHS = ("line", "paragraph", "page", "line x40")


def samples(lang: str, codec: str, counts: dict[str, int]) -> list[tuple[str, str, bytes]]:
    """``(length, text, bytes)`` samples of ``lang`` in ``codec``, the same ones every run."""
    rng = random.Random(f"{lang}/{codec}")
    usable = []
    for m in text_of(lang, part="measure"):
        m = " ".join(m.split())
        written = in_code_page(m, codec)
        if written is not None and m:
            usable.append(written)
    out: list[tuple[str, str, bytes]] = []
    lines = [u for u in usable if 20 <= len(u[0]) <= 150 and max(u[0]) > "\x7f"]
    for m, data in rng.sample(lines, min(counts["line"], len(lines))):
        out.append(("line", m, data))
        if len(out) <= counts["line x40"]:
            out.append(("line x40", (m + "\n") * 40, (data + b"\n") * 40))
    for length, least, sep in (("paragraph", 400, " "), ("page", 3000, "\n")):
        for _ in range(counts[length]):
            start = rng.randrange(len(usable))
            parts, n = [], 0
            for m, _data in usable[start:] + usable[:start]:
                parts.append(m)
                n += len(m) + 1
                if n >= least:
                    break
            text, data = in_code_page(sep.join(parts) + "\n", codec) or ("", b"")
            if max(text, default="") > "\x7f":
                out.append((length, text, data))
    return out


def right(data: bytes, codec: str, text: str) -> bool:
    try:
        return data.decode(codec) == text
    except UnicodeDecodeError:
        return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=30)
    ap.add_argument("--paragraphs", type=int, default=10)
    ap.add_argument("--pages", type=int, default=4)
    ap.add_argument("--repeated", type=int, default=5, help="lines written 40 times")
    ap.add_argument("--only", help="comma-separated language codes")
    ap.add_argument("--wrong", help="write each wrong guess here")
    args = ap.parse_args()
    counts = {"line": args.lines, "paragraph": args.paragraphs, "page": args.pages, "line x40": args.repeated}
    # n, right, wrong high, rival named, right high
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    wrong_log = []
    langs = args.only.split(",") if args.only else MEASURED
    for lang in langs:
        name, pages = LANGUAGES[lang]
        for codec in pages:
            for length, text, data in samples(lang, codec, counts):
                g = encoding_guess(data)
                ok = right(data, g.codec, text)
                for key in ((name, length), ("all", length)):
                    row = table[key]
                    row[0] += 1
                    row[1] += ok
                    row[2] += (not ok) and g.confidence == "high"
                    row[3] += (not ok) and any(right(data, r, text) for r in g.rivals)
                    row[4] += ok and g.confidence == "high"
                if not ok:
                    shown = data.decode(g.codec, "replace")[:160]
                    wrong_log.append(f"{name} {codec} {length} -> {g.codec} {g.confidence} {g.rivals}\n  "
                                     f"{text[:160]!r}\n  {shown!r}")
    print("| language | " + " | ".join(f"{n}: right / wrong high" for n in LENGTHS) + " |")
    print("|---|" + "---|" * len(LENGTHS))
    for name in [LANGUAGES[c][0] for c in langs] + ["all"]:
        cells = []
        for length in LENGTHS:
            n, ok, high, _, _ = table[(name, length)]
            cells.append(f"{ok}/{n} ({100 * ok / n:.0f}%) / {high}" if n else "-")
        print(f"| {name} | " + " | ".join(cells) + " |")
    n = sum(table[("all", x)][0] for x in LENGTHS)
    ok = sum(table[("all", x)][1] for x in LENGTHS)
    high = sum(table[("all", x)][2] for x in LENGTHS)
    named = sum(table[("all", x)][3] for x in LENGTHS)
    sure = sum(table[("all", x)][4] for x in LENGTHS)
    print(f"\nall: {ok}/{n} right ({100 * ok / n:.1f}%; {sure} of them high confidence), {n - ok} wrong: "
          f"{high} of them high confidence, {named} naming the right reading as a rival")
    if args.wrong:
        Path(args.wrong).write_text("\n".join(wrong_log) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
