"""The bootcamp contract: the one module that generated bootcamp code may import.

A *bootcamp* is a class that generates unlimited seeded instances ("cases") of one reasoning
task, renders each case as a prompt for a language model, and scores the model's answer with a
rule check. Every bootcamp in the library subclasses :class:`BaseBootcamp`.

The names follow InternBootcamp so that its users feel at home; the semantics are stricter:

* all randomness comes from ``self.rng`` (a ``random.Random(seed)``), so the same seed gives the
  same cases in every process, whatever ``PYTHONHASHSEED`` is;
* difficulty parameters are explicit keyword arguments with defaults; an unknown parameter raises
  ``TypeError`` (no ``**kwargs`` that swallow typos);
* :meth:`BaseBootcamp.verify_score` is defined here only and may not be overridden; it never
  swallows an exception raised by the bootcamp: a crashing verifier is a defect to be reported,
  not a score of 0.

Tasks that come with a verified reference program (CodeContests) may be *compiled*: the module
embeds the program as a string, its class subclasses :class:`CompiledBootcamp`, and the answer
key is the program's output, computed by :func:`run_program` -- an in-process, stdlib-only
runner that gives the program a string as its standard input and returns its standard output.
The bootcamp itself writes no ``exec`` and starts no process. The runner lives in
:mod:`synth.runner`, part of the contract: its public names are importable from here.

This module and :mod:`synth.runner` must stay dependency-free (standard library only): they are
imported inside the sandbox by untrusted code.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any, ClassVar

# the runner (part of the contract); ``X as X``: its public names stay importable from here
from synth.runner import MAX_PROGRAM_OUTPUT as MAX_PROGRAM_OUTPUT
from synth.runner import MAX_RECURSION_LIMIT as MAX_RECURSION_LIMIT
from synth.runner import PROGRAM_FILENAME as PROGRAM_FILENAME
from synth.runner import (
    PROGRAM_MODULES,
    CompiledProgram,
    ProgramError,
    UnsupportedProgramError,
    call_function,
    compile_program,
    execute,
    run_program,
)
from synth.runner import PROGRAM_SYS_NAMES as PROGRAM_SYS_NAMES
from synth.values import ANSWER_RULE, canonical, check_answer, declared_return, encode, return_form

__all__ = [
    "ANSWER_CLOSE",
    "ANSWER_OPEN",
    "COMPILED_ANSWER_FORMAT",
    "COMPILED_PROMPT_INTRO",
    "PROGRAM_MODULES",
    "BaseBootcamp",
    "BootcampContractError",
    "CompiledBootcamp",
    "FunctionBootcamp",
    "MultiTurnBootcamp",
    "ProgramError",
    "UnsupportedProgramError",
    "run_program",
    "same_tokens",
]

ANSWER_OPEN = "<answer>"
ANSWER_CLOSE = "</answer>"


class BootcampContractError(TypeError):
    """A bootcamp broke the contract (e.g. ``_verify_correction`` returned a non-score)."""


class BaseBootcamp:
    """Base class of every bootcamp.

    Subclasses define difficulty parameters as explicit keyword arguments and call
    ``super().__init__(seed=seed)``::

        class Example(BaseBootcamp):
            LEVELS = {"easy": {"n": 3}, "hard": {"n": 9}}

            def __init__(self, seed: int | None = None, n: int = 5) -> None:
                super().__init__(seed=seed)
                self.n = n
    """

    #: Named difficulty presets: level name -> keyword arguments for ``__init__``.
    #: Conventionally ``easy``, ``medium`` and ``hard``; harder presets must give measurably
    #: larger or harder cases.
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {}

    #: True for tasks whose answer is one of two values by nature (yes/no, true/false, which
    #: of two options): the gate then accepts answers that take at most two values, which it
    #: otherwise rejects as guessable.
    YES_NO_TASK: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "verify_score" in cls.__dict__:
            raise TypeError(
                f"{cls.__name__} overrides verify_score; implement _verify_correction instead "
                "(verify_score is defined once, in BaseBootcamp)"
            )
        for name in ("extract_output", "wrap_answer"):
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__} overrides {name}; the answer is the text of the last "
                    "<answer></answer> block, read by the contract's own extract_output "
                    "(an override would see the whole response: its length, its prose, its "
                    "other blocks, which the gate's responses and a model's differ in)"
                )

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        """Store ``self.seed`` and ``self.rng = random.Random(seed)``.

        Any keyword argument the subclass did not consume is a typo or an unsupported
        parameter and raises ``TypeError`` naming it.
        """
        if params:
            names = ", ".join(sorted(params))
            raise TypeError(f"{type(self).__name__} got unexpected parameter(s): {names}")
        if seed is not None and not isinstance(seed, int):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        self.seed = seed
        self.rng = random.Random(seed)

    @classmethod
    def from_level(cls, level: str, seed: int | None = None) -> BaseBootcamp:
        """Construct the bootcamp with the parameters of the named LEVELS preset."""
        if level not in cls.LEVELS:
            known = ", ".join(cls.LEVELS) or "(none)"
            raise KeyError(f"{cls.__name__} has no level {level!r}; levels: {known}")
        return cls(seed=seed, **cls.LEVELS[level])

    # ----------------------------------------------------------------------------------
    # The methods a bootcamp implements
    # ----------------------------------------------------------------------------------

    def case_generator(self) -> dict[str, Any]:
        """Return one new case ("identity") as a JSON-serialisable dict.

        Must guarantee: all randomness comes from ``self.rng``; the dict survives a JSON round
        trip unchanged (str keys; str/int/float/bool/None/list/dict values); successive calls
        give diverse cases; every case has at least one correct answer.
        """
        raise NotImplementedError

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        """Render a case as a self-contained problem statement for a model.

        Must guarantee: non-empty, depends only on ``identity``, states the task completely and
        says exactly how to format the final answer (inside ``<answer>...</answer>``), and does
        not reveal the answer.
        """
        raise NotImplementedError

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        """Return one correct answer, as the text that goes inside the answer tags.

        Must guarantee: ``verify_score(wrap_answer(reference_answer(c)), c) == 1.0`` for every
        case ``c`` the generator can produce.
        """
        raise NotImplementedError

    @staticmethod
    def extract_output(response: str) -> str | None:
        """Return the stripped text of the LAST ``<answer>...</answer>`` in ``response``.

        Returns ``None`` when there is no complete answer block. Linear in the length of the
        response, whatever it contains.
        """
        if not isinstance(response, str):
            return None
        end = response.rfind(ANSWER_CLOSE)
        if end < 0:
            return None
        start = response.rfind(ANSWER_OPEN, 0, end)
        if start < 0:
            return None
        return response[start + len(ANSWER_OPEN) : end].strip()

    @classmethod
    def wrap_answer(cls, answer: str) -> str:
        """Format an answer as a model should write it; the inverse of :meth:`extract_output`."""
        return f"{ANSWER_OPEN}{answer}{ANSWER_CLOSE}"

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool | float:
        """Check an extracted answer against the case by the task's rules.

        Return ``True``/``False``, or a float in [0, 1] for partial credit. Must check the rules
        (any correct answer is accepted, not only the reference one), must treat ``solution`` as
        untrusted text (never ``eval``/``exec`` it), and must return ``False`` rather than raise
        on malformed answers.
        """
        raise NotImplementedError

    @classmethod
    def verify_score(
        cls, response: str, identity: dict[str, Any], format_score: float = 0.0
    ) -> float:
        """Score a full model response. Defined here only; subclasses may not override it.

        * ``0.0`` if no answer can be extracted;
        * ``1.0`` if ``_verify_correction`` returns ``True``, or its float when that is in
          (0, 1];
        * ``format_score`` if an answer was extracted but is wrong.

        Exceptions raised by the bootcamp propagate: they are findings, not scores.
        """
        solution = cls.extract_output(response)
        if solution is None:
            return 0.0
        verdict = cls._verify_correction(solution, identity)
        if isinstance(verdict, bool):
            return 1.0 if verdict else float(format_score)
        if isinstance(verdict, int | float) and math.isfinite(verdict) and 0.0 <= verdict <= 1.0:
            return float(verdict) if verdict > 0 else float(format_score)
        raise BootcampContractError(
            f"{cls.__name__}._verify_correction returned {verdict!r}; "
            "expected a bool or a float in [0, 1]"
        )

    # Optional, for tasks that come with a reference program (e.g. CodeContests):
    #
    #     @staticmethod
    #     def render_stdin(identity: dict) -> str:
    #         """The case as the original problem's standard input."""
    #
    # Its absence means "no oracle for this task"; it is deliberately not defined here so that
    # the gate can tell the two apart.


