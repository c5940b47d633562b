"""File ▸ Export tokenizer…: the dialog writes the current BPE with the core's export
functions, off the GUI thread; the real libraries load the files and give our ids."""

from __future__ import annotations

import base64
import json

import pytest
import tiktoken
import tiktoken.load
from tokenizers import Tokenizer, models, pre_tokenizers

from tokexplorer.core.backends import BPETokenizer
from tokexplorer.core.bpe import BPE, train_bpe
from tokexplorer.core.io import read_tiktoken_file, sample_text
from tokexplorer.core.text import pattern_string
from tokexplorer.gui.dialogs.export import ExportDialog, check_export, suggested_path

WAIT = 60_000  # ms; ceiling for a worker, never asserted
SPECIAL = "<|endoftext|>"


def _trained(pattern: str, specials: tuple[str, ...] = ()) -> BPE:
    bpe, _ = train_bpe(sample_text(), vocab_size=256 + 300 + len(specials), pattern=pattern,
                       special_tokens=list(specials))  # fmt: skip
    return bpe


def _show(window, bpe):
    window.state.set_bpe(bpe)
    window.state.replace_tokenizer("bpe", BPETokenizer(bpe))


def _export(qtbot, window, fmt, path):
    """Open File ▸ Export tokenizer…, choose ``fmt`` and ``path``, press Export; the paths written."""
    window.export_action.trigger()
    dlg = window.saving.export_dialog
    qtbot.waitUntil(lambda: dlg.check is not None, timeout=WAIT)
    dlg.set_format(fmt)
    assert dlg.format() == fmt
    dlg.path_edit.setText(str(path))
    assert dlg.export_button.isEnabled()
    with qtbot.waitSignal(dlg.exported, timeout=WAIT) as blocker:
        dlg.export_button.click()
    return dlg, blocker.args[1]


@pytest.mark.parametrize("pattern", ["gpt2", "o200k"])
def test_tiktoken_export_from_the_window_loads_in_tiktoken_with_our_ids(qtbot, window, tmp_path, pattern):
    bpe = _trained(pattern, (SPECIAL,))
    _show(window, bpe)
    out = tmp_path / "m.tiktoken"
    dlg, paths = _export(qtbot, window, "tiktoken", out)
    assert paths == [str(out), f"{out}.json"]
    assert not dlg.isVisible()
    side = json.loads((tmp_path / "m.tiktoken.json").read_text(encoding="utf-8"))
    # trained here and never saved: the name its column shows, no file it came from
    assert side == {"name": "custom BPE", "source": None, "pat_str": pattern_string(pattern),
                    "special_tokens": {SPECIAL: 556}}  # fmt: skip
    ranks = tiktoken.load.load_tiktoken_bpe(str(out))
    enc = tiktoken.Encoding(
        name="m", pat_str=side["pat_str"], mergeable_ranks=ranks, special_tokens=side["special_tokens"]
    )
    text = sample_text() + SPECIAL + " 12345 x  \n\n"
    ids = bpe.encode(text, allowed_special="all")
    assert enc.encode(text, allowed_special="all") == ids
    assert ids.count(556) == 1
    assert window.statusBar().currentMessage() == f"exported custom BPE as tiktoken: {out}, {out}.json"
    # the column keeps saying it was trained here, and where it was exported (m.tiktoken opens
    # as a tiktoken rank file, not as this model)
    assert [t.name for t in window.state.tokenizers if t.family == "bpe"] == ["custom BPE · saved as m.tiktoken"]


@pytest.mark.parametrize("pattern", ["cl100k", "none"])
def test_tokenizer_json_export_from_the_window_loads_in_tokenizers_with_our_ids(qtbot, window, tmp_path, pattern):
    bpe = _trained(pattern, (SPECIAL,))
    _show(window, bpe)
    out = tmp_path / "tokenizer.json"
    _, paths = _export(qtbot, window, "tokenizer.json", out)
    assert paths == [str(out)]
    text = sample_text() + SPECIAL + " 1234567 x"
    ours = bpe.encode(text, allowed_special="all")
    assert Tokenizer.from_file(str(out)).encode(text).ids == ours
    assert ours.count(556) == 1


