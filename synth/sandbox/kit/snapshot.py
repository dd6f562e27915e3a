"""Tamper snapshots: the contract and the bootcamp class as they were, by identity, and the
checks that tell whether they still are.

The contract is ``synth.bootcamp`` and the modules of ``synth`` it imports, the runner of
reference programs (:func:`contract_modules`). Scores are computed by the contract's
``verify_score`` code bound to a copy of the contract's globals (and of ``builtins``) taken
before the import. The snapshot of the contract is taken then too (:func:`_contract_snapshot`):
the dicts of its modules and of every class they define, their functions, the builtins and
module attributes the contract's code reads; the class's is taken at load. Around every scoring
call the server compares the part a score depends on (:func:`_scoring_intact`), all of it every
:data:`CODE_CHECK_EVERY` calls, and reports any change in the reply (``tampered``), which the
host turns into a finding. The kit's own functions need no snapshot: the server runs on private
copies of them (see the package docstring).
"""

from __future__ import annotations

import gc
import operator
import sys
import types
from typing import Any

from .calls import _S, _failure
from .guard import _G, _enter, _leave
from .wire import _name_of_class, _type_dict, _type_mro

#: How often (in scoring calls) the functions' code objects are compared too.
CODE_CHECK_EVERY = 64
#: The methods a score goes through (where a class inherits them from the contract): the
#: contract globals, builtins and module attributes their code reads are checked at every
#: scoring call. (``verify_score`` itself is on the list of attributes, not of readers: the
#: kit scores with its own copy of its code, bound to the globals taken before the import.)
_SCORING = ("verify_score", "extract_output", "_verify_correction", "reference_answer",
            "check_output")
_SCORING_READERS = _SCORING[1:]

# -- C functions the checks call, taken when the kit is imported (see the package docstring)
_is, _eq, _call = operator.is_, operator.eq, operator.call
_gc_referents = gc.get_referents
_FunctionType, _CodeType = types.FunctionType, types.CodeType
_Namespace = types.SimpleNamespace


def _functions(owner: Any) -> list[tuple[str, Any]]:
    """(label, function) for the plain functions defined in a class dict (class and static
    methods unwrapped)."""
    found = []
    owner_name = _name_of_class(owner)
    for name, value in tuple(_type_dict(owner).items()):
        fn = value.__func__ if type(value) is classmethod or type(value) is staticmethod \
            else value
        if type(fn) is _FunctionType:
            found.append((f"{owner_name}.{name if type(name) is str else '?'}", fn))
    return found


def _snapshot(dicts: list[tuple[str, Any]], views: list[tuple[str, Any, tuple[str, ...]]],
              fns: list[tuple[str, Any]], classes: list[Any],
              cold_dicts: tuple[tuple[str, Any], ...] = (),
              cold_views: tuple[tuple[str, Any, tuple[str, ...]], ...] = ()) -> Any:
    """Identity of what the scoring path relies on, now: mappings (every key and value, in
    order: a replaced, added, removed or re-added attribute changes them), views (some keys of
    a big mapping: the builtins and module attributes the contract reads), functions (code,
    defaults, keyword defaults, closure) and classes (MRO and metaclass). ``dicts``, ``views``
    and the classes are compared at every call; the cold ones and the functions every
    :data:`CODE_CHECK_EVERY` calls and whenever something changed."""
    return _Namespace(
        dicts=[(label, d, tuple(d), tuple(d.values())) for label, d in dicts],
        views=[(label, d, keys, tuple(map(d.get, keys))) for label, d, keys in views],
        cold_dicts=[(label, d, tuple(d), tuple(d.values())) for label, d in cold_dicts],
        cold_views=[(label, d, keys, tuple(map(d.get, keys))) for label, d, keys in cold_views],
        labels=[label for label, _ in fns], fns=[fn for _, fn in fns],
        codes=_read_codes([fn for _, fn in fns]),
        classes=[(c, _type_mro(c), type(c)) for c in classes])


def _read_codes(fns: list[Any]) -> list[Any]:
    out: list[Any] = []
    _enter()
    try:
        for fn in fns:
            out += (fn.__code__, fn.__defaults__, fn.__kwdefaults__, fn.__closure__)
    finally:
        _leave()
    return out


def _dicts_intact(states: list[Any]) -> bool:
    for _, d, keys, values in states:
        if len(d) != len(keys) or not all(map(_is, d.values(), values)) \
                or not all(map(_is, d, keys)):
            return False
    return True


