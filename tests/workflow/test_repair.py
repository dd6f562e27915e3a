"""Deterministic repairs before the gate (synth.workflow.repair): each repair on module text of
the kind a small code model writes, the cases that must be left alone, idempotence, and the
gate's own verdict before and after."""

from __future__ import annotations

import ast
import difflib
from pathlib import Path

import pytest

import synth.bootcamp
from synth.gate import CheckReport, CheckResult, CheckStatus, detect_mode, run_checks
from synth.sandbox import get_backend
from synth.sandbox.base import Backend
from synth.sandbox.static import check_source
from synth.workflow import repair
from synth.workflow.repair import (
    FROM_IMPORTS,
    Repair,
    gate_errors,
    repair_from_errors,
    repair_source,
)

REPO = Path(__file__).resolve().parents[2]

# What Qwen2.5-Coder-1.5B wrote, in kind: a plausible bootcamp without the contract import or
# `import re`, with a demo block at the end.
WORD_COUNT = '''"""Bootcamp: count how often a target word occurs in a sentence.

Task: word occurrence counting. Written for the tests of synth.workflow.repair, in the style a
small code model writes.
"""
import random


class WordCountBootcamp(BaseBootcamp):
    LEVELS = {
        "easy": {"num_words": 6, "vocab_size": 3},
        "medium": {"num_words": 14, "vocab_size": 5},
        "hard": {"num_words": 30, "vocab_size": 8},
    }

    def __init__(self, seed=None, num_words=10, vocab_size=4):
        super().__init__(seed=seed)
        self.num_words = num_words
        self.vocab_size = vocab_size

    def case_generator(self):
        vocab = ["apple", "river", "stone", "cloud", "tiger", "lemon", "piano", "forest"]
        vocab = vocab[: self.vocab_size]  # fewer words on easy levels
        words = [self.rng.choice(vocab) for _ in range(self.num_words)]
        target = self.rng.choice(words)
        return {"sentence": " ".join(words), "target": target}

    @staticmethod
    def prompt_func(identity):
        return (
            f"Count how many times the word '{identity['target']}' appears in this sentence:\\n"
            f"{identity['sentence']}\\n"
            "Put the count (a number) inside <answer></answer> tags."
        )

    @classmethod
    def reference_answer(cls, identity):
        words = re.findall(r"[a-z]+", identity["sentence"])
        return str(words.count(identity["target"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        match = re.fullmatch(r"\\s*(\\d{1,6})\\s*", solution)
        if not match:
            return False
        return int(match.group(1)) == int(cls.reference_answer(identity))


# Example usage
if __name__ == "__main__":
    bootcamp = WordCountBootcamp(seed=42)
    case = bootcamp.case_generator()
    print(bootcamp.prompt_func(case))
    print("Answer:", bootcamp.reference_answer(case))
'''

# Counter is imported inside reference_answer only and used unimported in case_generator: the
# static view sees Counter bound, only the gate's NameError shows it is missing where it is used.
MOST_FREQUENT = '''"""Bootcamp: name the most frequent letter of a random string.

Task: letter frequency. Written for the tests of synth.workflow.repair, in the style a small
code model writes (an import inside one method, the name used in another).
"""
import random

from synth.bootcamp import BaseBootcamp


class MostFrequentLetterBootcamp(BaseBootcamp):
    LEVELS = {
        "easy": {"length": 8, "alphabet": 4},
        "medium": {"length": 20, "alphabet": 8},
        "hard": {"length": 60, "alphabet": 16},
    }

    def __init__(self, seed=None, length=12, alphabet=6):
        super().__init__(seed=seed)
        self.length = length
        self.alphabet = alphabet

    def case_generator(self):
        letters = "abcdefghijklmnop"[: self.alphabet]
        while True:
            text = "".join(self.rng.choice(letters) for _ in range(self.length))
            top = Counter(text).most_common(2)
            if len(top) == 1 or top[0][1] > top[1][1]:
                return {"text": text}

    @staticmethod
    def prompt_func(identity):
        return (
            "Which letter occurs most often in the string below? There is exactly one.\\n"
            f"String: {identity['text']}\\n"
            "Answer with the letter inside <answer></answer> tags."
        )

    @classmethod
    def reference_answer(cls, identity):
        from collections import Counter

        return Counter(identity["text"]).most_common(1)[0][0]

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip().lower() == cls.reference_answer(identity)
'''


