"""The time resolver's speed against an earlier revision, both in one process, alternating, best of N.

``python -m sodamem.bench.timeparse_speed --against main --data ../shared/data/locomo/locomo_dev.json`` copies the
resolver's modules at ``--against`` (``git show``) into a temporary package, imports them next to the working tree's
and runs ``find_times`` over every piece of the data set, old and new in turn, ``--rounds`` times. Shared machines
drift, so only the best pass of each counts, in wall-clock and in CPU seconds; the pieces whose mentions differ are
counted too.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from types import ModuleType

from sodamem.bench.locomo import load_locomo
from sodamem.ingest import timeparse
from sodamem.ingest.pieces import split_pieces

_MODULES = (
    "timeparse",
    "timewords",
    "timedirection",
    "timeranges",
    "timedates",
    "timegrammar",
    "timeholidays",
    "timeguards",
    "timenumeric",
    "timechat",
    "timeclock",
    "timeperiods",
    "timespeech",
)
Finder = Callable[[str, datetime], list[timeparse.TimeMention]]


def snapshot(revision: str, into: Path, package: str = "timeparse_then") -> ModuleType:
    """The resolver as it was at ``revision``, importable as ``package`` (its own imports pointed at the copy)."""
    folder = into / package
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text("")
    for name in _MODULES:
        try:
            source = subprocess.run(
                ["git", "show", f"{revision}:src/sodamem/ingest/{name}.py"], check=True, capture_output=True, text=True
            ).stdout
        except subprocess.CalledProcessError:
            continue  # a module that revision did not have yet
        source = source.replace("from sodamem.ingest import", f"from {package} import")
        source = source.replace("from sodamem.ingest.timewords import", f"from {package}.timewords import")
        (folder / f"{name}.py").write_text(source)
    sys.path.insert(0, str(into))
    return importlib.import_module(f"{package}.timeparse")


def interleaved(
    finders: dict[str, Finder], pieces: Sequence[tuple[str, datetime]], rounds: int
) -> dict[str, tuple[float, float]]:
    """Best (pieces/s wall, pieces/s CPU) of each finder over ``rounds`` alternating passes."""
    best = {name: (0.0, 0.0) for name in finders}
    for _ in range(rounds):
        for name, find in finders.items():
            wall, cpu = time.perf_counter(), time.process_time()
            for text, anchor in pieces:
                find(text, anchor)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            best[name] = (max(best[name][0], len(pieces) / wall), max(best[name][1], len(pieces) / max(cpu, 1e-9)))
    return best


def _shown(mentions: list[timeparse.TimeMention]) -> list[tuple[object, ...]]:
    return [(m.spec.expression, m.spec.start, m.spec.end, m.spec.granularity.value) for m in mentions]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--against", default="main", help="the git revision to compare with")
    parser.add_argument("--data", required=True, help="a LoCoMo JSON file")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    units, _ = load_locomo(args.data)
    pieces = [
        (piece.text, turn.timestamp or session.timestamp)
        for unit in units
        for session in unit.sessions
        for turn in session.turns
        for piece in split_pieces(turn.text)
    ]
    with tempfile.TemporaryDirectory() as folder:
        then = snapshot(args.against, Path(folder))
        best = interleaved({args.against: then.find_times, "working tree": timeparse.find_times}, pieces, args.rounds)
        changed = sum(_shown(then.find_times(t, a)) != _shown(timeparse.find_times(t, a)) for t, a in pieces)
    print(f"{len(pieces):,} pieces, best of {args.rounds} alternating passes:")
    for name, (wall, cpu) in best.items():
        print(f"  {name}: {wall:,.0f} pieces/s ({cpu:,.0f} per CPU second)")
    print(f"  pieces whose mentions differ: {changed}")


if __name__ == "__main__":
    main()
