"""The rules extractor's pronoun resolver (``rules_coref``) and the facts it lets the rules read through pronouns."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem.ingest.extract.base import CandidateFact, SessionView, TurnView
from sodamem.ingest.extract.rules import RulesExtractor
from sodamem.ingest.extract.rules_coref import resolve_pronouns
from sodamem.ingest.pieces import split_pieces
from sodamem.model import FactKind

SPEAKER = "Maya"


def view(*turns: str | tuple[str, str]) -> SessionView:
    """Turns as texts (said by Maya) or (speaker, text) pairs."""
    said = [(SPEAKER, t) if isinstance(t, str) else t for t in turns]
    views = tuple(TurnView(i, f"s:{i}", who, text, tuple(split_pieces(text))) for i, (who, text) in enumerate(said))
    return SessionView("s", datetime(2024, 3, 1, 10), views, tuple(dict.fromkeys(who for who, _ in said)))


def resolved(session: SessionView) -> dict[tuple[int, str], tuple[str, str]]:
    """(turn index, the pronoun and the word after it: "She loves") -> (entity, the words naming it)."""
    out: dict[tuple[int, str], tuple[str, str]] = {}
    for (turn_index, piece_index), found in resolve_pronouns(session, len(session.turns)).items():
        turn = session.turns[turn_index]
        piece = turn.pieces[piece_index]
        for offset, a in found.items():
            words = " ".join(piece.text[offset:].split()[:2]).strip(",.!?")
            named = session.turns[a.turn_index].pieces[a.piece_index].text[a.start : a.end]
            out[(turn_index, words)] = (a.entity, named)
    return out


def entities(session: SessionView) -> list[str]:
    return [entity for entity, _ in resolved(session).values()]


def test_he_after_a_named_relative_is_the_name_and_points_at_the_words_naming_him() -> None:
    got = resolved(view("My brother Tom came over. He lives in Leeds now."))
    assert got == {(0, "He lives"): ("Tom", "My brother Tom")}


def test_she_after_a_relative_without_a_name_is_the_role() -> None:
    assert resolved(view("My sister moved to Paris last year. She loves it there.")) == {
        (0, "She loves"): ("Maya's sister", "My sister")
    }


def test_a_role_of_unknown_gender_takes_he_or_she() -> None:
    assert entities(view("My boss is strict. She works late.")) == ["Maya's boss"]
    assert entities(view("My boss is strict. He works late.")) == ["Maya's boss"]


def test_across_adjacent_turns_of_the_same_speaker_and_along_a_chain() -> None:
    got = resolved(view("My aunt Jane visited.", "She stayed a week.", "She lives in York."))
    assert got == {(1, "She stayed"): ("Jane", "My aunt Jane"), (2, "She lives"): ("Jane", "My aunt Jane")}


def test_another_persons_turn_in_between_breaks_the_chain_an_assistants_reply_does_not() -> None:
    assert resolved(view("My aunt Jane visited.", ("Sam", "Nice."), "She lives in York.")) == {}
    reply = view("My aunt Jane visited.", ("assistant", "How lovely!"), "She lives in York.")
    assert resolved(reply) == {(2, "She lives"): ("Jane", "My aunt Jane")}
    # the reply's own people compete: "she" could be Jane or Ana
    assert resolved(view("My aunt Jane visited.", ("assistant", "Did Ana come too?"), "She lives in York.")) == {}
    # and only the reply since the voice's last turn: an older one's names are out of reach
    older = view("My aunt Jane visited.", ("assistant", "Was Ana there?"), "Yes.", ("assistant", "Nice."), "She left.")
    assert resolved(older) == {}


def test_two_candidates_of_the_same_gender_leave_he_unresolved() -> None:
    assert resolved(view("My brother and my dad came over. He lives in Leeds.")) == {}
    assert resolved(view("Tom told my uncle the news. He was thrilled.")) == {}
    # and the unresolved "He" still competes for the next one
    assert resolved(view("My brother and my dad came over. He stayed. He lives in Leeds.")) == {}


def test_gender_tells_two_candidates_apart() -> None:
    assert entities(view("My brother and my sister came over. She lives in Leeds.")) == ["Maya's sister"]
    assert entities(view("My brother and my sister came over. He lives in Leeds.")) == ["Maya's brother"]


def test_a_name_of_unknown_gender_competes_but_is_never_chosen() -> None:
    assert resolved(view("Sam came over. He lives in Leeds.")) == {}
    assert resolved(view("Sam and my brother came over. He lives in Leeds.")) == {}


def test_a_place_after_a_preposition_is_no_person() -> None:
    assert entities(view("My sister moved to Victoria. She loves it.")) == ["Maya's sister"]


def test_the_people_talking_are_never_antecedents() -> None:
    assert resolved(view(("Maya", "Hi, Maya here. She is busy."))) == {}
    assert resolved(view(("Tom", "Hello!"), ("Maya", "Tom says hi. He is tired."))) == {}


def test_it_is_never_resolved_and_they_needs_a_plural_antecedent() -> None:
    assert resolved(view("My sister bought a car. It is red.")) == {}
    assert resolved(view("My boss called. They live in Leeds.")) == {}
    assert entities(view("My parents are retired. They live in Valencia.")) == ["Maya's parents"]


def test_they_stays_unresolved_with_a_plural_noun_in_between() -> None:
    assert resolved(view("My kids got two puppies. They love the beach.")) == {}


def test_the_antecedent_must_be_near() -> None:
    text = "My aunt visited. We had tea. It rained all day. She lives in York."
    assert resolved(view(text)) == {}
    assert entities(view("My aunt visited. We had tea. She lives in York.")) == ["Maya's aunt"]


def test_a_gender_the_session_tied_to_a_name_earlier_counts_later() -> None:
    session = view("My brother Sam is visiting.", ("Tom", "Great!"), "Sam came by today. He lives in Hull.")
    assert entities(session) == ["Sam"]


def test_a_named_relative_and_the_role_are_one_candidate() -> None:
    assert entities(view("Tom is my brother. He lives in Leeds.")) == ["Tom"]
    assert entities(view("My sister Anna called.", "My sister said she is moving.")) == ["Anna"]


def test_possessive_pronouns_resolve_and_name_relatives() -> None:
    got = resolved(view("My brother Tom came over. His wife Anna is lovely. She is a nurse."))
    assert got[(0, "His wife")] == ("Tom", "My brother Tom")
    assert got[(0, "She is")] == ("Anna", "His wife Anna")


def test_a_turn_resolves_the_same_whatever_comes_after_it() -> None:
    turns = ["My brother Tom came over.", "He lives in Leeds.", "My dad came too.", "He lives in York."]
    whole = resolve_pronouns(view(*turns), len(turns))
    for upto in range(len(turns)):
        part = resolve_pronouns(view(*turns[:upto]), upto)
        assert part == {k: v for k, v in whole.items() if k[0] < upto}


# --- the facts the rules read through pronouns ------------------------------------------------------------------


def facts(*turns: str | tuple[str, str]) -> list[CandidateFact]:
    return RulesExtractor().extract(view(*turns)).facts


def fact_keys(found: list[CandidateFact]) -> set[tuple[str, str, str | None]]:
    return {(f.predicate, f.subject, f.object) for f in found}


@pytest.mark.parametrize(
    ("turns", "expected", "quote"),
    [
        (["My brother Tom came over. He lives in Leeds now."], ("lives_in", "Tom", "Leeds"), "He lives in Leeds now"),
        (["My aunt is lovely. She works as a nurse."], ("job", "Maya's aunt", "nurse"), "She works as a nurse"),
        (["My parents are retired. They live in Valencia."], ("lives_in", "Maya's parents", "Valencia"), None),
        (["My sister Anna called.", "She loves sushi."], ("likes", "Anna", "sushi"), "She loves sushi"),
        (["My brother Tom came over. His wife Anna is a teacher."], ("wife", "Tom", "Anna"), "His wife Anna"),
        (["My brother Tom came over. His daughter lives in Leeds."], ("lives_in", "Tom's daughter", "Leeds"), None),
        (["My friend Priya called. Her husband works as a pilot."], ("job", "Priya's husband", "pilot"), None),
    ],
)
def test_a_pronoun_subject_gives_the_antecedents_fact(
    turns: list[str], expected: tuple[str, str, str], quote: str | None
) -> None:
    found = facts(*turns)
    assert expected in fact_keys(found), fact_keys(found)
    fact = next(f for f in found if (f.predicate, f.subject, f.object) == expected)
    if quote is not None:
        assert fact.quote == quote
    if fact.kind is FactKind.RELATION:
        assert "Tom's wife" in {a.alias for a in RulesExtractor().extract(view(*turns)).aliases}


@pytest.mark.parametrize(
    "turns",
    [
        ["My brother Tom came over.", ("Sam", "Nice!"), "He lives in Leeds now."],  # another person talked between
        ["My brother and my dad came over. He lives in Leeds now."],
        ["Tom and Sam came over. He lives in Leeds now."],
        ["My boss called. They live in Leeds."],
        ["He lives in Leeds now."],
    ],
)
def test_no_fact_when_the_pronoun_is_unresolved(turns: list[str | tuple[str, str]]) -> None:
    assert not any(f.predicate == "lives_in" for f in facts(*turns))


def test_a_relative_of_the_person_talked_to_is_a_candidate_but_not_that_person() -> None:
    session = view(("Caroline", "Hi!"), ("Maya", "Caroline's brother called me. He lives in Leeds."))
    assert entities(session) == ["Caroline's brother"]