def bootcamp(body: str, header: str = "import random\n", base: str = "BaseBootcamp") -> str:
    """A small model-style bootcamp module whose _verify_correction body is ``body``."""
    return f'''"""Bootcamp: sum of a list of numbers. Written for the tests of synth.workflow.repair."""
{header}

class SumBootcamp({base}):
    LEVELS = {{"easy": {{"n": 3}}, "hard": {{"n": 9}}}}

    def __init__(self, seed=None, n=5):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {{"numbers": [self.rng.randint(1, 99) for _ in range(self.n)]}}

    @staticmethod
    def prompt_func(identity):
        return f"What is the sum of {{identity['numbers']}}? Answer in <answer></answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["numbers"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
{body}
'''


def kinds(repairs: list[Repair]) -> list[str]:
    return [r.kind for r in repairs]


def parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def assert_idempotent(code: str) -> None:
    assert repair_source(code) == (code, [])


@pytest.fixture(scope="module")
def process_backend() -> Backend:
    return get_backend("process")


# -- the three repairs of the model's module -----------------------------------------------


def test_missing_imports_and_demo_block_are_repaired_and_each_is_recorded():
    new, repairs = repair_source(WORD_COUNT)
    assert kinds(repairs) == ["main_block", "contract_import", "stdlib_import"]
    lines = WORD_COUNT.splitlines()
    main_line = lines.index('if __name__ == "__main__":') + 1
    assert repairs[0] == Repair(
        "main_block", f"removed the top-level `if __name__ == \"__main__\":` block (lines "
        f"{main_line - 1}-{main_line + 4}): the gate imports a bootcamp module, it never runs it "
        "as a script", main_line)
    assert repairs[1] == Repair(
        "contract_import", "added `from synth.bootcamp import BaseBootcamp`: the module uses "
        "BaseBootcamp but never imports it", lines.index("class WordCountBootcamp(BaseBootcamp):") + 1)
    assert repairs[2].detail == ("added `import re`: the module uses re.findall but never "
                                 "imports re")
    assert repairs[2].line == next(i for i, t in enumerate(lines, 1) if "re.findall" in t)
    assert repairs[2].as_dict() == {"kind": "stdlib_import", "detail": repairs[2].detail,
                                    "line": repairs[2].line}
    assert parses(new) and "__main__" not in new and "# Example usage" not in new
    assert new.startswith(WORD_COUNT.split("import random\n")[0] + "import random\nimport re\n"
                          "from synth.bootcamp import BaseBootcamp\n\n\nclass WordCount")
    assert new.endswith("        return int(match.group(1)) == int(cls.reference_answer(identity))\n")
    assert check_source(new) == []
    assert_idempotent(new)


def test_the_model_text_is_kept_line_for_line_apart_from_the_repairs():
    new, _ = repair_source(WORD_COUNT)
    diff = [d for d in difflib.ndiff(WORD_COUNT.splitlines(), new.splitlines()) if d[0] in "+-"]
    added = [d[2:] for d in diff if d[0] == "+"]
    removed = [d[2:] for d in diff if d[0] == "-" and d[2:].strip()]
    assert added == ["import re", "from synth.bootcamp import BaseBootcamp"]
    assert removed[:2] == ["# Example usage", 'if __name__ == "__main__":']
    assert len(removed) == 6 and all(r.startswith("    ") for r in removed[2:])
    assert "  # fewer words on easy levels" in new  # comments stay


@pytest.mark.parametrize("test", ['__name__ == "__main__"', "'__main__' == __name__"])
def test_a_demo_block_in_the_middle_goes_either_way_round(test):
    code = bootcamp("        return solution == cls.reference_answer(identity)",
                    header=f"import random\nfrom synth.bootcamp import BaseBootcamp\n\nif {test}:\n"
                    "    print(SumBootcamp(seed=1).case_generator())\n")
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["main_block"] and repairs[0].line == 5
    assert "__main__" not in new and "class SumBootcamp(BaseBootcamp):" in new
    assert_idempotent(new)


def test_a_demo_block_with_an_else_branch_or_inside_a_function_is_kept():
    with_else = ('"""Doc."""\nif __name__ == "__main__":\n    print(1)\nelse:\n    LIMIT = 5\n')
    nested = ('"""Doc."""\n\ndef demo():\n    if __name__ == "__main__":\n        print(1)\n')
    assert repair_source(with_else) == (with_else, [])
    assert repair_source(nested) == (nested, [])


# -- the contract import ---------------------------------------------------------------------


