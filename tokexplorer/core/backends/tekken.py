"""Mistral's ``tekken.json``: a tiktoken-style BPE that carries its own split
pattern, vocabulary and special tokens.

The file is read the way ``mistral_common`` (1.13, ``tokens/tokenizers/tekken.py``,
``Tekkenizer.from_file``) reads it:

* ``config.pattern`` is the split pattern, ``config.default_num_special_tokens``
  (N) the number of special tokens, ``config.default_vocab_size`` the number of
  ids in all;
* the special tokens take ids ``0 .. N-1``: the file's ``special_tokens`` list
  (``rank``, ``token_str``), or for files of version v7 and older that have
  none, mistral_common's 20 default ones (``<unk>``, ``<s>``, ``</s>``,
  ``[INST]``...); the ids left up to N are fillers ``<SPECIAL_i>``;
* the ``vocab`` list (``rank``, base64 ``token_bytes``) is cut to its first
  ``default_vocab_size - N`` entries, and token rank ``r`` has id ``r + N``.

So ids equal ``Tekkenizer.encode(text, bos=False, eos=False)``. Like
mistral_common, text that spells a special token is encoded as plain text
unless the special-token policy is ``"special"``.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from pathlib import Path

from tokexplorer.core.backends.naming import file_label
from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
from tokexplorer.core.backends.tiktoken_registry import first_line, import_tiktoken
from tokexplorer.core.errors import ModelFormatError
from tokexplorer.core.io import read_model_file

__all__ = ["TekkenTokenizer", "load_tekken"]

#: mistral_common's ``Tekkenizer.DEPRECATED_SPECIAL_TOKENS`` (ids 0-19), used by
#: files of version v7 or older that list no special tokens.
DEFAULT_SPECIAL_TOKENS: tuple[str, ...] = (
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]",
    "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]",
)  # fmt: skip


class TekkenTokenizer(TiktokenTokenizer):
    """A ``tekken.json`` behind the tiktoken backend (see :func:`load_tekken`);
    named ``"tekken.json (tekken)"``."""

    @property
    def default_name(self) -> str:
        """``"tekken_240911.json (tekken)"``."""
        if self.source_file is not None:
            return file_label(self.source_file, "tekken")
        return super().default_name


def _special_tokens(data: dict, version: str, n_special: int, name: str) -> tuple[dict[str, int], str]:
    """Special token text -> id (0 .. n_special-1), and where they came from.

    Raises:
        ModelFormatError: no list in a file newer than v7, ids out of order, too many.
    """
    listed = data.get("special_tokens")
    if listed is None:
        if int(version[1:]) > 7:
            raise ModelFormatError(f"{name}: a tekken file of version {version} must list its special tokens")
        texts = list(DEFAULT_SPECIAL_TOKENS)
        source = f"{len(texts)} mistral_common defaults"
    else:
        if not isinstance(listed, list) or any(
            not isinstance(t, dict) or t.get("rank") != i or not isinstance(t.get("token_str"), str)
            for i, t in enumerate(listed)
        ):
            raise ModelFormatError(f"{name}: 'special_tokens' must list {{rank, token_str}} with ranks 0, 1, 2...")
        texts = [t["token_str"] for t in listed]
        source = f"{len(texts)} listed"
    if len(texts) > n_special or len(set(texts)) != len(texts):
        raise ModelFormatError(f"{name}: {len(texts)} special tokens for {n_special} special ids, or one repeats")
    fillers = n_special - len(texts)
    texts += [f"<SPECIAL_{i}>" for i in range(len(texts), n_special)]
    if fillers:
        source += f" + {fillers} <SPECIAL_i> fillers"
    return {t: i for i, t in enumerate(texts)}, source


def _ranks(vocab: list, inner: int, n_special: int, name: str) -> dict[bytes, int]:
    """The first ``inner`` vocabulary entries as token bytes -> id (rank + n_special).

    Raises:
        ModelFormatError: an entry out of order, not base64, a first-256 entry
            that is not its byte, or a repeated token.
    """
    ranks: dict[bytes, int] = {}
    for i, entry in enumerate(vocab[:inner]):
        try:
            if entry["rank"] != i:
                raise ValueError
            tok = base64.b64decode(entry["token_bytes"])
        except (KeyError, TypeError, ValueError, binascii.Error):
            raise ModelFormatError(f"{name}: vocab entry {i} is not {{rank: {i}, token_bytes: base64}}") from None
        if i < 256 and tok != bytes([i]) or tok in ranks:
            raise ModelFormatError(f"{name}: vocab entry {i} ({tok!r}) is out of place or repeats")
        ranks[tok] = i + n_special
    return ranks


def load_tekken(path: str | os.PathLike[str]) -> TekkenTokenizer:
    """Load a Mistral ``tekken.json`` (see the module docstring for how it is read).

    Args:
        path: the file (any name; ``tekken.json``, ``tekken_240911.json``).

    Returns:
        a :class:`TekkenTokenizer` whose ids are mistral_common's; its
        description names the version, the pattern and the special tokens.

    Raises:
        InputError: no such file.
        ModelFormatError: not a tekken file, or one mistral_common would refuse.
    """
    p = Path(path)
    try:
        data = json.loads(read_model_file(p))
        config, vocab = data["config"], data["vocab"]
        pattern, version = config["pattern"], str(config.get("version", "v1"))
        n_special, size = int(config["default_num_special_tokens"]), int(config["default_vocab_size"])
        int(version[1:])
    except (ValueError, KeyError, TypeError):
        raise ModelFormatError(
            f"{p.name} is not a tekken file (needs config.pattern, config.default_vocab_size, "
            "config.default_num_special_tokens, config.version and a vocab list)"
        ) from None
    inner = size - n_special
    if not isinstance(vocab, list) or not 256 <= inner <= len(vocab):
        raise ModelFormatError(f"{p.name}: default_vocab_size {size:,} does not fit {len(vocab):,} tokens")
    specials, special_source = _special_tokens(data, version, n_special, p.name)
    ranks = _ranks(vocab, inner, n_special, p.name)
    tiktoken = import_tiktoken()
    try:
        enc = tiktoken.Encoding(p.name.removesuffix(".json"), pat_str=pattern, mergeable_ranks=ranks,
                                special_tokens=specials)  # fmt: skip
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - tiktoken's Rust panics are BaseExceptions
        raise ModelFormatError(f"{p.name}: tiktoken rejected the tekken vocabulary: {first_line(exc)}") from None
    cut = f" · vocab cut to {inner:,} of {len(vocab):,}" if inner < len(vocab) else ""
    notes = f"tekken {version} · special ids 0-{n_special - 1} ({special_source}){cut}"
    return TekkenTokenizer(enc, source=notes, source_file=p.absolute())
