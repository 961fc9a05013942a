"""Self-disclosure prior: which turns address the listener or only ask, the penalty, and its effect on ranking."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory, Session, Turn
from sodamem.retrieve.disclosure import addresses_listener, asks, disclosure_bonus, only_asks
from sodamem.retrieve.presets import FusedSettings


def test_addresses_listener_counts_second_against_first_person() -> None:
    assert addresses_listener("Wow, Caroline, that painting of yours is awesome! Did you make it for your show?")
    assert not addresses_listener("I painted that lake sunrise last year! It's special to me.")
    assert not addresses_listener("Thanks! You're kind. I finished my first screenplay.")  # 1 you vs 2 I/my
    assert addresses_listener("You’re so brave, you know that?")  # typographic apostrophe
    assert not addresses_listener("The weather was lovely.")  # neither: a tie is not addressing
    assert not addresses_listener("Yours? No, it's mine and ours.")  # 1 second against 2 first person
    assert not addresses_listener("Young people in the U.S. use it.")  # no pronoun inside other words


def test_only_asks_allows_filler_but_not_statements() -> None:
    assert only_asks("Wow! What gave you the idea?")
    assert only_asks("When are you opening the studio?")
    assert not only_asks("I just signed up for a pottery class. Have you tried it?")
    assert not only_asks("I won my first video game tournament last week!")
    assert not only_asks("Great?! I adopted a puppy from the shelter on Sunday")


def test_penalties_multiply_and_roles_are_exempt() -> None:
    turns = {
        1: ("Melanie", "Wow, what gave you the idea for your painting?"),  # addresses and only asks
        2: ("Melanie", "That painting of yours is lovely, you are so talented."),  # addresses only
        3: ("Melanie", "I painted a horse last week."),
        4: ("assistant", "You could try the pottery studio near your office?"),
        5: ("User", "Can you remind me what you suggested?"),
    }
    flags = {unit: (speaker, addresses_listener(text), only_asks(text)) for unit, (speaker, text) in turns.items()}
    bonus = disclosure_bonus(flags, addressed_penalty=0.3, asking_penalty=0.5)
    assert bonus == pytest.approx({1: 0.7 * 0.5 - 1, 2: -0.3})
    assert disclosure_bonus(flags, 0.0, 0.0) == {}


@given(
    st.dictionaries(
        st.integers(0, 50), st.tuples(st.sampled_from(["Ann", "Bo", "user"]), st.booleans(), st.booleans())
    ),
    st.floats(0, 0.99),
    st.floats(0, 0.99),
)
def test_the_prior_only_ever_lowers_and_never_drops(
    turns: dict[int, tuple[str, bool, bool]], addressed: float, asking: float
) -> None:
    bonus = disclosure_bonus(turns, addressed, asking)
    assert set(bonus) <= {unit for unit, (speaker, *_) in turns.items() if speaker != "user"}
    assert all(-1 < b < 0 for b in bonus.values())


@given(st.text(max_size=120))
def test_the_classifiers_take_any_text(text: str) -> None:
    assert isinstance(addresses_listener(text), bool) and isinstance(only_asks(text), bool)
    if "?" not in text:
        assert not only_asks(text)


def test_settings_refuse_penalties_outside_zero_to_one() -> None:
    with pytest.raises(ValueError, match="addressed_penalty"):
        FusedSettings(addressed_penalty=1.0)
    with pytest.raises(ValueError, match="feedback_words"):
        FusedSettings(feedback_words=-1)


@pytest.fixture
def painting_memory(tmp_path: Path) -> Memory:
    said = [
        ("Caroline", "I finished a painting of my garden."),
        ("Melanie", "Wow! Did you make that painting yourself?"),  # addresses Caroline and only asks
        ("Melanie", "I did a horse painting on a wall."),
        ("Caroline", "That horse painting is lovely, you should show it!"),
    ]
    turns = tuple(Turn(i, who, text, f"s:{i}") for i, (who, text) in enumerate(said))
    memory = Memory(tmp_path / "p.db", embedder="none")
    memory.ingest([Session("s", datetime(2024, 3, 1), turns)])
    return memory


def test_a_self_report_outranks_praise_of_the_listener(painting_memory: Memory) -> None:
    question = "What painting did Melanie make?"
    with painting_memory:
        plain = [h.turn_id for h in painting_memory.search(question, k=4, preset="no-disclosure")]
        prior = [h.turn_id for h in painting_memory.search(question, k=4)]
    # Melanie's praise of Caroline's painting matches the question's words better than her own report; the
    # prior puts the report first, and drops nothing.
    assert plain.index("s:1") < plain.index("s:2")
    assert prior[0] == "s:2"
    assert sorted(prior) == sorted(plain)


def test_asks_holds_for_any_turn_with_a_question_only_asks_for_one_that_states_nothing() -> None:
    text = "I love pottery, it calms me down so much. What kind of things do you make?"
    assert asks(text) and not only_asks(text)
    assert asks("Wow! What gave you the idea?") and only_asks("Wow! What gave you the idea?")
    assert not asks("I painted a lake sunrise last year.")