@pytest.mark.parametrize(("header", "base"), [
    ("from bootcamp import BaseBootcamp", "BaseBootcamp"),
    ("from synth import BaseBootcamp", "BaseBootcamp"),
    ("from internbootcamp.bootcamp.base import Basebootcamp", "Basebootcamp"),
    ("from bootcamp import Basebootcamp", "Basebootcamp"),
    ("from .base import Basebootcamp", "Basebootcamp"),
    ("from synth.bootcamp import Basebootcamp", "Basebootcamp"),
    ("from internbootcamp.bootcamp.base import (\n    Basebootcamp,\n)", "Basebootcamp"),
])
def test_a_wrong_contract_import_is_rewritten(header, base):
    code = bootcamp("        return solution.strip() == cls.reference_answer(identity)",
                    header=f"import random\n{header}\n", base=base)
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["contract_import"], repairs
    assert repairs[0].line == 3
    old = " ".join(header.split())
    assert repairs[0].detail.startswith(
        f"replaced `{old}` with `from synth.bootcamp import BaseBootcamp`")
    if base != "BaseBootcamp":
        assert f"renamed {base} to BaseBootcamp at 1 use(s)" in repairs[0].detail
    assert "import random\nfrom synth.bootcamp import BaseBootcamp\n\n\nclass SumBootcamp(BaseBootcamp):" in new
    assert "Basebootcamp" not in new and detect_mode(new) == ("native", False)
    assert check_source(new) == []
    assert_idempotent(new)


def test_an_alias_of_the_wrong_import_is_kept():
    code = bootcamp("        return solution == cls.reference_answer(identity)",
                    header="from bootcamp import Basebootcamp as Base\n", base="Base")
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["contract_import"]
    assert "from synth.bootcamp import BaseBootcamp as Base\n" in new and check_source(new) == []


def test_a_star_import_of_the_contract_becomes_the_names_used():
    code = bootcamp("        return solution == cls.reference_answer(identity)\n\n"
                    "    @staticmethod\n    def last_block(response):\n"
                    "        return response.split(ANSWER_OPEN)[-1].split(ANSWER_CLOSE)[0]",
                    header="from synth.bootcamp import *\n")
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["contract_import"]
    assert "from synth.bootcamp import ANSWER_CLOSE, ANSWER_OPEN, BaseBootcamp\n" in new
    assert check_source(new) == []


def test_other_contract_names_are_imported_too():
    code = bootcamp("        return solution == cls.reference_answer(identity)\n\n"
                    "    @classmethod\n    def wrap_answer(cls, answer):\n"
                    "        return ANSWER_OPEN + answer + ANSWER_CLOSE",
                    header="import random\n")
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["contract_import"]
    assert repairs[0].detail == ("added `from synth.bootcamp import ANSWER_CLOSE, ANSWER_OPEN, "
                                 "BaseBootcamp`: the module uses ANSWER_CLOSE, ANSWER_OPEN, "
                                 "BaseBootcamp but never imports them")
    assert "import random\nfrom synth.bootcamp import ANSWER_CLOSE, ANSWER_OPEN, BaseBootcamp\n" in new


def test_a_contract_name_the_module_defines_itself_is_not_imported():
    code = bootcamp("        return solution == cls.reference_answer(identity)",
                    header="import random\nfrom synth.bootcamp import BaseBootcamp\n\n"
                    'ANSWER_OPEN = "<answer>"\nprint(ANSWER_OPEN)\n')
    assert repair_source(code) == (code, [])


def test_the_contract_names_are_read_from_the_contract_source():
    names, classes = repair._contract()
    assert names == tuple(synth.bootcamp.__all__)
    assert classes == {n for n in names if isinstance(getattr(synth.bootcamp, n), type)}
    assert {"BaseBootcamp", "ANSWER_OPEN"} <= set(names) and "BaseBootcamp" in classes
    for cls in classes:  # a class the contract adds later is a rename target at once
        assert repair._closest_class(cls.lower()) == cls
        assert repair._closest_class(cls + "s") == cls


# -- the base class ---------------------------------------------------------------------------


@pytest.mark.parametrize("typo", ["BaseBootCamp", "Basebootcamp", "BaseBootcamps", "BootcampBase",
                                  "Bootcamp", "basebootcamp"])
