"""The one reading rule: which files of a corpus are trained on, for the window and the command line.

Both front doors read a corpus with :func:`~tokexplorer.core.io.folders.read_corpus`
(the same encoding check, the same guess, the same notes) and then keep its files
by :func:`training_files`:

* a file in UTF-8 (or UTF-16/32 with a byte order mark) is used;
* a file that is not UTF-8 is read with the guessed encoding and used when that
  decode is exact; its notes say so (``"…; read as gb18030 (guessed; choose another
  encoding if wrong)"``), the window's file list shows the guess, and
  ``--encoding`` (or the window's Re-read with encoding) forces a codec;
* a file whose decode replaced undecodable bytes with U+FFFD is damaged: it is left
  out unless ``allow_damaged`` (``--allow-damaged``; in the window, the answer to
  "Train on damaged text?");
* an empty file is left out; unreadable and binary files never became corpus files
  (:attr:`Corpus.errors`).

Why the guess is used rather than refused: an exact decode loses nothing, the guess
is always said in a note, and refusing it made the command line learn other merges
than the window from the same folder while telling the user the same guess.
"""

from __future__ import annotations

from tokexplorer.core.io.corpus import Corpus, CorpusFile

__all__ = ["DAMAGED_HINT", "damaged_message", "training_files"]


#: How a user goes on with a damaged file, in the window's terms.
DAMAGED_HINT = "fix the file, choose its real encoding, or allow damaged text to train on it as it reads"


def damaged_message(f: CorpusFile, *, hint: str = DAMAGED_HINT) -> str:
    """Why a damaged file is left out, in one line ending with ``hint`` (how to go on).

    >>> from pathlib import Path
    >>> from tokexplorer.core.io import decode_file_bytes
    >>> f = decode_file_bytes(b"caf\\xe9 \\xff\\xfe\\x00", path=Path("a.txt"), encoding="utf-8")
    >>> damaged_message(f).split(";")[0]
    'a.txt: reading it as utf-8 replaced undecodable bytes with U+FFFD'
    """
    return (
        f"{f.path}: reading it as {f.encoding} replaced undecodable bytes with U+FFFD; "
        f"not training on damaged text ({hint})"
    )


def training_files(
    corpus: Corpus, *, allow_damaged: bool = False, damaged_hint: str = DAMAGED_HINT
) -> tuple[list[CorpusFile], list[str]]:
    """The files of ``corpus`` to train on, and one line per file left out (see the module rule).

    Args:
        corpus: the corpus as :func:`~tokexplorer.core.io.folders.read_corpus` read it.
        allow_damaged: also use files whose decode inserted U+FFFD.
        damaged_hint: how to go on, ending the line of a damaged file (see :func:`damaged_message`).

    Returns:
        ``(files, problems)``: the files with text, in corpus order; the corpus's
        errors followed by the reason each damaged file was left out.

    >>> from pathlib import Path
    >>> from tokexplorer.core.io import decode_file_bytes
    >>> gbk = decode_file_bytes("中文的文本，用来训练分词器。".encode("gbk"), path=Path("zh.txt"))
    >>> files, problems = training_files(Corpus((gbk,), ()))
    >>> [f.text for f in files], problems, gbk.encoding_guessed
    (['中文的文本，用来训练分词器。'], [], True)
    """
    used: list[CorpusFile] = []
    problems = list(corpus.errors)
    for f in corpus.files:
        if f.lossy and not allow_damaged:
            problems.append(damaged_message(f, hint=damaged_hint))
        elif f.n_chars:
            used.append(f)
    return used, problems
