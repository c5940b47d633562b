"""The command line's arguments: one parser for the subcommands (a function per
command below) and one for starting the app, chosen by the first argument."""

from __future__ import annotations

import argparse
import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, NoReturn

from tokexplorer import __version__
from tokexplorer.cli.encoding_flag import add_files_encoding
from tokexplorer.cli.errors import EXIT_CODES_HELP, UsageError
from tokexplorer.cli.misspelled import refuse_misspelled_command
from tokexplorer.cli.output import PROG
from tokexplorer.core.types import ALGORITHMS, DEFAULT_PATTERN, SPECIAL_POLICIES

#: The split pattern names ``--pattern`` takes (tokexplorer.core.backends.rank_files.RANK_PATTERNS,
#: named here so that building the parser does not import the backends).
RANK_PATTERN_NAMES: tuple[str, ...] = ("gpt2", "cl100k", "o200k", "llama3", "qwen", "whisper")

#: Names that select a subcommand when they are the first argument.
SUBCOMMANDS: tuple[str, ...] = (
    "train", "count", "encode", "decode", "compare", "inspect", "stats", "merges", "export", "granularity",
)  # fmt: skip


class _Command:
    """A command's function, imported when the command runs: building the parser
    imports no command module (a command's start-up loads only what it uses)."""

    def __init__(self, name: str, module: str | None = None) -> None:
        self.function, self.module = f"cmd_{name}", f"tokexplorer.cli.commands.{module or name}"

    def __call__(self, ns: argparse.Namespace) -> int:
        return getattr(importlib.import_module(self.module), self.function)(ns)


def _app(ns: argparse.Namespace) -> int:
    """Start the window (:func:`tokexplorer.cli.app.run_app`)."""
    from tokexplorer.cli.app import run_app

    return run_app(ns)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises :class:`UsageError` instead of printing usage, and
    whose ``--help`` ends with the exit codes (:data:`EXIT_CODES_HELP`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        epilog = kwargs.get("epilog")
        kwargs["epilog"] = f"{epilog} {EXIT_CODES_HELP}" if epilog else EXIT_CODES_HELP
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.prog)


class _SpecialTokens(argparse.Action):
    """``--special TOKEN [TOKEN ...]`` of ``train`` and ``count``: the words after the flag up to
    the next option are special tokens, but a word (after the first) that names an existing file
    or folder ends them: it and the words after it are FILEs, kept in ``spilled`` for
    :func:`_settle_files` (so ``--special A B corpus.txt`` reads corpus.txt, as a user means)."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: Any = None
    ) -> None:
        words = list(values)
        cut = next((i for i, word in enumerate(words) if i and os.path.exists(word)), len(words))
        namespace.special = [*(namespace.special or []), *words[:cut]]
        namespace.spilled = [*namespace.spilled, *words[cut:]]


def _add_special_tokens(p: argparse.ArgumentParser, *, use: str) -> None:
    """``--special TOKEN ...`` (:class:`_SpecialTokens`) of train and count; ``use`` ends the help."""
    p.add_argument("--special", nargs="+", metavar="TOKEN", action=_SpecialTokens,
                   help=f"special tokens {use}, e.g. '<|endoftext|>'; repeatable, or several after one "
                   "--special up to the next option (a word naming an existing file or folder, and the "
                   "words after it, are FILEs)")  # fmt: skip
    p.set_defaults(spilled=[])


def _settle_files(ns: argparse.Namespace) -> None:
    """Add the FILEs that followed ``--special`` tokens (``spilled``) to ``ns.files``, and say
    clearly what ``--special`` took when ``count``, or ``train`` given ``--special`` but not
    ``--word-counts``, is left with no FILE (``train`` without ``--special`` says it itself).

    Raises:
        UsageError: no FILE to read.
    """
    ns.files = [*ns.files, *ns.spilled]
    del ns.spilled
    if ns.command == "train" and (ns.word_counts is not None or not ns.special):
        return  # cmd_train says what is missing
    if ns.files:
        return
    took = ""
    if ns.special:
        words = ", ".join(repr(word) for word in ns.special)
        noun = "as a special token" if len(ns.special) == 1 else "as special tokens"
        took = (f"; --special took {words} {noun} (a FILE after it must name an existing file or "
                "folder; or put the FILEs before --special)")  # fmt: skip
    what = "to train on, or --word-counts COUNTS" if ns.command == "train" else "or folders to count"
    raise UsageError(f"give the text files {what}{took}", f"{PROG} {ns.command}")


#: How every command reads a text file (the one reading rule, core.io.reading), as its help says it.
READING_RULE = "UTF-8, or what its BOM says; otherwise the encoding is guessed and a note names it"


def _add_input(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--text", help="the text to process")
    src.add_argument("--file", metavar="PATH", help=f"read the text from a file ({READING_RULE})")
    add_files_encoding(p, help_text="decode --file with this codec (e.g. gbk, utf-16, latin-1) instead of UTF-8 or a "
                       "guess (PATH=CODEC: only when --file is PATH)")  # fmt: skip


def _add_special(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--special",
        choices=SPECIAL_POLICIES,
        default="plain",
        help="text that spells a special token such as <|endoftext|>: raise an error, "
        "encode it as the special token, or encode it as plain text (default, with a note)",
    )
    p.add_argument(
        "--add-special-tokens",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="Hugging Face tokenizers: let the post-processor add its tokens ([CLS]/[SEP], a BOS) "
        "as the model does by default (on)",
    )


def _add_pattern(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--pattern",
        metavar="NAME|REGEX",
        help=f"split pattern of a rank file that is not a published one (names: {', '.join(RANK_PATTERN_NAMES)}; "
        "or a regular expression); published rank files, tekken.json and the other formats carry their own",
    )


def _coverage(text: str) -> float:
    """``--character-coverage``'s value: a float in SentencePiece's range (0.98–1.0)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    from tokexplorer.core.backends import coverage_problem

    problem = coverage_problem(value)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return value