# ------------------------------------------------------------------------------------------
# Multi-turn bootcamps: episodes of several rounds, pure functions over JSON state
# ------------------------------------------------------------------------------------------

#: The most turns a multi-turn bootcamp may declare.
MAX_TURNS_LIMIT = 1000


class MultiTurnBootcamp(BaseBootcamp):
    """Base class of bootcamps whose task takes several rounds of interaction (a game against
    an engine, a guessing game with feedback).

    Seeding and strictness are the base contract's: ``case_generator`` draws the episode's
    identity from ``self.rng``; every other method is a pure function of JSON values, so the
    sandbox's method server can run each call on its own and any episode can be replayed from
    its identity and the actions taken. Trusted code drives an episode::

        observation, state = cls.reset(identity)          # the first prompt
        for turn in range(cls.MAX_TURNS):
            action = cls.extract_output(model(observation)) or ""
            result = cls.step(state, action)              # {observation, reward, done, state}
            state = result["state"]
            if result["done"]:
                break
            observation = result["observation"]
        score = result["reward"]                          # in [0, 1]

    ``reward`` is the score of the episode so far, in [0, 1], not an increment; the final score
    is the reward of the step that ends the episode. The rules every subclass keeps (the gate
    checks each of them, from the method server's JSON replies):

    * ``reset``, ``step`` and ``reference_policy`` are class or static methods, pure functions
      of their JSON arguments: everything an episode needs to go on is in ``state`` (a JSON
      dict), nothing in class or module variables, the clock or hash order;
    * an episode ends (``done``) within ``MAX_TURNS`` steps, whatever the actions;
    * an illegal, empty or malformed action is the model's mistake, scored by the rules (it
      may use up a turn, or end the episode): ``step`` never raises on it and never hangs;
    * stepping a finished state changes nothing: ``done`` stays true and ``reward`` the same;
    * following ``reference_policy`` from ``reset`` reaches the score 1.0 on every identity;
      random, constant and illegal actions score low.

    ``extract_output`` and ``wrap_answer`` are the contract's (the host that drives an episode
    reads each action from the model's answer tags itself) and may not be overridden. The
    single-turn methods are defined here from the episode methods, for tools that see one
    prompt and one answer (and may not be overridden either): ``prompt_func`` is the first
    observation, ``reference_answer`` the reference policy's first action, and an answer is
    scored as the first action of an episode (the reward after one step).
    """

    #: The most steps an episode may take (declared, > 0).
    MAX_TURNS: ClassVar[int] = 0

    #: External engines the bootcamp needs, by name (e.g. ``("gnugo",)``); the sandbox
    #: provides them and the contract gives a vetted client (``synth.engines``).
    ENGINES: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("prompt_func", "reference_answer", "_verify_correction", "extract_output",
                     "wrap_answer"):
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__} overrides {name}; a multi-turn bootcamp defines reset, "
                    "step and reference_policy (the single-turn methods follow from them, and "
                    "the host reads each action from the answer tags with the contract's own "
                    "extract_output)"
                )
        for name in ("reset", "step", "reference_policy"):
            own = cls.__dict__.get(name)
            if own is not None and not isinstance(own, classmethod | staticmethod):
                raise TypeError(
                    f"{cls.__name__}.{name} must be a classmethod or staticmethod: it is a pure "
                    "function of its JSON arguments, never of an instance"
                )
        turns, engines = cls.MAX_TURNS, cls.ENGINES
        concrete = any("step" in k.__dict__ for k in cls.__mro__ if k is not MultiTurnBootcamp)
        if (concrete or "MAX_TURNS" in cls.__dict__) and (type(turns) is not int or not 0 < turns <= MAX_TURNS_LIMIT):
            raise TypeError(f"{cls.__name__}.MAX_TURNS must be an int in 1..{MAX_TURNS_LIMIT}, "
                            f"not {turns!r}")
        if type(engines) is not tuple or not all(type(e) is str and e for e in engines):
            raise TypeError(f"{cls.__name__}.ENGINES must be a tuple of engine names, "
                            f"not {engines!r}")

    @classmethod
    def reset(cls, identity: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The episode's first observation (a self-contained prompt that says how to format an
        action: inside ``<answer>...</answer>``) and its initial state (a JSON dict). Depends
        only on ``identity``."""
        raise NotImplementedError

    @classmethod
    def step(cls, state: dict[str, Any], action: str) -> dict[str, Any]:
        """Apply ``action`` (the text inside the answer tags; ``""`` when the model gave none)
        to ``state``. Returns ``{"observation": str | None, "reward": float, "done": bool,
        "state": dict}``: the next prompt (None when done), the episode's score so far in
        [0, 1], whether the episode is over, and the new state. An illegal or malformed action
        is the model's mistake, scored by the rules -- never an exception. Depends only on its
        arguments (and on a declared engine, with fixed settings)."""
        raise NotImplementedError

    @classmethod
    def reference_policy(cls, state: dict[str, Any]) -> str:
        """A correct or strong action for ``state`` (the text for inside the answer tags):
        following it from :meth:`reset` must reach the episode's maximum score, 1.0."""
        raise NotImplementedError

    # The single-turn contract, for tools that see one prompt and one answer: the first
    # observation is the prompt; an answer is scored as the first action of an episode.

    @classmethod
    def prompt_func(cls, identity: dict[str, Any]) -> str:
        """The episode's first observation."""
        observation, _ = cls.reset(identity)
        return observation

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        """The reference policy's first action."""
        return cls.reference_policy(cls.reset(identity)[1])

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool | float:
        """The reward after ``solution`` is played as the episode's first action."""
        reward = cls.step(cls.reset(identity)[1], solution).get("reward")
        if type(reward) is bool or not isinstance(reward, int | float):
            raise BootcampContractError(f"{cls.__name__}.step returned the reward {reward!r}; "
                                        "expected a float in [0, 1]")
        return float(reward)


