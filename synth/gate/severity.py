"""Severity of the gate's findings when it audits an existing library (InternBootcamp style).

A finding *rejects* a candidate, is a *convention* of the audited library (reported, never
rejecting), or says the audit *cannot judge* the code (``synth check`` exits 3). This module
holds the trusted host's rules for the last two:

* :func:`missing_dependency` -- an ``ImportError`` naming a module that is neither part of the
  standard library nor the audited module itself: a dependency of the audited code that the
  sandbox does not have (numpy, sympy, the library's own ``libs`` package, ...);
* :func:`global_random` -- the module draws from the global ``random`` (or ``numpy.random``)
  generator, InternBootcamp's convention (the shim seeds it for every instance);
* :func:`merge` -- the notes a check collected (conventions, things it could not judge) folded
  into its result, the most severe first.
"""

from __future__ import annotations

import ast
import re
import sys
from typing import Any

from synth.sandbox.kit import KIT_NAME, KIT_PACKAGE
from synth.text import pyast

__all__ = ["NOTE_ORDER", "classify_missing", "classify_refused", "global_random", "merge",
           "missing_dependency", "note", "refused_dependency"]

#: Module paths the audit itself lays out for the audited module (the shim and the module).
_OWN = ("candidate", "internbootcamp.bootcamp.candidate")
_NO_MODULE = re.compile(r"(?:ModuleNotFoundError|ImportError): No module named '([^']{1,200})'")
_NO_NAME = re.compile(r"ImportError: cannot import name '([^']{1,200})' from '([^']{1,200})'")
#: Functions of the ``random`` module that draw from its hidden global generator.
_RANDOM_FUNCTIONS = frozenset({
    "betavariate", "binomialvariate", "choice", "choices", "expovariate", "gammavariate",
    "gauss", "getrandbits", "lognormvariate", "normalvariate", "paretovariate", "randbytes",
    "randint", "random", "randrange", "sample", "shuffle", "triangular", "uniform",
    "vonmisesvariate", "weibullvariate"})
#: Severity order of the notes a check can carry (most severe first).
NOTE_ORDER = ("reject", "cannot_judge", "convention")


def _is_third_party(module: str) -> bool:
    top = module.split(".")[0]
    if not top or top in sys.stdlib_module_names:
        return False
    return not any(module == own or module.startswith(own + ".") for own in _OWN)


def missing_dependency(*texts: str) -> str | None:
    """The missing third-party module an error names (its reason, its traceback), or None.

    ``No module named 'numpy'`` and ``cannot import name 'x' from 'sympy'`` name a dependency;
    a standard-library module, or the audited module itself, is the code's own defect (a
    typo, a circular import) and never "cannot judge". The last line of a traceback -- the
    exception that ended the call -- is read first."""
    lines: list[str] = []
    for text in texts:
        if text:
            lines += [ln.strip() for ln in reversed(text.strip().splitlines()[-3:])]
    for line in lines:
        if "circular import" in line:
            return None
        found = _NO_MODULE.search(line)
        if found:
            name = found.group(1)
            return name if _is_third_party(name) else None
        named = _NO_NAME.search(line)
        if named:
            name = named.group(2)
            return f"{name} (its {named.group(1)})" if _is_third_party(name) else None
    return None


_REFUSED = re.compile(r"SandboxViolation: not allowed in a bootcamp: (.{1,160})")
_FRAME_FILE = re.compile(r'File "([^"]{1,500})", line \d+')


def _stdlib_file(path: str) -> bool:
    return "/lib/python3" in path and not any(
        part in path for part in ("/site-packages/", "/dist-packages/"))


def _kit_file(path: str) -> bool:
    """A file of the sandbox kit in the job: the launcher, or a module of the kit's package
    folder (whatever its name: every file there is the kit's)."""
    folder, _, name = path.rpartition("/")
    return name == KIT_NAME or (folder.endswith("/" + KIT_PACKAGE) and name.endswith(".py"))


def _job_file(path: str) -> bool:
    """A file of the job's work dir (the module, the shim): ``/run/synth-sbx/synth-sbx-*/``
    on the process backend (but for the import directories it binds there, ``.import-N``),
    ``/tmp/`` in bwrap, ``/tmp/job-*/`` in docker."""
    if "/.import-" in path:
        return False
    if path.endswith(("/candidate.py", "/intern_shim.py")) or "/synth-sbx-" in path \
            or path.startswith("/tmp/job-"):
        return True
    if path.startswith("/tmp/"):
        rest = path[len("/tmp/"):]
        return "/" not in rest or rest.split("/")[0] in ("bootcamp", "internbootcamp", "synth")
    return False


