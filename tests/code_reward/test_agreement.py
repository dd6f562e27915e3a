"""The code reward agrees with a direct run of the suite on 500 responses.

The responses mix right programs (several styles), wrong ones (off by one, right on some tests
only, a wrong format, a crash, a non-zero exit after the right output), hostile ones (reading
secrets, calling the host's loopback, leaving a daemon, writing outside, flooding stderr,
sleeping forever, busy loops, fork bombs, memory hogs, flooding stdout), responses without a
program, and garbage, over five suites: two of the shipped CodeContests bootcamps (tokens), a
task with several valid outputs (check_output), a function task (value), and a two-test suite
for the slow hostile programs.

The direct run is this file's own loop, written without the reward's code: the program is
found by a regular expression; a stdin program runs on the suite's inputs the way the gate runs
a reference program (``synth.gate.programs.run_program``: a sandbox job per program, each input
a fresh fork of a warm interpreter, killed at 3 x the time limit + 2 s of wall time, the job
itself 1 s later; a run that timed out there, or every run of a job killed so, is run again as
a job of its own, which kills what the program left behind when it exits, as the reward does,
under RLIMIT_CPU of the time limit), a function program in a
sandbox job of its own per test (a caller script imports it and calls the entry point); a test
passes when its run exited 0, its output is within the cap and the judge accepts it (same
tokens; the bootcamp's own verify_score, loaded in this process, on the tests that have an
identity; the values equal by the contract's rule). The reward must give the same
score, all-or-nothing and fraction, on every response; no process of either is left, nothing
reached the host's loopback listener, and no file appeared outside the sandbox.
"""

from __future__ import annotations

import random
import secrets
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from code_rows import (
    build_suite,
    canonical_json,
    code_row,
    fenced,
    reference_passes,
    reference_program,
)
from helpers import Listener, assert_no_leftovers

from synth.library import Library
from synth.sandbox import get_backend
from synth.training.reward import make_compute_score

LOYAL = "codecontests_06_c_divisors_loyal_to_their_digits"
BULBS = "codecontests_16_f_bulbs_without_long_glows"
RESPONSES = 500
pytestmark = [pytest.mark.timeout(900), pytest.mark.slow]

# -- programs ---------------------------------------------------------------------------------

