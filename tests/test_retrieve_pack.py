"""Evidence packs: token budget, grouping by session in time order, rendering, resolved relative dates."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory
from sodamem.retrieve.pack import EvidenceItem, ResolvedTime, build_pack, format_span, resolve_times


def words(text: str) -> int:
    return len(text.split())


def turn(
    item_id: str, session: str, index: int, text: str, when: str = "2023-06-09T14:00:00", **kw: Any
) -> EvidenceItem:
    return EvidenceItem(
        id=item_id,
        kind="turn",
        session_id=session,
        turn_index=index,
        turn_id=f"{session}:{index}",
        speaker="Caroline",
        char_start=0,
        char_end=len(text),
        timestamp=when,
        text=text,
        score=1.0,
        **kw,
    )


def test_render_matches_the_reader_format() -> None:
    said = EvidenceItem(
        id="E1",
        kind="turn",
        session_id="conv-26_session_3",
        turn_index=7,
        turn_id="D3:7",
        speaker="Caroline",
        char_start=0,
        char_end=37,
        timestamp="2023-06-09T14:00:00",
        text="I went to a support group yesterday",
        score=0.9,
        tunnels=("bm25",),
    )
    fact = EvidenceItem(
        id="E4",
        kind="fact",
        session_id="conv-26_session_3",
        turn_index=7,
        turn_id="D3:7",
        speaker="Caroline",
        char_start=0,
        char_end=37,
        timestamp="2023-06-09T14:00:00",
        text="Caroline went to a support group",
        score=0.8,
        status="active",
        occurred_start="2023-06-08T00:00:00",
        occurred_end="2023-06-09T00:00:00",
    )
    pack = build_pack([fact, said], 1000, words)
    assert pack.render_text() == (
        "[Session conv-26_session_3 — 2023-06-09 14:00]\n"
        "[E1] Caroline (turn D3:7): I went to a support group yesterday [yesterday = 2023-06-08]\n"
        "[E4] fact (active): Caroline went to a support group — occurred 2023-06-08 (source D3:7)"
    )
    assert pack.ids == ("E1", "E4")  # the turn before the fact derived from it


def test_resolved_dates_beside_relative_words() -> None:
    item = turn("E1", "s", 0, "Last week I met Jon, and\nthree days ago we talked.", when="2023-05-08T13:56:00")
    assert item.times == (
        ResolvedTime("Last week", "2023-05-01T00:00:00", "2023-05-08T00:00:00"),
        ResolvedTime("three days ago", "2023-05-05T00:00:00", "2023-05-06T00:00:00"),
    )
    assert item.render() == (
        "[E1] Caroline (turn s:0): Last week [Last week = 2023-05-01..2023-05-07] I met Jon, and "
        "three days ago [three days ago = 2023-05-05] we talked."
    )


def test_absolute_dates_are_not_resolved() -> None:
    assert resolve_times("On May 8, 2023 we met, and in 2019 too.", "2023-06-09T14:00:00") == ()
    assert [r.expression for r in resolve_times("We met in May.", "2023-06-09T14:00:00")] == ["in May"]


def test_resolution_can_be_given_or_skipped() -> None:
    assert turn("E1", "s", 0, "yesterday", when="not a time").times == ()
    assert turn("E1", "s", 0, "yesterday", resolved=()).times == ()
    given_ = (ResolvedTime("then", "2020-01-01T00:00:00", "2021-01-01T00:00:00"),)
    item = turn("E1", "s", 0, "It was fine.", resolved=given_)
    assert item.render().endswith("It was fine. [then = 2020]")  # an expression not in the text goes at the end


def test_budget_keeps_rank_order_and_skips_what_does_not_fit() -> None:
    items = [
        turn("E1", "s1", 0, "one two three"),  # header 5 words + line 7 = 12
        turn("E2", "s1", 1, "a b c d e f g h i j k l"),  # line 16: 28 does not fit in 22
        turn("E3", "s1", 2, "four"),  # line 5: fits (17)
        turn("E4", "s2", 0, "five"),  # a new header 5 + line 5: 27 does not fit
        turn("E5", "s1", 3, "x"),  # line 5: fits exactly (22)
    ]
    pack = build_pack(items, 22, words)
    assert pack.ids == ("E1", "E3", "E5")
    assert pack.skipped == ("E2", "E4")
    assert pack.used_tokens == 22 == words(pack.render_text())


def test_zero_budget_is_empty() -> None:
    pack = build_pack([turn("E1", "s", 0, "hello")], 0, words)
    assert pack.items == () and pack.render_text() == "" and pack.skipped == ("E1",)


def test_repeated_ids_are_skipped() -> None:
    pack = build_pack([turn("E1", "s", 0, "hello"), turn("E1", "s", 1, "again")], 100, words)
    assert pack.ids == ("E1",) and pack.skipped == ("E1",)


def test_grouped_by_session_in_time_order() -> None:
    items = [
        turn("E1", "late", 9, "later talk", when="2023-07-01T10:00:00"),
        turn("E2", "early", 5, "fifth", when="2023-05-01T09:00:00"),
        turn("E3", "late", 2, "earlier in the late session", when="2023-07-01T10:00:00"),
        turn("E4", "early", 1, "first", when="2023-05-01T09:00:00"),
        turn("E5", "mid", 0, "mid", when="2023-06-01T09:00:00+02:00"),
    ]
    pack = build_pack(items, 10_000, words)
    assert [g.session_id for g in pack.sessions] == ["early", "mid", "late"]
    assert pack.ids == ("E4", "E2", "E5", "E3", "E1")
    text = pack.render_text()
    assert text.index("[Session early") < text.index("[Session mid") < text.index("[Session late")
    assert "[Session mid — 2023-06-01 09:00 +0200]" in text
    assert "\n\n[Session mid" in text  # a blank line between sessions


def test_session_timestamp_orders_sessions() -> None:
    items = [
        turn("E1", "b", 0, "x", when="2023-01-05T00:00:00", session_timestamp="2023-01-01T00:00:00"),
        turn("E2", "a", 0, "y", when="2023-01-03T00:00:00"),
    ]
    pack = build_pack(items, 100, words)
    assert [g.session_id for g in pack.sessions] == ["b", "a"]
    assert pack.sessions[0].header() == "[Session b — 2023-01-01 00:00]"


def test_to_dict_is_json() -> None:
    item = turn("E1", "s", 0, "I saw her yesterday.", tunnels=("graph", "bm25"))
    data = build_pack([item], 100, words).to_dict()
    decoded = json.loads(json.dumps(data))
    entry = decoded["sessions"][0]["items"][0]
    assert entry["id"] == "E1" and entry["tunnels"] == ["graph", "bm25"] and entry["status"] is None
    assert entry["resolved"] == [["yesterday", "2023-06-08T00:00:00", "2023-06-09T00:00:00"]]
    assert decoded["budget_tokens"] == 100 and decoded["used_tokens"] == words(
        build_pack([item], 100, words).render_text()
    )


def test_format_span() -> None:
    assert format_span("2023-06-08T00:00:00", "2023-06-09T00:00:00") == "2023-06-08"
    assert format_span("2023-06-08T18:00:00", "2023-06-09T00:00:00") == "2023-06-08"
    assert format_span("2023-06-08T18:00:00", "2023-06-09T06:00:00") == "2023-06-08 18:00..2023-06-09 06:00"
    assert format_span("2023-12-01T00:00:00", "2024-01-01T00:00:00") == "2023-12"
    assert format_span("2022-01-01T00:00:00", "2023-01-01T00:00:00") == "2022"
    assert format_span("2022-06-01T00:00:00", "2022-09-01T00:00:00") == "2022-06-01..2022-08-31"
    assert format_span("2023-06-08T00:00:00", None) == "2023-06-08"
    assert format_span("2023-06-08T10:30:00", None) == "2023-06-08 10:30"
    assert format_span("someday", None) == "someday"


@given(
    st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 20), st.integers(1, 30)), max_size=25),
    st.integers(0, 200),
)
def test_rendered_pack_fits_the_budget(specs: list[tuple[str, int, int]], budget: int) -> None:
    items = [turn(f"E{i}", s, idx, " ".join(["w"] * n)) for i, (s, idx, n) in enumerate(specs, start=1)]
    pack = build_pack(items, budget, words)
    assert words(pack.render_text()) == pack.used_tokens <= budget
    assert set(pack.ids) | set(pack.skipped) == {item.id for item in items}


def test_dated_lines_name_the_day_they_were_said_instead_of_their_turn() -> None:
    said = turn("E1", "s", 0, "We threw a party yesterday.", when="2023-05-20T19:38:00")
    fact = EvidenceItem(
        id="E2", kind="fact", session_id="s", turn_index=0, turn_id="D15:13", speaker="John", char_start=0,
        char_end=10, timestamp="2023-05-20T19:38:00", text="John threw a party", score=0.5, status="active",
    )  # fmt: skip
    pack = build_pack([said, fact], 1000, words, line_dates=True)
    assert pack.render_text().splitlines()[1:] == [
        "[E1] Caroline (said 2023-05-20): We threw a party yesterday [yesterday = 2023-05-19].",
        "[E2] fact (active): John threw a party (said 2023-05-20)",
    ]
    assert "(turn s:0)" in build_pack([said], 1000, words).render_text()  # the default keeps the turn


@given(
    st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 20), st.integers(1, 30)), max_size=25),
    st.integers(0, 200),
)
def test_a_dated_pack_fits_its_budget_too(specs: list[tuple[str, int, int]], budget: int) -> None:
    items = [turn(f"E{i}", s, idx, " ".join(["w"] * n)) for i, (s, idx, n) in enumerate(specs, start=1)]
    pack = build_pack(items, budget, words, line_dates=True)
    assert words(pack.render_text()) == pack.used_tokens <= budget


def test_an_image_turn_shows_its_caption_as_search_matched_it() -> None:
    """A turn found by its caption ("red bicycle") shows the caption on its line, or the reader cannot see why."""
    with Memory(":memory:", embedder="none") as memory:
        memory.add(
            {"speaker": "user", "text": "Look at this!", "caption": "a photo of a red bicycle"},
            session_id="s",
            timestamp=datetime(2024, 5, 1, 9),
        )
        pack = memory.evidence("red bicycle", budget_tokens=300)
    (item,) = [i for i in pack.items if i.kind == "turn"]
    assert item.text == "Look at this!" and item.caption == "a photo of a red bicycle"
    assert "[E1] user (turn s:0): Look at this! [image: a photo of a red bicycle]" in pack.render_text()
