"""One BLAS thread for a block of small products, shared by every thread of the process.

numpy's OpenBLAS thread count is process-wide. A small product split over both cores waits on the slower one, and
OpenBLAS's idle threads spin against whatever else runs: on 2 cores, vector search p95 was 5x worse with two BLAS
threads (bench perf, 1k turns: 114 ms -> 19 ms), and a one-text MiniLM query's CPU 4x. Blocks that want one thread
(a query's embedding, a vector search) enter :func:`one_blas_thread`: the first to enter sets one thread, the last
to leave restores what was there. A plain save-and-restore per block, as threadpoolctl's ``limit`` is, can leave
the process on one thread for good when two blocks overlap (A saves 2 and sets 1, B saves 1, A restores 2, B
restores 1); batches that start while a block is open run on one thread until it closes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_lock = threading.Lock()
_holders = 0
_limiter: Any = None  # threadpoolctl's _ThreadpoolLimiter while a block is open
_controller: Any = None  # threadpoolctl.ThreadpoolController, made once (it scans the loaded libraries)


def _blas_controller() -> Any:
    """The process's threadpoolctl controller, made at first use; call with ``_lock`` held."""
    global _controller
    if _controller is None:
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

        _controller = ThreadpoolController()
    return _controller


@contextmanager
def one_blas_thread() -> Iterator[None]:
    global _holders, _limiter
    with _lock:
        if _holders == 0:
            _limiter = _blas_controller().limit(limits=1, user_api="blas")
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0:
                _limiter.restore_original_limits()
                _limiter = None


def one_blas_thread_for_good() -> None:
    """Leave this process on one BLAS thread: for a server, whose requests run side by side on every core anyway.
    OpenBLAS's idle worker threads spin between calls: in ``bench serve`` a one-worker server burned 189% CPU, 131 ms
    per answered request, of which a whole core was that spinning; with one thread 97% and 82 ms."""
    with _lock:
        _blas_controller().limit(limits=1, user_api="blas")  # kept: a block's restore returns to one thread
