"""A fixed set of ``Memory`` objects on one database, lent to one request at a time.

A ``Memory`` (its SQLite connection, its in-memory indexes) is used by one thread at a time; the pool lets a worker
serve several requests at once. The embedding model is loaded once and shared: its forward pass is thread-safe.
It is loaded (and run once) when the pool is built, before the worker takes its first connection: otherwise the
first request of each worker paid the model's import and load (6-15 s on 2 cores, ``bench serve``), and with two
workers the requests that landed on the cold one waited that long while the other answered. The same goes for
the annotator of the answer-type tunnel (spaCy), which an add uses only once it is loaded.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from contextlib import contextmanager

from sodamem.memory import Memory


class MemoryPool:
    def __init__(self, db: str, *, size: int, embedder: str, user: str) -> None:
        first = Memory(db, embedder=embedder, user=user)
        self.memories = [first]
        for _ in range(size - 1):
            # The first one recorded the embedder spec; the others share its loaded model.
            self.memories.append(Memory(db, embedder=first.embedder or "none", user=user))
        if first.embedder is not None:
            first.embedder.embed(["warm up"])
            if first.annotator is not None:
                # spaCy too (~3 s): adds then store their turns' mentions, and no search stops to load it mid-load.
                first.annotator.mentions(["warm up"])
        self._idle: queue.SimpleQueue[Memory] = queue.SimpleQueue()
        for memory in self.memories:
            self._idle.put(memory)

    @contextmanager
    def borrow(self) -> Iterator[Memory]:
        memory = self._idle.get()
        try:
            yield memory
        finally:
            self._idle.put(memory)

    def close(self) -> None:
        for memory in self.memories:
            memory.close()
