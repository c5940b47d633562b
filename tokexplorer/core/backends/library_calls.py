"""Calls into a tokenizer library's compiled core (tiktoken, ``tokenizers``): any
failure, Rust panics included (they derive from BaseException), becomes one line.

>>> library_call("tiktoken", "encoding the text", lambda: [1, 2])
[1, 2]
>>> library_call("tiktoken", "decoding", lambda: 1 / 0)
Traceback (most recent call last):
...
tokexplorer.core.errors.TokexplorerError: tiktoken failed while decoding: ZeroDivisionError: division by zero
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tokexplorer.core.errors import TokexplorerError

__all__ = ["first_line", "library_call"]

_T = TypeVar("_T")


def first_line(exc: BaseException) -> str:
    """``"TypeName: first line of the message"`` of an exception, for one-line reports."""
    msg = str(exc).strip().splitlines()
    text = msg[0].strip() if msg else ""
    kind = type(exc).__name__
    return f"{kind}: {text}" if text else kind


def library_call(
    library: str, what: str, fn: Callable[[], _T], *, describe: Callable[[BaseException], str] = first_line
) -> _T:
    """Run ``fn``, one call into ``library``; a failure becomes ``"LIBRARY failed while WHAT: REASON"``.

    Args:
        library: the library's name for the message (``"tiktoken"``).
        what: what was being done (``"encoding the text"``).
        fn: the call.
        describe: the REASON of an exception (default :func:`first_line`).

    Raises:
        TokexplorerError: ``fn`` raised anything but KeyboardInterrupt/SystemExit
            (a TokexplorerError passes unchanged).
    """
    try:
        return fn()
    except (KeyboardInterrupt, SystemExit):
        raise
    except TokexplorerError:
        raise
    except BaseException as exc:  # noqa: BLE001 - PanicException is a BaseException
        raise TokexplorerError(f"{library} failed while {what}: {describe(exc)}") from None
