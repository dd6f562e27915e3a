"""The oracle and inputs checks of a *function* bootcamp (``FunctionBootcamp``: the answer key
is a reference function's return value on the case's arguments).

* oracle (:func:`check_function_oracle`): the reference function runs in a sandbox job of its
  own (never the candidate's session) on the arguments of cases spread over every level, read
  from the candidate as JSON (the contract's ``render_stdin``) and decoded here; its return
  value, written by the contract's rule, must be the candidate's ``reference_answer``. A case
  on which the reference raises (or runs out of time) is the finding ``reference_raises``, with
  the case, the call and the exception: the generator made arguments outside the function's
  contract.
* inputs (:func:`check_function_inputs`): every generated case's arguments have the types and
  shapes the task itself uses -- the signature's annotations where there are some, else the
  arguments of the calls in the docstring's examples and in the task's tests (``check`` of
  HumanEval: read with ``ast``, never run). A wrong number of arguments, a wrong kind (a
  string where every example has a list, a float where the annotation says int, a flat list
  where the examples nest) is ``argument_type``. An empty list where the examples never show
  one is not a finding by itself (the reference decides: it raises or it answers), nor is a
  value the evidence says nothing about. A level where more than :data:`ANSWER_SHOWN_SHARE` of
  the calls are ones the docstring shows with their return value (``>>> fib4(5)`` then ``4``)
  is ``answer_in_prompt``: the prompt gives those answers away.
"""

from __future__ import annotations

import ast
import contextlib
import json
from collections.abc import Callable
from typing import Any

from synth.gate.calls import Failure
from synth.gate.inputs import ANSWER_SHOWN_SHARE, answer_in_prompt
from synth.gate.programs import ProgramRuns, _report
from synth.gate.results import failure_result, norm, result
from synth.gate.suite import Suite
from synth.sandbox.base import Backend, Limits, SandboxJob
from synth.sandbox.methods import code_unit, contract_files
from synth.text import pyast
from synth.values import ValueProblem, canonical, decode, encode, shape

__all__ = ["CALLS_SCRIPT", "CHECKS", "Expected", "expected_arguments", "fits", "run_function",
           "shown_calls"]

# -- the reference function in a job of its own ---------------------------------------------

#: The job's script that calls a reference function on each argument list of its request
#: (trusted text; it runs in the sandbox): per call ``stdout`` (the canonical literal of the
#: return value), ``value`` (its JSON, :func:`synth.values.encode`), ``stderr``, ``code`` and
#: ``cpu_s``. :func:`run_function` and the code suites' builder (:mod:`synth.suites.run`) send it.
CALLS_SCRIPT = '''"""Call the reference function on each argument list of the request (synth.runner), timed."""
import json
import sys
import time

from synth.runner import FunctionTimeout, ProgramError, call_function
from synth.values import ValueProblem, canonical, decode, encode


def main():
    request = json.loads(sys.stdin.read())
    with open("program.py", encoding="utf-8") as handle:
        source = handle.read()
    out = []
    for encoded in request["inputs"]:
        start = time.process_time()
        try:
            value = call_function(source, request["entry_point"], decode(encoded),
                                  timeout_s=float(request["timeout"]))
            item = {"stdout": canonical(value), "value": encode(value), "stderr": "", "code": 0}
        except FunctionTimeout:
            item = {"stdout": "", "stderr": "no answer in time", "code": None}
        except ProgramError as exc:
            item = {"stdout": "", "stderr": (str(exc) + "\\n" + exc.stderr)[-3000:], "code": 1}
        except ValueProblem as exc:
            item = {"stdout": "", "stderr": "the return value: " + str(exc)[:500], "code": 3}
        except MemoryError:
            item = {"stdout": "", "stderr": "MemoryError", "code": -1}
        item["cpu_s"] = time.process_time() - start
        out.append(item)
    sys.stdout.write(json.dumps(out) + "\\n")


main()
'''


def run_function(backend: Backend, source: str, entry_point: str, calls: list[Any], *,
                 timeout_s: float, memory_mb: int) -> ProgramRuns:
    """The reference function's canonical return value (``stdout``) on each encoded argument
    list of ``calls``, from one sandbox job; ``code`` 0 when it returned, 1 when it raised
    (``stderr``: the exception and its traceback), None past ``timeout_s``, 3 when the value
    is not one a function task can carry."""
    wall = min(3600.0, timeout_s * len(calls) + 20)
    limits = Limits(wall_s=wall, cpu_s=wall, memory_mb=memory_mb, pids=8, file_size_mb=4,
                    max_output_bytes=8_000_000)
    job = SandboxJob(
        files={**contract_files(), "program.py": source, "call_function.py": CALLS_SCRIPT},
        argv=["call_function.py"],
        stdin=json.dumps({"inputs": calls, "entry_point": entry_point, "timeout": timeout_s}),
        unit=code_unit(source, "reference-function"),
    )
    return _report(backend.run(job, limits), len(calls))


