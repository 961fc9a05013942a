"""Medicines started, switched and stopped: "Doctor has put me on amlodipine 5mg", "they switched me from amlodipine
to ramipril", "I stopped taking melatonin"; "What medication am I on now?" answers what holds by the time asked, and
"Am I still on amlodipine?" whether it does (real rules extractor, offline reader)."""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory

from .scenario_histories import ABSTAIN, History, answered, check_answer

PRESSURE: History = [
    ("2025-06-10T09:00", "Doctor has put me on amlodipine 5mg for my blood pressure. Once a day in the morning."),
    ("2025-09-01T09:00", "GP has upped the amlodipine to 10mg. Readings were still high at the check."),
    (
        "2026-01-03T09:00",
        "Happy new year. The swelling got quite bad so before Christmas they switched me from amlodipine to ramipril.",
    ),
    ("2026-02-01T09:00", "Also started taking melatonin for sleep."),
    ("2026-03-01T09:00", "I stopped taking melatonin, it gave me weird dreams."),
]
MAYBE: History = [("2025-06-10T09:00", "My GP might put me on statins if my cholesterol stays high.")]
TRIED: History = [
    ("2026-01-05T09:00", "I'm on sertraline."),
    ("2026-03-05T09:00", "I tried to come off sertraline but felt awful."),
]
DAD: History = [("2026-01-05T09:00", "I'm on warfarin."), ("2026-03-05T09:00", "Dad came off warfarin after his op.")]
BACK_ON: History = [
    ("2026-01-05T09:00", "I'm on sertraline."),
    ("2026-02-05T09:00", "I came off sertraline."),
    ("2026-04-05T09:00", "Back on sertraline, it's fine."),
]
STATINS: History = [
    ("2026-01-05T09:00", "I'm on statins now."),
    ("2026-03-05T09:00", "I stopped my statin, muscle aches."),
]
THYROID: History = [
    ("2026-01-05T09:00", "I take levothyroxine for my thyroid."),
    ("2026-02-05T09:00", "I'm on sertraline too."),
]
TWO_AT_ONCE: History = [
    ("2026-01-05T09:00", "I take metformin and insulin for my diabetes."),
    ("2026-03-05T09:00", "I stopped the insulin, the tablets are enough now."),
]
# a stop said after the time it names: "in March", said in May
# a stop said by a span ("last year") after a start within it: after the start
LAST_YEAR: History = [
    ("2024-06-10T09:00", "I'm on citalopram now."),
    ("2025-02-10T09:00", "I came off the citalopram last year, feeling good."),
]
YEAR: History = [
    ("2025-01-10T09:00", "Doctor has put me on citalopram."),
    ("2025-05-20T09:00", "I came off the citalopram in March, feeling much better."),
    ("2025-06-15T09:00", "They put me on propranolol for the panic attacks."),
]
CASES = [
    ("switched-to", PRESSURE, "2026-04-01", "What blood pressure medication am I on now?", "ramipril"),
    ("two-at-once", PRESSURE, "2026-02-15", "What meds am I taking?", "melatonin, ramipril"),
    ("before-the-switch", PRESSURE, "2025-10-01", "What medication am I on?", "amlodipine"),
    ("still-on-after-a-switch", PRESSURE, "2026-04-01", "Am I still on amlodipine?", "No"),
    ("still-on-before-it", PRESSURE, "2025-10-01", "Am I still on amlodipine?", "Yes"),
    ("stopped", PRESSURE, "2026-04-01", "Do I still take melatonin?", "No"),
    ("a-maybe-is-none", MAYBE, "2025-12-01", "What medication am I on?", ABSTAIN),
    ("a-try-is-no-stop", TRIED, "2026-06-01", "Am I still on sertraline?", "Yes"),
    ("someone-elses-stop", DAD, "2026-06-01", "Am I still on warfarin?", "Yes"),
    ("back-on", BACK_ON, "2026-06-01", "Am I still on sertraline?", "Yes"),
    ("purpose-said-after", THYROID, "2026-06-01", "What medication am I on for my thyroid?", "levothyroxine"),
    ("every-one-that-holds", THYROID, "2026-06-01", "What medication am I on?", "sertraline, levothyroxine"),
    ("singular-and-plural-are-one", STATINS, "2026-06-01", "Am I still on statins?", "No"),
    ("a-kind-of-is-no-purpose", THYROID, "2026-06-01", "What kind of medication am I on?", "sertraline, levothyroxine"),
    ("both-listed", TWO_AT_ONCE, "2026-02-01", "What meds am I taking?", "metformin, insulin"),
    ("one-of-two-stopped", TWO_AT_ONCE, "2026-04-01", "What meds am I taking?", "metformin"),
    ("then-a-month", YEAR, "2025-09-01", "What medication was I on in February?", "citalopram"),
    ("then-stopped-by-the-month-named", YEAR, "2025-09-01", "Was I on citalopram in April?", "No"),
    ("then-started-in-the-month", YEAR, "2025-09-01", "Was I taking propranolol in June?", "Yes"),
    ("then-started-within", YEAR, "2025-09-01", "Which meds was I taking in June?", "propranolol"),
    ("now-after-both", YEAR, "2025-09-01", "What medication am I on?", "propranolol"),
    ("then-prescribed-is-started-then", YEAR, "2025-09-01", "What medication was I prescribed in June?", "propranolol"),
    # a stop "last year" after a start that June: open in July (no No from the facts; the sentences answer from "I'm
    # on citalopram now"), over by February
    ("then-a-stop-within-its-span-after-the-start", LAST_YEAR, "2025-03-01", "Was I on citalopram in July?", "Yes"),
    ("then-a-stop-said-by-a-span-before-the-window", LAST_YEAR, "2025-03-01", "Was I on citalopram in February?", "No"),
    ("did-i-take", YEAR, "2025-09-01", "Did I take citalopram in February?", "Yes"),
    # none for the purpose asked: the sentences answer, not every medicine
    ("no-medicine-for-it", THYROID, "2026-06-01", "What medication am I on for my knee?", ABSTAIN),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def medicines(text: str) -> list[tuple[str, str]]:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": text}], session_id="s", timestamp=datetime(2026, 5, 20, 10))
        return sorted((f.predicate, f.object or "") for f in memory.facts() if f.predicate.endswith("_medication"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The GP started me on metformin.", [("started_medication", "metformin")]),
        ("im on sertraline 50mg atm", [("started_medication", "sertraline")]),
        ("I've been taking ibuprofen for my knee.", [("started_medication", "ibuprofen")]),
        ("i came off the citalopram in may", [("stopped_medication", "citalopram")]),
        (
            "It didn't work so they switched me from sertraline to fluoxetine.",
            [("started_medication", "fluoxetine"), ("stopped_medication", "sertraline")],
        ),
        # a medicine by its name's ending
        ("They put me on bisoprolol.", [("started_medication", "bisoprolol")]),
        # none: not a medicine, someone else's, a maybe, a question, an order
        ("They put me on nights this week.", []),
        ("I'm on holiday.", []),
        ("My mum is on sertraline.", []),
        ("my GP wants to put me on statins", []),
        ("Should I come off sertraline?", []),
        ("Take ibuprofen with food.", []),
        ("I'm taking a break from running.", []),
        ("I can't come off sertraline, the withdrawal is brutal.", []),
        ("I'm coming off sertraline next month.", []),
        ("My mum stopped taking sertraline last week.", []),
        ("Mum switched from sertraline to fluoxetine.", []),
        ("The vet stopped the steroids, Biscuit is much better.", []),
        ("No doctor has ever put me on antidepressants.", []),
        ("My mum was prescribed sertraline.", []),
        ("My doctor prescribed me sertraline yesterday.", [("started_medication", "sertraline")]),
        ("I've been put on sertraline by my GP.", [("started_medication", "sertraline")]),
        ("I'm on 50mg of sertraline now.", [("started_medication", "sertraline")]),
        ("I'm off the sertraline now", [("stopped_medication", "sertraline")]),
        ("My mum is back on sertraline.", []),
        ("Back on sertraline, it's fine.", [("started_medication", "sertraline")]),
        ("They switched me to ramipril.", [("started_medication", "ramipril")]),
        ("I'm on 5mg amlodipine.", [("started_medication", "amlodipine")]),
        ("I take metformin and insulin.", [("started_medication", "insulin"), ("started_medication", "metformin")]),
        (
            "I'm on sertraline, propranolol and omeprazole now.",
            [
                ("started_medication", "omeprazole"),
                ("started_medication", "propranolol"),
                ("started_medication", "sertraline"),
            ],
        ),
        ("I'm on sertraline and feeling better.", [("started_medication", "sertraline")]),
        ("I take metformin and my wife takes insulin.", [("started_medication", "metformin")]),
        (
            "im on sertraline, propranolol and omeprazole atm",
            [("started_medication", m) for m in ("omeprazole", "propranolol", "sertraline")],
        ),
        # a medicine that starts a clause of its own is no item of the list
        ("I stopped the insulin, metformin is enough now.", [("stopped_medication", "insulin")]),
        ("I came off citalopram, sertraline now.", [("stopped_medication", "citalopram")]),
        ("I stopped sertraline and propranolol helped.", [("stopped_medication", "sertraline")]),
        ("I'm on sertraline, ibuprofen didn't help.", [("started_medication", "sertraline")]),
        ("im on sertraline and propranolol might get added next month", [("started_medication", "sertraline")]),
        (
            "I stopped taking melatonin and ibuprofen.",
            [("stopped_medication", "ibuprofen"), ("stopped_medication", "melatonin")],
        ),
    ],
)
def test_medicines_said(text: str, expected: list[tuple[str, str]]) -> None:
    assert medicines(text) == expected
