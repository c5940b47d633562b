"""Train on a corpus of several hundred MB from the command line and record peak memory.

Issue 3 asks that a 300 MB corpus trains with peak memory under 1.5 GB. This
script builds such a corpus (or takes yours), runs

    python3 -m tokexplorer train CORPUS --vocab-size 32000 -o OUT.bpe

in a subprocess and samples the resident memory of that process and of its
worker processes every 0.2 s (Linux ``/proc``), then prints the peak of the
main process, the peak of main + workers at one moment, the time per phase and
PASS or MISS against 1,500 MB (MB = 10^6 bytes; ``--limit-mb`` changes it).

The built corpus is 10 MiB English repeated with one word in three varied,
plus the Chinese and code corpora (seeded, so the file is the same on every
run). Memory and the merge phase grow with the number of *distinct* chunks, so
how the words vary decides what is measured: ``--variation heaps`` (default)
draws them from a vocabulary that grows as real text's does (Heaps' law:
``25 * n ** 0.6`` made-up words after ``n`` varied slots, recurring by Zipf's
law; 793,000 distinct chunks at 1 GB), ``--variation stress`` gives each a
random three-character suffix (distinct chunks grow linearly: about 3.2
million at 350 MB). The trainer's ``counting: 0/N`` line gives the distinct
chunks, printed per size with the CPU seconds of main and workers.

Issue 14 asks for scale: a 1 GB corpus trains with peak memory under 1.5 GB
and in time within 1.3x of linear (1 GB time <= 1.3 x 3.3 x the 300 MB time).
``--sizes-mb 300,1000`` builds corpora of those sizes (the same generator, cut
at a line end once the size is reached) and trains each in turn, then prints
each size's time and CPU time against linear growth from every smaller size;
smaller sizes (``--sizes-mb 50,150``) check the same on a machine with less time.

Usage (from the repository root):

    python3 bench/big_corpus.py                  # build bench/corpora/big_26x_heaps_v3.txt (~350 MB) and train
    python3 bench/big_corpus.py --corpus FILE    # train on your own file instead
    python3 bench/big_corpus.py --sizes-mb 300,1000   # scale: memory and time against linear
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "bench" / "corpora"
sys.path.insert(0, str(ROOT / "bench"))


SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]  # 70 syllables: "ba", "be", ... "zu"
HEAPS_K, HEAPS_BETA = 25, 0.6
"""Heaps' law of the varied words: after ``n`` varied slots, ``K * n ** BETA`` distinct varied words."""


def _made_up_word(rank: int) -> str:
    """The varied word of a rank: its bijective base-70 digits as syllables (0 -> "ba", 70 -> "baba")."""
    x, parts = rank + 1, []
    while x:
        x -= 1
        parts.append(SYLLABLES[x % 70])
        x //= 70
    return "".join(parts)


class HeapsWords:
    """Varied words that grow like a real vocabulary (Heaps' law) and recur by Zipf's law.

    Slot ``n`` (1, 2, ...) gets a new word while fewer than ``K * n ** BETA``
    exist, and otherwise an existing one, rank ``r`` with probability about
    ``1 / r`` (``int(V ** u)`` for ``u`` uniform in [0, 1)), so distinct words
    grow as ``n ** 0.6`` and a few words make up most of the text, as in real text.
    """

    def __init__(self, rng: random.Random) -> None:
        self.words: list[str] = []
        self.n = 0
        self.rnd = rng.random

    def next(self) -> str:
        self.n += 1
        words = self.words
        v = len(words)
        if v < HEAPS_K * self.n**HEAPS_BETA:
            words.append(_made_up_word(v))
            return words[-1]
        return words[int(v ** self.rnd()) - 1]


