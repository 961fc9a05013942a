"""The offline rules extractor: expected facts per sentence, sentences with none, grounding, aliases, history."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem.ingest.extract.base import CandidateFact, Extraction, SessionView, TurnView
from sodamem.ingest.extract.rules import RulesExtractor
from sodamem.ingest.formats import load_sessions
from sodamem.ingest.pieces import split_pieces
from sodamem.model import FactKind, Modality, Session

from .conftest import LOCOMO_DEV

HISTORY = Path(__file__).resolve().parents[1] / "src" / "sodamem" / "examples" / "history.jsonl"
K, M = FactKind, Modality
A, N, P, H, Q, R = M.ASSERTED, M.NEGATED, M.PLANNED, M.HYPOTHETICAL, M.QUESTION, M.REPORTED
SPEAKER = "Maya"
Expected = tuple[FactKind, str, str, str | None, Modality, bool]


def view(texts: list[str], *, speaker: str = SPEAKER, session_id: str = "s") -> SessionView:
    turns = tuple(TurnView(i, f"{session_id}:{i}", speaker, t, tuple(split_pieces(t))) for i, t in enumerate(texts))
    return SessionView(session_id, datetime(2024, 3, 1, 10, 0), turns, (speaker,))


def session_view(session: Session) -> SessionView:
    turns = tuple(TurnView(t.index, t.turn_id, t.speaker, t.text, tuple(split_pieces(t.text))) for t in session.turns)
    return SessionView(session.session_id, session.timestamp, turns, tuple(dict.fromkeys(t.speaker for t in turns)))


def extract(*texts: str, speaker: str = SPEAKER) -> Extraction:
    return RulesExtractor().extract(view(list(texts), speaker=speaker))


def key(f: CandidateFact) -> Expected:
    return (f.kind, f.predicate, f.subject, f.object, f.modality, f.polarity)


def assert_grounded(session: SessionView, facts: list[CandidateFact]) -> None:
    for f in facts:
        text = session.turns[f.turn_index].text
        assert f.char_start is not None
        assert text[f.char_start : f.char_start + len(f.quote)] == f.quote, f
        assert f.quote.strip() == f.quote and f.quote
        assert f.text
        if f.time_expression is not None:
            assert f.time_expression in text


CASES: list[tuple[str, Expected]] = [
    # preferences
    ("I love spicy food.", (K.PREFERENCE, "likes", SPEAKER, "spicy food", A, True)),
    ("I really enjoy aerial yoga.", (K.PREFERENCE, "likes", SPEAKER, "aerial yoga", A, True)),
    ("I hate horror films.", (K.PREFERENCE, "likes", SPEAKER, "horror films", A, False)),
    ("I can't stand olives.", (K.PREFERENCE, "likes", SPEAKER, "olives", A, False)),
    ("I don't like mushrooms.", (K.PREFERENCE, "likes", SPEAKER, "mushrooms", A, False)),
    ("I don't like mushrooms anymore.", (K.PREFERENCE, "likes", SPEAKER, "mushrooms", A, False)),
    ("I used to love running.", (K.PREFERENCE, "likes", SPEAKER, "running", A, False)),
    ("I'm cutting down on coffee.", (K.PREFERENCE, "likes", SPEAKER, "coffee", A, False)),
    ("I've gone off sushi.", (K.PREFERENCE, "likes", SPEAKER, "sushi", A, False)),
    ("I prefer tea to coffee.", (K.PREFERENCE, "likes", SPEAKER, "tea", A, True)),
    ("I'm into bouldering these days.", (K.PREFERENCE, "likes", SPEAKER, "bouldering", A, True)),
    ("I'm not a fan of jazz.", (K.PREFERENCE, "likes", SPEAKER, "jazz", A, False)),
    ("I'm a huge fan of Lord of the Rings.", (K.PREFERENCE, "likes", SPEAKER, "Lord of the Rings", A, True)),
    ("Marcus is now obsessed with halloumi.", (K.PREFERENCE, "likes", "Marcus", "halloumi", A, True)),
    ("Priya loves hiking.", (K.PREFERENCE, "likes", "Priya", "hiking", A, True)),
    ("I loved the concert.", (K.OPINION, "enjoyed", SPEAKER, "the concert", A, True)),
    ("My favourite colour is green.", (K.ATTRIBUTE, "favorite_color", SPEAKER, "green", A, True)),
    ("Pizza is my favorite food.", (K.ATTRIBUTE, "favorite_food", SPEAKER, "Pizza", A, True)),
    ("And the spicier the better, honestly.", (K.PREFERENCE, "likes", SPEAKER, "spicy food", A, True)),
    # states and attributes
    ("I live in Leeds.", (K.STATE, "lives_in", SPEAKER, "Leeds", A, True)),
    ("I live in London with my wife Anna.", (K.STATE, "lives_in", SPEAKER, "London", A, True)),
    ("I live in Bristol and work as a nurse.", (K.STATE, "lives_in", SPEAKER, "Bristol", A, True)),
    ("I live in Bristol and work as a nurse.", (K.ATTRIBUTE, "job", SPEAKER, "nurse", A, True)),
    ("I work at Google as a software engineer.", (K.STATE, "works_at", SPEAKER, "Google", A, True)),
    ("I work at Google as a software engineer.", (K.ATTRIBUTE, "job", SPEAKER, "software engineer", A, True)),
    ("I no longer live in Leeds.", (K.STATE, "lives_in", SPEAKER, "Leeds", A, False)),
    ("I lived in Paris for three years.", (K.STATE, "lives_in", SPEAKER, "Paris", A, False)),
    ("I lived in Leeds for years.", (K.STATE, "lives_in", SPEAKER, "Leeds", A, False)),  # how long, no time
    ("I moved from Denver to Seattle.", (K.STATE, "lives_in", SPEAKER, "Seattle", A, True)),  # not Denver
    ("I'm thirty-two.", (K.ATTRIBUTE, "age", SPEAKER, "32", A, True)),  # an age in words
    ("My mother-in-law Asha will look after Arjun.", (K.RELATION, "mother_in_law", SPEAKER, "Asha", A, True)),
    ("I turned nine last week.", (K.ATTRIBUTE, "age", SPEAKER, "9", A, True)),
    ("I got a new job at Orbital Systems.", (K.STATE, "works_at", SPEAKER, "Orbital Systems", A, True)),
    (
        "I accepted a job at Orbital Systems as a staff engineer.",
        (K.ATTRIBUTE, "job", SPEAKER, "staff engineer", A, True),
    ),
    ("I quit Finch Labs on Friday.", (K.STATE, "works_at", SPEAKER, "Finch Labs", A, False)),  # no longer there
    ("My mom moved from Denver to Seattle.", (K.STATE, "lives_in", "Maya's mom", "Seattle", A, True)),
    ("I've worked at Acme Corp for ages.", (K.STATE, "works_at", SPEAKER, "Acme Corp", A, True)),
    ("I have been vegetarian for a while now.", (K.ATTRIBUTE, "diet", SPEAKER, "vegetarian", A, True)),
    ("I don't live in York.", (K.STATE, "lives_in", SPEAKER, "York", N, True)),
    ("I work at Northwind Bank.", (K.STATE, "works_at", SPEAKER, "Northwind Bank", A, True)),
    ("I work as a data analyst.", (K.ATTRIBUTE, "job", SPEAKER, "data analyst", A, True)),
    ("I'm a nurse.", (K.ATTRIBUTE, "job", SPEAKER, "nurse", A, True)),
    ("My sister is a teacher.", (K.ATTRIBUTE, "job", "Maya's sister", "teacher", A, True)),
    ("I study law.", (K.STATE, "studies", SPEAKER, "law", A, True)),
    ("I have two cats.", (K.ATTRIBUTE, "has_cat", SPEAKER, "2", A, True)),
    ("We've got three puppies.", (K.ATTRIBUTE, "has_puppy", SPEAKER, "3", A, True)),
    ("I don't have any kids.", (K.ATTRIBUTE, "has_kid", SPEAKER, "0", A, True)),
    ("I'm 34.", (K.ATTRIBUTE, "age", SPEAKER, "34", A, True)),
    ("I'm single.", (K.ATTRIBUTE, "relationship_status", SPEAKER, "single", A, True)),
    ("I'm married to Tom.", (K.RELATION, "spouse", SPEAKER, "Tom", A, True)),
    ("I'm vegetarian.", (K.ATTRIBUTE, "diet", SPEAKER, "vegetarian", A, True)),
    ("I started keto last Monday.", (K.ATTRIBUTE, "diet", SPEAKER, "keto", A, True)),
    ("I started keto last Monday.", (K.EVENT, "started", SPEAKER, "keto", A, True)),
    ("I'm doing intermittent fasting now.", (K.ATTRIBUTE, "diet", SPEAKER, "intermittent fasting", A, True)),
    ("By the way I'm 29, so this is my first big race.", (K.ATTRIBUTE, "age", SPEAKER, "29", A, True)),
    ("I got laid off from Google last Friday.", (K.STATE, "works_at", SPEAKER, "Google", A, False)),
    ("I was fired.", (K.STATE, "works_at", SPEAKER, None, A, False)),
    ("I'm settled in Denver now, in the Highlands.", (K.STATE, "lives_in", SPEAKER, "Denver", A, True)),
    ("I'm based in Leeds.", (K.STATE, "lives_in", SPEAKER, "Leeds", A, True)),
    ("I work as a nurse at St. David's in Cardiff.", (K.STATE, "works_at", SPEAKER, "St. David's", A, True)),
    ("I'm a nurse at St. David's.", (K.STATE, "works_at", SPEAKER, "St. David's", A, True)),
    ("I got a new job at St. Mary's Hospital.", (K.STATE, "works_at", SPEAKER, "St. Mary's Hospital", A, True)),
    ("I work at McDonald's now.", (K.STATE, "works_at", SPEAKER, "McDonald's", A, True)),
    ("I'm an engineer at Google's office in Dublin.", (K.STATE, "works_at", SPEAKER, "Google", A, True)),
    ("I'm from St. Albans originally.", (K.ATTRIBUTE, "comes_from", SPEAKER, "St. Albans", A, True)),
    (
        "I teach chemistry at Lincoln Park High School.",
        (K.STATE, "works_at", SPEAKER, "Lincoln Park High School", A, True),
    ),
    ("I teach chemistry at Lincoln Park High School.", (K.ATTRIBUTE, "job", SPEAKER, "chemistry teacher", A, True)),
    ("I taught at Eton for years.", (K.STATE, "works_at", SPEAKER, "Eton", A, False)),
    ("I'm dating someone new, his name is Emil.", (K.RELATION, "dating", SPEAKER, "Emil", A, True)),
    ("I started a new job as a UX designer at Fernhill Studio.", (K.ATTRIBUTE, "job", SPEAKER, "UX designer", A, True)),
    ("I started at Google last week.", (K.STATE, "works_at", SPEAKER, "Google", A, True)),
    ("Starting at Studio Dumbar on July 1st.", (K.PLAN, "started", SPEAKER, "Studio Dumbar", P, True)),
    ("I start at Spotify in two weeks.", (K.PLAN, "started", SPEAKER, "Spotify", P, True)),
    ("I'm allergic to peanuts, just so you know.", (K.ATTRIBUTE, "allergic_to", SPEAKER, "peanuts", A, True)),
    ("Kuba turned 6 today!", (K.ATTRIBUTE, "age", "Kuba", "6", A, True)),
    ("My friend Pawel left Google and now works at Allegro.", (K.STATE, "works_at", "Pawel", "Allegro", A, True)),
    ("We relocated to Porto last month.", (K.STATE, "lives_in", SPEAKER, "Porto", A, True)),
    ("Just moved into a flat in Porto.", (K.STATE, "lives_in", SPEAKER, "Porto", A, True)),
    ("I'm employed at Siemens.", (K.STATE, "works_at", SPEAKER, "Siemens", A, True)),
    ("I got hired by Siemens.", (K.STATE, "works_at", SPEAKER, "Siemens", A, True)),
    ("I've been at Siemens for two years.", (K.STATE, "works_at", SPEAKER, "Siemens", A, True)),
    ("I'm at Siemens now as a data engineer.", (K.ATTRIBUTE, "job", SPEAKER, "data engineer", A, True)),
    ("I've just been promoted to senior engineer.", (K.ATTRIBUTE, "job", SPEAKER, "senior engineer", A, True)),
    ("I'm between jobs right now.", (K.STATE, "works_at", SPEAKER, None, A, False)),
    ("I married Rui last summer.", (K.RELATION, "spouse", SPEAKER, "Rui", A, True)),
    ("I'm engaged to Rui!", (K.RELATION, "fiance", SPEAKER, "Rui", A, True)),
    ("Rui and I got engaged.", (K.RELATION, "fiance", SPEAKER, "Rui", A, True)),
    ("Rui and I have been together for five years.", (K.RELATION, "partner", SPEAKER, "Rui", A, True)),
    ("I'm seeing someone new. His name is Kasper.", (K.RELATION, "dating", SPEAKER, "Kasper", A, True)),
    ("Also found a new roommate, her name is Ananya.", (K.RELATION, "roommate", SPEAKER, "Ananya", A, True)),
    ("Mom still lives in Curitiba and keeps asking.", (K.STATE, "lives_in", "Maya's mom", "Curitiba", A, True)),
    ("I've been in Rotterdam since the 1st.", (K.STATE, "lives_in", SPEAKER, "Rotterdam", A, True)),
    ("Work at Medisana is good actually.", (K.STATE, "works_at", SPEAKER, "Medisana", A, True)),
    ("I'm from NYC BTW.", (K.ATTRIBUTE, "comes_from", SPEAKER, "NYC", A, True)),
    ("I'm a nurse at the NHS LOL.", (K.STATE, "works_at", SPEAKER, "NHS", A, True)),
    ("My son Carlos moved out last month.", (K.RELATION, "son", SPEAKER, "Carlos", A, True)),
    ("Hiya, Kwame here.", (K.ATTRIBUTE, "name", SPEAKER, "Kwame", A, True)),
    ("Hi, I'm Priya.", (K.ATTRIBUTE, "name", SPEAKER, "Priya", A, True)),
    ("We moved into the Edinburgh flat on the 15th.", (K.STATE, "lives_in", SPEAKER, "Edinburgh", A, True)),
    ("I adopted a cat on Saturday. Her name is Mochi.", (K.RELATION, "cat", SPEAKER, "Mochi", A, True)),
    ("My boss is awful. He is called Derek.", (K.RELATION, "boss", SPEAKER, "Derek", A, True)),
    ("I've been seeing a guy named Marco.", (K.RELATION, "dating", SPEAKER, "Marco", A, True)),
    ("Carlos moved out last weekend.", (K.RELATION, "roommate", SPEAKER, "Carlos", A, False)),
    ("Carlos got a place in Logan Square.", (K.STATE, "lives_in", "Carlos", "Logan Square", A, True)),
    ("I live on Mt. Pleasant Road.", (K.STATE, "lives_in", SPEAKER, "Mt. Pleasant Road", A, True)),
    ("Tom and I broke up last week.", (K.RELATION, "partner", SPEAKER, "Tom", A, False)),
    ("I split up with Tom.", (K.RELATION, "partner", SPEAKER, "Tom", A, False)),
    ("Tom broke up with me.", (K.RELATION, "partner", SPEAKER, "Tom", A, False)),
    ("My wife Ana and I divorced in May.", (K.RELATION, "partner", SPEAKER, "Ana", A, False)),
    ("My wife Ana and I divorced in May.", (K.EVENT, "broke_up", SPEAKER, "Ana", A, True)),
    ("My sister Anna and I live in Leeds.", (K.STATE, "lives_in", "Anna", "Leeds", A, True)),
    ("I quit my job at the hospital.", (K.STATE, "works_at", SPEAKER, None, A, False)),
    ("I'm going pescatarian.", (K.ATTRIBUTE, "diet", SPEAKER, "pescatarian", A, True)),
    ("I'm no longer vegan.", (K.ATTRIBUTE, "diet", SPEAKER, "vegan", A, False)),
    ("My birthday is in May.", (K.ATTRIBUTE, "attribute_birthday", SPEAKER, "in May", A, True)),
    ("My name is Sam.", (K.ATTRIBUTE, "name", SPEAKER, "Sam", A, True)),
    ("My dog, Biscuit, loves the beach.", (K.RELATION, "dog", SPEAKER, "Biscuit", A, True)),
    ("My dog, Biscuit, loves the beach.", (K.PREFERENCE, "likes", "Biscuit", "the beach", A, True)),
    ("Tom (my partner) can't handle it.", (K.RELATION, "partner", SPEAKER, "Tom", A, True)),
    ("First week at Lumen Health done.", (K.STATE, "works_at", SPEAKER, "Lumen Health", A, True)),
    # events
    ("We moved to Manchester last month.", (K.EVENT, "moved", SPEAKER, "Manchester", A, True)),
    ("We moved to Manchester last month.", (K.STATE, "lives_in", SPEAKER, "Manchester", A, True)),
    ("I visited Lisbon with my sister in March.", (K.EVENT, "visited", SPEAKER, "Lisbon", A, True)),
    ("I bought a new bike yesterday.", (K.EVENT, "bought", SPEAKER, "a new bike", A, True)),
    ("We adopted a puppy three days ago.", (K.EVENT, "adopted", SPEAKER, "a puppy", A, True)),
    ("I joined a climbing gym.", (K.EVENT, "joined", SPEAKER, "a climbing gym", A, True)),
    ("I met Tom at university.", (K.EVENT, "met", SPEAKER, "Tom", A, True)),
    ("I lost my job last year.", (K.EVENT, "lost", SPEAKER, "Maya's job", A, True)),
    ("I graduated from Leeds in 2019.", (K.EVENT, "graduated", SPEAKER, "Leeds", A, True)),
    ("I ran the Great North Run last summer.", (K.EVENT, "ran", SPEAKER, "the Great North Run", A, True)),
    ("I finished my first marathon!", (K.EVENT, "finished", SPEAKER, "Maya's first marathon", A, True)),
    ("I signed up for a pottery class.", (K.EVENT, "signed_up", SPEAKER, "a pottery class", A, True)),
    ("I started a new job at Lumen Health.", (K.EVENT, "started", SPEAKER, "a new job", A, True)),
    ("I started a new job at Lumen Health.", (K.STATE, "works_at", SPEAKER, "Lumen Health", A, True)),
    ("Tom and I went hiking last weekend.", (K.EVENT, "went", SPEAKER, "hiking", A, True)),
    ("I went to a LGBTQ support group yesterday.", (K.EVENT, "went", SPEAKER, "a LGBTQ support group", A, True)),
    ("I've been to Japan twice.", (K.EVENT, "went", SPEAKER, "Japan", A, True)),
    ("Went to The Arch on Tuesday.", (K.EVENT, "went", SPEAKER, "The Arch", A, True)),
    ("I never went to Paris.", (K.EVENT, "went", SPEAKER, "Paris", N, True)),
    ("I didn't visit my mum.", (K.EVENT, "visited", SPEAKER, "Maya's mum", N, True)),
    # plans and other moods
    ("I'm going to visit Paris next month.", (K.PLAN, "visited", SPEAKER, "Paris", P, True)),
    ("I'm planning to move to Berlin.", (K.PLAN, "moved", SPEAKER, "Berlin", P, True)),
    ("We're moving to Manchester.", (K.PLAN, "moved", SPEAKER, "Manchester", P, True)),
    ("I'm thinking of adopting a cat.", (K.PLAN, "adopted", SPEAKER, "a cat", P, True)),
    ("I hope to finish my degree next year.", (K.PLAN, "finished", SPEAKER, "Maya's degree", P, True)),
    ("I'll try bouldering on Friday.", (K.PLAN, "tried", SPEAKER, "bouldering", P, True)),
    ("I'm going to a transgender conference.", (K.PLAN, "went", SPEAKER, "a transgender conference", P, True)),
    ("I'm gonna continue my studies.", (K.PLAN, "plans_to", SPEAKER, "continue Maya's studies", P, True)),
    ("I might buy a car.", (K.EVENT, "bought", SPEAKER, "a car", H, True)),
    ("If I moved to London I would hate it.", (K.EVENT, "moved", SPEAKER, "London", H, True)),
    ("Do I like olives?", (K.PREFERENCE, "likes", SPEAKER, "olives", Q, True)),
    ("Priya told me that Marcus loves halloumi.", (K.PREFERENCE, "likes", "Marcus", "halloumi", R, True)),
]

NO_FACT = [
    "It was great.",
    "You should try it.",
    "He loves football.",
    "She said she loves cats.",
    "That sounds lovely!",
    "Thanks so much!",
    "I think so.",
    "What do you like?",
    "I love it!",
    "The best thing I ate was grilled sardines.",
    "I'll ask him then.",
    "Did you go to Paris?",
    "Change starts small.",
    "We're like a family.",
    "Come join us!",
    "I lost track somewhere around eleven.",
    "It's a one-time thing to learn something new and work as a team.",
    "I'm seeing Tom tomorrow.",
    "I'm looking for a place in Leeds.",
    "Hey Jon, glad I could help! Always here to cheer you on.",
    "Level is 5.",
    "I'm not looking for work.",
    "I've been in Paris since Monday for a conference.",
    "I signed the form and her name is on it.",
    "Is work at Google fun?",
    # a review's repros: none of these is a fact of the kind the new rules make
    "I joined Tom as a plus one at his cousin's wedding.",
    "I'm looking for work-life balance these days.",
    "I started with Spanish last year.",
    "As a celebrant, I married Tom and Ana last weekend.",
    "I've been in Japan since last week, the food is amazing.",
    "I've been in Tokyo since the 1st, flying home on Sunday.",
    "I got a new place in Portugal for the summer holidays.",
    "Hi, I'm British.",
    "My brother got a new dog. Her name is Luna.",
    "Carlos moved out of his parents' place.",
]


@pytest.mark.parametrize(("sentence", "expected"), CASES, ids=[f"{i}:{c[0][:30]}" for i, c in enumerate(CASES)])
def test_sentence_gives_fact(sentence: str, expected: Expected) -> None:
    session = view([sentence])
    facts = RulesExtractor().extract(session).facts
    assert expected in [key(f) for f in facts], [key(f) for f in facts]
    assert_grounded(session, facts)


@pytest.mark.parametrize("sentence", NO_FACT)
def test_sentence_gives_no_fact(sentence: str) -> None:
    extraction = extract(sentence)
    assert extraction.facts == [] and extraction.aliases == []


def test_quote_time_and_text() -> None:
    text = "Forgot to tell you: Tom and I went hiking in the Peak District last weekend. Up Kinder Scout."
    session = view([text])
    (fact,) = RulesExtractor().extract(session).facts
    assert fact.quote == "Tom and I went hiking in the Peak District last weekend"
    assert fact.char_start == text.index("Tom and I")
    assert fact.time_expression == "last weekend"
    assert fact.text == "Maya went hiking"
    assert {(r.role, r.entity) for r in fact.roles} == {("companion", "Tom"), ("location", "Peak District")}


def test_a_pair_subject_states_the_same_of_both() -> None:
    text = "Alex and I both work at Google."
    facts = RulesExtractor().extract(view([text])).facts
    assert {(f.subject, f.predicate, f.object) for f in facts} == {
        (SPEAKER, "works_at", "Google"),
        ("Alex", "works_at", "Google"),
    }
    alex = next(f for f in facts if f.subject == "Alex")
    assert alex.text == "Alex works at Google"
    assert alex.quote == text.rstrip(".") and alex.char_start == 0
    assert ("companion", SPEAKER) in {(r.role, r.entity) for r in alex.roles}
    # an event keeps one fact, the companion a role
    assert [f.subject for f in extract("Tom and I went hiking last weekend.").facts] == [SPEAKER]


def test_object_cut_at_clause_boundary_and_time() -> None:
    facts = extract("I went for a run this morning along the canal, 10k, and my left shin is sore.").facts
    assert [(f.predicate, f.object, f.time_expression) for f in facts] == [("went", "a run", "this morning")]
    (job_fact, org_fact) = extract("I'm 34, I live in Leeds, and I work as a data analyst at Northwind Bank.").facts[2:]
    assert (job_fact.object, org_fact.object) == ("data analyst", "Northwind Bank")


def test_list_objects_give_one_fact_each() -> None:
    facts = extract("She says it's acid reflux and I need to cut down on spicy food, coffee and eating late.").facts
    assert [(f.object, f.polarity, f.modality) for f in facts] == [
        ("spicy food", False, A),
        ("coffee", False, A),
        ("eating late", False, A),
    ]


def test_alias_hints_for_named_relatives() -> None:
    extraction = extract("It's my sister Priya's 30th and Priya's fiancé Marcus is coming.", "My friend Aisha said hi.")
    hints = {(a.alias, a.canonical, a.turn_index) for a in extraction.aliases}
    assert ("Maya's sister", "Priya", 0) in hints
    assert ("Priya's fiancé", "Marcus", 0) in hints
    assert not any(a.canonical == "Aisha" for a in extraction.aliases)  # friends come in numbers: no alias
    relations = {(f.predicate, f.subject, f.object) for f in extraction.facts if f.kind is K.RELATION}
    assert relations >= {("sister", "Maya", "Priya"), ("fiance", "Priya", "Marcus"), ("friend", "Maya", "Aisha")}


def test_self_introduction_names_a_role_speaker() -> None:
    extraction = RulesExtractor().extract(view(["Hi! I'm Maya. I live in Leeds."], speaker="user"))
    assert [(a.alias, a.canonical) for a in extraction.aliases] == [("user", "Maya")]
    assert ("lives_in", "user", "Leeds") in [(f.predicate, f.subject, f.object) for f in extraction.facts]


def test_speaker_resolution() -> None:
    turns = ["I love climbing.", "My brother hates climbing.", "We adopted a dog.", "My sister Priya lives in York."]
    session = SessionView(
        "s",
        datetime(2024, 1, 1),
        tuple(
            TurnView(i, str(i), speaker, t, tuple(split_pieces(t)))
            for i, (speaker, t) in enumerate(zip(["Ann", "Bob", "Ann", "Bob"], turns, strict=True))
        ),
        ("Ann", "Bob"),
    )
    got = {(f.subject, f.predicate, f.object, f.polarity) for f in RulesExtractor().extract(session).facts}
    assert ("Ann", "likes", "climbing", True) in got
    assert ("Bob's brother", "likes", "climbing", False) in got
    assert ("Ann", "adopted", "a dog", True) in got
    assert ("Priya", "lives_in", "York", True) in got
    assert ("Bob", "sister", "Priya", True) in got


def test_assistant_turns_are_skipped_unless_asked() -> None:
    session = view(["I love spicy food."], speaker="assistant")
    assert RulesExtractor().extract(session).facts == []
    assert RulesExtractor(skip_speakers=()).extract(session).facts != []
    assert RulesExtractor().name == "rules"


def test_example_history() -> None:
    facts: list[tuple[str, CandidateFact]] = []
    for session in load_sessions(HISTORY):
        sv = session_view(session)
        extraction = RulesExtractor().extract(sv)
        assert_grounded(sv, extraction.facts)
        facts += [(session.session_id, f) for f in extraction.facts]
    got = {(sid, f.predicate, f.subject, f.object, f.modality, f.polarity) for sid, f in facts}
    assert ("s01", "lives_in", "user", "Leeds", A, True) in got
    assert ("s08", "lives_in", "user", "Manchester", A, True) in got
    assert ("s05", "moved", "user", "Manchester", P, True) in got
    assert ("s01", "likes", "user", "spicy food", A, True) in got
    assert ("s07", "likes", "user", "spicy food", A, False) in got
    assert ("s01", "diet", "user", "vegetarian", A, True) in got
    assert ("s07", "diet", "user", "pescatarian", A, True) in got
    assert ("s01", "works_at", "user", "Northwind Bank", A, True) in got
    assert ("s09", "works_at", "user", "Lumen Health", A, True) in got
    assert ("s03", "sister", "user", "Priya", A, True) in got
    assert ("s11", "likes", "Marcus", "halloumi", A, True) in got
    assert not any(f.subject.lower() in ("he", "she", "it", "they", "you") for _, f in facts)


FRAGMENTS = (
    "I ", "I'm ", "we ", "my sister ", "Priya ", "love ", "went to ", "moved to ", "Leeds", ", ", ". ", "? ", "not ",
    "going to ", "last week ", "the ", "a ", "'s ", "with Tom ", "(my dog) ", "used to ", "Hi! ", "named Rex",
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=30), st.sampled_from(FRAGMENTS)), max_size=30).map("".join))
def test_any_text_gives_grounded_facts_or_none(text: str) -> None:
    session = view([text])
    assert_grounded(session, RulesExtractor().extract(session).facts)


def test_time_words_read_from_a_capitalised_copy_are_quoted_as_typed() -> None:
    """Hypothesis found it: "lAST WEEK:I went to 0" is read with its first letter capitalised."""
    session = view(["lAST WEEK:I went to 0"])
    facts = RulesExtractor().extract(session).facts
    assert facts and all(f.time_expression in (None, "lAST WEEK") for f in facts)
    assert_grounded(session, facts)


@pytest.mark.slow
@pytest.mark.skipif(not LOCOMO_DEV.exists(), reason="LoCoMo dev split not present")
def test_locomo_dev_facts_are_grounded() -> None:
    total = 0
    for session in load_sessions(LOCOMO_DEV):
        sv = session_view(session)
        facts = RulesExtractor().extract(sv).facts
        assert_grounded(sv, facts)
        total += len(facts)
    assert total > 100


def test_an_age_turned_in_a_when_clause_is_no_age_now() -> None:
    facts = extract("When I turned ten, my dad took me to a game.", "Since I turned 18 I have worked.").facts
    assert not [f for f in facts if f.predicate == "age"], [f.text for f in facts]


def test_a_couple_named_together_both_take_the_status() -> None:
    facts = extract("Well, Hannah and Tom got divorced.").facts
    status = {(f.subject, f.object, f.quote) for f in facts if f.predicate == "relationship_status"}
    assert status == {("Hannah", "divorced", "Hannah and Tom got divorced"), ("Tom", "divorced", "Tom got divorced")}
    engaged = {
        f.subject for f in extract("I visited Jess and Tom got engaged.").facts if f.predicate == "relationship_status"
    }
    assert engaged == {"Tom"}  # the pair must open the clause


def test_a_count_followed_by_as_many_names_names_each_one() -> None:
    facts = extract("We have two dogs, Mango and Chai.", "I have three cats named Oliver, Luna and Bailey.").facts
    named = sorted((f.predicate, f.object) for f in facts if f.kind == K.RELATION)
    assert named == [("cat", "Bailey"), ("cat", "Luna"), ("cat", "Oliver"), ("dog", "Chai"), ("dog", "Mango")]
    assert not [f for f in extract("I have two dogs, Mango and Tom has a cat.").facts if f.kind == K.RELATION]


def test_a_number_word_is_an_age_only_alone_and_as_soon_as_is_no_job() -> None:
    for text in ("I'm two and a half hours from home.", "I'm 3 on the waitlist.", "I'm one and done with dating apps."):
        assert not [f for f in extract(text).facts if f.predicate == "age"], text
    facts = extract("I got a job at Google as soon as I graduated.").facts
    assert [(f.predicate, f.object) for f in facts] == [("works_at", "Google")]


@pytest.mark.parametrize(
    "sentence",
    [
        "I quit work early today.",
        "I'm worried I might get fired.",
        "I wasn't fired.",
        "I'm so fired up about the game!",
        "I fired my assistant today.",
        "I was let go early from practice.",
        "I quit my job search for now.",
        "I lost my job badge.",
        "I lost the job to another candidate.",
    ],
)
def test_no_job_ends_without_a_job_lost(sentence: str) -> None:
    assert [f for f in extract(sentence).facts if f.predicate == "works_at"] == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Tom and I split up the chores this weekend.",
        "Tom and I broke up the argument.",
        "Tom and I separated the laundry.",
        "Tom and I split up at the mall.",
    ],
)
def test_no_breakup_where_something_else_was_split(sentence: str) -> None:
    assert [f for f in extract(sentence).facts if f.predicate in ("partner", "broke_up")] == []


def test_an_ending_said_with_its_time_starts_then() -> None:
    (laid_off, denial) = extract("I got laid off in 2020.").facts
    assert laid_off.time_expression == "in 2020"
    assert (denial.predicate, denial.object, denial.time_expression) == ("works_at", None, "in 2020")
    (ended,) = [f for f in extract("Tom and I broke up back in 2019.").facts if f.predicate == "partner"]
    assert ended.time_expression == "back in 2019" and ended.quote == "Tom and I broke up back in 2019"


def test_a_possessive_after_married_is_no_spouse() -> None:
    """ "I married Jane's cousin Mark": Jane is no spouse (the rule stopped before "'s")."""
    facts = extract("I married Jane's cousin Mark last year.").facts
    assert not [f for f in facts if f.predicate == "spouse" and f.object == "Jane"], [key(f) for f in facts]
