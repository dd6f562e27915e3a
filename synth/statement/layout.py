"""The layout of an Input section: its sentences (or its format block) read as the lines of the
input in order, each with its values, and the block of lines each test case repeats."""

from __future__ import annotations

import re

from synth.statement.shapes import InputSpec, Item, Line
from synth.statement.text import (
    IDENT,
    NOT_NAMES,
    NUMBER_WORDS,
    Expr,
    base_name,
    names_of,
    normalise,
    parse_expr,
)

# -- sentences ------------------------------------------------------------------------------

_SENT = re.compile(r"(?<=[^.\s][.!])\s+(?=[A-Z(\"'])|\n\s*\n|(?<=[.:])\s*\n")


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def sentences(section: str) -> list[str]:
    text = normalise(section)
    text = re.sub(r"\n(?=\s*(?:[-*•]|\d+[.)])\s+)", "\n\n", text)  # a bullet starts a sentence
    text = re.sub(r"(?<!\n)\n(?!\n)", " ", text)  # lines of a paragraph
    out = [_BULLET.sub("", s).strip() for s in _SENT.split(text) if s and s.strip()]
    return [s for s in out if s]


#: a line of a format block ("N K", "A_1 A_2 ... A_N", "u_1 v_1", "⋮", "case_1")
_FORMAT_LINE = re.compile(r"^\s*(?:[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9+\-]+)?|\.\.\.|⋮|:)"
                          r"(?:\s+(?:[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9+\-]+)?|\.\.\.|⋮))*\s*$")


def format_blocks(section: str) -> list[list[str]]:
    """The format blocks of an Input section ("N K" / "A_1 A_2 ... A_N" lines standing alone,
    AtCoder's way of writing the input), each as its lines."""
    text = normalise(section).replace("```", "\n")
    blocks: list[list[str]] = []
    for para in re.split(r"\n\s*\n", text):
        lines = [ln.strip() for ln in para.strip().split("\n") if ln.strip()]
        words = [w for ln in lines for w in ln.split()]
        if lines and all(_FORMAT_LINE.match(ln) for ln in lines) and \
                any(len(base_name(w)) <= 3 for w in words) and not all(w.lower() in NOT_NAMES
                                                                    for w in words):
            blocks.append(lines)
    return blocks


def _format_line(line: str) -> Line | None:
    toks = line.split()
    seq = re.fullmatch(r"(?:(?P<pre>(?:\S+\s+)*?))(?P<a>[A-Za-z]+)_(?P<s>\S+)\s+(?:(?P=a)_\S+\s+)*"
                       r"\.\.\.\s+(?P=a)_(?P<e>\S+)", line)
    if seq is not None:
        pre = [Item(base_name(t), "any") for t in (seq.group("pre") or "").split()]
        first = parse_expr(seq.group("s"))
        end = parse_expr(seq.group("e"))
        if end is None or first is None or first.op != "num" or first.value not in (0, 1):
            return None
        count = end if first.value == 1 else Expr("+", args=(end, Expr("num", value=1)))
        return Line([*pre, Item(seq.group("a"), "any", count)], line)
    if any(t in ("...", "⋮", ":") for t in toks):
        return None
    return Line([Item(base_name(t), "any") for t in toks], line)


