"""Run the fake OpenAI server as its own process (for CLI tests that kill and resume runs).

    python tests/fakes/serve.py SCENARIO PORT_FILE [--fault-rate 0.3] [--seed 1] [--delay 0]
                                [--cache openai|llamacpp|none]

Writes the base URL into PORT_FILE once listening; serves until killed.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fakes.openai_server import FakeOpenAI
from fakes.scenarios import build


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("port_file", type=Path)
    ap.add_argument("--fault-rate", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--cache", choices=["openai", "llamacpp", "none"], default="openai")
    args = ap.parse_args()
    script = build(args.scenario, fault_rate=args.fault_rate, seed=args.seed, delay_s=args.delay)
    with FakeOpenAI(script, cache=args.cache) as server:
        tmp = args.port_file.with_suffix(".tmp")
        tmp.write_text(server.base_url)
        tmp.replace(args.port_file)
        threading.Event().wait()


if __name__ == "__main__":
    main()