RIGHT = {
    LOYAL: [
        "n = int(input())\nc = 0\nd = 1\nwhile d * d <= n:\n    if n % d == 0:\n"
        "        for x in {d, n // d}:\n            c += x % sum(map(int, str(x))) == 0\n"
        "    d += 1\nprint(c)\n",
        "import sys\n\ndef loyal(x):\n    return x % sum(int(ch) for ch in str(x)) == 0\n\n"
        "def main():\n    n = int(sys.stdin.read())\n    found = set()\n    i = 1\n"
        "    while i * i <= n:\n        if n % i == 0:\n            found.update((i, n // i))\n"
        "        i += 1\n    sys.stdout.write(f'{sum(map(loyal, found))}\\n')\n\nmain()\n",
    ],
    BULBS: [
        "MOD = 10**9 + 7\nn, k = map(int, input().split())\n"
        "def mul(a, b):\n    return [[sum(a[i][t] * b[t][j] for t in range(k)) % MOD "
        "for j in range(k)] for i in range(k)]\n"
        "m = [[1 if j == 0 or j == i + 1 else 0 for j in range(k)] for i in range(k)]\n"
        "r = [[int(i == j) for j in range(k)] for i in range(k)]\n"
        "while n:\n    if n & 1:\n        r = mul(r, m)\n    m = mul(m, m)\n    n >>= 1\n"
        "print(sum(r[0]) % MOD)\n",
        "import sys\nMOD = 10**9 + 7\ndata = sys.stdin.buffer.read().split()\n"
        "n, k = int(data[0]), int(data[1])\n"
        "dp = [1] + [0] * (k - 1)\nfor _ in range(n):\n"
        "    dp = [sum(dp) % MOD] + dp[:-1]\nprint(sum(dp) % MOD)\n",
    ],
    "toy_two_summands": [
        "n = int(input())\nprint(1, n - 1)\n",
        "n = int(input())\nprint(n // 2, n - n // 2)\n",
        "import sys\nn = int(sys.stdin.readline())\nsys.stdout.write(f'{n - 1}\\n1\\n')\n",
    ],
    "toy_min_max": [
        "def min_max(xs):\n    return (min(xs), max(xs))\n",
        "def min_max(xs):\n    lo = hi = xs[0]\n    for x in xs:\n        lo, hi = min(lo, x), "
        "max(hi, x)\n    return [lo, hi]\n\nif __name__ == '__main__':\n    print(min_max([2]))\n",
    ],
}
WRONG = {
    LOYAL: [
        RIGHT[LOYAL][0].replace("d * d <= n", "d * d < n"),  # misses the square root
        RIGHT[LOYAL][0].replace("print(c)", "print(c + (n > 20))"),  # right on small n only
        RIGHT[LOYAL][0].replace("print(c)", "print(f'{c}.0')"),  # the wrong format
        RIGHT[LOYAL][0].replace("print(c)", "print(c)\nraise SystemExit(2)"),  # non-zero exit
        "n = int(input())\nprint(1 // (n % 7))\n",  # crashes on some inputs
    ],
    BULBS: [
        RIGHT[BULBS][1].replace("sum(dp) % MOD)", "sum(dp))"),  # no modulus (large n only)
        RIGHT[BULBS][1].replace("[sum(dp) % MOD] + dp[:-1]", "[sum(dp) % MOD] + dp[:-2] + [0]"),
        "n, k = map(int, input().split())\nprint(2 ** n % (10**9 + 7) if k > 1 else 1)\n",
    ],
    "toy_two_summands": [
        "n = int(input())\nprint(0, n)\n",
        "n = int(input())\nprint(n // 2, n // 2)\n",  # right for even n only
        "n = int(input())\nprint(1, n - 1, 0)\n",
    ],
    "toy_min_max": [
        "def min_max(xs):\n    return (max(xs), min(xs))\n",
        "def min_max(xs):\n    return (min(xs), max(xs[1:] or xs) if len(xs) > 3 else max(xs))\n",
        "def min_max(xs):\n    return (float(min(xs)), max(xs))\n",
        "def minmax(xs):\n    return (min(xs), max(xs))\n",
        "def min_max(xs):\n    return {min(xs), max(xs)}\n",
    ],
}
#: attacks that stay contained, then the right program runs: the tests pass in both runs
ATTACKS = {
    "read_secrets": (
        "import os\nfor _p in ('/etc/shadow', {secret!r}):\n    try:\n"
        "        print('LEAK', open(_p).read())\n    except OSError:\n        pass\n"
        "if os.environ.get('OPENAI_API_KEY'):\n    print('LEAK', os.environ['OPENAI_API_KEY'])\n"),
    "loopback": (
        "import socket\ntry:\n    _s = socket.create_connection(('127.0.0.1', {port}), timeout=0.5)\n"
        "    _s.sendall(b'LEAK {marker}')\n    print('LEAK connected')\nexcept OSError:\n    pass\n"),
    "daemon": (
        "import os, sys\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        "        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(30)', "
        "{marker!r}])\n    os._exit(0)\nos.wait()\n"),
    "write_outside": (
        "for _p in ({outside!r}, {repo_file!r}):\n    try:\n        open(_p, 'a').write('LEAK')\n"
        "    except OSError:\n        pass\n"),
    "stderr_flood": "import sys\nsys.stderr.write('e' * 3_000_000)\n",
    "parent_memory": (
        "import os\ntry:\n    print('LEAK', open(f'/proc/{{os.getppid()}}/mem', 'rb').read(8))\n"
        "except (OSError, ValueError):\n    pass\n"),
}
#: programs that fail every test in both runs, quickly
FAILING = {
    "memory_hog": "hoard = []\nwhile True:\n    hoard.append(bytearray(10_000_000))\n",
    # 64 MB/s, without end: past every cap in a tenth of a second (the reward kills it there),
    # while the direct loop's first job lets it run to the wall limit, where a full-speed
    # flood burnt seconds of CPU per suite; the full-speed flood is test_containment's
    # big_stdout, on every backend
    "stdout_flood": "import sys, time\nwhile True:\n    sys.stdout.write('9' * 65536)\n"
                    "    sys.stdout.flush()\n    time.sleep(0.001)\n",
    "syntax_error": "def main(:\n    pass\n",
    "exits_early": "raise SystemExit(0)\n",
}
#: programs that fail by running out of time (only on the two-test suite: each costs 1 s a run)
SLOW = {
    "sleep_forever": "import time\ntime.sleep(3600)\n",
    "busy_loop": "while True:\n    pass\n",
    "fork_bomb": "import os, time\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n"
                 "        pass\n    time.sleep(0.02)\n",
}


