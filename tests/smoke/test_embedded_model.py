"""The embedded models: parts joined in order, the recorded sha256 enforced, the CLI defaults.

The joiner is exercised on packages made here (three parts on ``sys.path``); the real models'
records are checked against the installed packages when they are installed (setup installs
them: a missing package is a failure there, not a skip).
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from pathlib import Path

import pytest

from synth.commands.run import resolve_models
from synth.models.local import (
    MODELS,
    QWEN_CODER,
    SMOLLM2,
    EmbeddedModel,
    LocalModelError,
    model_file,
)

CHUNKS = [b"GGUF" + bytes(range(200)), b"second part " * 50, b"\x00\x01tail"]


def _packages(root: Path, name: str, chunks: list[bytes]) -> tuple[str, ...]:
    names = []
    for i, chunk in enumerate(chunks, 1):
        pkg = root / f"{name}_part{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(chunk)
        names.append(f"{name}-part{i}")
    importlib.invalidate_caches()
    return tuple(names)


def _model(packages: tuple[str, ...], data: bytes, sha: str | None = None) -> EmbeddedModel:
    return EmbeddedModel(key="fake", alias="local/fake", title="a fake model", packages=packages,
                         sha256=sha or hashlib.sha256(data).hexdigest(), size=len(data),
                         ctx_per_slot=512, parallel=1, notice="")


@pytest.fixture
def parts_root(tmp_path: Path):
    root = tmp_path / "site"
    root.mkdir()
    sys.path.insert(0, str(root))
    yield root
    sys.path.remove(str(root))
    for mod in [m for m in sys.modules if m.startswith("fakemodel")]:
        del sys.modules[mod]


def test_parts_are_joined_in_package_order_and_checked(parts_root: Path, tmp_path: Path):
    packages = _packages(parts_root, "fakemodel", CHUNKS)
    data = b"".join(CHUNKS)
    path = model_file(_model(packages, data), tmp_path / "cache")
    assert path.read_bytes() == data
    assert path.with_name(path.name + ".verified").is_file()
    # a second call trusts the stamp; a changed file no longer matches it and is joined again
    assert model_file(_model(packages, data), tmp_path / "cache") == path
    path.write_bytes(b"X" + data[1:])
    assert model_file(_model(packages, data), tmp_path / "cache").read_bytes() == data


def test_a_hash_that_does_not_match_is_an_error_and_leaves_no_file(parts_root: Path, tmp_path: Path):
    packages = _packages(parts_root, "fakemodel", CHUNKS)
    data = b"".join(CHUNKS)
    with pytest.raises(LocalModelError, match="sha256"):
        model_file(_model(packages, data, sha="0" * 64), tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_missing_part_names_the_package(parts_root: Path, tmp_path: Path):
    packages = _packages(parts_root, "fakemodel", CHUNKS)
    with pytest.raises(LocalModelError, match="fakemodel-part9"):
        model_file(_model((*packages, "fakemodel-part9"), b""), tmp_path / "cache")


def test_a_part_of_the_wrong_size_is_refused_before_joining(parts_root: Path, tmp_path: Path):
    packages = _packages(parts_root, "fakemodel", CHUNKS)
    model = _model(packages, b"".join(CHUNKS))
    bad = EmbeddedModel(**{**model.__dict__, "size": model.size + 1})
    with pytest.raises(LocalModelError, match="bytes"):
        model_file(bad, tmp_path / "cache")


def test_the_installed_models_match_their_records():
    """Setup installs both; their parts add up to the recorded size (the hash: setup checks it)."""
    assert len(QWEN_CODER.packages) == 22
    for model in (QWEN_CODER, SMOLLM2):
        files = model.part_files()
        assert sum(f.stat().st_size for f in files) == model.size, model.title
    first = QWEN_CODER.part_files()[0].read_bytes()[:4]
    assert first == b"GGUF"


def test_no_endpoint_means_the_embedded_coder_for_every_role():
    coder, solver, embedded = resolve_models(None, None, None, None, None, None, env={})
    assert embedded is QWEN_CODER and coder.model == solver.model == QWEN_CODER.alias
    assert coder.max_tokens == 1536  # room for a whole module
    smoke_coder, _, smoke = resolve_models("local-smoke", None, None, None, None, None, env={})
    assert smoke is SMOLLM2
    assert smoke_coder.max_tokens == SMOLLM2.coder_max_tokens < coder.max_tokens
    _, _, none = resolve_models(None, None, None, None, None, None, env={"OPENAI_API_KEY": "k"})
    assert none is None
    assert set(MODELS) == {"local", "local-smoke"}


def test_both_models_serve_on_one_thread_unless_told_otherwise(tmp_path: Path):
    """Two threads sharing their cores with another busy process stall at every token
    (bench/llama_threads.py), and in a run the gate's checks of one task run beside the model
    calls of another: the smoke model gets one thread, the code model one per core but one (one
    on this project's 2 cores); an explicit count is passed on."""
    import os

    from synth.models.local import LocalModelServer

    def threads(server: LocalModelServer) -> str:
        cmd = server.command(tmp_path / "m.gguf", ["llama-server"])
        return cmd[cmd.index("--threads") + 1]

    assert threads(LocalModelServer(SMOLLM2)) == "1"
    assert threads(LocalModelServer(QWEN_CODER)) == str(max(1, (os.cpu_count() or 1) - 1))
    assert threads(LocalModelServer(QWEN_CODER, threads=2)) == "2"


def test_the_server_is_the_wheel_unless_a_binary_of_ones_own_is_named(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    import os

    from synth.models.local import SERVER_MODULE, find_server

    monkeypatch.delenv("SYNTH_LLAMA_SERVER", raising=False)
    assert find_server() == [sys.executable, "-m", SERVER_MODULE]  # setup installs [local]
    own = tmp_path / "llama-server"
    own.write_text("#!/bin/sh\n")
    os.chmod(own, 0o755)
    monkeypatch.setenv("SYNTH_LLAMA_SERVER", str(own))
    assert find_server() == [str(own)]
    monkeypatch.setenv("SYNTH_LLAMA_SERVER", str(tmp_path / "absent"))
    with pytest.raises(LocalModelError, match="not an executable"):
        find_server()


def test_the_wheels_server_answers_under_its_alias_and_stops_on_sigterm():
    """The real server on the smoke model: the OpenAI client's call comes back under the alias
    the pipeline's calls carry, and SIGTERM ends the process group in seconds."""
    import os
    import signal
    import subprocess
    import time

    from helpers import assert_no_leftovers, pids_with
    from openai import OpenAI

    from synth.models.local import SERVER_MODULE, LocalModelServer

    before = pids_with(SERVER_MODULE)
    server = LocalModelServer(SMOLLM2).start()
    try:
        assert server.proc is not None and server.proc.poll() is None
        client = OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
        reply = client.chat.completions.create(
            model=SMOLLM2.alias, messages=[{"role": "user", "content": "Say hi."}],
            max_tokens=8, temperature=0)
        assert reply.usage is not None and reply.usage.completion_tokens > 0
        assert reply.model == SMOLLM2.alias
        pid = server.proc.pid
        start = time.monotonic()
        os.killpg(pid, signal.SIGTERM)
        assert server.proc.wait(20) == 0  # stopped on the signal, not killed
        assert time.monotonic() - start < 20
    finally:
        server.stop()
    assert_no_leftovers(SERVER_MODULE, before=before)
    # a model file that does not load: exit 1 with the reason, no server left behind
    bad = subprocess.run([sys.executable, "-m", SERVER_MODULE, "--model", "/nonexistent.gguf",
                          "--port", "9"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "did not start" in bad.stderr