def _views_intact(states: list[Any]) -> bool:
    return all([all(map(_is, map(d.get, keys), values)) for _, d, keys, values in states])


def _classes_intact(states: list[Any]) -> bool:
    return all([_type_mro(c) is mro and type(c) is meta for c, mro, meta in states])


def _intact(snap: Any) -> bool:
    """Everything in a snapshot, by identity: mappings, views, classes, and the functions'
    code, defaults and closures (read in a critical section)."""
    return _dicts_intact(snap.dicts) and _dicts_intact(snap.cold_dicts) \
        and _views_intact(snap.views) and _views_intact(snap.cold_views) \
        and _classes_intact(snap.classes) and all(map(_is, _read_codes(snap.fns), snap.codes))


def _scoring_intact() -> bool:
    """The check before and after every scoring call (no audited reads; two C-level passes):
    everything a score depends on -- the class's own attributes, MRO and metaclass, the
    contract attributes on the scoring path (``verify_score``, ``extract_output``,
    ``_verify_correction``, ... where the class inherits them), the contract globals, builtins
    and module attributes their code reads, and the size of the class dicts, of
    ``BaseBootcamp``'s and of the contract module's (an added global could shadow a builtin).
    The rest of the contract and the functions' code, defaults and closures are compared every
    :data:`CODE_CHECK_EVERY` calls (while the guard is armed, setting code or defaults is
    refused and recorded anyway)."""
    hot = _S.hot
    return all(map(_eq, map(len, hot.sized), hot.sizes)) \
        and all(map(_is, map(_call, hot.getters, hot.keys), hot.values))


def _hot(contract_snap: Any, class_snap: Any, mro: Any) -> Any:
    """What :func:`_scoring_intact` compares, flattened: a getter and a key per value, and the
    values they gave when the snapshots were taken (the contract's: before the import). Class dicts
    are read through the dict behind their mappingproxy (``mappingproxy.get`` is a Python-level
    method call; ``dict.get`` is not). Of the contract: the names its scoring path reads in
    ``BaseBootcamp`` and in its modules, every attribute of the contract classes on that path
    (``CompiledBootcamp``, the runner's stream classes), and the size of every dict."""
    names: set[str] = set()
    reached: list[Any] = []
    for k in mro:
        reads = _S.contract_reads.get(k)
        if reads is not None:
            names.update(reads[0])
            reached += reads[1]
    reached_dicts = [_real_dict(_type_dict(k)) for k in reached if k is not _S.base]
    groups: list[tuple[Any, tuple[Any, ...], tuple[Any, ...]]] = []
    sized = []
    for _, d, keys, values in class_snap.dicts:
        real = _real_dict(d)
        sized.append(real)
        groups.append((real.get, keys, values))
    for label, d, keys, values in contract_snap.cold_dicts:
        real = _real_dict(d)
        sized.append(real)
        if type(d) is not dict and label != "BaseBootcamp":  # a contract class: whole or cold
            if any([real is r for r in reached_dicts]):
                groups.append((real.get, keys, values))
            continue
        pairs = [(k, v) for k, v in zip(keys, values, strict=True)
                 if k in names or (label == "BaseBootcamp" and k in _SCORING)]
        groups.append((real.get, tuple(k for k, _ in pairs), tuple(v for _, v in pairs)))
    contract_dicts = [d for _, d, _, _ in contract_snap.cold_dicts]
    for _, d, keys, values in contract_snap.cold_views:  # builtins, module attributes
        if not any([d is c for c in contract_dicts]):  # (the contract modules' dicts: above)
            pairs = [(k, v) for k, v in zip(keys, values, strict=True) if k in names]
            groups.append((d.get, tuple(k for k, _ in pairs), tuple(v for _, v in pairs)))
    classes = list({id(c): (c, m, t) for c, m, t in contract_snap.classes + class_snap.classes}
                   .values())
    cs = tuple(c for c, _, _ in classes)
    groups.append((_type_mro, cs, tuple(m for _, m, _ in classes)))
    groups.append((type, cs, tuple(t for _, _, t in classes)))
    return _Namespace(sized=tuple(sized), sizes=tuple(map(len, sized)),
                      getters=tuple(g for g, keys, _ in groups for _ in keys),
                      keys=tuple(k for _, keys, _ in groups for k in keys),
                      values=tuple(v for _, _, values in groups for v in values))


