"""Issue 12, item 3: the answer-side probes of InternBootcamp-style classes, which have no
reference answer (synth/gate/intern_probes.py, intern_fields.py, intern_answers.py).

Each probe is shown rejecting a module with its defect, and NOT rejecting a fine module whose
task legitimately looks like it (a balanced yes/no answer, a format example, a target shown in
the prompt, a stored answer the prompt hides, a set answer in any order, a verifier that
parses the response with ast.literal_eval, ``import subprocess`` that never runs).
"""

from __future__ import annotations

import textwrap
import time

import pytest

from synth.gate import CheckReport, CheckResult, CheckStatus, run_checks
from synth.gate import intern_answers as ia
from synth.gate.intern_fields import depends, derived, labelled
from synth.gate.intern_probes import event_finding
from synth.sandbox.kit import CANARY

HEAD = '''"""InternBootcamp-style test module written for bootcamp-synth's tests."""

import random
import re
{imports}
from bootcamp import Basebootcamp


'''
#: A correct task -- the sum of a list -- in InternBootcamp's shape; each test replaces a part.
PARTS = {
    "init": """
        def __init__(self, n=5):
            self.n = n
    """,
    "generate": """
        def case_generator(self):
            return {"nums": [random.randint(1, 99) for _ in range(self.n)]}
    """,
    "prompt": """
        @staticmethod
        def prompt_func(question_case):
            listed = " ".join(map(str, question_case["nums"]))
            return f"What is the sum of {listed}? Reply as [answer]N[/answer]."
    """,
    "extract": """
        @staticmethod
        def extract_output(output):
            found = re.findall(r"\\[answer\\](.*?)\\[/answer\\]", output, re.DOTALL)
            return found[-1].strip() if found else None
    """,
    "verify": """
        @classmethod
        def _verify_correction(cls, solution, identity):
            return int(solution) == sum(identity["nums"])
    """,
}


def module(imports: str = "", **parts: str) -> str:
    body = "\n".join(textwrap.indent(textwrap.dedent(parts.get(k, v)).strip("\n"), "    ")
                     + "\n" for k, v in PARTS.items())
    return HEAD.format(imports=imports) + "class Taskbootcamp(Basebootcamp):\n" + body


def audit(source: str, backend) -> CheckReport:
    report = run_checks(source, backend=backend, name="t.py")
    assert report.mode == "intern"
    return report


def check(report: CheckReport, name: str) -> CheckResult:
    found = report.get(name)
    assert found is not None
    return found


def findings(report: CheckReport) -> set[str]:
    return {c.finding for c in report.checks if not c.clean and c.severity == "reject"} | {
        line.split(":")[0].removeprefix("[reject] ")
        for c in report.checks for line in c.artifacts.get("findings", "").splitlines()}


def assert_accepted(report: CheckReport) -> None:
    assert report.verdict == "accepted", report.feedback()
    for name in ("case_fields", "answer_probes"):
        assert check(report, name).status is CheckStatus.PASSED, check(report, name)


# -- pure host functions (no sandbox) -----------------------------------------------------------


def test_answer_formats_are_the_tags_the_prompts_name():
    prompts = ["Reply as [answer]N[/answer].", "Put it in [[ ]] like [[3]]"]
    assert ia.answer_formats(prompts) == [("[answer]", "[/answer]"), ("[[", "]]")]
    assert ("", "") in ia.answer_formats(["Say the number."])


def test_format_examples_are_read_from_the_innermost_tags():
    prompt = "Put your answer within [answer] tags, like [answer]First[/answer] or " \
             "[answer]Second[/answer]."
    assert ia.examples(prompt, ("[answer]", "[/answer]")) == ["First", "Second"]


