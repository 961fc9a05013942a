"""A doing said ahead of time is no "Yes" to "Did I ...?" on its own: called off later ("physio says skip the
half"), it is No; said of since, the sentences answer; never said of again, not known, or not yet while its time is
ahead (real rules extractor, offline reader)."""

from __future__ import annotations

import pytest

from sodamem import Memory

from .scenario_histories import History, answered, check_answer

PORTO: History = [
    ("2025-04-03T20:15", "also signed up for the porto half marathon in november, first one ever"),
    ("2025-10-05T10:20", "settled in porto finally."),
    (
        "2025-10-06T10:20",
        "knee has been bugging me for weeks, physio says skip the half this year and rebuild slowly :(",
    ),
]
POSTER: History = [
    ("2025-05-08T10:00", "going to a conference in lisbon in july, presenting a poster."),
    ("2025-07-20T19:00", "lisbon was amazing! ended up giving a talk instead of the poster bc someone dropped out"),
]
JAPAN: History = [
    ("2025-03-01T09:00", "We're planning a trip to Japan in May!"),
    ("2025-04-20T09:00", "Had to cancel Japan, work is insane."),
]
JAPAN_PLANNED: History = [("2025-03-01T09:00", "We're planning a trip to Japan in May!")]
RAN_IT: History = [
    ("2025-04-03T20:15", "also signed up for the porto half marathon in november, first one ever"),
    ("2025-11-20T10:20", "finished the porto half!! 2:05, legs are dead"),
]
DONE_BEFORE: History = [("2025-12-01T09:00", "I ran the Porto half marathon in November, so proud.")]
GYM: History = [("2025-12-01T09:00", "Had to cancel my gym membership, money is tight.")]
KYOTO: History = [("2026-04-28T10:00", "went to japan but skipped kyoto, too crowded")]
OLD_BLOG: History = [("2026-03-02T10:00", "scrapped the old blog and started a new one on substack")]
QUIT_SMOKING: History = [
    ("2026-03-02T10:00", "quit smoking 3 weeks ago, next month will be my first smoke free birthday"),
]
SISTER: History = [("2026-02-03T10:00", "my sister is going to japan in april, so jealous")]
TOM_PULLED_OUT: History = [
    ("2026-05-02T10:00", "going to lisbon with tom in july"),
    ("2026-07-20T10:00", "tom pulled out of lisbon last minute so i went solo, still fun"),
]
BOOKED_JUST_PAST: History = [
    ("2026-12-05T10:00", "registered for the porto half in november on a whim and ran it, so proud"),
]
IN_MAY: History = [
    ("2026-02-05T09:00", "signed up for the porto half marathon in november"),
    ("2026-05-05T09:00", "In May I had to cancel the Porto half, knee injury."),
]
SAID_AGAIN: History = [
    ("2026-05-02T09:00", "Going to a conference in Lisbon in July"),
    ("2026-06-10T09:00", "So excited for Lisbon next month!"),
]
CASES = [
    ("called-off-later", PORTO, "2026-01-10", "Did I run the Porto half marathon?", "No"),
    ("not-yet", PORTO, "2025-06-01", "Did I run the Porto half marathon?", "not yet (planned in november)"),
    ("done-otherwise", POSTER, "2025-09-01", "Did I present a poster at the Lisbon conference?", "No"),
    ("went-all-the-same", POSTER, "2025-09-01", "Did I go to the Lisbon conference?", "Yes"),
    ("cancelled", JAPAN, "2025-09-01", "Did I go to Japan?", "No"),
    ("only-planned", JAPAN_PLANNED, "2025-09-01", "Did I go to Japan?", "not known (planned in May)"),
    ("done-since", RAN_IT, "2026-01-10", "Did I run the Porto half marathon?", "Yes"),
    ("said-as-done", DONE_BEFORE, "2026-01-10", "Did I run the Porto half marathon?", "Yes"),
    # what is called off is what is asked, by its first word, said by the speaker
    ("skipped-a-part", KYOTO, "2026-05-10", "Did I go to Kyoto?", "No"),
    ("went-all-the-same-but-a-part", KYOTO, "2026-05-10", "Did I go to Japan?", "Yes"),
    ("scrapped-the-old-one", OLD_BLOG, "2026-03-10", "Did I start a new blog?", "Yes"),
    ("someone-else-pulled-out", TOM_PULLED_OUT, "2026-08-10", "Did I go to Lisbon?", "Yes"),
    # done, whatever the sentence says ahead
    ("done-weeks-ago", QUIT_SMOKING, "2026-03-20", "Did I quit smoking?", "Yes"),
    ("booked-just-past-and-done", BOOKED_JUST_PAST, "2026-12-20", "Did I run the Porto half?", "Yes"),
    # "May" the month is no hedge; a plan said again is still a plan
    ("cancelled-in-may", IN_MAY, "2026-12-01", "Did I run the Porto half marathon?", "No"),
    ("said-again-before-its-time", SAID_AGAIN, "2026-06-20", "Did I go to Lisbon?", "not yet (planned next month)"),
    # the calling off is what is asked
    ("asks-the-cancelling", GYM, "2026-01-10", "Did I cancel my gym membership?", "Yes"),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer(scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def test_the_calling_off_is_cited_beside_the_plan(scenario_memories: dict[int, Memory]) -> None:
    _, answer = answered(scenario_memories, PORTO, "2026-01-10", "Did I run the Porto half marathon?")
    quotes = [c.quote for c in answer.citations]
    assert any("signed up for the porto half" in q for q in quotes)
    assert any("skip the half" in q for q in quotes)


def test_someone_elses_plan_is_none_of_the_askers(scenario_memories: dict[int, Memory]) -> None:
    """ "my sister is going to japan in april" is no plan of the asker's: no "not known (planned ...)"."""
    _, answer = answered(scenario_memories, SISTER, "2026-05-10", "Did I go to Japan?")
    assert "planned" not in answer.answer
