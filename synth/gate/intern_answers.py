"""Answers the audit of InternBootcamp-style classes offers a verifier that has no reference
answer. Trusted host code: pure functions of a case, its prompt and the module's source; the
sandboxed module only scores what these produce, and the host judges the scores
(:mod:`synth.gate.intern_probes`).

* :func:`answer_formats` -- the answer tags the prompts ask for ([answer], [[...]], ...);
* answers that do not depend on the case: :data:`TRIVIAL`, :func:`vocabulary` (the literal
  word and number lists of the module's own source), :func:`template_tokens` (words every
  prompt shares), :func:`sequences` (``1 2 ... k`` for a k every prompt shows) and
  :func:`frequent_values` (a case field's most frequent value);
* :func:`case_probes` -- answers made of one case's own values: every field rendered the ways
  an answer could spell it (integers also in binary), lists as given, reversed, ascending and
  descending, ``1..n`` for a count ``n`` shown in the prompt;
* :func:`canary_payloads` -- responses that import the kit's canary module when executed.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections import Counter
from typing import Any, NamedTuple

from synth.sandbox.kit import CANARY
from synth.text import pyast

__all__ = ["TAGS", "TRIVIAL", "Probe", "answer_formats", "answer_like", "canary_payloads",
           "case_probes", "examples", "frequent_values", "items_of", "mapping_probes", "render",
           "sequences", "shown", "template_tokens", "vocabulary", "wrap"]

#: Answer tags InternBootcamp modules use, the most common first.
TAGS: tuple[tuple[str, str], ...] = (("[answer]", "[/answer]"), ("[[", "]]"),
                                     ("<answer>", "</answer>"), ("\\boxed{", "}"))
#: Answers that fit many tasks and answer none of them by chance on (nearly) every case.
TRIVIAL: tuple[str, ...] = ("0", "1", "2", "-1", "", "yes", "no", "Yes", "No", "YES", "NO",
                            "true", "false", "True", "False", "0 0", "1 1", "0 0 0", "[]",
                            "none", "None", "impossible", "是", "否")
#: Name parts of a case field that holds the answer (a stored solution may stay hidden).
ANSWER_WORDS = frozenset({"answer", "answers", "ans", "solution", "solutions", "sol", "expected",
                          "result", "results", "correct", "gold", "truth", "target", "label",
                          "labels", "output", "outputs", "reference", "ref", "goal"})
MAX_TEXT = 2000


class Probe(NamedTuple):
    """One answer made of a case's values: the answer text, the field it came from and how
    (``value``, ``leaf``, ``binary``, ``given``, ``reversed``, ``ascending``, ``descending``,
    ``count_up``, ``count_down``, ``example``)."""

    answer: str
    field: str
    kind: str


def answer_like(name: str) -> bool:
    """A field name that says it holds the answer (``correct_answer``, ``expected``, ...)."""
    return any(part in ANSWER_WORDS for part in re.split(r"[^a-z]+", name.lower()) if part)


def answer_formats(prompts: list[str]) -> list[tuple[str, str]]:
    """The answer tags at least half of the prompts name, or every tag of :data:`TAGS` (and
    the bare answer) when none does."""
    if not prompts:
        return [*TAGS, ("", "")]
    found = [t for t in TAGS if 2 * sum(t[0] in p and t[1] in p for p in prompts) >= len(prompts)]
    return found or [*TAGS, ("", "")]


def wrap(answer: str, fmt: tuple[str, str]) -> str:
    return fmt[0] + answer + fmt[1]


def examples(prompt: str, fmt: tuple[str, str], limit: int = 5) -> list[str]:
    """The answers a prompt shows in its answer tags: for each closing tag, the text after the
    last opening tag before it ("put it in [answer] tags, like [answer]First[/answer]" shows
    ``First``)."""
    open_, close = fmt
    found: list[str] = []
    start = 0
    while open_ and close and len(found) < limit:
        end = prompt.find(close, start)
        if end < 0:
            break
        at = prompt.rfind(open_, start, end)
        if at >= 0:
            found.append(prompt[at + len(open_):end].strip())
        start = end + len(close)
    return [e for e in dict.fromkeys(found) if len(e) <= MAX_TEXT]


def items_of(answer: str) -> tuple[str, ...]:
    """The elements of a list answer, however it is spelled (spaces, commas, JSON)."""
    return tuple(re.findall(r"[^\s,\[\]\"'()]+", answer))


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


def render(value: Any) -> list[str]:
    """A value as an answer could spell it: its text; a list also space- and comma-separated,
    as a tuple and as JSON."""
    if isinstance(value, bool) or value is None:
        out = [json.dumps(value), str(value)]
    elif isinstance(value, int):
        out = [str(value)]
    elif isinstance(value, float):
        out = [str(int(value))] if value.is_integer() else []
        out.append(repr(value))
    elif isinstance(value, str):
        out = [value]
    else:
        text = json.dumps(value, ensure_ascii=False)
        out = [text]
        if isinstance(value, list) and value and all(_scalar(x) for x in value):
            items = [str(x) for x in value]
            out += [" ".join(items), ",".join(items), ", ".join(items),
                    "(" + ", ".join(items) + ")"]
    return [r for r in dict.fromkeys(out) if len(r) <= MAX_TEXT]


_TOKEN = re.compile(r"-?\d+(?:\.\d+)?|[^\W_]+")


def _token_list(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _tokens(text: str) -> set[str]:
    return set(_token_list(text))


def _text(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def shown(value: Any, prompt: str, tokens: set[str] | None = None) -> bool:
    """Does the prompt show ``value``? A scalar as a whole token (or its text, when it has
    several tokens); a list as a run of tokens in its order -- words of three letters or more
    may have other words between them ("Ashby is 12 km away; Brill is ..."), short items
    (digits, letters) must follow each other, or any 0/1 list would be "shown" by a prompt
    that mentions 0 and 1."""
    tokens = _tokens(prompt) if tokens is None else tokens
    if isinstance(value, list):
        if not value or not all(_scalar(x) and not isinstance(x, bool) and x is not None
                                for x in value):
            return False
        items = [_text(x) for x in value]
        if any(len(_token_list(x)) != 1 for x in items):
            return all(shown(x, prompt, tokens) for x in value)
        order = _token_list(prompt)
        if all(len(x) >= 3 and not x.lstrip("-").replace(".", "").isdigit() for x in items):
            it = iter(order)
            return all(any(t == x for t in it) for x in items)
        size = len(items)
        return any(order[i:i + size] == items for i in range(len(order) - size + 1))
    if isinstance(value, dict) or value is None or isinstance(value, bool):
        return False
    text = _text(value)
    if not text.strip():
        return False
    parts = _token_list(text)
    if len(parts) == 1 and text.strip() == parts[0]:
        return parts[0] in tokens
    return text in prompt


def _sortable(items: list[Any]) -> bool:
    kinds = {type(x) for x in items}
    return kinds <= {int, float} or kinds == {str}


def _arrangements(items: list[Any]) -> list[tuple[str, list[Any]]]:
    out = [("given", items), ("reversed", items[::-1])]
    if _sortable(items):
        out += [("ascending", sorted(items)), ("descending", sorted(items, reverse=True))]
    return out


def _spell(items: list[Any]) -> list[str]:
    """A list answer: space-separated, and as a JSON list."""
    return [" ".join(str(x) for x in items), json.dumps(items, ensure_ascii=False)]


def _sources(case: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    """Lists of a case an answer may arrange: a top-level list of scalars, and the first
    column of a list of lists (``[[name, km], ...]`` -> the names)."""
    found: list[tuple[str, list[Any]]] = []
    for key, value in case.items():
        if not isinstance(value, list) or not 2 <= len(value) <= 60:
            continue
        if all(_scalar(x) and not isinstance(x, bool) and x is not None for x in value):
            found.append((key, value))
        elif all(isinstance(x, list) and x and _scalar(x[0]) for x in value):
            found.append((f"{key}[*][0]", [x[0] for x in value]))
    return found


def case_probes(case: Any, prompt: str, formats: list[tuple[str, str]]) -> list[Probe]:
    """Answers made of one case's values and of its prompt's format examples (see the module
    docstring), without repeats; only arrangements of what the prompt shows."""
    probes: list[Probe] = []
    tokens = _tokens(prompt)
    shown_examples = [e for fmt in formats for e in examples(prompt, fmt)]
    probes += [Probe(e, f"example {n}", "example")
               for n, e in enumerate(dict.fromkeys(shown_examples), 1)]
    if not isinstance(case, dict):
        return probes
    for key, value in list(case.items())[:12]:
        probes += [Probe(r, key, "value") for r in render(value)]
        if isinstance(value, int) and not isinstance(value, bool) and value >= 2:
            probes.append(Probe(format(value, "b"), key, "binary"))
        if isinstance(value, dict):
            leaves = [(k, v) for k, v in value.items() if _scalar(v)][:6]
            probes += [Probe(r, f"{key}.{k}", "leaf") for k, v in leaves for r in render(v)]
        if isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= 40 \
                and str(value) in tokens:
            up = list(range(1, value + 1))
            probes += [Probe(t, key, "count_up") for t in _spell(up)]
            probes += [Probe(t, key, "count_down") for t in _spell(up[::-1])]
    for key, items in _sources(case):
        if not shown(items, prompt, tokens):
            continue
        for kind, arranged in _arrangements(items):
            probes += [Probe(t, key, kind) for t in _spell(arranged)]
    seen: set[str] = set()
    unique = []
    for p in probes:
        if p.answer not in seen and len(p.answer) <= MAX_TEXT:
            seen.add(p.answer)
            unique.append(p)
    return unique


def mapping_probes(case: Any, limit: int = 12) -> list[str]:
    """A case's mappings (a dict of strings to strings: a cipher's table) applied to its texts,
    forwards and backwards, letter by letter and word by word."""
    if not isinstance(case, dict):
        return []
    tables = [v for v in case.values() if isinstance(v, dict) and v
              and all(isinstance(a, str) and isinstance(b, str) for a, b in v.items())][:3]
    texts = [v for v in case.values() if isinstance(v, str) and v.strip()][:4]
    out: list[str] = []
    for table in tables:
        for mapping in (table, {b: a for a, b in table.items()}):
            for text in texts:
                out.append("".join(mapping.get(ch, ch) for ch in text))
                out.append(" ".join(mapping.get(w, w) for w in text.split()))
    return [t for t in dict.fromkeys(out) if len(t) <= MAX_TEXT][:limit]


def vocabulary(source: str, limit: int = 60) -> list[str]:
    """The words and numbers of the module's own literal collections (lists, tuples, sets of
    string or number constants; the string keys of dict literals), round-robin over the
    collections, at most ``limit``."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    groups: list[list[str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None]
        else:
            continue
        values = [n.value for n in items if isinstance(n, ast.Constant)]
        if len(values) < 2 or len(values) != len(items):
            continue
        words = [str(v) for v in values if isinstance(v, str | int) and not isinstance(v, bool)
                 and 0 < len(str(v)) <= 40 and "\n" not in str(v)]
        if words:
            groups.append(words)
    out: list[str] = []
    for rank in range(max((len(g) for g in groups), default=0)):
        for group in groups:
            if rank < len(group) and group[rank] not in out and len(out) < limit:
                out.append(group[rank])
    return out