# ------------------------------------------------------------------------------------------
# Compiled bootcamps: a task's reference program, run in process (by synth.runner)
# ------------------------------------------------------------------------------------------

_MAX_OUTPUTS = 4096  # reference outputs cached per class ...
_MAX_CACHED_CHARS = 8_000_000  # ... and their characters (with the cases' keys)
# A private reference taken when the contract is imported (before any bootcamp code runs).
_dumps = json.dumps


def same_tokens(expected: str, answer: str) -> bool:
    """True when ``answer`` holds the same whitespace-separated tokens as ``expected`` (the
    default comparison of a :class:`CompiledBootcamp`; bounded work on huge answers)."""
    if type(answer) is not str or type(expected) is not str:
        return False
    if len(answer) > 8 * len(expected) + 1024:
        return False
    return answer.split() == expected.split()


class _Program:
    """A CompiledBootcamp class's program and its cache of reference outputs."""

    __slots__ = ("compiled", "outputs", "size")

    def __init__(self, compiled: CompiledProgram) -> None:
        self.compiled = compiled
        self.outputs: dict[str, str] = {}
        self.size = 0  # characters of keys and outputs held

    def remember(self, key: str, output: str) -> None:
        """Cache ``output``, forgetting the oldest entries beyond :data:`_MAX_OUTPUTS` entries
        or :data:`_MAX_CACHED_CHARS` characters."""
        cost = len(key) + len(output)
        if cost > _MAX_CACHED_CHARS:
            return
        outputs = self.outputs
        while outputs and (len(outputs) >= _MAX_OUTPUTS or self.size + cost > _MAX_CACHED_CHARS):
            old = next(iter(outputs))
            self.size -= len(old) + len(outputs.pop(old))
        outputs[key] = output
        self.size += cost


