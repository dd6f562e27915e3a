"""Probes of a compiled bootcamp's ``check_output`` (issue 21, item 5).

A task with several valid outputs ("print any two different indices i, j with a_i + a_j = s")
has its answers judged by the model-written ``check_output``. The mutation check asks it, via
``verify_score`` and in one batch, about answers built from the reference program's output
that must be wrong -- an index reused, an index outside the input, another case's answer --
and fails a lenient one with ``check_output_lenient``. A correct checker of a task whose
statement allows the same index twice is not rejected. With an independent checker the
differential check judges compiled bootcamps too. One module-scoped gate run (in parallel)."""

from __future__ import annotations

from pathlib import Path

import pytest

from synth.gate import CheckConfig
from synth.gate.corpus import GateJob, run_parallel
from synth.gate.multi_answer import index_bound, probes
from synth.gate.report import CheckReport
from synth.sandbox.base import Backend

INPUTS = Path(__file__).resolve().parents[1] / "defects" / "inputs" / "corpus"
TICKET = (INPUTS / "ticket_pair.py").read_text(encoding="utf-8")
RANGE = "        if not (1 <= i <= len(a) and 1 <= j <= len(a)) or i == j:\n            return False\n"
SUM = '        return a[i - 1] + a[j - 1] == identity["s"]\n'
#: the statement of a variant that allows one item twice (and its correct check_output)
TWICE_TEXT = [("Choose two different items whose prices add up to s.",
               "Choose two items whose prices add up to s; the same item may be taken again."),
              ("Print two different indices i and j (1 ≤ i, j ≤ n, i ≠ j) with a_i + a_j = s.",
               "Print two indices i and j (1 ≤ i, j ≤ n) with a_i + a_j = s.")]
CHECKER = '''"""An independent checker of Ticket Pair, from the statement only."""


def check(identity, answer):
    t = answer.split()
    if len(t) != 2 or not all(x.isdigit() for x in t):
        return False
    i, j = int(t[0]), int(t[1])
    a = identity["a"]
    return 1 <= i <= len(a) and 1 <= j <= len(a) and i != j and a[i - 1] + a[j - 1] == identity["s"]
'''


def _variant(*pairs: tuple[str, str]) -> str:
    out = TICKET
    for old, new in pairs:
        assert out.count(old) == 1, old
        out = out.replace(old, new)
    return out


def _jobs() -> list[GateJob]:
    wrapped = ("        if i == j:\n            return False\n"
               '        return a[(i - 1) % len(a)] + a[(j - 1) % len(a)] == identity["s"]\n')
    return [
        GateJob("clean", TICKET),
        # i == j accepted (one item bought twice): the planted module of the input corpus
        GateJob("reuse", (INPUTS / "ticket_same_item_twice.py").read_text(encoding="utf-8")),
        # index 0 accepted (a[-1] in Python)
        GateJob("index_zero", (INPUTS / "ticket_index_zero.py").read_text(encoding="utf-8")),
        # positions read modulo n, no range check
        GateJob("wrapped", _variant((RANGE + SUM, wrapped))),
        # only the shape of the answer is checked: another case's answer passes
        GateJob("shape_only", _variant((SUM, "        return True\n"))),
        # a correct multi-answer checker where the statement allows i == j: never rejected
        GateJob("twice_allowed", _variant(
            *TWICE_TEXT, (" or i == j:\n            return False", ":\n            return False"))),
        # with the judge's independent checker: the differential check runs on compiled modules
        GateJob("reuse_checked", (INPUTS / "ticket_same_item_twice.py").read_text(),
                checker=CHECKER),
        GateJob("clean_checked", TICKET, checker=CHECKER),
    ]


@pytest.fixture(scope="module")
def reports(process_backend: Backend) -> dict[str, CheckReport]:
    out = {}
    # fixed seeds: the reuse witness exists on a few cases in a hundred, so whether a random
    # draw holds two of them varies (9 runs in 10 at random seeds, measured); this tests the
    # probe, on cases known to hold the witness
    config = CheckConfig(seed=20240611, main_hashseed=1, child_hashseed=2)
    for done in run_parallel(_jobs(), process_backend, workers=4, config=config):
        assert done.report is not None, done.error
        out[done.job.name] = done.report
    return out


@pytest.mark.parametrize(("name", "why"), [("reuse", "twice"), ("index_zero", "outside"),
                                           ("wrapped", "outside"), ("shape_only", "another case")])
def test_a_lenient_check_output_fails_with_the_case_and_the_probe(reports, name, why):
    report = reports[name]
    mutation = report.get("mutation")
    assert mutation is not None and mutation.status == "failed", report.feedback()
    assert mutation.finding == "check_output_lenient"
    arts = mutation.artifacts
    assert why in arts["why"], arts["why"]
    assert arts["probe"] and arts["stdin"].strip() and arts["case"] and arts["reference_answer"]
    assert arts["probe"].split() != arts["reference_answer"].split()
    assert not report.passed


@pytest.mark.parametrize("name", ["clean", "twice_allowed", "clean_checked"])
def test_a_correct_multi_answer_checker_is_not_rejected(reports, name):
    report = reports[name]
    assert report.passed, report.feedback()
    mutation = report.get("mutation")
    assert mutation is not None and mutation.status == "passed"


def test_the_differential_check_applies_to_compiled_bootcamps(reports):
    lenient = reports["reuse_checked"].get("differential")
    assert lenient is not None and lenient.status == "failed", reports["reuse_checked"].feedback()
    assert lenient.finding == "verifier_too_lenient"
    clean = reports["clean_checked"].get("differential")
    assert clean is not None and clean.status == "passed", reports["clean_checked"].feedback()


def test_probes_only_where_the_answer_must_be_wrong():
    stdin = "5 9\n2 7 3 6 1\n"
    assert index_bound(stdin) == 5
    got = probes("2 4", stdin, different=True, ordered=True)
    assert ("reuse", "2 2 ") not in got and ("reuse", "2 2") in got
    assert {p for k, p in got if k == "outside"} == {"0 4", "2 -1", "2 6", "2 9"}
    assert ("order", "4 2") in got
    # the statement allows repeats, or the reference's answer repeats: no reuse probe
    assert not [k for k, _ in probes("2 4", stdin, different=False, ordered=False)
                if k == "reuse"]
    assert not [k for k, _ in probes("3 3", stdin, different=True, ordered=False)
                if k == "reuse"]
    # values rather than positions (beyond 1..N): no outside probe; non-integers: nothing
    assert not [k for k, _ in probes("7 9", stdin, different=True, ordered=False)
                if k == "outside"]
    assert probes("YES", stdin, different=True, ordered=True) == []
