"""``python -m synth.models.llama_serve``: llama.cpp's HTTP server, from the ``xllamacpp`` wheel.

The embedded models are served by llama.cpp's own C++ server. ``xllamacpp`` (the ``[local]``
extra) ships it prebuilt inside a manylinux wheel, so setup installs it with pip in seconds
instead of compiling llama.cpp (about 10 minutes of both cores). This module is the process
``LocalModelServer`` starts: it takes the subset of ``llama-server``'s flags that synth uses,
starts the server on the given address, and serves until SIGTERM or SIGINT.

A ``llama-server`` binary of one's own (a native build is faster on some CPUs) is used instead
when ``SYNTH_LLAMA_SERVER`` names it: it takes the same flags (synth/models/local.py).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m synth.models.llama_serve",
                                description="llama.cpp's server (xllamacpp) on one address, until SIGTERM")
    p.add_argument("--model", required=True, help="the GGUF file")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--ctx-size", type=int, default=4096, help="tokens of context over all slots")
    p.add_argument("--parallel", type=int, default=1, help="slots")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--alias", default="", help="the model name requests carry")
    p.add_argument("--cache-reuse", type=int, default=0, help="prompt-cache reuse chunk, tokens")
    p.add_argument("--poll", type=int, default=None, help="busy-wait level of the threads, 0-100")
    # accepted for the flag set llama-server takes; both are this module's defaults
    p.add_argument("--jinja", action="store_true", help="(always on)")
    p.add_argument("--no-webui", action="store_true", help="(always off)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(list(sys.argv[1:] if argv is None else argv))
    try:
        import xllamacpp
    except ImportError:
        print("error: the embedded model's server needs the [local] extra (pip install "
              "'bootcamp-synth[local]'), which installs xllamacpp", file=sys.stderr)
        return 2
    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.hostnames = [args.host]
    params.port = args.port
    params.n_ctx = args.ctx_size
    params.n_parallel = args.parallel
    for cpu in (params.cpuparams, params.cpuparams_batch):
        cpu.n_threads = args.threads
        if args.poll is not None:
            cpu.poll = args.poll
    if args.alias:
        params.model_alias = {args.alias}
    params.n_cache_reuse = args.cache_reuse
    params.use_jinja = True
    params.ui = False
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    try:
        server = xllamacpp.Server(params)  # loads the model, then listens
    except Exception as exc:  # a model that does not load: said, exit 1
        print(f"error: the server did not start: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"llama_serve: listening on {server.listening_address}", file=sys.stderr, flush=True)
    while not stop.wait(1.0):
        pass
    del server  # finishes the request in hand, then stops the main loop
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