def format_layout(spec: InputSpec, blocks: list[list[str]]) -> bool:
    """The layout from format blocks; True when it could be read."""
    def lines_of(block: list[str]) -> list[Line] | None:
        out: list[Line] = []
        k = 0
        while k < len(block):
            line = block[k]
            if k + 2 < len(block) and block[k + 1] in ("⋮", ":", "..."):
                # u_1 v_1 / ⋮ / u_M v_M: M lines of the same shape
                first = re.findall(r"([A-Za-z]+)_(\S+)", line)
                last = re.findall(r"([A-Za-z]+)_(\S+)", block[k + 2])
                if not first or len(first) != len(last) or len(first) != len(line.split()):
                    return None
                start, end = parse_expr(first[0][1]), parse_expr(last[0][1])
                if start is None or end is None or start.op != "num" or start.value != 1:
                    return None
                out.append(Line([Item(a, "any") for a, _ in first], line + " ⋮ " + block[k + 2],
                                end))
                k += 3
                continue
            one = _format_line(line)
            if one is None:
                return None
            out.append(one)
            k += 1
        return out

    first = lines_of(blocks[0])
    if first is None:
        return False
    cases = [ln for ln in first if ln.repeat is not None and len(ln.items) == 1 and
             re.fullmatch(r"(?:case|test|query|testcase)", ln.items[0].name, re.I)]
    if cases and len(blocks) > 1:
        block = lines_of(blocks[1])
        if block is None or len(cases) != 1 or cases[0].repeat is None:
            return False
        spec.tests = str(cases[0].repeat)
        spec.head = [ln for ln in first if ln is not cases[0]]
        spec.block = block
        return True
    spec.head = first
    return True


_CNT = r"(?P<cnt>[A-Za-z0-9]+(?:_[A-Za-z0-9]+)?(?:\s*[-+*]\s*[A-Za-z0-9]+)?)"
_REPEAT = [
    re.compile(r"\b(?:each|every|any)\s+of\s+(?:the\s+)?(?:next|following|last|remaining|"
               r"subsequent|other)\s+" + _CNT + r"\s+lines?\b", re.I),
    re.compile(r"\b(?:the\s+)?i-th\s+of\s+(?:the\s+)?(?:next|following|these)\s+" + _CNT +
               r"\s+lines?\b", re.I),
    re.compile(r"\b(?:the|then)\s+(?:next|following)\s+" + _CNT + r"\s+lines?\b", re.I),
    re.compile(r"\b(?:in|on)\s+(?:the\s+)?(?:next|following)\s+" + _CNT + r"\s+lines?\b", re.I),
    re.compile(r"\bthen\s+(?:follow\s+)?" + _CNT + r"\s+lines?\b", re.I),
    re.compile(r"(?:^|\.\s+|,\s+)" + _CNT + r"\s+lines?\s+follow", re.I),
    re.compile(r"\b(?:then|next)\s+come\s+" + _CNT + r"\s+lines?\b", re.I),
]
_ORD = (r"(?P<ord>first|second|third|fourth|fifth|sixth|seventh|next|last|only|single|final|"
        r"following|1st|2nd|3rd|4th)")
_SINGLE = [
    re.compile(r"^(?:(?:the|its|in\s+the|on\s+the|at\s+the|in\s+its|on\s+its)\s+)?" + _ORD +
               r"(?:\s+line\b|\s+(?=holds|contains|gives|has|lists))", re.I),
    re.compile(r"\b(?:the|in\s+the|on\s+the)\s+" + _ORD + r"\s+line\b", re.I),
    re.compile(r"\b(?:input|test\s+case|query)\s+(?:consists\s+of|contains|is\s+given\s+(?:in|on)|"
               r"is)\s+(?P<ord>a\s+single|one|exactly\s+one|only\s+one)\s+line\b", re.I),
    re.compile(r"\b(?:each|every)\s+test\s*(?:case)?\s+(?:is\s+)?(?:described\s+by|given\s+(?:in|on)|"
               r"consists\s+of)\s+(?P<ord>a\s+single|one)\s+line\b", re.I),
    re.compile(r"\b(?:each|every)\s+(?:test\s*case|query)\s+(?:line\s+)?(?P<ord>contains)\b", re.I),
    re.compile(r"\b(?:starts|begins|opens)\s+with\s+(?P<ord>a|one|a\s+single)\s+line\b", re.I),
    re.compile(r"\b(?:each|every)\s+(?:test\s*(?:case)?|query|case)\s+(?:is|occupies|takes)\s+"
               r"(?P<ord>a\s+single|one|exactly\s+one)\s+line\b", re.I),
]
_CASE_WORDS = re.compile(r"\b(?:each|every|the)\s+(?:test\s*case|test|data\s*set|case)\b", re.I)
_TESTS_WORDS = re.compile(r"\bnumber\s+of\s+(?:test\s*cases|tests|testcases|data\s*sets)\b|"
                          r"\btest\s*cases?\s+follow|\bdescriptions?\s+of\s+(?:the\s+)?test", re.I)
