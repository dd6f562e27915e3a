"""The sandbox kit and the method-call protocol: the untrusted side only answers.

The kit (the package ``synth.sandbox.kit``, every file of it) is shipped into every job; these tests run its method server in the real process
sandbox through the host client (synth.sandbox.methods) and check what comes back, how bad
answers are typed, and that a hang is bounded by the host even when the bootcamp disables the
kit's own timer.
"""

from __future__ import annotations

import ast
import builtins
import dis
import json
import secrets
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from helpers import TOY_SUM, assert_no_leftovers

import synth.bootcamp
from synth.compiled import assemble
from synth.sandbox import kit, methods
from synth.sandbox.base import Outcome
from synth.sandbox.kit import server as kit_server
from synth.sandbox.kit import setup as kit_setup
from synth.sandbox.methods import MethodServer

KIT_DIR = Path(kit.__file__).resolve().parent
SANDBOX_DIR = KIT_DIR.parent
KIT_FILES = sorted(KIT_DIR.glob("*.py"))
#: the contract's modules: synth.bootcamp and the modules of synth it imports
CONTRACT = {m.__name__: Path(m.__file__) for m in kit.contract_modules(synth.bootcamp)}
IN_SANDBOX = {
    **{f"{kit.KIT_PACKAGE}.{path.stem}": path for path in KIT_FILES},
    **CONTRACT,
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
                   if d != "synth" and d.rpartition(".")[0] not in CONTRACT}
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
    assert graph["intern_shim"] == set()
    assert all(graph[name] <= set(CONTRACT) for name in CONTRACT)  # the contract imports no kit


def _contract_imports(name: str) -> set[str]:
    """The modules of synth that module ``name`` imports, read with ast, and theirs."""
    root = Path(synth.bootcamp.__file__).parents[1]
    found, todo = set(), [name]
    while todo:
        for dep in _imports(root / (todo.pop().replace(".", "/") + ".py")):
            if dep.startswith("synth.") and dep not in found and \
                    (root / (dep.replace(".", "/") + ".py")).is_file():
                found.add(dep)
                todo.append(dep)
    return found


def test_every_module_of_the_contract_is_shipped_and_snapshotted():
    """What the contract imports of synth (read with ast) is what the kit treats as the contract
    (snapshots, lets run the embedded program) and what every job ships."""
    assert set(CONTRACT) == {"synth.bootcamp"} | _contract_imports("synth.bootcamp")
    shipped = {path for path in methods.contract_files() if path.startswith("synth/")}
    assert shipped == {"synth/__init__.py", "synth/engines.py",
                       *(name.replace(".", "/") + ".py" for name in CONTRACT)}
    for name, path in CONTRACT.items():
        assert methods.contract_files()[name.replace(".", "/") + ".py"] == path.read_text()


def test_the_kit_is_shipped_as_its_folder_and_a_launcher():
    job = methods.method_job(TOY_SUM)
    shipped = {name: text for name, text in job.files.items()
               if name == kit.KIT_NAME or name.startswith(kit.KIT_PACKAGE + "/")}
    assert shipped == {kit.KIT_NAME: kit.LAUNCHER,
                       **{f"{kit.KIT_PACKAGE}/{p.name}": p.read_text() for p in KIT_FILES}}
    assert len(KIT_FILES) > 5 and not [p for p in KIT_DIR.rglob("*.py") if p.parent != KIT_DIR]
    assert job.argv[:2] == [kit.KIT_NAME, "serve"]
    for other in (methods.method_job("def check(identity, answer): return True", mode="checker"),
                  methods.method_job("def validate(stdin): return None", mode="validator")):
        assert {n: other.files[n] for n in shipped} == shipped
    assert job.unit == methods.code_unit(TOY_SUM)
    other = methods.method_job(TOY_SUM, role="determinism")
    assert other.unit != job.unit and other.unit.startswith(job.unit)


