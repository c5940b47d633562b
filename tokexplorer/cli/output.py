"""What the command line writes: one-line errors and notes on stderr, JSON and
aligned tables on stdout, and training progress."""

from __future__ import annotations

import json
import sys
from collections.abc import Generator, Sequence
from typing import IO, TypeVar

from tokexplorer.cli.terms import in_cli_terms
from tokexplorer.core.types import Progress, Tokenization

#: The program name at the start of every error and note line.
PROG = "tokexplorer"

T = TypeVar("T")


def utf8_streams() -> None:
    """Make stdout and stderr write UTF-8 whatever the locale says."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        try:
            reconfigure(encoding="utf-8", errors="backslashreplace")
        except (ValueError, OSError, TypeError):
            pass


def one_line(message: object) -> str:
    """``str(message)`` with line breaks folded into spaces."""
    return " ".join(str(message).split("\n")).replace("\r", " ").strip()


def error(message: object) -> None:
    """Write ``tokexplorer: error: MESSAGE`` (one line, the core's advice with its flags) on stderr."""
    print(f"{PROG}: error: {in_cli_terms(one_line(message))}", file=sys.stderr)


def note(message: object) -> None:
    """Write ``tokexplorer: note: MESSAGE`` (one line, the core's advice with its flags) on stderr."""
    print(f"{PROG}: note: {in_cli_terms(one_line(message))}", file=sys.stderr)


def print_notes(tok: Tokenization) -> None:
    """Write each note of a tokenization as a note line."""
    for n in tok.notes:
        note(n)


def print_named_notes(named_notes: Sequence[tuple[str, Sequence[str]]]) -> None:
    """Write the notes of several tokenizers, each distinct note once, after the
    names of the tokenizers that gave it (``NAME: note``, as ``stats`` writes them;
    ``A, B: note`` when two gave the same note).

    Args:
        named_notes: ``(tokenizer name, its notes)`` pairs, in the order of the rows.
    """
    names_of: dict[str, list[str]] = {}
    for name, notes in named_notes:
        for n in notes:
            names = names_of.setdefault(n, [])
            if name not in names:
                names.append(name)
    for n, names in names_of.items():
        note(f"{', '.join(names)}: {n}")


#: How much of the output :func:`write_out` hands the pipe at a time (bytes).
OUT_PIECE = 1 << 16


def write_out(text: str) -> None:
    """Write ``text`` on stdout at once, in pieces of :data:`OUT_PIECE` bytes, so that a
    reader gone (``| head -1``) raises :class:`BrokenPipeError` here, at the next piece.

    One large write is not enough: when the reader closes a pipe in the middle of it,
    the buffered stream reports the part it wrote and drops the rest without an error
    (the output would end cut, with exit status 0). Each piece is written until the
    stream has taken all of it, and flushed.
    """
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text stream of its own (a test's StringIO)
        stream.write(text)
        return
    stream.flush()
    data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
    for start in range(0, len(data), OUT_PIECE):
        piece = data[start : start + OUT_PIECE]
        while piece:
            n = buffer.write(piece)
            piece = piece[len(piece) if n is None else n :]
        buffer.flush()


def say(line: str) -> None:
    """Write one line of output (``line`` and a line end) on stdout (:func:`write_out`)."""
    write_out(line + "\n")


def print_json(obj: object) -> None:
    """Write ``obj`` as one line of JSON (non-ASCII kept as is) on stdout."""
    write_out(json.dumps(obj, ensure_ascii=False, indent=None) + "\n")


def table(rows: Sequence[Sequence[str]], *, right: Sequence[bool]) -> str:
    """Format rows (the first is the header) as aligned columns.

    Args:
        rows: cells as str, same number in every row.
        right: per column, True to right-align.

    Returns:
        the table, one line per row, with a trailing newline; columns line up
        in a terminal (padded by display width, see :func:`columns`).
    """
    widths = [max(columns(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [" " * (w - columns(c)) + c if ra else c + " " * (w - columns(c)) for c, w, ra in zip(r, widths, right)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def columns(cell: str) -> int:
    """Terminal columns a cell takes (``wcwidth``: CJK and emoji take two,
    combining marks and joiners none); its length where wcwidth cannot tell."""
    import wcwidth

    n = wcwidth.wcswidth(cell)
    return n if n >= 0 else len(cell)


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
        """One line for a progress report, e.g. ``"merging: 120/3,840 merges (3%)"`` (the unit is the report's own)."""
        unit = f" {p.unit}" if p.unit else ""
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


def drive(gen: Generator[Progress, None, T], printer: ProgressPrinter) -> T:
    """Run a progress generator to its end, showing its reports; return its value
    (the printer is closed however the generator ends)."""
    try:
        while True:
            printer.update(next(gen))
    except StopIteration as stop:
        return stop.value
    finally:
        printer.close()