_VERB = re.compile(r"\b(?:(?:you\s+)?(?:are|is)\s+given|contains?|consists?\s+of|has|have|holds?|gives?|describes?|is|are|"
                   r"will\s+contain|with|containing|stores?|lists?|provides?)\b|:", re.I)
_STOP = re.compile(r"\(|\s—\s|\s-\s|;|\bwhere\b|\bwhich\b|\bthat\b|\brepresenting\b|\bdenoting\b|"
                   r"\bdescribing\b|\beach\b|,\s+(?:the|and\s+the|respectively)\b")


def _count_expr(word: str) -> Expr | None:
    low = word.lower().strip()
    if low in NUMBER_WORDS:
        return Expr("num", value=NUMBER_WORDS[low])
    return parse_expr(word)


def _names(text: str) -> tuple[list[str], list[tuple[str, Expr | None]]]:
    """Scalar names and ``X_1, ..., X_E`` sequences in an object phrase's name list."""
    seqs: list[tuple[str, Expr | None]] = []
    sep = r"\s*[,<>≤≥]?\s*"
    sub = r"[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9]+"
    seq = re.compile(r"(" + sub + r")(?:" + sep + sub + r")*" + sep + r"\.\.\." + sep +
                     r"([A-Za-z]+)_([A-Za-z0-9]+(?:\s*[-+]\s*\d+)?)")
    rest = text
    for m in seq.finditer(text):
        seqs.append((base_name(m.group(1)), parse_expr(m.group(3))))
        rest = rest.replace(m.group(0), " ")
    rest = rest.replace("...", " ")
    scal = [n for n in re.findall(r"(?<![\w|'\"])(" + IDENT + r")(?![\w'\"(])", rest)
            if n.lower() not in NOT_NAMES and len(base_name(n)) <= 3]
    return scal, seqs


def _after_dash_name(sentence: str) -> str | None:
    m = re.search(r"\s—\s+(?:the\s+)?(?:elements?\s+of\s+(?:the\s+)?)?(?:array|sequence|"
                  r"permutation|string|list)?\s*(" + IDENT + r")\b", sentence)
    if m and m.group(1).lower() not in NOT_NAMES and len(base_name(m.group(1))) <= 2:
        return base_name(m.group(1))
    return None


class _Namer:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"


