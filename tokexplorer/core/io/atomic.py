"""Writing a file so that readers never see half of it: a temporary file in the
same folder, flushed to disk, then renamed over the target (one step on every
file system tokexplorer supports).

>>> import pathlib, tempfile
>>> p = pathlib.Path(tempfile.mkdtemp()) / "out.bin"
>>> atomic_write_bytes(p, b"\\x00\\xff")
>>> p.read_bytes(), [f.name for f in p.parent.iterdir()]
(b'\\x00\\xff', ['out.bin'])
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write_bytes"]


def _umask() -> int:
    """The process umask, read without changing it where the system allows."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: the classic read-and-restore
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same folder, then rename).

    Raises:
        OSError: the folder is not writable.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes the file private (0600); give it the usual mode
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
