"""The one role table (``sodamem.roles``): its invariants, and the drift it mends between readers and the store."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory
from sodamem.answer.relation_yes_no import asked_relation
from sodamem.ingest.entities import same_person
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.supersede import slot_of
from sodamem.model import FactKind, Modality
from sodamem.roles import (
    COUPLE_WORDS,
    ENDING_WORDS,
    HANDED_ON_WORDS,
    NAMES_ONE_WORDS,
    ONE_HOLDER_ROLES,
    RELATION_WORDS,
    ROLES,
    Tie,
    asked_words,
    role_of,
    snake,
)

_ASKABLE = sorted({w.lower().replace(" ", "_") for r in ROLES for w in (*r.said, *r.asked_as)})


def test_each_word_names_one_role_and_each_role_one_name() -> None:
    names = [r.name for r in ROLES]
    assert len(names) == len(set(names))
    said = [w for r in ROLES for w in r.said]
    assert len(said) == len(set(said)), "a word said for two roles"
    assert all(snake(r.said[0]) == r.name for r in ROLES)


def test_wider_roles_named_exist_and_one_holder_roles_end() -> None:
    names = {r.name for r in ROLES}
    assert all(wider in names for r in ROLES for wider in r.kind_of)
    assert all(r.ends for r in ROLES if r.one_holder), "a role handed on must end"
    assert {r.name for r in ROLES if r.one_holder} == ONE_HOLDER_ROLES


def test_derived_word_sets_agree_with_the_table() -> None:
    assert rv.REL_SINGLE == RELATION_WORDS
    assert rv.NON_UNIQUE_RELS == RELATION_WORDS - NAMES_ONE_WORDS
    assert HANDED_ON_WORDS <= ENDING_WORDS and not HANDED_ON_WORDS & COUPLE_WORDS
    assert {"friend", "sister", "dog"}.isdisjoint(ENDING_WORDS)  # "my old friend" still is one
    assert {"boss", "landlady", "spouse", "flatmate"} <= ENDING_WORDS
    assert {"landlord", "landlady"} <= NAMES_ONE_WORDS  # both or neither: they were apart


@pytest.mark.parametrize(
    ("word", "role"),
    [
        ("manager", "boss"),
        ("team_lead", "boss"),
        ("counsellor", "therapist"),
        ("landlady", "landlord"),
        ("coworker", "colleague"),
        ("co_worker", "colleague"),
        ("neighbor", "neighbour"),
        ("flatmate", "housemate"),
        ("mom", "mother"),
        ("stepmum", "stepmother"),
        ("boss", "boss"),
        ("plumber", "plumber"),  # no role's word: itself
    ],
)
def test_role_of_a_predicate(word: str, role: str) -> None:
    assert role_of(word) == role


@given(st.sampled_from(_ASKABLE), st.data())
def test_asked_words_start_with_the_word_and_go_both_ways(word: str, data: st.DataObject) -> None:
    words = asked_words(word)
    assert words[0] == word and len(words) == len(set(words))
    other = data.draw(st.sampled_from(words))
    assert word in asked_words(other)


def test_asked_words_of_a_wider_role_take_in_its_kinds() -> None:
    assert {"husband", "wife", "boyfriend", "girlfriend", "fiance", "spouse"} <= set(asked_words("partner"))
    assert "sister" not in asked_words("partner") and "wife" not in asked_words("husband")
    assert set(asked_words("trainer")) == {"trainer", "personal_trainer"}
    assert asked_words("plumber") == ("plumber",)


def test_a_role_said_by_two_words_is_one_slot() -> None:
    def slot(predicate: str) -> str | None:
        return slot_of(FactKind.RELATION, predicate, Modality.ASSERTED, "user", "rosa")

    assert slot("neighbor") == slot("neighbour") == "user|relation:neighbour|rosa"
    assert slot("landlady") == slot("landlord") == "user|relation:landlord"  # one holder: no person in the slot
    assert slot("roommate") == slot("flatmate") == "user|housemate|rosa"


def test_every_tie_has_a_role() -> None:
    assert {r.tie for r in ROLES} == set(Tie)


def _answer(question: str, *said: str) -> str:
    with Memory(":memory:", embedder="fake") as memory:
        for n, text in enumerate(said):
            when = datetime(2025, n + 1, 5, 10)
            memory.add([{"role": "user", "text": text}], session_id=f"s{n}", timestamp=when)
        reply = memory.ask(question, now=datetime(2025, 12, 1, 12), offline=True)
        assert reply.abstained or reply.citations, "an answer cites its source"
        return reply.answer


def test_a_spouse_who_separated_is_a_former_spouse() -> None:
    said = ("My spouse Alex is a nurse.", "My spouse and I separated last month.")
    assert _answer("Who is Alex?", *said) == "user's former spouse"


@pytest.mark.parametrize(
    ("question", "said", "expected"),
    [
        ("Who is my colleague?", ("My coworker Dan brought donuts today.",), "Dan"),
        ("Who is my neighbour?", ("My neighbor Rosa watered my plants.",), "Rosa"),
        ("Who is my stepmom?", ("My stepmother Linda came for dinner.",), "Linda"),
        ("Who's my personal trainer now?", ("my trainer Marisol has me deadlifting",), "Marisol"),  # two words
        ("Who is Zofia?", ("labmate Zofia and I are doing a writing retreat",), "user's labmate"),
        (
            "Who is my landlady?",
            ("My landlady Mrs Clark raised the rent again.", "I have a new landlord, Mr Patel."),
            "Mr Patel",  # one role, one holder: the new landlord ends the landlady
        ),
    ],
)
def test_a_role_asked_by_another_of_its_words(question: str, said: tuple[str, ...], expected: str) -> None:
    assert _answer(question, *said) == expected


@pytest.mark.parametrize(
    ("said", "relation"),
    [
        ("husband (Gideon) is away for work all week so it's just me and the kids.", ("husband", "Gideon")),
        ("girlfriend Carys and I are doing a weekend in Edinburgh, must-eats?", ("girlfriend", "Carys")),
        ("grandma Rosalind fell and broke her wrist 😞", ("grandma", "Rosalind")),
        ("update: landlord (Mr. Okafor) finally fixed the boiler", ("landlord", "Mr. Okafor")),
        ("My husband (Gideon) cooked.", ("husband", "Gideon")),
        ("my sister Ana's birthday is next week, gift ideas?", ("sister", "Ana")),  # said before the question
        ("My wife, Sarah, and her mum are visiting.", ("wife", "Sarah")),  # no list
    ],
)
def test_a_role_named_without_my_or_in_brackets_or_in_a_question(said: str, relation: tuple[str, str]) -> None:
    with Memory(":memory:", embedder="fake") as memory:
        memory.add([{"role": "user", "text": said}], session_id="s", timestamp=datetime(2025, 3, 2, 10))
        held = [(f.predicate, f.object) for f in memory.facts() if f.kind == FactKind.RELATION]
        assert relation in held
        (fact,) = [f for f in memory.facts() if (f.predicate, f.object) == relation]
        assert fact.modality == "asserted" and fact.sources


@pytest.mark.parametrize(
    "said",
    ["Boss Baby is a good film.", "Dog Days are over.", "Friend Request Sent to Bob.", "Sister Act is on tonight"],
)
def test_a_title_is_no_role_named(said: str) -> None:
    with Memory(":memory:", embedder="fake") as memory:
        memory.add([{"role": "user", "text": said}], session_id="s", timestamp=datetime(2025, 3, 2, 10))
        assert not [f for f in memory.facts() if f.kind == FactKind.RELATION]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("So... Lorcan and I are back together 🙈 don't judge me.", ("partner", "Lorcan")),  # an emoji for a comma
        ("so... lorcan and i are back together 🙈 don't judge me", ("partner", "Lorcan")),
        ("anselm and i broke up sunday. it's fine.", ("partner", "Anselm")),  # a bare weekday dates it
        ("Tom and I broke up Sunday.", ("partner", "Tom")),  # a weekday, no name
    ],
)
def test_a_couple_said_casually(said: str, expected: tuple[str, str]) -> None:
    with Memory(":memory:", embedder="fake") as memory:
        memory.add([{"role": "user", "text": said}], session_id="s", timestamp=datetime(2025, 3, 2, 10))
        assert expected in [(f.predicate, f.object) for f in memory.facts() if f.kind == FactKind.RELATION]
        for fact in memory.facts():
            (source,) = fact.sources
            assert said[source.char_start : source.char_end] == source.quote  # quoted as typed


@pytest.mark.parametrize(
    ("said", "predicate", "value"),
    [
        ("I love 🍕 and pasta", "likes", "🍕 and pasta"),
        ("I'm allergic to 🥜 peanuts", "allergic_to", "🥜 peanuts"),  # a word that wants what follows
        ("I moved to 🇬🇧 London", "moved", "🇬🇧 London"),
    ],
)
def test_an_emoji_joined_to_what_follows_is_no_comma(said: str, predicate: str, value: str) -> None:
    with Memory(":memory:", embedder="fake") as memory:
        memory.add([{"role": "user", "text": said}], session_id="s", timestamp=datetime(2025, 3, 2))
        assert [f.object for f in memory.facts() if f.predicate == predicate] == [value]


@pytest.mark.parametrize(
    "said",
    [
        "Should I name my daughter Olivia or Ava?",  # the question's own clause
        "Is my manager Delphine or Grace?",
        "Last Tuesday, my gf, Toby, and I played board games.",  # a list: the girlfriend, and Toby
        "boyfriend Tom and I broke up last week",  # ended where it is said: the endings' rules read it
        "boss Finn quit today",
        "Father Michael gave a lovely homily",  # a title
        "Sister Agnes runs the school",
    ],
)
def test_no_relation_said_as_holding(said: str) -> None:
    with Memory(":memory:", embedder="fake") as memory:
        memory.add([{"role": "user", "text": said}], session_id="s", timestamp=datetime(2025, 3, 2, 10))
        held = [f for f in memory.facts() if f.kind == FactKind.RELATION and f.affirms]
        assert all(f.modality == "question" for f in held), [(f.text, f.modality) for f in held]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Does Delphine still manage me?", ("Delphine", "boss")),
        ("Is Kwame still training me?", ("Kwame", "trainer")),
        ("Does Lucinda still live next door?", None),  # the home readers': they know moves
        ("Does Pavel still live with us?", None),  # the housemate reader's: it knows moves planned for a day
        ("Does Imogen still work with me?", ("Imogen", "colleague")),
        ("Is Finn still my boss?", ("Finn", "boss")),
        ("Does Ana still work at Google?", None),
        ("Does Tom still love me?", None),
    ],
)
def test_the_role_a_still_question_asks_of(question: str, expected: tuple[str, str] | None) -> None:
    assert asked_relation(question) == expected


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Gerald", "Gerald Whitcombe", True),
        ("Dr Ferreira", "Dr. Ferreira", True),
        ("Ana", "ana", True),
        ("Ana Lopez", "Ana Smith", False),
        ("Gerald", "Whitcombe", False),
        ("", "", False),
    ],
)
def test_same_person(a: str, b: str, same: bool) -> None:
    assert same_person(a, b) is same and same_person(b, a) is same