def _positive_int(text: str) -> int:
    """A whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _sp_arguments() -> dict[str, dict[str, Any]]:
    """Help and argparse settings of the SentencePiece flags (``SP_FLAGS`` of
    :mod:`tokexplorer.cli.commands.train`), by destination."""
    from tokexplorer.cli.commands.train import SPM_DEFAULT_COVERAGE
    from tokexplorer.core.backends import NORMALIZATION_RULES

    return {
        "character_coverage": dict(
            type=_coverage,
            metavar="X",
            help="share of the corpus's characters the alphabet must cover (0.98-1.0); rarer ones become "
            "<unk> (or bytes with --byte-fallback). Default {default}, every character, as in the window; "
            f"spm_train's default is {SPM_DEFAULT_COVERAGE}: pass it for a plain spm_train's model. "
            "The report line says which was used",
        ),
        "normalization_rule_name": dict(
            choices=NORMALIZATION_RULES, help="SentencePiece's normalization rule (default {default})"
        ),
        "byte_fallback": dict(
            help="characters outside the vocabulary become <0xNN> byte pieces, not <unk> (default {onoff})"
        ),  # fmt: skip
        "remove_extra_whitespaces": dict(
            help="collapse runs of spaces, strip those at line starts and ends (default {onoff})"
        ),
        "split_digits": dict(
            help="split digits: each ASCII 0-9 or full-width digit its own piece; SentencePiece splits no "
            "other digits (default {onoff})"
        ),
        "max_sentence_length": dict(
            type=_positive_int,
            metavar="BYTES",
            help="longest line used, in UTF-8 bytes (default {default}); longer lines are refused "
            "unless --skip-long-lines",
        ),
        "skip_long_lines": dict(help="let SentencePiece skip lines over --max-sentence-length (noted)"),
    }


def _add_sentencepiece(p: argparse.ArgumentParser) -> None:
    """The SentencePiece options of ``train``: one flag per field of
    :class:`SentencePieceOptions` (but ``model_type``, which ``--algorithm``
    chooses) and ``--skip-long-lines``, each defaulting to None (not given)."""
    from tokexplorer.cli.commands.train import SP_FLAGS
    from tokexplorer.core.backends import SentencePieceOptions

    group = p.add_argument_group("SentencePiece options (--algorithm sp-bpe or sp-unigram; as in the window)")
    defaults = {f.name: f.default for f in fields(SentencePieceOptions) if f.name != "model_type"}
    defaults["skip_long_lines"] = False
    arguments = _sp_arguments()
    for dest, default in defaults.items():
        settings = dict(arguments[dest])
        onoff = "on" if default else "off"
        settings["help"] = settings["help"].format(default=default, onoff=onoff)
        if isinstance(default, bool):
            settings["action"] = argparse.BooleanOptionalAction if default else "store_true"
        group.add_argument(SP_FLAGS[dest], dest=dest, default=None, **settings)


def _add_train(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tokexplorer.core.wordpiece import WORDPIECE_PATTERNS

    p = sub.add_parser("train", help="train a tokenizer on text files and save it")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help=f"text files or folders to train on (each read as {READING_RULE})")  # fmt: skip
    p.add_argument("--word-counts", metavar="COUNTS",
                   help="train a byte-level BPE from a word-count table made by 'count', not files")  # fmt: skip
    p.add_argument("--vocab-size", type=int, metavar="N", required=True,
                   help="number of token ids: 256 bytes + merges + special tokens (WordPiece: "
                   "special tokens + alphabet + merged pieces)")  # fmt: skip
    p.add_argument("--pattern", choices=WORDPIECE_PATTERNS, default=None,
                   help=f"pre-tokenizer split pattern (default {DEFAULT_PATTERN}; bert, BERT's white space "
                   "and punctuation split, for --algorithm wordpiece only, and its default)")  # fmt: skip
    _add_special_tokens(p, use="to register (SentencePiece, sp-*: its user-defined symbols, always kept whole)")
    p.add_argument("--algorithm", choices=ALGORITHMS, default="bpe",
                   help="byte-level BPE (default), a SentencePiece bpe/unigram model, or our WordPiece "
                   "(score freq(a,b)/(freq(a)*freq(b)); saved as JSON, export it as vocab.txt)")  # fmt: skip
    p.add_argument("--lowercase", action="store_true", help="WordPiece: lower-case the text first")
    p.add_argument("--strip-accents", action="store_true",
                   help="WordPiece: strip accents first (NFD, non-spacing marks dropped)")  # fmt: skip
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="where to save the model")
    add_files_encoding(p)
    p.add_argument("--allow-damaged", action="store_true",
                   help="train even on files whose undecodable bytes had to become U+FFFD")  # fmt: skip
    p.add_argument("--dask", metavar="ADDRESS",
                   help="byte-level BPE: count the files on the Dask scheduler at ADDRESS "
                   "(tcp://host:8786), or 'local' for a cluster of this machine's cores, then train here; "
                   "needs the dask extra")  # fmt: skip
    _add_sentencepiece(p)
    p.set_defaults(func=_Command("train"))


def _add_count(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tokexplorer.core.text import PATTERN_NAMES

    p = sub.add_parser("count", help="count the pre-tokenized chunks of text files into a word-count table")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help=f"text files or folders to count, at least one (each read as {READING_RULE})")  # fmt: skip
    p.add_argument("-o", "--output", required=True, metavar="COUNTS", help="where to write the table")
    p.add_argument("--pattern", choices=PATTERN_NAMES, default=None,
                   help=f"pre-tokenizer split pattern (default {DEFAULT_PATTERN})")  # fmt: skip
    _add_special_tokens(p, use="to cut out of the text")
    add_files_encoding(p)
    p.add_argument("--allow-damaged", action="store_true",
                   help="count undecodable bytes as U+FFFD instead of skipping the file")  # fmt: skip
    p.add_argument("--dask", metavar="ADDRESS",
                   help="count on the Dask scheduler at ADDRESS (tcp://host:8786), or 'local' for a "
                   "cluster of this machine's cores; needs the dask extra")  # fmt: skip
    p.set_defaults(func=_Command("count"))


def _add_encode(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("encode", help="encode text into token ids")
    p.add_argument("--tokenizer", required=True, metavar="SPEC", help="tokenizer SPEC")
    _add_input(p)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print ids and token spans as JSON")
    out.add_argument("--count", action="store_true",
                     help="print only the number of tokens of the text, as stats counts them "
                     "(the post-processor's [CLS]/[SEP] or BOS left out, named in a note)")  # fmt: skip
    _add_special(p)
    _add_pattern(p)
    uni = p.add_argument_group("SentencePiece Unigram models (with --json)")
    uni.add_argument("--nbest", type=_positive_int, metavar="N",
                     help="add the N best segmentations with SentencePiece's scores (\"nbest\")")  # fmt: skip
    uni.add_argument("--sample", action="store_true",
                     help="add sampled segmentations (subword regularization, \"samples\")")  # fmt: skip
    uni.add_argument("--alpha", type=float, default=None, metavar="A",
                     help="sampling parameter: P(path) ∝ exp(A × score) (default 0.1)")  # fmt: skip
    uni.add_argument("--samples", type=_positive_int, default=None, metavar="K", help="how many to draw (default 1)")
    p.set_defaults(func=_Command("encode"))


def _add_decode(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("decode", help="decode token ids into text")
    p.add_argument("--tokenizer", required=True, metavar="SPEC", help="tokenizer SPEC")
    p.add_argument(
        "ids",
        nargs="*",
        metavar="ID",
        help="token ids; none or '-' reads whitespace-separated ids from stdin",
    )
    p.add_argument("--bytes", action="store_true", help="print the bytes in hex instead of text")
    _add_pattern(p)
    p.set_defaults(func=_Command("decode", "encode"))


def _add_compare(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("compare", help="token counts of one text under several tokenizers")
    p.add_argument("--tokenizer", required=True, action="append", metavar="SPEC",
                   help="tokenizer SPEC (repeat for each tokenizer)")  # fmt: skip
    _add_input(p)
    p.add_argument("--json", action="store_true", help="print a JSON list of encode objects")
    _add_special(p)
    _add_pattern(p)
    p.set_defaults(func=_Command("compare", "encode"))


def _add_stats(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tokexplorer.core.analysis.stats_columns import COLUMN_NOTES

    p = sub.add_parser(
        "stats",
        help="token statistics of text files per tokenizer, file and script",
        epilog="Columns: " + ". ".join(COLUMN_NOTES.values()) + ".",
    )
    p.add_argument("--tokenizer", required=True, action="append", metavar="SPEC",
                   help="tokenizer SPEC (repeat for each tokenizer)")  # fmt: skip
    p.add_argument("files", nargs="+", metavar="FILE", help=f"text files or folders (each read as {READING_RULE})")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the statistics as JSON")
    fmt.add_argument("--csv", action="store_true", help="print the statistics as CSV")
    add_files_encoding(p)
    _add_special(p)
    _add_pattern(p)
    p.set_defaults(func=_Command("stats"))


def _fraction(text: str) -> float:
    """argparse type for ``--train-fraction``: a number above 0 and at most 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 1, not {text}")
    return value


