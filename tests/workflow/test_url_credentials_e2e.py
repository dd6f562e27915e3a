"""Credentials in a base URL are never written (issue 22, part 5).

`synth run` against the scripted fake endpoint with a password in ``--base-url``
(``http://user:secret@127.0.0.1:PORT/v1``) and an API key in the solver's query string: the
models are reached (the client keeps the real URL), and neither secret appears in any file of the
run folder (config.json, events.jsonl, transcripts, checkpoints, summary), in the library, or in
the command's output. The written URLs are redacted, not dropped.
"""

from __future__ import annotations

import json
from pathlib import Path

from e2e import FakeEndpoint, only_run, outcomes, run_args, synth, synth_env, write_tasks

from synth.models.llm import redact_text, redact_url
from synth.runs import read_events

PASSWORD = "pw-7f3c9e1d-never-written"
QUERY_KEY = "qk-52aa0b64-never-written"
USER = "alice-0c1d"


def test_redaction_of_urls_and_texts() -> None:
    assert redact_url("http://127.0.0.1:8080/v1") == "http://127.0.0.1:8080/v1"
    assert redact_url(f"http://{USER}:{PASSWORD}@h:1/v1") == "http://***@h:1/v1"
    assert redact_url(f"https://h/v1?api_key={QUERY_KEY}&api-version=2024-06-01") == \
        "https://h/v1?api_key=***&api-version=2024-06-01"
    assert redact_url(f"https://h/v1?{QUERY_KEY}#{PASSWORD}") == "https://h/v1?***#***"
    text = redact_text(f"cannot reach 'http://{USER}:{PASSWORD}@h/v1/chat?key={QUERY_KEY}': refused")
    assert PASSWORD not in text and QUERY_KEY not in text and USER not in text
    assert "http://***@h/v1/chat?key=***" in text


def test_a_run_writes_no_secret_of_its_urls(tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks", ["accept-a"])
    lib, runs = tmp_path / "lib", tmp_path / "runs"
    fake = FakeEndpoint(tmp_path, "toy")
    plain = fake.base_url
    host = plain.split("://", 1)[1]
    secret_url = f"http://{USER}:{PASSWORD}@{host}"
    query_url = f"{plain}?api_key={QUERY_KEY}"
    try:
        res = synth(run_args(tasks, lib, runs, "--base-url", secret_url, "--solver-base-url", query_url),
                    synth_env(plain), timeout=300)
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    run_dir = only_run(runs)
    assert outcomes(run_dir)["local/accept-a"][0] == "accepted"  # both endpoints were reached
    for secret in (PASSWORD, QUERY_KEY, USER):
        assert secret not in res.stdout and secret not in res.stderr
        for root in (run_dir, lib):
            for path in root.rglob("*"):
                if path.is_file():
                    assert secret.encode() not in path.read_bytes(), (secret, path)
    cfg = json.loads((run_dir / "config.json").read_text())["config"]
    assert cfg["coder"]["base_url"] == f"http://***@{host}"
    assert cfg["solver"]["base_url"] == f"{plain}?api_key=***"
    endpoints = {e["endpoint"] for e in read_events(run_dir / "events.jsonl") if e["kind"] == "llm_call"}
    assert endpoints == {f"http://***@{host}", f"{plain}?api_key=***"}
