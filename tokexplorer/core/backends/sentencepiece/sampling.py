"""A SentencePiece Unigram model that samples its segmentation (subword regularization).

:class:`SampledSentencePieceTokenizer` is a
:class:`~tokexplorer.core.backends.sentencepiece.tokenizer.SentencePieceTokenizer`
whose every encoding is one draw of SentencePiece's sampling
(``encode(enable_sampling=True, alpha=..., nbest_size=-1)``): a path of the
segmentation lattice with probability ``∝ exp(alpha * score)``. Each encoding
draws again, so the same text can come out differently every time (that is
the point); sentencepiece 0.2 cannot repeat a draw (its
``set_random_generator_seed`` does not make sampling reproducible).

>>> from tokexplorer.core.backends.sentencepiece.training import train_sentencepiece
>>> base = train_sentencepiece(["low lower lowest newest widest"] * 20, vocab_size=18, model_type="unigram")
>>> tok = SampledSentencePieceTokenizer(base, alpha=0.5)
>>> tok.name, tok.decode(tok.encode("lowest newest"))
('SentencePiece · sampled α=0.5', 'lowest newest')
"""

from __future__ import annotations

import math
from typing import Any

from tokexplorer.core.backends.base import CancelCheck
from tokexplorer.core.backends.sentencepiece.tokenizer import SentencePieceTokenizer
from tokexplorer.core.errors import InputError
from tokexplorer.core.text import CleanText
from tokexplorer.core.types import SpecialPolicy

__all__ = ["SampledSentencePieceTokenizer"]


class SampledSentencePieceTokenizer(SentencePieceTokenizer):
    """A Unigram model whose encoding is a sampled segmentation.

    Args:
        base: the SentencePiece Unigram model (its file and name are kept).
        alpha: SentencePiece's sampling parameter (> 0; small: near uniform over
            the paths, large: near the best path).

    Raises:
        InputError: the model is not a Unigram model, or ``alpha`` is not a positive number.
    """

    def __init__(self, base: SentencePieceTokenizer, *, alpha: float) -> None:
        if base.info.model_type != "unigram":
            raise InputError(f"{base.name} is a SentencePiece {base.info.model_type} model: only Unigram samples")
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not alpha > 0 or math.isinf(alpha):
            raise InputError(f"alpha must be a positive number, not {alpha!r}")
        super().__init__(base.model_proto, name=f"{base.name} · sampled α={alpha:g}")
        self.source_file = base.source_file
        self.alpha = float(alpha)

    @property
    def line_cuts_exact(self) -> bool:
        """True where the best segmentation keeps its pieces at line starts: each draw is
        as good as another, so the draws of the two sides of a cut are one draw of the whole."""
        return self.line_cuts_keep_pieces

    def _encode_proto(self, text: str) -> bytes:
        return self.processor.encode(
            text, out_type="serialized_proto", enable_sampling=True, alpha=self.alpha, nbest_size=-1
        )

    def _piece_strings(self, text: str) -> None:
        return None  # (another draw than _ids: the pieces come from _encode_proto's draw)

    def _ids(self, text: str | list[str]) -> Any:
        return self.processor.encode(text, out_type=int, enable_sampling=True, alpha=self.alpha, nbest_size=-1)

    def _encode(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> list[int]:
        return self._tokenize(cleaned, special=special, cancel=cancel).ids
