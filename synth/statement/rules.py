"""The rules an Input section states: chains of bounds, bounds in words, sums over test cases,
alphabets of strings, and guarantees (distinct, permutation, sorted, tree, ...), each with the
words it came from; a phrase that looks like a rule but cannot be read goes to ``not_checked``."""

from __future__ import annotations

import re

from synth.statement.answers import answer_guaranteed
from synth.statement.shapes import InputSpec, Line, Rule
from synth.statement.text import (
    IDENT,
    NOT_NAMES,
    NUMBER_WORDS,
    Expr,
    base_name,
    names_of,
    parse_expr,
)

# -- rules -----------------------------------------------------------------------------------

_REL = re.compile(r"(≤|≥|≠|<|>)")
_OPERAND = r"[A-Za-z0-9_|*^+\-/().]+(?:\s*[*^+\-/]\s*[A-Za-z0-9_|().]+)*"
_LIST = re.compile(r"^\s*(" + IDENT + r"(?:\s*,\s*" + IDENT + r")+)\s*$")
_SEQ_OPERAND = re.compile(r"^\s*(" + IDENT + r")\s*,\s*(?:" + IDENT + r"\s*,\s*)*\.\.\.\s*,?\s*(" +
                          IDENT + r")\s*$")


def _operand(text: str) -> list[Expr] | None:
    text = text.strip()
    if not text:
        return None
    m = _SEQ_OPERAND.match(text)
    if m is not None and base_name(m.group(1)) == base_name(m.group(2)):
        return [Expr("var", name=base_name(m.group(1)))]
    m = _LIST.match(text)
    if m is not None:
        return [Expr("var", name=base_name(n.strip())) for n in m.group(1).split(",")]
    e = parse_expr(text.strip("()") if text.count("(") != text.count(")") else text)
    return [e] if e is not None else None


_SPECIFIC = re.compile(r"\b[A-Za-z]+_(?:\d+|[a-z]\s*[-+]\s*\d+|[a-z]{2,})\b")


_DIR = {"≤": 1, "<": 1, "≥": -1, ">": -1}


def chains(text: str) -> list[tuple[str, list[list[Expr]], list[str]]]:
    """Every chain of relations in ``text``: (its words, operands, relations)."""
    parts = _REL.split(text)
    out: list[tuple[str, list[list[Expr]], list[str]]] = []
    ops: list[str] = []
    operands: list[list[Expr]] = []
    words_start = 0
    pos = 0

    def close(end: int) -> None:
        nonlocal ops, operands
        if ops and len(operands) == len(ops) + 1:
            out.append((text[words_start:end].strip(), operands, ops))
        ops, operands = [], []

    for k in range(0, len(parts), 2):
        seg = parts[k]
        seg_start = pos
        pos += len(seg)
        rel = parts[k + 1] if k + 1 < len(parts) else None
        # a middle segment is a whole operand ("n, m" of "1 ≤ n, m ≤ 500") unless the
        # relation turns there ("1 ≤ u, v ≤ n, u ≠ v": "n, u" ends one chain, starts another)
        turns = rel is not None and ops and (rel == "≠" or _DIR.get(rel) != _DIR.get(ops[-1]))
        whole = _operand(seg) if k > 0 and rel is not None and not (
            turns and "," in seg) else None
        if whole is not None:
            operands.append(whole)
        else:
            if k > 0:  # the end of the chain before: the segment's head
                hm = re.match(r"\s*(" + _OPERAND + r")", seg)
                head = _operand(hm.group(1).rstrip(".")) if hm else None
                if head is not None:
                    operands.append(head)
                    close(seg_start + hm.end() if hm else seg_start)
                else:
                    close(seg_start)
            if rel is not None:  # the start of the next: the segment's tail
                tm = re.search(r"(" + _OPERAND + r"(?:\s*,\s*" + IDENT + r")*)\s*$", seg)
                tail = _operand(tm.group(1)) if tm and not turns else None
                if tail is None and tm:
                    tail = _operand(tm.group(1).split(",")[-1])
                operands, ops = ([tail] if tail is not None else []), []
                words_start = seg_start + (tm.start(1) if tm else len(seg))
        if rel is not None:
            if not operands:
                ops, operands = [], []
                pos += len(rel)
                continue
            ops.append(rel)
            pos += len(rel)
    close(len(text))
    return out


