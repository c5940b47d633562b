"""Session fixtures for tests/core: the SentencePiece fixture models of edge-cases.md."""

from __future__ import annotations

import pytest
from sp_fixture import SP120_OPTIONS, SPBF_OPTIONS, SPID_OPTIONS, train_proto


@pytest.fixture(scope="session")
def sp_protos() -> dict[str, bytes]:
    """Serialized ModelProtos of SP120, SPID and SPBF, trained once per session."""
    return {
        "SP120": train_proto(**SP120_OPTIONS)[0],
        "SPID": train_proto(**SPID_OPTIONS)[0],
        "SPBF": train_proto(**SPBF_OPTIONS)[0],
    }


@pytest.fixture(scope="session")
def sp_models(sp_protos):
    """SP120, SPID, SPBF wrapped as SentencePieceTokenizer (name -> tokenizer)."""
    from tokexplorer.core.backends import SentencePieceTokenizer

    return {name: SentencePieceTokenizer(proto, name=name) for name, proto in sp_protos.items()}