def test_shown_lists_need_their_order_and_short_items_need_a_run():
    prompt = "Sort 5 3 8 1. Output 1 to reverse or 0 to leave, e.g. [answer]0 1 1 0[/answer]."
    assert ia.shown([5, 3, 8, 1], prompt)
    assert not ia.shown([3, 5, 8, 1], prompt)
    assert not ia.shown([0, 0, 0, 0, 1], prompt)  # 0 and 1 appear, the list does not
    towns = "Ashby is 12 km away; Brill is 40 km away; Corfe is 7 km away."
    assert ia.shown(["Ashby", "Brill", "Corfe"], towns)
    assert not ia.shown(["Brill", "Ashby"], towns)
    assert ia.shown("volcano", "[target=volcano]") and not ia.shown("vol", "volcano")


def test_constant_answers_come_from_the_module_and_the_prompts():
    source = 'DAYS = ["monday", "tuesday"]\nX = {"tiger": 1, "otter": 2}\ndef f():\n    return [1, 2]\n'
    assert ia.vocabulary(source) == ["monday", "tiger", "1", "tuesday", "otter", "2"]
    prompts = ["Today is Monday, add 3 days.", "Today is Monday, add 9 days."]
    assert "Monday" in ia.template_tokens(prompts) and "3" not in ia.template_tokens(prompts)
    assert "planet" in ia.frequent_values([{"word": "planet"}, {"word": "planet"}, {"word": "x"}])


def test_case_probes_arrange_what_the_prompt_shows():
    case = {"numbers": [5, 3, 8], "n": 4}
    prompt = "Sort 5 3 8 and count to 4. Reply as [answer]a b c[/answer]."
    answers = {p.answer: p.kind for p in ia.case_probes(case, prompt, [("[answer]", "[/answer]")])}
    assert answers["5 3 8"] == "value" and answers["3 5 8"] == "ascending"
    assert answers["8 3 5"] == "reversed" and answers["1 2 3 4"] == "count_up"
    assert answers["a b c"] == "example" and answers["100"] == "binary"
    hidden = ia.case_probes({"order": [2, 1]}, "Nothing shown.", [("[answer]", "[/answer]")])
    assert not any(p.kind == "reversed" for p in hidden)


def test_canary_and_mapping_probes():
    payloads = ia.canary_payloads({"numbers": [6, 10, 8, 11]})
    assert all(p.startswith(f"__import__('{CANARY}') or ") for p in payloads)
    assert any(p.endswith("6+10+8+11") for p in payloads)
    assert "hi" in ia.mapping_probes({"cipher": "ij", "table": {"h": "i", "i": "j"}})


def test_labels_derived_fields_and_dependence():
    assert labelled('data: {"answer": 42, "n": 3}', "answer", "42")
    assert labelled("corners\nexpected: 12.", "expected", "12")
    assert labelled("fits? [target=volcano]", "target", "volcano")
    assert not labelled("choose numbers whose sum is exactly 42", "target", "42")
    assert not labelled("answer: 421", "answer", "42")
    assert derived({"edges": [[1, 2], [2, 3]], "n": 2}, "n")
    assert not derived({"edges": [[1, 2]], "rate": 37}, "rate")
    trees = [{"edges": [[0, i]] * i, "leaves": i + (i % 2)} for i in range(1, 20)]
    assert depends(trees, "leaves") == "len(edges)"
    rates = [{"amount": a, "rate": (a * 7919) % 97} for a in range(10, 30)]
    assert depends(rates, "rate") is None


def test_refusals_are_named_by_what_was_refused():
    assert event_finding("executing the text of a response (it imported the canary)") \
        == "executes_response"
    assert event_finding("subprocess.Popen") == "runs_subprocess"
    assert event_finding("opening a file descriptor", 'File "/usr/lib/python3.11/subprocess.py"') \
        == "runs_subprocess"
    assert event_finding("reading /usr/share/dict/words, a file outside ...") \
        == "reads_machine_file"


# -- the probes on sandboxed modules (process backend) ------------------------------------------


def test_a_fine_module_passes_both_probe_checks(process_backend):
    report = audit(module(), process_backend)
    assert_accepted(report)
    assert "probe responses scored" in check(report, "answer_probes").reason


