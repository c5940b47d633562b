"""A folder given to the window (command line, drop) holding text files beside a
tokenizer opens as a corpus of those files; a model folder as downloaded opens its
tokenizer and says what it left unread; only refused files fall back to the sample."""

from __future__ import annotations

from fixtures.drops import drop_paths

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted
VOCAB = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\ncat\n##s\nsat\n"


def _m3(tmp_path):
    m3 = tmp_path / "m3"
    m3.mkdir()
    (m3 / "zh.txt").write_text("你好世界，这是一个测试。\n", encoding="utf-8")
    (m3 / "emoji.txt").write_text("😀 hello 👨‍👩‍👧 family and friends, all of them\n", encoding="utf-8")
    (m3 / "vocab.txt").write_text(VOCAB, encoding="utf-8")
    return m3


def _hf(tmp_path):
    hf = tmp_path / "bert"
    hf.mkdir()
    (hf / "vocab.txt").write_text(VOCAB, encoding="utf-8")
    (hf / "config.json").write_text('{"model_type": "bert"}\n', encoding="utf-8")
    (hf / "README.md").write_text("# a BERT model\n", encoding="utf-8")
    return hf


def _corpus_notes(m3):
    return [
        f"note: skipped 1 tokenizer model file in {m3}/: vocab.txt",
        f"note: {m3}/: opened as a corpus, as it holds text files besides its tokenizer (vocab.txt): "
        "to use its tokenizer, open the folder as a tokenizer (File ▸ Open tokenizer folder…)",
    ]


def test_command_line_folder_of_texts_beside_a_vocab_is_the_corpus(qtbot, window, tmp_path):
    m3 = _m3(tmp_path)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.start([str(m3)])
    files = window.state.corpus.files
    assert [f.name for f in files] == ["emoji.txt", "zh.txt"]
    assert window.corpus_pane.file_list.note_messages()[:2] == _corpus_notes(m3)
    assert window.model_worker is None  # vocab.txt not opened as a tokenizer
    assert window.compare_pane.source_bar.label.text() == "Compare text: emoji.txt (corpus file 1 of 2)"
    bpe = next(t for t in window.state.tokenizers if t.family == "bpe")
    assert window.state.trained_note(bpe) == ("trained on emoji.txt and 1 more file", False)


def test_dropped_folder_of_texts_beside_a_vocab_is_the_corpus(qtbot, window, tmp_path):
    m3 = _m3(tmp_path)
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        drop_paths(window, [m3])
    assert [f.name for f in window.state.corpus.files] == ["emoji.txt", "zh.txt"]
    assert window.corpus_pane.file_list.note_messages()[:2] == _corpus_notes(m3)
    assert window.model_worker is None
    assert (
        window.statusBar()
        .currentMessage()
        .startswith(f"2 files loaded; skipped 1 tokenizer model file in {m3}/: vocab.txt; {m3}/: opened as a corpus")
    )


def test_a_model_folder_opens_its_tokenizer_and_names_what_it_left_unread(qtbot, window, tmp_path):
    hf = _hf(tmp_path)
    note = (
        f"{hf}/: opened as a model folder (vocab.txt); its 2 other text files, README.md, config.json, were not "
        "read as a corpus: to read its text files, open the folder as a corpus (File ▸ Open folder…)"
    )
    said: list[str] = []
    window.state.status.connect(said.append)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.start([str(hf)])
    opened = "vocab.txt (Hugging Face WordPiece)"
    qtbot.waitUntil(lambda: opened in [t.name for t in window.state.tokenizers], timeout=WAIT)
    assert [f.name for f in window.state.corpus.files] == ["sample.txt (built-in)"]
    assert [m for m in said if m.startswith("opened bert: ")][0].endswith(f" · folder bert: using vocab.txt · {note}")
    assert window.corpus_pane.form.train_message.text().splitlines()[-1] == f"⚠ {note}"


def test_a_model_folder_opened_as_a_corpus_says_how_to_use_its_tokenizer(qtbot, window, tmp_path):
    hf = _hf(tmp_path)
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.corpus_pane.load_paths([str(hf)])  # File ▸ Open folder…
    assert [f.name for f in window.state.corpus.files] == ["README.md", "config.json"]
    assert window.corpus_pane.file_list.note_messages()[:2] == [
        f"note: skipped 1 tokenizer model file in {hf}/: vocab.txt",
        f"note: {hf}/ is a model folder (besides its tokenizer files it holds only configuration, a model card "
        "or weights), so its tokenizer is not corpus text: to use its tokenizer, open the folder as a tokenizer "
        "(File ▸ Open tokenizer folder…)",
    ]


def test_only_refused_files_given_fall_back_to_the_sample_and_say_why(qtbot, window, tmp_path):
    binary = tmp_path / "ls"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8)
    why = (
        "ls: looks like a binary file (not UTF-8, NUL byte at offset 7); not loaded; "
        "to see it anyway, open its raw bytes (File ▸ Open raw bytes…)"
    )
    message = f"nothing loaded from ls: 1 file is refused ({why}); sample.txt (built-in) is the corpus instead"
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.start([str(binary)])
    assert [f.name for f in window.state.corpus.files] == ["sample.txt (built-in)"]
    assert window.state.bpe is not None  # the default models were trained on the sample
    assert window.compare_pane.source_bar.label.text() == "Compare text: the built-in sample text"
    assert window.corpus_pane.file_list.problem_messages() == [message, f"    {why}"]
    assert window.statusBar().currentMessage() == f"⚠ {message}"
