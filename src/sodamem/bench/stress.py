"""Shared pieces of the crash and many-process harnesses: what the workers say, their journals, the store's rows.

A journal is a JSON-lines file a worker appends to after each call returns (flushed, and fsync'd where the
harness asks). A worker killed mid-write can leave a torn last line: readers skip any line that is not JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import IO, Any

# Short sentences the rule extractor makes facts of (names, moves, likes, jobs, plans): with the example history's
# turns they make the workload's messages. Names revealed mid-session make the rules extract earlier turns again.
SENTENCES = (
    "I live in Leeds.",
    "I moved to Paris last month.",
    "My sister Sarah loves tea.",
    "Sarah moved to Berlin two weeks ago.",
    "Hi! I'm Maya.",
    "I work as a nurse at St James.",
    "I started working at Lumen Health last week.",
    "Tom and I went hiking last weekend.",
    "I love spicy food.",
    "I don't like spicy food anymore.",
    "My partner Tom is a chef.",
    "Priya's fiancé Marcus lives in Lisbon.",
    "I'm going to move to Madrid next year.",
    "Biscuit is my dog.",
    "Daniel said he'd adopt a cat.",
    "Jon went hiking last weekend.",
    "Ravi loves sushi.",
    "I met Jon and Ravi at the gym.",
)
SPEAKERS = ("user", "user", "assistant", "Maya")
_EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "history.jsonl"


@cache
def text_pool() -> tuple[str, ...]:
    """The sentences above and every turn of the bundled example history (shipped with the package)."""
    texts = list(SENTENCES)
    if _EXAMPLE.exists():
        for line in _EXAMPLE.read_text("utf-8").splitlines():
            if line.strip():
                texts.extend(str(t["text"]) for t in json.loads(line)["turns"])
    return tuple(texts)


def marked(text: str, token: str) -> str:
    """``text`` carrying a word no other message has (searchable, and told apart from its copies)."""
    return f"{text} (ref {token})"


def append_line(stream: IO[str], record: dict[str, Any], *, sync: bool) -> None:
    """One JSON line, written in one go and flushed to the OS (which a SIGKILL cannot lose); ``sync``: fsync too."""
    stream.write(json.dumps(record, ensure_ascii=False) + "\n")
    stream.flush()
    if sync:
        os.fsync(stream.fileno())


def read_journal(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a journal; a torn (unparseable) line is skipped."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict):
                yield record


def tail(text: str, limit: int = 2_000) -> str:
    return text if len(text) <= limit else "..." + text[-limit:]