def _job_python(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-s", "-S", "-B", *args], cwd=folder,
                          capture_output=True, text=True, timeout=60)


def test_a_new_file_of_the_kit_is_shipped_and_taken_in_with_the_rest(tmp_path, monkeypatch):
    """Nothing lists the kit's files: the host ships every file of its folder, and the server
    takes every module of the shipped folder into its namespace, then empties it
    (``_kit_modules``)."""
    folder = tmp_path / "kit"
    folder.mkdir()
    for path in KIT_FILES:
        (folder / path.name).write_text(path.read_text())
    (folder / "extra.py").write_text("X = 1\n")
    monkeypatch.setattr(methods, "_HERE", tmp_path)
    files = methods.kit_files()
    assert files[f"{kit.KIT_PACKAGE}/extra.py"] == "X = 1\n"
    job = tmp_path / "job"
    for name, text in files.items():
        (job / name).parent.mkdir(parents=True, exist_ok=True)
        (job / name).write_text(text)
    run = _job_python(job, "-c", f"from {kit.KIT_PACKAGE} import setup\n"
                      "print(*[m.__name__ for m in setup._kit_modules()])")
    names = {f"{kit.KIT_PACKAGE}.{p.stem}" for p in [*KIT_FILES, folder / "extra.py"]}
    assert set(run.stdout.split()) == names - {f"{kit.KIT_PACKAGE}.__init__"} | {kit.KIT_PACKAGE}, run
    # the launcher runs the kit's command line, and does nothing when imported
    run = _job_python(job, kit.KIT_NAME, "nothing")
    assert run.returncode == 1 and f"usage: {kit.KIT_NAME} serve" in run.stderr, run
    run = _job_python(job, "-c", f"import {kit.KIT_NAME.removesuffix('.py')}; print('imported')")
    assert run.stdout == "imported\n", run


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
    # the kit's timer interrupts the call; a bootcamp that swallows every interrupt defeats it
    # (it cannot switch the timer off: the signal module it gets does nothing)
    loop = ("        while solution == 'hang':\n            try:\n                while True:\n"
            "                    pass\n            except BaseException:\n                pass\n"
            if disable_timer else "        while solution == 'hang':\n            pass\n")
    code = TOY_SUM.replace(
        "    def _verify_correction(cls, solution, identity):\n",
        "    def _verify_correction(cls, solution, identity):\n        import signal\n"
        "        signal.signal(signal.SIGALRM, signal.SIG_IGN)\n" + loop,
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



# -- what the bootcamp cannot reach ------------------------------------------------------------


def _global_reads(code: types.CodeType) -> set[str]:
    names = {i.argval for i in dis.get_instructions(code)
             if i.opname in ("LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL")}
    imports = [i.argval for i in dis.get_instructions(code) if i.opname == "IMPORT_NAME"]
    assert not imports, f"{code.co_name} imports {imports} at run time"
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_reads(const)
    return names


def test_the_server_namespace_holds_everything_it_reads_and_no_module():
    """The server runs on copies of the kit's functions bound to a private namespace: every
    global name their code reads is in it (or in its private builtins), nothing in it is a
    module, every function in it is bound to it, and the kit defines no class with methods."""
    own_builtins = dict(vars(builtins))
    modules = kit_setup._kit_modules()
    env = kit_setup._private_namespace(tuple(vars(m) for m in modules), kit_server._RUNTIME,
                                       own_builtins)
    functions = {name: fn for name, fn in env.items() if isinstance(fn, types.FunctionType)}
    assert {"_main", "_hook", "_serve_loop", "_bounded", "_send", "_flush", "m_score"} <= set(
        functions)
    # the one function of a shared module the server calls: the import of the candidate, at
    # load (candidate code runs inside it anyway)
    shared = {"_import_module"}
    for name, fn in functions.items():
        assert (fn.__globals__ is env) != (name in shared), name
        if name in shared:
            continue
        missing = {n for n in _global_reads(fn.__code__) if n not in env and n not in own_builtins}
        assert not missing, f"{name} reads {missing}, which the private namespace lacks"
    for name, value in env.items():
        assert not isinstance(value, types.ModuleType), f"{name} is a module"
    assert env["_S"] is None and env["_G"] is None  # serve() sets them, in the job only
    classes = {c for m in modules for c in vars(m).values()
               if isinstance(c, type) and c.__module__ == m.__name__}
    assert sorted(c.__name__ for c in classes) == ["SandboxViolation"]
    assert not any(isinstance(v, types.FunctionType | classmethod | staticmethod)
                   for v in vars(kit.SandboxViolation).values())


def test_canonical_and_loads_are_json_in_c():
    value = {"b": [1, 2.5, "é\u2028", None, True], "a": {"z": -0.0, "y": 10**30}}
    assert kit.canonical(value) == json.dumps(value, sort_keys=True, ensure_ascii=False,
                                              allow_nan=False)
    assert kit.loads(kit.canonical(value)) == value
    assert kit.loads(b' {"a": [1]}\n') == {"a": [1]}
    for bad in ("", "[1,", "[1] x", "{'a': 1}"):
        with pytest.raises(ValueError):
            kit.loads(bad)
    with pytest.raises(ValueError):
        kit.canonical(float("nan"))
    with pytest.raises(TypeError, match="not JSON serializable"):
        kit.canonical({"a": object()})


#: Names that only the kit's namespaces hold: at least one of each of its modules (checked
#: below), so that a scope a bootcamp reaches that holds one of them is the kit's.
KIT_MARKS = ("_S", "_G", "_hook", "_serve_loop", "_score_value", "serve", "_hot", "_bounded",
             "_kit_caller", "m_reset", "_private_namespace", "_ENCODE_REPLY", "LAUNCHER", "_pump")


def test_every_module_of_the_kit_has_a_mark_the_probe_looks_for():
    for module in kit_setup._kit_modules():
        assert set(vars(module)) & set(KIT_MARKS), module.__name__


_PROBE_FUNCTION = f"\n\nKIT_MARKS = {KIT_MARKS!r}\n" + '''

def _probe():
    """Everything a bootcamp can enumerate without an audited read, searched for the kit."""
    import sys

    found, seen, functions, classes = [], set(), [], set()
    function_type = type(_probe)

    def looks_like_kit(scope):
        return isinstance(scope, dict) and any(k in scope for k in KIT_MARKS)

    def visit_function(fn, where):
        if id(fn) in seen:
            return
        seen.add(id(fn))
        functions.append(fn)
        if looks_like_kit(fn.__globals__):
            found.append(f"{where}: {fn.__name__}.__globals__")
        for cell in fn.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, function_type):
                visit_function(value, where + " (closure)")
            elif looks_like_kit(value):
                found.append(f"{where}: a closure cell")

    def visit_namespace(scope, where):
        if looks_like_kit(scope):
            found.append(where)
        for value in list(scope.values()):
            fn = getattr(value, "__func__", value)
            if isinstance(fn, function_type):
                visit_function(fn, where)

    todo = [object]
    while todo:
        cls = todo.pop()
        if id(cls) in classes:
            continue
        classes.add(id(cls))
        try:
            todo += type.__subclasses__(cls)
        except TypeError:
            pass
        if (cls.__module__ == "__main__" or str(cls.__module__).startswith("_synth_kit")) \
                and cls.__name__ != "SandboxViolation":
            found.append(f"class {cls.__name__}")
        visit_namespace(dict(vars(cls)), f"class {cls.__name__}")
    for name, module in list(sys.modules.items()):
        visit_namespace(dict(vars(module)), f"module {name}")
    inert = {"__name__", "__doc__", "__package__", "__loader__", "__spec__"}
    if set(vars(sys.modules["__main__"])) - inert:
        found.append("__main__ is not empty")
    kit = [name for name in sys.modules if name.startswith("_synth_kit")]
    found += [f"{name} is not empty" for name in kit if set(vars(sys.modules[name])) - inert]
    if len(kit) < 6:
        found.append(f"saw too few of the kit's modules: {kit}")
    if "gc" in sys.modules or "_signal" in sys.modules:
        found.append("gc or _signal in sys.modules")
    facade = sys.modules["signal"].signal
    if not isinstance(facade, function_type) or facade.__globals__ != {"__builtins__": {}}:
        found.append("the real signal module")
    if len(functions) < 300 or len(classes) < 300:
        found.append(f"saw too little: {len(functions)} functions, {len(classes)} classes")
    return found
'''
PROBE = TOY_SUM.replace(
    "    def case_generator(self):\n",
    "    def case_generator(self):\n        return {'found': _probe()}\n\n    def unused(self):\n",
) + _PROBE_FUNCTION


def test_the_server_keeps_nothing_the_bootcamp_can_reach():
    """No class, module, function (its globals, its closure cells) or ``sys.modules`` entry a
    bootcamp can enumerate leads to the server's namespace; ``signal`` is an inert stand-in and
    ``gc`` is gone. (The static gate would flag the probe; the server runs it anyway.)"""
    with server(PROBE) as s:
        assert s.info["tampered"] == [], s.info
        handle = s.call("construct", {"params": {}, "seed": 1}).value
        reply = s.call("generate", {"handle": handle})
        assert reply.ok and "text" in reply.value, reply
        assert json.loads(reply.value["text"]) == {"found": []}


#: Code evaluated on the bootcamp's behalf by code it does not own: an eval the static gate
#: cannot see.
HIDDEN_EVAL = {
    "get_type_hints": "import typing\ndef f(x: 'int'): pass\ntyping.get_type_hints(f)",
    "class_hints": "import typing\nclass C:\n    x: 'int'\ntyping.get_type_hints(C)",
}


@pytest.mark.parametrize("how", sorted(HIDDEN_EVAL))
def test_code_evaluated_by_the_standard_library_on_the_bootcamp_s_behalf_is_refused(how):
    with server(TOY_SUM + "\n" + HIDDEN_EVAL[how] + "\n") as s:
        assert not s.load_reply.ok
        assert "not allowed in a bootcamp: running code at run time" in s.load_reply.error


def test_the_bootcamp_s_own_eval_runs_the_static_gate_names_it():
    own = TOY_SUM + "\nTWO = eval('1 + 1') + len(compile('x = 1', '<s>', 'exec').co_names)\n"
    with server(own) as s:
        assert s.load_reply.ok and s.info["tampered"] == [], s.load_reply


DATA_CLASSES = TOY_SUM.replace("from synth.bootcamp import BaseBootcamp\n", '''\
import collections
import dataclasses
import typing

from synth.bootcamp import BaseBootcamp


@dataclasses.dataclass(frozen=True)
class Pair:
    """Two numbers."""

    a: int
    b: int = 0


Point = collections.namedtuple("Point", "x y", module=__name__)


class Span(typing.NamedTuple):
    lo: int
    hi: "int"
''').replace('        return str(sum(identity["numbers"]))',
             '        return str(Pair(sum(identity["numbers"])).a + Point(0, 0).x + Span(0, 0).lo)')


def test_dataclasses_and_namedtuples_still_work():
    assert DATA_CLASSES != TOY_SUM
    with server(DATA_CLASSES) as s:
        assert s.info["tampered"] == [], s.info
        assert s.call("answer", {"case_text": '{"numbers": [1, 2]}'}).value == "3"


COMPILED_MODEL = '''"""Compiled bootcamp for tests: the sum of a list, by a reference program."""

from synth.bootcamp import CompiledBootcamp


class SumCompiled(CompiledBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 9) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return "Add " + " ".join(map(str, identity["nums"])) + "."

    @staticmethod
    def render_stdin(identity):
        return " ".join(map(str, identity["nums"])) + "\\n"
'''
COMPILED = assemble(COMPILED_MODEL, "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n")


def test_the_contract_runner_compiles_the_embedded_program_only():
    """Compiled mode: the contract compiles the reference program the module embeds when the
    class is created and runs it at every uncached answer; the contract's runner asked to
    compile any other source is refused."""
    with server(COMPILED) as s:
        assert s.load_reply.ok, s.load_reply
        assert s.info["tampered"] == [], s.info
        case = '{"nums": [4, 5, 6]}'
        assert s.call("answer", {"case_text": case}).value == "15"
        assert s.call("score", {"response": "<answer>15</answer>", "case_text": case}).value == {
            "score": 1.0}
    other = COMPILED + '\nfrom synth.bootcamp import run_program\n\nrun_program("print(42)", "")\n'
    with server(other) as s:
        assert not s.load_reply.ok
        assert "other than the module's embedded reference program" in s.load_reply.error


FINALIZER = TOY_SUM.replace("from synth.bootcamp import BaseBootcamp\n", '''\
from synth.bootcamp import BaseBootcamp

_ORIGINAL = BaseBootcamp.__dict__["extract_output"]


class _Trap:
    """Dies when the kit lets go of the case it was put in: then patches the contract."""

    def __del__(self):
        BaseBootcamp.extract_output = staticmethod(lambda response: None)
''').replace("        s = solution.strip()\n", '''\
        BaseBootcamp.extract_output = _ORIGINAL  # restored before anything else of the call
        identity["trap"] = _Trap()
        s = solution.strip()
''')


def test_a_change_made_when_the_kit_drops_the_case_is_reported_by_that_call():
    """The check before a scoring call is skipped when nothing of the bootcamp can have run
    since the last clean check; so the kit lets go of the case (and a finalizer the bootcamp
    hung on it) BEFORE its check after the call, and that reply reports the change -- which
    would otherwise be undone inside the next call, after the patched extraction had run."""
    assert FINALIZER.count("_Trap()") == 1
    with server(FINALIZER) as s:
        assert s.info["tampered"] == [], s.info
        case = '{"numbers": [1, 2]}'
        first = s.call("score", {"response": "<answer>3</answer>", "case_text": case}).value
        assert any("extract_output" in t for t in first.get("tampered", [])), first


def test_an_extraction_set_on_the_class_after_its_body_is_reported_in_the_handshake():
    """``Cls.extract_output = ...`` at module level escapes the class-body rules (static and
    ``__init_subclass__``); the kit reads the loaded class and reports it as tampered."""
    patched = TOY_SUM + "\nToySumBootcamp.extract_output = staticmethod(lambda r: r[-3:])\n"
    with server(patched) as s:
        assert any("defines extract_output" in t for t in s.info["tampered"]), s.info


def test_the_shifted_heap_moves_fresh_objects_when_the_layout_repeats() -> None:
    """The determinism check's second process shifts its heap (kit/setup.py:shift_heap): with
    the address layout made to repeat (ASLR off, ``setarch -R``), a fresh object's id is the
    same in every plain run and differs between shifted runs."""
    import platform
    import shutil

    if shutil.which("setarch") is None:
        pytest.fail("setarch (util-linux) is missing")
    repo = Path(__file__).resolve().parents[2]
    probe = ("import sys; sys.path.insert(0, {repo!r}); from synth.sandbox.kit import setup; "
             "{shift}print(id(object()) % 10000)")

    def ids(shift: str) -> list[str]:
        code = probe.format(repo=str(repo), shift=shift)
        return [subprocess.run(["setarch", platform.machine(), "-R", sys.executable, "-c", code],
                               capture_output=True, text=True, check=True, timeout=60).stdout
                for _ in range(4)]

    plain = ids("")
    assert len(set(plain)) == 1, plain  # the layout repeats: an id-drawn case would agree
    shifted = ids("b = setup.shift_heap(); ")
    assert len(set(shifted)) >= 3, shifted
