"""`synth calibrate NAME`: measure a bootcamp's per-level pass rates against a solver endpoint.

The solver answers all K prompts (the filter's machinery, early stopping off: LEVELS
round-robin, drawn and scored in the sandbox); per level the answers, the rate and a 95% Wilson
interval are printed, and written into the library record (``pass_rate``, ``samples``,
``level_pass_rates``, ``level_samples``, ``stopped_early=False``, ``calibration``) unless
``--dry-run``. The record's status and code are never changed.

The solver is chosen as ``synth run`` chooses it: ``--solver-model`` / ``--model``, ``--base-url``
/ ``--solver-base-url`` or ``OPENAI_BASE_URL``, the key from ``OPENAI_API_KEY`` (or the variable
``--api-key-env`` names); nothing configured: the embedded local model. The record keeps the
model, the endpoint's host and the seed, never the key.

Exit status: 0 measured (and written unless --dry-run); 1 a finding against the bootcamp
(``verify_score`` raised, timed out or scored invalidly; it could not draw K cases): nothing
written; 2 a usage or infrastructure error (no such bootcamp, no sandbox, a missing key, more
solver calls failed than the filter tolerates): nothing written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from synth.commands.console import Console
from synth.commands.library import LibraryOpt, SandboxOpt, fail, open_library

if TYPE_CHECKING:
    from synth.models.llm import ModelSpec
    from synth.training.calibrate import CalibrationResult, Finding

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
#: exit status of a finding: the bootcamp is at fault (1) or the solver / sandbox is (2)
FINDING_EXIT = {"verifier_error": 1, "sample_error": 1, "solver_error": 2, "sandbox_error": 2}


def calibrate_command(
    name: Annotated[str, typer.Argument(help="Bootcamp name in the library.")],
    samples: Annotated[int, typer.Option("--samples", "-k", help="K: solver answers to score, all of them (no early stop).")] = 64,
    seed: Annotated[int, typer.Option(help="Seed of the K cases (the filter's per-index seeds).")] = 0,
    library: LibraryOpt = None,
    sandbox: SandboxOpt = "auto",
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Measure and print; write nothing.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurement as one JSON object.")] = False,
    model: Annotated[str | None, typer.Option(help="Solver model; 'local' / 'local-smoke' = an embedded model (the default without an endpoint).")] = None,
    solver_model: Annotated[str | None, typer.Option(help="Solver model (as `synth run --solver-model`).")] = None,
    base_url: Annotated[str | None, typer.Option(help="Solver endpoint (default: OPENAI_BASE_URL).")] = None,
    solver_base_url: Annotated[str | None, typer.Option(help="Solver endpoint (as `synth run --solver-base-url`).")] = None,
    api_key_env: Annotated[str, typer.Option(help="Environment variable holding the endpoint's API key.")] = DEFAULT_KEY_ENV,
    temperature: Annotated[float | None, typer.Option(help="Solver sampling temperature (default: as `synth run`).")] = None,
    request_timeout: Annotated[float, typer.Option(help="Seconds before a solver call is retried.")] = 180.0,
    llm_concurrency: Annotated[int, typer.Option(help="Solver calls in flight at once.")] = 16,
    answers_out: Annotated[Path | None, typer.Option(
        "--answers-out", help="Write every answer (level, seed, prompt head, response, score) "
        "to this JSONL file: the evidence behind the rates.")] = None,
) -> None:
    """Measure a bootcamp's per-level pass rates (all K answers) and record them."""
    import asyncio

    from pydantic import ValidationError

    from filters.self_consistency import FilterConfig
    from synth.commands.run import resolve_models
    from synth.library import LibraryError, endpoint_name
    from synth.models.llm import ModelSpec
    from synth.models.local import LocalModelError, LocalModelServer
    from synth.sandbox import BACKEND_NAMES, SandboxUnavailableError, close_backends, get_backend
    from synth.training.calibrate import write_calibration

    if sandbox not in BACKEND_NAMES:
        raise fail(f"--sandbox must be one of {', '.join(BACKEND_NAMES)}, not {sandbox!r}")
    try:
        FilterConfig(samples=samples, solver_concurrency=llm_concurrency)
    except ValidationError as exc:
        raise fail(f"invalid option: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}") from None
    lib = open_library(library)
    try:
        rec, code = lib.checked_code(name, include_unlisted=True)
    except LibraryError as exc:
        raise fail(str(exc)) from exc
    env = dict(os.environ)
    if api_key_env != DEFAULT_KEY_ENV:
        key = os.environ.get(api_key_env)
        if not key:
            raise fail(f"${api_key_env} is not set: export the solver endpoint's API key in it, "
                       "or name another variable with --api-key-env")
        env[DEFAULT_KEY_ENV] = key
    _, solver, embedded = resolve_models(model, None, solver_model, base_url, None,
                                         solver_base_url, env)
    try:
        update: dict[str, Any] = {"timeout_s": request_timeout}
        if temperature is not None:
            update["temperature"] = temperature
        solver = solver.model_copy(update=update)
        ModelSpec.model_validate(solver.model_dump())  # the bounds of the options
    except ValidationError as exc:
        raise fail(f"invalid option: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}") from None
    try:
        backend = get_backend(sandbox)
    except SandboxUnavailableError as exc:
        raise fail(f"sandbox: {exc} (try --sandbox process)") from None
    # every core: nothing runs beside the solver's calls here but the brief scoring jobs (a run
    # leaves one core to the gate's checks of another task: ModelInfo.threads)
    server = (LocalModelServer(embedded, threads=os.cpu_count() or 1) if embedded is not None
              else None)
    endpoint = "embedded" if server is not None else endpoint_name(solver.base_url)
    try:
        if server is not None and embedded is not None:
            err.print(f"[yellow]{escape(embedded.notice)}[/]", soft_wrap=True)
            try:
                server.start()
            except LocalModelError as exc:
                raise fail(str(exc)) from None
            solver = solver.model_copy(update={"base_url": server.base_url})
        if not as_json:
            err.print(f"calibrating {escape(name)}: {samples} answers from {escape(solver.model)} "
                      f"at {escape(endpoint)}, seed {seed}", soft_wrap=True)
        result = asyncio.run(_measure(code, solver, samples=samples, seed=seed, endpoint=endpoint,
                                      backend=backend, concurrency=llm_concurrency))
    finally:
        if server is not None:
            server.stop()
        close_backends()
    if answers_out is not None:
        answers_out.write_text("".join(a.model_dump_json() + "\n" for a in result.answers),
                               encoding="utf-8")
    written = False
    if result.finding is None and not dry_run:
        try:
            write_calibration(lib, name, rec.code_sha256, result)
        except LibraryError as exc:
            raise fail(str(exc)) from exc
        written = True
    if as_json:
        typer.echo(json.dumps({"name": name, "written": written, "dry_run": dry_run,
                               **result.model_dump(mode="json")}, ensure_ascii=False))
    else:
        _print(name, result)
    if result.finding is not None:
        _print_finding(name, result.finding, api_key_env)
        raise typer.Exit(FINDING_EXIT[result.finding.kind])
    if not as_json:
        if written:
            out.print(f"wrote the calibration into {escape(str(lib.manifest_path))} "
                      "(status and code unchanged)", soft_wrap=True)
        else:
            out.print("--dry-run: nothing written")


