"""``inspect``: the UTF-8 bytes, code points and grapheme clusters of a text as
tables, optionally with every tokenizer's tokens on the same byte axis."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from tokexplorer.cli.errors import UsageError
from tokexplorer.cli.inputs import input_text, load_all, set_add_special_tokens, special_spellings
from tokexplorer.cli.output import PROG, note, print_json, table, write_out

if TYPE_CHECKING:
    from tokexplorer.core.backends import PipelineStages
    from tokexplorer.core.text import ByteInfo, Utf8Analysis


def role_cell(b: ByteInfo, reasons: dict[str, int]) -> str:
    """A byte's role cell in the bytes table; an invalid byte's reason is a numbered note under
    the table (``reasons``: reason -> its number, filled in order), so the column stays narrow."""
    if b.role == "ascii":
        return "ascii (control)" if b.value < 0x20 or b.value == 0x7F else "ascii"
    if b.role == "invalid":
        if not b.reason:
            return "invalid"
        return f"invalid [{reasons.setdefault(b.reason, len(reasons) + 1)}]"
    return f"{b.role} {b.position}/{b.seq_len}"


def _bytes_table(a: Utf8Analysis) -> str:
    """The bytes table, then the reason of each numbered invalid byte."""
    reasons: dict[str, int] = {}
    rows = [
        [str(b.offset), f"{b.value:02X}", role_cell(b, reasons), str(b.cp_index), str(b.grapheme_index)]
        for b in a.bytes
    ]
    out = table([["offset", "hex", "role", "code point", "grapheme"], *rows], right=[True, False, False, True, True])
    return out + "".join(f"  [{k}] {reason}\n" for reason, k in reasons.items())


def _span(start: int, end: int) -> str:
    return f"[{start}, {end})"


def inspect_text(a: Utf8Analysis) -> str:
    """The human-readable tables of ``tokexplorer inspect`` for a :class:`Utf8Analysis`."""
    from tokexplorer.core.text import token_display

    parts = [
        f"{len(a.data):,} bytes, {len(a.code_points):,} code points, {len(a.graphemes):,} graphemes\n",
        "\nbytes\n",
        _bytes_table(a),
        "\ncode points\n",
        table(
            [["index", "code point", "utf-8", "bytes", "name"]]
            + [
                [
                    str(c.index),
                    f"U+{c.value:04X}",
                    a.data[c.byte_start : c.byte_end].hex(" ").upper(),
                    _span(c.byte_start, c.byte_end),
                    c.name,
                ]
                for c in a.code_points
            ],
            right=[True, False, False, False, False],
        ),
        "\ngraphemes\n",
        table(
            [["index", "text", "code points", "bytes"]]
            + [
                [
                    str(g.index),
                    token_display(g.text.encode("utf-8", "surrogateescape"), visible_spaces=True),
                    str(g.char_end - g.char_start),
                    _span(g.byte_start, g.byte_end),
                ]
                for g in a.graphemes
            ],
            right=[True, False, True, False],
        ),
    ]
    return "".join(parts)


def stages_text(st: PipelineStages) -> str:
    """The pipeline stages of a Hugging Face track, as ``inspect`` prints them under its tokens."""

    def names(types: tuple[str, ...]) -> str:
        return "+".join(t for t in types if t != "Sequence") or "none"

    from tokexplorer.core.backends import STAGE_SEPARATOR, stage_piece, stage_token

    pre = STAGE_SEPARATOR.join(stage_piece(p.bytes) for p in st.pre_tokens)  # their text, spaces as ␣
    model = STAGE_SEPARATOR.join(stage_token(t) for t in st.model_tokens)
    added = ", ".join(f"{t.piece} at {i}" for i, t in st.post_processor_tokens) or "nothing"
    switch = "on" if st.add_special_tokens else "off"
    return (
        f"  normalizer ({names(st.normalizer)}): {st.normalized!r}\n"
        f"  pre-tokens ({names(st.pre_tokenizer)}): {pre}\n"
        f"  model tokens ({st.model}): {model}\n"
        f"  post-processor ({names(st.post_processor)}, add special tokens {switch}): {added}\n"
    )


def cmd_inspect(ns: argparse.Namespace) -> int:
    """``tokexplorer inspect``: bytes, code points and graphemes of a text; with
    ``--tokenizer`` also every tokenizer's tokens on the same byte axis; with
    ``--raw`` the file's bytes exactly as stored (invalid UTF-8 flagged)."""
    specs = ns.tokenizer or []
    if ns.raw and ns.file is None:
        raise UsageError("--raw applies to --file only", f"{PROG} inspect")
    if ns.raw and ns.encoding is not None:
        raise UsageError("--raw reads the bytes as they are; drop --encoding", f"{PROG} inspect")
    if specs or ns.json:
        _with_tokenizers(ns, specs)
    else:  # the tables alone: written as they are worked out
        _stream_tables(ns)
    return 0