def template_tokens(prompts: list[str], limit: int = 40) -> list[str]:
    """Words and numbers that (nearly) every prompt shares: the template's, not a case's."""
    if not prompts:
        return []
    counts = Counter(t for p in prompts for t in _tokens(p) if len(t) <= 20)
    need = max(1, math.ceil(0.9 * len(prompts)))
    common = [t for t, n in counts.most_common() if n >= need]
    common.sort(key=lambda t: (not t.lstrip("-").isdigit(), len(t) < 2, t))
    return common[:limit]


def sequences(tokens: list[str]) -> list[str]:
    """``1 2 ... k`` (and backwards, and from 0) for each small number ``k`` every prompt
    shows: the answer of a task that wants an order of k things, when any order is taken."""
    out: list[str] = []
    for token in tokens:
        if re.fullmatch(r"[0-9]{1,2}", token) and 2 <= int(token) <= 12:
            k = int(token)
            up, zero = [str(n) for n in range(1, k + 1)], [str(n) for n in range(k)]
            out += [" ".join(up), " ".join(up[::-1]), " ".join(zero)]
    return list(dict.fromkeys(out))


def frequent_values(cases: list[Any]) -> list[str]:
    """Each top-level field's most frequent value (rendered), where it repeats."""
    counts: dict[str, Counter[str]] = {}
    for case in cases:
        if isinstance(case, dict):
            for key, value in list(case.items())[:20]:
                text = json.dumps(value, sort_keys=True, ensure_ascii=False)
                if len(text) <= MAX_TEXT:
                    counts.setdefault(key, Counter())[text] += 1
    out: list[str] = []
    for counter in counts.values():
        text, n = counter.most_common(1)[0]
        if n >= 2:
            out += render(json.loads(text))
    return list(dict.fromkeys(out))


def canary_payloads(case: Any, limit: int = 3) -> list[str]:
    """Answers that, when a verifier executes them (``eval``, ``exec``), import the kit's
    canary module (which the guard records) and then evaluate to something plausible: 0, the
    case's numbers added up (a verifier may first check which numbers an expression uses),
    and the case's first list."""
    tails = ["0"]
    if isinstance(case, dict):
        numbers = [v for v in case.values() if isinstance(v, int) and not isinstance(v, bool)]
        for value in case.values():
            if isinstance(value, list) and value and all(isinstance(x, int) and not isinstance(
                    x, bool) for x in value):
                numbers = value
                tails.append(json.dumps(value))
                break
        if numbers:
            tails.insert(1, "+".join(str(n) for n in numbers[:12]))
    return [f"__import__('{CANARY}') or {t}" for t in dict.fromkeys(tails)][:limit]