def build(out: Path, copies: int, seed: int = 3, *, max_bytes: int | None = None, variation: str = "heaps") -> None:
    """Write the corpus to ``out`` (UTF-8): ``copies`` rounds, or as many as reach
    ``max_bytes`` (then cut after the last line end within it).

    Each round is 10 MiB English in which one word in three (a different third
    each round) is varied, then the Chinese or the code corpus. ``variation``
    "heaps": a word of letters only becomes a made-up word of :class:`HeapsWords`,
    so distinct chunks grow sublinearly with the size, as in real text;
    "stress": every such word gets a random three-character suffix, so distinct
    chunks grow linearly (the worst case for memory)."""
    from run import ensure_corpora  # bench/run.py builds missing corpora

    ensure_corpora(CORPORA)
    en = (CORPORA / "en_10mb.txt").read_text(encoding="utf-8")
    zh = (CORPORA / "zh_1mb.txt").read_text(encoding="utf-8")
    code = (CORPORA / "code_1mb.txt").read_text(encoding="utf-8")
    rng = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    heaps = HeapsWords(rng)
    tmp = out.with_suffix(".part")
    with open(tmp, "w", encoding="utf-8") as f:
        for k in range(copies):
            if max_bytes is not None and f.tell() >= max_bytes:
                break
            words = en.split(" ")
            for i in range(k % 3, len(words), 3):
                if variation == "stress":
                    words[i] += "".join(rng.choices(alphabet, k=3))
                elif words[i].isalpha():
                    words[i] = heaps.next()
            f.write(" ".join(words))
            f.write("\n")
            f.write(zh if k % 2 == 0 else code)
            f.write("\n")
            print(f"building {out.name}: {k + 1}/{copies}", file=sys.stderr, flush=True)
    if max_bytes is not None:
        with open(tmp, "r+b") as f:
            f.seek(max(0, max_bytes - (1 << 16)))
            tail = f.read(1 << 16)
            f.truncate(max(0, max_bytes - (1 << 16)) + tail.rfind(b"\n") + 1)
    os.replace(tmp, out)


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024 * 1.048576  # kB -> MB (10^6 bytes)
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of one live process so far (Linux ``/proc``), or 0.0."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def train(corpus: Path, vocab_size: int) -> dict:
    """Run the CLI training and sample memory and CPU time; returns the measurements.

    CPU seconds are load-independent where wall time is not (other processes
    share the cores): ``cpu_main_s`` is the main process's own (last sample
    before it exits), ``cpu_total_s`` the main process's with its workers'
    (from ``wait4``)."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "big.bpe"
        cmd = [sys.executable, "-m", "tokexplorer", "train", str(corpus),
               "--vocab-size", str(vocab_size), "-o", str(out)]
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        phases: dict[str, float] = {}
        last_line = [""]
        chunks = [0]

        def read_err() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                last_line[0] = line.strip()
                phase = line.split(":", 1)[0]
                phases.setdefault(phase, time.perf_counter() - t0)
                if phase == "counting" and "/" in line:  # "counting: 0/1,234,567": the distinct chunks
                    chunks[0] = int(line.split("/", 1)[1].split()[0].replace(",", ""))

        import threading

        threading.Thread(target=read_err, daemon=True).start()
        peak_main = peak_total = cpu_main = 0.0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            main = _rss_mb(proc.pid)
            total = main + sum(_rss_mb(c) for c in _children(proc.pid))
            cpu_main = _cpu_seconds(proc.pid) or cpu_main
            peak_main = max(peak_main, main)
            peak_total = max(peak_total, total)
            time.sleep(0.2)
        seconds = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        stdout = proc.stdout.read() if proc.stdout else ""
    return {
        "returncode": proc.returncode,
        "seconds": seconds,
        "peak_main_mb": peak_main,
        "peak_total_mb": peak_total,
        "cpu_main_s": cpu_main,
        "cpu_total_s": usage.ru_utime + usage.ru_stime,
        "phases": phases,
        "distinct_chunks": chunks[0],
        "output": stdout.strip() or last_line[0],
    }


def _corpus_name(variation: str, size: str) -> str:
    return f"big_{size}_v2.txt" if variation == "stress" else f"big_{size}_heaps_v3.txt"


def scale(sizes_mb: list[int], vocab_size: int, limit_mb: float, variation: str) -> int:
    """Train on corpora of each size; peak memory per size and time against linear."""
    results = []
    for mb in sizes_mb:
        corpus = CORPORA / _corpus_name(variation, f"{mb}mb")
        if not corpus.exists():
            build(corpus, copies=10_000, max_bytes=mb * 1_000_000, variation=variation)
        size = corpus.stat().st_size
        r = train(corpus, vocab_size)
        if r["returncode"] != 0:
            print(f"{corpus.name}: training failed (exit {r['returncode']}): {r['output']}")
            return 1
        results.append((size, r))
        status = "PASS" if r["peak_total_mb"] <= limit_mb else "MISS"
        began = ", ".join(f"{k} {v:.1f} s" for k, v in r["phases"].items())
        print(f"{corpus.name} ({size / 1e6:.0f} MB, {r['distinct_chunks']:,} distinct chunks): {r['seconds']:.1f} s, "
              f"peak {r['peak_total_mb']:.0f} MB main + workers ({status} <= {limit_mb:.0f} MB); "
              f"CPU {r['cpu_main_s']:.0f} s main, {r['cpu_total_s']:.0f} s with workers; phases began at "
              f"{began}; {r['output']}", flush=True)  # fmt: skip
    for k, (size, r) in enumerate(results):
        for s0, r0 in results[:k]:  # against every smaller size (issue 14: 1 GB against 300 MB)
            _print_ratio(size, r, s0, r0)
    return 0


def _print_ratio(size: int, r: dict, s0: int, r0: dict) -> None:
    """One line: the time of ``size`` bytes against linear growth from ``s0`` bytes."""
    linear = r0["seconds"] * size / s0
    ratio = r["seconds"] / linear
    cpu_ratio = r["cpu_total_s"] / (r0["cpu_total_s"] * size / s0)
    print(f"{size / 1e6:.0f} MB vs {s0 / 1e6:.0f} MB: {r['seconds']:.1f} s against {linear:.1f} s linear = "
          f"{ratio:.2f}x ({'PASS' if ratio <= 1.3 else 'MISS'} <= 1.3); "
          f"CPU time {cpu_ratio:.2f}x linear")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, help="train on this file instead of building one")
    ap.add_argument(
        "--copies", type=int, default=26, help="copies of 10 MiB English in the built corpus (default 26: ~350 MB)"
    )
    ap.add_argument("--vocab-size", type=int, default=32000)
    ap.add_argument("--limit-mb", type=float, default=1500.0, help="peak memory target in MB (default 1500)")
    ap.add_argument("--sizes-mb", metavar="A,B,...", help="build corpora of these sizes (MB) and compare with linear")
    ap.add_argument(
        "--variation", choices=("heaps", "stress"), default="heaps",
        help="varied words of the built corpus: heaps (default: distinct words grow as size**0.6, like real "
        "text) or stress (a random suffix on one word in three: distinct chunks grow linearly)",
    )  # fmt: skip
    args = ap.parse_args(argv)
    if args.sizes_mb:
        return scale([int(x) for x in args.sizes_mb.split(",")], args.vocab_size, args.limit_mb, args.variation)
    corpus = args.corpus
    if corpus is None:
        corpus = CORPORA / _corpus_name(args.variation, f"{args.copies}x")
        if not corpus.exists():
            build(corpus, args.copies, variation=args.variation)
    size = corpus.stat().st_size
    print(f"training {corpus} ({size / 1e6:.1f} MB) to vocab {args.vocab_size} from the command line ...", flush=True)
    r = train(corpus, args.vocab_size)
    if r["returncode"] != 0:
        print(f"training failed (exit {r['returncode']}): {r['output']}")
        return 1
    print(r["output"])
    print(f"distinct chunks {r['distinct_chunks']:,}")
    print(f"wall time {r['seconds']:.1f} s; phases began at " +
          ", ".join(f"{k} {v:.1f} s" for k, v in r["phases"].items()))
    print(
        f"peak RSS: main process {r['peak_main_mb']:.0f} MB; "
        f"main + workers at one moment {r['peak_total_mb']:.0f} MB"
    )
    status = "PASS" if r["peak_total_mb"] < args.limit_mb else "MISS"
    print(f"{status}  a {size / 1e6:.0f} MB corpus trains with peak memory < {args.limit_mb:.0f} MB "
          f"(measured {r['peak_total_mb']:.0f} MB, main + workers)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