def test_native_bootcamps_skip_the_intern_probes(process_backend):
    from helpers import TOY_SUM

    report = run_checks(TOY_SUM, backend=process_backend, name="toy.py")
    assert report.mode == "native" and report.passed, report.feedback()
    for name in ("case_fields", "answer_probes"):
        assert check(report, name).status is CheckStatus.SKIPPED
        assert "reference_answer" in check(report, name).reason


TRIVIAL_RESIDUAL = """
    @classmethod
    def _verify_correction(cls, solution, identity):
        x = int(solution.split()[0])
        return x <= sum(identity["nums"])
"""

YES_NO = {
    "generate": """
        def case_generator(self):
            return {"n": random.randint(10, 10**6)}
    """,
    "prompt": """
        @staticmethod
        def prompt_func(question_case):
            return (f"Is {question_case['n']} even? Answer [answer]yes[/answer] or "
                    "[answer]no[/answer].")
    """,
    "verify": """
        @classmethod
        def _verify_correction(cls, solution, identity):
            return solution == ("yes" if identity["n"] % 2 == 0 else "no")
    """,
}


def test_a_constant_answer_accepted_on_every_case_rejects(process_backend):
    report = audit(module(verify=TRIVIAL_RESIDUAL), process_backend)
    probes = check(report, "answer_probes")
    assert report.verdict == "rejected" and report.decisive is probes
    assert probes.finding == "constant_answer" and probes.severity == "reject"
    assert "'0'" in probes.reason and "of 40 cases" in probes.reason
    assert probes.artifacts["response"] == "[answer]0[/answer]"


def test_a_balanced_yes_no_task_is_not_a_constant_answer(process_backend):
    """'yes' and 'no' each score 1.0 on about half of the cases, and both are the prompt's
    format examples: neither is a constant answer nor an example that is the answer."""
    assert_accepted(audit(module(**YES_NO), process_backend))


def test_an_example_computed_from_the_case_gives_the_answer_away(process_backend):
    report = audit(module(prompt="""
        @staticmethod
        def prompt_func(question_case):
            example = sum(question_case["nums"])
            return f"Add {question_case['nums']}. Reply like [answer]{example}[/answer]."
    """), process_backend)
    assert check(report, "answer_probes").finding == "example_is_answer"


ANIMALS = {
    "generate": """
        def case_generator(self):
            animal = random.choice(ANIMALS)
            return {"letters": "".join(sorted(animal))}
    """,
    "prompt": """
        @staticmethod
        def prompt_func(question_case):
            return (f"Which animal has the letters {question_case['letters']}? "
                    "Answer as [answer]animal[/answer].")
    """,
    "verify": """
        @classmethod
        def _verify_correction(cls, solution, identity):
            return solution in ANIMALS and "".join(sorted(solution)) == identity["letters"]
    """,
}
ANIMAL_LIST = ('ANIMALS = ["tiger", "zebra", "otter", "badger", "falcon", "walrus", "donkey", '
               '"jaguar", "rabbit", "turtle", "lizard", "beaver", "parrot", "salmon"]\n')


def test_an_answer_that_fits_every_case_rejects_and_one_of_many_words_does_not(process_backend):
    lax = audit(module(imports=ANIMAL_LIST, **{**ANIMALS, "verify": """
        @classmethod
        def _verify_correction(cls, solution, identity):
            return solution in ANIMALS
    """}), process_backend)
    assert check(lax, "answer_probes").finding == "constant_answer"
    assert "module's own lists" in check(lax, "answer_probes").reason
    assert_accepted(audit(module(imports=ANIMAL_LIST, **ANIMALS), process_backend))


SORT = {
    "prompt": """
        @staticmethod
        def prompt_func(question_case):
            listed = " ".join(map(str, question_case["nums"]))
            return f"Sort {listed} from smallest to largest as [answer]a b ...[/answer]."
    """,
    "verify": """
        @classmethod
        def _verify_correction(cls, solution, identity):
            return [int(x) for x in solution.split()] == sorted(identity["nums"])
    """,
}


