"""Files in and out: one text file read with its encoding detected (:mod:`.corpus`,
the detection rules in :mod:`.encodings`), files and folders read as a corpus
(:mod:`.folders`; walked by :mod:`.walking`, which leaves a folder's tokenizer model
files out; a model folder or a corpus folder: :mod:`.folder_roles`), large corpora
streamed in pieces with a sample kept
(:mod:`.streaming`), model files (our BPE files in :mod:`.formats`, ``.tiktoken``
rank files in :mod:`.tiktoken_files`, both written by :mod:`.atomic`; WordPiece
files and BERT's ``vocab.txt`` in :mod:`.wordpiece_files`), which
tokenizer format a file or model folder holds, told by content (:mod:`.sniff`), a BPE
exported in other libraries' formats (:mod:`.exports`; the folder it needs created:
:mod:`.output_folders`), the one rule for showing a
size in bytes (:mod:`.sizes`) and the
built-in sample text (:mod:`.resources`).
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

#: Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS: dict[str, str] = {
    "atomic_write_bytes": "atomic",
    "Corpus": "corpus",
    "CorpusFile": "corpus",
    "RAW": "corpus",
    "check_binary": "encodings",
    "encoding_hint": "encodings",
    "READ_ANYWAY": "encodings",
    "OTHER_ENCODING": "encodings",
    "BOMLESS_CODECS": "encodings",
    "count_lines": "line_ends",
    "decode_file_bytes": "corpus",
    "line_ending_of": "line_ends",
    "read_raw": "corpus",
    "read_text_file": "corpus",
    "to_raw_bytes": "corpus",
    "guess_encoding": "encodings",
    "EncodingGuess": "guessing",
    "encoding_guess": "guessing",
    "codec_name": "encodings",
    "NO_SPLIT_PATTERN": "exports",
    "sidecar_path": "exports",
    "write_gpt2_export": "exports",
    "write_tiktoken_export": "exports",
    "CHECKED_FORMATS": "export_check",
    "ExportCheck": "export_check",
    "check_export": "export_check",
    "drift_note": "export_check",
    "write_tokenizer_json": "exports",
    "oniguruma_pattern": "exports",
    "format_size": "sizes",
    "created_note": "output_folders",
    "make_folder": "output_folders",
    "needed_folder": "output_folders",
    "collect_files": "folders",
    "FileEncodings": "file_encodings",
    "codec_for": "file_encodings",
    "file_label": "labels",
    "label_message": "labels",
    "label_problem": "labels",
    "name_as_given": "labels",
    "load_corpus": "folders",
    "read_corpus": "folders",
    "dumps_bpe": "formats",
    "load_bpe": "formats",
    "loads_bpe": "formats",
    "save_bpe": "formats",
    "read_model_file": "model_files",
    "CountedFile": "reading",
    "counting_files": "reading",
    "HEAD_BYTES": "reading",
    "damaged_message": "reading",
    "training_files": "reading",
    "resource_path": "resources",
    "PIECE_BYTES": "streaming",
    "SAMPLE_CHARS": "streaming",
    "STREAM_BYTES": "streaming",
    "file_text_pieces": "streaming",
    "stream_corpus": "streaming",
    "Sniffed": "sniff",
    "sniff_bytes": "sniff",
    "sniff_path": "sniff",
    "sample_text": "resources",
    "read_tiktoken_file": "tiktoken_files",
    "write_tiktoken_file": "tiktoken_files",
    "WordCounts": "word_counts",
    "count_word_counts": "word_counts",
    "load_word_counts": "word_counts",
    "save_word_counts": "word_counts",
    "BERT_EXPORT_HINT": "wordpiece_files",
    "CheckedCounts": "checked_counting",
    "count_checked": "checked_counting",
    "bert_config": "wordpiece_files",
    "dumps_wordpiece": "wordpiece_files",
    "load_wordpiece": "wordpiece_files",
    "loads_wordpiece": "wordpiece_files",
    "save_wordpiece": "wordpiece_files",
    "vocab_txt": "wordpiece_files",
    "write_vocab_txt": "wordpiece_files",
    "config_replacement_note": "wordpiece_files",
    "MODEL_KINDS": "walking",
    "Walk": "walking",
    "model_kind": "walking",
    "walk_files": "walking",
    "AS_CORPUS": "folder_roles",
    "AS_TOKENIZER": "folder_roles",
    "FolderRole": "folder_roles",
    "PathSort": "folder_roles",
    "folder_role": "folder_roles",
    "sort_paths": "folder_roles",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
