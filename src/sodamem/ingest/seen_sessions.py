"""The sessions this process's adds left behind, so that the next add to one of them plans from memory.

An add works out what to write before it takes the user's lock, from the session as it was (``append.py``); under
the lock it reads the session again and compares, and plans again if another writer changed it. The first read only
saves that second plan, so it may come from memory: the session as this process's last add to it left it. On a
database server that is a statement and a round trip less per add. An entry another process has made stale costs
a plan made under the lock, never a wrong write; nor does an add ever conclude from an entry that it has nothing to
write (``append_messages`` then asks the store).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from sodamem.store.live import StoredSession


class SeenSessions:
    """The last ``size`` sessions added to, as stored after the add, by (user, session id)."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._items: OrderedDict[tuple[str, str], StoredSession] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, user: str, session_id: str) -> StoredSession | None:
        with self._lock:
            session = self._items.get((user, session_id))
            if session is not None:
                self._items.move_to_end((user, session_id))
            return session

    def put(self, user: str, session_id: str, session: StoredSession) -> None:
        with self._lock:
            self._items[(user, session_id)] = session
            self._items.move_to_end((user, session_id))
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def drop(self, user: str, session_id: str) -> None:
        with self._lock:
            self._items.pop((user, session_id), None)