def call_arguments(s: Suite, keys: list[tuple[int, int]]) -> list[tuple[int, int, list[Any]]] | \
        dict[str, Any]:
    """(level, index, arguments) of the cases ``keys``, decoded here from the contract's JSON,
    or the failed result that says which case's arguments could not be had."""
    texts = s.stdins(keys)
    out: list[tuple[int, int, list[Any]]] = []
    for li, i in keys:
        text = texts[(li, i)]
        if text is None:
            try:
                text, _ = s.cand.stdin(s.cases[li][i], s.limit(2.0))
            except Failure as f:
                return failure_result(f, f"call_args ({s.where(li, i)}):", case=s.cases[li][i])
        try:
            args = decode(json.loads(text))
        except (ValueError, ValueProblem) as exc:
            return result("failed", f"{s.where(li, i)}: the call's arguments are not values a "
                          f"function task can carry: {exc}", case=s.cases[li][i])
        if type(args) is not list:
            return result("failed", f"{s.where(li, i)}: call_args gave no argument list",
                          case=s.cases[li][i])
        out.append((li, i, args))
    return out


def copied_answers(s: Suite, leaks: list[tuple[int, int]]
                   ) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """Of a function bootcamp's cases whose prompt holds their answer (the prompt check's
    leaks), those that give it away: the answer is one of the call's whole arguments (copying
    the input answers), or it is in the prompt outside the arguments' text. An answer found
    only inside an argument is one of its parts (the longest of the strings, the items a filter
    keeps): choosing it is the task. When the arguments cannot be read, every case stays a
    leak. Second, of those, the ones whose answer *is* a whole argument -- the function
    returned an input unchanged (a filter that keeps every item, a list with no duplicates to
    remove) -- each with its call as text: the coder is told that, since the fix is in the
    arguments it generates."""
    got = call_arguments(s, leaks)
    if isinstance(got, dict):
        return leaks, []
    kept, copies = [], []
    for li, i, args in got:
        answer = norm(s.answers[(li, i)])
        try:
            shown = [norm(canonical(a)) for a in args]
        except ValueProblem:
            kept.append((li, i))
            continue
        if answer in shown:
            kept.append((li, i))
            copies.append((li, i, _call(s.entry_point or "f", args)))
            continue
        rest = norm(s.prompts[(li, i)])
        for text in sorted(shown, key=len, reverse=True):
            rest = rest.replace(text, " ")
        if answer in rest:
            kept.append((li, i))
    return kept, copies


def _call(entry: str, args: list[Any]) -> str:
    text = f"{entry}({', '.join(canonical(a) for a in args)})"
    return text if len(text) <= 2000 else text[:2000] + "..."


def check_function_oracle(s: Suite) -> dict[str, Any]:
    assert s.reference is not None and s.entry_point is not None
    s.extend_cases(s.cfg.oracle_cases, s.cfg.differential_budget_s / 2)
    got = call_arguments(s, s.evenly(s.cfg.oracle_cases))
    if isinstance(got, dict):
        return got
    runs = run_function(s.backend, s.reference, s.entry_point, [encode(a) for _, _, a in got],
                        timeout_s=s.cfg.oracle_timeout_s, memory_mb=s.cfg.limits.memory_mb)
    if runs.outputs is None:
        return result("sandbox_error", runs.why("the reference function"))
    raised = [(li, i, a, o) for (li, i, a), o in zip(got, runs.outputs, strict=True)
              if o["code"] != 0]
    if raised:
        li, i, args, out = raised[0]
        what = "ran out of time" if out["code"] is None else "raised"
        levels = sorted({s.levels[x[0]][0] for x in raised})
        return result(
            "failed", f"{s.where(li, i)}: the reference function {what} on the generated call "
            f"{_call(s.entry_point, args)[:300]} ({len(raised)} of {len(got)} calls, levels "
            f"{', '.join(levels)}): the arguments are outside the function's contract -- "
            "generate only arguments its docstring and examples allow",
            finding="reference_raises", call=_call(s.entry_point, args),
            exception=out["stderr"][-2000:], case=s.cases[li][i])
    for (li, i, args), out in zip(got, runs.outputs, strict=True):
        answer = s.answer(li, i)
        if out["stdout"] == answer:
            continue
        score, _ = s.score(s.wrap(out["stdout"]), s.cases[li][i])
        if score == 1.0:
            continue
        return result("failed", f"{s.where(li, i)}: the reference function, run on its own, "
                      "returns another value than reference_answer", call=_call(
                          s.entry_point, args), expected=answer, got=out["stdout"],
                      case=s.cases[li][i])
    return result("passed", f"the reference function, run in a job of its own, returns "
                  f"reference_answer on {len(got)} calls over {len(s.levels)} level(s)")


