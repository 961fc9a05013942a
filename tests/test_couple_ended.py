"""A couple said as ended without the partner's name: "We broke up", "I broke up with my boyfriend", "My husband and
I separated". The ending is a denial of no partner in the nameless partner slot; it ends whichever named partner
held then ("my boyfriend Tom"), in that partner's own slot, whatever order the sessions were stored in, and
forgetting it brings the partner back. Real rules, real store."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.answer.ending_date import ending_dated
from sodamem.ingest.supersede import SlotFact, ends_any_partner, resolve_slot
from sodamem.model import FactKind, FactStatus, LinkType
from sodamem.records import FactRecord

from .scenario_histories import check_answer, remembered

TOM = ("2025-01-05T10:00", "My boyfriend Tom took me to Paris for my birthday.")
BROKE_UP = ("2025-03-02T21:00", "We broke up last night, I'm a mess.")
ASKED = datetime(2025, 6, 1, 12, 0)


def _fact(fact_id: int, day: str, value: str, *, polarity: bool = True) -> SlotFact:
    starts = f"2025-{day}T10:00:00"
    return SlotFact(fact_id, f"{starts}|s|00000000|00000000|partner|{value}", starts, value, polarity, said=starts)


def test_only_a_named_partner_slot_is_reached_by_the_nameless_one() -> None:
    assert ends_any_partner("user|partner|tom") == "user|partner|"
    assert ends_any_partner("user|partner|") is None
    assert ends_any_partner("user|relation:boss|finn") is None
    assert ends_any_partner("user|lives_in") is None


def test_a_guest_denial_ends_the_partner_holding_at_its_time_and_gets_no_outcome() -> None:
    tom, ending = _fact(1, "01-05", "tom"), _fact(9, "03-02", "", polarity=False)
    outcomes, links = resolve_slot([tom], [ending])
    assert [(o.fact_id, o.status) for o in outcomes] == [(1, FactStatus.SUPERSEDED)]
    assert outcomes[0].valid_to == ending.starts
    assert [(link.type, link.newer, link.older) for link in links] == [(LinkType.CONTRADICTS, 9, 1)]


def test_a_guest_denial_said_before_the_partner_ends_nothing() -> None:
    ending, tom = _fact(9, "01-05", "", polarity=False), _fact(1, "03-02", "tom")
    outcomes, links = resolve_slot([tom], [ending])
    assert [(o.fact_id, o.status) for o in outcomes] == [(1, FactStatus.ACTIVE)]
    assert links == []


def partner_facts(memory: Memory) -> list[FactRecord]:
    return [f for f in memory.facts(status="all") if f.kind == FactKind.RELATION]


@pytest.mark.parametrize(
    ("said", "whom"),
    [
        ("We broke up last night, I'm a mess.", "their partner"),
        ("We've broken up.", "their partner"),
        ("We broke up for good.", "their partner"),
        ("we split up a few weeks ago, the relationship was dead", "their partner"),
        ("My girlfriend broke up with me.", "user's girlfriend"),
        ("My boyfriend and I broke up last week.", "user's boyfriend"),
        ("I broke up with my girlfriend.", "user's girlfriend"),
        ("I divorced my husband last year.", "user's husband"),
        ("My wife and I separated in the spring.", "user's wife"),
    ],
)
def test_a_couple_ended_without_a_name_is_a_denial_of_no_partner(said: str, whom: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        (fact,) = partner_facts(memory)
    assert (fact.predicate, fact.object, fact.denies) == ("partner", None, True)
    assert fact.text == f"user and {whom} are no longer a couple"


@pytest.mark.parametrize(
    "said",
    [
        "We broke up for Christmas on Friday.",  # a school term
        "We broke up on Friday for the Christmas holidays.",
        "Our band was great until we broke up.",  # a group
        "We split up and searched the woods.",
        "We split up and my husband went left.",  # a partner, but no couple ending
        "My husband and I split up, he took the left trail and I took the right.",
        "My sister and I split up.",  # kin, no couple
        "If we broke up, I'd be lost.",
        "Hannah and Tom broke up.",  # someone else's couple: no partner of the speaker's
    ],
)
def test_no_couple_of_the_speakers_ended(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [f for f in partner_facts(memory) if f.predicate == "partner" and f.denies]


@pytest.mark.parametrize(
    "said",
    [
        "I got separated from my husband Tom in the crowd.",  # a day out
        "I almost broke up with my boyfriend Tom last week.",
        "Sarah broke up with my boyfriend Tom.",  # not the speaker
        "If I broke up with my boyfriend Tom, I'd move.",
    ],
)
def test_a_named_partner_not_left_by_the_speaker_still_holds(said: str) -> None:
    with remembered([TOM, ("2025-03-02T10:00", said)]) as memory:
        question = "Who is my husband?" if "husband" in said else "Is Tom still my boyfriend?"
        answer = memory.ask(question, now=ASKED, offline=True)
        assert answer.answer in ("Yes", "Tom"), (answer.answer, answer.flags)
        assert not [f for f in partner_facts(memory) if f.object == "Tom" and f.denies]


def test_a_partner_again_since_the_ending_is_no_former_one() -> None:
    history = [TOM, BROKE_UP, ("2025-05-01T10:00", "Tom and I are back together, my boyfriend Tom is sweet.")]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who is Tom?", now=ASKED, offline=True), "user's boyfriend")
        check_answer(memory, memory.ask("Who is my boyfriend?", now=ASKED, offline=True), "Tom")


def test_broke_up_with_my_boyfriend_by_name_is_over() -> None:
    with remembered([("2025-03-02T10:00", "I broke up with my boyfriend Tom.")]) as memory:
        active = [f for f in partner_facts(memory) if f.status == "active"]
        assert [(f.predicate, f.object, f.denies) for f in active] == [("boyfriend", "Tom", True)]
        check_answer(memory, memory.ask("Who is my boyfriend?", now=ASKED, offline=True), "previously Tom")


def _tom(memory: Memory) -> FactRecord:
    (tom,) = [f for f in partner_facts(memory) if f.object == "Tom" and f.affirms]
    return tom


@pytest.mark.parametrize("history", [[TOM, BROKE_UP], [BROKE_UP, TOM]], ids=["in order", "stored backwards"])
def test_the_ending_supersedes_the_named_partner_whatever_the_order(history: list[tuple[str, str]]) -> None:
    with remembered(history) as memory:
        tom = _tom(memory)
        (ending,) = [f for f in partner_facts(memory) if f.object is None]
        assert tom.status == "superseded" and ending.status == "active"
        assert tom.valid_to is not None and tom.valid_to.startswith("2025-03-0")
        assert ("CONTRADICTS", "in", ending.id) in {(link.type, link.direction, link.fact_id) for link in tom.links}
        assert memory.check().ok, memory.check().problems  # slot rules: as today's rules give them


def test_forgetting_the_ending_brings_the_partner_back() -> None:
    with remembered([TOM, BROKE_UP]) as memory:
        memory.forget(session_id="s20250302")
        tom = _tom(memory)
        assert tom.status == "active" and tom.valid_to is None
        assert not [link for link in tom.links if link.type == "CONTRADICTS"]
        check_answer(memory, memory.ask("Who is my boyfriend?", now=ASKED, offline=True), "Tom")


def test_a_partner_named_after_the_ending_holds() -> None:
    history = [TOM, BROKE_UP, ("2025-05-01T10:00", "My girlfriend Ana is lovely.")]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who is my girlfriend?", now=ASKED, offline=True), "Ana")


@pytest.mark.parametrize(
    ("question", "now", "expected", "quotes"),
    [
        ("Who is my boyfriend?", ASKED, "no one now (previously Tom)", ["My boyfriend Tom", "We broke up last night"]),
        ("Is Tom still my boyfriend?", ASKED, "No", ["My boyfriend Tom", "We broke up last night"]),
        ("Is Tom still my boyfriend?", datetime(2025, 2, 1), "Yes", ["My boyfriend Tom"]),
        ("Who is Tom?", ASKED, "user's former boyfriend", ["My boyfriend Tom", "We broke up last night"]),
    ],
)
def test_the_readers_say_the_partner_was(question: str, now: datetime, expected: str, quotes: list[str]) -> None:
    with remembered([TOM, BROKE_UP]) as memory:
        answer = memory.ask(question, now=now, offline=True)
        check_answer(memory, answer, expected)
        assert [c.quote for c in answer.citations] == quotes


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("When did I break up with Tom?", "1 March 2025 to 2 March 2025"),  # "last night", said on 2 March at 21:00
        ("When did Tom and I split up?", "1 March 2025 to 2 March 2025"),
        ("How long ago did I break up with Tom?", "3 months ago, 1 March 2025 to 2 March 2025"),
    ],
)
def test_a_nameless_ending_dates_the_named_partners_break_up(question: str, expected: str) -> None:
    with remembered([TOM, BROKE_UP]) as memory:
        answer = memory.ask(question, now=ASKED, offline=True)
        check_answer(memory, answer, expected)
        assert [c.quote for c in answer.citations] == ["We broke up last night"]  # not the turn naming Tom


def test_only_a_partner_a_nameless_ending_ended_is_dated_by_it() -> None:
    ana = ("2025-01-20T10:00", "My friend Ana came over for dinner.")
    with remembered([TOM, ana, BROKE_UP]) as memory:
        assert ending_dated(memory, memory.user, "When did I break up with Ana?") is None  # a friend: the when-reader's
        assert ending_dated(memory, memory.user, "When did I move to Leeds?") is None
        asked = ending_dated(memory, memory.user, "When did I break up with Tom?")
    assert asked is not None and asked.dated is not None and asked.dated.start == "2025-03-01T18:00:00"


def test_a_break_up_asked_of_a_partner_still_held_is_not_dated() -> None:
    with remembered([("2025-05-05T10:00", "Sam and I started dating.")]) as memory:
        answer = memory.ask("When did I break up with Sam?", now=ASKED, offline=True)
    assert answer.abstained  # not the day the dating began


def test_every_backend_ends_the_partner_and_brings_him_back_when_the_ending_is_forgotten(memory: Memory) -> None:
    for when, text in [BROKE_UP, TOM]:  # stored backwards: the partner's slot reads the ending as a guest
        said = datetime.fromisoformat(when)
        memory.add([{"role": "user", "text": text}], session_id=f"s{said:%Y%m%d}", timestamp=said)
    assert _tom(memory).status == "superseded"
    assert memory.check().ok, memory.check().problems
    memory.forget(session_id="s20250302")
    assert _tom(memory).status == "active"
    assert memory.check().ok, memory.check().problems


@pytest.mark.parametrize(
    ("said", "partner"),
    [
        ("Jake and I are over.", "Jake"),
        ("me and Jake are over", "Jake"),
        ("Jake and I are done for good.", "Jake"),
        ("Jake and I are done, my heart is broken.", "Jake"),
        ("Jake and I aren't together anymore.", "Jake"),
        ("Jake dumped me yesterday.", "Jake"),
        ("we're not together anymore", None),
        ("We are no longer together.", None),
        ("my divorce is final!", None),
        ("My divorce finally came through.", None),
        ("My divorce from Tom is final.", "Tom"),
        ("I dumped my boyfriend.", None),
        ("My boyfriend and I aren't together anymore.", None),
        ("My wife and I are over.", None),
        ("Me and my boyfriend are done for good.", None),
        ("It's over between us.", None),
        ("She dumped me.", None),
        ("I got dumped last week.", None),
        ("we're not together anymore because he cheated", None),
        ("We called it quits, the relationship was dead.", None),
    ],
)
def test_a_couple_said_as_over_in_casual_words(said: str, partner: str | None) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        endings = [f for f in partner_facts(memory) if f.predicate == "partner" and f.denies]
    assert [(f.object, f.status) for f in endings] == [(partner, "active")]


@pytest.mark.parametrize(
    "said",
    [
        "Jake and I are done.",  # a task, as likely
        "Jake and I are done, the deck looks great.",
        "we're done!",
        "We're done with dinner.",
        "We're over the moon.",
        "Is it over? Are Jake and I done?",
        "My sister's divorce is final.",
        "I dumped the old sofa.",
        "We're done for the term.",
        "Jake and I called it quits.",  # of anything, where no couple is spoken of
        "We called it quits on the hike after two hours, too hot.",  # an outing
        "Jake and I called it quits on the project.",
        "We're not together now, he's working nights this week.",
        "The meeting ran long but we're over now.",
        "I started a company with Jake, but we're no longer together.",
        "I dumped Netflix.",
        "I dumped Jake.",  # the same words as "I dumped Netflix": only where a couple is spoken of
        "Uber dumped me in the rain.",
        "Once my divorce is final, I'm moving to Spain.",  # to come
        "My divorce is final next month.",
        "Jake and I are finished, my husband will be so proud.",
        "My sister texted me: Jake and I are over.",  # passed on
        "Jake and I aren't together, we're just friends.",
    ],
)
def test_no_couple_over_is_read_where_none_is_said(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [f for f in partner_facts(memory) if f.predicate == "partner" and f.denies]


def test_we_are_not_together_anymore_ends_the_boyfriend() -> None:
    history = [TOM, ("2025-03-02T21:00", "honestly we're not together anymore, it's fine")]
    with remembered(history) as memory:
        answer = memory.ask("Who is my boyfriend?", now=ASKED, offline=True)
        check_answer(memory, answer, "no one now (previously Tom)")
        assert [c.quote for c in answer.citations][:1] == ["My boyfriend Tom"]


def test_a_divorce_dated_long_ago_ends_no_husband_said_since() -> None:
    history = [
        ("2025-01-05T10:00", "My husband Sam is great."),
        ("2025-03-02T10:00", "My divorce came through back in 2015."),
    ]
    with remembered(history) as memory:
        check_answer(memory, memory.ask("Who is my husband?", now=ASKED, offline=True), "Sam")