def test_a_sort_that_accepts_any_order_rejects_and_a_real_sort_does_not(process_backend):
    lax = audit(module(**{**SORT, "verify": """
        @classmethod
        def _verify_correction(cls, solution, identity):
            return sorted(int(x) for x in solution.split()) == sorted(identity["nums"])
    """}), process_backend)
    assert {"answer_is_input", "order_ignored"} <= findings(lax)
    assert_accepted(audit(module(**SORT), process_backend))


def test_a_subset_answer_in_any_order_with_a_shown_target_is_fine(process_backend):
    """The prompt shows the target (part of the question) and any order of the chosen numbers
    is right: neither a leak nor an ignored order."""
    assert_accepted(audit(module(
        generate="""
            def case_generator(self):
                nums = random.sample(range(1, 80), 8)
                return {"nums": nums, "target": sum(random.sample(nums, 3))}
        """,
        prompt="""
            @staticmethod
            def prompt_func(question_case):
                return (f"From {question_case['nums']} pick numbers that add up to target: "
                        f"{question_case['target']}. Answer as [answer]a b c[/answer].")
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                picked = [int(x) for x in solution.split()]
                return bool(picked) and set(picked) <= set(identity["nums"]) and \\
                    len(set(picked)) == len(picked) and sum(picked) == identity["target"]
        """), process_backend))


def test_a_verifier_that_reads_a_prefix_is_lenient(process_backend):
    report = audit(module(
        generate="""
            def case_generator(self):
                return {"value": random.randint(1000, 10**7)}
        """,
        prompt="""
            @staticmethod
            def prompt_func(question_case):
                return f"Write {question_case['value']} in binary as [answer]bits[/answer]."
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return solution[:3] == format(identity["value"], "b")[:3]
        """), process_backend)
    assert check(report, "answer_probes").finding == "lenient_verifier"


def test_a_verifier_that_runs_the_response_is_found_and_literal_eval_is_not(process_backend):
    evaluating = audit(module(verify="""
        @classmethod
        def _verify_correction(cls, solution, identity):
            return eval(solution) == sum(identity["nums"])
    """), process_backend)
    probes = check(evaluating, "answer_probes")
    assert probes.finding == "executes_response", probes
    assert CANARY in probes.artifacts["responses"]
    parsing = audit(module(imports="import ast\n", verify="""
        @classmethod
        def _verify_correction(cls, solution, identity):
            return ast.literal_eval(solution) == sum(identity["nums"])
    """), process_backend)
    assert_accepted(parsing)


def test_a_subprocess_is_a_finding_when_it_runs_not_when_it_is_imported(process_backend):
    imported = audit(module(imports="import subprocess\nimport shutil\n"), process_backend)
    assert_accepted(imported)
    running = audit(module(imports="import subprocess\nimport sys\n", verify="""
        @classmethod
        def _verify_correction(cls, solution, identity):
            out = subprocess.run([sys.executable, "-c", "print(1)"], capture_output=True)
            return solution == out.stdout.strip() or int(solution) == sum(identity["nums"])
    """), process_backend)
    assert running.verdict == "rejected"
    assert "runs_subprocess" in findings(running)
    garbage = check(running, "garbage")  # every check that ran it says so, with the evidence
    assert garbage.finding == "runs_subprocess" and "refused" in garbage.artifacts


def test_reading_a_file_of_the_machine_is_a_finding_and_the_module_s_own_is_not(process_backend):
    machine = audit(module(verify="""
        @classmethod
        def _verify_correction(cls, solution, identity):
            try:
                with open("/etc/hostname") as fh:
                    fh.read()
            except OSError:
                pass
            return int(solution) == sum(identity["nums"])
    """), process_backend)
    assert check(machine, "answer_probes").finding == "reads_machine_file"
    own = audit(module(verify="""
        @classmethod
        def _verify_correction(cls, solution, identity):
            with open(__file__, encoding="utf-8") as fh:
                fh.read(10)
            return int(solution) == sum(identity["nums"])
    """), process_backend)
    assert_accepted(own)


