"""Counting the tokens of the text, apart from the ones a post-processor adds.

A Hugging Face ``tokenizer.json`` (and a BERT ``vocab.txt``, built into one) has a
post-processor that adds tokens to every text it encodes as a model input:
``[CLS]``/``[SEP]`` (BERT's ``BertProcessing`` or a ``TemplateProcessing``),
``<s>``/``</s>`` (RoBERTa), a BOS (Llama). They are not tokens *of the text*: a
corpus counted file by file would gain two per file, a text counted in blocks two
per block, and our own WordPiece, tiktoken and SentencePiece never add them.
Corpus statistics and ``encode --count`` therefore count the text's tokens only
(:func:`text_tokens_only`), and name what the post-processor adds as a figure of
its own (:func:`added_note`).

>>> from tokenizers import Tokenizer, models, pre_tokenizers, processors
>>> lib = Tokenizer(models.WordLevel({"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hi": 3}, unk_token="[UNK]"))
>>> lib.pre_tokenizer = pre_tokenizers.Whitespace()
>>> lib.post_processor = processors.BertProcessing(("[SEP]", 2), ("[CLS]", 1))
>>> from tokexplorer.core.backends import HuggingFaceTokenizer
>>> tok = HuggingFaceTokenizer(lib)
>>> counted, added = text_tokens_only(tok)
>>> tok.count("hi hi"), counted.count("hi hi"), added
(4, 2, ('[CLS]', '[SEP]'))
>>> added_note(added, 2, texts=1)
"not counted: the post-processor's '[CLS]', '[SEP]' (2 tokens it adds to each text it encodes); with them: 4 tokens"
"""

from __future__ import annotations

import copy

from tokexplorer.core.backends import Tokenizer

__all__ = ["added_note", "text_tokens_only"]


def text_tokens_only(tokenizer: Tokenizer) -> tuple[Tokenizer, tuple[str, ...]]:
    """The tokenizer to count the text's own tokens with, and the tokens its
    post-processor adds to one text (their pieces, in order) that it leaves out.

    For a Hugging Face tokenizer whose post-processor adds tokens and whose
    ``add_special_tokens`` is on, a shallow copy with it off (the given tokenizer
    is not changed: a pane may be using it) and those pieces; for every other
    tokenizer (and one with the switch off already) the tokenizer itself and ``()``.

    Raises:
        TokexplorerError: the library failed reading its post-processor.
    """
    if tokenizer.family != "huggingface":  # (the adapter's module loaded only where one is used)
        return tokenizer, ()
    from tokexplorer.core.backends import HuggingFaceTokenizer

    if not isinstance(tokenizer, HuggingFaceTokenizer) or not tokenizer.add_special_tokens:
        return tokenizer, ()
    if not tokenizer.post_processor_adds():
        return tokenizer, ()
    enc = tokenizer.encoding("", special="special", add_special_tokens=True)
    pieces = tuple(p for p, seq in zip(enc.tokens, enc.sequence_ids) if seq is None)
    counted = copy.copy(tokenizer)
    counted.add_special_tokens = False
    return counted, pieces


def added_note(added: tuple[str, ...], tokens: int, *, texts: int) -> str | None:
    """The note naming the post-processor's tokens left out of a count of ``tokens``
    text tokens over ``texts`` texts (files), with the total that includes them
    (``tokens + len(added) * texts``); None when nothing was left out."""
    if not added:
        return None
    names = ", ".join(repr(p) for p in added)
    n = len(added)
    per = "each text it encodes" if texts == 1 else f"each text it encodes, one text per file: {texts:,} files"
    total = tokens + n * texts
    return (f"not counted: the post-processor's {names} ({n:,} token{'s' if n != 1 else ''} it adds to {per}); "
            f"with them: {total:,} token{'s' if total != 1 else ''}")  # fmt: skip
