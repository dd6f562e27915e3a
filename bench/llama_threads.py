"""Benchmark the embedded server's threads beside a busy core: how fast it reads and writes.

    .venv/bin/python bench/llama_threads.py [--model local-smoke] [--configs 2:50,1:50]
                                            [--busy 0,1] [--max-tokens 32]

A config is ``THREADS:POLL`` (the server's ``--threads`` and ``--poll``, the share of a wait
its threads spend spinning). On 2 cores the server rarely has the machine to itself: the gate
runs sandboxed checks beside the model calls, and in the tests another worker runs. A thread
that spins on a core another process needs, or waits for a thread that lost its core, can cost
far more than the core. For each ``--busy`` count (processes spinning in pure Python beside
the server) and each config this starts the model on 127.0.0.1, reads one long prompt (about
1,500 tokens, from shipped bootcamps' cases) and writes exactly ``--max-tokens`` tokens
(``ignore_eos``), and prints the server's own timings: tokens per second read and written,
and each one's ratio to the first config at the same load. It prints a line per measurement.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import Ticker, setup  # noqa: E402

BOOTCAMPS = ("humaneval_36_fizz_buzz", "codecontests_16_f_bulbs_without_long_glows",
             "codecontests_06_c_divisors_loyal_to_their_digits", "game24")


def long_prompt(words: int = 1100) -> str:
    """Shipped bootcamps' rendered cases (trusted: shipped code) joined to about ``words`` words."""
    from synth.library import Library

    library = Library()
    parts: list[str] = []
    seed = 0
    while sum(len(p.split()) for p in parts) < words:
        cls = library.load_bootcamp(BOOTCAMPS[seed % len(BOOTCAMPS)])
        parts.append(cls.prompt_func(cls(seed=seed).case_generator()))
        seed += 1
    return "\n\n".join(parts) + "\n\nAnswer the last question only."


def _spin() -> None:
    while True:
        pass


def measure(model_key: str, threads: int, poll: int, text: str, max_tokens: int) -> dict[str, float]:
    from openai import OpenAI

    from synth.models.local import MODELS, LocalModelServer

    model = MODELS[model_key]
    with LocalModelServer(model, threads=threads, poll=poll) as server:
        client = OpenAI(base_url=server.base_url, api_key="none", max_retries=0, timeout=3600)
        client.chat.completions.create(model=model.alias, messages=[{"role": "user", "content": "hi"}],
                                       max_tokens=1)
        reply = client.chat.completions.create(
            model=model.alias, messages=[{"role": "user", "content": text}], max_tokens=max_tokens,
            temperature=0.7, extra_body={"ignore_eos": True, "cache_prompt": False})
    timings = (reply.model_extra or {}).get("timings") or {}
    return {"read": float(timings.get("prompt_per_second", 0.0)),
            "write": float(timings.get("predicted_per_second", 0.0)),
            "prompt_n": float(timings.get("prompt_n", 0)), "predicted_n": float(timings.get("predicted_n", 0))}


def main() -> int:
    setup()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="local-smoke", help="local (1.5B coder) or local-smoke (135M)")
    ap.add_argument("--configs", default="2:50,1:50", help="THREADS:POLL, the first is the baseline")
    ap.add_argument("--busy", default="0,1", help="busy processes beside the server, per round")
    ap.add_argument("--max-tokens", type=int, default=32)
    args = ap.parse_args()
    text = long_prompt()
    configs = [tuple(int(x) for x in c.split(":")) for c in args.configs.split(",")]
    print(f"model {args.model}; {len(text.split())} words read, {args.max_tokens} tokens written")
    print(f"{'busy':>4} {'threads':>7} {'poll':>4} {'read/s':>8} {'ratio':>6} {'write/s':>8} {'ratio':>6}")
    for busy in (int(b) for b in args.busy.split(",")):
        spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(busy)]
        for p in spinners:
            p.start()
        try:
            base: dict[str, float] | None = None
            for threads, poll in configs:
                t0 = time.perf_counter()
                with Ticker(functools.partial(str, f"{threads} threads, poll {poll}, {busy} busy"),
                            every_s=30):
                    row = measure(args.model, threads, poll, text, args.max_tokens)
                base = base or row
                print(f"{busy:>4} {threads:>7} {poll:>4} {row['read']:>8.1f} "
                      f"{row['read'] / max(base['read'], 1e-9):>6.2f} {row['write']:>8.1f} "
                      f"{row['write'] / max(base['write'], 1e-9):>6.2f}   "
                      f"({row['prompt_n']:.0f} read, {row['predicted_n']:.0f} written, "
                      f"{time.perf_counter() - t0:.1f} s)")
        finally:
            for p in spinners:
                p.terminate()
                p.join()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