def _items(obj: str, sentence: str, namer: _Namer, repeated: bool) -> list[Item] | None:
    """The values an object phrase ("two integers n and m", "n integers a_1, ..., a_n", "a
    string s of length n") puts on one line, or None when it cannot be read."""
    obj = obj.strip()
    cut = _STOP.search(obj)
    head = obj[:cut.start()] if cut else obj
    head = head.strip().rstrip(",.")
    # "the number of checkpoints k", "the size k of the list"
    mn = re.match(r"^(?:the|a|one|their|its)\s+(?:number|count|amount|size)\s+(?:of\s+)?(?:[a-z]+\s+){0,3}?(" +
                  IDENT + r")\s*$", head, re.I)
    if mn is not None and len(base_name(mn.group(1))) <= 3:
        return [Item(base_name(mn.group(1)), "int")]
    # strings
    ms = re.match(r"^(?:(?:a|the|one|single|a\s+single|non-empty|nonempty|binary|another|"
                  r"only)\s+)*(?:string|word|line\s+of\s+text|sequence\s+of\s+characters)\b(.*)$",
                  head, re.I)
    mc = re.match(r"^(?:(?:a|the|one)\s+)?(?:string|row|line)?\s*(?:of|with|consisting\s+of)?\s*"
                  r"(?P<len>" + IDENT + r"(?:\s*[-+]\s*\d+)?|\d+)\s+(?:characters|letters|symbols|"
                  r"digits)\b", head, re.I)
    if ms or mc:
        rest = ms.group(1) if ms else ""
        name_m = re.match(r"^\s*(" + IDENT + r")\b", rest)
        name = base_name(name_m.group(1)) if name_m and name_m.group(1).lower() not in NOT_NAMES \
            else (_after_dash_name(sentence) or namer("str"))
        length = None
        ml = re.search(r"(?:of\s+length|of\s+size|with\s+length)\s+(" + IDENT + r"|\d+)", obj)
        if ml:
            length = parse_expr(ml.group(1))
        elif mc:
            length = _count_expr(mc.group("len"))
        elif (ml2 := re.search(r"\b(?:of|consisting\s+of)\s+(" + IDENT + r"|\d+)\s+"
                                r"(?:characters|letters|symbols|digits)\b", obj)):
            length = _count_expr(ml2.group(1))
        return [Item(name, "str", None, length)]
    # numbers
    m = re.match(r"^(?:(?P<cnt>[A-Za-z0-9]+(?:_[A-Za-z0-9]+)?(?:\s*[-+]\s*\d+)?|a\s+single|"
                 r"exactly\s+\w+)\s+)?(?:(?:space[- ]separated|positive|non-?negative|distinct|"
                 r"pairwise\s+distinct|natural|real|whole|signed|different|integer|odd|even|"
                 r"nonzero|non-zero)\s+)*"
                 r"(?P<type>integers?|numbers?|values?|reals?|floats?)\b(?P<rest>.*)$", head, re.I)
    if m is None:
        mp = re.match(r"^(?:(?:a|an|the|one)\s+)?(?:permutation|array|sequence|list|row)\b"
                      r"(?:\s+of\s+(?:length|size)\s+(?P<len>" + IDENT + r"))?(?P<rest>.*)$",
                      head, re.I)
        if mp is not None:
            scal, seqs = _names(mp.group("rest"))
            if seqs:
                return [Item(n, "int", c) for n, c in seqs[:1]]
            size = parse_expr(mp.group("len")) if mp.group("len") else None
            if size is not None and len(scal) == 1:
                return [Item(base_name(scal[0]), "int", size)]
            return None
        # bare names: "contains n and m", "holds a_1, a_2, ..., a_n"
        scal, seqs = _names(head)
        if seqs and not scal:
            return [Item(n, "int", c) for n, c in seqs]
        if scal and not seqs and len(scal) <= 6 and re.fullmatch(
                r"(?:the\s+)?(?:(?:integers?|numbers?|values?)\s+)?" + IDENT + r"(?:\s*(?:,|and)\s*"
                + IDENT + r")*", head.strip(), re.I):
            return [Item(base_name(n), "int") for n in scal]
        return None
    kind = "tok" if m.group("type").lower().startswith(("real", "float")) else "int"
    cnt_word = (m.group("cnt") or "").replace("exactly ", "")
    if cnt_word.lower() in ("the", "this", "that", "some", "an", "a"):
        cnt_word = "one"
    scal, seqs = _names(m.group("rest"))
    cnt = _count_expr(cnt_word) if cnt_word else Expr("num", value=1)
    if cnt is None:
        return None
    if seqs:  # "n integers a_1, ..., a_n" (a sequence, whatever the count word says)
        out = [Item(base_name(n), kind, c if c is not None else cnt) for n, c in seqs]
        return out + [Item(base_name(n), kind) for n in scal if base_name(n) not in {o.name for o in out}]
    if not cnt_word and m.group("type").lower().endswith("s") and scal and not seqs:
        cnt = Expr("num", value=len(scal))  # "contains integers n and m"
    if cnt.op == "num":
        want = cnt.value
        plain = re.fullmatch(r"\s*(" + IDENT + r"(?:\s*,\s*" + IDENT + r")*(?:\s*,?\s*and\s+" + IDENT +
                             r")?)\s*[.,]?\s*", m.group("rest"))
        if plain is not None:  # "a, b and x": every name, the article-like ones too
            listed = [n for n in re.split(r"\s*,\s*|\s+and\s+", plain.group(1).strip()) if n]
            if len(listed) == want:
                scal = listed
        if scal and len(scal) == want:
            return [Item(base_name(n), kind) for n in scal]
        if not scal:
            named = _after_dash_name(sentence)
            if want == 1 and named:
                return [Item(named, kind)]
            if want == 1 and re.search(r"\bnumber\s+of\s+test", sentence, re.I):
                return [Item("t", kind)]
            return [Item(namer("v"), kind) for _ in range(want)] if want <= 8 else None
        if len(scal) == 1 and re.search(r"_[a-z]\b", m.group("rest")):
            return [Item(base_name(scal[0]), kind, cnt)]  # "3 integers a_i" reads as an array
        return None
    # the count is an expression: an array
    name = base_name(scal[0]) if len(scal) == 1 else (_after_dash_name(sentence) or namer("arr"))
    return [Item(name, kind, cnt)]


