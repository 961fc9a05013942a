"""The user's facts and words answer their own state and dates however much the assistant talked; a who-question is no
where-question; a sentence continues the one before it in the turn."""

from __future__ import annotations

from datetime import datetime, timedelta

from sodamem import Memory


def told(turns: list[tuple[str, str]]) -> Memory:
    memory = Memory(":memory:", embedder="none")
    start = datetime(2026, 3, 1, 9)
    for n, (role, text) in enumerate(turns):
        memory.add([{"role": role, "text": text}], session_id="s1", timestamp=start + timedelta(minutes=n))
    return memory


def test_the_users_employer_though_the_assistant_talked_about_work() -> None:
    with told(
        [
            ("user", "I started at Granitefield Pet Hospital this week."),
            ("assistant", "Where you work now matters less than how work feels; do you work weekends at work?"),
            ("assistant", "Many people who work in new places feel that way about work at first."),
        ]
    ) as memory:
        answer = memory.ask("Where do I work now?", now=datetime(2026, 3, 10), offline=True)
        assert answer.answer == "Granitefield Pet Hospital"
        assert answer.citations and "Granitefield" in answer.citations[0].quote


def test_a_who_question_is_not_answered_with_a_place() -> None:
    with told([("user", "lwazi's mom finally moved, she's settled in durban with his aunt")]) as memory:
        answer = memory.ask("Who did Lwazi's mom move in with?", now=datetime(2026, 3, 10), offline=True)
        assert answer.answer != "Durban" and "aunt" in answer.answer


def test_a_sentence_continues_the_one_naming_the_people() -> None:
    said = "And Wout and Fenne are engaged!! After like 4 months together. Mum thinks it's fast."
    with told([("user", said)]) as memory:
        answer = memory.ask(
            "How long had Wout and Fenne been together when they got engaged?", now=datetime(2026, 3, 10), offline=True
        )
        assert "4 months" in answer.answer


def test_another_persons_words_still_abstain_for_a_named_speaker() -> None:
    """Only the asker's own state ("my", "I") is read before the other-speaker check: "What did Joanna make for her
    vegan diet group?" is not answered with Joanna's diet when Nate is the one who made things for his group."""
    with told(
        [
            ("Joanna", "I'm lactose intolerant, so no dairy for me."),
            ("Nate", "I made vegan ice cream and shared it with my vegan diet group, they loved the vegan recipes."),
        ]
    ) as memory:
        answer = memory.ask("What did Joanna make and share with her vegan diet group?", offline=True)
        assert "lactose" not in answer.answer


def test_when_i_go_is_read_from_my_words_not_the_assistants() -> None:
    with told(
        [
            ("user", "porto got pushed back, we have a festival on the 13th. going 26 to 29 june instead"),
            ("assistant", "Late June is great weather for Porto, you'll just miss the São João festival."),
        ]
    ) as memory:
        answer = memory.ask("When am I going to Porto?", now=datetime(2026, 3, 10), offline=True)
        assert answer.answer.startswith("26 June 2026")


def test_when_the_assistant_holds_the_date_it_answers() -> None:
    with told(
        [
            ("user", "Can you keep track of my flight to Oslo for me?"),
            ("assistant", "Sure. Your flight to Oslo is now on June 9th, they moved it."),
        ]
    ) as memory:
        answer = memory.ask("When is my flight to Oslo?", now=datetime(2026, 3, 10), offline=True)
        assert answer.answer.startswith("9 June 2026")