_WNAME = r"(?:\|" + IDENT + r"\||" + IDENT + r")"
WORD_BOUNDS = [
    (re.compile(r"(?P<names>" + _WNAME + r"(?:\s*(?:,|and)\s*" + _WNAME + r")*)\s+(?:does|do|will|"
                r"shall|must)\s+not\s+exceed\s+(?P<v>" + _OPERAND + r")", re.I), "≤"),
    (re.compile(r"(?P<names>" + _WNAME + r"(?:\s*(?:,|and)\s*" + _WNAME + r")*)\s+(?:is|are|will\s+be)"
                r"\s+(?:at\s+most|not\s+greater\s+than|no\s+(?:more|greater|larger)\s+than|"
                r"not\s+larger\s+than)\s+(?P<v>" + _OPERAND + r")", re.I), "≤"),
    (re.compile(r"(?P<names>" + _WNAME + r"(?:\s*(?:,|and)\s*" + _WNAME + r")*)\s+(?:is|are|will\s+be)"
                r"\s+(?:at\s+least|not\s+(?:less|smaller)\s+than|no\s+(?:less|smaller)\s+than)\s+"
                r"(?P<v>" + _OPERAND + r")", re.I), "≥"),
]
_SIGNED = re.compile(r"(?P<names>" + _WNAME + r"(?:\s*(?:,|and)\s*" + _WNAME + r")*)\s+(?:is|are)\s+"
                     r"(?:a\s+)?(?:strictly\s+)?(?P<sign>positive|non-?negative)(?:\s+integers?)?"
                     r"(?:\s*(?:,|and)\s*(?:(?:does|do)\s+not\s+exceed|(?:is|are)\s+at\s+most|"
                     r"(?:is|are)\s+not\s+greater\s+than|≤)\s+(?P<v>" + _OPERAND + r"))?", re.I)
_LEAST_MOST = re.compile(r"(?P<names>" + _WNAME + r")\s+(?:is|are)\s+(?:at\s+least|not\s+(?:less|smaller)\s+"
                         r"than|no\s+less\s+than)\s+(?P<a>-?" + _OPERAND + r")\s*(?:,|and|but)\s*(?:does\s+"
                         r"not\s+exceed|(?:is\s+)?at\s+most|(?:is\s+)?not\s+(?:greater|larger|more)\s+"
                         r"than|(?:is\s+)?no\s+(?:greater|larger|more)\s+than)\s+(?P<b>-?" + _OPERAND + r")",
                         re.I)
BETWEEN = re.compile(r"(?P<names>" + _WNAME + r"(?:\s*(?:,|and)\s*" + _WNAME + r")*)\s+(?:is|are|"
                      r"lies?|will\s+be)\s+(?:\w+\s+)?(?:in\s+the\s+range\s+from|between|from)\s+"
                      r"(?P<a>-?" + _OPERAND + r")\s+(?:and|to)\s+(?P<b>-?" + _OPERAND + r")", re.I)
_RANGE = re.compile(r"(?P<names>" + IDENT + r")\s+(?:is|are|lies?)\s+in\s+(?:the\s+)?(?:range\s+)?"
                    r"\[\s*(?P<a>-?" + _OPERAND + r")\s*,\s*(?P<b>-?" + _OPERAND + r")\s*\]", re.I)


def word_names(text: str) -> list[str]:
    return [n if n.startswith("|") else base_name(n) for n in re.split(r"\s*(?:,|\band\b)\s*", text)
            if n and n.lower() not in NOT_NAMES]


