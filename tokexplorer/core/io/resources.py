"""Locating the data files shipped with tokexplorer (sample texts, icons, styles).

In an installed wheel the top-level ``resources/`` folder is the package
``tokexplorer.resources`` (see ``[tool.setuptools.package-dir]`` in
``pyproject.toml``); in a source checkout it is the repository's
``resources/`` folder next to ``tokexplorer/``. :func:`resource_path` finds
either.

>>> resource_path("samples", "sample.txt").name
'sample.txt'
"""

from __future__ import annotations

from importlib import resources as _ires
from pathlib import Path

from tokexplorer.core.errors import InputError

_PACKAGE = "tokexplorer.resources"
#: The repository's resources folder (used when the package is not installed).
_REPO_RESOURCES = Path(__file__).resolve().parents[3] / "resources"


def resources_root() -> Path:
    """The folder holding the resources (installed package, else the repo folder)."""
    try:
        root = _ires.files(_PACKAGE)
    except (ModuleNotFoundError, TypeError):
        return _REPO_RESOURCES
    if isinstance(root, Path) and root.is_dir():
        return root
    return _REPO_RESOURCES  # pragma: no cover - zipped installs are not supported


def resource_path(*parts: str) -> Path:
    """Path of a shipped resource file or folder.

    Args:
        parts: path components below the resources folder, e.g.
            ``("samples", "sample.txt")``.

    Returns:
        pathlib.Path of an existing file or folder.

    Raises:
        InputError: a part is absolute or ``..``, or the resource does not exist.
    """
    for part in parts:
        if not part or Path(part).is_absolute() or ".." in Path(part).parts:
            raise InputError(f"bad resource path part {part!r}")
    path = resources_root().joinpath(*parts)
    if not path.exists():
        raise InputError(f"resource not found: {'/'.join(parts)}")
    return path


def sample_text() -> str:
    """The built-in sample text (``resources/samples/sample.txt``, UTF-8, LF line endings).

    Raises:
        InputError: the sample is missing.
    """
    with open(resource_path("samples", "sample.txt"), encoding="utf-8", newline="") as fh:
        return fh.read()
