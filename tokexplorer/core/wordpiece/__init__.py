"""Our WordPiece: the normalizer and pre-tokenizers (``pretokenize``), the model
and its longest-match-first encoding (``model``), and the trainer with the
textbook score ``freq(a, b) / (freq(a) * freq(b))`` (``trainer``), which refuses a
vocabulary too small for the corpus's alphabet as soon as that is known (``alphabet``).
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

#: Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS: dict[str, str] = {
    "AlphabetBudget": "alphabet",
    "character_pieces": "alphabet",
    "distinct_characters": "alphabet",
    "CONTINUATION": "model",
    "DEFAULT_MAX_CHARS": "model",
    "UNK": "model",
    "MatchStep": "model",
    "WordPiece": "model",
    "WordPieceMerge": "model",
    "WordPieceToken": "model",
    "BERT_PATTERN": "pretokenize",
    "WORDPIECE_PATTERNS": "pretokenize",
    "Word": "pretokenize",
    "normalize": "pretokenize",
    "pre_tokenize": "pretokenize",
    "validate_pattern": "pretokenize",
    "BERT_SPECIAL_TOKENS": "trainer",
    "count_words": "trainer",
    "initial_alphabet": "trainer",
    "train_wordpiece": "trainer",
    "train_wordpiece_iter": "trainer",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
