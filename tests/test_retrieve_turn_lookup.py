"""TurnLookup: per-search memo of what the fusion asks about candidate turns."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sodamem import Memory, Session, Turn
from sodamem.retrieve.turn_lookup import TurnLookup


def test_rows_neighbors_and_occurred_times(tmp_path: Path) -> None:
    turns = (
        Turn(0, "Ann", "I moved to Leeds yesterday.", "s:0"),
        Turn(1, "Bo", "Wow, do you like it there?", "s:1"),
        Turn(2, "Ann", "Yes, I love it.", "s:2"),
    )
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        memory.ingest([Session("s", datetime(2024, 5, 2), turns)])
        conn = memory.store.conn
        pk = {str(t): int(p) for p, t in conn.execute("SELECT id, turn_id FROM turns")}
        lookup = TurnLookup(memory.store)
        rows = lookup.rows([pk["s:1"], pk["s:0"], pk["s:1"], 10_000])  # repeats and unknown turns are fine
        assert set(rows) == {pk["s:0"], pk["s:1"]}
        assert rows[pk["s:1"]].speaker == "Bo" and rows[pk["s:1"]].addresses_listener and rows[pk["s:1"]].only_asks
        assert not rows[pk["s:0"]].addresses_listener and rows[pk["s:0"]].said_at is not None
        assert lookup.neighbors([pk["s:0"], pk["s:1"]]) == {pk["s:0"]: (pk["s:1"],), pk["s:1"]: (pk["s:0"], pk["s:2"])}
        occurred = lookup.occurred([pk["s:0"], pk["s:2"]])
        assert occurred[pk["s:2"]] == ()
        # the rules derive "Ann moved to Leeds" (and "lives in") with "yesterday" resolved against the session
        assert {start[:10] for start, _ in occurred[pk["s:0"]]} == {"2024-05-01"}
        # Memoized for the search's lifetime: a row deleted now is still answered from the first fetch.
        conn.execute("DELETE FROM turns WHERE id = ?", (pk["s:0"],))
        assert lookup.rows([pk["s:0"]])[pk["s:0"]].speaker == "Ann"
        assert TurnLookup(memory.store).rows([pk["s:0"]]) == {}


def test_the_searcher_keeps_one_lookup_until_the_store_changes(tmp_path: Path) -> None:
    def session(name: str, day: int) -> Session:
        return Session(name, datetime(2024, 5, day), (Turn(0, "Ann", f"I visited {name} today.", f"{name}:0"),))

    with Memory(tmp_path / "m.db", embedder="none") as memory:
        memory.ingest([session("Leeds", 1)])
        first = memory.searcher.turn_lookup()
        memory.search("Where did Ann go?")
        assert memory.searcher.turn_lookup() is first
        memory.ingest([session("York", 2)])
        assert memory.searcher.turn_lookup() is not first
        assert memory.search("York")[0].turn_id == "York:0"


def test_an_add_keeps_the_neighbours_of_sessions_it_did_not_grow(tmp_path: Path) -> None:
    def session(name: str, day: int) -> Session:
        said = ("I visited {} today.", "How was {}?", "{} was lovely.")
        turns = tuple(Turn(i, "Ann" if i % 2 == 0 else "Bo", t.format(name), f"{name}:{i}") for i, t in enumerate(said))
        return Session(name, datetime(2024, 5, day), turns)

    with Memory(tmp_path / "m.db", embedder="none") as memory:
        memory.ingest([session("Leeds", 1), session("York", 2)])
        conn = memory.store.conn
        pk = {str(t): int(p) for p, t in conn.execute("SELECT id, turn_id FROM turns")}
        everyone = list(pk.values())
        first = memory.searcher.turn_lookup()
        first.rows(everyone)
        before = first.neighbors(everyone)
        memory.add([{"id": "Leeds:3", "speaker": "Bo", "text": "Glad to hear it."}], session_id="Leeds")
        pk["Leeds:3"] = int(conn.execute("SELECT id FROM turns WHERE turn_id = 'Leeds:3'").fetchone()[0])
        second = memory.searcher.turn_lookup()
        assert second is not first
        # York's neighbours come along untouched; Leeds grew, so its turns' neighbours are read again.
        assert set(second._neighbors) == {pk["York:0"], pk["York:1"], pk["York:2"]}
        after = second.neighbors([*everyone, pk["Leeds:3"]])
        assert after == TurnLookup(memory.store).neighbors([*everyone, pk["Leeds:3"]])
        assert after[pk["Leeds:2"]] == (pk["Leeds:1"], pk["Leeds:3"]) != before[pk["Leeds:2"]]
        # Another connection's add (seen through data_version) is found the same way.
        with Memory(tmp_path / "m.db", embedder="none") as other:
            other.add([{"id": "York:3", "speaker": "Bo", "text": "Nice."}], session_id="York")
        york_3 = int(conn.execute("SELECT id FROM turns WHERE turn_id = 'York:3'").fetchone()[0])
        third = memory.searcher.turn_lookup()
        assert third.neighbors([pk["York:2"]]) == {pk["York:2"]: (pk["York:1"], york_3)}
        assert set(third._neighbors) >= {pk["Leeds:0"], pk["Leeds:1"], pk["Leeds:2"]}


def test_the_turn_of_each_piece_is_read_once_and_kept_across_adds(tmp_path: Path) -> None:
    def session(name: str, day: int) -> Session:
        said = ("I visited {} today. It rained all day.", "How was {}?")
        turns = tuple(Turn(i, "Ann" if i % 2 == 0 else "Bo", t.format(name), f"{name}:{i}") for i, t in enumerate(said))
        return Session(name, datetime(2024, 5, day), turns)

    with Memory(tmp_path / "m.db", embedder="none") as memory:
        memory.ingest([session("Leeds", 1)])
        conn = memory.store.conn
        truth = {int(p): int(t) for p, t in conn.execute("SELECT id, turn_pk FROM pieces")}
        assert len(truth) > len(set(truth.values()))  # a turn of two sentences has two pieces
        first = memory.searcher.turn_lookup()
        assert first.piece_turns([*truth, 10_000]) == truth  # a piece the store does not hold is left out
        memory.add([{"id": "Leeds:2", "speaker": "Ann", "text": "Wet but lovely."}], session_id="Leeds")
        second = memory.searcher.turn_lookup()
        assert second is not first and second._piece_turns == truth  # handed over: no turn was deleted
        truth = {int(p): int(t) for p, t in conn.execute("SELECT id, turn_pk FROM pieces")}
        assert second.piece_turns(truth) == truth
        memory.forget(session_id="Leeds")
        assert memory.searcher.turn_lookup().piece_turns(truth) == {}  # a forget starts afresh
