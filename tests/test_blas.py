"""One BLAS thread: for a block (a query's embedding, a vector search), and for good (a server process). Run in
subprocesses, since the setting is process-wide."""

from __future__ import annotations

import subprocess
import sys

_SCRIPT = """
import threading
import numpy
from threadpoolctl import threadpool_info
from sodamem.blas import one_blas_thread, one_blas_thread_for_good

def blas_threads():
    return sorted({p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"})

before = blas_threads()
inner = []
with one_blas_thread():
    inner.append(blas_threads())
    done = threading.Event()
    def overlapping():  # a second block opened and closed while the first is open
        with one_blas_thread():
            inner.append(blas_threads())
        done.set()
    threading.Thread(target=overlapping).start()
    done.wait()
    inner.append(blas_threads())
after_block = blas_threads()
one_blas_thread_for_good()
with one_blas_thread():
    pass
print(before, inner, after_block, blas_threads())
"""


def test_blocks_restore_the_count_and_for_good_keeps_one() -> None:
    env_free = {"PATH": "", "OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2"}
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120, check=True, env=env_free
    ).stdout
    assert out.split() == ["[2]", "[[1],", "[1],", "[1]]", "[2]", "[1]"]
