"""Spoken corrections: "Sorry, I meant York, not Leeds" takes Leeds back (it never held) and says York instead."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.ingest.extract.base import SessionView, TurnView
from sodamem.ingest.extract.rules import RulesExtractor
from sodamem.ingest.pieces import split_pieces

from .test_extract_rules import SPEAKER, K, extract, view

SLIP = ["I just moved to Leeds last weekend.", "Sorry, I meant York, not Leeds."]


def objects(*texts: str) -> set[tuple[str, str, str | None]]:
    return {(f.subject, f.predicate, f.object) for f in extract(*texts).facts}


def test_the_corrected_value_replaces_the_slip_quoted_from_the_correction() -> None:
    session = view(SLIP)
    facts = RulesExtractor().extract(session).facts
    assert {(f.predicate, f.object) for f in facts} == {("moved", "York"), ("lives_in", "York")}
    for fact in facts:
        assert fact.turn_index == 1 and fact.quote == "I meant York, not Leeds"
        assert session.turns[1].text[fact.char_start or 0 :].startswith(fact.quote)
        assert fact.time_expression == "last weekend"  # the slip's time words stay with the fact


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # the same turn, a bare value after a correcting word, "I meant" alone
        (
            ["My sister Hannah lives in Glasgow. Sorry, Edinburgh, not Glasgow."],
            {(SPEAKER, "Hannah"), ("lives_in", "Edinburgh")},
        ),
        (["I work at Google.", "Oops, I meant Microsoft."], {("works_at", "Microsoft")}),
        # a clause makes its own fact; the correction only takes Leeds back
        (["I live in Leeds.", "Actually, I live in York, not Leeds."], {("lives_in", "York")}),
        # more ways to say it: a lead that says the words before were wrong, "I said X but I meant Y", "not X, Y"
        (["I work at Deloitte.", "Correction: I work at KPMG."], {("works_at", "KPMG")}),
        (["I work at Deloitte.", "I got that wrong, I work at KPMG."], {("works_at", "KPMG")}),
        (["I live in Bristol.", "Ignore what I said, I live in Brighton."], {("lives_in", "Brighton")}),
        (["I work at Deloitte.", "Oops, I said Deloitte but I meant KPMG."], {("works_at", "KPMG")}),
        (["I work at Deloitte.", "Wait, not Deloitte, KPMG."], {("works_at", "KPMG")}),
        (["I work at Deloitte.", "My mistake, it's KPMG not Deloitte."], {("works_at", "KPMG")}),
        (["I live in Bristol.", "I should have said Brighton, not Bristol."], {("lives_in", "Brighton")}),
    ],
)
def test_correction_phrasings(texts: list[str], expected: set[tuple[str, str]]) -> None:
    facts = extract(*texts).facts
    said = {(f.predicate, f.object) for f in facts if f.predicate != "sister"}
    said |= {(f.subject, f.object) for f in facts if f.predicate == "sister"}
    assert said == expected


def test_a_corrected_day_moves_the_event() -> None:
    (fact,) = extract("I went to Paris on Thursday.", "Sorry, it was Wednesday, not Thursday.").facts
    assert (fact.object, fact.time_expression, fact.turn_index) == ("Paris", "on Wednesday", 1)


def test_a_time_alone_corrects_the_last_sentences_time() -> None:
    (fact,) = extract("I went to Paris on Thursday. No wait, it was Wednesday.").facts
    assert (fact.object, fact.time_expression, fact.quote) == ("Paris", "Wednesday", "it was Wednesday")
    # a value that is no time after "it's" corrects nothing
    (kept,) = extract("I went to Paris on Thursday. No, it's fine.").facts
    assert kept.time_expression == "on Thursday"


def test_a_correction_naming_no_old_value_corrects_only_the_sentence_right_before_it() -> None:
    """The flight made no fact: "No wait, it's the 22nd" corrects nothing, not keto's start the turn before."""
    (started,) = [
        f
        for f in extract("I started keto last Monday.", "My flight is on the 20th. No wait, it's the 22nd.").facts
        if f.kind == K.EVENT
    ]
    assert started.time_expression == "last Monday"


