"""Benchmark the embedded server's slots for solver traffic: one slot against several.

    .venv/bin/python bench/slots.py [--slots 1,4] [--requests 8] [--max-tokens 192]

The filter and ``--calibrate`` send the solver many independent answers to short prompts (a
bootcamp's rendered cases). With one slot (the coder's setting: its long cached prefix) they
queue; llama.cpp can instead decode several sequences in one batch. For each slot count this
starts the embedded code model (llama.cpp's server, 127.0.0.1) with that many slots, sends the same
``--requests`` prompts (cases of shipped bootcamps, as the solver sees them) with
``--requests`` in flight, and prints, side by side, the wall time, the tokens written, the
tokens per second in all and the ratio to the first slot count. Each run asks for exactly
``--max-tokens`` tokens (``ignore_eos``), so the work is the same whatever the model writes.
Run it on an otherwise idle machine: the server uses both cores.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import setup  # noqa: E402

BOOTCAMPS = ("humaneval_36_fizz_buzz", "codecontests_16_f_bulbs_without_long_glows",
             "codecontests_06_c_divisors_loyal_to_their_digits", "game24")


def prompts(n: int) -> list[str]:
    """``n`` rendered cases of shipped bootcamps, in turn (their own code, trusted: shipped)."""
    from synth.library import Library

    library = Library()
    out: list[str] = []
    classes = [library.load_bootcamp(name) for name in BOOTCAMPS]
    for k in range(n):
        cls = classes[k % len(classes)]
        camp = cls(seed=k)
        out.append(cls.prompt_func(camp.case_generator()))
    return out


def measure(slots: int, texts: list[str], max_tokens: int) -> dict[str, float]:
    from openai import OpenAI

    from synth.models.local import QWEN_CODER, LocalModelServer

    with LocalModelServer(QWEN_CODER, parallel=slots) as server:
        client = OpenAI(base_url=server.base_url, api_key="none", max_retries=0, timeout=3600)

        def ask(text: str) -> int:
            reply = client.chat.completions.create(
                model=QWEN_CODER.alias, messages=[{"role": "user", "content": text}],
                max_tokens=max_tokens, temperature=0.7, extra_body={"ignore_eos": True})
            return reply.usage.completion_tokens if reply.usage else 0

        ask("Say hi.")  # the model is read and the first batch is set up before the clock runs
        start = time.perf_counter()
        with ThreadPoolExecutor(len(texts)) as pool:
            written = sum(pool.map(ask, texts))
        wall = time.perf_counter() - start
    return {"slots": slots, "wall_s": wall, "tokens": written, "tokens_per_s": written / wall}


def main() -> int:
    setup()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--slots", default="1,4", help="slot counts to compare (the first is the baseline)")
    ap.add_argument("--requests", type=int, default=8, help="solver prompts, all in flight at once")
    ap.add_argument("--max-tokens", type=int, default=192, help="tokens written per answer")
    args = ap.parse_args()
    texts = prompts(args.requests)
    rows = [measure(int(s), texts, args.max_tokens) for s in args.slots.split(",")]
    base = rows[0]["tokens_per_s"]
    print(f"{args.requests} solver prompts in flight, {args.max_tokens} tokens each, "
          "Qwen2.5-Coder-1.5B Q4 on llama.cpp's server")
    print(f"{'slots':>5} {'wall s':>8} {'tokens':>7} {'tokens/s':>9} {'ratio':>6}")
    for r in rows:
        print(f"{r['slots']:>5} {r['wall_s']:>8.1f} {r['tokens']:>7.0f} {r['tokens_per_s']:>9.1f} "
              f"{r['tokens_per_s'] / base:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
