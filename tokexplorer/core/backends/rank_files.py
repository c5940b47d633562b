"""What a rank file lacks: its split pattern and special tokens.

A ``.tiktoken``-style rank file holds only ``base64(token) rank`` lines; the
split pattern and the special tokens live in the code of the model that ships
it. Published files are recognised here by the SHA-256 of their bytes
(:data:`KNOWN_RANK_FILES`), and get the pattern and special tokens their own
code registers. Any other rank file gets a pattern only when one is given
(:func:`resolve_pattern`: a name of :data:`RANK_PATTERNS` or a regular
expression) or read from the JSON sidecar ``tokexplorer export --format
tiktoken`` writes beside it; without either, :func:`rank_file_setup` raises
:class:`PatternNeededError` instead of guessing.

>>> resolve_pattern("llama3")[0]
'llama3'
>>> resolve_pattern(r"\\w+|\\s+")
('custom', '\\\\w+|\\\\s+')
>>> resolve_pattern("llama5")
Traceback (most recent call last):
...
tokexplorer.core.errors.InputError: unknown split pattern 'llama5'; give one of gpt2, ... or a regular expression
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import regex

from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.text import PUBLISHED_PATTERNS

__all__ = [
    "KNOWN_RANK_FILES",
    "RANK_PATTERNS",
    "KnownRanks",
    "PATTERN_HINT",
    "PatternNeededError",
    "RankSetup",
    "known_rank_file",
    "rank_file_setup",
    "resolve_pattern",
]


class PatternNeededError(InputError):
    """A rank file that is not a published one was loaded without a split pattern."""


#: Split patterns of published rank files, by the name ``--pattern`` takes (the
#: published patterns of :data:`~tokexplorer.core.text.pretokenize.PUBLISHED_PATTERNS`).
RANK_PATTERNS: dict[str, str] = PUBLISHED_PATTERNS

#: The end of :class:`PatternNeededError`'s message: what to give, named as a setting (the
#: command line adds its flag; the window asks in a dialog).
PATTERN_HINT = f"give its split pattern (a regular expression, or a name: {', '.join(RANK_PATTERNS)})"

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def resolve_pattern(pattern: str) -> tuple[str, str]:
    """A split pattern given by name or as a regular expression.

    Args:
        pattern: a name of :data:`RANK_PATTERNS`, or a regular expression (any
            string that is not a lower-case word), compiled with :mod:`regex`.

    Returns:
        ``(name, pat_str)``; name is ``"custom"`` for a regular expression
        that is none of the named patterns.

    Raises:
        InputError: an unknown name, or a regular expression that does not compile.
    """
    if pattern in RANK_PATTERNS:
        return pattern, RANK_PATTERNS[pattern]
    if _NAME.match(pattern):
        raise InputError(
            f"unknown split pattern {pattern!r}; give one of {', '.join(RANK_PATTERNS)} or a regular expression"
        )
    try:
        regex.compile(pattern)
    except regex.error as exc:
        raise InputError(f"the split pattern {pattern} is not a valid regular expression: {exc}") from None
    same = [name for name, pat in RANK_PATTERNS.items() if pat == pattern]
    return (same[0] if same else "custom"), pattern


def _endoftext_at(n: int) -> dict[str, int]:
    return {"<|endoftext|>": n}


def _cl100k(n: int) -> dict[str, int]:
    # tiktoken_ext/openai_public.py cl100k_base (tiktoken 0.14)
    return {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}  # fmt: skip


def _o200k(n: int) -> dict[str, int]:
    # tiktoken_ext/openai_public.py o200k_base (tiktoken 0.14)
    return {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}


def _numbered(names: list[str], start: int) -> dict[str, int]:
    return {s: start + i for i, s in enumerate(names)}


def _llama3(n: int) -> dict[str, int]:
    # llama-models 0.3 llama3/tokenizer.py: 12 named tokens, then reserved ones up to 256, after the ranks
    named = ["<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>",
             "<|reserved_special_token_1|>", "<|finetune_right_pad_id|>", "<|step_id|>",
             "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>",
             "<|python_tag|>", "<|image|>"]  # fmt: skip
    reserved = [f"<|reserved_special_token_{2 + i}|>" for i in range(256 - len(named))]
    return _numbered(named + reserved, n)


def _reserved(kind: str, count: int, start: int) -> list[str]:
    return [f"<|{kind}_reserved_special_token_{i}|>" for i in range(start, start + count)]


def _llama4(n: int) -> dict[str, int]:
    # llama-models 0.3 llama4/tokenizer.py: BASIC_SPECIAL_TOKENS + LLAMA4_SPECIAL_TOKENS,
    # then <|reserved_special_token_i|> up to 2048, after the ranks
    basic = ["<|begin_of_text|>", "<|end_of_text|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"]
    text = ["<|header_start|>", "<|header_end|>", "<|eom|>", "<|eot|>", "<|step|>"]
    text += [f"<|text_post_train_reserved_special_token_{i}|>" for i in range(6)]
    text += ["<|python_start|>", "<|python_end|>", "<|finetune_right_pad|>"]
    text += _reserved("text_post_train", 61, 8)
    vision = ["<|image_start|>", "<|image_end|>", "<|vision_reserved_special_token_0|>",
              "<|vision_reserved_special_token_1|>", "<|tile_x_separator|>", "<|tile_y_separator|>"]  # fmt: skip
    vision += [f"<|vision_reserved_special_token_{i}|>" for i in range(2, 6)]
    vision += ["<|image|>", "<|vision_reserved_special_token_6|>", "<|patch|>"]
    vision += _reserved("vision", 1041, 7)
    reasoning = [f"<|reasoning_reserved_special_token_{i}|>" for i in range(8)]
    reasoning += ["<|reasoning_thinking_start|>", "<|reasoning_thinking_end|>"]
    named = basic + text + vision + reasoning
    reserved = [f"<|reserved_special_token_{i}|>" for i in range(2048 - len(named))]
    return _numbered(named + reserved, n)


def _qwen(n: int) -> dict[str, int]:
    # dashscope 2.0 tokenizers/qwen_tokenizer.py: SPECIAL_TOKENS from SPECIAL_START_ID = 151643
    names = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] + [f"<|extra_{i}|>" for i in range(205)]
    return _numbered(names, 151643)


#: Whisper's language codes in the order of ``LANGUAGES`` (openai-whisper 20250625
#: ``whisper/tokenizer.py``); its default ``num_languages`` is 99 (large-v3 uses 100, adding yue).
_WHISPER_LANGUAGES = (
    "en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr "
    "bg lt la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn "
    "yo so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha ba jw su"
).split()


def _whisper(n: int) -> dict[str, int]:
    # openai-whisper 20250625 whisper/tokenizer.py get_encoding(num_languages=99): the specials after the ranks
    names = ["<|endoftext|>", "<|startoftranscript|>", *[f"<|{c}|>" for c in _WHISPER_LANGUAGES]]
    names += ["<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>",
              "<|notimestamps|>", *[f"<|{i * 0.02:.2f}|>" for i in range(1501)]]  # fmt: skip
    return _numbered(names, n)


@dataclass(frozen=True, slots=True)
class KnownRanks:
    """A published rank file.

    Attributes:
        label: what it is, for names and notes (``"Llama 3"``).
        pattern: its split pattern's name in :data:`RANK_PATTERNS`.
        specials: number of ranks -> the special tokens its code registers.
        note: what a user should know beyond that, or ``""``.
    """

    label: str
    pattern: str
    specials: Callable[[int], dict[str, int]]
    note: str = ""


#: SHA-256 of a published rank file's bytes -> what it is. The tiktoken hashes
#: are the ``expected_hash`` values of ``tiktoken_ext/openai_public.py`` (tiktoken
#: 0.14); the others were computed from the files as their packages ship them
#: (llama-models 0.3 ``llama3/tokenizer.model`` and ``llama4/tokenizer.model``,
#: dashscope 2.0 ``resources/qwen.tiktoken``, openai-whisper 20250625
#: ``assets/multilingual.tiktoken``; its ``gpt2.tiktoken`` is r50k_base's file).
KNOWN_RANK_FILES: dict[str, KnownRanks] = {
    "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930": KnownRanks(
        "r50k_base (GPT-2)", "gpt2", _endoftext_at,
        "Whisper's gpt2.tiktoken is this file; Whisper registers its own special tokens after 50256",
    ),
    "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069": KnownRanks(
        "p50k_base", "gpt2", lambda n: _endoftext_at(50256)
    ),
    "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7": KnownRanks("cl100k_base", "cl100k", _cl100k),
    "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d": KnownRanks("o200k_base", "o200k", _o200k),
    "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55": KnownRanks("Llama 3", "llama3", _llama3),
    "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed": KnownRanks("Llama 4", "o200k", _llama4),
    "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186": KnownRanks("Qwen", "qwen", _qwen),
    "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126": KnownRanks(
        "Whisper multilingual", "whisper", _whisper,
        "special tokens for 99 languages (Whisper large-v3 has 100: from <|translate|> on its ids are one higher)",
    ),
}  # fmt: skip


def known_rank_file(data: bytes) -> KnownRanks | None:
    """The published rank file whose bytes are ``data``, or None.

    >>> known_rank_file(b"IQ== 0\\n") is None
    True
    """
    return KNOWN_RANK_FILES.get(hashlib.sha256(data).hexdigest())


@dataclass(frozen=True, slots=True)
class RankSetup:
    """How a rank file is to be read, and why.

    Attributes:
        pat_str: the split pattern (named by :func:`~tokexplorer.core.text.pretokenize.pattern_label`).
        special_tokens: special token text -> id.
        label: what the file is (``"Llama 3"``, ``"sidecar m.tiktoken.json"``) or None.
        notes: one line each, for the description.
        overrides: what the user's choice changed from the file's own (a given
            pattern over a published file's), to be said when it loads.
    """

    pat_str: str
    special_tokens: dict[str, int]
    label: str | None
    notes: tuple[str, ...]
    overrides: tuple[str, ...] = ()


def _sidecar(path: Path) -> tuple[str, dict[str, int]] | None:
    """``(pat_str, special_tokens)`` of the JSON sidecar ``PATH.json`` beside a rank file, if any.

    Raises:
        ModelFormatError: the sidecar exists but lacks a string ``pat_str`` or
            has special tokens that are not text -> id.
    """
    side = path.with_name(path.name + ".json")
    if not side.is_file():
        return None
    try:
        meta = json.loads(side.read_bytes())
        pat_str, specials = meta["pat_str"], meta.get("special_tokens", {})
        if not isinstance(pat_str, str) or not all(
            isinstance(k, str) and isinstance(v, int) for k, v in specials.items()
        ):
            raise TypeError
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise ModelFormatError(
            f"{side.name} beside {path.name} is not a tokexplorer sidecar (a JSON object with 'pat_str' "
            "and 'special_tokens')"
        ) from None
    return pat_str, dict(specials)


def rank_file_setup(
    path: Path,
    data: bytes,
    n_ranks: int,
    *,
    pattern: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
) -> RankSetup:
    """Choose a rank file's split pattern and special tokens.

    The first that applies: ``pattern`` (given by the user); the sidecar
    ``PATH.json`` of a ``tokexplorer export --format tiktoken``; a published file
    recognised by :func:`known_rank_file` (a given pattern that differs from
    its own gets a note).

    Args:
        path: the rank file (for the sidecar and messages).
        data: its bytes (for the hash).
        n_ranks: how many ranks it holds (published special tokens follow them).
        pattern: a name or regular expression (:func:`resolve_pattern`), or None.
        special_tokens: text -> id, or None for those of the sidecar or the published file.

    Raises:
        PatternNeededError: no pattern given, no sidecar, not a published file.
        InputError: a bad ``pattern``.
        ModelFormatError: a broken sidecar.
    """
    known = known_rank_file(data)
    side = _sidecar(path)
    notes: list[str] = []
    overrides: list[str] = []
    label: str | None = None
    if known is not None:
        label = known.label
        notes.append(f"{known.label} ranks (recognised by SHA-256)")
        if known.note:
            notes.append(known.note)
    if pattern is not None:
        name, pat_str = resolve_pattern(pattern)
        if known is not None and name != known.pattern:
            notes.append(f"pattern {name} as given; {known.label}'s own is {known.pattern}")
            overrides.append(
                f"split pattern {name} as given, not {known.label}'s own ({known.pattern}): "
                "ids can differ from the model's"
            )
        specials = known.specials(n_ranks) if known is not None else side[1] if side is not None else {}
    elif side is not None:
        pat_str, specials = side
        label = label or f"sidecar {path.name}.json"
        notes.append(f"pattern and special tokens from {path.name}.json")
    elif known is not None:
        pat_str, specials = RANK_PATTERNS[known.pattern], known.specials(n_ranks)
    else:
        raise PatternNeededError(
            f"{path.name} is a rank file that is not a published one, and rank files carry no split "
            f"pattern: {PATTERN_HINT}"
        )
    if special_tokens is not None:
        specials = dict(special_tokens)
    elif known is None and side is None:
        notes.append("no special tokens (a rank file does not list them)")
    return RankSetup(pat_str, specials, label, tuple(notes), tuple(overrides))