async def _measure(code: str, solver: ModelSpec, *, samples: int, seed: int, endpoint: str,
                   backend: Any, concurrency: int) -> CalibrationResult:
    from synth.models.llm import LLMClient
    from synth.training.calibrate import measure

    llm = LLMClient({"solver": solver}, max_concurrency=concurrency)

    async def solve(prompt: str) -> str:  # as the workflow's filter node asks the solver
        res = await llm.complete("solver", [{"role": "user", "content": prompt}], tag="calibrate|solve")
        return res.text

    async def chat(messages: list[dict[str, str]]) -> str:  # a multi-turn bootcamp's episodes
        res = await llm.complete("solver", messages, tag="calibrate|solve")
        return res.text

    try:
        return await measure(code, solve, samples=samples, seed=seed, solver_model=solver.model,
                             endpoint=endpoint, temperature=solver.temperature, backend=backend,
                             solver_concurrency=concurrency, chat=chat)
    finally:
        await llm.aclose()


def _interval(lo: float | None, hi: float | None) -> str:
    return "-" if lo is None or hi is None else f"[{lo:.3f}, {hi:.3f}]"


def _print(name: str, result: CalibrationResult) -> None:
    table = Table(title=f"{name}: {result.answered} of {result.requested} answers scored")
    for col in ("level", "answers", "passed", "rate", "95% Wilson"):
        table.add_column(col, justify="left" if col == "level" else "right")
    for m in result.levels:
        table.add_row(m.level, str(m.answers), f"{m.passed:g}", f"{m.rate:.3f}", _interval(m.low, m.high))
    rate = "-" if result.pass_rate is None else f"{result.pass_rate:.3f}"
    passed = sum(m.passed for m in result.levels)
    table.add_row("[bold]overall[/]", str(result.answered), f"{passed:g}", rate,
                  _interval(result.low, result.high), end_section=True)
    out.print(table)
    if result.solver_failures:
        out.print(f"{result.solver_failures} solver call(s) failed (within the filter's tolerance; "
                  "not scored)")
    if result.finding is None:
        out.print(f"the filter's verdict at this K: {result.verdict} "
                  f"(band [{result.band[0]}, {result.band[1]}])")


def _print_finding(name: str, f: Finding, key_env: str) -> None:
    where = f" (level {f.level}, seed {f.seed})" if f.level is not None else ""
    hint = {
        "verifier_error": f"verify_score of {name} is broken on a solver answer: fix the module "
                          "(`synth check` it), commit it again, then calibrate",
        "sample_error": f"{name} cannot draw its cases: fix the module (`synth check` it), "
                        "commit it again, then calibrate",
        "solver_error": f"the solver endpoint failed: check --base-url / OPENAI_BASE_URL, the model "
                        f"name (--solver-model) and the key in ${key_env}, then calibrate again",
        "sandbox_error": "the sandbox failed while scoring: try another --sandbox backend",
    }[f.kind]
    err.print(f"[bold red]finding:[/] {f.kind}{escape(where)}: {escape(f.reason)}", soft_wrap=True)
    if f.prompt_head:
        err.print(f"  prompt: {f.prompt_head[:200]!r}", markup=False, soft_wrap=True)
    if f.response is not None:
        err.print(f"  response: {f.response[:300]!r}", markup=False, soft_wrap=True)
    if f.error:
        err.print(f.error.rstrip()[-1500:], markup=False, highlight=False)
    err.print(f"[bold red]error:[/] {escape(hint)}; the record was not changed", soft_wrap=True)
