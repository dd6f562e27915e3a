"""Plain JSON and the protocol's constants: what a case must be, its canonical text, the parser,
the one seed derivation and the one way to find a module's bootcamp class.

The host imports these too (``synth.sandbox.kit``): its comparisons and seeds are the job's.
The encoders and the scanner are the C ones of ``_json``, never the ``json`` module's Python
functions, which a bootcamp could patch: what the server calls of this module reads builtins
and the values taken here only.
"""

from __future__ import annotations

import _json
import hashlib
import math
import types
from typing import Any

#: Inside a sandbox job: the kit's entry point (``argv[0]``: a launcher of a few lines) and the
#: folder that holds the kit's package (every file of ``synth/sandbox/kit``, as it is).
KIT_NAME = "_synth_kit.py"
KIT_PACKAGE = "_synth_kit_pkg"
PROTOCOL = 2
SEED_MASK = (1 << 63) - 1
#: How far the determinism check's second process shifts every clock.
CLOCK_SHIFT_S = 86_400.0 * 400 + 3_723.5
TRACE_CAP = 3000
TEXT_CAP = 4000
#: The server's first line is ``AUTH_OPEN + token + b'"}'``; every later line starts with
#: ``REPLY_OPEN + token + b'",'`` (the token: TOKEN_BYTES random bytes in hex).
AUTH_OPEN = b'{"auth":"'
REPLY_OPEN = b'{"t":"'
TOKEN_BYTES = 12

# -- C functions the server calls, taken when the kit is imported (before any bootcamp code
# runs; see the package docstring) ----------------------------------------------------------
_isfinite = math.isfinite
#: Class and exception attributes read through their C descriptors (a metaclass or an
#: exception class cannot put its own code in the way).
_type_dict = type.__dict__["__dict__"].__get__
_type_mro = type.__dict__["__mro__"].__get__
_type_name = type.__dict__["__name__"].__get__
_exc_traceback = BaseException.__dict__["__traceback__"].__get__


def _not_json(obj: Any) -> Any:
    """The encoders' ``default``: it reads builtins only (it may run once this module's dict
    is empty)."""
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


_CONSTANTS = {"-Infinity": -math.inf, "Infinity": math.inf, "NaN": math.nan}
_SCAN = _json.make_scanner(types.SimpleNamespace(  # type: ignore[arg-type]
    strict=True, object_hook=None, object_pairs_hook=None, parse_float=float, parse_int=int,
    parse_constant=_CONSTANTS.__getitem__, memo={}))
#: json.dumps(obj, sort_keys=True, ensure_ascii=False, allow_nan=False), in C
_ENCODE_CANONICAL = _json.make_encoder(None, _not_json, _json.encode_basestring, None, ": ",
                                       ", ", True, False, False)
#: compact replies, keys in insertion order
_ENCODE_REPLY = _json.make_encoder(None, _not_json, _json.encode_basestring, None, ":", ",",
                                   False, False, False)
_WHITESPACE = " \t\n\r"


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from its parts (sha256 of their text joined by US): the one derivation."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") & SEED_MASK


def find_bootcamp_class(module: Any, base: type, wanted: str = "") -> type:
    """The single bootcamp class a module defines: a subclass of ``base`` defined in the module
    itself (imported helpers do not count), the most derived one when several chain, or the one
    named ``wanted``. Raises ``LookupError`` naming what it found otherwise."""
    name = getattr(module, "__name__", "")
    found = [
        obj
        for key, obj in list(vars(module).items())
        if isinstance(obj, type)
        and issubclass(obj, base)
        and obj is not base
        and getattr(obj, "__module__", None) == name
        and (not wanted or key == wanted)
    ]
    leaves = [c for c in found if not any(o is not c and issubclass(o, c) for o in found)]
    unique = list(dict.fromkeys(leaves))
    if len(unique) != 1:
        names = ", ".join(c.__name__ for c in unique) or "none"
        raise LookupError(f"expected exactly one {base.__name__} subclass, found: {names}")
    return unique[0]


def json_problem(obj: Any, path: str = "case", depth: int = 0) -> str | None:
    """Why ``obj`` would not survive a JSON round trip unchanged, or None (exact types only:
    a subclass could change what JSON or ``==`` sees)."""
    if depth > 200:
        return f"{path} is nested more than 200 levels deep"
    kind = type(obj)
    if obj is None or kind is bool or kind is str:
        return None
    if kind is int:
        if obj.bit_length() > 13_000:  # ~4,000 decimal digits: JSON parsers refuse more
            return f"{path} is an int of {obj.bit_length()} bits (too large for JSON)"
        return None
    if kind is float:
        return None if _isfinite(obj) else f"{path} is {obj!r} (not valid JSON)"
    if kind is list:
        for i, item in enumerate(obj):
            problem = json_problem(item, f"{path}[{i}]", depth + 1)
            if problem:
                return problem
        return None
    if kind is dict:
        for key, item in obj.items():
            if type(key) is not str:
                return f"{path} has a {_name_of(key)} key {_safe_str(key, repr)[:60]} (JSON keys are strings)"
            problem = json_problem(item, f"{path}[{key!r}]", depth + 1)
            if problem:
                return problem
        return None
    hint = " (JSON has lists only: it would come back as a list)" if kind is tuple else ""
    return f"{path} is a {_name_of(obj)}{hint}; use only dict/list/str/int/float/bool/None"


def canonical(obj: Any) -> str:
    """The canonical JSON text of a value (sorted keys, no NaN): what the host compares. The
    same text as ``json.dumps(obj, sort_keys=True, ensure_ascii=False, allow_nan=False)``."""
    return "".join(_ENCODE_CANONICAL(obj, 0))


def loads(text: str | bytes) -> Any:
    """One JSON text (``str``, or UTF-8 ``bytes``) parsed by the C scanner; ``ValueError`` when
    it is not exactly one JSON value."""
    string = text.decode("utf-8", "surrogatepass") if type(text) is bytes else text
    if type(string) is not str:
        raise TypeError("loads() takes a str or UTF-8 bytes")
    start = len(string) - len(string.lstrip(_WHITESPACE))
    try:
        value, end = _SCAN(string, start)
    except StopIteration as exc:
        raise ValueError(f"not JSON at character {exc.value}") from None
    if end != len(string) and string[end:].strip(_WHITESPACE):
        raise ValueError(f"extra data after the JSON value (character {end})")
    return value


def _name_of(obj: Any) -> str:
    """The name of ``obj``'s type (read through the C descriptor)."""
    name = _type_name(type(obj))
    return name if type(name) is str else "?"


def _name_of_class(cls: Any) -> str:
    name = _type_name(cls)
    return name if type(name) is str else "?"


def _safe_str(value: Any, how: Any = str) -> str:
    """``str(value)`` (or ``how(value)``), or a placeholder when that raises or is not a str."""
    try:
        text = how(value)
    except BaseException:  # a hostile __str__ (or __repr__)
        return "<unprintable>"
    return text if type(text) is str else "<unprintable>"
