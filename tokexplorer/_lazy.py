"""Packages whose public names load on first use.

A package's ``__init__`` names its public API in one mapping (name -> module
of the package) and hands it to :func:`lazy_exports`; ``from package import
name`` then imports only the module that defines ``name``. The command line
starts faster this way: ``tokexplorer encode`` never loads the trainer, the
SentencePiece adapter or the analyses it does not use. (PEP 562 module
``__getattr__``.)

>>> import types
>>> pkg = types.ModuleType("demo")
>>> getter, names = lazy_exports("json", {"JSONEncoder": "encoder"}, module=pkg)
>>> getter("JSONEncoder").__name__, pkg.JSONEncoder is getter("JSONEncoder"), "JSONEncoder" in names()
('JSONEncoder', True, True)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str], *, module: ModuleType | None = None
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package with lazily loaded names.

    Args:
        package: the package's ``__name__``; ``exports`` values are its submodules.
        exports: public name -> submodule (relative to ``package``) that defines it.
        module: where a loaded name is cached (default: ``sys.modules[package]``).

    Returns:
        ``(__getattr__, __dir__)`` to assign in the package's ``__init__``.
        ``__getattr__`` raises ``AttributeError`` for a name not in ``exports``
        (so ``from package import submodule`` still finds submodules).
    """

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module-level hook of PEP 562
        sub = exports.get(name)
        if sub is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{sub}"), name)
        setattr(module if module is not None else sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:  # noqa: N807 - the module-level hook of PEP 562
        target = module if module is not None else sys.modules[package]
        return sorted(set(vars(target)) | set(exports))

    return __getattr__, __dir__