@pytest.mark.parametrize(
    "texts",
    [
        ["I live in Leeds.", "It was a long day, not a short one."],  # no correcting word
        ["I live in Leeds.", "Sorry, I meant the bakery, not the cafe."],  # says no value of the facts before
        ["I live in Leeds.", "Oh, I'm flying from Manchester, not Leeds."],  # "oh" corrects nothing
        ["I live in Leeds.", "Actually, I'm flying from Manchester, not Leeds."],  # the clause says no home
        ["I live in Leeds.", "I meant every word."],
        ["I live in Leeds.", "Oh, not Leeds, York is where the party is."],  # "oh" says nothing was wrong
        ["I live in Leeds.", "It's just not right."],
        ["I live in Leeds.", "Sorry, I meant to ask about your trip."],
        [
            "I live in Leeds.",
            "My brother moved to Hull.",
            "Ben is here.",
            "Tom too.",
            "Zoe too.",
            "Sorry, York, not Leeds.",
        ],
    ],
)
def test_what_is_no_correction_of_a_fact_changes_nothing(texts: list[str]) -> None:
    assert ("user", "lives_in", "Leeds") in {(("user" if s == SPEAKER else s), p, o) for s, p, o in objects(*texts)}


def test_another_speakers_correction_takes_nothing_back() -> None:
    texts = [(SPEAKER, "I live in Leeds."), ("Sam", "Sorry, I meant York, not Leeds.")]
    turns = tuple(TurnView(i, f"s:{i}", who, t, tuple(split_pieces(t))) for i, (who, t) in enumerate(texts))
    session = SessionView("s", datetime(2024, 3, 1, 10), turns, (SPEAKER, "Sam"))
    assert [(f.subject, f.object) for f in RulesExtractor().extract(session).facts] == [(SPEAKER, "Leeds")]


def test_a_live_add_takes_the_slip_back_and_the_memory_never_held_it() -> None:
    said = datetime(2026, 1, 5, 19)
    memory = Memory(":memory:", embedder="none")
    for text in SLIP:
        memory.add([{"role": "user", "text": text}], session_id="s1", timestamp=said)
    memory.add([{"role": "user", "text": "I live in Bristol now."}], session_id="s2", timestamp=datetime(2026, 3, 23))
    homes = [(f.object, f.status) for f in memory.facts(status="all") if f.predicate == "lives_in"]
    assert homes == [("York", "superseded"), ("Bristol", "active")]
    assert memory.at(datetime(2026, 2, 1)).ask("Where do I live?", offline=True).answer == "York"
    whole = Memory(":memory:", embedder="none")
    whole.add([{"role": "user", "text": t} for t in SLIP], session_id="s1", timestamp=said)
    one_by_one = [f.text for f in memory.facts(status="all") if f.sources[0].session_id == "s1"]
    assert [f.text for f in whole.facts()] == one_by_one


def test_a_correction_of_a_fact_made_again_later_is_made_again_too() -> None:
    """Live, "Maya" becomes a name only at the third message: the first is read again, and so is its correction."""
    texts = ["Maya is 30.", "Sorry, I meant 31, not 30.", "I had lunch with Maya today."]
    said = datetime(2026, 3, 10, 12)
    one_by_one = Memory(":memory:", embedder="none")
    for text in texts:
        one_by_one.add([{"role": "user", "text": text}], session_id="s", timestamp=said)
    whole = Memory(":memory:", embedder="none")
    whole.add([{"role": "user", "text": t} for t in texts], session_id="s", timestamp=said)
    ages = [[(f.subject, f.object) for f in m.facts(status="all") if f.predicate == "age"] for m in (whole, one_by_one)]
    assert ages == [[("Maya", "31")], [("Maya", "31")]]


@pytest.mark.parametrize(
    ("texts", "expected", "slip"),
    [
        (["I work at Deloitte, sorry, KPMG."], ("works_at", "KPMG"), "Deloitte"),
        (["I live in Leeds - no wait, York."], ("lives_in", "York"), "Leeds"),
        (["My sister lives in Ottawa... wait no, Kingston."], ("lives_in", "Kingston"), "Ottawa"),
        (["I moved to Leeds last week.", "No wait, York."], ("lives_in", "York"), "Leeds"),
    ],
)
def test_a_value_taken_back_inside_its_sentence_or_right_after(
    texts: list[str], expected: tuple[str, str], slip: str
) -> None:
    session = view(texts)
    facts = RulesExtractor().extract(session).facts
    assert expected in {(f.predicate, f.object) for f in facts}
    assert slip not in {f.object for f in facts}
    for fact in facts:
        text = session.turns[fact.turn_index].text
        assert text[fact.char_start or 0 :].startswith(fact.quote)


@pytest.mark.parametrize(
    "texts",
    [
        ["I love Leeds, sorry, I mean it's great."],  # a clause after the lead: no value
        ["I work at Google, sorry, gotta run."],
        ["I live in Leeds.", "I mean it's nice."],
    ],
)
def test_a_lead_before_no_value_of_the_same_kind_takes_nothing_back(texts: list[str]) -> None:
    objects_said = {f.object for f in RulesExtractor().extract(view(texts)).facts}
    assert objects_said & {"Leeds", "Google"}
