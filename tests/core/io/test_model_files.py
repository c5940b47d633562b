"""Reading a model file the user named: one wording for every model reader."""

from __future__ import annotations

import pytest

from tokexplorer.core.backends import SentencePieceTokenizer
from tokexplorer.core.errors import InputError
from tokexplorer.core.io import load_bpe, read_model_file, read_tiktoken_file

READERS = (read_model_file, load_bpe, read_tiktoken_file, SentencePieceTokenizer.from_file)


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__qualname__)
def test_missing_file(tmp_path, reader):
    missing = tmp_path / "missing.model"
    with pytest.raises(InputError) as err:
        reader(missing)
    assert str(err.value) == f"no such file: {missing}"


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__qualname__)
def test_folder_cannot_be_read(tmp_path, reader):
    with pytest.raises(InputError) as err:
        reader(tmp_path)
    assert str(err.value) == f"cannot read {tmp_path}: Is a directory"


def test_reads_the_bytes(tmp_path):
    p = tmp_path / "m.bin"
    p.write_bytes(b"\x00\xff")
    assert read_model_file(str(p)) == b"\x00\xff"