def _object(sentence: str, start: int) -> str:
    v = _VERB.search(sentence, start)
    obj = sentence[v.end():] if v is not None else sentence[start:]
    # "describes a street with two integers u and v": the values come after "with"
    m = re.match(r"^\s*(?:an?|the|one)\s+[a-z]+(?:\s+[a-z]+)?(?:\s*:|\s+(?:with|by|as|using|given\s+by|"
                 r"consisting\s+of|containing))\s+(?=(?:one|two|three|four|an?|the|\w+\s+)?\s*"
                 r"(?:integers?|numbers?|strings?|values?))", obj, re.I)
    return obj[m.end():] if m else obj


def _line_of(sentence: str, namer: _Namer) -> tuple[str, Line] | None:
    """(ordinal, Line) when the sentence describes input lines, else None."""
    for pat in _REPEAT:
        m = pat.search(sentence)
        if m is not None:
            cnt = _count_expr(m.group("cnt"))
            if cnt is None:
                return None
            items = _items(_object(sentence, m.end()), sentence, namer, True)
            if items is None:
                return ("repeat?", Line([], sentence, cnt))
            return ("repeat", Line(items, sentence, cnt))
    for pat in _SINGLE:
        m = pat.search(sentence)
        if m is not None:
            start = m.end() if m.group("ord") != "contains" else m.start("ord")
            items = _items(_object(sentence, start), sentence, namer, False)
            ordinal = m.group("ord").lower().split()[-1]
            if items is None:
                return (ordinal + "?", Line([], sentence))
            return (ordinal, Line(items, sentence))
    return None


_GROUP = re.compile(r"\b(?:each|every)\s+(?:of\s+the\s+)?(?P<noun>[a-z]+(?:\s+case)?)\s+(?:is\s+given|"
                    r"is\s+described|consists\s+of|is\s+written|comes)\s+(?:on|in|by|as)?\s*"
                    r"(?P<k>two|three|four|\d)\s+(?:consecutive\s+)?lines?\s*[:.,;]?\s*(?P<rest>.*)$", re.I)


def _group_lines(sent: str, namer: _Namer) -> tuple[str, list[Line]] | None:
    """ "Each group is given on two lines: the first holds n, the second holds n integers
    d_1, ..., d_n" -> (the noun, its lines), or None."""
    m = _GROUP.search(sent)
    if m is None:
        return None
    return _group_parts(m, m.group("rest"), sent, namer)


def _group_parts(m: re.Match[str], rest: str, sent: str,
                 namer: _Namer) -> tuple[str, list[Line]] | None:
    parts = re.split(r"[,;]\s*(?:and\s+)?(?=the\s+(?:second|third|fourth|next|last)\b)",
                     rest)
    lines: list[Line] = []
    for part in parts:
        p = re.match(r"\s*the\s+(?:first|second|third|fourth|next|last)(?:\s+(?:one|line|of\s+them))?"
                     r"\s*", part, re.I)
        if p is None:
            return None
        items = _items(_object(part, p.end()), part, namer, False)
        if items is None:
            return None
        lines.append(Line(items, sent))
    k = NUMBER_WORDS.get(m.group("k").lower()) or int(m.group("k"))
    return (m.group("noun"), lines) if len(lines) == k else None


