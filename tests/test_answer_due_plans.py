"""Plans whose day has come answer what holds now (``answer/due_plans.py``); who the user lives with; job titles and
short names of one employer. Histories are told message by message, as an agent adds them."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.due_plans import begins_after, due_plans, plan_news
from sodamem.records import FactRecord, FactSource, SearchHit

from .scenario_histories import ABSTAIN, History, answered, check_answer

CHANGING_JOBS: History = [
    ("2025-01-10T12:00", "I work at Hollis Construction."),
    ("2025-08-05T12:00", "Last day at Hollis is the 15th and I start at Coastline on the 25th."),
]
STARTED_SINCE: History = [
    *CHANGING_JOBS,
    ("2025-08-28T19:40", "First week at Coastline done, project manager life suits me."),
]
CALLED_OFF: History = [
    ("2025-01-10T12:00", "I work at Hollis Construction."),
    ("2025-02-01T12:00", "I start at Spotify on March 3rd, so excited."),
    ("2025-02-20T12:00", "The Spotify thing fell through, they froze hiring. I'm staying at Hollis for now."),
]
MOVING: History = [
    ("2025-01-10T12:00", "I live in Leeds."),
    ("2025-04-09T12:00", "The Montreal move is set for April 28, I booked the movers."),
]
FLATMATES: History = [
    ("2025-03-03T21:26", "I live in Ancoats in Manchester with my flatmate Lucy."),
    ("2025-03-20T19:12", "Lucy moved out yesterday. So Sam's moving in on May 1st!"),
]
ALONE: History = [("2025-03-03T21:26", "I live in Ancoats in Manchester.")]
NEW_JOB_TITLE: History = [
    ("2026-01-17T10:00", "I got the Ember Health job!! I start on February 2nd. Title's senior product designer."),
    ("2026-02-07T16:00", "First week at Ember done. The team is small, four designers."),
]
LEASE: History = [
    ("2025-10-25T15:04", "thanks. home is a share house in Brunswick with my housemate Yusuf."),
    ("2025-12-06T17:30", "update! We signed a lease on a flat in Fitzroy North, we move on the 20th."),
]
LEASE_AND_COTTAGE: History = [*LEASE, ("2026-01-05T10:00", "My aunt lives in Daylesford, in a cottage.")]
MOVING_OUT: History = [
    ("2025-09-06T14:00", "I live in Tucson with my roommate Beckett."),
    ("2025-10-11T16:30", "Beckett is moving out at the end of the month btw, he's moving in with his girlfriend."),
]
MOVE_DELAYED: History = [
    *MOVING,
    ("2025-04-20T18:00", "Still in Leeds! The move got delayed a month, the flat isn't ready."),
]
MOVE_PUSHED: History = [
    *MOVING,
    ("2025-04-20T18:00", "ugh, the move got pushed to May 20th."),
]
START_POSTPONED: History = [
    ("2025-01-10T12:00", "I work at Hollis Construction."),
    ("2025-02-01T12:00", "I start at Spotify on March 3rd, so excited."),
    ("2025-02-25T12:00", "My start date got postponed, they don't know when yet."),
]
MOVE_IN_PUSHED: History = [
    *FLATMATES,
    ("2025-04-25T09:00", "Sam's move-in got pushed back two weeks, his lease runs longer."),
]
MOVED_IN_THE_END: History = [
    ("2026-02-24T18:11", "and... ruairidh asked me to move in with him in Stonehaven. i think yes??"),
    (
        "2026-03-21T10:30",
        "my move is the same month anyway, we're taking my stuff down to Stonehaven on saturday the 4th",
    ),
    (
        "2026-04-29T21:00",
        "we've been in Stonehaven nearly three weeks now, the van fell through so we moved on the 11th",
    ),
]
FATHER_MOVING: History = [
    ("2026-07-12T11:28", "My father is moving from Bodø to Ålesund in August, to be closer to his brother."),
]
FATHER_SETTLED: History = [
    *FATHER_MOVING,
    ("2026-10-03T16:06", "My father has settled in Ålesund, by the way. He already has a favourite café."),
]
BROTHER_PUT_OFF: History = [
    ("2026-03-01T10:00", "My brother lives in Cork."),
    ("2026-04-01T10:00", "My brother is moving to Galway in August."),
    ("2026-06-01T10:00", "My brother's move got pushed to next spring."),
]
HIS_MOVE_PUT_OFF: History = [
    *BROTHER_PUT_OFF[:2],
    ("2026-06-01T10:00", "His move to Galway got pushed to next spring."),
]
BROTHER_TOLD_ME: History = [("2026-05-12T10:00", "My brother Tom told me he's moving to Leeds in July.")]
CASES = [
    ("a-move-told-of-not-yet", BROTHER_TOLD_ME, "2026-06-01", "Where does Tom live?", ABSTAIN),
    ("a-move-told-of-come", BROTHER_TOLD_ME, "2026-08-01", "Where does Tom live?", "Leeds"),
    ("a-move-told-of-by-its-day", BROTHER_TOLD_ME, "2026-08-01", "When did Tom move to Leeds?", "July 2026"),
    ("a-relatives-move-put-off", BROTHER_PUT_OFF, "2026-10-01", "Where does my brother live?", "Cork"),
    ("put-off-with-where-between", HIS_MOVE_PUT_OFF, "2026-10-01", "Where does my brother live?", "Cork"),
    ("a-relatives-move-come", FATHER_MOVING, "2026-10-04", "Where does my father live now?", "Ålesund"),
    ("a-relative-settled", FATHER_SETTLED, "2026-10-04", "Where does my father live now?", "Ålesund"),
    ("started-since", CHANGING_JOBS, "2025-09-01", "Where do I work?", "Coastline (previously Hollis Construction)"),
    ("before-the-last-day", CHANGING_JOBS, "2025-08-10", "Where do I work?", "Hollis Construction"),
    ("after-the-last-day", CHANGING_JOBS, "2025-08-20", "Do I still work at Hollis?", "No"),
    ("not-yet", MOVING, "2025-04-20", "Where do I live?", "Leeds"),
    ("moved-on-the-day", MOVING, "2025-05-10", "Where do I live?", "Montreal (previously Leeds)"),
    ("said-since", STARTED_SINCE, "2025-09-01", "Where do I work?", "Coastline (previously Hollis Construction)"),
    ("called-off", CALLED_OFF, "2025-04-01", "Where do I work?", "Hollis Construction"),
    ("moved-in-on-the-day", FLATMATES, "2025-06-10", "Who do I live with?", "Sam"),
    ("before-moving-in", FLATMATES, "2025-04-10", "Who do I live with?", "no one now (previously Lucy)"),
    ("no-housemate-said", ALONE, "2025-04-10", "Who do I live with?", ABSTAIN),
    ("no-employer-said", ALONE, "2025-04-10", "Where do I work?", ABSTAIN),
    ("short-name-is-no-change", NEW_JOB_TITLE, "2026-03-01", "Where do I work?", "Ember"),
    ("lease-then-move", LEASE, "2026-02-09", "Where do I live?", "Fitzroy North (previously Brunswick)"),
    (
        "another-place-after-the-move",  # Daylesford: where the aunt lives
        LEASE_AND_COTTAGE,
        "2026-02-09",
        "Do I live in Daylesford?",
        "No, Fitzroy North (previously Brunswick)",
    ),
    ("a-place-never-said", LEASE, "2026-02-09", "Do I live in England?", "Fitzroy North (previously Brunswick)"),
    ("the-place-moved-to", LEASE, "2026-02-09", "Do I live in Fitzroy North?", "Yes"),
    ("moving-out-not-yet", MOVING_OUT, "2025-10-20", "Does Beckett still live with me?", "Yes"),
    ("moved-out-on-the-day", MOVING_OUT, "2025-12-16", "Does Beckett still live with me?", "No"),
    ("nobody-after-moving-out", MOVING_OUT, "2025-12-16", "Who do I live with?", "no one now (previously Beckett)"),
    ("delayed-a-month-not-yet", MOVE_DELAYED, "2025-05-10", "Where do I live?", "Leeds"),
    ("delayed-a-month-come", MOVE_DELAYED, "2025-06-01", "Where do I live?", "Montreal (previously Leeds)"),
    ("pushed-to-a-day-not-yet", MOVE_PUSHED, "2025-05-10", "Where do I live?", "Leeds"),
    ("pushed-to-a-day-come", MOVE_PUSHED, "2025-05-25", "Where do I live?", "Montreal (previously Leeds)"),
    ("when-am-i-moving-after-a-delay", MOVE_PUSHED, "2025-04-25", "When am I moving to Montreal?", "20 May 2025"),
    ("when-did-reads-what-was-done", MOVED_IN_THE_END, "2026-05-01", "When did I move to Stonehaven?", "11 April 2026"),
    ("postponed-no-day", START_POSTPONED, "2025-04-01", "Where do I work?", "Hollis Construction"),
    ("move-in-pushed-not-yet", MOVE_IN_PUSHED, "2025-05-05", "Who do I live with?", "no one now (previously Lucy)"),
    ("move-in-pushed-come", MOVE_IN_PUSHED, "2025-05-20", "Who do I live with?", "Sam"),
    ("title-is-no-employer", NEW_JOB_TITLE, "2026-03-01", "What's my job title?", "senior product designer"),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def plan(predicate: str, obj: str, day: str, said: str = "2025-02-01T12:00:00") -> FactRecord:
    return FactRecord(
        id=1,
        kind="plan",
        predicate=predicate,
        modality="planned",
        subject="user",
        object=obj,
        polarity=True,
        roles=(("organization", obj),),
        text="",
        mentioned_at=said,
        occurred_start=day,
        occurred_end=None,
        occurred_granularity="day",
        occurred_expression=None,
        valid_from=said,
        valid_to=None,
        status="active",
        sources=(),
        links=(),
    )


def test_a_delay_moves_the_plans_day() -> None:
    move = replace(plan("moved", "Montreal", "2025-04-28T00:00:00"), roles=(("location", "Montreal"),))
    said = "2025-04-20T18:00:00"
    assert plan_news(move, [hit("The move got delayed a month.", said)]).day == datetime(2025, 5, 28)
    assert plan_news(move, [hit("The move got pushed back two weeks.", said)]).day == datetime(2025, 5, 12)
    assert plan_news(move, [hit("Montreal got pushed to May 20th.", said)]).day == datetime(2025, 5, 20)
    put_off = plan_news(move, [hit("The move is postponed.", said)])
    assert put_off.postponed and put_off.day is None
    assert not plan_news(move, [hit("My sister's flight got delayed.", said)]).postponed  # names no plan
    for unrelated in (  # words of putting off, not said of the plan
        "My sister keeps pushing us to rethink the move.",
        "Pushing myself to pack a box a day for the move.",
        "Our broadband in Montreal got delayed until June though.",
    ):
        assert not plan_news(move, [hit(unrelated, said)]).postponed, unrelated
    start = plan("started", "Google", "2025-03-04T00:00:00")
    for unrelated in ("Ugh, Google pushed an update that broke my calendar.", "My new job is pushing me to relocate."):
        assert not plan_news(start, [hit(unrelated, "2025-02-20T12:00:00")]).postponed, unrelated
    supposed = replace(hit("If the move gets delayed, keep the flat a month longer.", said), speaker="assistant")
    assert not plan_news(move, [supposed]).postponed
    assert not plan_news(move, [hit("The move got delayed a month.", "2025-01-20T09:00:00")]).postponed  # before


def test_a_start_is_due_only_at_an_employer() -> None:
    """ "I'm starting a pottery class on March 3rd" takes up no job."""
    pottery = replace(plan("started", "a pottery class", "2025-03-03T00:00:00"), roles=())
    assert due_plans([pottery], ("works_at",), datetime(2025, 4, 1)) == []


def test_a_plan_is_due_on_its_day_and_for_its_state_only() -> None:
    start = plan("started", "Spotify", "2025-03-03T00:00:00")
    assert due_plans([start], ("works_at",), datetime(2025, 3, 3)) == [start]
    assert due_plans([start], ("works_at",), datetime(2025, 3, 2)) == []
    assert due_plans([start], ("lives_in",), datetime(2025, 4, 1)) == []
    undated = plan("started", "Spotify", "")
    assert due_plans([undated], ("works_at",), datetime(2025, 4, 1)) == []


def test_a_move_told_of_is_due_only_when_dated_after_it_was_said() -> None:
    """ "Tom told me he's moving to Leeds in July" (said in May) is a plan, told; "Ana said she moved in March" is
    no plan at all."""

    def told(place: str, day: str, quote: str) -> FactRecord:
        source = FactSource("s", 0, "s:0", 0, len(quote), quote, "2026-05-12T10:00:00")
        said = plan("moved", place, day, said="2026-05-12T10:00:00")
        return replace(said, modality="reported", sources=(source,))

    moving = told("Leeds", "2026-07-01T00:00:00", "he's moving to Leeds in July")
    assert due_plans([moving], ("lives_in",), datetime(2026, 8, 1)) == [moving]
    done = told("Porto", "2026-03-01T00:00:00", "she moved to Porto in March")
    assert due_plans([done], ("lives_in",), datetime(2026, 8, 1)) == []
    for hedged in ("he might move to Leeds in July", "he's thinking about moving to Leeds in July"):
        assert due_plans([told("Leeds", "2026-07-01T00:00:00", hedged)], ("lives_in",), datetime(2026, 8, 1)) == []


def test_a_plan_counts_only_after_what_held_began_and_was_said() -> None:
    start = plan("started", "Spotify", "2025-03-03T00:00:00")
    before = plan("works_at", "Hollis", "", said="2025-01-10T12:00:00")
    since = plan("works_at", "Hollis", "", said="2025-03-10T12:00:00")  # "I'm still at Hollis", said after the day
    assert begins_after(start, [before])
    assert not begins_after(start, [before, since])


def hit(text: str, when: str) -> SearchHit:
    return SearchHit("s", 0, "s:0", "user", 0, len(text), when, text, 1.0, text)


def test_a_plan_called_off_later_does_not_count() -> None:
    start = plan("started", "Spotify", "2025-03-03T00:00:00")
    assert plan_news(start, [hit("The Spotify thing fell through.", "2025-02-20T12:00:00")]).called_off
    assert not plan_news(start, [hit("The Spotify thing fell through.", "2025-01-20T12:00:00")]).called_off  # before
    assert not plan_news(start, [hit("Spotify sent me a welcome pack!", "2025-02-20T12:00:00")]).called_off


def test_a_when_answer_cites_the_words_its_time_was_read_from(scenario_memories: dict[int, Memory]) -> None:
    """ "dad rang. hes moving to York in july": the hit may be the first sentence, the date is in the second."""
    history: History = [
        ("2026-05-12T10:00", "My brother Tom told me he's moving to Leeds in July."),
        ("2026-05-14T10:00", "dad rang. hes moving to York in july"),
    ]
    memory, answer = answered(scenario_memories, history, "2026-06-01", "When is my dad moving to York?")
    check_answer(memory, answer, "July 2026")
    assert any("july" in c.quote for c in answer.citations)