#: CompiledBootcamp class -> its program, registered when the class is created.
_PROGRAMS: dict[type, _Program] = {}


#: how the default prompt of a compiled bootcamp begins (the problem text that follows is
#: written for programmers; the solver is to answer one input, not to write a program)
COMPILED_PROMPT_INTRO = (
    "Below is a programming-contest problem and one input to it. You are not asked for a "
    "program: find the correct output for this input."
)

#: what a compiled bootcamp's prompt gains when it does not say how to answer
COMPILED_ANSWER_FORMAT = (
    "Do not write a program: work out the correct output for this input yourself, then give "
    f"exactly that output (every line, in order) inside {ANSWER_OPEN}{ANSWER_CLOSE} tags."
)


def _with_answer_format(render: Any) -> Any:
    """A compiled bootcamp's ``prompt_func`` whose text always says how to answer: when it does
    not mention the answer tags, :data:`COMPILED_ANSWER_FORMAT` is appended (the answer key is
    the program's output, so the answer format is the contract's to state, not the model's)."""

    def prompt_func(identity: dict[str, Any]) -> str:
        text = render(identity)
        if type(text) is str and ANSWER_OPEN not in text:
            return text.rstrip() + "\n\n" + COMPILED_ANSWER_FORMAT
        return text

    prompt_func.__doc__ = render.__doc__
    prompt_func.__wrapped__ = render  # type: ignore[attr-defined]
    return prompt_func