# -- what arguments the task uses -----------------------------------------------------------

Shape = tuple[Any, ...]
ANY: Shape = ("any",)
NEVER: Shape = ("never",)  # the items of an empty container: nothing known
_SCALARS = {"int": ("int",), "float": ("float",), "str": ("str",), "bool": ("bool",),
            "None": ("none",), "NoneType": ("none",), "complex": ANY}
_SEQUENCES = {"List": "list", "list": "list", "Set": "set", "set": "set", "FrozenSet": "set",
              "frozenset": "set", "Tuple": "tuple", "tuple": "tuple", "Dict": "dict",
              "dict": "dict", "Optional": "optional", "Union": "union",
              "Sequence": "sequence", "Iterable": "sequence"}


def join(a: Shape, b: Shape) -> Shape:
    """The least shape both ``a`` and ``b`` fit."""
    if a == b or b == NEVER:
        return a
    if a == NEVER:
        return b
    if a == ANY or b == ANY:
        return ANY
    if a[0] == b[0] and a[0] in ("list", "set", "tuple"):
        return (a[0], join(a[1], b[1]))
    if a[0] == b[0] == "dict":
        return ("dict", join(a[1], b[1]), join(a[2], b[2]))
    if a[0] == b[0] == "tuplen":
        if len(a[1]) == len(b[1]):
            return ("tuplen", tuple(join(x, y) for x, y in zip(a[1], b[1], strict=True)))
        return ("tuple", _join_all([*a[1], *b[1]]))
    members = [*(a[1] if a[0] == "union" else [a]), *(b[1] if b[0] == "union" else [b])]
    merged: list[Shape] = []
    for m in members:  # containers of one kind merge; scalars stay side by side
        for k, seen in enumerate(merged):
            if seen[0] == m[0] or {seen[0], m[0]} == {"tuple", "tuplen"}:
                merged[k] = join(_loose(seen), _loose(m)) if seen[0] != m[0] else join(seen, m)
                break
        else:
            merged.append(m)
    return merged[0] if len(merged) == 1 else ("union", tuple(merged))


def _loose(s: Shape) -> Shape:
    return ("tuple", _join_all(list(s[1]))) if s[0] == "tuplen" else s


def _join_all(shapes: list[Shape]) -> Shape:
    out = NEVER
    for s in shapes:
        out = join(out, s)
    return out


def shape_of(value: Any, depth: int = 0) -> Shape:
    """The shape of a literal value from the task's own examples."""
    if depth > 20:
        return ANY
    kind = type(value)
    if value is None:
        return ("none",)
    if kind in (bool, int, float, str):
        return (kind.__name__,)
    if kind is list or kind is set or kind is frozenset:
        return ("list" if kind is list else "set", _join_all([shape_of(v, depth + 1)
                                                              for v in value]))
    if kind is tuple:
        return ("tuplen", tuple(shape_of(v, depth + 1) for v in value))
    if kind is dict:
        return ("dict", _join_all([shape_of(k, depth + 1) for k in value]),
                _join_all([shape_of(v, depth + 1) for v in value.values()]))
    return ANY