def _with_tokenizers(ns: argparse.Namespace, specs: list[str]) -> None:
    """``inspect --tokenizer SPEC ...`` or ``--json``: the whole report, then its tables or JSON."""
    from tokexplorer.core.analysis import inspect_bytes
    from tokexplorer.core.analysis import inspect_text as inspect_report
    from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer
    from tokexplorer.core.io import read_raw

    toks = load_all(specs, ns.pattern)
    set_add_special_tokens(toks, ns.add_special_tokens)
    if ns.raw:
        data = read_raw(ns.file)
        if ns.special == "raise":
            special_spellings(toks, [("file", data.decode("utf-8", "replace"))], "raise")
        report = inspect_bytes(data, toks, policy=ns.special)
    else:
        text = input_text(ns)
        _stored_bytes_note(ns, text)
        if ns.special == "raise":
            special_spellings(toks, [("text", text)], "raise")
        report = inspect_report(text, toks, policy=ns.special)
    for n in list(report.analysis.notes) + list(report.notes):
        note(n)
    for tr in report.tracks:
        for n in tr.notes:
            note(f"{tr.name}: {n}")
    if ns.json:
        print_json(report.to_json())
        return
    write_out(inspect_text(report.analysis))
    unicode_of = {t.name: t.split_unicode for t in toks if isinstance(t, (BPETokenizer, TiktokenTokenizer))}
    for tr in report.tracks:
        write_out(f"\n{tr.name}" + ("" if tr.exact else " (approximate spans)") + "\n")
        if tr.name in unicode_of:
            write_out(f"split pattern classes: {unicode_of[tr.name]}\n")
        if tr.error is not None:
            write_out(f"  error: {tr.error}\n")
            continue
        rows = [["token", "id", "bytes", "span", "spelling", "holds"]] + [
            [str(t.index), str(t.token.id), t.token.bytes.hex(" ").upper(),
             _span(t.token.byte_start, t.token.byte_end), t.spelling, t.description]
            for t in tr.tokens
        ]  # fmt: skip
        write_out(table(rows, right=[True, True, False, False, False, False]))
        if tr.stages is not None:
            write_out("pipeline stages\n" + stages_text(tr.stages))


def _stream_tables(ns: argparse.Namespace) -> None:
    """The tables of a text or, with ``--raw``, of a file's bytes, block by block
    (:mod:`.inspect_stream`); the notes first, as the whole analysis has them."""
    from tokexplorer.cli.commands.inspect_stream import write_inspect

    if ns.raw:
        from tokexplorer.core.io import read_raw
        from tokexplorer.core.text.utf8 import invalid_bytes_notes
        from tokexplorer.core.text.utf8_issues import find_utf8_issues

        data = read_raw(ns.file)
        text = data.decode("utf-8", "surrogateescape")
        issues = find_utf8_issues(data)
        notes: tuple[str, ...] = invalid_bytes_notes(issues)
    else:
        from tokexplorer.core.text import clean_text

        data, issues = None, []
        given = input_text(ns)
        _stored_bytes_note(ns, given)
        cleaned = clean_text(given)
        text, notes = cleaned.text, cleaned.notes
    for n in notes:
        note(n)
    write_inspect(text, data, write_out, issues=issues)


def _stored_bytes_note(ns: argparse.Namespace, text: str) -> None:
    """Note that the tables show the text's UTF-8, when ``--file``'s bytes as stored differ
    from it (another encoding, a byte order mark): ``--raw`` shows those."""
    import os

    if ns.file is None:
        return
    stored, utf8 = os.path.getsize(ns.file), len(text.encode("utf-8", "surrogateescape"))
    if stored != utf8:
        note(f"{ns.file}: the tables show its text as UTF-8 ({utf8:,} bytes), not the {stored:,} bytes "
             "stored in the file; inspect --raw shows those")  # fmt: skip
