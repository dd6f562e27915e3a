"""The gate against bootcamps that attack the host itself (tests/defects/host/): huge
observations, states of many small objects and huge single-turn answers are stopped by the total
the host keeps from one candidate (``reply_budget``, naming the call and the totals) with the host's peak
memory bounded; a lone surrogate in an observation is ``unencodable_text``. The gate finishes
and reports; it never crashes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ALL_BACKENDS, require_backend

from synth.gate import MULTI_TURN_CHECK_NAMES, CheckConfig, CheckStatus, run_checks, run_checks_file
from synth.sandbox import get_backend

HOST = Path(__file__).resolve().parents[1] / "defects" / "host"
REPO = Path(__file__).resolve().parents[2]
#: the host's peak memory (RUSAGE_SELF, MB): a normal gate run takes ~40-50 MB; the huge
#: observations took 2.3 GB before the total cap
PEAK_MB = 300

#: gate a file in a fresh interpreter; print its checks and the interpreter's peak memory:
#: VmHWM, the high-water mark of this image's own memory (ru_maxrss would keep the parent's
#: resident size across fork and exec: 712 MB when pytest had loaded torch before)
MEASURE = """
import json, sys
from pathlib import Path
from synth.gate import run_checks_file
report = run_checks_file(Path(sys.argv[1]), backend="process")
with open("/proc/self/status", encoding="ascii") as status:
    hwm = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(json.dumps({"report": report.model_dump(mode="json"), "peak_mb": hwm / 1024}))
"""


@pytest.fixture(scope="module")
def backend():  # type: ignore[no-untyped-def]
    return get_backend("process")


@pytest.mark.parametrize(("name", "check", "method"), [
    ("huge_observations.py", "reference_policy", "step"),
    ("small_objects_state.py", "reference_policy", "step"),
    ("huge_answers.py", "diversity", "answer"),  # a single-turn bootcamp: the same total
])
def test_a_candidate_past_the_total_is_a_finding_and_the_host_stays_small(name: str, check: str,
                                                                          method: str):
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-c", MEASURE, str(HOST / name)], cwd=REPO,
                          capture_output=True, text=True, timeout=600)
    elapsed = time.monotonic() - t0
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.splitlines()[-1])
    checks = {c["name"]: c for c in out["report"]["checks"]}
    over = checks[check]
    assert over["status"] == "failed" and over["finding"] == "reply_budget", over
    reason = over["reason"]
    # which call, how much: the reply's number, its method, its size and the total
    assert "reply " in reason and f"(to {method}:" in reason and "bytes" in reason, reason
    assert "64.0 MB of replies the host keeps" in reason
    assert f"{method}:" in over["artifacts"]["replies"]  # replies and weight per method
    if method == "step":
        assert list(checks) == list(MULTI_TURN_CHECK_NAMES)
        assert over["artifacts"]["action"] and over["artifacts"]["state"]
    later = [n for n in checks if list(checks).index(n) > list(checks).index(check)
             and n not in ("levels", "timing", "contract")]
    assert later
    for n in later:
        assert checks[n]["status"] == "skipped"
        assert checks[n]["reason"].startswith("not applicable") or \
            "the host keeps from one candidate" in checks[n]["reason"], checks[n]
    assert out["report"]["passed"] is False
    assert out["peak_mb"] < PEAK_MB, out["peak_mb"]
    assert elapsed < 120


@pytest.mark.parametrize("backend_name", ALL_BACKENDS)
def test_a_smaller_total_stops_it_sooner(backend_name: str):
    cfg = CheckConfig(reply_budget_mb=8)
    report = run_checks_file(HOST / "huge_observations.py", backend=require_backend(backend_name),
                             config=cfg)
    over = report.get("reference_policy")
    assert over is not None and over.finding == "reply_budget"
    assert "8.0 MB of replies" in over.reason


SURROGATE = (HOST / "surrogate_observation.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(("where", "code", "check"), [
    ("from the third step", SURROGATE, "reference_policy"),
    ("in the first observation", SURROGATE.replace(
        '"I have chosen a secret number."', '"I have chosen a secret number." + chr(0xD800)'),
     "observation"),
    ("in the state", SURROGATE.replace('new = dict(state, turns=state["turns"] + 1)',
                                       'new = dict(state, turns=state["turns"] + 1, mark="\\udfff")'),
     "reference_policy"),
])
def test_a_lone_surrogate_in_an_episode_is_refused(where: str, code: str, check: str, backend):
    assert code != SURROGATE or where == "from the third step"
    report = run_checks(code, backend=backend)
    report.model_dump_json().encode("utf-8")
    result = report.get(check)
    assert result is not None and result.status is CheckStatus.FAILED, report.feedback()
    assert result.finding == "unencodable_text"
    assert "UTF-8" in result.reason and "U+D" in result.reason
    assert report.decisive is result and not report.passed


def test_a_step_whose_returned_state_is_too_large_is_a_finding_not_a_crash(backend):
    """The evidence of what step returned no longer collides with the step's own artifacts."""
    code = SURROGATE.replace("        if new[\"turns\"] >= 3:\n            note += chr(0xDC80)\n",
                             "        if new[\"turns\"] >= 2:\n"
                             "            new[\"junk\"] = \"x\" * 300_000\n")
    assert code != SURROGATE
    report = run_checks(code, backend=backend)
    result = report.get("reference_policy")
    assert result is not None and result.status is CheckStatus.FAILED
    assert result.finding == "malformed_step" and "at most 200000" in result.reason
    assert result.artifacts["state"] and result.artifacts["returned_state"]
