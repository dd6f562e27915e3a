"""What an Input section says, read without a model: the lines of the input and their values,
the bounds on named values, and the guarantees a setter writes in words.

:func:`parse_input_spec` turns the (normalised) Input section into an :class:`InputSpec`:

* a **layout**: the lines in order (``The first line contains two integers n and m``, ``The
  second line contains n integers a_1, ..., a_n``, ``Each of the next m lines contains ...``),
  and, when the first line gives ``t`` test cases, the block of lines each test case repeats;
* **rules** (:class:`Rule`), each with the statement's words it came from: chains of bounds
  (``1 ≤ k ≤ n ≤ 2·10^5``, ``1 ≤ l_i ≤ r_i ≤ n``, ``|s| ≤ 100``, ``u_i ≠ v_i``), bounds in words
  (``n does not exceed 100``, ``between 1 and 10^9``), sums over test cases, alphabets of
  strings, and guarantees (distinct, permutation, sorted, tree, connected, no self-loops, no
  repeated edges, a letter that must occur);
* ``not_checked``: phrases that look like a rule but could not be read -- listed, never guessed.

The rules are checked against an input by :mod:`synth.statement.check`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from synth.statement.answers import answer_guaranteed
from synth.statement.text import NUMBER_WORDS, Expr, names_of, normalise, parse_expr

__all__ = ["InputSpec", "Item", "Line", "Rule", "parse_input_spec"]


@dataclass
class Item:
    """Values on one line: a scalar (``count`` None), or ``count`` values of an array ``name``;
    ``kind`` is ``int``, ``str`` (a string token) or ``tok`` (a number that may be real)."""

    name: str
    kind: str = "int"
    count: Expr | None = None
    length: Expr | None = None  # a string's stated length


@dataclass
class Line:
    items: list[Item]
    words: str
    repeat: Expr | None = None  # "each of the next m lines": every item becomes a column array


@dataclass
class Rule:
    kind: str
    words: str
    args: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        return f"{self.kind}: {self.words}"


@dataclass
class InputSpec:
    head: list[Line] = field(default_factory=list)
    tests: str | None = None  # the name of the test-case count, when there is one
    block: list[Line] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)
    #: why the layout could not be derived ("" when it was)
    layout_problem: str = ""

    def names(self) -> dict[str, str]:
        """Every value the layout reads: name -> "scalar" | "array" | "string" | "strings"."""
        out: dict[str, str] = {}
        for line in self.head + self.block:
            for it in line.items:
                many = it.count is not None or line.repeat is not None
                if it.kind == "str":
                    out[it.name] = "strings" if many else "string"
                else:
                    out[it.name] = "array" if many else "scalar"
        return out


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
                any(len(_base(w)) <= 3 for w in words) and not all(w.lower() in _NOT_NAMES
                                                                    for w in words):
            blocks.append(lines)
    return blocks


def _format_line(line: str) -> Line | None:
    toks = line.split()
    seq = re.fullmatch(r"(?:(?P<pre>(?:\S+\s+)*?))(?P<a>[A-Za-z]+)_(?P<s>\S+)\s+(?:(?P=a)_\S+\s+)*"
                       r"\.\.\.\s+(?P=a)_(?P<e>\S+)", line)
    if seq is not None:
        pre = [Item(_base(t), "any") for t in (seq.group("pre") or "").split()]
        first = parse_expr(seq.group("s"))
        end = parse_expr(seq.group("e"))
        if end is None or first is None or first.op != "num" or first.value not in (0, 1):
            return None
        count = end if first.value == 1 else Expr("+", args=(end, Expr("num", value=1)))
        return Line([*pre, Item(seq.group("a"), "any", count)], line)
    if any(t in ("...", "⋮", ":") for t in toks):
        return None
    return Line([Item(_base(t), "any") for t in toks], line)


def _format_layout(spec: InputSpec, blocks: list[list[str]]) -> bool:
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
_IDENT = r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)?"


def _base(name: str) -> str:
    return name.split("_", 1)[0]


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
        seqs.append((_base(m.group(1)), parse_expr(m.group(3))))
        rest = rest.replace(m.group(0), " ")
    rest = rest.replace("...", " ")
    scal = [n for n in re.findall(r"(?<![\w|'\"])(" + _IDENT + r")(?![\w'\"(])", rest)
            if n.lower() not in _NOT_NAMES and len(_base(n)) <= 3]
    return scal, seqs


_NOT_NAMES = {"and", "or", "the", "of", "a", "an", "integers", "integer", "numbers", "number", "is",
              "are", "in", "on", "to", "its", "their", "by", "space", "spaces", "line", "lines",
              "string", "strings", "values", "value", "respectively", "single", "one", "two",
              "three", "four", "five", "six", "with", "as", "for", "from", "positive", "followed",
              "characters", "character", "letters", "symbols", "first", "second", "then",
              "array", "sequence", "elements", "list", "it", "this", "these", "all", "denote",
              "separated", "given", "which", "each", "i", "j", "k-th", "blank", "empty", "distinct", "pairwise", "some", "non", "negative", "real", "natural", "word",
              "length", "size", "following"}


def _after_dash_name(sentence: str) -> str | None:
    m = re.search(r"\s—\s+(?:the\s+)?(?:elements?\s+of\s+(?:the\s+)?)?(?:array|sequence|"
                  r"permutation|string|list)?\s*(" + _IDENT + r")\b", sentence)
    if m and m.group(1).lower() not in _NOT_NAMES and len(_base(m.group(1))) <= 2:
        return _base(m.group(1))
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
                  _IDENT + r")\s*$", head, re.I)
    if mn is not None and len(_base(mn.group(1))) <= 3:
        return [Item(_base(mn.group(1)), "int")]
    # strings
    ms = re.match(r"^(?:(?:a|the|one|single|a\s+single|non-empty|nonempty|binary|another|"
                  r"only)\s+)*(?:string|word|line\s+of\s+text|sequence\s+of\s+characters)\b(.*)$",
                  head, re.I)
    mc = re.match(r"^(?:(?:a|the|one)\s+)?(?:string|row|line)?\s*(?:of|with|consisting\s+of)?\s*"
                  r"(?P<len>" + _IDENT + r"(?:\s*[-+]\s*\d+)?|\d+)\s+(?:characters|letters|symbols|"
                  r"digits)\b", head, re.I)
    if ms or mc:
        rest = ms.group(1) if ms else ""
        name_m = re.match(r"^\s*(" + _IDENT + r")\b", rest)
        name = _base(name_m.group(1)) if name_m and name_m.group(1).lower() not in _NOT_NAMES \
            else (_after_dash_name(sentence) or namer("str"))
        length = None
        ml = re.search(r"(?:of\s+length|of\s+size|with\s+length)\s+(" + _IDENT + r"|\d+)", obj)
        if ml:
            length = parse_expr(ml.group(1))
        elif mc:
            length = _count_expr(mc.group("len"))
        elif (ml2 := re.search(r"\b(?:of|consisting\s+of)\s+(" + _IDENT + r"|\d+)\s+"
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
                      r"(?:\s+of\s+(?:length|size)\s+(?P<len>" + _IDENT + r"))?(?P<rest>.*)$",
                      head, re.I)
        if mp is not None:
            scal, seqs = _names(mp.group("rest"))
            if seqs:
                return [Item(n, "int", c) for n, c in seqs[:1]]
            size = parse_expr(mp.group("len")) if mp.group("len") else None
            if size is not None and len(scal) == 1:
                return [Item(_base(scal[0]), "int", size)]
            return None
        # bare names: "contains n and m", "holds a_1, a_2, ..., a_n"
        scal, seqs = _names(head)
        if seqs and not scal:
            return [Item(n, "int", c) for n, c in seqs]
        if scal and not seqs and len(scal) <= 6 and re.fullmatch(
                r"(?:the\s+)?(?:(?:integers?|numbers?|values?)\s+)?" + _IDENT + r"(?:\s*(?:,|and)\s*"
                + _IDENT + r")*", head.strip(), re.I):
            return [Item(_base(n), "int") for n in scal]
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
        out = [Item(_base(n), kind, c if c is not None else cnt) for n, c in seqs]
        return out + [Item(_base(n), kind) for n in scal if _base(n) not in {o.name for o in out}]
    if not cnt_word and m.group("type").lower().endswith("s") and scal and not seqs:
        cnt = Expr("num", value=len(scal))  # "contains integers n and m"
    if cnt.op == "num":
        want = cnt.value
        plain = re.fullmatch(r"\s*(" + _IDENT + r"(?:\s*,\s*" + _IDENT + r")*(?:\s*,?\s*and\s+" + _IDENT +
                             r")?)\s*[.,]?\s*", m.group("rest"))
        if plain is not None:  # "a, b and x": every name, the article-like ones too
            listed = [n for n in re.split(r"\s*,\s*|\s+and\s+", plain.group(1).strip()) if n]
            if len(listed) == want:
                scal = listed
        if scal and len(scal) == want:
            return [Item(_base(n), kind) for n in scal]
        if not scal:
            named = _after_dash_name(sentence)
            if want == 1 and named:
                return [Item(named, kind)]
            if want == 1 and re.search(r"\bnumber\s+of\s+test", sentence, re.I):
                return [Item("t", kind)]
            return [Item(namer("v"), kind) for _ in range(want)] if want <= 8 else None
        if len(scal) == 1 and re.search(r"_[a-z]\b", m.group("rest")):
            return [Item(_base(scal[0]), kind, cnt)]  # "3 integers a_i" reads as an array
        return None
    # the count is an expression: an array
    name = _base(scal[0]) if len(scal) == 1 else (_after_dash_name(sentence) or namer("arr"))
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


def _layout(spec: InputSpec, sents: list[str]) -> None:
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


# -- rules -----------------------------------------------------------------------------------

_REL = re.compile(r"(≤|≥|≠|<|>)")
_OPERAND = r"[A-Za-z0-9_|*^+\-/().]+(?:\s*[*^+\-/]\s*[A-Za-z0-9_|().]+)*"
_LIST = re.compile(r"^\s*(" + _IDENT + r"(?:\s*,\s*" + _IDENT + r")+)\s*$")
_SEQ_OPERAND = re.compile(r"^\s*(" + _IDENT + r")\s*,\s*(?:" + _IDENT + r"\s*,\s*)*\.\.\.\s*,?\s*(" +
                          _IDENT + r")\s*$")


def _operand(text: str) -> list[Expr] | None:
    text = text.strip()
    if not text:
        return None
    m = _SEQ_OPERAND.match(text)
    if m is not None and _base(m.group(1)) == _base(m.group(2)):
        return [Expr("var", name=_base(m.group(1)))]
    m = _LIST.match(text)
    if m is not None:
        return [Expr("var", name=_base(n.strip())) for n in m.group(1).split(",")]
    e = parse_expr(text.strip("()") if text.count("(") != text.count(")") else text)
    return [e] if e is not None else None


_SPECIFIC = re.compile(r"\b[A-Za-z]+_(?:\d+|[a-z]\s*[-+]\s*\d+|[a-z]{2,})\b")


_DIR = {"≤": 1, "<": 1, "≥": -1, ">": -1}


def _chains(text: str) -> list[tuple[str, list[list[Expr]], list[str]]]:
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
                tm = re.search(r"(" + _OPERAND + r"(?:\s*,\s*" + _IDENT + r")*)\s*$", seg)
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


_WNAME = r"(?:\|" + _IDENT + r"\||" + _IDENT + r")"
_WORD_BOUNDS = [
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
_BETWEEN = re.compile(r"(?P<names>" + _WNAME + r"(?:\s*(?:,|and)\s*" + _WNAME + r")*)\s+(?:is|are|"
                      r"lies?|will\s+be)\s+(?:\w+\s+)?(?:in\s+the\s+range\s+from|between|from)\s+"
                      r"(?P<a>-?" + _OPERAND + r")\s+(?:and|to)\s+(?P<b>-?" + _OPERAND + r")", re.I)
_RANGE = re.compile(r"(?P<names>" + _IDENT + r")\s+(?:is|are|lies?)\s+in\s+(?:the\s+)?(?:range\s+)?"
                    r"\[\s*(?P<a>-?" + _OPERAND + r")\s*,\s*(?P<b>-?" + _OPERAND + r")\s*\]", re.I)


def _word_names(text: str) -> list[str]:
    return [n if n.startswith("|") else _base(n) for n in re.split(r"\s*(?:,|\band\b)\s*", text)
            if n and n.lower() not in _NOT_NAMES]


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
    mentioned = [n for n in dict.fromkeys(_base(x) for x in re.findall(_IDENT, sent))
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


def _rules(spec: InputSpec, sents: list[str], full_text: str) -> None:
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
        work = _LENGTH_OF.sub(lambda m: f"|{m.group(1)}|" if m.group(1).lower() not in _NOT_NAMES
                              else m.group(0), sent)
        own_strings = [it.name for it in (context.items if context else []) if it.kind == "str"]
        if len(own_strings) == 1:
            work = re.sub(r"\b(?:its|the\s+word's|the\s+string's)\s+(?:length|size)\b",
                          f"|{own_strings[0]}|", work, flags=re.I)
        # sums over test cases
        for m in re.finditer(r"(?:the\s+)?(?:sum|total)\s+(?:of\s+)?(?:the\s+)?(?:values\s+of\s+)?"
                             r"(?:all\s+)?(?P<x>\|?" + _IDENT + r"\|?(?:\s*\*\s*" + _IDENT + r")?|"
                             r"lengths?\s+of\s+(?:all\s+)?(?:the\s+)?(?:strings?\s+)?(?P<s>" +
                             _IDENT + r")?)\s*(?:,\s*)?(?:over|for|across|in|of)?\s*(?:all\s+)?"
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
        for m in re.finditer(r"(" + _IDENT + r")\s*(<|≤|>|≥)\s*(" + _IDENT + r")\s*(?:<|≤|>|≥)\s*"
                             r"\.\.\.\s*(?:<|≤|>|≥)\s*(" + _IDENT + r")", work):
            base = _base(m.group(1))
            if _base(m.group(3)) == base and names.get(base) == "array":
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
        found_chains = _chains(work)
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
        for pat, rel in _WORD_BOUNDS:
            for m in pat.finditer(work):
                v = parse_expr(m.group("v").rstrip("."))
                targets = [n for n in _word_names(m.group("names")) if n.strip("|") in names]
                if v is None or not targets:
                    continue
                pairs = [(_target(t), rel, v) for t in targets]
                spec.rules.append(Rule("chain", m.group(0).strip(), {"pairs": pairs}))
        for m in _SIGNED.finditer(work):
            targets = [n for n in _word_names(m.group("names")) if n.strip("|") in names]
            least = 1 if m.group("sign").lower() == "positive" else 0
            cap = parse_expr(m.group("v").rstrip(".")) if m.group("v") else None
            pairs = [p for t in targets for p in ([(Expr("num", value=least), "≤", _target(t))] +
                                                   ([(_target(t), "≤", cap)] if cap else []))]
            if pairs:
                spec.rules.append(Rule("chain", m.group(0).strip(), {"pairs": pairs}))
        for pat in (_BETWEEN, _RANGE, _LEAST_MOST):
            for m in pat.finditer(work):
                a, b = parse_expr(m.group("a")), parse_expr(m.group("b").rstrip("."))
                targets = [n for n in _word_names(m.group("names")) if n.strip("|") in names]
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


_BARE_SEQ = re.compile(r"\b([A-Za-z])([01])(\s*,?\s*)\1([12])(\s*,?\s*)(\.\.\.)(\s*,?\s*)\1"
                       r"([A-Za-z]|\d+)\b")


def subscripts(section: str) -> str:
    """Old Codeforces spelling without underscores: ``a1, a2, ..., an`` -> ``a_1, a_2, ...,
    a_n``, and then ``ai`` / ``xi`` of those arrays -> ``a_i``, ``x_i``."""
    text = normalise(section)
    bases = set()

    def seq(m: re.Match[str]) -> str:
        bases.add(m.group(1))
        return (f"{m.group(1)}_{m.group(2)}{m.group(3)}{m.group(1)}_{m.group(4)}{m.group(5)}"
                f"{m.group(6)}{m.group(7)}{m.group(1)}_{m.group(8)}")

    text = _BARE_SEQ.sub(seq, text)
    # "xi and yi" in a line that repeats: the pair's names, subscripted
    for m in re.finditer(r"\b([a-z])i\s+and\s+([a-z])i\b", text):
        bases.update((m.group(1), m.group(2)))
    for base in bases:
        text = re.sub(r"\b" + re.escape(base) + r"([ijk]|\d+)\b(?!_)", base + r"_\1", text)
    return text


def parse_input_spec(section: str, full_text: str = "") -> InputSpec:
    """The layout and rules of an Input section (see the module docstring)."""
    section = subscripts(section)
    spec = InputSpec()
    sents = sentences(section)
    _layout(spec, sents)
    blocks = format_blocks(section)
    if blocks and (spec.layout_problem or not spec.head):
        fresh = InputSpec()
        if _format_layout(fresh, blocks):
            spec.head, spec.block, spec.tests, spec.layout_problem = (
                fresh.head, fresh.block, fresh.tests, "")
    _rules(spec, sents, full_text)
    # a rule about a value the layout never reads cannot be checked: say so
    known = set(spec.names())
    kept: list[Rule] = []
    for rule in spec.rules:
        if rule.kind == "chain":
            pairs = [p for p in rule.args["pairs"]
                     if {n.strip("|") for n in names_of(p[0]) | names_of(p[2])} <= known]
            if not pairs:
                spec.not_checked.append(rule.words)
                continue
            if len(pairs) < len(rule.args["pairs"]):
                spec.not_checked.append(rule.words + " (in part: it names values the input "
                                        "layout does not read)")
            rule = Rule("chain", rule.words, {"pairs": pairs})
        kept.append(rule)
    spec.rules = kept
    return spec


def upper_bounds(section: str | None) -> dict[str, int]:
    """The constant upper bound the section states for each named value (``1 ≤ n, m ≤ 100``
    -> {"n": 100, "m": 100}; ``a_i`` is named ``a``), read by the same chains as the rules,
    whatever the layout; a value bounded twice keeps the smaller bound. The workflow's size
    repair caps ``LEVELS`` with these."""
    out: dict[str, int] = {}

    def add(name: str, rel: str, value: int | None) -> None:
        if value is None:
            return
        value = value - 1 if rel == "<" else value
        out[name] = min(value, out.get(name, value))

    below: list[tuple[str, str]] = []  # (a, b): a ≤ b, both named
    for sent in sentences(section or ""):
        for _, operands, ops in _chains(sent):
            for k, rel in enumerate(ops):
                for lhs in operands[k]:
                    for rhs in operands[k + 1]:
                        if rel in ("≤", "<") and lhs.op == "var" and rhs.op == "var":
                            below.append((lhs.name, rhs.name))
                        if rel in ("≤", "<") and lhs.op == "var" and not names_of(rhs):
                            add(lhs.name, rel, _constant(rhs))
                        if rel in ("≥", ">") and rhs.op == "var" and not names_of(lhs):
                            add(rhs.name, "<" if rel == ">" else "≤", _constant(lhs))
        for pat, rel in _WORD_BOUNDS:
            if rel != "≤":
                continue
            for m in pat.finditer(sent):
                v = parse_expr(m.group("v"))
                for name in _word_names(m.group("names")):
                    if v is not None and not names_of(v):
                        add(name, "≤", _constant(v))
        for m in _BETWEEN.finditer(sent):
            v = parse_expr(m.group("b"))
            for name in _word_names(m.group("names")):
                if v is not None and not names_of(v):
                    add(name, "≤", _constant(v))
    for _ in range(len(below)):  # 1 ≤ k ≤ n ≤ 10^5: k ≤ 10^5 too
        for a, b in below:
            if b in out:
                add(a, "≤", out[b])
    return out


def _constant(expr: Expr) -> int | None:
    from synth.statement.text import evaluate

    value = evaluate(expr, {})
    return value if value is not None and abs(value) < 10**30 else None