def test_a_misspelt_base_class_is_renamed_everywhere(typo):
    code = bootcamp(f"        return {typo}.extract_output({typo}.wrap_answer(solution)) == "
                    "cls.reference_answer(identity)",
                    header="import random\nfrom synth.bootcamp import BaseBootcamp\n", base=typo)
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["base_class"]
    assert repairs[0] == Repair(
        "base_class", f"renamed the base class `{typo}` of SumBootcamp to `BaseBootcamp` (3 use(s)): "
        f"{typo} is defined nowhere; the contract (synth.bootcamp) defines BaseBootcamp", 6)
    assert typo not in {n.id for n in ast.walk(ast.parse(new)) if isinstance(n, ast.Name)}
    assert "return BaseBootcamp.extract_output(BaseBootcamp.wrap_answer(solution))" in new
    assert check_source(new) == []
    assert_idempotent(new)


def test_a_misspelt_base_without_an_import_gets_both_repairs():
    code = bootcamp("        return solution == cls.reference_answer(identity)", base="BaseBootCamp")
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["base_class", "contract_import"]
    assert "import random\nfrom synth.bootcamp import BaseBootcamp\n" in new
    assert check_source(new) == []


@pytest.mark.parametrize("header", [
    "import random\nfrom synth.bootcamp import BaseBootcamp\n\n\nclass BootcampBase(BaseBootcamp):\n"
    "    pass\n",  # the model's own intermediate class: bound, not a typo
    "import random\nfrom synth.bootcamp import BaseBootcamp\nfrom puzzles import Bootcamp\n",
])
def test_a_base_that_the_module_binds_is_not_renamed(header):
    base = "Bootcamp" if "puzzles" in header else "BootcampBase"
    code = bootcamp("        return solution == cls.reference_answer(identity)", header=header,
                    base=base)
    assert "base_class" not in kinds(repair_source(code)[1])


def test_a_base_that_is_not_close_to_a_contract_class_is_left_to_the_gate():
    code = bootcamp("        return solution == cls.reference_answer(identity)",
                    header="import random\nfrom synth.bootcamp import BaseBootcamp\n",
                    base="Puzzle")
    assert repair_source(code) == (code, [])


# -- standard-library imports ----------------------------------------------------------------


@pytest.mark.parametrize(("body", "line"), [
    ("        counts = Counter(solution.split())\n        return len(counts) == 1",
     "from collections import Counter"),
    ("        seen = defaultdict(int)\n        return not seen", "from collections import defaultdict"),
    ("        q = deque(identity['numbers'])\n        return bool(q)", "from collections import deque"),
    ("        return Fraction(solution) == sum(identity['numbers'])", "from fractions import Fraction"),
    ("        heap = []\n        heappush(heap, 1)\n        return bool(heap)",
     "from heapq import heappush"),
    ("        return gcd(int(solution), 1) == 1", "from math import gcd"),
    ("        best: List[int] = []\n        return not best", "from typing import List"),
    ("        return math.isclose(float(solution), sum(identity['numbers']))", "import math"),
    ("        return json.loads(solution) == sum(identity['numbers'])", "import json"),
    ("        @lru_cache(maxsize=None)\n        def total(i):\n            return i\n"
     "        return total(1) == 1", "from functools import lru_cache"),
])
def test_a_missing_standard_library_import_is_added(body, line):
    code = bootcamp(body, header="import random\nfrom synth.bootcamp import BaseBootcamp\n")
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["stdlib_import"]
    assert repairs[0].detail.startswith(f"added `{line}`: the module uses ")
    assert f"import random\n{line}\nfrom synth.bootcamp import BaseBootcamp\n" in new
    assert check_source(new) == []
    assert_idempotent(new)


def test_a_dataclass_helper_gets_its_imports_in_source_order():
    code = ('"""Bootcamp helpers. Written for the tests of synth.workflow.repair."""\n'
            "from synth.bootcamp import BaseBootcamp\n\n\n@dataclass\nclass Grid:\n"
            "    cells: list = field(default_factory=list)\n")
    new, repairs = repair_source(code)
    assert [r.detail.split("`")[1] for r in repairs] == [
        "from dataclasses import dataclass", "from dataclasses import field"]
    assert new.startswith('"""Bootcamp helpers. Written for the tests of synth.workflow.repair."""\n\n'
                          "from dataclasses import dataclass\nfrom dataclasses import field\n"
                          "from synth.bootcamp import BaseBootcamp\n")


