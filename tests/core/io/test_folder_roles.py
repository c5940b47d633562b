"""folder_role / sort_paths: a folder holding text files besides its tokenizer files is a
corpus folder; one holding only tokenizer files, configuration, a model card or weights
is a model folder; the corpus walk says so of a model folder it reads."""

from __future__ import annotations

from tokexplorer.core.io import folder_role, load_corpus, sort_paths, walk_files

VOCAB = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\ncat\n##s\nsat\n"


def _folder(root, name, files):
    folder = root / name
    folder.mkdir()
    for file_name, content in files.items():
        path = folder / file_name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def test_text_files_beside_a_vocab_make_a_corpus_folder(tmp_path):
    m3 = _folder(tmp_path, "m3", {"zh.txt": "你好世界\n", "emoji.txt": "😀 hi\n", "vocab.txt": VOCAB})
    role = folder_role(m3)
    assert (role.model, role.tokenizer, role.text, role.unread) == (False, "vocab.txt", m3 / "emoji.txt", ())
    assert role.note == (
        f"{m3}/: opened as a corpus, as it holds text files besides its tokenizer (vocab.txt): "
        "to use its tokenizer, open the folder as a tokenizer"
    )
    found = sort_paths([str(m3)])
    assert (found.tokenizers, found.corpus, found.notes) == ((), (str(m3),), {str(m3): role.note})
    corpus = load_corpus(m3)
    assert [f.name for f in corpus.files] == ["emoji.txt", "zh.txt"]
    assert corpus.notes == (f"skipped 1 tokenizer model file in {m3}/: vocab.txt",)


def test_a_downloaded_model_folder_is_a_model_folder(tmp_path):
    hf = _folder(
        tmp_path,
        "bert",
        {
            "vocab.txt": VOCAB,
            "config.json": '{"model_type": "bert"}\n',
            "tokenizer_config.json": '{"tokenizer_class": "BertTokenizer", "do_lower_case": true}\n',
            "special_tokens_map.json": '{"unk_token": "[UNK]"}\n',
            "generation_config.json": "{}\n",
            "README.md": "# a BERT model\n",
            "LICENSE": "Apache License 2.0\n",
            "model.safetensors": b"\x08\x00\x00\x00\x00\x00\x00\x00{}      " + bytes(range(256)),
            "pytorch_model.bin": b"PK\x03\x04" + bytes(300),
            "onnx/model.onnx": b"\x08\x07" + bytes(100),
            ".gitattributes": "*.bin filter=lfs\n",
        },
    )
    role = folder_role(hf)
    unread = ("LICENSE", "README.md", "config.json", "generation_config.json", "special_tokens_map.json")
    assert (role.model, role.tokenizer, role.text) == (True, "vocab.txt", None)
    assert tuple(p.name for p in role.unread) == unread
    assert role.note == (
        f"{hf}/: opened as a model folder (vocab.txt); its 5 other text files, LICENSE, README.md, "
        "config.json, generation_config.json, special_tokens_map.json, were not read as a corpus: "
        "to read its text files, open the folder as a corpus"
    )
    found = sort_paths([str(hf)])
    assert (found.tokenizers, found.corpus, found.notes) == ((str(hf),), (), {str(hf): role.note})


def test_only_tokenizer_files_need_no_note(tmp_path):
    only = _folder(tmp_path, "only", {"vocab.txt": VOCAB, "empty.txt": ""})
    role = folder_role(only)
    assert (role.model, role.unread, role.note) == (True, (), "")


def test_a_text_file_in_a_sub_folder_makes_a_corpus_folder(tmp_path):
    m = _folder(tmp_path, "m", {"vocab.txt": VOCAB, "README.md": "# notes\n", "data/story.md": "once upon a time\n"})
    role = folder_role(m)
    assert (role.model, role.text) == (False, m / "data" / "story.md")


def test_a_folder_without_a_tokenizer_is_a_corpus_folder_without_note(tmp_path):
    texts = _folder(tmp_path, "texts", {"README.md": "# read me\n", "config.json": "{}\n"})
    role = folder_role(texts)
    assert (role.model, role.tokenizer, role.note) == (False, "", "")


def test_files_are_sorted_by_content(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text(VOCAB, encoding="utf-8")
    text = tmp_path / "notes.model"
    text.write_text("the cat sat\n", encoding="utf-8")
    missing = tmp_path / "missing.txt"
    found = sort_paths([text, vocab, missing])
    assert (found.tokenizers, found.corpus, found.notes) == ((str(vocab),), (str(text), str(missing)), {})


def test_the_walk_says_a_model_folder_read_as_a_corpus(tmp_path):
    hf = _folder(tmp_path, "hf", {"vocab.txt": VOCAB, "README.md": "# a BERT model\n"})
    walk = walk_files([str(hf)])
    assert [f.name for f in walk.files] == ["README.md"]
    assert walk.notes == (
        f"skipped 1 tokenizer model file in {hf}/: vocab.txt",
        f"{hf}/ is a model folder (besides its tokenizer files it holds only configuration, a model card or "
        "weights), so its tokenizer is not corpus text: to use its tokenizer, open the folder as a tokenizer",
    )
    m3 = _folder(tmp_path, "m3", {"vocab.txt": VOCAB, "zh.txt": "你好\n"})
    assert walk_files([str(m3)]).notes == (f"skipped 1 tokenizer model file in {m3}/: vocab.txt",)
