"""The one rule for showing a size in bytes to a user (window, command line, messages).

Binary units, labelled as such: 1 KiB = 1024 bytes, 1 MiB = 1024 KiB, and so on to TiB.
Below 1 KiB the exact count (``"812 B"``); from 1 KiB on, the largest unit whose value
rounds below 1024, with one decimal (rounded to nearest, never cut down to a whole
number: 5000 bytes is ``"4.9 KiB"``, not ``"4 KB"``). Where the exact count matters, show it
beside (``f"{n:,} bytes"``).
"""

from __future__ import annotations

__all__ = ["format_size"]

_UNITS = ("KiB", "MiB", "GiB", "TiB")


def format_size(n_bytes: int) -> str:
    """A byte count as ``"N B"`` below 1024, else ``"X.Y KiB"``, ``"MiB"``, ``"GiB"`` or ``"TiB"``
    (see the module docstring: 1 KiB = 1024 bytes, one decimal, rounded to nearest).

    Args:
        n_bytes: a size in bytes, at least 0.

    Raises:
        ValueError: a negative size.

    >>> format_size(812), format_size(5000), format_size(12288)
    ('812 B', '4.9 KiB', '12.0 KiB')
    >>> format_size(1_048_524), format_size(1_048_533), format_size(5 << 20)
    ('1023.9 KiB', '1.0 MiB', '5.0 MiB')
    """
    if n_bytes < 0:
        raise ValueError(f"a size cannot be negative: {n_bytes}")
    if n_bytes < 1024:
        return f"{n_bytes} B"
    value = float(n_bytes)
    for unit in _UNITS:
        value /= 1024.0
        if round(value, 1) < 1024 or unit == _UNITS[-1]:  # 1,048,533 B is "1.0 MiB", not "1024.0 KiB"
            break
    return f"{value:.1f} {unit}"