def _real_dict(mapping: Any) -> Any:
    """The dict behind a class's mappingproxy (a dict stays itself), read in a critical
    section."""
    if type(mapping) is dict:
        return mapping
    _enter()
    try:
        found = [ref for ref in _gc_referents(mapping) if type(ref) is dict]
    finally:
        _leave()
    if len(found) != 1:
        raise _failure({"kind": "error", "type": "RuntimeError", "traceback": "",
                        "message": "cannot read a class dict (the kit needs the one behind it)"})
    return found[0]


def _changes(snap: Any) -> list[str]:
    """What changed since the snapshot, named (everything is compared)."""
    found: list[str] = []
    for label, d, keys, values in snap.dicts + snap.cold_dicts:
        live = tuple(d)
        if len(live) != len(keys) or not all(map(_is, live, keys)):
            try:
                added = sorted(str(k) for k in set(live) - set(keys))[:5]
                removed = sorted(str(k) for k in set(keys) - set(live))[:5]
                found.append(f"{label}: attributes added {added} / removed {removed}")
            except BaseException:  # keys with a hostile __hash__ or __eq__
                found.append(f"{label}: attributes added or removed")
            continue
        for key, old, new in zip(keys, values, tuple(d.values()), strict=False):
            if old is not new:
                found.append(f"{label}.{key if type(key) is str else '?'} was replaced")
                break
    for label, d, keys, values in snap.cold_views or snap.views:
        replaced = [key for key, old in zip(keys, values, strict=True) if d.get(key) is not old]
        if replaced:
            found.append(f"{label}: {', '.join(replaced[:5])} replaced")
    codes = _read_codes(snap.fns)
    for i, label in enumerate(snap.labels):
        if not all(map(_is, codes[4 * i : 4 * i + 4], snap.codes[4 * i : 4 * i + 4])):
            found.append(f"{label} had its code, defaults or closure replaced")
    for c, mro, meta in snap.classes:
        if _type_mro(c) is not mro or type(c) is not meta:
            found.append(f"{_name_of_class(c)} had its bases or metaclass replaced")
    return found or ["an attribute was removed and added again"]


def _tampered() -> list[str]:
    s = _S
    out: list[str] = []
    for snap in (s.contract_snap, s.class_snap):
        if not _intact(snap):
            out += _changes(snap)
    return out + [f"blocked: {e}" for e in _G.events]


# ------------------------------------------------------------------------------------------
# Taking the contract's snapshot (before the candidate is imported)
# ------------------------------------------------------------------------------------------


def _names_in(code: Any) -> list[str]:
    """Every name a code object (and the code nested in it) refers to."""
    names = list(code.co_names)
    for const in code.co_consts:
        if type(const) is _CodeType:
            names += _names_in(const)
    return names


def _codes_of(module: Any) -> tuple[Any, ...]:
    """The code objects of a module's own functions and classes (nested ones included)."""
    found: list[Any] = []

    def add(code: Any) -> None:
        found.append(code)
        for const in code.co_consts:
            if type(const) is types.CodeType:
                add(const)

    for value in vars(module).values():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        members = list(vars(value).values()) if isinstance(value, type) else [value]
        for member in members:
            if isinstance(member, property):
                fns = [member.fget, member.fset, member.fdel]
            else:
                fns = [getattr(member, "__func__", member)]
            for fn in fns:
                if type(fn) is types.FunctionType:
                    add(fn.__code__)
    return tuple(found)


def contract_modules(contract: Any) -> list[Any]:
    """The modules of the contract: ``contract`` (``synth.bootcamp``) and the modules of its
    package that its functions and classes come from or that it imports, and theirs (found in
    the modules' globals, so a module the contract comes to import is one of them without
    a list to keep). The host ships exactly these into a job
    (:func:`synth.sandbox.methods.contract_files`); the kit snapshots them as one contract,
    and their code may compile and run the module's embedded reference program."""
    prefix = contract.__name__.rpartition(".")[0] + "."
    found = {contract.__name__: contract}
    todo = [contract]
    while todo:
        for value in list(vars(todo.pop()).values()):
            if type(value) is types.ModuleType:
                name = value.__name__
            elif type(value) is types.FunctionType or isinstance(value, type):
                name = value.__module__
            else:
                continue
            module = sys.modules.get(name) if type(name) is str and name.startswith(prefix) \
                else None
            if module is not None and name not in found:
                found[name] = module
                todo.append(module)
    return [found[name] for name in sorted(found)]


