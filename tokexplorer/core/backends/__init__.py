"""One :class:`Tokenizer` interface and an adapter per family (our BPE, tiktoken and tekken,
SentencePiece, Hugging Face ``tokenizers``, our WordPiece), plus the SPEC strings that name and load them.
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

#: Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS: dict[str, str] = {
    "CancelCheck": "base",
    "Tokenizer": "base",
    "check_special_policy": "base",
    "BPETokenizer": "bpe_backend",
    "HuggingFaceTokenizer": "huggingface",
    "byte_level_ranks": "huggingface",
    "load_gpt2_pair": "hf_files",
    "load_wordpiece_vocab": "hf_files",
    "PipelineStages": "huggingface",
    "pipeline_stages": "huggingface",
    "STAGE_SEPARATOR": "huggingface",
    "stage_piece": "huggingface",
    "stage_token": "huggingface",
    "CompiledCore": "compiled",
    "compile_ranks": "compiled",
    "FAMILY_LABELS": "naming",
    "file_label": "naming",
    "name_distinctly": "naming",
    "LinesTooLongError": "sentencepiece",
    "NORMALIZATION_RULES": "sentencepiece",
    "SentencePieceOptions": "sentencepiece",
    "SampledSentencePieceTokenizer": "sentencepiece",
    "SentencePieceTokenizer": "sentencepiece",
    "VocabTooLargeError": "sentencepiece",
    "VocabTooSmallError": "sentencepiece",
    "WS": "sentencepiece",
    "check_sentencepiece_training": "sentencepiece",
    "coverage_problem": "sentencepiece",
    "describe_normalization": "sentencepiece",
    "parse_model_info": "sentencepiece",
    "train_sentencepiece": "sentencepiece",
    "user_defined_ids": "sentencepiece",
    "KNOWN_RANK_FILES": "rank_files",
    "KnownRanks": "rank_files",
    "PATTERN_HINT": "rank_files",
    "PatternNeededError": "rank_files",
    "RANK_PATTERNS": "rank_files",
    "known_rank_file": "rank_files",
    "resolve_pattern": "rank_files",
    "SPEC_FORMS": "spec",
    "load_tokenizer": "spec",
    "load_tokenizers": "spec",
    "model_path": "spec",
    "parse_spec": "spec",
    "unused_pattern_note": "spec",
    "TekkenTokenizer": "tekken",
    "load_tekken": "tekken",
    "TiktokenTokenizer": "tiktoken_backend",
    "bpe_from_tiktoken": "tiktoken_backend",
    "load_named_encoding": "tiktoken_backend",
    "read_tiktoken_ranks": "tiktoken_backend",
    "available_tiktoken_encodings": "tiktoken_registry",
    "load_tiktoken_encoding": "tiktoken_registry",
    "set_tiktoken_cache_dir": "tiktoken_registry",
    "WordPieceTokenizer": "wordpiece_backend",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
