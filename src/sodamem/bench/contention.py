"""Other work on the machine, on purpose: a spawned process that keeps one core busy while a measurement runs.

Searches on a shared machine meet other busy processes; a query path that spreads one small matrix product over
every core (torch's and BLAS's default thread pools) then waits on the slowest core and slows down many times over.
``bench perf`` measures each search phase twice, idle and beside :func:`busy_core`, and reports the ratio.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator
from contextlib import contextmanager

READY_TIMEOUT_S = 30.0


def _burn(ready: multiprocessing.synchronize.Event) -> None:  # pragma: no cover - runs in the spawned child
    ready.set()
    spin = 0
    while True:
        spin = (spin + 1) % 1_000_003


@contextmanager
def busy_core() -> Iterator[int]:
    """Run the block while a separate process spins on one core (its pid is yielded); it is stopped afterwards."""
    context = multiprocessing.get_context("spawn")
    ready = context.Event()
    process = context.Process(target=_burn, args=(ready,), name="sodamem-busy-core", daemon=True)
    process.start()
    try:
        if not ready.wait(READY_TIMEOUT_S):
            raise RuntimeError(f"the busy-core process did not start within {READY_TIMEOUT_S:.0f} s")
        time.sleep(0.2)  # let the scheduler settle with the spinner running
        assert process.pid is not None
        yield process.pid
    finally:
        process.terminate()
        process.join(timeout=10)
        if process.is_alive():  # pragma: no cover - terminate is enough on Linux
            process.kill()
            process.join()