def test_a_verifier_that_changes_its_case_or_its_mind_is_impure(process_backend):
    popping = audit(module(
        generate="""
            def case_generator(self):
                nums = [random.randint(1, 99) for _ in range(self.n)]
                return {"nums": nums, "total": sum(nums)}
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return int(solution) == identity.pop("total")
        """), process_backend)
    assert "impure_verifier" in findings(popping)


def test_a_prompt_that_changes_from_call_to_call_is_nondeterministic(process_backend):
    report = audit(module(prompt="""
        @staticmethod
        def prompt_func(question_case):
            tone = random.choice(["Please", "Kindly", "Now", "Quickly", "Carefully"])
            return f"{tone} add {question_case['nums']}. Reply as [answer]N[/answer]."
    """), process_backend)
    assert "nondeterministic_prompt" in findings(report) or \
        check(report, "prompt").status is CheckStatus.FAILED


def test_a_slow_verifier_is_timed_on_a_well_formed_answer(process_backend):
    """Garbage returns at once; a well-formed answer costs seconds: found within the call
    limit, with the time, and the probe check ends in bounded wall time."""
    start = time.monotonic()
    report = audit(module(imports="import time\n", verify="""
        @classmethod
        def _verify_correction(cls, solution, identity):
            value = int(solution)  # garbage stops here
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                pass
            return value == sum(identity["nums"])
    """), process_backend)
    elapsed = time.monotonic() - start
    probes = check(report, "answer_probes")
    assert probes.finding == "slow_verifier" and "2s" in probes.reason
    assert probes.elapsed_s < 8 and elapsed < 40, (probes.elapsed_s, elapsed)
    assert report.verdict == "rejected"


def test_a_verifier_of_a_few_ms_is_not_slow_and_the_probes_keep_their_budget(process_backend):
    report = audit(module(imports="import time\n", verify="""
        @classmethod
        def _verify_correction(cls, solution, identity):
            time.sleep(0.01)
            return int(solution) == sum(identity["nums"])
    """), process_backend)
    assert_accepted(report)
    assert check(report, "answer_probes").elapsed_s < 12


# -- case fields ---------------------------------------------------------------------------------


def test_a_labelled_answer_in_the_prompt_is_a_leak(process_backend):
    report = audit(module(
        generate="""
            def case_generator(self):
                nums = [random.randint(1, 99) for _ in range(self.n)]
                return {"nums": nums, "expected": sum(nums)}
        """,
        prompt="""
            @staticmethod
            def prompt_func(question_case):
                lines = "\\n".join(f"{k}: {v}" for k, v in question_case.items())
                return f"Add the numbers.\\n{lines}\\nReply as [answer]N[/answer]."
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return int(solution) == identity["expected"]
        """), process_backend)
    fields = check(report, "case_fields")
    assert fields.finding == "answer_leak" and "'expected'" in fields.reason


def test_a_stored_answer_the_prompt_hides_is_fine(process_backend):
    assert_accepted(audit(module(
        generate="""
            def case_generator(self):
                nums = [random.randint(1, 99) for _ in range(self.n)]
                return {"nums": nums, "count": len(nums), "answer": sum(nums)}
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return int(solution) == identity["answer"] and identity["count"] > 0
        """), process_backend))


def test_a_constant_stored_answer_rejects(process_backend):
    report = audit(module(
        generate="""
            def case_generator(self):
                return {"nums": [random.randint(1, 99) for _ in range(self.n)], "answer": 7}
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return int(solution) == identity["answer"]
        """), process_backend)
    assert {"constant_answer_field", "constant_answer"} <= findings(report)


