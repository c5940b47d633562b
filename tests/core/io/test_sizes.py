"""The one size rule (format_size): binary units, labelled KiB/MiB/..., one decimal, rounded to nearest."""

from __future__ import annotations

import pytest

from tokexplorer.core.io import format_size


@pytest.mark.parametrize(
    ("n_bytes", "shown"),
    [
        (0, "0 B"),
        (1023, "1023 B"),
        (1024, "1.0 KiB"),
        (1536, "1.5 KiB"),
        (5000, "4.9 KiB"),  # was "4 KB" in the sniffer's messages: cut down, and KB for 1024
        (12288, "12.0 KiB"),
        (1_048_524, "1023.9 KiB"),
        (1_048_533, "1.0 MiB"),  # rounds to 1024.0 KiB: the next unit
        (5 << 20, "5.0 MiB"),
        (3 << 30, "3.0 GiB"),
        (2000 << 40, "2000.0 TiB"),
    ],
)
def test_format_size(n_bytes, shown):
    assert format_size(n_bytes) == shown


def test_a_negative_size_is_refused():
    with pytest.raises(ValueError, match="a size cannot be negative: -1"):
        format_size(-1)