def refused_dependency(traceback: str) -> tuple[str, str] | None:
    """(what the sandbox's guard refused, the file that did it) when the refusal ended the
    call and the code that asked for it is a dependency of the audited module -- the innermost
    frame that is neither the kit nor the standard library (which may act on its caller's
    behalf, as ``namedtuple`` reads its caller's frame) lies outside the audited module and the
    shim -- else None. Such a module cannot be judged here (the guard is the audit's, not a
    defect of the module); a refusal in the module's own code stays a finding."""
    lines = traceback.strip().splitlines()
    found = _REFUSED.search(lines[-1]) if lines else None
    if found is None:
        return None
    for path in reversed(_FRAME_FILE.findall(traceback)):
        if path.startswith("<") or _kit_file(path) or _stdlib_file(path):
            continue
        if _job_file(path):
            return None  # the audited module (or the shim) asked for it
        return found.group(1), path
    return None


def classify_refused(res: dict[str, Any]) -> dict[str, Any]:
    """A failed or erroring result that a dependency's refused request caused (see
    :func:`refused_dependency`) becomes ``cannot_judge`` (intern mode only)."""
    if res.get("status") not in ("failed", "error") or res.get("severity", "reject") != "reject":
        return res
    arts = res.get("artifacts") or {}
    refused = refused_dependency(str(arts.get("traceback", "")))
    if refused is None:
        return res
    what, where = refused
    return {**res, "severity": "cannot_judge", "finding": "sandbox_refuses_dependency",
            "reason": f"a dependency of the audited code needs {what}, which the audit's sandbox "
                      f"refuses ({where}); the module itself is not at fault "
                      f"({res.get('reason', '')})",
            "artifacts": {**arts, "refused": what, "dependency_file": where}}


def note(severity: str, finding: str, reason: str, **artifacts: str) -> dict[str, Any]:
    """One note a check collects: merged into its result by :func:`merge`."""
    return {"severity": severity, "finding": finding, "reason": reason, "artifacts": artifacts}


def classify_missing(res: dict[str, Any]) -> dict[str, Any]:
    """A failed or erroring result caused by a missing dependency becomes ``cannot_judge``
    (intern mode only: a native bootcamp may import nothing beyond the allowlist)."""
    if res.get("status") not in ("failed", "error") or res.get("severity", "reject") != "reject":
        return res
    arts = res.get("artifacts") or {}
    module = missing_dependency(str(arts.get("traceback", "")), str(res.get("reason", "")))
    if module is None:
        return res
    return {**res, "severity": "cannot_judge", "finding": "missing_dependency",
            "reason": f"the audited code needs the module {module}, which is not installed "
                      f"where the sandbox runs ({res.get('reason', '')})",
            "artifacts": {**arts, "missing_module": module}}


def merge(res: dict[str, Any], notes: list[dict[str, Any]]) -> dict[str, Any]:
    """``res`` with the check's notes folded in. A clean result takes the most severe note's
    severity (a convention: status ``failed``; cannot judge: ``error``) and every note's
    reason; a result that already has a finding keeps it and lists the notes as evidence."""
    if not notes:
        return res
    notes = sorted(notes, key=lambda n: NOTE_ORDER.index(n["severity"]))
    arts = dict(res.get("artifacts") or {})
    for n in notes:
        for key, value in n["artifacts"].items():
            arts[key if key not in arts else f"{n['finding']}_{key}"] = value
    said = "; ".join(dict.fromkeys(n["reason"] for n in notes))
    if res.get("status") not in ("passed", "skipped"):
        arts["also_found"] = said
        return {**res, "artifacts": arts}
    top = notes[0]
    status = "error" if top["severity"] == "cannot_judge" else "failed"
    return {**res, "status": status, "severity": top["severity"], "finding": top["finding"],
            "reason": f"{said} (otherwise: {res.get('reason', '')})", "artifacts": arts}


def global_random(source: str) -> list[str]:
    """Calls that draw from a global generator (``random.randint(...)``, a ``randint``
    imported from ``random``, ``np.random.rand(...)``): ``line N: random.randint``."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    modules, numpy, direct = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "random":
                    modules.add(a.asname or "random")
                elif a.name in ("numpy", "numpy.random"):
                    numpy.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level:
            direct |= {a.asname or a.name for a in node.names if a.name in _RANDOM_FUNCTIONS}
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or len(found) >= 5:
            continue
        fn = node.func
        if isinstance(fn, ast.Name) and fn.id in direct:
            found.append(f"line {node.lineno}: {fn.id}")
        elif isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) \
                and fn.value.id in modules and fn.attr in _RANDOM_FUNCTIONS:
            found.append(f"line {node.lineno}: {fn.value.id}.{fn.attr}")
        elif isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Attribute) \
                and fn.value.attr == "random" and isinstance(fn.value.value, ast.Name) \
                and fn.value.value.id in numpy:
            found.append(f"line {node.lineno}: {fn.value.value.id}.random.{fn.attr}")
    return found
