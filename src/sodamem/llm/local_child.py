"""The child process behind ``local.LocalServer``: xllamacpp's OpenAI-compatible server for one GGUF, on loopback.

    python -m sodamem.llm.local_child --model FILE.gguf --alias local/NAME [--port 0] [--ctx 8192] [--threads N]

It loads the model (llama.cpp's own C++ HTTP server, in this process), prints ``listening http://127.0.0.1:PORT``
on stdout, then serves until its stdin closes, which happens when the parent stops it or dies, so it never outlives
the parent. Logs (llama.cpp's, and any error) go to stderr.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from sodamem.loopback import HOST

READY_PREFIX = "listening "


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sodamem.llm.local_child", description="Serve one GGUF on loopback."
    )
    parser.add_argument("--model", required=True, help="The GGUF file.")
    parser.add_argument("--alias", required=True, help="The model name the server reports.")
    parser.add_argument("--port", type=int, default=0, help="0: any free port.")
    parser.add_argument("--ctx", type=int, default=8192, help="Context window, in tokens.")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads; 0: llama.cpp's default (all cores).")
    parser.add_argument("--n-predict", type=int, default=4096, help="Reply length cap when a request sets none.")
    parser.add_argument("--verbosity", type=int, default=1, help="llama.cpp log level (1: errors only, 3: all).")
    args = parser.parse_args(argv)

    xlc = importlib.import_module("xllamacpp")  # untyped: everything below is Any
    params = xlc.CommonParams()
    params.model.path = args.model
    params.model_alias = {args.alias}
    params.hostnames = [HOST]
    params.port = args.port
    params.n_ctx = args.ctx
    params.n_predict = args.n_predict
    params.n_parallel = 1
    params.verbosity = args.verbosity
    for cpu in (params.cpuparams, params.cpuparams_batch):
        if args.threads > 0:
            cpu.n_threads = args.threads
        # No busy-waiting between ops: on a loaded machine (2 shared cores) llama.cpp's default polling made
        # generation ~50x slower (1.2 instead of 65 tokens/s for SmolLM2-135M); with 0 it barely differs when idle.
        cpu.poll = 0
    server = xlc.Server(params)  # loads the model and starts listening; raises when it cannot
    sys.stdout.write(f"{READY_PREFIX}{server.listening_address}\n")
    sys.stdout.flush()
    sys.stdin.buffer.read()  # until EOF: the parent closed the pipe, or died
    del server  # joins llama.cpp's server threads
    return 0


if __name__ == "__main__":
    sys.exit(main())
