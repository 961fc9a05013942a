"""Introductions typed as chat fragments ("yo. ricky here, graphic designer, based in austin tx"), homes said without
"I" ("settled in porto finally"), and pets named by breed where one says one has them ("got two dogs, a pitbull
named tank and a chihuahua named peanut"): the facts, and the answers they give (real rules extractor, offline
reader)."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory

from .scenario_histories import History, answered, check_answer

Fact = tuple[str, str | None]


def facts(text: str) -> list[Fact]:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": text}], session_id="s", timestamp=datetime(2026, 5, 20, 10))
        return sorted((f.predicate, f.object) for f in memory.facts() if f.kind != "event")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "yo. ricky here, graphic designer, freelance mostly, based in austin tx.",
            [("job", "graphic designer"), ("lives_in", "Austin tx"), ("name", "Ricky")],
        ),
        (
            "hey, lena here. ux researcher at zalando in berlin, live in neukölln w my girlfriend mia.",
            [
                ("girlfriend", "Mia"),
                ("job", "ux researcher"),
                ("lives_in", "Neukölln"),
                ("name", "Lena"),
                ("works_at", "Zalando"),
            ],
        ),
        (
            "Hi, Kwame here, junior doctor at Leeds General, living in Headingley.",
            [("job", "junior doctor"), ("lives_in", "Headingley"), ("name", "Kwame"), ("works_at", "Leeds General")],
        ),
        (
            "Sarah here. Graphic designer, based in Leeds.",
            [("job", "graphic designer"), ("lives_in", "Leeds"), ("name", "Sarah")],
        ),
        ("settled in porto finally. flat is small but the light is amazing", [("lives_in", "Porto")]),
        # not an introduction: the fragments may describe anyone
        ("Met a guy at the party, graphic designer, based in Leeds.", []),
        ("My sister, a nurse, lives in York.", []),
        ("Nurse here, need advice on night shifts.", []),  # a job, not a name
        ("Newbie here, based in Leeds.", []),
        ("Sam here, using my brother's phone.", []),  # someone else typing
        ("Sam here, Alex's flatmate. She's asleep.", []),
        ("Tom here. Looking for a web designer, based in Bath.", [("name", "Tom")]),  # the designer's Bath
        ("Sam here, need a good plumber.", [("name", "Sam")]),
        ("Priya here, former police officer, aspiring writer.", [("name", "Priya")]),
        ("Sam here, living in a nightmare with this boiler.", [("name", "Sam")]),
        # a sentence opening "Based in ..." about something else
        ("Based in Leeds, the novel follows two sisters.", []),
        ("Based in Manchester, working as a nurse.", [("job", "nurse"), ("lives_in", "Manchester")]),
        ("based in Leeds, working at Asda.", [("lives_in", "Leeds"), ("works_at", "Asda")]),
        ("Based in Leeds, working on my novel.", []),
        ("Based in Leeds, working as a nurse is my dream though.", []),
        ("Based in Bristol, working as hard as ever lol", []),
        ("Moved to York last week, now working at Tesco.", [("lives_in", "York"), ("works_at", "Tesco")]),
        ("Came over from Jamaica in 1962. Settled in Bristol and never left.", []),
        ("We've got a lab called Helix at work.", []),
        (
            "I have two dogs, a black lab called Bruno and a collie called Meg.",
            [("dog", "Bruno"), ("dog", "Meg"), ("has_dog", "2")],
        ),
        (
            "ricky here. dad of two, graphic designer, live in austin",
            [("job", "graphic designer"), ("lives_in", "Austin"), ("name", "Ricky")],
        ),
        ("Sebastian here, graphic designer.", [("job", "graphic designer"), ("name", "Sebastian")]),
        # pets named where one says one has them, a breed being its kind
        ("got two dogs, a pitbull named tank and a chihuahua named peanut.", [("dog", "Peanut"), ("dog", "Tank")]),
        ("I adopted a greyhound named Lulu.", [("dog", "Lulu")]),
        ("We saw a dog named Rex at the park.", []),
        # a common word right after one's own pet names it, in lower case, there only
        (
            "live in bristol w my boyfriend callum and our cat pickle (she's a tabby and a menace)",
            [("boyfriend", "Callum"), ("cat", "Pickle")],
        ),
        ("my dog biscuit, hes 3", [("age", "3"), ("dog", "Biscuit")]),
        ("my dog walker is late again", []),
        ("my dog fred, hes 3", [("age", "3"), ("dog", "Fred")]),
        ("our cat lily (shes a tabby)", [("cat", "Lily")]),
        ("the girl called back later", []),
        ("our cat died.", []),
        ("my cat sleeps all day", []),
        ("walked my dog lmao", []),
        ("took my dog out, then coffee", []),
        ("booked my dog trainer, finally", []),
        ("met a cute spaniel on my walk, his name is alfie!", []),  # a breed met, not got
        # a breed named after it is a dog; someone else's is not the speaker's
        ("adopted a rescue greyhound!! her name's lulu, retired racer, 4 yrs old", [("dog", "Lulu")]),
        ("My brother got a greyhound. Her name is Luna.", []),
        # "a grey boy called Moth" after a pet names it; after a relative it names no one
        ("in other news i adopted a second cat!! grey boy called moth. pickle hates him", [("cat", "Moth")]),
        ("Got a new puppy, a little girl called Bea!", [("puppy", "Bea")]),
        ("My sister had a baby, a girl called Ava.", [("has_baby", "1")]),
        ("I adopted a cat. The boy called Tom next door loves her.", []),
    ],
)
def test_chat_fragments(text: str, expected: list[Fact]) -> None:
    assert facts(text) == expected


RICKY: History = [
    ("2025-05-02T21:00", "yo. ricky here, graphic designer, freelance mostly, based in austin tx."),
    ("2025-05-02T21:01", "got two dogs, a pitbull named tank and a chihuahua named peanut. they run my life"),
    ("2025-07-01T10:00", "tank has a new chew toy, he destroyed it in an hour"),
]
LENA: History = [
    ("2025-08-04T21:00", "hey, lena here. ux researcher at zalando in berlin, live in neukölln w my girlfriend mia."),
]
CASES = [
    ("home-from-intro", RICKY, "2025-08-01", "Where do I live?", "Austin tx"),
    ("job-from-intro", RICKY, "2025-08-01", "What is my job?", "graphic designer"),
    ("employer-from-intro", LENA, "2025-09-01", "Where do I work?", "Zalando"),
    ("neighbourhood-from-intro", LENA, "2025-09-01", "Where do I live?", "Neukölln"),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_from_an_intro(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def test_a_common_word_named_as_a_pet_stays_a_word_elsewhere() -> None:
    with Memory(":memory:", embedder="none") as memory:
        for turn in RICKY:
            said = datetime.fromisoformat(turn[0])
            memory.add([{"role": "user", "text": turn[1]}], session_id=f"s{said:%Y%m%d}", timestamp=said)
        dogs = sorted(f.object or "" for f in memory.facts() if f.predicate == "dog")
        assert dogs == ["Peanut", "Tank"]
        assert memory.ask("What are my dogs called?", now=datetime(2025, 8, 1), offline=True).answer == "Tank, Peanut"