@pytest.mark.parametrize("body", [
    # bound by assignment, as a parameter, in a comprehension, in a loop, by a local import
    "        statistics = {'n': len(solution)}\n        return statistics.get('n') == 1",
    "        def clean(string):\n            return string.strip()\n        return clean(solution) == ''",
    "        return all(string.isdigit() for string in solution.split())",
    "        for heapq in solution.split():\n            return heapq.isdigit()\n        return False",
    "        re = cls.PATTERN\n        return re.match(solution) is not None",
    "        from collections import Counter\n        return Counter(solution)['a'] == 1",
    # not on the allowlist: never imported
    "        return os.path.exists(solution) or sys.maxsize > 0 or np.sum([1]) == 1",
    # a function name in the table used as a plain value: a forgotten variable, not itertools
    "        return solution == str(product)",
    # a module name that is never used as `module.attr`
    "        return solution == random",
])
def test_names_the_module_binds_or_that_are_not_allowlisted_are_not_imported(body):
    code = bootcamp(body, header="import random\nfrom synth.bootcamp import BaseBootcamp\n"
                    if "random\n" not in body else "from synth.bootcamp import BaseBootcamp\n")
    assert repair_source(code) == (code, [])


def test_the_table_imports_only_allowlisted_modules():
    from synth.sandbox.static import ALLOWED_IMPORTS
    assert set(FROM_IMPORTS.values()) <= ALLOWED_IMPORTS - {"__future__"}
    assert {"Counter", "defaultdict", "lru_cache", "Fraction", "permutations", "heappush",
            "bisect_left", "dataclass", "gcd", "Any"} <= set(FROM_IMPORTS)


# -- what is never touched ---------------------------------------------------------------------


@pytest.mark.parametrize("code", [
    WORD_COUNT.replace("def case_generator(self):", "def case_generator(self)"),
    "class Broken(BaseBootcamp:\n    pass\n",
    "",
])
def test_code_that_does_not_parse_is_returned_unchanged(code):
    assert repair_source(code) == (code, [])
    assert repair_from_errors(code, ["NameError: name 're' is not defined"]) == (code, [])


@pytest.mark.parametrize("path", sorted((REPO / "generated_bootcamps" / "handwritten").glob("[!_]*.py")),
                         ids=lambda p: p.name)
def test_the_shipped_bootcamps_need_no_repair(path):
    code = path.read_text(encoding="utf-8")
    assert repair_source(code) == (code, [])


def test_a_repair_whose_edit_would_not_parse_is_skipped_and_not_recorded():
    def breaks(src, tree):
        yield repair._Fix("bad", lambda s: s.splice(1, 0, ["def ("]), Repair("x", "never"))

    code = WORD_COUNT
    assert repair._run(code, [breaks]) == (code, [])
    new, repairs = repair._run(code, [breaks, repair._main_block])
    assert kinds(repairs) == ["main_block"] and "__main__" not in new


def test_crlf_line_endings_are_kept():
    code = WORD_COUNT.replace("\n", "\r\n")
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["main_block", "contract_import", "stdlib_import"]
    assert "\r\nimport re\r\nfrom synth.bootcamp import BaseBootcamp\r\n" in new
    assert "\n" not in new.replace("\r\n", "")


def test_a_module_without_a_docstring_gets_the_import_first():
    code = "class SumBootcamp(BaseBootcamp):\n    pass\n"
    new, repairs = repair_source(code)
    assert kinds(repairs) == ["contract_import"]
    assert new == "from synth.bootcamp import BaseBootcamp\n\nclass SumBootcamp(BaseBootcamp):\n    pass\n"


# -- repairs the gate's errors call for --------------------------------------------------------


def test_a_name_error_shows_an_import_the_static_view_cannot_see():
    assert repair_source(MOST_FREQUENT) == (MOST_FREQUENT, [])
    errors = ["case_generator (level 'easy', case 0): raised NameError: name 'Counter' is not defined",
              "Traceback ...\nNameError: name 'Counter' is not defined\n"]
    new, repairs = repair_from_errors(MOST_FREQUENT, errors)
    assert repairs == [Repair(
        "stdlib_import", "added `from collections import Counter`: the gate reported NameError: "
        "name 'Counter' is not defined (Counter is bound only inside a function or class, not at "
        "module level)", MOST_FREQUENT.splitlines().index(
            "            top = Counter(text).most_common(2)") + 1)]
    assert "import random\nfrom collections import Counter\n\nfrom synth.bootcamp import" in new
    assert repair_from_errors(new, errors) == (new, [])
    assert_idempotent(new)


@pytest.mark.parametrize("error", [
    "NameError: name 'sympy' is not defined",  # not allowlisted
    "NameError: name 'Counterr' is not defined",  # not in the table
    "NameError: name 'heapq' is not defined",  # not used by the module
    "NameError: name 'random' is not defined",  # bound at module scope: an ordering problem
    "ValueError: LEVELS['hard'] is invalid",
])
def test_an_error_that_names_nothing_repairable_changes_nothing(error):
    assert repair_from_errors(MOST_FREQUENT, [error]) == (MOST_FREQUENT, [])