def _garbage(rng: random.Random) -> str:
    kinds = [
        lambda: "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 400))),
        lambda: "`" * rng.randrange(1, 5000),
        lambda: "```python\n" * rng.randrange(1, 50),
        lambda: "```\n" + "x" * rng.randrange(0, 100) + "\n``",
        lambda: "```python\nprint(1)\n```"[: rng.randrange(1, 24)],
        lambda: "\x00" * rng.randrange(1, 50) + "```python\n\x00\n```",
        lambda: "```python\nprint('\\ud800')\n```" if rng.random() < 0.5 else "```python\n\ud800\n```",
        lambda: "<answer>42</answer>",
        lambda: "```python\n" + "(" * 300 + ")" * 300 + "\n```",
        lambda: "```python\n" + "x = 1\n" * rng.randrange(1, 2000) + "```",
        lambda: "```python\n~~~\nprint(1)\n```",
        lambda: "   ```python\n\tprint(1)\n   ```",
    ]
    return rng.choice(kinds)()


def _no_code(rng: random.Random) -> str:
    return rng.choice([
        "I cannot solve this.", "", "The answer is 8.", "Use a sieve.\n\n```\n```",
        "```cpp\nint main() { return 0; }\n```", "Here:\n```python\nprint(1)\n",
        "```text\nprint(1)\n```", "``python\nprint(1)\n``",
    ])


def _wrap(rng: random.Random, program: str, other: str) -> str:
    """The program as a response, in one of several shapes (the last block is the program)."""
    return rng.choice([
        lambda: fenced(program),
        lambda: f"```py\n{program}```",
        lambda: f"First try:\n```python\n{other}```\nBetter:\n```python\n{program}```\nDone.",
        lambda: ("```python\n" + program + "```").replace("\n", "\r\n"),
        lambda: f"````python\n{program}````\n",
        lambda: f"Explanation with `inline` code.\n```Python3 solution.py\n{program}```\n```text\n42\n```",
    ])()


# -- the test -----------------------------------------------------------------------------------