_THEM = re.compile(r"^(?:the\s+i-th\s+(?:of\s+them|line|one)|each\s+of\s+(?:them|these(?:\s+lines)?)|"
                   r"each\s+(?:such\s+)?line|every\s+(?:such\s+)?line|each\s+(?:query|edge|"
                   r"operation|row)\s+(?:line\s+)?|each)\b", re.I)
_ENDS_AT_FOLLOW = re.compile(r"\blines?\s+follows?\s*[.:]?\s*$|\blines?\s*[.:]?\s*$", re.I)


def read_layout(spec: InputSpec, sents: list[str]) -> None:
    namer = _Namer()
    in_block = False
    seen: dict[str, set[str]] = {"head": set(), "block": set()}
    pending: Expr | None = None  # "Then q lines follow." -- the next sentence says what they hold
    group_head: re.Match[str] | None = None  # "Each test case is given on two lines." alone
    for sent in sents:
        if group_head is not None:
            found_group = _group_parts(group_head, sent, sent, namer)
            group_head = None
            if found_group is not None and spec.tests is not None:
                spec.block.extend(found_group[1])
                in_block = True
                continue
        if pending is not None:
            m = _THEM.match(sent)
            items = _items(_object(sent, m.end()), sent, namer, True) if m else None
            if items is None:
                spec.layout_problem = f"could not read the values of: {sent[:160]}"
                return
            (spec.block if in_block else spec.head).append(Line(items, sent, pending))
            pending = None
            continue
        gm = _GROUP.search(sent)
        if gm is not None and not gm.group("rest").strip(" .") and not in_block:
            heads = [it for ln in spec.head for it in ln.items]
            if spec.tests is None and len(heads) == 1 and heads[0].count is None:
                spec.tests = heads[0].name
            group_head = gm
            continue
        group = _group_lines(sent, namer)
        if group is not None and not in_block:
            heads = [it for ln in spec.head for it in ln.items]
            if spec.tests is None and len(heads) == 1 and heads[0].count is None:
                spec.tests = heads[0].name
            if spec.tests is not None:
                spec.block.extend(group[1])
                in_block = True
                continue
        found = _line_of(sent, namer)
        case_sentence = bool(_CASE_WORDS.search(sent)) and spec.tests is not None
        if case_sentence:
            in_block = True
        if found is None:
            continue
        ordinal, line = found
        where = "block" if in_block else "head"
        if ordinal == "repeat?" and line.repeat is not None and _ENDS_AT_FOLLOW.search(sent):
            pending = line.repeat
            continue
        if ordinal.endswith("?"):
            spec.layout_problem = f"could not read the values of: {sent[:160]}"
            return
        if ordinal in ("first", "1st", "second", "2nd", "third", "3rd", "only", "single") and \
                ordinal in seen[where]:
            continue  # the same line described again
        seen[where].add(ordinal)
        if line.repeat is not None and spec.tests is not None and not in_block and \
                names_of(line.repeat) == {spec.tests}:
            # "each of the next t lines contains ...": one line per test case
            spec.block.append(Line(line.items, sent))
            in_block = True
            continue
        (spec.block if in_block else spec.head).append(line)
        if not in_block and spec.tests is None and (_TESTS_WORDS.search(sent) or (
                re.search(r"\btheir\s+number\b|\bnumber\s+of\s+them\b", sent, re.I)
                and any(re.search(r"\btest\s*cases?\b|\btests\b", x, re.I) for x in sents))):
            scalars = [it.name for it in line.items if it.count is None and it.kind != "str"]
            if len(scalars) == 1 and line.repeat is None:
                spec.tests = scalars[0]
                in_block = bool(_CASE_WORDS.search(sent.split("—")[-1])) and False
    if not spec.head and not spec.block:
        spec.layout_problem = "no sentence of the Input section says what a line contains"
    elif spec.tests is not None and not spec.block:
        spec.layout_problem = "the test cases' lines are not described"
        spec.tests = None