def annotation_shape(node: ast.expr | None) -> Shape:
    """The shape a signature annotation states (``ANY`` for what it cannot read)."""
    if node is None:
        return ANY
    if isinstance(node, ast.Constant):
        if node.value is None:
            return ("none",)
        if isinstance(node.value, str):
            try:
                tree = pyast.parse(node.value)
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                return ANY
            first = tree.body[0] if len(tree.body) == 1 else None
            return annotation_shape(first.value) if isinstance(first, ast.Expr) else ANY
        return ANY
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return join(annotation_shape(node.left), annotation_shape(node.right))
    name = node.id if isinstance(node, ast.Name) else node.attr if \
        isinstance(node, ast.Attribute) else None
    if name is not None:
        if name in _SCALARS:
            return _SCALARS[name]
        kind = _SEQUENCES.get(name)
        if kind in ("list", "set", "tuple"):
            return (kind, ANY)
        if kind == "dict":
            return ("dict", ANY, ANY)
        return ANY
    if isinstance(node, ast.Subscript):
        base = annotation_shape_name(node.value)
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        inner = [annotation_shape(x) for x in items]
        if base in ("list", "set"):
            return (base, inner[0])
        if base == "sequence":
            return ("union", (("list", inner[0]), ("tuple", inner[0])))
        if base == "tuple":
            if len(items) == 2 and isinstance(items[1], ast.Constant) and \
                    items[1].value is Ellipsis:
                return ("tuple", inner[0])
            return ("tuplen", tuple(inner))
        if base == "dict" and len(inner) == 2:
            return ("dict", inner[0], inner[1])
        if base == "optional":
            return join(inner[0], ("none",))
        if base == "union":
            return _join_all(inner) if ANY not in inner else ANY
    return ANY


def annotation_shape_name(node: ast.expr) -> str | None:
    name = node.id if isinstance(node, ast.Name) else node.attr if \
        isinstance(node, ast.Attribute) else None
    return _SEQUENCES.get(name or "")


def fits(value: Any, want: Shape, depth: int = 0) -> bool:
    """Whether ``value`` has the shape ``want`` (an int fits a float; the items of a shape
    learnt from empty containers only are not checked)."""
    tag, kind = want[0], type(value)
    if tag in ("any", "never") or depth > 30:
        return True
    if tag == "union":
        return any(fits(value, w, depth) for w in want[1])
    if tag == "none":
        return value is None
    if tag == "float":
        return kind is float or kind is int
    if tag in ("int", "str", "bool"):
        return kind.__name__ == tag
    if tag == "list":
        return kind is list and all(fits(v, want[1], depth + 1) for v in value)
    if tag == "set":
        return (kind is set or kind is frozenset) and all(fits(v, want[1], depth + 1)
                                                          for v in value)
    if tag == "tuple":
        return kind is tuple and all(fits(v, want[1], depth + 1) for v in value)
    if tag == "tuplen":
        return kind is tuple and len(value) == len(want[1]) and all(
            fits(v, w, depth + 1) for v, w in zip(value, want[1], strict=True))
    if tag == "dict":
        return kind is dict and all(fits(k, want[1], depth + 1) and fits(v, want[2], depth + 1)
                                    for k, v in value.items())
    return False


def describe(want: Shape) -> str:
    """A shape as a reader writes a type: ``list[int]``, ``tuple[str, int]``, ``int | None``."""
    tag = want[0]
    if tag in ("any", "never"):
        return "anything" if tag == "any" else "?"
    if tag == "union":
        return " | ".join(describe(w) for w in want[1])
    if tag == "none":
        return "None"
    if tag in ("list", "set", "tuple"):
        return f"{tag}[{describe(want[1])}{', ...' if tag == 'tuple' else ''}]"
    if tag == "tuplen":
        return f"tuple[{', '.join(describe(w) for w in want[1])}]"
    if tag == "dict":
        return f"dict[{describe(want[1])}, {describe(want[2])}]"
    return str(tag)


class Expected:
    """What a function task's own text says about its arguments: the parameters, their
    shapes and where each shape comes from."""

    def __init__(self, names: list[str], required: int, variadic: bool,
                 shapes: list[Shape], sources: list[str], calls: int,
                 examples: list[str] | None = None, values: list[list[Any]] | None = None,
                 equal_lengths: list[tuple[int, int, int]] | None = None) -> None:
        self.names, self.required, self.variadic = names, required, variadic
        self.shapes, self.sources, self.calls = shapes, sources, calls
        #: per parameter, one literal value the task's own calls pass (or "")
        self.examples = examples or [""] * len(names)
        #: per parameter, every literal value the task's own calls pass
        self.values = values or [[] for _ in names]
        #: (k, m, calls): parameters k and m get values of one length in every such call
        self.equal_lengths = equal_lengths or []


