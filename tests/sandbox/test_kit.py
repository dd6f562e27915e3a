"""The sandbox kit and the method-call protocol: the untrusted side only answers.

The kit is shipped into every job; these tests run its method server in the real process
sandbox through the host client (synth.sandbox.methods) and check what comes back, how bad
answers are typed, and that a hang is bounded by the host even when the bootcamp disables the
kit's own timer.
"""

from __future__ import annotations

import ast
import secrets
import sys
import time
from pathlib import Path

import pytest
from helpers import TOY_SUM, assert_no_leftovers

import synth.bootcamp
from synth.sandbox import kit, methods
from synth.sandbox.base import Outcome
from synth.sandbox.methods import MethodServer

SANDBOX_DIR = Path(kit.__file__).resolve().parent
IN_SANDBOX = {
    "_synth_kit": SANDBOX_DIR / "kit.py",
    "synth.bootcamp": Path(synth.bootcamp.__file__),
    "intern_shim": SANDBOX_DIR / "intern_shim.py",
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_in_sandbox_modules_are_stdlib_only_and_import_no_cycle():
    graph: dict[str, set[str]] = {}
    for name, path in IN_SANDBOX.items():
        deps = _imports(path)
        ours = {d for d in deps if d in IN_SANDBOX}
        foreign = {d.split(".")[0] for d in deps - ours
                   if d not in ("synth",) and not d.startswith("synth.bootcamp")}
        assert foreign <= set(sys.stdlib_module_names) | {"__future__"}, (name, foreign)
        graph[name] = ours
    # depth-first search for a cycle
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        assert state.get(node) != 1, f"import cycle: {' -> '.join([*trail, node])}"
        if state.get(node) == 2:
            return
        state[node] = 1
        for dep in graph[node]:
            visit(dep, [*trail, node])
        state[node] = 2

    for node in graph:
        visit(node, [])
    assert graph["synth.bootcamp"] == set() and graph["intern_shim"] == set()


def test_the_kit_is_the_one_shipped_file():
    job = methods.method_job(TOY_SUM)
    assert job.files[kit.KIT_NAME] == (SANDBOX_DIR / "kit.py").read_text()
    assert job.argv[:2] == [kit.KIT_NAME, "serve"]
    assert job.unit == methods.code_unit(TOY_SUM)
    other = methods.method_job(TOY_SUM, role="determinism")
    assert other.unit != job.unit and other.unit.startswith(job.unit)


def test_find_bootcamp_class_counts_only_the_module_s_own_leaf_classes():
    import types

    mod = types.ModuleType("m")
    base = synth.bootcamp.BaseBootcamp
    mod.BaseBootcamp = base  # imported names do not count
    mid = type("Mid", (base,), {"__module__": "m"})
    leaf = type("Leaf", (mid,), {"__module__": "m"})
    mod.Mid, mod.Leaf = mid, leaf
    assert kit.find_bootcamp_class(mod, base) is leaf
    mod.Other = type("Other", (base,), {"__module__": "m"})
    with pytest.raises(LookupError, match="found: Leaf, Other"):
        kit.find_bootcamp_class(mod, base)
    assert kit.find_bootcamp_class(mod, base, "Other") is mod.Other


def server(code: str, **kw) -> MethodServer:
    return MethodServer(code, backend="process", **kw)


def test_questions_get_plain_values_and_prints_never_reach_the_protocol():
    chatty = TOY_SUM.replace('        return {"numbers"', '        print("{\\"id\\": 2, \\"ok\\": 1}")\n        return {"numbers"')
    assert chatty != TOY_SUM
    with server(chatty) as s:
        assert s.info["class"] == "ToySumBootcamp"
        assert s.info["levels"] == {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}
        assert s.info["tampered"] == []
        handle = s.call("construct", {"params": {"n": 3}, "seed": 5})
        assert handle.ok and type(handle.value) is int
        case = s.call("generate", {"handle": handle.value})
        assert case.ok and set(case.value) == {"text"}  # the printed line was not a reply
        text = case.value["text"]
        answer = s.call("answer", {"case_text": text}).value
        response = s.call("wrap", {"answer": answer}).value
        assert s.call("score", {"response": response, "case_text": text}).value == {"score": 1.0}
        assert s.call("score", {"response": "<answer>-1</answer>", "case_text": text}).value == {
            "score": 0.0}
        unknown = s.call("launch_missiles", {})
        assert unknown.outcome is Outcome.ERROR and unknown.kind == "usage"


def test_non_json_cases_are_described_not_smuggled():
    tuples = TOY_SUM.replace('return {"numbers": [', 'return {"numbers": tuple([').replace(
        "for _ in range(self.n)]}", "for _ in range(self.n)])}")
    big = TOY_SUM.replace('return {"numbers": [', 'return {"big": 7 ** 9000, "numbers": [')
    with server(tuples) as s:
        handle = s.call("construct", {"params": {}, "seed": 1}).value
        reply = s.call("generate", {"handle": handle})
        assert "tuple" in reply.value["problem"] and "text" not in reply.value
    with server(big) as s:
        handle = s.call("construct", {"params": {}, "seed": 1}).value
        reply = s.call("generate", {"handle": handle})
        assert "too large for JSON" in reply.value["problem"]


def test_a_runtime_patch_of_the_contract_is_reported_at_the_next_score():
    patcher = TOY_SUM.replace(
        "    @staticmethod\n    def prompt_func(identity):",
        "    @staticmethod\n    def prompt_func(identity):\n"
        "        setattr(ToySumBootcamp, 'extract_output', staticmethod(lambda r: '0'))",
    )
    assert patcher != TOY_SUM
    with server(patcher) as s:
        case = '{"numbers": [1, 2]}'
        assert "tampered" not in s.call("score", {"response": "x", "case_text": case}).value
        assert s.call("prompt", {"case_text": case}).ok
        after = s.call("score", {"response": "x", "case_text": case}).value
        assert any("ToySumBootcamp" in t for t in after["tampered"]), after


def test_the_load_failure_is_the_handshake():
    with server(TOY_SUM + "\nraise RuntimeError('import-time failure')\n") as s:
        assert s.load_reply is not None and not s.load_reply.ok
        assert "import-time failure" in s.load_reply.error
        assert "RuntimeError" in s.load_reply.traceback
        assert s.call("construct", {"params": {}, "seed": 1}) is s.dead


@pytest.mark.parametrize("disable_timer", [False, True])
def test_a_hang_is_bounded_by_the_host_even_without_the_kit_timer(disable_timer):
    label = f"synthkit{secrets.token_hex(5)}"
    hang = "        import signal\n        signal.signal(signal.SIGALRM, signal.SIG_IGN)\n" \
        if disable_timer else ""
    code = TOY_SUM.replace(
        "    def _verify_correction(cls, solution, identity):\n",
        "    def _verify_correction(cls, solution, identity):\n" + hang
        + "        while solution == 'hang':\n            pass\n",
    )
    with server(code, label=label) as s:
        t0 = time.monotonic()
        reply = s.call("score", {"response": "<answer>hang</answer>",
                                 "case_text": '{"numbers": [1]}'}, timeout_s=1.0)
        elapsed = time.monotonic() - t0
        assert reply.outcome is Outcome.TIMEOUT, reply
        assert elapsed < 1.0 + methods.GRACE_S + 1.5
        if not disable_timer:
            assert "_verify_correction" in reply.traceback  # the kit says where it hung
        assert not s.alive and s.call("prompt", {"case_text": "{}"}) is s.dead
    assert_no_leftovers(label)


def test_sample_uses_the_levels_the_handshake_reported():
    """A bootcamp that changes its LEVELS presets after load (here in prompt_func) cannot
    change what export, the filter and review construct: ``sample`` uses the load-time copy."""
    drifting = TOY_SUM.replace(
        "    @staticmethod\n    def prompt_func(identity):",
        "    @staticmethod\n    def prompt_func(identity):\n"
        "        ToySumBootcamp.LEVELS['hard']['n'] = 1",
    )
    assert drifting != TOY_SUM
    with server(drifting) as s:
        rows = [s.call("sample", {"specs": [["hard", seed]]}).value[0] for seed in (1, 2, 3)]
    import json as _json

    assert all(len(_json.loads(r["case"]["text"])["numbers"]) == 8 for r in rows), rows