def _prompt_owner(cls: type) -> type | None:
    """The class whose own ``prompt_func`` ``cls`` uses."""
    return next((k for k in cls.__mro__ if "prompt_func" in k.__dict__), None)


class CompiledBootcamp(BaseBootcamp):
    """Base class of a *compiled* bootcamp: the answer key is a reference program's output.

    The module embeds the task's verified reference program (``synth.compiled.assemble``
    puts it there as ``REFERENCE_PROGRAM``); subclasses define ``LEVELS``, ``__init__``,
    :meth:`case_generator` and ``render_stdin(identity) -> str`` (the case as the problem's
    standard input). Then:

    * :meth:`reference_answer` is the program's standard output on ``render_stdin(identity)``,
      trailing whitespace removed (cached per case);
    * :meth:`_verify_correction` passes that output to :meth:`check_output`, which by default
      compares whitespace-separated tokens; a problem that accepts several outputs overrides
      ``check_output(identity, expected, answer) -> bool`` with a rule check.

    ``reference_answer`` and ``_verify_correction`` may not be overridden. The program is
    compiled when the class is created; a program that does not compile fails the import.

    The prompt: ``assemble`` also embeds the task's problem text as ``TASK_TEXT``, and the
    default :meth:`prompt_func` shows it with the case's input and the answer format. A subclass
    may define its own ``prompt_func`` (a staticmethod) where the problem needs more words; one
    whose text never mentions the answer tags gets :data:`COMPILED_ANSWER_FORMAT` appended. A
    class with a program but neither a ``TASK_TEXT`` nor a ``prompt_func`` fails the import.
    """

    #: The program's source (set by ``synth.compiled.assemble``; never written by hand).
    REFERENCE_PROGRAM: ClassVar[str] = ""
    #: The task's problem text (set by ``synth.compiled.assemble``; never written by hand).
    TASK_TEXT: ClassVar[str] = ""
    #: The *stress* level: one more set of ``__init__`` parameters, like a ``LEVELS`` entry,
    #: at the statement's limits (the largest sizes and values its Input section allows). Only
    #: code test suites use it (``synth export --format code``: inputs that catch a program too
    #: slow by a factor); reasoning prompts never do. The gate checks its inputs like the
    #: levels' (``inputs``: statement, validator, and the reference finishes on them). None:
    #: the bootcamp has no stress tests.
    STRESS: ClassVar[dict[str, Any] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("reference_answer", "_verify_correction"):
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__} overrides {name}; a CompiledBootcamp's answer key is its "
                    "REFERENCE_PROGRAM's output -- for a problem with several valid outputs "
                    "define check_output(identity, expected, answer) instead"
                )
        own = cls.__dict__.get("prompt_func")
        if isinstance(own, staticmethod):
            cls.prompt_func = staticmethod(_with_answer_format(own.__func__))  # type: ignore[method-assign]
        source, text = cls.REFERENCE_PROGRAM, cls.TASK_TEXT
        for name, value in (("REFERENCE_PROGRAM", source), ("TASK_TEXT", text)):
            if type(value) is not str:
                raise TypeError(f"{cls.__name__}.{name} must be a str, not "
                                f"{type(value).__name__}")
        if not source:
            return
        program = _Program(compile_program(source))  # a program that does not compile fails first
        if not text.strip() and _prompt_owner(cls) is CompiledBootcamp:
            raise TypeError(
                f"{cls.__name__} has no TASK_TEXT and no prompt_func: build the module with "
                "synth.compiled.assemble(model_code, reference_program, task_text) (the default "
                "prompt_func shows TASK_TEXT), or define a staticmethod prompt_func(identity)"
            )
        _PROGRAMS[cls] = program

    @classmethod
    def prompt_func(cls, identity: dict[str, Any]) -> str:
        """The default prompt: :data:`COMPILED_PROMPT_INTRO`, ``TASK_TEXT`` (the task's problem
        text), then ``Input:`` and the case's ``render_stdin(identity)`` in a ``` block, then
        :data:`COMPILED_ANSWER_FORMAT`."""
        render = getattr(cls, "render_stdin", None)
        if render is None:
            raise BootcampContractError(f"{cls.__name__} defines no render_stdin(identity)")
        stdin = render(identity)
        if type(stdin) is not str:
            raise BootcampContractError(f"{cls.__name__}.render_stdin returned a "
                                        f"{type(stdin).__name__}, not a str")
        if not stdin.endswith("\n"):
            stdin += "\n"
        return (f"{COMPILED_PROMPT_INTRO}\n\n{cls.TASK_TEXT.strip()}\n\nInput:\n```\n{stdin}```\n\n"
                f"{COMPILED_ANSWER_FORMAT}")

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        """The reference program's output on ``render_stdin(identity)``, trailing whitespace
        removed. Raises :class:`ProgramError` when the program fails on that input (the
        input is outside the problem's format or limits, most likely)."""
        program = _PROGRAMS.get(cls)
        if program is None:
            raise BootcampContractError(
                f"{cls.__name__} has no REFERENCE_PROGRAM: build the module with "
                "synth.compiled.assemble(model_code, reference_program, task_text)"
            )
        try:
            key: str | None = _dumps(identity, sort_keys=True, ensure_ascii=False,
                                     separators=(",", ":"))
        except (TypeError, ValueError):
            key = None
        outputs = program.outputs
        if key is not None:
            hit = outputs.get(key)
            if hit is not None:
                return hit
        render = getattr(cls, "render_stdin", None)
        if render is None:
            raise BootcampContractError(f"{cls.__name__} defines no render_stdin(identity)")
        stdin = render(identity)
        if type(stdin) is not str:
            raise BootcampContractError(f"{cls.__name__}.render_stdin returned a "
                                        f"{type(stdin).__name__}, not a str")
        out = execute(program.compiled, stdin).rstrip()
        if key is not None:
            program.remember(key, out)
        return out

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool | float:
        """Whether ``answer`` is a correct output for the case; ``expected`` is the reference
        program's output. Default: the same whitespace-separated tokens. Override it for a
        problem that accepts several outputs: check ``answer`` by the problem's rules (and
        return False, never raise, on malformed text)."""
        return same_tokens(expected, answer)

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool | float:
        return cls.check_output(identity, cls.reference_answer(identity), solution)


