"""A start deadline that does not tick while the child process is stopped.

The local model server may be paused while it loads (``SIGSTOP`` from a job scheduler, or a timing lock that stops
background work while a benchmark runs). A wall-clock deadline then fails a whole QA run that would have gone on
once resumed; ``RunningClock`` counts only the time the child was not stopped. Whether it is stopped is read from
``/proc/<pid>/stat`` (Linux); where that cannot be read, the clock is a plain wall clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path


def is_stopped(pid: int) -> bool:
    """True while process ``pid`` is stopped by a signal or traced (state ``T``/``t``); False if unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("ascii", "replace")
    except OSError:
        return False
    # "pid (comm) state ...": comm may hold spaces and parentheses, so the state follows the last ")".
    fields = stat[stat.rfind(")") + 1 :].split()
    return bool(fields) and fields[0] in ("T", "t")


class RunningClock:
    """``expired()`` once ``budget_s`` seconds have passed while process ``pid`` was not stopped.

    Call ``expired()`` often (each poll adds the time since the last one, or nothing if the child is stopped now).
    """

    def __init__(
        self,
        pid: int,
        budget_s: float,
        *,
        now: Callable[[], float] = time.monotonic,
        stopped: Callable[[int], bool] = is_stopped,
    ) -> None:
        self._pid = pid
        self._budget_s = budget_s
        self._now = now
        self._stopped = stopped
        self._last = now()
        self.running_s = 0.0

    def expired(self) -> bool:
        current = self._now()
        if not self._stopped(self._pid):
            self.running_s += current - self._last
        self._last = current
        return self.running_s > self._budget_s