def _target(name: str) -> Expr:
    return Expr("len", name=name.strip("|")) if name.startswith("|") else Expr("var", name=name)


_LENGTH_OF = re.compile(r"\b(?:the\s+)?(?:length|size)\s+of\s+(?:the\s+)?(?:string\s+|array\s+|"
                        r"word\s+)?([A-Za-z][A-Za-z0-9]*)\b(?!\s+(?:is\s+)?(?:equal|the))")


_ALPHABETS = [
    (re.compile(r"lower[- ]?case\s+(?:latin\s+|english\s+)?letters", re.I), "abcdefghijklmnopqrstuvwxyz"),
    (re.compile(r"upper[- ]?case\s+(?:latin\s+|english\s+)?letters|capital\s+(?:latin\s+|english\s+)?"
                r"letters", re.I), "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    (re.compile(r"\bbinary\s+string|\bonly\s+(?:of\s+)?(?:the\s+)?(?:digits|characters)\s+'?0'?\s+"
                r"(?:and|or)\s+'?1'?|\bzeros\s+and\s+ones", re.I), "01"),
    (re.compile(r"\b(?:decimal\s+)?digits\b(?!\s+'?\d)", re.I), "0123456789"),
]
_QUOTED_SET = re.compile(r"(?:consist(?:s|ing)?\s+(?:only\s+)?of|only\s+(?:of|contains?)|"
                         r"each\s+of\s+which\s+is(?:\s+either)?|(?:is|are)\s+either|"
                         r"characters?|letters?|symbols?|each\s+(?:character|symbol)\s+is)\s+"
                         r"(?:only\s+)?(?:the\s+)?(?:characters?\s+|letters?\s+|symbols?\s+)?"
                         r"((?:[\"'“‘`].[\"'”’`]\s*(?:,|or|and|,\s*or|,\s*and)?\s*){2,})", re.I)
_QUOTED = re.compile(r"[\"'“‘`](.)[\"'”’`]")


def _guarantee_target(sent: str, spec: InputSpec, context: Line | None,
                      kinds: tuple[str, ...]) -> list[str]:
    names = spec.names()
    mentioned = [n for n in dict.fromkeys(base_name(x) for x in re.findall(IDENT, sent))
                 if names.get(n) in kinds]
    if mentioned:
        return mentioned
    if context is not None:
        own = [it.name for it in context.items
               if names.get(it.name) in kinds]
        if own:
            return own
    every = [n for n, k in names.items() if k in kinds]
    return every if len(every) == 1 else []


def _edges(spec: InputSpec, context: Line | None) -> tuple[str, str] | None:
    lines = ([context] if context is not None else []) + [ln for ln in spec.head + spec.block
                                                          if ln.repeat is not None]
    for ln in lines:
        ints = [it.name for it in ln.items if it.kind == "int" and it.count is None]
        if ln.repeat is not None and len(ints) >= 2:
            return ints[0], ints[1]
    return None


