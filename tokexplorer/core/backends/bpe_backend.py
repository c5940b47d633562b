"""Our byte-level BPE engine (:class:`tokexplorer.core.bpe.model.BPE`) behind the
:class:`~tokexplorer.core.backends.base.Tokenizer` interface.

Token bytes concatenate to the UTF-8 text, so spans come from
:func:`tokexplorer.core.tokens.build_tokens` and always tile the text.

Our engine tokenizes (the spans it explains); ids and counts without spans
(:meth:`~tokexplorer.core.backends.base.Tokenizer.encode`, ``count``) run
tiktoken's compiled core built from the same ranks, pattern and special tokens
(:mod:`tokexplorer.core.backends.compiled`), which gives the same ids; where it
cannot, our engine does that work too and :attr:`BPETokenizer.counting_notes`
says why: for the whole model (a pattern tiktoken may read otherwise...), or for
the texts holding a code point tiktoken's regex classes otherwise than our
splitter (a letter newer than tiktoken's Unicode tables, such as U+0C5C).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import PurePath

from tokexplorer.core.backends.base import CancelCheck, Tokenizer, unknown_special_notes
from tokexplorer.core.backends.compiled import CompiledCore, compile_ranks
from tokexplorer.core.backends.naming import file_label
from tokexplorer.core.bpe import BPE
from tokexplorer.core.text import CleanText, pattern_label
from tokexplorer.core.tokens import build_tokens
from tokexplorer.core.types import SpecialPolicy, Tokenization

__all__ = ["BPETokenizer"]


class BPETokenizer(Tokenizer):
    """A :class:`~tokexplorer.core.bpe.model.BPE` model as a :class:`Tokenizer`.

    Args:
        bpe: the model (trained, loaded with :func:`tokexplorer.core.io.formats.load_bpe`,
            or built from tiktoken ranks with :func:`~tokexplorer.core.backends.tiktoken_backend.bpe_from_tiktoken`).
        source_file: the model file it was loaded from (its name and "BPE" then
            name the tokenizer, ``"a.bpe (BPE)"``), or None (named by ``bpe.name``).
        compiled: run ids and counts on tiktoken's compiled core
            (:func:`~tokexplorer.core.backends.compiled.compile_ranks`, built on
            first use); False: our engine does everything.
        core: an already built compiled core (the tiktoken encoding whose ranks
            ``bpe`` holds); implies ``compiled``.

    Attributes:
        bpe: the wrapped model.

    >>> from tokexplorer.core.bpe import train_bpe
    >>> tok = BPETokenizer(train_bpe("abab", vocab_size=258, pattern="none", special_tokens=["<|endoftext|>"])[0])
    >>> tok.description
    'custom BPE · no pre-tokenizer · 258 tokens (257 ranked + 1 special)'
    >>> tok.encode("abab<|endoftext|>", special="special"), tok.tokenize("abab<|endoftext|>").notes
    ([256, 256, 257], ("'<|endoftext|>' encoded as plain text",))
    """

    family = "bpe"

    def __init__(
        self,
        bpe: BPE,
        *,
        source_file: PurePath | None = None,
        compiled: bool = True,
        core: CompiledCore | None = None,
    ) -> None:
        self.bpe = bpe
        self.source_file = source_file
        self._compiled = compiled or core is not None
        self._core = core
        self._fallbacks = 0  # texts the compiled core failed on (our engine encoded them)
        self._drifts = 0  # texts holding a code point tiktoken classes otherwise (our engine encoded them)
        self._drift_points: list[int] = []  # the first such code point of the first texts (up to 3)
        self._lock = threading.Lock()  # (stats encodes blocks on several threads)

    @property
    def compiled_core(self) -> CompiledCore:
        """The bulk encoder (built on first use, about 0.1 s for 100,000 ranks)."""
        if self._core is None:
            if not self._compiled:
                self._core = CompiledCore(None, "the compiled core was turned off")
            else:
                bpe = self.bpe
                self._core = compile_ranks(
                    bpe.mergeable_ranks, pat_str=bpe.pat_str, special_tokens=bpe.special_tokens, name=bpe.name,
                    unicode=bpe.unicode,
                )  # fmt: skip
        return self._core

    @property
    def counts_in_threads(self) -> bool:
        """True when the counts run on tiktoken's compiled core (which releases the
        GIL); our engine holds it."""
        return self.compiled_core.available

    @property
    def counting_engine(self) -> str:
        """``"tiktoken's compiled core"`` or ``"our engine (REASON)"``: what computes
        ids and counts (tokens with spans always come from our engine)."""
        return self.compiled_core.engine

    @property
    def counting_notes(self) -> tuple[str, ...]:
        """Why ids and counts ran on our engine, when they did (or on some texts)."""
        core = self.compiled_core
        notes = [] if core.available or not self._compiled else [f"counted with our engine: {core.reason}"]
        if self._drifts:
            notes.append(self._drift_note())
        if self._fallbacks:
            n = self._fallbacks
            notes.append(f"tiktoken's compiled core failed on {n} text{'s' if n != 1 else ''}; our engine encoded them")
        return tuple(notes)

    def _drift_note(self) -> str:
        """``"counted with our engine on 1 text: it holds U+0C5C TELUGU ARCHAIC SHRII, a
        character Unicode 18.0.0 classes otherwise than tiktoken's regex (Unicode 16.0)"``."""
        from tokexplorer.core.text import char_name

        n = self._drifts
        held = ", ".join(f"U+{cp:04X} {char_name(cp)}" for cp in self._drift_points)
        return (f"counted with our engine on {n} text{'s' if n != 1 else ''}: "
                f"{'it holds' if n == 1 else 'they hold'} {held}, {self.compiled_core.drift.why}")  # fmt: skip

    def _encoded_by_us(self, drift: int | None) -> None:
        """Count a text the compiled core gave no ids for: it held ``drift`` (a code point), or failed."""
        with self._lock:
            if drift is None:
                self._fallbacks += 1
                return
            self._drifts += 1
            if len(self._drift_points) < 3 and drift not in self._drift_points:
                self._drift_points.append(drift)

    @property
    def default_name(self) -> str:
        """``"a.bpe (BPE)"`` for a model loaded from a file, else the model's name
        (``"custom BPE"``, ``"our engine: cl100k_base"``); a model trained here and exported
        says where (``"custom BPE · saved as tokenizer.json"``: :attr:`saved_as`)."""
        if self.source_file is not None:
            return file_label(self.source_file, self.family)
        if self.saved_as is not None:
            return f"{self.bpe.name} · saved as {self.saved_as.name}"
        return self.bpe.name

    @property
    def split_unicode(self) -> str:
        """Whose Unicode the split pattern's classes follow: ``"Unicode 18.0.0 (the regex
        module)"`` for our own models, ``"Unicode 16.0 (as tiktoken's regex: ranks from a
        tiktoken encoding)"`` for ranks loaded from tiktoken (``BPE.unicode``)."""
        from tokexplorer.core.text.class_drift import regex_unicode_version, tiktoken_unicode_version

        if self.bpe.unicode == "tiktoken":
            return f"Unicode {tiktoken_unicode_version()} (as tiktoken's regex: ranks from a tiktoken encoding)"
        return f"Unicode {regex_unicode_version()} (the regex module)"

    @property
    def description(self) -> str:
        """``"custom BPE · gpt2 pattern · 4,096 tokens (no special tokens)"`` (the name first;
        the tokens as :attr:`BPE.vocab_text <tokexplorer.core.bpe.model.BPE.vocab_text>` says them)."""
        return f"{self.name} · {pattern_label(self.bpe.pat_str)} · {self.bpe.vocab_text}"

    @property
    def vocab_size(self) -> int:
        """Number of ids, special tokens included (:attr:`BPE.vocab_size`)."""
        return self.bpe.vocab_size

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self.bpe.special_tokens)

    def _specials_in(self, text: str) -> list[str]:
        found: list[str] = []
        for _s, _e, tok in self.bpe.find_special(text):
            if tok not in found:
                found.append(tok)
        return found

    def _tokenize(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> Tokenization:
        """Tokens with exact byte/character spans; with ``"plain"`` a note names
        each special token spelled in the text. Polls ``cancel`` during long encodes.

        Raises:
            Cancelled: ``cancel()`` returned True.
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
        """
        t = cleaned.text
        ids = self.bpe.encode_with_policy(t, special, cancel=cancel)
        notes = self._notes(cleaned, special=special)
        special_ids = self.bpe.special_tokens.values() if special == "special" else ()
        tokens = build_tokens(t, ids, [self.bpe.token_bytes(i) for i in ids], special_ids=special_ids)
        return Tokenization(self.name, t, tokens, True, notes)

    def _notes(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[str, ...]:
        """The cleaning notes, one per special token spelled in the text with
        ``"plain"``, one per unknown ``<|...|>`` spelling."""
        t = cleaned.text
        notes = list(cleaned.notes)
        if special == "plain":
            notes.extend(f"{s!r} encoded as plain text" for s in self._specials_in(t))
        notes.extend(unknown_special_notes(t, self.bpe.special_tokens, special))
        return tuple(notes)

    def _encode(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> list[int]:
        """Token ids without building spans: the compiled core's, else our engine's
        (which polls ``cancel`` during long encodes): for the whole model when it has
        no compiled core, for a text the core refuses (one holding a code point
        tiktoken's regex classes otherwise) or fails on.

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
        """
        t = cleaned.text
        core = self.compiled_core
        if core.available and not (special == "raise" and self.bpe.find_special(t)):
            ids = core.encode(t, special)
            if ids is not None:
                return ids
            self._encoded_by_us(core.drift_in(t))
        return self.bpe.encode_with_policy(t, special, cancel=cancel)

    def token_bytes(self, token_id: int) -> bytes:
        """Bytes of one id (special tokens: their UTF-8 spelling).

        Raises:
            InputError: the id is not in the vocabulary.
        """
        return self.bpe.token_bytes(token_id)

    def vocab_bytes(self) -> tuple[list[int], list[bytes]]:
        """Every id and its bytes: the vocab, then the special tokens' UTF-8 spellings."""
        vocab, specials = self.bpe.vocab, self.bpe.special_tokens
        ids, got = list(vocab), list(vocab.values())
        ids.extend(specials.values())
        got.extend(s.encode("utf-8") for s in specials)
        return ids, got

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """Lossless decode: the concatenated bytes of ``ids``.

        Raises:
            InputError: an id is not in the vocabulary.
        """
        return self.bpe.decode_bytes(ids)
