"""Pets that died and someone one started seeing, told in lower case: "peanut passed away last night" ends the dog
Peanut for what one has now (not for what one had, and never a relative: a grandmother who died is still one's
grandmother), and so do "we had to put Biscuit down" and "we lost Biscuit last week"; "i met someone on hinge. her
name's ros" is whom one dates, and "What's my girlfriend's name?" reads it though no sentence says "girlfriend" (real
rules extractor, offline reader)."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory

from .scenario_histories import ABSTAIN, History, answered, check_answer

RICKY: History = [
    ("2025-05-02T21:00", "got two dogs, a pitbull named tank and a chihuahua named peanut. they run my life"),
    ("2025-10-09T08:00", "peanut passed away last night. she was 16. she just went to sleep"),
    ("2025-12-21T15:00", "adopted a rescue greyhound named lulu, retired racer, 4 yrs old. tank is obsessed with her"),
]
PHONE: History = [("2025-11-09T08:00", "my phone died this morning, so annoying")]
GRANDMA: History = [
    ("2025-05-02T21:00", "My grandma Rose is turning 90 next week!"),
    ("2025-10-09T08:00", "My grandma Rose passed away on Sunday."),
]
JESS: History = [
    (
        "2025-12-02T10:00",
        "ok so. i met someone on hinge. her name's ros, she's a vet. we've been seeing each other since halloween",
    ),
]
TWO_MAXES: History = [
    ("2025-05-02T21:00", "I have two dogs, a dog named Biscuit and a dog named Max."),
    ("2025-10-09T08:00", "My uncle Max passed away on Sunday."),
]
CONFERENCE: History = [("2025-12-02T10:00", "I met someone at the conference. Her name is Priya, she might hire me!")]
TOGETHER: History = [("2025-12-02T10:00", "Sam and I have been together for five years.")]
PUT_DOWN: History = [
    ("2025-05-02T21:00", "My dog Biscuit loves the beach."),
    ("2025-10-09T08:00", "We had to put Biscuit down yesterday. Heartbroken."),
]
LOST: History = [
    ("2025-05-02T21:00", "My dog Biscuit loves the beach."),
    ("2025-10-09T08:00", "We lost Biscuit last week. The house is so quiet."),
]
UNCLE_MAX: History = [
    ("2025-05-02T21:00", "I have two dogs, a dog named Biscuit and a dog named Max."),
    ("2025-10-09T08:00", "Max, my uncle, passed away on Sunday."),
]
OLD_VIDEO: History = [*LOST, ("2025-11-01T08:00", "Found an old video of Biscuit, cried.")]
PUPPIES: History = [*PUT_DOWN, ("2025-11-01T08:00", "We got two puppies!")]
NEW_PUPPY: History = [*PUT_DOWN, ("2025-11-01T08:00", "We got a new puppy, her name is Pip!")]
ANOTHER_DOG: History = [*PUT_DOWN, ("2025-11-01T08:00", "We adopted another dog last weekend!")]
FOUND_AGAIN: History = [*LOST, ("2025-11-01T08:00", "Update: Biscuit is home!! Someone found him in the next village.")]
TWO_DOGS: History = [
    ("2025-05-02T21:00", "We have two dogs, Biscuit and Rex."),
    ("2025-10-09T08:00", "We had to put Biscuit down yesterday. Heartbroken."),
]
THREE_DOGS: History = [
    ("2025-05-02T21:00", "We have three dogs now. My dog Biscuit is the oldest, my dog Rex the naughtiest."),
    ("2025-10-09T08:00", "Biscuit passed away last night."),
]
COUNTED_APART: History = [
    ("2025-05-01T21:00", "I have 3 dogs, it's chaos."),
    ("2025-05-02T21:00", "I have a dog called Biscuit, he's the oldest."),
    ("2025-10-09T08:00", "We had to put Biscuit down yesterday. Heartbroken."),
]
ANOTHER_BEFORE: History = [
    ("2025-05-02T21:00", "We have two dogs, Biscuit and Rex."),
    ("2025-07-02T21:00", "We adopted another dog!"),
    ("2025-10-09T08:00", "Rex passed away last night."),
]
PUPPY_UNNAMED_BY_FACTS: History = [
    ("2025-05-01T21:00", "we got our 8 week puppy Pip today!"),
    ("2025-05-02T21:00", "we also have a dog called Biscuit"),
    ("2025-10-09T08:00", "We had to put Biscuit down yesterday."),
]
DREAM: History = [
    ("2025-05-02T21:00", "We have two dogs, Biscuit and Rex."),
    ("2025-10-09T08:00", "Biscuit died in my dream last night, woke up crying."),
]
DAD_MAX: History = [
    ("2025-05-02T21:00", "We have two dogs, Biscuit and Max."),
    ("2025-10-09T08:00", "My dad, Max, passed away."),
]
CASES = [
    ("dogs-now", RICKY, "2026-05-01", "Which dogs do I have now?", "Tank, Lulu"),
    ("dogs-called", RICKY, "2026-05-01", "What are my dogs called?", "Tank, Lulu"),
    ("a-death-dated", RICKY, "2026-05-01", "When did Peanut die?", "8 October 2025 to 9 October 2025"),
    ("still-have-a-pet-that-died", RICKY, "2026-05-01", "Do I still have Peanut?", "No"),
    ("still-have-a-living-pet", RICKY, "2026-05-01", "Do I still have Tank?", "Yes"),
    ("a-phone-that-died-is-still-had", PHONE, "2026-05-01", "Do I still have my phone?", "Yes"),
    ("grandma-still-grandma", GRANDMA, "2026-05-01", "What is my grandma's name?", "Rose"),
    ("girlfriend-by-dating", JESS, "2026-03-01", "What's my girlfriend's name?", "Ros"),
    ("dating", JESS, "2026-03-01", "Who am I dating?", "Ros"),
    ("not-a-wife", JESS, "2026-03-01", "Who is my wife?", ABSTAIN),
    ("an-uncle-is-no-dog", TWO_MAXES, "2026-05-01", "What are my dogs called?", "Biscuit, Max"),
    ("met-at-a-conference-is-no-date", CONFERENCE, "2026-03-01", "Who am I dating?", ABSTAIN),
    ("a-partner-is-no-wife", TOGETHER, "2026-03-01", "Who is my wife?", ABSTAIN),
    ("put-down-is-had-no-more", PUT_DOWN, "2026-05-01", "Do I still have Biscuit?", "No"),
    ("lost-is-had-no-more", LOST, "2026-05-01", "Do I still have Biscuit?", "No"),
    ("no-dog-after-the-only-one-died", PUT_DOWN, "2026-05-01", "Do I have a dog?", "No"),
    ("a-dog-left-after-one-died", RICKY, "2026-05-01", "Do I have a dog?", "Yes"),
    ("a-dog-before-it-died", PUT_DOWN, "2025-06-01", "Do I have a dog?", "Yes"),
    ("a-puppy-is-a-dog", NEW_PUPPY, "2026-05-01", "Do I have a dog?", "Yes"),
    ("lower-case-name", PUT_DOWN, "2026-05-01", "do i still have biscuit?", "No"),
    ("dogs-called-before-the-death", PUT_DOWN, "2025-06-01", "What are my dogs called?", "Biscuit"),
    # a dog said since the last death, unnamed: the sentences decide, never a "No" from the names alone
    ("an-unnamed-dog-since", ANOTHER_DOG, "2026-05-01", "Do I have a dog?", "Yes"),
    ("lost-and-found", FOUND_AGAIN, "2026-05-01", "Do I still have Biscuit?", "Yes"),
    ("an-uncle-named-after", UNCLE_MAX, "2026-05-01", "What are my dogs called?", "Biscuit, Max"),
    ("a-video-found-is-no-dog-found", OLD_VIDEO, "2026-05-01", "Do I still have Biscuit?", "No"),
    ("puppies-since", PUPPIES, "2026-05-01", "Do I have any puppies?", "Yes"),
    # how many: those counted or named, less the deaths said by the time asked
    ("how-many-after-a-death", TWO_DOGS, "2026-05-01", "How many dogs do I have?", "one (Rex)"),
    ("how-many-before-the-death", TWO_DOGS, "2025-06-01", "How many dogs do I have?", "two"),
    ("how-many-none-left", PUT_DOWN, "2026-05-01", "How many dogs do we have now?", "none now (previously Biscuit)"),
    ("how-many-counted-beyond-the-names", THREE_DOGS, "2026-05-01", "How many dogs do I have?", "two"),
    ("how-many-counted-in-another-turn", COUNTED_APART, "2026-05-01", "How many dogs do I have?", "two"),
    ("how-many-a-breed-not-named", TWO_DOGS, "2026-05-01", "How many beagles do I have?", ABSTAIN),
    ("how-many-a-person-of-the-name-died", DAD_MAX, "2026-05-01", "How many dogs do I have?", "two"),
    (
        "a-person-of-the-name-died-named-after-the-kin",
        DAD_MAX,
        "2026-05-01",
        "What are my dogs called?",
        "Biscuit, Max",
    ),
    ("a-death-in-a-dream", DREAM, "2026-05-01", "What are my dogs called?", "Biscuit, Rex"),
]


@pytest.mark.parametrize("history", [ANOTHER_BEFORE, PUPPY_UNNAMED_BY_FACTS])
def test_a_dog_got_that_no_fact_counts_leaves_it_to_the_sentences(
    scenario_memories: dict[int, Memory], history: History
) -> None:
    """ "We adopted another dog", "we got our 8 week puppy Pip" (no fact names Pip): the count is not known, so no
    count less the death ("one (Biscuit)", "none now")."""
    _, answer = answered(scenario_memories, history, "2026-05-01", "How many dogs do I have?")
    assert "(" not in answer.answer and "none" not in answer.answer


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def deaths(text: str) -> list[str]:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": text}], session_id="s", timestamp=datetime(2026, 5, 20, 10))
        return [f.subject for f in memory.facts() if f.predicate == "died"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("peanut passed away last night.", ["Peanut"]),
        ("Biscuit died in her sleep.", ["Biscuit"]),
        ("My grandma Rose passed away on Sunday.", ["Rose"]),
        ("Tom passed his driving test!", []),
        ("I died laughing at that.", []),
        ("Tom would have died if he'd seen it.", []),
        ("Biscuit passed on his dinner again last night.", []),  # "passed" alone: as often an exam as a death
        ("Leo passed today!!", []),
        ("Panicked, thought Biscuit had died, turns out he was asleep.", []),
        ("I had a horrible dream that Biscuit died last night.", []),
        ("We had to put Biscuit down yesterday.", ["Biscuit"]),
        ("I had Biscuit put to sleep on Monday.", ["Biscuit"]),
        ("sadly we lost our dog Rex yesterday", ["Rex"]),
        ("We lost Biscuit in the park for an hour.", []),  # lost, and found
        ("I lost Sam's number.", []),
        ("We might have to put Biscuit down.", []),
        ("We had to put Biscuit down for a nap.", []),
        ("If we lost Biscuit I'd cry.", []),
        ("Did you put Biscuit down?", []),
        ("We lost Biscuit last week. Missing him so much.", ["Biscuit"]),
        ("lost our dog Rex to cancer. Still looking for his old photos", ["Rex"]),
        ("My husband and I had to put Biscuit down last night.", ["Biscuit"]),
        ("We lost Biscuit to cancer last month.", ["Biscuit"]),
        ("We lost Biscuit yesterday but found him an hour later!", []),
        ("We lost Biscuit on Tuesday, he got out of the garden. Posters up everywhere.", []),
        ("I put Biscuit down this morning and he ran straight to his bowl.", []),
        ("Finally put Leo down last night after two hours of screaming.", []),  # a baby asleep
        ("We lost Netflix last week because the card expired.", []),
        ("We lost Chelsea yesterday, 2-1, gutted.", []),
        ("We nearly lost Biscuit last week.", []),
        ("Mum wants us to put Biscuit down but I refuse.", []),
        ("Thank god we didn't have to put Biscuit down in the end.", []),
    ],
)
def test_a_death_is_said(text: str, expected: list[str]) -> None:
    assert deaths(text) == expected


def test_an_assistants_suggestion_is_no_pet_got() -> None:
    """ "When you're ready, adopting another dog can help." (the assistant's) leaves the count as the user said it."""
    with Memory(":memory:", embedder="fake") as memory:
        for when, role, text in [
            ("2025-05-02T21:00", "user", "We have two dogs, Biscuit and Rex."),
            ("2025-10-09T08:00", "user", "We had to put Biscuit down yesterday. Heartbroken."),
            ("2025-10-09T08:05", "assistant", "When you're ready, adopting another dog can help."),
        ]:
            said = datetime.fromisoformat(when)
            memory.add([{"role": role, "text": text}], session_id=f"s{said:%Y%m%d%H%M}", timestamp=said)
        answer = memory.ask("How many dogs do I have?", now=datetime(2026, 5, 1), offline=True)
    assert answer.answer == "one (Rex)"
