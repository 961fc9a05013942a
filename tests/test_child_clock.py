"""The local model server's start deadline: time spent stopped (SIGSTOP) does not count."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from sodamem.llm.child_clock import RunningClock, is_stopped


class Script:
    """A scripted monotonic clock and stop state, advanced by the test."""

    def __init__(self) -> None:
        self.t = 0.0
        self.stopped = False

    def now(self) -> float:
        return self.t


def test_time_while_stopped_does_not_count() -> None:
    script = Script()
    clock = RunningClock(1, 10.0, now=script.now, stopped=lambda _pid: script.stopped)
    script.t = 6.0
    assert not clock.expired()
    script.stopped, script.t = True, 500.0  # paused for minutes while loading
    assert not clock.expired() and clock.running_s == pytest.approx(6.0)
    script.stopped, script.t = False, 503.0
    assert not clock.expired()
    script.t = 505.0
    assert clock.expired() and clock.running_s == pytest.approx(11.0)


def test_an_unknown_process_runs_on_wall_time() -> None:
    script = Script()
    clock = RunningClock(2**22 + 12345, 1.0, now=script.now)  # no such pid: is_stopped says False
    script.t = 2.0
    assert clock.expired()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_real_stopped_child_is_seen_as_stopped() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert not is_stopped(child.pid)
        os.kill(child.pid, signal.SIGSTOP)
        for _ in range(50):  # the state changes asynchronously
            if is_stopped(child.pid):
                break
            time.sleep(0.02)
        assert is_stopped(child.pid)
        os.kill(child.pid, signal.SIGCONT)
        for _ in range(50):
            if not is_stopped(child.pid):
                break
            time.sleep(0.02)
        assert not is_stopped(child.pid)
    finally:
        child.kill()
        child.wait()