def test_a_name_error_for_a_contract_name_adds_the_contract_import():
    code = MOST_FREQUENT.replace("from synth.bootcamp import BaseBootcamp\n", "")
    new, repairs = repair_from_errors(code, ["NameError: name 'BaseBootcamp' is not defined"])
    assert kinds(repairs) == ["contract_import"]
    assert "from synth.bootcamp import BaseBootcamp" in new and check_source(new) == []


def test_gate_errors_reads_the_failing_checks_only():
    report = CheckReport(candidate_sha256="0" * 64, backend="process", passed=False, checks=[
        CheckResult(name="static", status=CheckStatus.PASSED, reason="fine"),
        CheckResult(name="load", status=CheckStatus.ERROR, reason="raised NameError: x",
                    artifacts={"traceback": "Traceback\nNameError: name 're' is not defined"}),
        CheckResult(name="construct", status=CheckStatus.SKIPPED, reason="not run"),
    ])
    assert gate_errors(report) == ["raised NameError: x",
                                   "Traceback\nNameError: name 're' is not defined"]


# -- the gate before and after -----------------------------------------------------------------


def test_the_model_module_fails_load_and_passes_the_gate_once_repaired(process_backend):
    before = run_checks(WORD_COUNT, backend=process_backend)
    load = before.get("load")
    assert load is not None and load.status is CheckStatus.ERROR
    assert "NameError: name 'BaseBootcamp' is not defined" in load.reason
    new, repairs = repair_source(WORD_COUNT)
    assert len(repairs) == 3
    after = run_checks(new, backend=process_backend)
    assert after.get("load").status is CheckStatus.PASSED  # type: ignore[union-attr]
    assert after.passed, after.feedback()


def test_the_gate_error_drives_the_repair_the_source_alone_does_not_show(process_backend):
    before = run_checks(MOST_FREQUENT, backend=process_backend)
    generate = before.get("generate")
    assert generate is not None and generate.status is CheckStatus.ERROR
    new, repairs = repair_from_errors(MOST_FREQUENT, gate_errors(before))
    assert kinds(repairs) == ["stdlib_import"]
    after = run_checks(new, backend=process_backend)
    assert after.passed, after.feedback()


def test_a_missing_module_docstring_is_added_when_the_caller_knows_the_task():
    code = "from synth.bootcamp import BaseBootcamp\n\n\nclass X(BaseBootcamp):\n    pass\n"
    fixed, repairs = repair_source(code, docstring="Bootcamp for task cc/1 (Stack Leveling).")
    assert fixed.startswith('"""Bootcamp for task cc/1 (Stack Leveling)."""\n')
    assert [r.kind for r in repairs] == ["docstring"]
    assert repair_source(fixed, docstring="other")[1] == []  # a docstring is never replaced
    assert repair_source(code)[1] == []  # without the text nothing is invented
    shebang = "#!/usr/bin/env python3\n" + code
    fixed, _ = repair_source(shebang, docstring='say """hi"""')
    assert fixed.splitlines()[:2] == ["#!/usr/bin/env python3", "\"\"\"say '''hi'''\"\"\""]


LABELLED = '''"""Bootcamp: a labelled render_stdin, in the way a small model writes it (test fixture)."""
from synth.bootcamp import CompiledBootcamp


class LabelBootcamp(CompiledBootcamp):
    @staticmethod
    def render_stdin(identity):
        head = f"Input: {identity['n']} {identity['k']}\\n"
        rows = "INPUT:\\n" + " ".join(map(str, identity["a"]))
        return head + rows + "\\n"

    @staticmethod
    def prompt_func(identity):
        return f"Input: {identity['n']}" + f"input{identity['k']}"
'''


def test_the_input_label_is_removed_from_render_stdin_only():
    fixed, repairs = repair_source(LABELLED)
    assert [r.kind for r in repairs] == ["stdin_label", "stdin_label"]
    assert [r.line for r in repairs] == [8, 9]
    assert "head = f\"{identity['n']} {identity['k']}\\n\"" in fixed
    assert 'rows = "" + " ".join' in fixed
    assert "return f\"Input: {identity['n']}\" + f\"input{identity['k']}\"" in fixed  # not stdin
    assert repair_source(fixed) == (fixed, [])  # idempotent