@pytest.mark.parametrize("hidden", ["rate", "table"])
def test_an_input_the_prompt_never_shows_is_missing_info(process_backend, hidden):
    if hidden == "rate":
        parts = {
            "generate": """
                def case_generator(self):
                    return {"amount": random.randint(10, 500), "rate": random.randint(20, 480)}
            """,
            "prompt": """
                @staticmethod
                def prompt_func(question_case):
                    return (f"Change {question_case['amount']} crowns at today's rate. "
                            "Reply as [answer]N[/answer].")
            """,
            "verify": """
                @classmethod
                def _verify_correction(cls, solution, identity):
                    return int(solution) == identity["amount"] * identity["rate"] // 100
            """,
        }
    else:
        parts = {
            "imports": "import string\n",
            "generate": """
                def case_generator(self):
                    table = dict(zip(string.ascii_lowercase,
                                     random.sample(string.ascii_lowercase, 26)))
                    plain = " ".join(random.choice(["signal", "garden", "winter", "forest"])
                                     for _ in range(3))
                    return {"cipher": "".join(table.get(c, c) for c in plain), "table": table}
            """,
            "prompt": """
                @staticmethod
                def prompt_func(question_case):
                    return (f"Decrypt {question_case['cipher']} with the puzzle's table. "
                            "Reply as [answer]text[/answer].")
            """,
            "verify": """
                @classmethod
                def _verify_correction(cls, solution, identity):
                    back = {v: k for k, v in identity["table"].items()}
                    return solution == "".join(back.get(c, c) for c in identity["cipher"])
            """,
        }
    report = audit(module(**parts), process_backend)
    fields = check(report, "case_fields")
    assert fields.finding == "prompt_missing_info" and f"'{hidden}'" in fields.reason


def test_a_hidden_field_the_verdict_does_not_depend_on_is_fine(process_backend):
    """The verifier reads a hidden field but its value changes no verdict (and a hidden count
    that is the list's length): nothing is missing from the prompt."""
    assert_accepted(audit(module(
        generate="""
            def case_generator(self):
                nums = [random.randint(1, 99) for _ in range(self.n)]
                return {"nums": nums, "salt": random.randint(0, 10**6), "size": len(nums)}
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return int(solution) == sum(identity["nums"][:identity["size"]]) \\
                    + 0 * identity["salt"]
        """), process_backend))


ROADS = {
    "generate": """
        def case_generator(self):
            n = random.randint(5, 8)
            roads = [[i, i + 1, random.randint(1, 20)] for i in range(n - 1)]
            roads += [[0, n - 1, random.randint(30, 60)]]
            return {"n": n, "roads": roads}
    """,
    "verify": """
        @classmethod
        def _verify_correction(cls, solution, identity):
            n, roads = identity["n"], identity["roads"]
            best = {0: 0}
            for _ in range(n):
                for a, b, w in roads:
                    for u, v in ((a, b), (b, a)):
                        if u in best and best[u] + w < best.get(v, 10**9):
                            best[v] = best[u] + w
            return int(solution) == best[n - 1]
    """,
}


@pytest.mark.parametrize("tolls_shown", [False, True])
def test_a_table_column_the_prompt_leaves_out_is_missing_info(process_backend, tolls_shown):
    shown = "f'{a}-{b} ({w})'" if tolls_shown else "f'{a}-{b}'"
    report = audit(module(**ROADS, prompt=f"""
        @staticmethod
        def prompt_func(question_case):
            listed = ", ".join({shown} for a, b, w in question_case["roads"])
            return (f"Roads with tolls: {{listed}}. Cheapest toll from 0 to "
                    f"{{question_case['n'] - 1}}? Reply as [answer]N[/answer].")
    """), process_backend)
    if tolls_shown:
        assert_accepted(report)
    else:
        fields = check(report, "case_fields")
        assert fields.finding == "prompt_missing_info" and "column 2 of 'roads'" in fields.reason