def read_rules(spec: InputSpec, sents: list[str], full_text: str) -> None:
    names = spec.names()
    lines = spec.head + spec.block
    context: Line | None = None
    for sent in sents:
        for ln in lines:
            if ln.words == sent:
                context = ln
        low = sent.lower()
        before = len(spec.rules) + len(spec.not_checked)
        restored: dict[str, str] = {}
        work = _LENGTH_OF.sub(lambda m: f"|{m.group(1)}|" if m.group(1).lower() not in NOT_NAMES
                              else m.group(0), sent)
        own_strings = [it.name for it in (context.items if context else []) if it.kind == "str"]
        if len(own_strings) == 1:
            work = re.sub(r"\b(?:its|the\s+word's|the\s+string's)\s+(?:length|size)\b",
                          f"|{own_strings[0]}|", work, flags=re.I)
        # sums over test cases
        for m in re.finditer(r"(?:the\s+)?(?:sum|total)\s+(?:of\s+)?(?:the\s+)?(?:values\s+of\s+)?"
                             r"(?:all\s+)?(?P<x>\|?" + IDENT + r"\|?(?:\s*\*\s*" + IDENT + r")?|"
                             r"lengths?\s+of\s+(?:all\s+)?(?:the\s+)?(?:strings?\s+)?(?P<s>" +
                             IDENT + r")?)\s*(?:,\s*)?(?:over|for|across|in|of)?\s*(?:all\s+)?"
                             r"(?:the\s+)?(?:test\s*cases|tests|testcases|queries|data\s*sets)?"
                             r"[^.]*?(?:does\s+not\s+exceed|is\s+(?:at\s+most|not\s+greater\s+than|"
                             r"no\s+more\s+than|less\s+than\s+or\s+equal\s+to|bounded\s+by)|≤|<)\s*"
                             r"(?P<v>" + _OPERAND + r")", work, re.I):
            x = m.group("x")
            if x and x.lower().startswith("length"):
                x = None
            if x is None:
                strs = [n for n, k in names.items() if k in ("string", "strings")]
                named = m.group("s") if m.group("s") in names else None
                x = f"|{named or (strs[0] if len(strs) == 1 else '')}|"
            expr, cap = parse_expr(x), parse_expr(m.group("v").rstrip("."))
            strict = "<" in m.group(0) and "≤" not in m.group(0)
            many = expr is not None and any(names.get(n.strip("|")) in ("strings", "array")
                                            for n in names_of(expr))
            if expr is not None and cap is not None and (spec.tests is not None or many):
                spec.rules.append(Rule("sum", m.group(0).strip(), {"expr": expr, "cap": cap,
                                                                   "strict": strict}))
            else:
                spec.not_checked.append(m.group(0).strip())
            work = work.replace(m.group(0), " ")
        # sorted: a_1 < a_2 < ... < a_n
        for m in re.finditer(r"(" + IDENT + r")\s*(<|≤|>|≥)\s*(" + IDENT + r")\s*(?:<|≤|>|≥)\s*"
                             r"\.\.\.\s*(?:<|≤|>|≥)\s*(" + IDENT + r")", work):
            base = base_name(m.group(1))
            if base_name(m.group(3)) == base and names.get(base) == "array":
                spec.rules.append(Rule("sorted", m.group(0), {"name": base, "rel": m.group(2)}))
            else:
                spec.not_checked.append(m.group(0))
            # "0 ≤ a_1 < ... < a_n ≤ 10^9": the bounds around it hold for every element
            work = work.replace(m.group(0), f" {base}_i ")
            restored[f" {base}_i "] = m.group(0)
        for m in re.finditer(r"(?:sorted|given|arranged|listed)?\s*in\s+(strictly\s+)?(increasing|"
                             r"ascending|non-?decreasing|decreasing|descending|non-?increasing)\s+"
                             r"order|\b(strictly\s+)?(increasing|decreasing)\b(?=\s+(?:sequence|"
                             r"order|array|list|integers|numbers))|\bare\s+(strictly\s+)?(increasing|"
                             r"decreasing|sorted)\b", work, re.I):
            word = (m.group(2) or m.group(4) or m.group(6) or "").lower()
            strict = bool(m.group(1) or m.group(3) or m.group(5)) or (
                word in ("increasing", "ascending", "decreasing", "descending")
                and "distinct" in low)
            rel = {"increasing": "≤", "ascending": "≤", "sorted": "≤", "non-decreasing": "≤",
                   "nondecreasing": "≤", "decreasing": "≥", "descending": "≥",
                   "non-increasing": "≥", "nonincreasing": "≥"}[word]
            if strict:
                rel = "<" if rel == "≤" else ">"
            targets = _guarantee_target(sent, spec, context, ("array",))
            for t in targets:
                spec.rules.append(Rule("sorted", m.group(0).strip(), {"name": t, "rel": rel}))
            if not targets:
                spec.not_checked.append(m.group(0).strip())
        for m in re.finditer(r"\b([A-Za-z]+)_([a-z])\s*≠\s*\1_([a-z])\b(?:\s*\(\s*\2\s*≠\s*\3\s*\))?",
                             work):
            if names.get(m.group(1)) in ("array", "strings") and m.group(2) != m.group(3):
                spec.rules.append(Rule("distinct", m.group(0), {"names": [m.group(1)]}))
            work = work.replace(m.group(0), " ")
        # permutation
        if re.search(r"\bpermutation\b", low):
            targets = _guarantee_target(sent, spec, context, ("array",))
            for t in targets[:1]:
                spec.rules.append(Rule("permutation", sent, {"name": t}))
        # distinct
        if re.search(r"\b(?:are|be)\s+(?:all\s+)?(?:pairwise\s+)?(?:distinct|different)\b|"
                     r"\bpairwise\s+(?:distinct|different)\b|\bdistinct\s+(?:integers|numbers|values|"
                     r"elements|positions|strings|words|points|vertices|cells)\b|\ball\s+(?:the\s+)?"
                     r"(?:\w+\s+)?(?:are\s+)?(?:distinct|different)\b|\bno\s+two\s+\w+(?:\s+\w+)?\s+"
                     r"(?:are\s+)?(?:equal|the\s+same|coincide)", low) and \
                not re.search(r"not\s+necessarily\s+(?:distinct|different)|may\s+(?:be\s+)?"
                              r"(?:equal|coincide|repeat)|number\s+of\s+distinct", low):
            pairish = re.search(r"\bpairs?\b|\bpoints?\b|\bedges?\b|\bsegments?\b|\bcells?\b", low)
            targets = _guarantee_target(sent, spec, context, ("array", "strings"))
            if pairish and len(targets) >= 2:
                spec.rules.append(Rule("distinct", sent, {"names": targets}))
            else:
                for t in targets:
                    spec.rules.append(Rule("distinct", sent, {"names": [t]}))
            if not targets:
                spec.not_checked.append(sent)
        # graphs
        edge_pair = _edges(spec, context)
        if re.search(r"\b(?:form|forms|is|are|describes?|makes?|constitutes?|represents?|is\s+given\s+as)"
                     r"\s+(?:a|an)\s+(?:\w+\s+)?tree\b|\bgraph\s+is\s+a\s+tree|\bthe\s+tree\b.*\bedges?\b|"
                     r"\bedges\s+of\s+(?:a|the)\s+tree\b", low) and edge_pair:
            spec.rules.append(Rule("tree", sent, {"edges": edge_pair}))
        elif re.search(r"\bis\s+connected\b|\bconnected\s+graph\b|\bany\s+two\s+\w+\s+are\s+connected|"
                       r"reach\s+any\s+\w+\s+from\s+any|(?:every|each|any)\s+\w+\s+(?:can\s+be\s+"
                       r"reached|is\s+reachable)\s+from\s+(?:every|any|each|\w+\s+1\b)", low) and \
                edge_pair and \
                not re.search(r"not\s+(?:necessarily\s+)?connected|disconnected", low):
            spec.rules.append(Rule("connected", sent, {"edges": edge_pair}))
        if edge_pair and re.search(r"\bno\s+\w+\s+(?:leads|goes|connects|joins|links)\s+(?:from\s+)?"
                                   r"(?:a|an|any|some)\s+\w+\s+(?:to|with)\s+itself|"
                                   r"\bno\s+(?:self[- ]?loops|loops)\b|\bwithout\s+(?:self[- ]?loops|"
                                   r"loops)\b|\bnot?\s+contain\s+(?:any\s+)?(?:self[- ]?loops|loops)|"
                                   r"\bsimple\s+graph\b|\bno\s+edge\s+connects\s+a\s+vertex\s+(?:to|with)"
                                   r"\s+itself", low):
            spec.rules.append(Rule("no_self_loops", sent, {"edges": edge_pair}))
        if edge_pair and re.search(r"\bno\s+(?:multiple|parallel|repeated|duplicate|multi)[- ]?edges\b|"
                                   r"(?:no|without|neither|not\s+contain(?:\s+any)?)\s+(?:self[- ]?loops|"
                                   r"loops)\s*(?:,|or|and|nor)\s*(?:multiple|parallel|repeated|duplicate|"
                                   r"multi)[- ]?edges|"
                                   r"\bwithout\s+(?:multiple|parallel|repeated|duplicate)\s+edges|"
                                   r"\bsimple\s+graph\b|no\s+two\s+edges\s+(?:connect|join|are)|"
                                   r"(?:each|every|any)\s+(?:unordered\s+)?pair\b[^.]{0,80}?\bat\s+most\s+"
                                   r"(?:one|once)\b|\bno\s+(?:multiple|parallel|repeated|duplicate)\s+"
                                   r"(?:links|roads|streets|connections|wires|pipes|paths|cables|bridges|"
                                   r"trails|corridors|flights|routes)\b|\bedges\s+are\s+(?:pairwise\s+)?"
                                   r"distinct|not?\s+contain\s+(?:any\s+)?(?:multiple|parallel)\s+edges",
                                   low):
            spec.rules.append(Rule("no_multi_edges", sent, {"edges": edge_pair}))
        # letters
        for pat, letters in _ALPHABETS:
            if pat.search(sent) and (targets := _guarantee_target(sent, spec, context,
                                                                  ("string", "strings"))):
                for t in targets:
                    spec.rules.append(Rule("alphabet", sent, {"name": t, "letters": letters}))
                break
        else:
            mq = _QUOTED_SET.search(sent)
            if mq and (targets := _guarantee_target(sent, spec, context, ("string", "strings"))):
                letters = "".join(_QUOTED.findall(mq.group(1)))
                for t in targets:
                    spec.rules.append(Rule("alphabet", sent, {"name": t, "letters": letters}))
        for m in re.finditer(r"\bexactly\s+(one|two|\d+)\s+(?:character\s+|letter\s+|symbol\s+|"
                             r"occurrences?\s+of\s+)?[\"'“‘`](.)[\"'”’`]", sent, re.I):
            targets = _guarantee_target(sent, spec, context, ("string", "strings"))
            if targets:
                spec.rules.append(Rule("occurs", m.group(0), {
                    "names": targets, "letter": m.group(2),
                    "exactly": NUMBER_WORDS.get(m.group(1).lower()) or int(m.group(1))}))
        for m in re.finditer(r"\b(?:contains?|has|have|includes?)\s+(?:the\s+)?(?:letter\s+|character\s+|"
                             r"symbol\s+)?[\"'“‘`](.)[\"'”’`]\s+at\s+least\s+once", sent, re.I):
            targets = _guarantee_target(sent, spec, context, ("string", "strings"))
            if targets:
                spec.rules.append(Rule("occurs", m.group(0), {
                    "names": targets, "letter": m.group(1), "at_least": 1,
                    "each": bool(re.match(r"\s*(?:every|each)\b", sent, re.I))}))
        for m in re.finditer(r"\bat\s+least\s+(?:one|once)\s+(?:character\s+|letter\s+|symbol\s+|"
                             r"occurrence\s+of\s+)?(?:the\s+)?(?:letter\s+|character\s+)?"
                             r"[\"'“‘`](.)[\"'”’`]|[\"'“‘`](.)[\"'”’`]\s+(?:occurs|appears)\s+(?:in\s+\w+\s+)?"
                             r"at\s+least\s+once", sent, re.I):
            targets = _guarantee_target(sent, spec, context, ("string", "strings"))
            if targets:
                spec.rules.append(Rule("occurs", m.group(0), {
                    "names": targets, "letter": m.group(1) or m.group(2), "at_least": 1}))
        mm = re.search(r"each\s+of\s+(?:the\s+)?(?:letters|characters)\s+((?:[\"'“‘`].[\"'”’`]\s*"
                       r"(?:,|or|and)?\s*)+)\s*(?:occurs|appears)\s+(?:in\s+\w+\s+)?at\s+least\s+once",
                       sent, re.I)
        if mm and (targets := _guarantee_target(sent, spec, context, ("string", "strings"))):
            for letter in _QUOTED.findall(mm.group(1)):
                spec.rules.append(Rule("occurs", mm.group(0), {"names": targets, "letter": letter,
                                                              "at_least": 1}))
        # bounds: chains and words
        found_chains = chains(work)
        read_rels = sum(len(ops) for _, _, ops in found_chains)
        if len(_REL.findall(work)) > read_rels:
            spec.not_checked.append(f"{sent} (in part: {len(_REL.findall(work)) - read_rels} "
                                    "relation(s) in it could not be read)")
        for words, operands, ops in found_chains:
            pairs: list[tuple[Expr, str, Expr]] = []
            for k, rel in enumerate(ops):
                for lhs in operands[k]:
                    for rhs in operands[k + 1]:
                        pairs.append((lhs, rel, rhs))
            if _SPECIFIC.search(words):
                spec.not_checked.append(words)
                continue
            for short, original in restored.items():
                words = words.replace(short, original)
            spec.rules.append(Rule("chain", words, {"pairs": pairs}))
        for pat, rel in WORD_BOUNDS:
            for m in pat.finditer(work):
                v = parse_expr(m.group("v").rstrip("."))
                targets = [n for n in word_names(m.group("names")) if n.strip("|") in names]
                if v is None or not targets:
                    continue
                pairs = [(_target(t), rel, v) for t in targets]
                spec.rules.append(Rule("chain", m.group(0).strip(), {"pairs": pairs}))
        for m in _SIGNED.finditer(work):
            targets = [n for n in word_names(m.group("names")) if n.strip("|") in names]
            least = 1 if m.group("sign").lower() == "positive" else 0
            cap = parse_expr(m.group("v").rstrip(".")) if m.group("v") else None
            pairs = [p for t in targets for p in ([(Expr("num", value=least), "≤", _target(t))] +
                                                   ([(_target(t), "≤", cap)] if cap else []))]
            if pairs:
                spec.rules.append(Rule("chain", m.group(0).strip(), {"pairs": pairs}))
        for pat in (BETWEEN, _RANGE, _LEAST_MOST):
            for m in pat.finditer(work):
                a, b = parse_expr(m.group("a")), parse_expr(m.group("b").rstrip("."))
                targets = [n for n in word_names(m.group("names")) if n.strip("|") in names]
                if a is None or b is None or not targets:
                    continue
                pairs = [p for t in targets for p in ((a, "≤", _target(t)),
                                                      (_target(t), "≤", b))]
                spec.rules.append(Rule("chain", m.group(0).strip(), {"pairs": pairs}))
        # "positive integers" / "non-negative integers" in a line's own words
        if context is not None and context.words == sent:
            obj = sent.split("(")[0]
            sign = (1 if re.search(r"\bpositive\s+(?:integers?|numbers?)", obj, re.I) else
                    0 if re.search(r"\bnon-?negative\s+(?:integers?|numbers?)", obj, re.I) else None)
            if sign is not None:
                for it in context.items:
                    if it.kind == "int":
                        spec.rules.append(Rule("chain", obj.strip(), {"pairs": [
                            (Expr("num", value=sign), "≤", Expr("var", name=it.name))]}))
        if re.search(r"\bguarantee[ds]?\b|\bpromised\b", low) and \
                len(spec.rules) + len(spec.not_checked) == before and not answer_guaranteed(sent):
            spec.not_checked.append(sent)  # a guarantee none of the rules above reads
    # guarantees stated for the whole task (outside the Input section) are not read here
    del full_text
