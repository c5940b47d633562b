"""Walking a folder for a corpus leaves its tokenizer model files out, told by content,
and says so; a model file named by itself is read, with a note."""

from __future__ import annotations

import pytest

from fixtures.model_folder import MODEL_FILES, SKIPPED_NOTE, TEXT_FILES, corpus_text, write_model_folder
from tokexplorer.core.io import load_corpus, model_kind, walk_files
from tokexplorer.core.io.streaming import stream_corpus
from tokexplorer.core.types import run_to_end

TEXT_NAMES = sorted(TEXT_FILES)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_model_folder(tmp_path_factory.mktemp("walk") / "data")


def test_a_folder_gives_exactly_its_text_files_and_names_the_models_left_out(data):
    walk = walk_files([data])
    assert [f.name for f in walk.files] == TEXT_NAMES
    assert {root: [f.name for f in found] for root, found in walk.skipped.items()} == {str(data): sorted(MODEL_FILES)}
    assert walk.notes == (SKIPPED_NOTE.format(d=data),)
    assert walk.errors == [] and walk.named_models == []


@pytest.mark.parametrize("name", sorted(MODEL_FILES))
def test_each_exported_model_file_is_told_by_its_content(data, name):
    assert model_kind(data / name) == MODEL_FILES[name]


@pytest.mark.parametrize("name", TEXT_NAMES)
def test_text_with_a_model_files_name_or_shape_is_text(data, name):
    assert model_kind(data / name) is None


def test_the_kind_comes_from_the_content_not_the_name(data, tmp_path):
    (tmp_path / "corpus.txt").write_bytes((data / "vocab.txt").read_bytes())
    (tmp_path / "vocab.txt").write_text("the\ncat\nsat\n", encoding="utf-8")  # one word a line, no [UNK]/##
    (tmp_path / "tokenizer.json").write_text('{"text": "a tokenizer"}\n', encoding="utf-8")
    assert [model_kind(tmp_path / n) for n in ("corpus.txt", "vocab.txt", "tokenizer.json")] == [
        "bert-vocab", None, None,
    ]  # fmt: skip


def test_merges_without_version_beside_their_vocab_are_a_model(data, tmp_path):
    lines = (data / "merges.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "#version: 0.2"
    (tmp_path / "vocab.json").write_bytes((data / "vocab.json").read_bytes())
    (tmp_path / "merges.txt").write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    (tmp_path / "pairs.txt").write_text("left right\nup down\n", encoding="utf-8")
    assert (model_kind(tmp_path / "merges.txt"), model_kind(tmp_path / "pairs.txt")) == ("gpt2-merges", None)


def test_a_model_named_by_itself_is_read_with_a_note(data):
    walk = walk_files([data / "x.bpe", data / "a.txt"])
    assert walk.files == [data / "x.bpe", data / "a.txt"]
    assert walk.notes == (
        f"{data / 'x.bpe'}: a tokenizer model file (tokexplorer BPE model), read as text because it was named",
    )


def test_the_corpus_keeps_the_note_and_reads_only_the_text(data):
    corpus = load_corpus(data)
    assert [f.name for f in corpus.files] == TEXT_NAMES
    assert corpus.notes == (SKIPPED_NOTE.format(d=data),) and corpus.errors == ()
    assert corpus.files[0].text == TEXT_FILES["a.txt"]


@pytest.mark.parametrize("stream_bytes", [1, 1 << 30])
def test_stream_corpus_skips_and_notes_too(data, stream_bytes):
    corpus = run_to_end(stream_corpus([data], stream_bytes=stream_bytes))
    assert [f.name for f in corpus.files] == TEXT_NAMES
    assert corpus.notes == (SKIPPED_NOTE.format(d=data),)


def test_a_sub_folder_s_models_are_named_below_the_folder_given(data, tmp_path):
    (tmp_path / "top" / "old").mkdir(parents=True)
    (tmp_path / "top" / "t.txt").write_text(corpus_text(), encoding="utf-8")
    (tmp_path / "top" / "old" / "m.bpe").write_bytes((data / "x.bpe").read_bytes())
    walk = walk_files([f"{tmp_path / 'top'}/"])
    assert [f.name for f in walk.files] == ["t.txt"]
    assert walk.notes == (f"skipped 1 tokenizer model file in {tmp_path / 'top'}/: old/m.bpe",)