def _literal_calls(tree: ast.AST, names: set[str]) -> list[list[tuple[str, Any] | None]]:
    """The positional arguments of every call of one of ``names`` in ``tree``: each argument
    its literal value, or None where it is not a literal (a call with keywords or ``*args``
    is left out)."""
    calls: list[list[tuple[str, Any] | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in names and not node.keywords and \
                not any(isinstance(a, ast.Starred) for a in node.args):
            args: list[tuple[str, Any] | None] = []
            for a in node.args:
                try:
                    args.append(("value", pyast.literal_eval(a)))
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                    args.append(None)
            calls.append(args)
    return calls


def _docstring_calls(doc: str, entry: str) -> list[list[tuple[str, Any] | None]]:
    """Calls of ``entry`` written in a docstring (``>>> f(1, 2)``, ``f(1, 2) ==> 3``), each
    parsed from its balanced parentheses."""
    calls: list[list[tuple[str, Any] | None]] = []
    at = doc.find(entry + "(")
    while at >= 0 and len(calls) < 100:
        if at == 0 or not (doc[at - 1].isalnum() or doc[at - 1] == "_"):
            depth, end, quote = 0, None, ""
            for k in range(at + len(entry), min(len(doc), at + 5000)):
                ch = doc[k]
                if quote:
                    quote = "" if ch == quote and doc[k - 1] != "\\" else quote
                elif ch in "'\"":
                    quote = ch
                elif ch in "([{":
                    depth += 1
                elif ch in ")]}":
                    depth -= 1
                    if depth == 0:
                        end = k + 1
                        break
            if end is not None:
                with contextlib.suppress(SyntaxError, ValueError, MemoryError, RecursionError):
                    calls += _literal_calls(pyast.parse(doc[at:end]), {entry})
        at = doc.find(entry + "(", at + 1)
    return calls


def _entry_function(source: str, entry: str) -> ast.FunctionDef | None:
    """The top-level function ``entry`` of ``source`` (parsed, never run), or None."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == entry),
                None)


def expected_arguments(source: str, entry: str, tests: str | None = None) -> Expected | None:
    """What the function ``entry`` of ``source`` (parsed, never run), its docstring and the
    task's ``tests`` (calls of ``candidate`` or of ``entry``) say about its arguments; None
    when the source has no such function."""
    fn = _entry_function(source, entry)
    if fn is None:
        return None
    params = [*fn.args.posonlyargs, *fn.args.args]
    names = [p.arg for p in params]
    required = len(params) - len(fn.args.defaults)
    calls = _docstring_calls(ast.get_docstring(fn) or "", entry)
    if tests:
        with contextlib.suppress(SyntaxError, ValueError, MemoryError, RecursionError):
            calls += _literal_calls(pyast.parse(tests), {"candidate", entry})
    calls = [c for c in calls if required <= len(c) <= len(params) or fn.args.vararg]
    shapes: list[Shape] = []
    sources: list[str] = []
    examples: list[str] = []
    values: list[list[Any]] = []
    for k, p in enumerate(params):
        seen = [arg[1] for c in calls if k < len(c) and (arg := c[k]) is not None]
        values.append(seen)
        shown = [r for r in map(repr, seen) if len(r) <= 60]
        examples.append(max(shown, key=len) if shown else "")  # the fullest short one
        stated = annotation_shape(p.annotation)
        if stated != ANY:
            shapes.append(stated)
            sources.append(f"the annotation {ast.unparse(p.annotation)}")  # type: ignore[arg-type]
            continue
        if seen:
            shapes.append(_join_all([shape_of(v) for v in seen]))
            sources.append(f"the {len(seen)} example and test call(s)")
        else:
            shapes.append(ANY)
            sources.append("nothing (no annotation, no literal example)")
    return Expected(names, required, fn.args.vararg is not None, shapes, sources, len(calls),
                    examples, values, _equal_lengths(calls, len(params)))


#: calls of the task (docstring examples and tests) that must show a relation before the
#: generated calls are held to it
RELATION_MIN_CALLS = 2


def _equal_lengths(calls: list[list[tuple[str, Any] | None]], n: int) -> list[tuple[int, int, int]]:
    """The pairs of parameters (k, m, calls) to which every call of the task that passes both
    as strings, lists or tuples passes values of one length, in at least
    :data:`RELATION_MIN_CALLS` calls, one of them not empty (``string_xor('010', '110')``: a
    bitwise function the docstring never says is defined on unequal lengths)."""
    sized = (str, list, tuple)
    out = []
    for k in range(n):
        for m in range(k + 1, n):
            pairs = []
            for c in calls:
                first, second = (c[k], c[m]) if len(c) > m else (None, None)
                if first is not None and second is not None and type(first[1]) in sized \
                        and type(second[1]) in sized:
                    pairs.append((first[1], second[1]))
            if len(pairs) >= RELATION_MIN_CALLS and any(len(a) for a, _ in pairs) and \
                    all(len(a) == len(b) for a, b in pairs):
                out.append((k, m, len(pairs)))
    return out


def check_function_inputs(s: Suite) -> dict[str, Any]:
    assert s.reference is not None and s.entry_point is not None
    want = expected_arguments(s.reference, s.entry_point, s.function_tests)
    if want is None:
        return result("failed", f"the embedded reference defines no function {s.entry_point}()")
    got = call_arguments(s, [(li, i) for li, i, _ in s.each_case()])
    if isinstance(got, dict):
        return got
    checked = [f"{n}: {describe(w)} (from {src})" for n, w, src in
               zip(want.names, want.shapes, want.sources, strict=True)]
    for li, i, args in got:
        call = _call(s.entry_point, args)
        if len(args) < want.required or (len(args) > len(want.names) and not want.variadic):
            return result(
                "failed", f"{s.where(li, i)}: call_args gives {len(args)} argument(s), but "
                f"{s.entry_point}() takes {want.required}..{len(want.names)}",
                finding="argument_type", call=call, case=s.cases[li][i],
                parameters=", ".join(want.names))
        for k, (value, shaped) in enumerate(zip(args, want.shapes, strict=False)):
            if not fits(value, shaped):
                return result(
                    "failed", f"{s.where(li, i)}: argument {k + 1} ({want.names[k]}) is a "
                    f"{shape(value)} where {describe(shaped)} is expected (from "
                    f"{want.sources[k]}): generate "
                    "arguments of the types and nesting the task uses (call_args builds them "
                    "from the case)", finding="argument_type", call=call,
                    case=s.cases[li][i], parameter=want.names[k], expected=describe(shaped),
                    got=shape(value))
    for k, m, seen in want.equal_lengths:
        checked.append(f"{want.names[k]} and {want.names[m]}: of one length (every one of the "
                       f"task's {seen} calls that passes both)")
        for li, i, args in got:
            a, b = (args[k], args[m]) if len(args) > m else (None, None)
            if isinstance(a, (str, list, tuple)) and isinstance(b, (str, list, tuple)) and \
                    len(a) != len(b):
                return result(
                    "failed", f"{s.where(li, i)}: {want.names[k]} has length {len(a)} and "
                    f"{want.names[m]} length {len(b)}, where every one of the task's {seen} "
                    f"example and test calls passing both gives them one length: generate "
                    "arguments as the task relates them (the function is not asked about "
                    "others)", finding="argument_relation", call=_call(s.entry_point, args),
                    case=s.cases[li][i], parameters=f"{want.names[k]}, {want.names[m]}")
    shown = shown_calls(s.reference, s.entry_point)
    leak = answer_in_prompt(s, [(li, i, tuple(canonical(a) for a in args)) for li, i, args in got],
                            shown, "calls the docstring's examples show with their return values",
                            lambda key: f"{s.entry_point}({', '.join(key)})")
    if leak is not None:
        return leak
    if shown:
        checked.append(f"none of the generated calls (at most {ANSWER_SHOWN_SHARE:.0%} of a "
                       f"level's) repeats one of the docstring's {len(shown)} example call(s)")
    return result("passed", f"the arguments of {len(got)} generated calls have the types the "
                  f"task uses ({want.calls} example and test call(s) read)",
                  checked="\n".join(f"- {c}" for c in checked))


def shown_calls(source: str, entry: str) -> set[tuple[str, ...]]:
    """The argument lists (canonical JSON of each argument) of the calls of ``entry`` that its
    docstring shows: the prompt of a function task shows them with their return values."""
    fn = _entry_function(source, entry)
    out: set[tuple[str, ...]] = set()
    doc = (ast.get_docstring(fn) or "") if fn is not None else ""
    for call in _docstring_calls(doc, entry):
        if all(arg is not None for arg in call):
            with contextlib.suppress(ValueError, TypeError):
                out.add(tuple(canonical(arg[1]) for arg in call if arg is not None))
    return out


def check_function_key(s: Suite) -> dict[str, Any]:
    """A function task's key is its reference function (a source verifies it on the task's
    own tests before compiled mode takes it); no stdin program can vote on it."""
    return result("skipped", "not applicable: the answer key is the task's reference function "
                  "(the oracle check ran it on its own); stdin programs cannot vote on it",
                  verified_by="the task's reference function")


CHECKS: dict[str, Callable[[Suite], dict[str, Any]]] = {
    "oracle": check_function_oracle, "inputs": check_function_inputs, "key": check_function_key}