def _add_granularity(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("granularity", help="a corpus at word, character, byte and subword level")
    p.add_argument("files", nargs="+", metavar="FILE", help=f"text files or folders (each read as {READING_RULE})")
    p.add_argument("--tokenizer", action="append", metavar="SPEC",
                   help="a subword level: this tokenizer (repeatable)")  # fmt: skip
    p.add_argument("--train-fraction", type=_fraction, default=0.8, metavar="F",
                   help="build the held-out vocabularies on this share of the corpus (default 0.8)")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the levels as JSON")
    add_files_encoding(p)
    _add_special(p)
    p.set_defaults(func=_Command("granularity"))


def _add_inspect(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("inspect", help="UTF-8 bytes, code points and graphemes of a text")
    _add_input(p)
    p.add_argument("--tokenizer", action="append", metavar="SPEC",
                   help="also lay this tokenizer's tokens on the byte axis (repeatable)")  # fmt: skip
    p.add_argument("--raw", action="store_true",
                   help="inspect --file's bytes exactly as stored, flagging invalid UTF-8")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    _add_special(p)
    _add_pattern(p)
    p.set_defaults(func=_Command("inspect"))


def _add_merges(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("merges", help="the merge records of a BPE (tiktoken encodings, tokenizer.json too)")
    p.add_argument("spec", metavar="SPEC",
                   help="a BPE: PATH (our model, a rank file, tekken.json, a Hugging Face tokenizer.json or "
                   "vocab.json + merges.txt), bpe:PATH, bpe:tiktoken:NAME, tiktoken:NAME, tiktoken-file:PATH "
                   "or hf:PATH; WordPiece, Unigram and SentencePiece models have none (it says why)")  # fmt: skip
    p.add_argument("--json", action="store_true",
                   help="print a JSON list of {rank, left, right, merged (hex), count}")  # fmt: skip
    _add_pattern(p)
    p.set_defaults(func=_Command("merges"))


def _add_export(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tokexplorer.cli.commands.export import EXPORT_FORMATS

    p = sub.add_parser("export", help="write a byte-level BPE as tiktoken, GPT-2 or tokenizer.json files, "
                       "a WordPiece as BERT's vocab.txt")  # fmt: skip
    p.add_argument("spec", metavar="SPEC",
                   help="a byte-level BPE: PATH (our model, a rank file, tekken.json), bpe:PATH, "
                   "bpe:tiktoken:NAME, tiktoken:NAME or tiktoken-file:PATH; "
                   "wordpiece:PATH for --format vocab.txt")  # fmt: skip
    p.add_argument("--format", required=True, choices=EXPORT_FORMATS,
                   help="tiktoken: PATH.tiktoken ranks + PATH.json sidecar (pat_str, special_tokens, the "
                   "model's name and source: the file it came from or the SPEC); "
                   "gpt2: vocab.json + merges.txt in the folder PATH; tokenizer.json: the file PATH; "
                   "vocab.txt: BERT's one piece a line, the file PATH")  # fmt: skip
    p.add_argument("-o", "--output", required=True, metavar="PATH",
                   help="the .tiktoken, tokenizer.json or vocab.txt file, or the folder (gpt2); "
                        "a folder that does not exist is created")  # fmt: skip
    _add_pattern(p)
    p.set_defaults(func=_Command("export"))


#: The function adding each subcommand's parser, by name.
_ADDERS: dict[str, Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = {
    "train": _add_train, "count": _add_count, "encode": _add_encode, "decode": _add_decode, "compare": _add_compare,
    "stats": _add_stats, "inspect": _add_inspect, "merges": _add_merges, "export": _add_export,
    "granularity": _add_granularity,
}  # fmt: skip


def build_parser(commands: Sequence[str] = SUBCOMMANDS) -> argparse.ArgumentParser:
    """The parser of the subcommands (``tokexplorer train|encode|decode|compare|inspect...``):
    of those in ``commands`` (names of :data:`SUBCOMMANDS`; default every one), so that
    parsing one command's arguments loads only what that command's options need."""
    parser = _Parser(
        prog=PROG,
        description="Explore LLM tokenizers. Without a subcommand, "
        "'tokexplorer [FILE ...] [--screenshot PNG]' starts the desktop app.",
        epilog="Tokenizer SPEC: a PATH (file or model folder, recognised by content), bpe:PATH, "
        "bpe:tiktoken:NAME, tiktoken:NAME, tiktoken-file:PATH, sp:PATH, hf:PATH, tekken:PATH or wordpiece:PATH. "
        "Run 'tokexplorer COMMAND --help' for details.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in commands:
        _ADDERS[name](sub)
    return parser


def build_app_parser() -> argparse.ArgumentParser:
    """The parser of ``tokexplorer [FILE ...] [--screenshot PNG]``."""
    parser = _Parser(
        prog=PROG,
        usage="%(prog)s [FILE ...] [--screenshot PNG]\n       %(prog)s COMMAND ...",
        description="Start the tokexplorer desktop app on FILEs or folders "
        "(with none, on the built-in sample). Commands: " + ", ".join(SUBCOMMANDS) + ".",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="text files or folders to open")
    parser.add_argument("--screenshot", metavar="PNG",
                        help="render the window once startup work is done, save it as PNG and exit")  # fmt: skip
    parser.set_defaults(func=_app)
    return parser


def parse_args(args: Sequence[str]) -> argparse.Namespace:
    """Parse the arguments (without the program name) with the parser the first one chooses.

    A subcommand name, ``-h``, ``--help`` or ``--version`` first: the subcommands'
    parser; ``--`` first: the app's, on the arguments after it; else the app's.
    For ``train`` and ``count``, FILEs that followed ``--special`` tokens join the
    others (:func:`_settle_files`).

    Raises:
        UsageError: the arguments do not parse.
        SystemExit: ``--help`` or ``--version`` was printed.
    """
    args = list(args)
    if args and args[0] == "--":
        return build_app_parser().parse_args(args[1:])
    refuse_misspelled_command(args, SUBCOMMANDS)
    if args and (args[0] in SUBCOMMANDS or args[0] in ("-h", "--help", "--version")):
        ns = build_parser([args[0]] if args[0] in SUBCOMMANDS else SUBCOMMANDS).parse_args(args)
        if ns.command in ("train", "count"):
            _settle_files(ns)
        return ns
    return build_app_parser().parse_args(args)