# ------------------------------------------------------------------------------------------
# Function bootcamps: a task's reference function, called in process (by synth.runner)
# ------------------------------------------------------------------------------------------

#: how the prompt of a function bootcamp begins (the specification that follows is the task's
#: signature and docstring; the solution's code is never shown)
FUNCTION_PROMPT_INTRO = (
    "Below is the specification of a Python function (its signature and docstring) and one "
    "call of it. You are not asked to write code: work out the value this call returns."
)

#: CompiledBootcamp-like classes with a function -> the function's compiled source and cache
_FUNCTIONS: dict[type, _Program] = {}


class FunctionBootcamp(BaseBootcamp):
    """Base class of a *function* bootcamp: the answer key is a reference function's return
    value (HumanEval's canonical solutions, any task whose reference has the interface
    ``function``).

    ``synth.compiled.assemble`` embeds the function's source as ``REFERENCE_PROGRAM``, its
    name as ``ENTRY_POINT`` and the task's specification (signature and docstring, never the
    solution) as ``TASK_TEXT``. A subclass defines ``LEVELS``, ``__init__``,
    :meth:`case_generator` (a JSON case, all randomness from ``self.rng``) and
    ``call_args(identity) -> list``: the call's positional arguments built from the case (a
    case holds JSON; ``call_args`` makes the tuples, sets and dicts the function takes). Then:

    * :meth:`reference_answer` is the function's return value on ``call_args(identity)``,
      called by :func:`synth.runner.call_function` (arguments deep-copied), written as a Python
      literal (:func:`synth.values.canonical`; cached per case);
    * :meth:`_verify_correction` compares an answer with it by the rule the prompt states
      (:data:`synth.values.ANSWER_RULE`, :func:`synth.values.check_answer`);
    * :meth:`prompt_func` shows the specification, the call and that rule;
    * :meth:`render_stdin` is the call's arguments in JSON (:func:`synth.values.encode`): what
      the gate reads to check them against the function's signature and examples, and hands to
      the reference function in a sandbox job of its own.

    None of these, nor ``arguments`` and ``call_text`` (what the prompt shows and what the
    function is called on come from the one ``call_args``), may be overridden. A function
    that raises on a case's arguments makes ``reference_answer`` raise :class:`ProgramError`
    naming the call and the exception.
    """

    #: The function's source (set by ``synth.compiled.assemble``; never written by hand).
    REFERENCE_PROGRAM: ClassVar[str] = ""
    #: The function's name in it (set by ``synth.compiled.assemble``).
    ENTRY_POINT: ClassVar[str] = ""
    #: The task's specification (set by ``synth.compiled.assemble``).
    TASK_TEXT: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("reference_answer", "_verify_correction", "prompt_func", "render_stdin",
                     "arguments", "call_text"):
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__} overrides {name}; a FunctionBootcamp's answer key is its "
                    "reference function's return value, its prompt and its arguments' JSON are "
                    "the contract's: define case_generator and call_args(identity) only"
                )
        source, entry, text = cls.REFERENCE_PROGRAM, cls.ENTRY_POINT, cls.TASK_TEXT
        for name, value in (("REFERENCE_PROGRAM", source), ("ENTRY_POINT", entry),
                            ("TASK_TEXT", text)):
            if type(value) is not str:
                raise TypeError(f"{cls.__name__}.{name} must be a str, not "
                                f"{type(value).__name__}")
        if not source:
            return
        if not entry.isidentifier() or not text.strip():
            raise TypeError(
                f"{cls.__name__} has a REFERENCE_PROGRAM but no ENTRY_POINT or TASK_TEXT: build "
                "the module with synth.compiled.assemble(model_code, function_source, task_text, "
                "entry_point=...)")
        _FUNCTIONS[cls] = _Program(compile_program(source))

    @classmethod
    def arguments(cls, identity: dict[str, Any]) -> list[Any]:
        """``call_args(identity)`` as a list (checked: a list or tuple of arguments)."""
        build = getattr(cls, "call_args", None)
        if build is None:
            raise BootcampContractError(f"{cls.__name__} defines no call_args(identity)")
        args = build(identity)
        if type(args) is not list and type(args) is not tuple:
            raise BootcampContractError(f"{cls.__name__}.call_args returned a "
                                        f"{type(args).__name__}, not a list of arguments")
        return list(args)

    @classmethod
    def render_stdin(cls, identity: dict[str, Any]) -> str:
        """The call's arguments as JSON text (:func:`synth.values.encode` of the list)."""
        return _dumps(encode(cls.arguments(identity)), ensure_ascii=False,
                      separators=(",", ":"))

    @classmethod
    def call_text(cls, identity: dict[str, Any]) -> str:
        """The call as Python: ``name(arg, ...)``, each argument as a literal."""
        args = cls.arguments(identity)
        return f"{cls.ENTRY_POINT}({', '.join(canonical(a) for a in args)})"

    @classmethod
    def prompt_func(cls, identity: dict[str, Any]) -> str:
        """:data:`FUNCTION_PROMPT_INTRO`, ``TASK_TEXT``, the call, how the declared return
        type is written (from the signature's annotation), the answer rule, and room to
        reason before the answer (the last answer block counts)."""
        form = return_form(declared_return(cls.TASK_TEXT, cls.ENTRY_POINT))
        return (f"{FUNCTION_PROMPT_INTRO}\n\n```python\n{cls.TASK_TEXT.strip()}\n```\n\n"
                f"The call:\n```python\n{cls.call_text(identity)}\n```\n\n"
                f"{form + ' ' if form else ''}{ANSWER_RULE}\n\n"
                "Work through the call step by step, briefly, then give the returned value "
                f"inside {ANSWER_OPEN}{ANSWER_CLOSE} tags.")

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        """The reference function's return value on ``call_args(identity)``, as a Python
        literal. Raises :class:`ProgramError` when the function raises on those arguments
        (they are outside its contract, most likely)."""
        program = _FUNCTIONS.get(cls)
        if program is None:
            raise BootcampContractError(
                f"{cls.__name__} has no REFERENCE_PROGRAM: build the module with "
                "synth.compiled.assemble(model_code, function_source, task_text, entry_point=...)")
        key = cls.render_stdin(identity)
        hit = program.outputs.get(key)
        if hit is not None:
            return hit
        value = call_function(program.compiled.source, cls.ENTRY_POINT, cls.arguments(identity))
        out = canonical(value)
        program.remember(key, out)
        return out

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool | float:
        return check_answer(cls.reference_answer(identity), solution)