def test_gpt2_export_from_the_window_loads_in_tokenizers_with_our_ids(qtbot, window, tmp_path):
    bpe = _trained("gpt2")
    _show(window, bpe)
    _, paths = _export(qtbot, window, "gpt2", tmp_path)
    assert paths == [str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")]
    tok = Tokenizer(models.BPE.from_file(paths[0], paths[1]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    assert tok.encode(sample_text()).ids == bpe.encode(sample_text())


#: check_export's last note on a model trained here with the cl100k pattern
DRIFT = (
    "ids equal ours on text without the 17,480 code points that Unicode 18.0.0 classes otherwise than "
    "tiktoken's regex (Unicode 16.0) (U+0558, ...): the reader may split a text holding one otherwise"
)


def test_gpt2_notes_what_the_format_cannot_carry(qtbot, window):
    _show(window, _trained("cl100k", (SPECIAL,)))
    window.export_action.trigger()
    dlg = window.saving.export_dialog
    qtbot.waitUntil(lambda: dlg.check is not None, timeout=WAIT)
    assert all(b.isEnabled() for b in dlg.buttons.values())
    assert dlg.format() == "tiktoken"  # the first format is chosen
    assert dlg.reasons["gpt2"].text() == (
        "the split pattern is cl100k, but vocab.json + merges.txt carry no pattern: readers split as GPT-2 "
        "does, so ids can differ from ours; special tokens are in vocab.json only; register them as added "
        f"tokens in the reader; {DRIFT}"
    )
    assert dlg.reasons["tiktoken"].text() == (
        f"the sidecar PATH.json holds the split pattern (cl100k) and 1 special token; {DRIFT}"
    )


def test_a_folder_that_does_not_exist_is_created_and_said(qtbot, window, tmp_path):
    bpe = _trained("gpt2")
    _show(window, bpe)
    out = tmp_path / "missing" / "gpt2dir"
    _, paths = _export(qtbot, window, "gpt2", out)
    assert paths == [str(out / "vocab.json"), str(out / "merges.txt")]
    assert window.statusBar().currentMessage() == (
        f"exported custom BPE as gpt2: {out / 'vocab.json'}, {out / 'merges.txt'}; "
        f"created folder {out} (it did not exist)"
    )
    from tokexplorer.core.backends import load_tokenizer

    assert load_tokenizer(str(out)).encode("the cat sat") == bpe.encode("the cat sat")


def test_a_file_where_the_folder_should_be_is_said_in_the_dialog(qtbot, window, tmp_path):
    _show(window, _trained("gpt2"))
    window.export_action.trigger()
    dlg = window.saving.export_dialog
    qtbot.waitUntil(lambda: dlg.check is not None, timeout=WAIT)
    (tmp_path / "f.txt").write_text("x", encoding="utf-8")
    dlg.set_format("gpt2")
    dlg.path_edit.setText(str(tmp_path / "f.txt"))
    assert dlg.start_export() is None  # refused before any work
    assert dlg.message.text() == f"not exported: cannot write into {tmp_path / 'f.txt'}: it is a file, not a folder"
    dlg.set_format("tiktoken")
    dlg.path_edit.setText(str(tmp_path / "f.txt" / "m.tiktoken"))
    assert dlg.start_export() is None
    assert dlg.message.text() == (
        f"not exported: cannot create folder {tmp_path / 'f.txt'}: {tmp_path / 'f.txt'} is a file"
    )
    assert (tmp_path / "f.txt").read_text(encoding="utf-8") == "x"  # nothing written


def test_ranks_with_a_token_no_merge_builds_disable_gpt2_and_keep_tiktoken_ids_in_tokenizer_json(
    qtbot, window, tmp_path
):
    ranks = {bytes([b]): b for b in range(256)} | {b"ba": 256, b"ab": 257, b"abab": 258, b"xy": 259}
    path = tmp_path / "hand.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()))
    bpe = BPE.from_mergeable_ranks(read_tiktoken_file(path), pat_str=pattern_string("gpt2"), name="hand")
    _show(window, bpe)
    window.export_action.trigger()
    dlg = window.saving.export_dialog
    qtbot.waitUntil(lambda: dlg.check is not None, timeout=WAIT)
    assert not dlg.buttons["gpt2"].isEnabled()
    assert dlg.reasons["gpt2"].text() == (
        "unavailable: 1 token is built by no merge (whole chunk only); readers of merges.txt never emit "
        "them, so ids would differ: use .tiktoken or tokenizer.json"
    )
    assert dlg.reasons["tokenizer.json"].text().endswith(
        "; 1 token no merge builds: written with ignore_merges on, so a piece that is a token is that "
        "token, as tiktoken emits a whole chunk"
    )
    dlg.set_format("gpt2")  # refused: disabled
    assert dlg.format() == "tiktoken"
    out = tmp_path / "tokenizer.json"
    _, _paths = _export(qtbot, window, "tokenizer.json", out)
    text = "abab ababa xy"
    enc = tiktoken.Encoding(name="hand", pat_str=pattern_string("gpt2"), mergeable_ranks=ranks, special_tokens={})
    assert enc.encode(text) == [258, 32, 97, 256, 256, 32, 259]
    assert Tokenizer.from_file(str(out)).encode(text).ids == enc.encode(text) == bpe.encode(text)


def test_no_bpe_to_export_says_why(window):
    window.state.set_bpe(None)
    window.export_action.trigger()
    assert window.saving.export_dialog is None
    assert window.last_error == (
        "nothing to export: train a byte-level BPE (Corpus tab) or open one; SentencePiece models are "
        "saved with File ▸ Save SentencePiece model"
    )


def test_check_export_of_a_special_token_spelled_like_a_token(qtbot):
    bpe = BPE([], pattern="gpt2", special_tokens={"a": 256})
    check = check_export(bpe)
    why = "special token 'a' is spelled like a token of vocab.json"
    assert check.blocked == {"gpt2": why, "tokenizer.json": why}
    dlg = ExportDialog(bpe, folder="/out")
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: dlg.check is not None, timeout=WAIT)
    assert [k for k, b in dlg.buttons.items() if b.isEnabled()] == ["tiktoken"]
    assert dlg.path_edit.text() == "/out/custom_BPE.tiktoken"
    assert suggested_path(bpe, "gpt2", "/out") == "/out"


def test_a_tiktoken_export_of_a_model_opened_from_a_file_records_that_file(qtbot, window, tmp_path):
    from tokexplorer.core.io import save_bpe

    bpe = _trained("gpt2")
    model = tmp_path / "gui.bpe"
    save_bpe(bpe, model)
    window.state.set_bpe(bpe)
    window.state.replace_tokenizer("bpe", BPETokenizer(bpe, source_file=model.absolute()))
    out = tmp_path / "out.tiktoken"
    dlg, _ = _export(qtbot, window, "tiktoken", out)
    side = json.loads((tmp_path / "out.tiktoken.json").read_text(encoding="utf-8"))
    # the name the window showed (its column's, the dialog's), not the model's stored "custom BPE"
    assert dlg.name == "gui.bpe (BPE)" and bpe.name == "custom BPE"
    assert (side["name"], side["source"]) == ("gui.bpe (BPE)", str(model.absolute()))
    # read back by our loader beside its sidecar: the same ids
    from tokexplorer.core.backends import load_tokenizer

    text = sample_text()
    assert load_tokenizer(str(out)).encode(text) == bpe.encode(text)


def test_an_export_keeps_the_name_of_a_model_trained_here_and_a_bpe_save_names_it_by_its_file(
    qtbot, window, tmp_path
):
    """An exported file opens as another library's tokenizer (tokenizer.json as "Hugging Face
    BPE", vocab.txt as BERT's WordPiece), so the column keeps saying the model was trained here;
    a save in our own format names it by that file, as opening it again does."""
    from tokexplorer.core.backends import WordPieceTokenizer
    from tokexplorer.core.wordpiece import train_wordpiece

    bpe = _trained("gpt2")
    _show(window, bpe)
    out = tmp_path / "tokenizer.json"
    _export(qtbot, window, "tokenizer.json", out)
    assert window.state.name_of(bpe) == "custom BPE · saved as tokenizer.json"
    assert window.statusBar().currentMessage() == f"exported custom BPE as tokenizer.json: {out}"
    # the next Export proposes that file's name
    assert window.saving.file_name(bpe, ".tiktoken") == "tokenizer.tiktoken"
    assert window.saving.write(bpe, "bpe", str(tmp_path / "gui.bpe"))
    assert window.state.name_of(bpe) == "gui.bpe (BPE)"
    assert window.statusBar().currentMessage() == f"saved gui.bpe (BPE) to {tmp_path / 'gui.bpe'}"
    # exported after it was saved: still named by the file that opens it
    _export(qtbot, window, "tiktoken", tmp_path / "m.tiktoken")
    assert window.state.name_of(bpe) == "gui.bpe (BPE)"
    wp, _ = train_wordpiece([sample_text()], vocab_size=300)
    window.state.set_wordpiece(wp)
    window.state.replace_tokenizer("wordpiece", WordPieceTokenizer(wp))
    vocab = tmp_path / "vocab.txt"
    assert window.saving.write(wp, "vocab.txt", str(vocab))
    assert window.state.name_of(wp) == f"{wp.name} · saved as vocab.txt"
    assert window.statusBar().currentMessage() == (
        f"saved {wp.name} to {vocab}, {vocab.parent / 'tokenizer_config.json'}"
    )
