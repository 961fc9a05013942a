"""Facts written a batch at a time (``store/facts.py``: the names' entities read at once, every fact's id read after
all their inserts) end as one at a time would leave them, on both stores."""

from __future__ import annotations

from sodamem import Memory
from sodamem.store import facts
from sodamem.store.connection_writes import ConnectionWrites

# known through an alias, one key under two spellings, an article, a possessive, a plural, new names twice; names
# without a key of their own ("!!" is keyed by itself, " !! " too): a display name taken by an entity stored before
# the batch, or made earlier in it, is that entity
NAMES = ["user", "Maya", "The Arch", "arch", "Leeds", " Leeds ", "Ben's", "Ben", "cats", "cat", "Ana", "user"]
NAMES += [" !! ", "??", " ?? ", "??"]


def test_a_batch_of_names_resolves_as_one_name_at_a_time(memory_location: str) -> None:
    with Memory(memory_location, embedder="none") as memory:
        store = memory.store
        for user in ("batch", "single"):
            with store.writing(user) as writes:
                writes.add_alias(user, "user", "Maya")
                assert isinstance(writes, ConnectionWrites)
                assert facts.canonical_name(writes.conn, user, "!!") == "!!"
        with store.writing("batch") as writes:
            batch = writes.canonical_names("batch", NAMES)
        with store.writing("single") as writes:
            assert isinstance(writes, ConnectionWrites)
            single = {name: facts.canonical_name(writes.conn, "single", name) for name in NAMES}
            made = {
                user: [
                    (str(r[0]), str(r[1]))
                    for r in writes.conn.execute(
                        "SELECT name, aliases FROM entities WHERE user = ? ORDER BY id", (user,)
                    ).fetchall()
                ]
                for user in ("batch", "single")
            }
    assert batch == single
    assert batch["user"] == "Maya" and batch[" Leeds "] == "Leeds"
    assert batch[" !! "] == "!!" and batch[" ?? "] == "??"
    assert len([name for name, _ in made["batch"] if name in ("!!", "??")]) == 2  # one entity each
    assert made["batch"] == made["single"]  # the same entities, created in the same order


def test_more_names_than_one_read_takes(memory_location: str) -> None:
    """Names beyond one statement's share of parameters are read a chunk at a time, with the same outcome."""
    names = [f"Person {i}" for i in range(700)] + [f" Person {i} " for i in range(0, 700, 7)] + ["Person 3"]
    with Memory(memory_location, embedder="none") as memory:
        store = memory.store
        for user in ("batch", "single"):
            with store.writing(user) as writes:
                assert isinstance(writes, ConnectionWrites)
                for name in names[:300:3]:  # some stored before
                    facts.canonical_name(writes.conn, user, name)
        with store.writing("batch") as writes:
            batch = writes.canonical_names("batch", names)
            assert isinstance(writes, ConnectionWrites)
            ids = facts.entities_of(writes.conn, "batch", names)
        with store.writing("single") as writes:
            assert isinstance(writes, ConnectionWrites)
            single = {name: facts.canonical_name(writes.conn, "single", name) for name in names}
    assert batch == single and {name: canonical for name, (_, canonical) in ids.items()} == single
    assert len({pk for pk, _ in ids.values()}) == 700
