"""``stats``: token statistics of text files per tokenizer, file and script."""

from __future__ import annotations

import argparse

from tokexplorer.cli.inputs import (
    checked_file,
    load_all,
    named,
    set_add_special_tokens,
    skipped_or_fail,
    special_spellings,
    walked,
)  # fmt: skip
from tokexplorer.cli.output import note, print_json, table, write_out
from tokexplorer.core.errors import CorpusError


def cmd_stats(ns: argparse.Namespace) -> int:
    """``tokexplorer stats``: corpus statistics per tokenizer, file and script
    (:mod:`tokexplorer.core.analysis.stats`); a table, or ``--json``/``--csv``."""
    from tokexplorer.core.analysis import COLUMN_TITLES, compute_stats, format_cell
    from tokexplorer.core.io import codec_for, read_text_file

    tokenizers = load_all(ns.tokenizer, ns.pattern)
    set_add_special_tokens(tokenizers, ns.add_special_tokens)
    paths, errors = walked(ns.files)  # folders are walked, as for train (model files left out, noted)
    if errors:
        raise CorpusError(errors[0])
    files, named_texts = [], []
    problems: list[str] = []
    for path in paths:
        # a file that cannot be used is skipped with a note, as train does,
        # as long as other files are left; alone, it is the error
        try:
            f = checked_file(read_text_file(path, encoding=codec_for(ns.encoding, path)))
        except CorpusError as exc:
            problems.append(named(path, str(exc)))
            continue
        files.append((path.name, f.text))
        named_texts.append((str(path), f.text))  # notes name a file by its path as given
    skipped_or_fail(problems, bool(files), "no files to compute statistics on", paths=list(ns.files))
    special_spellings(tokenizers, named_texts, ns.special)
    st = compute_stats(tokenizers, files, special=ns.special)
    for t in st.tokenizers:
        if t.error:
            note(f"{t.name}: {t.error}")
        for n in t.notes:
            note(f"{t.name}: {n}")
    if ns.json:
        print_json(st.to_json())
        return 0
    if ns.csv:
        write_out(st.to_csv())
        return 0
    keys = ["tokenizer", "group", "lines", "tokens", "chars_per_token", "bytes_per_token",
            "tokens_per_word", "partial_pct", "grapheme_part_pct", "unknown_pct", "roundtrip_failed_lines"]  # fmt: skip
    titles = {**COLUMN_TITLES, "roundtrip_failed_lines": "round-trip fails"}
    rows = [[titles[k] for k in keys]]
    for r in st.rows():
        group = r["group"] if r["group_kind"] != "script" else f"[{r['group']}]"
        rows.append([format_cell(group if k == "group" else r[k]) for k in keys])
    write_out(table(rows, right=[False, False] + [True] * (len(keys) - 2)))
    return 0