def test_the_reward_agrees_with_a_direct_run_of_the_suite(code_library: Library,
                                                           tmp_path: Path, monkeypatch) -> None:
    t0 = time.monotonic()
    rng = random.Random(25)
    marker = f"synthcodeagree{secrets.token_hex(4)}"
    canary = f"sk-canary-{secrets.token_hex(8)}"
    monkeypatch.setenv("OPENAI_API_KEY", canary)
    secret = tmp_path / "secret.txt"
    secret.write_text(canary)
    secret.chmod(0o600)
    outside = Path(f"/tmp/{marker}-outside")
    repo_file = Path(__file__).resolve().parents[2] / "synth" / f"{marker}.py"
    listener = Listener()
    suites = {
        LOYAL: build_suite(code_library, LOYAL, {"easy": 2, "hard": 2}, examples=[("24\n", "8")]),
        BULBS: build_suite(code_library, BULBS, {"easy": 2, "hard": 2}, examples=[("3 2\n", "5")]),
        "toy_two_summands": build_suite(code_library, "toy_two_summands", {"easy": 2, "hard": 3},
                                        examples=[("5\n", "1 4")]),
        "toy_min_max": build_suite(code_library, "toy_min_max", {"easy": 2, "hard": 3}),
        "slow": build_suite(code_library, BULBS, {"easy": 2}, time_limit_s=0.5),
    }
    attacks = {name: text.format(secret=str(secret), port=listener.port, marker=marker,
                                 outside=str(outside), repo_file=str(repo_file))
               for name, text in ATTACKS.items()}
    responses: list[tuple[str, str, str]] = []  # (suite key, category, response)
    for program in SLOW.values():  # each slow program once, on the two-test suite
        responses.append(("slow", "hostile", _wrap(rng, program, RIGHT[BULBS][0])))
    keys = [LOYAL, BULBS, "toy_two_summands", "toy_min_max"]
    while len(responses) < RESPONSES:
        key = rng.choice(keys)
        right, wrong = rng.choice(RIGHT[key]), rng.choice(WRONG[key])
        roll = rng.random()
        if roll < 0.3:
            responses.append((key, "right", _wrap(rng, right, wrong)))
        elif roll < 0.55:
            responses.append((key, "wrong", _wrap(rng, wrong, right)))
        elif roll < 0.72:
            attack = rng.choice(list(attacks.values()))
            responses.append((key, "hostile", _wrap(rng, attack + right, wrong)))
        elif roll < 0.8:
            responses.append((key, "hostile", _wrap(rng, rng.choice(list(FAILING.values())), right)))
        elif roll < 0.9:
            responses.append((key, "no code", _no_code(rng)))
        else:
            responses.append((key, "garbage", _garbage(rng)))
    counts = Counter(category for _, category, _ in responses)
    assert len(responses) == RESPONSES and min(counts.values()) >= 40, counts

    backend = get_backend("process")
    oracles: dict[str, Any] = {}

    def oracle(name: str) -> Any:
        if name not in oracles:
            oracles[name] = code_library.load_bootcamp(name)
        return oracles[name]

    for name in ("toy_two_summands",):
        oracle(name)
    # the direct run, once per distinct (suite, program)
    todo = {(key, program) for key, _, text in responses
            if (program := reference_program(text)) is not None}
    # six at a time: most of the direct run's time is the hostile programs' walls (a daemon, a
    # sleep, a flood each wait out their limit, idle), not CPU
    with ThreadPoolExecutor(6) as ex:
        verdicts = dict(zip(todo, ex.map(
            lambda item: reference_passes(backend, oracle, suites[item[0]], item[1]), todo),
            strict=True))
    t_reference = time.monotonic() - t0

    label = f"synth-code-agree-{secrets.token_hex(4)}"
    score = make_compute_score(code_library.root, backend="process", runners=4)
    score._code_reward().label = label
    rows = {key: code_row(suite) for key, suite in suites.items()}

    def reward(item: tuple[str, str, str], fraction: bool) -> float:
        row = rows[item[0]]
        return score(row["data_source"], item[2], row["reward_model"]["ground_truth"],
                     row["extra_info"], fraction=fraction)

    try:
        with ThreadPoolExecutor(8) as ex:
            all_or_nothing = list(ex.map(lambda r: reward(r, False), responses))
            fractions = list(ex.map(lambda r: reward(r, True), responses))
    finally:
        score.close()
        listener.close()
    t_reward = time.monotonic() - t0 - t_reference

    mismatches = []
    passed = Counter()
    for i, (key, category, text) in enumerate(responses):
        program = reference_program(text)
        tests = verdicts[(key, program)] if program is not None else []
        want_all = float(bool(tests) and all(tests))
        want_fraction = sum(tests) / len(tests) if tests else 0.0
        if program is None:
            want_fraction = 0.0
        if (all_or_nothing[i], fractions[i]) != (want_all, want_fraction):
            mismatches.append((i, key, category, all_or_nothing[i], want_all, fractions[i],
                               want_fraction, text[:300]))
        passed[category] += want_all == 1.0
    print(f"\n{RESPONSES} responses {dict(counts)}; passing: {dict(passed)}; direct run "
          f"{t_reference:.1f} s, reward (both modes) {t_reward:.1f} s")
    assert mismatches == [], mismatches[:5]
    # the mix is what it says: right programs pass, wrong ones fail, and some score in between
    assert passed["right"] == counts["right"] and passed["wrong"] < counts["wrong"] // 4
    assert passed["no code"] == 0 and passed["garbage"] == 0
    assert 0 < passed["hostile"] < counts["hostile"]  # contained attacks still pass
    assert any(0 < f < 1 for f in fractions)
    # nothing escaped
    assert listener.received == [], listener.received
    assert not outside.exists() and not repo_file.exists()
    assert_no_leftovers(marker)
    assert_no_leftovers(label)
    assert not any(canonical_json(s).count(marker) for s in suites.values())
