"""``export``: a byte-level BPE written in another library's format (tiktoken, GPT-2, tokenizer.json),
a WordPiece as BERT's ``vocab.txt``."""

from __future__ import annotations

import argparse

from tokexplorer.cli.inputs import lead_as_given, load, spec_file
from tokexplorer.cli.output import note, say
from tokexplorer.core.errors import InputError

#: The formats ``--format`` accepts, in the order the README describes them.
EXPORT_FORMATS: tuple[str, ...] = ("tiktoken", "gpt2", "tokenizer.json", "vocab.txt")


def cmd_export(ns: argparse.Namespace) -> int:
    """``tokexplorer export SPEC --format tiktoken|gpt2|tokenizer.json|vocab.txt -o PATH``: write, print the paths.

    ``tiktoken``: ``PATH`` is the ``.tiktoken`` rank file, ``PATH.json`` its
    sidecar (the split pattern, the special tokens, the name ``encode`` gives the SPEC and
    its source: the file loaded, absolute, or the SPEC of an encoding by name). ``gpt2``:
    ``PATH`` is the folder that gets ``vocab.json`` and ``merges.txt``; a note says
    when the model's split pattern is not GPT-2's (readers of this format split as GPT-2 does). ``tokenizer.json``:
    ``PATH`` is the file. ``vocab.txt``: a WordPiece (``wordpiece:PATH``) as
    BERT's vocabulary file ``PATH``; a note names the normalizer to pair it with.
    A byte-level BPE of the tokenizers library (``tokenizer.json``, GPT-2's
    ``vocab.json`` + ``merges.txt``) is written when its ranks give its ids exactly,
    else refused saying why (its normalizer, a prefix space...). What loading noted
    is said on stderr first, as ``encode`` says it. A folder the output needs that does
    not exist (parents too) is created, and a note says so
    (:mod:`~tokexplorer.core.io.output_folders`).

    Raises:
        InputError: a SentencePiece or malformed SPEC, an output path that is a file where a
            folder is needed (or a folder where a file is) or whose folder cannot be created,
            a WordPiece for a BPE format or a BPE for ``vocab.txt``, or a model
            the format cannot hold (:func:`~tokexplorer.core.io.export_check.check_export`:
            tokens no merge builds for ``gpt2``, a special token spelled like a token...).
    """
    from tokexplorer.core.analysis import load_bpe_named
    from tokexplorer.core.backends import parse_spec
    from tokexplorer.core.io import (
        check_export,
        drift_note,
        make_folder,
        needed_folder,
        sniff_path,
        write_gpt2_export,
        write_tiktoken_export,
        write_tokenizer_json,
    )
    from tokexplorer.core.text import pattern_name_of

    kind, arg = parse_spec(ns.spec)
    if kind == "path" and sniff_path(arg).format == "wordpiece":
        kind = "wordpiece"  # our WordPiece file, told by content
    if kind == "sp":
        raise InputError("export writes byte-level BPEs and WordPieces; a SentencePiece model (sp:) cannot be exported")
    if (kind == "wordpiece") != (ns.format == "vocab.txt"):
        raise InputError("--format vocab.txt exports a WordPiece (wordpiece:PATH), and a WordPiece exports "
                         "as vocab.txt only")  # fmt: skip
    if kind == "wordpiece":
        return _export_vocab_txt(ns.spec, ns.output, ns.pattern)
    missing = needed_folder(ns.output, folder=ns.format == "gpt2")
    loaded = load_bpe_named(ns.spec, pattern=ns.pattern)
    bpe = loaded.bpe
    path = spec_file(ns.spec)
    for line in loaded.notes:
        note(line if path is None else lead_as_given(path, line))
    blocked = check_export(bpe).blocked.get(ns.format)
    if blocked is not None:
        raise InputError(f"cannot export as {ns.format}: {blocked}")
    if missing is not None:
        note(make_folder(missing))
    if ns.format == "tiktoken":
        written = write_tiktoken_export(bpe, ns.output, name=loaded.name, source=loaded.source)
    elif ns.format == "tokenizer.json":
        written = [write_tokenizer_json(bpe, ns.output)]
    else:
        written = write_gpt2_export(bpe, ns.output)
        if bpe.pattern_name != "gpt2":
            shown = pattern_name_of(bpe.pat_str) or "a custom one"
            note(
                f"the model's split pattern is {shown}, but vocab.json + merges.txt carry no pattern: "
                "readers split text as GPT-2 does (tokenizers' ByteLevel), so ids can differ "
                "from ours; use --format tiktoken or tokenizer.json to keep the pattern"
            )
        if bpe.special_tokens:
            note("special tokens are in vocab.json only; register them as added tokens in the reader")
    drift = drift_note(bpe)
    if drift is not None:
        note(drift)
    for p in written:
        say(str(p))
    return 0


def _export_vocab_txt(spec: str, output: str, pattern: str | None) -> int:
    """Write a WordPiece as BERT's vocab.txt + tokenizer_config.json, print both paths, and say why."""
    from tokexplorer.core.backends import WordPieceTokenizer
    from tokexplorer.core.io import config_replacement_note, make_folder, needed_folder, write_vocab_txt

    missing = needed_folder(output, folder=False)
    tok = load(spec, pattern)  # what loading chose is noted, as encode notes it
    assert isinstance(tok, WordPieceTokenizer)  # a wordpiece: SPEC always loads one
    wp = tok.wordpiece
    if missing is not None:
        note(make_folder(missing))
    replaced = config_replacement_note(wp, output)
    path, config = write_vocab_txt(wp, output)
    if replaced is not None:
        note(replaced)
    note(
        f"vocab.txt carries no normalizer: {config.name} beside it holds do_lower_case={wp.lowercase}, "
        f"strip_accents={wp.strip_accents} (BertTokenizer and tokexplorer read it); "
        "a reader of vocab.txt alone must be given them (tokenizers' BertNormalizer)"
    )
    say(str(path))
    say(str(config))
    return 0