def test_cases_are_repeated_by_two_more_fresh_instances():
    """_case_repeats on a stand-in for the suite: the third fresh instance gives another case."""
    from synth.gate.intern_probes import _case_repeats

    class Suite:
        levels = [("default", {}, 7)]
        cases = [['{"n": 1}', '{"n": 2}', '{"n": 3}']]
        made = 0

        def construct(self, params, seed):
            self.made += 1
            return self.made

        def generate(self, handle, reseed=None):
            self.n = 1 if reseed is not None else self.n + 1
            return f'{{"n": {self.n + (handle >= 2)}}}', 0.0

    found = _case_repeats(Suite())  # type: ignore[arg-type]
    assert [f["finding"] for f in found] == ["nondeterministic_case"]
    assert found[0]["artifacts"] == {"first": '{"n": 1}', "again": '{"n": 2}'}
    steady = Suite()
    steady.generate = lambda handle, reseed=None: (  # type: ignore[method-assign]
        steady.cases[0][0], 0.0)
    steady.cases = [[steady.cases[0][0]]]
    assert _case_repeats(steady) == []  # type: ignore[arg-type]


RANKING = {
    "generate": """
        def case_generator(self):
            return {"weights": random.sample(range(1, 100), 5)}
    """,
    "prompt": """
        @staticmethod
        def prompt_func(question_case):
            listed = ", ".join(f"box {i + 1} weighs {w} kg"
                               for i, w in enumerate(question_case["weights"]))
            return (f"{listed}. Order the 5 boxes from lightest to heaviest as "
                    "[answer]i j k l m[/answer].")
    """,
    "verify": """
        @classmethod
        def _verify_correction(cls, solution, identity):
            order = [int(x) for x in solution.split()]
            w = identity["weights"]
            return order == sorted(range(1, 6), key=lambda i: w[i - 1])
    """,
}


def test_any_order_of_the_k_things_the_prompt_names_rejects(process_backend):
    lax = audit(module(**{**RANKING, "verify": """
        @classmethod
        def _verify_correction(cls, solution, identity):
            return sorted(int(x) for x in solution.split()) == [1, 2, 3, 4, 5]
    """}), process_backend)
    probes = check(lax, "answer_probes")
    assert probes.finding == "constant_answer" and "'1 2 3 4 5'" in probes.reason
    assert_accepted(audit(module(**RANKING), process_backend))


def test_sequences_take_only_ascii_numbers():
    assert ia.sequences(["3", "¹", "٣", "40"]) == ["1 2 3", "3 2 1", "0 1 2"]


def test_a_bug_of_the_probes_decides_nothing(process_backend, monkeypatch):
    """The probes' own host code raising is reported on the check, which is skipped: the
    module is judged by its other checks (no crash of the tool, no rejection)."""
    def broken(source: str, limit: int = 60) -> list[str]:
        raise ValueError("a bug")

    monkeypatch.setattr(ia, "vocabulary", broken)
    report = audit(module(), process_backend)
    probes = check(report, "answer_probes")
    assert probes.status is CheckStatus.SKIPPED and "ValueError: a bug" in probes.reason
    assert "traceback" in probes.artifacts
    assert report.verdict == "accepted" and not report.infrastructure_error


def test_a_stored_answer_whose_number_the_prompt_happens_to_show_is_not_a_copy(process_backend):
    """The stored answer (a count) also appears among the prompt's numbers, by chance: another
    case's value leaves the prompt unchanged, so it is no input copied into the answer."""
    assert_accepted(audit(module(
        generate="""
            def case_generator(self):
                nums = [random.randint(1, 9) for _ in range(12)]
                return {"nums": nums, "distinct": len(set(nums))}
        """,
        prompt="""
            @staticmethod
            def prompt_func(question_case):
                return (f"How many distinct values does {question_case['nums']} hold? "
                        "Reply as [answer]N[/answer].")
        """,
        verify="""
            @classmethod
            def _verify_correction(cls, solution, identity):
                return int(solution) == identity["distinct"]
        """), process_backend))
