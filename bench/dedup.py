"""Benchmark the dedup index (issue 24, part 3): one candidate looked up in an index of 1,000
library bootcamps, against the naive comparison with every bootcamp of its family.

    .venv/bin/python bench/dedup.py [--records 1000] [--levels 3] [--reps 200]
                                    [--sandbox process|bwrap|docker|none]

The 1,000 records' fingerprints are *synthesised* (random keys in the shape a drawn fingerprint
has: ``levels`` x 16 probes, a few task-text templates, case shapes shared by groups of
records, four source families), not drawn in the sandbox: drawing 1,000 bootcamps would time the
sandbox, not the lookup. Two candidates are looked up: a duplicate of one record (its keys, with
one probe changed: 97.9 % agreement) and a new bootcamp (fresh keys). For each, the indexed
lookup (``DedupIndex.duplicates``: the candidate's keys in inverted maps), a per-record scan
(each record of the family compared through hash sets) and the naive all-pairs comparison
(``naive_duplicates``: every probe against every probe of every record of the family) are timed
side by side, checked to give the same answer, and their ratios printed. Also
timed: building the index, writing and reading its file. With ``--sandbox`` other than none,
one real fingerprint is drawn (the shipped game24 in the sandbox), for the scale of what a
commit pays besides the lookup.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import setup  # noqa: E402
from filters.dedup_index import (  # noqa: E402
    PROBE_SEEDS,
    DedupIndex,
    Fingerprint,
    agreement,
    naive_duplicates,
)

FAMILIES = {"codecontests": 0.6, "humaneval": 0.2, "local": 0.1, "handwritten": 0.1}


def _hex(rng: random.Random) -> str:
    return f"{rng.getrandbits(64):016x}"


def synthesise(rng: random.Random, family: str, levels: int, schemas: list[str]) -> Fingerprint:
    templates = [_hex(rng) for _ in range(rng.randint(1, 3))]
    answers = [_hex(rng) for _ in range(rng.randint(2, 40))]
    labels = [f"l{lv}/{seed}" for lv in range(levels) for seed in PROBE_SEEDS]
    n = len(labels)
    return Fingerprint(family=family, code_sha256=_hex(rng) * 4, text_key=f"t1:{_hex(rng)}",
                       schema_key=rng.choice(schemas), labels=labels,
                       prompt=[_hex(rng) for _ in range(n)], values=[_hex(rng) for _ in range(n)],
                       template=[rng.choice(templates) for _ in range(n)],
                       answer=[rng.choice(answers) for _ in range(n)])


def duplicate_of(rng: random.Random, fp: Fingerprint) -> Fingerprint:
    """``fp``'s keys with one probe changed."""
    changed = {kind: [_hex(rng), *getattr(fp, kind)[1:]] for kind in ("prompt", "values", "template")}
    return fp.model_copy(update={**changed, "text_key": None, "code_sha256": "c" * 64})


def scan_duplicates(entries: dict[str, Fingerprint], fp: Fingerprint,
                    allowed: set[str]) -> list[Any]:
    """The middle way: every record of the family, each compared through hash maps."""
    found = [agreement(fp, n, e) for n, e in entries.items() if n in allowed]
    return sorted((p for p in found if p.by), key=lambda p: (-p.strength, p.name))


def median_s(fn: Callable[[], Any], reps: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def summary(found: list[Any]) -> list[tuple[str, tuple[float, float], str | None]]:
    return [(p.name, p.ratios, p.by) for p in found]


def draw_one(sandbox: str) -> None:
    from filters.dedup import draw
    from synth.library import Library
    from synth.serving.sampling import CaseSampler

    lib = Library()
    rec, code = lib.checked_code("game24")
    t0 = time.perf_counter()
    with CaseSampler(code, backend=sandbox, class_name=rec.class_name, name="game24") as sampler:
        drawn = draw(sampler, family="handwritten", code_sha256=rec.code_sha256)
    print(f"one real fingerprint (game24, {len(drawn.fingerprint)} probes, {sandbox} "
          f"sandbox, server start included): {time.perf_counter() - t0:.2f} s")


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--levels", type=int, default=3)
    ap.add_argument("--reps", type=int, default=200, help="indexed lookups timed per candidate")
    ap.add_argument("--naive-reps", type=int, default=5, help="naive comparisons per candidate")
    ap.add_argument("--sandbox", default="process", help="for the one real draw; none: skip it")
    args = ap.parse_args()
    t_start = time.perf_counter()
    rng = random.Random(24)
    schemas = [_hex(rng) for _ in range(args.records // 20 or 1)]
    names = list(FAMILIES)
    entries = {f"b{i:04d}": synthesise(rng, rng.choices(names, list(FAMILIES.values()))[0],
                                       args.levels, schemas) for i in range(args.records)}
    probes = sum(len(fp) for fp in entries.values())
    print(f"synthesised {len(entries)} fingerprints ({probes} probes, no sandbox) in "
          f"{time.perf_counter() - t_start:.2f} s")

    build_s, index = median_s(lambda: DedupIndex(entries), 3)
    print(f"build the index (inverted maps): {build_s * 1e3:.1f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        save_s, _ = median_s(lambda: index.save(root), 3)
        size = DedupIndex.path(root).stat().st_size
        load_s, loaded = median_s(lambda: DedupIndex.load(root), 3)
        assert loaded.entries == index.entries
    print(f"write the index file: {save_s * 1e3:.1f} ms ({size / 1e6:.1f} MB); "
          f"read it back: {load_s * 1e3:.1f} ms")

    target = next(n for n, fp in entries.items() if fp.family == "codecontests")
    candidates = {"duplicate of " + target: duplicate_of(rng, entries[target]),
                  "new bootcamp": synthesise(rng, "codecontests", args.levels, schemas)}
    ratios = []
    for label, fp in candidates.items():
        allowed = {n for n, e in entries.items() if e.family == fp.family}
        fast_s, fast = median_s(lambda fp=fp, allowed=allowed: index.duplicates(fp, allowed),
                                args.reps)
        print(f"{label}: indexed lookup {fast_s * 1e6:.0f} us (median of {args.reps}) "
              f"against {len(allowed)} records of its family", flush=True)
        scan_s, scan = median_s(lambda fp=fp, allowed=allowed: scan_duplicates(entries, fp, allowed),
                                args.naive_reps)
        assert summary(fast) == summary(scan)
        print(f"{label}: per-record scan (hash sets, no inverted index) {scan_s * 1e3:.1f} ms "
              f"(median of {args.naive_reps}); scan / indexed = {scan_s / fast_s:.0f}x", flush=True)
        slow_s, slow = median_s(lambda fp=fp, allowed=allowed: naive_duplicates(entries, fp, allowed),
                                args.naive_reps)
        assert summary(fast) == summary(slow), (summary(fast), summary(slow))
        ratios.append(slow_s / fast_s)
        print(f"{label}: naive all-pairs {slow_s * 1e3:.1f} ms (median of {args.naive_reps}); "
              f"same answer {summary(fast) or 'none'}; naive / indexed = {slow_s / fast_s:.0f}x")
    print(f"ratio naive / indexed: {', '.join(f'{r:.0f}x' for r in ratios)}")
    if args.sandbox != "none":
        draw_one(args.sandbox)
    print(f"total {time.perf_counter() - t_start:.1f} s")


if __name__ == "__main__":
    main()
