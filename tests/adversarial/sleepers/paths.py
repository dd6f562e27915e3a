"""The production paths of the sleeper harness (:mod:`.harness`): each takes an accepted
program's :class:`~.harness._Production` and returns a :class:`~.harness.PathResult`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from synth.sandbox.base import Outcome
from synth.sandbox.kit import canonical

from .harness import (
    AGREES,
    ERROR,
    ESCAPES,
    FULL,
    MULTI_TURN_STYLES,
    POOL_BATCH,
    QUARANTINED,
    ROLLOUT_EPISODES,
    STYLES,
    Escape,
    PathResult,
    ScriptedClient,
    _Rows,
    _wrong_move,
    quarantine_signal,
    run_async,
    wrong_answer,
)

if TYPE_CHECKING:
    from .harness import _Production

__all__ = ["export_path", "filter_path", "pool_path", "reward_path", "rollout_path"]


def _verdict(escapes: list[Escape], said: str) -> str:
    return QUARANTINED if said else (ESCAPES if escapes else AGREES)


def _where(row: dict[str, Any]) -> str:
    info = row.get("extra_info") or {}
    return f"{info.get('split')}[{info.get('index')}] (level {info.get('level')})"


Traffic = tuple[dict[str, Any], str, str, str, str]


def _traffic(prod: _Production, rows: _Rows) -> Iterator[Traffic]:
    """(row, style, answer, right answer, response) for every row's responses (a wrong one,
    then the control), over the rows again and again until at least the program's ``# calls:``
    were made."""
    made = k = 0
    while True:
        for row, right in zip(rows.rows, rows.rights, strict=True):
            identity = json.loads(row["reward_model"]["ground_truth"])
            for style, response in prod.responses(right, identity, k):
                made += 1
                answer = right if style == "control" else (
                    _wrong_move(right, identity) if prod.program.multi_turn else wrong_answer(right))
                yield row, style, answer, right, response
            k += 1
        if made >= prod.program.calls:
            return


def _tally(path: str, got: list[tuple[Traffic, float | None]]) -> tuple[list[Escape], int, str]:
    """(escapes, wrong answers scored, a note on the controls) of scored traffic; an escape
    names the row and the call (1-based, in the order sent: one worker takes them all)."""
    escapes, wrong, missed = [], 0, 0
    for call, ((row, style, answer, right, _), score) in enumerate(got, 1):
        if style == "control":
            missed += score is None or score < FULL
            continue
        wrong += 1
        if score is not None and score >= FULL:
            escapes.append(Escape(path, f"{_where(row)}, call {call}", style, answer, score,
                                  right))
    controls = sum(1 for (_, style, *_), _ in got if style == "control")
    note = f"{missed} of {controls} right answers scored below 1.0" if missed else ""
    return escapes, wrong, note


# -- export -----------------------------------------------------------------------------------


def export_path(prod: _Production) -> PathResult:
    """``synth export`` of the one-bootcamp library (default sizes); keeps the rows and their
    right answers for the reward and pool paths."""
    from synth.training.export import ExportConfig, ExportError, export

    name = prod.program.name
    out = prod.tmp / "export"
    cfg = ExportConfig(out=out, library=prod.library, sandbox=prod.backend.name)  # type: ignore[arg-type]
    try:
        summary = export(cfg)
    except ExportError as exc:
        prod.export_error = f"export failed: {exc}"
        said = quarantine_signal(name, prod.library, errors=[exc])
        return PathResult("export", QUARANTINED if said else ERROR, detail=said or str(exc)[:400])
    rows = [json.loads(line) for split in ("test", "train")
            for line in (out / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()]
    rights = prod.rights([row["reward_model"]["ground_truth"] for row in rows])
    prod.exported = _Rows(rows, rights)
    said = quarantine_signal(name, prod.library, summary)
    return PathResult("export", QUARANTINED if said else AGREES,
                      detail=said or f"{len(rows)} rows ({summary.rows['train']} train, "
                      f"{summary.rows['test']} test)")


# -- the RL reward ------------------------------------------------------------------------------


def reward_path(prod: _Production) -> PathResult:
    """Every exported row's responses scored by the reward function (``compute_score``'s code
    over the harness's library: one warm worker, or one episode environment, with its
    canaries at the default rate; ``fn.quarantined`` and the library record say when they
    caught the program)."""
    from synth.training.reward import make_compute_score

    rows = prod.exported_rows()
    fn = make_compute_score(prod.library, backend=prod.backend.name)
    got: list[tuple[Traffic, float | None]] = []
    errors: list[BaseException] = []
    try:
        for sent in _traffic(prod, rows):
            row, response = sent[0], sent[-1]
            try:
                score = fn(row["data_source"], response, row["reward_model"]["ground_truth"],
                           row["extra_info"])
            except Exception as exc:  # a refused row: production's word, kept
                errors.append(exc)
                score = None
            got.append((sent, score))
        fn.settle()  # the reward's canaries run in the background: their verdict first
        said = quarantine_signal(prod.program.name, prod.library, fn, errors=errors)
    finally:
        fn.close()
    escapes, wrong, note = _tally("reward", got)
    if errors and not said:
        note = f"{len(errors)} calls raised (first: {errors[0]})"[:300] + (f"; {note}" if note else "")
    return PathResult("reward", _verdict(escapes, said), wrong, escapes, said or note)


# -- the warm pool --------------------------------------------------------------------------------


def pool_path(prod: _Production) -> PathResult:
    """The same responses through a WorkerPool with the reward's production settings (one
    worker, 5 s per call, ``recycle_after=5000``: the defaults), in batches of 256."""
    from synth.sandbox.pool import WorkerPool

    rows = prod.exported_rows()
    traffic = list(_traffic(prod, rows))
    got: list[tuple[Traffic, float | None]] = []
    failures: list[str] = []
    with WorkerPool(prod.source, size=1, backend=prod.backend, class_name=prod.class_name,
                    call_timeout_s=5.0, label="synth-sleeper-pool") as pool:
        for start in range(0, len(traffic), POOL_BATCH):
            chunk = traffic[start:start + POOL_BATCH]
            items = [(sent[-1], json.loads(sent[0]["reward_model"]["ground_truth"]))
                     for sent in chunk]
            for sent, res in zip(chunk, pool.verify_many(items), strict=True):
                if res.outcome is not Outcome.PASSED:
                    failures.append(f"{res.outcome.value} {res.kind} {res.error}"[:300])
                got.append((sent, res.score if res.outcome is Outcome.PASSED else None))
        said = quarantine_signal(prod.program.name, prod.library, pool, errors=failures)
    escapes, wrong, note = _tally("pool", got)
    if failures and not said:
        note = f"{len(failures)} calls failed (first: {failures[0]})"[:300] + (f"; {note}" if note else "")
    return PathResult("pool", _verdict(escapes, said), wrong, escapes, said or note)


# -- the acceptance filter ------------------------------------------------------------------------


def filter_path(prod: _Production) -> PathResult:
    """The acceptance filter (default config) with a solver that answers every prompt wrongly,
    in the styles in turn (every move of an episode, for a game)."""
    from filters.self_consistency import FilterConfig, run_filter, sample_prompts

    cfg = FilterConfig()
    items, why = sample_prompts(prod.source, cfg.samples, cfg.seed, prod.backend,
                                cfg.sample_limits)
    if items is None:
        said = quarantine_signal(prod.program.name, prod.library, errors=[why])
        return PathResult("filter", QUARANTINED if said else ERROR, detail=said or why[:400])
    rights = prod.rights([canonical(item["identity"]) for item in items])
    styles = list(MULTI_TURN_STYLES if prod.program.multi_turn else STYLES)
    by_prompt: dict[str, tuple[int, dict[str, Any], str]] = {}
    for k, (item, right) in enumerate(zip(items, rights, strict=True)):
        by_prompt.setdefault(item["prompt"], (k, item["identity"], right))

    def respond(first: str) -> str:
        k, identity, right = by_prompt[first]
        wrong = _wrong_move(right, identity) if prod.program.multi_turn else wrong_answer(right)
        return STYLES[styles[k % len(styles)]](wrong, right)

    async def solve(prompt: str) -> str:
        return respond(prompt)

    async def chat(messages: list[dict[str, str]]) -> str:
        return respond(messages[0]["content"])

    result = run_async(run_filter(prod.source, solve, config=cfg, backend=prod.backend,
                                  chat=chat if prod.program.multi_turn else None))
    escapes = []
    for rec in result.samples:
        if rec.score is not None and rec.score >= FULL:
            k, identity, right = by_prompt[items[rec.index]["prompt"]]
            wrong = _wrong_move(right, identity) if prod.program.multi_turn else wrong_answer(right)
            escapes.append(Escape("filter", f"sample {rec.index} (level {rec.level}, seed "
                                  f"{rec.seed})", styles[k % len(styles)], wrong, rec.score,
                                  right))
    said = quarantine_signal(prod.program.name, prod.library, result,
                             errors=[result.reason] if result.verdict == "verifier_error" else [])
    scored = sum(1 for rec in result.samples if rec.score is not None)
    rate = "n/a" if result.pass_rate is None else f"{result.pass_rate:.2f}"
    return PathResult("filter", _verdict(escapes, said), scored, escapes,
                      said or f"filter verdict {result.verdict}, pass rate {rate}")


# -- rollouts (multi-turn) ------------------------------------------------------------------------


def _always(move: str) -> Callable[[list[dict[str, str]]], str]:
    def reply(_messages: list[dict[str, str]]) -> str:
        return move

    return reply


def rollout_path(prod: _Production) -> PathResult:
    """:func:`synth.serving.rollout.rollout` of the first exported rows in one reused environment, with
    a scripted model that always makes the same losing move."""
    from synth.serving.rollout import EpisodeEnv, rollout

    rows = prod.exported_rows()
    env = EpisodeEnv(prod.source, name=prod.program.name, class_name=prod.class_name,
                     backend=prod.backend)
    escapes, played = [], 0
    try:
        env.start()
        pairs = list(zip(rows.rows, rows.rights, strict=True))[:ROLLOUT_EPISODES]
        for k, (row, right) in enumerate(pairs):
            identity = json.loads(row["reward_model"]["ground_truth"])
            wrong, style = _wrong_move(right, identity), MULTI_TURN_STYLES[k % len(MULTI_TURN_STYLES)]
            client = ScriptedClient(_always(STYLES[style](wrong, right)))
            result = run_async(rollout(env, identity, client, model="scripted-wrong"))
            played += 1
            if result.score >= FULL:
                escapes.append(Escape("rollout", f"{_where(row)}, episode {k + 1}", style, wrong,
                                      result.score, right))
    finally:
        env.close()
    said = quarantine_signal(prod.program.name, prod.library, env)
    return PathResult("rollout", _verdict(escapes, said), played, escapes,
                      said or f"{played} episodes of losing moves")
