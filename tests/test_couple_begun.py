"""A couple said as begun, engaged or together again in casual words ("Sam and I started dating", "I've been seeing
Sam", "Ben proposed and I said yes", "Tom and I are back together"), and people named by a relation said in other
ways ("Maya, my therapist,", "Grace from work", "My boss is Grace.", "Dr. Patel is my dentist"). Real rules, real
store; every answer cites its turns."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory
from sodamem.model import FactKind
from sodamem.records import FactRecord

from .scenario_histories import check_answer, remembered

ASKED = datetime(2025, 6, 1, 12, 0)


def relations(memory: Memory) -> list[tuple[str, str | None, bool, str]]:
    facts: list[FactRecord] = memory.facts(status="all")
    return [(f.predicate, f.object, f.denies, f.text) for f in facts if f.kind == FactKind.RELATION]


@pytest.mark.parametrize(
    "said",
    [
        "Sam and I started dating.",
        "I started dating Sam in May.",
        "Sam and I are dating.",
        "Sam and I have been dating since March.",
        "me and Sam are official now",
        "Sam and I made it official last week!",
        "Sam and I are a thing now",
        "I'm in a relationship with Sam.",
        "I've been seeing Sam for a few weeks now, it is going great.",
        "me and Sam r dating lol",
        "Sam asked me to be his girlfriend!",
        "Honestly Sam and I are dating.",  # a word before the name is no part of it
        "Sam and I have been dating since school.",  # "school" would be a group of anything but dating
        "I can't believe it, Sam and I are official!",  # the denial is of another clause
        "I never thought I'd say it but Sam and I are dating!",
        "OMG Sam and I are dating!!",
        "Guess what, Sam and I are official",
        "Sam and I got together last summer.",  # over months: a couple
        "Sam and I finally got together!",
        "Sam and I got together three months ago, lol",
    ],
)
def test_a_couple_begun_names_the_one_dated(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert ("dating", "Sam", False, "user is dating Sam") in relations(memory)


@pytest.mark.parametrize(
    "said",
    [
        "I'm seeing Sam tomorrow.",  # a meeting
        "I've been seeing Dr. Patel for my back.",  # a doctor
        "I've been seeing Anna for therapy sessions.",
        "I wish Sam and I were dating.",  # a wish
        "Sarah says Sam and I are dating.",  # hearsay
        "Is Sam dating Tom?",  # a question
        "Sam and I are together at the conference.",  # a place
        "Sam and I started a band.",
        "Sam and I have been seeing each other at the band practice.",  # a group spoken of
        "Sam asked me to be his girlfriend but I said no.",
        "Sam and I are going out on Saturday for my sister's birthday",  # an outing
        "Sam and I started going out in the evenings to walk the dog",
        "I started seeing Sam this week for my anxiety.",
        "I started seeing Sam last week, he's a chiropractor.",
        "I started seeing Sam around the office.",
        "I've been seeing Sam again at the climbing gym.",
        "Sam and I made it official: we're launching the podcast.",
        "Sam and I made it official at the band meeting.",
        "Sam and I got together last Friday.",  # on a day: a meeting
        "Sam and I got together for coffee.",
        "Sam and I got together at the conference.",
        "Sam and I got together this weekend to play music.",
    ],
)
def test_no_couple_begun(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert not [r for r in relations(memory) if r[1] == "Sam" or r[0] == "dating"]


def test_a_proposal_said_yes_to_names_the_fiance() -> None:
    with remembered([("2025-03-02T10:00", "Ben proposed last night and I said yes!")]) as memory:
        assert ("fiance", "Ben", False, "user's fiance is Ben") in relations(memory)
        check_answer(memory, memory.ask("Who is my fiance?", now=ASKED, offline=True), "Ben")
    for said in ("Ben proposed! I said yes!", "Ben proposed last night!! And I said YES"):  # the next sentence says yes
        with remembered([("2025-03-02T10:00", said)]) as memory:
            assert ("fiance", "Ben", False, "user's fiance is Ben") in relations(memory), said
    for said in (
        "Ben proposed. I said no.",
        "Ben proposed! I said yes to being his best man.",
        "Ben proposed a toast! I said yes to another drink.",
        "Ben proposed in Paris! I said yes to another glass though.",
        "Ben proposed to Ana last night.",
        "Ben proposed a new plan and I said yes.",
        "Ben proposed a toast and I said yes to another drink.",
        "Ben proposed that we go hiking, and I said yes.",
        "Ben proposed to my sister and I said yes to being maid of honour.",
        "Ben proposed to Ana and I said yes when she asked me to be bridesmaid.",
    ):
        with remembered([("2025-03-02T10:00", said)]) as memory:
            assert not [r for r in relations(memory) if r[0] == "fiance"], said


TOM = ("2025-01-05T10:00", "My boyfriend Tom took me to Paris for my birthday.")
BROKE_UP = ("2025-03-02T21:00", "We broke up last night, I'm a mess.")


@pytest.mark.parametrize(
    "again",
    ["Tom and I are back together!", "Tom and I got back together last night.", "I got back together with Tom."],
)
def test_a_couple_together_again_ends_the_break_up(again: str) -> None:
    with remembered([TOM, BROKE_UP, ("2025-04-10T09:00", again)]) as memory:
        (back,) = [f for f in memory.facts(status="active") if f.text == "user is back together with Tom"]
        assert back.kind == FactKind.RELATION and back.predicate == "partner"
        check_answer(memory, memory.ask("Who is my boyfriend?", now=ASKED, offline=True), "Tom")
        answer = memory.ask("Who is Tom?", now=ASKED, offline=True)
        check_answer(memory, answer, "user's boyfriend")  # the word said of him before, not "former boyfriend"
        quoted = again.rstrip("!.").removesuffix(" last night")
        assert [c.quote for c in answer.citations] == ["My boyfriend Tom", quoted]
        check_answer(memory, memory.ask("Is Tom still my boyfriend?", now=ASKED, offline=True), "Yes")


@pytest.mark.parametrize(
    "met",
    [
        "Tom and I got back together for a coffee to return his stuff.",
        "Tom and I got back together this weekend to play music.",
    ],
)
def test_a_meeting_is_no_couple_together_again(met: str) -> None:
    with remembered([TOM, BROKE_UP, ("2025-04-10T09:00", met)]) as memory:
        check_answer(memory, memory.ask("Is Tom still my boyfriend?", now=ASKED, offline=True), "No")


def test_a_break_up_after_being_together_again_makes_the_partner_a_former_one() -> None:
    again, over = ("2025-04-10T09:00", "Tom and I are back together!"), ("2025-05-10T09:00", "We broke up again.")
    with remembered([TOM, again, over]) as memory:
        answer = memory.ask("Who is Tom?", now=ASKED, offline=True)
        check_answer(memory, answer, "user's former boyfriend")
        assert [c.quote for c in answer.citations] == [
            "My boyfriend Tom",
            "Tom and I are back together",
            "We broke up again",
        ]
    dated = [("2025-03-01T10:00", "Sam and I started dating."), ("2025-05-10T09:00", "We broke up.")]
    with remembered(dated) as memory:
        check_answer(memory, memory.ask("Who is Sam?", now=ASKED, offline=True), "someone user dated")


def test_together_again_with_no_word_said_before_is_a_partner() -> None:
    with remembered([BROKE_UP, ("2025-04-10T09:00", "Tom and I are back together!")]) as memory:
        check_answer(memory, memory.ask("Who is Tom?", now=ASKED, offline=True), "user's partner")


@pytest.mark.parametrize(
    ("said", "who", "expected"),
    [
        ("2025-03-10T10:00|Sam and I started dating in February, he is lovely.", "Sam", "someone user dates"),
        ("2025-03-10T10:00|Maya, my therapist, suggested journaling.", "Maya", "user's therapist"),
        ("2025-03-10T10:00|I talked to Maya, my therapist, about it.", "Maya", "user's therapist"),
        ("2025-03-10T10:00|Grace from work invited me to her party.", "Grace", "user's coworker"),
        ("2025-03-10T10:00|My boss is Grace.", "Grace", "user's boss"),
        ("2025-03-10T10:00|I started a new job at Acme. My manager there is Grace.", "Grace", "user's manager"),
        ("2025-03-10T10:00|Dr. Patel is my dentist, the best.", "Dr. Patel", "user's dentist"),
        ("2025-03-10T10:00|My personal trainer Jess is brutal.", "Jess", "user's personal trainer"),
        ("2025-03-10T10:00|Dan's my new boss.", "Dan", "user's boss"),
        ("2025-03-10T10:00|My boss quit, so now I report to Dan.", "Dan", "user's manager"),
        ("2025-03-10T10:00|My GP Dr. Khan says rest.", "Dr. Khan", "user's GP"),
    ],
)
def test_who_is_a_person_named_by_a_relation_said_in_other_words(said: str, who: str, expected: str) -> None:
    when, text = said.split("|")
    with remembered([(when, text)]) as memory:
        check_answer(memory, memory.ask(f"Who is {who}?", now=ASKED, offline=True), expected)


@pytest.mark.parametrize(
    "said",
    [
        "I invited Tom, my sister, and Ana.",  # a list
        "Tom, my mum, my dad and I went out.",
        "Tom came home from work late.",
        "Is Grace from work coming?",
        "My husband is Navy.",
        "If my boss is Grace I quit.",
        "I used to report to Dan.",
        "Maybe I report to Dan now?",
        "I picked up Grace from work.",
        "I'll pick up Tom from work later.",
        "Heard from work that Grace quit.",
        "Ana from my job interview was nice.",
        "My boss is Grace, right?",
        "Wait, my boss is Grace?",
    ],
)
def test_no_relation_named(said: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        assert relations(memory) == []


@pytest.mark.parametrize(
    ("said", "predicate"),
    [
        ("My old dentist Chloe retired.", "dentist"),
        ("Dr. Patel was my doctor when I lived in Leeds.", "doctor"),
        ("Omar is no longer my team lead.", "team_lead"),
        ("Mark is no longer my physiotherapist.", "physiotherapist"),
        ("My old GP Dr. Khan retired.", "gp"),
    ],
)
def test_a_professional_said_as_over_is_a_denial(said: str, predicate: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        (fact,) = [r for r in relations(memory) if r[0] == predicate]
    assert fact[2] is True and " is no longer user's " in fact[3]


def test_a_team_lead_is_the_boss_asked_of() -> None:
    with remembered([("2025-01-05T10:00", "My team lead Omar is great.")]) as memory:
        check_answer(memory, memory.ask("Who is my boss?", now=ASKED, offline=True), "Omar")


def test_a_team_lead_is_the_boss_a_denial_ends() -> None:
    history = [
        ("2025-01-05T10:00", "My team lead Omar is great."),
        ("2025-03-02T10:00", "Omar is no longer my boss, he moved teams."),
    ]
    with remembered(history) as memory:
        (omar,) = [f for f in memory.facts(status="all") if f.predicate == "team_lead"]
        assert omar.status == "superseded"


@pytest.mark.parametrize("said", ["I'm single again, it's fine.", "i'm single now lol", "I am officially single."])
def test_single_again_ends_the_partner_without_a_break_up_said(said: str) -> None:
    with remembered([TOM, ("2025-03-02T21:00", said)]) as memory:
        assert ("partner", None, True, "user has no partner") in relations(memory)
        assert not [f for f in memory.facts(status="all") if f.predicate == "broke_up"]
        check_answer(memory, memory.ask("Who is my boyfriend?", now=ASKED, offline=True), "no one now (previously Tom)")
        check_answer(memory, memory.ask("Who is Tom?", now=ASKED, offline=True), "user's former boyfriend")


@pytest.mark.parametrize("said", ["If I'm single by 30 I'll cry.", "I'm single-handedly running this.", "Am I single?"])
def test_no_single_said(said: str) -> None:
    with remembered([TOM, ("2025-03-02T21:00", said)]) as memory:
        check_answer(memory, memory.ask("Who is my boyfriend?", now=ASKED, offline=True), "Tom")


@pytest.mark.parametrize("question", ["Who am I dating?", "Who am I seeing these days?", "who am i dating now"])
def test_whom_the_asker_dates_is_the_partner_by_any_word(question: str) -> None:
    with remembered([("2025-03-10T10:00", "Sam and I started dating in February, he is lovely.")]) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), "Sam")
    with remembered([TOM, BROKE_UP]) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), "no one now (previously Tom)")
    with remembered([("2025-03-10T10:00", "I went to Paris with my sister.")]) as memory:
        assert memory.ask(question, now=ASKED, offline=True).abstained


def test_one_dated_keeps_the_word_said_of_them_before() -> None:
    history = [("2025-01-05T10:00", "My boyfriend Sam is sweet."), ("2025-02-05T10:00", "Sam and I made it official!")]
    with remembered(history) as memory:
        answer = memory.ask("Who is Sam?", now=ASKED, offline=True)
        check_answer(memory, answer, "user's boyfriend")
        assert [c.quote for c in answer.citations] == ["My boyfriend Sam", "Sam and I made it official"]


@pytest.mark.parametrize(
    ("said", "question", "expected"),
    [
        ("Dr. Lee, my GP, said rest.", "Who is my GP?", "Dr. Lee"),
        ("My personal trainer Jess is brutal.", "Who is my trainer?", "Jess"),
    ],
)
def test_a_professional_is_asked_of_by_its_words(said: str, question: str, expected: str) -> None:
    with remembered([("2025-01-05T10:00", said)]) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), expected)


@pytest.mark.parametrize(
    ("said", "question"),
    [
        ("I met Nina at the gym, we are friends now.", "Who is Nina?"),
        ("Ben proposed last night!", "Who is Ben?"),
        ("Sam asked me out and we went for dinner!", "who is sam"),
    ],
)
def test_who_someone_is_with_no_relation_read_is_the_sentence_said_of_them(said: str, question: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), said)  # not a piece of it ("met")


@pytest.mark.parametrize(
    ("said", "question", "expected"),
    [
        ("Ana and Ben were at the party last night.", "who was at the party?", "Ana and Ben"),  # no name asked
        ("Ben was late to the meeting again.", "who was late?", "Ben"),
    ],
)
def test_a_lower_case_who_question_asking_no_name_keeps_its_span(said: str, question: str, expected: str) -> None:
    with remembered([("2025-03-02T10:00", said)]) as memory:
        check_answer(memory, memory.ask(question, now=ASKED, offline=True), expected)


def test_who_someone_is_is_not_read_from_a_question_or_the_assistant() -> None:
    with remembered([("2025-03-02T10:00", "Do you think Nina likes me?")]) as memory:
        assert memory.ask("Who is Nina?", now=ASKED, offline=True).abstained
    with Memory(":memory:", embedder="fake") as memory:
        said = datetime(2025, 3, 2, 10)
        turns = [{"role": "user", "text": "I'm off out tonight."}, {"role": "assistant", "text": "Have fun with Nina!"}]
        memory.add(turns, session_id="s1", timestamp=said)
        assert memory.ask("Who is Nina?", now=ASKED, offline=True).abstained