def _contract_classes(modules: list[Any]) -> list[Any]:
    """Every class the contract's modules define (``BaseBootcamp``, ``CompiledBootcamp``, the
    runner's stream and error classes, ...), each once, in the modules' order."""
    own = {module.__name__ for module in modules}
    found: dict[int, Any] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ in own:
                found.setdefault(id(value), value)
    return list(found.values())


def _contract_snapshot(env: dict[str, Any], modules: list[Any], base: type,
                       builtins_dict: dict[str, Any]) -> Any:
    """The contract as it is before the import: the dicts of the contract's modules
    (:func:`contract_modules`) and of every class they define (``BaseBootcamp``'s, the runner's
    ``_Output``'s, ...), the builtins, module globals and module attributes the contract's
    code reads (a global added under a builtin's name included), the functions of the modules
    and classes, the classes' MROs and metaclasses. The part a class's scores depend on is
    compared at every call (:func:`_hot`), all of it every :data:`CODE_CHECK_EVERY` calls."""
    names: set[str] = set()
    for module in modules:
        for code in _codes_of(module):
            names.update(_names_in(code))
    scopes = [(module.__name__, vars(module)) for module in modules]
    views = [(label, scope, tuple(sorted(names & (set(scope) | set(builtins_dict)))))
             for label, scope in scopes]
    views.append(("builtins", builtins_dict, tuple(sorted(names & set(builtins_dict)))))
    seen = {id(builtins_dict), *(id(scope) for _, scope in scopes)}
    for _, scope in scopes:
        for gname, value in scope.items():
            if type(value) is types.ModuleType and id(vars(value)) not in seen:
                seen.add(id(vars(value)))
                keys = sorted(n for n in names & set(vars(value)) if not n.startswith("__"))
                if keys:
                    views.append((f"{gname} (module)", vars(value), tuple(keys)))
    classes = [base, *(c for c in _contract_classes(modules) if c is not base)]
    fns = [f for c in classes for f in env["_functions"](c)]
    fns += [(f"{label}.{name}", fn) for label, scope in scopes for name, fn in scope.items()
            if type(fn) is types.FunctionType and fn.__module__ == label]
    class_dicts = [("BaseBootcamp", _type_dict(base))]
    class_dicts += [(f"{c.__module__}.{c.__qualname__}", _type_dict(c)) for c in classes[1:]]
    return env["_snapshot"]([], [], fns, classes, (*class_dicts, *scopes), tuple(views))


def _contract_reads(modules: list[Any]) -> dict[type, tuple[frozenset[str], tuple[type, ...]]]:
    """For each class of the contract: every name its scoring methods (:data:`_SCORING`) read,
    and the functions and classes of the contract they name read (in whichever of the
    contract's modules they live), and so on -- the contract globals, builtins and module
    attributes a score can depend on; with them, the contract classes a score can depend on:
    every class of each contract module that code on the path comes from (an instance's
    attribute -- ``program.remember`` -- leads to a class no name on the path shows: for a
    compiled bootcamp, every class of ``synth.bootcamp`` and of the runner)."""
    out: dict[type, tuple[frozenset[str], tuple[type, ...]]] = {}
    own = {module.__name__ for module in modules}
    classes = _contract_classes(modules)
    for cls in classes:
        names: set[str] = set()
        todo = [fn for name, fn in _plain_functions(cls) if name in _SCORING_READERS]
        seen: set[int] = set()
        on_path = {cls.__module__}
        while todo:
            fn = todo.pop()
            if id(fn) in seen:
                continue
            seen.add(id(fn))
            on_path.add(fn.__module__)
            scope = fn.__globals__
            for name in _names_in(fn.__code__):
                names.add(name)
                value = scope.get(name)
                if type(value) is types.FunctionType:
                    todo.append(value)
                elif isinstance(value, type) and value.__module__ in own:
                    todo += [f for _, f in _plain_functions(value)]
        out[cls] = (frozenset(names), tuple(c for c in classes if c.__module__ in on_path))
    return out


def _plain_functions(cls: type) -> list[tuple[str, Any]]:
    found = []
    for name, value in vars(cls).items():
        fn = getattr(value, "__func__", value)
        if isinstance(value, property):
            fn = value.fget
        if type(fn) is types.FunctionType:
            found.append((name, fn))
    return found
