"""The retrieval benchmark end to end: LongMemEval/LoCoMo loaders, hand-computed summaries, the runner and the CLI.

Fixtures are tiny hand-written data sets of the real shapes (see ../shared/data/README.md); nothing here needs the
real data or a language model (``FakeEmbedder`` stands in for the dense systems).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sodamem.bench.locomo import LocomoNotes, load_locomo
from sodamem.bench.longmemeval import KS as LME_KS
from sodamem.bench.longmemeval import LongMemEvalNotes, load_longmemeval
from sodamem.bench.metrics import count_tokens
from sodamem.bench.report import OVERALL, SessionRule, render_markdown, run_to_json, summarise
from sodamem.bench.runner import SYSTEMS, BenchQuestion, BenchRun, BenchUnit, QuestionResult, run_retrieval
from sodamem.cli import main
from sodamem.embed import FakeEmbedder
from sodamem.store.sqlite import turn_embedding_text

# =============================================================================================== fixtures (data)


def _u(content: str, *, has_answer: bool | None = None) -> dict[str, Any]:
    turn: dict[str, Any] = {"role": "user", "content": content}
    if has_answer is not None:
        turn["has_answer"] = has_answer
    return turn


def _a(content: str, *, has_answer: bool | None = None) -> dict[str, Any]:
    turn: dict[str, Any] = {"role": "assistant", "content": content}
    if has_answer is not None:
        turn["has_answer"] = has_answer
    return turn


LME_DATA: list[dict[str, Any]] = [
    {
        "question_id": "lme_single",
        "question_type": "single-session-user",
        "question": "What name did I give the golden retriever puppy I adopted?",
        "answer": "Biscuit",
        "question_date": "2023/06/01 (Thu) 09:15",
        "haystack_session_ids": ["s_pasta", "s_puppy", "s_travel", "s_bot"],
        "haystack_dates": [
            "2023/05/18 (Thu) 19:02",
            "2023/05/20 (Sat) 10:30",
            "2023/05/25 (Thu) 08:45",
            "2023/05/30 (Tue) 23:40",
        ],
        "haystack_sessions": [
            [
                _u("Can you suggest a pasta recipe with mushrooms and spinach?"),
                _a("Try a creamy mushroom and spinach penne."),
                _u("I would rather keep it vegetarian and quick."),
            ],
            [
                _u("I adopted a golden retriever puppy last weekend and named him Biscuit.", has_answer=True),
                _a("Congratulations! Golden retrievers are wonderful with families.", has_answer=False),
                _u("He keeps chewing on my slippers, any advice?", has_answer=False),
                _a("Offer chew toys and praise him when he uses them."),
            ],
            [
                _a("Hello! How can I help you plan your trip?"),
                _u("What should I pack for a week in Lisbon in spring?"),
                _a("Light layers, comfortable shoes and a rain jacket."),
                _u("Thanks, I will also visit Porto for two days."),
            ],
            # no user turn at all: not a document
            [_a("Is there anything else I can help with?"), _a("Feel free to ask any time.")],
        ],
        "answer_session_ids": ["s_puppy"],
    },
    {
        "question_id": "lme_multi",
        "question_type": "multi-session",
        "question": "How many cello lessons and workshops have I signed up for?",
        "answer": "2",
        "question_date": "2023/04/10 (Mon) 12:00",
        "haystack_session_ids": ["m_lessons", "m_bread", "m_workshop", "m_scales"],
        "haystack_dates": [
            "2023/01/09 (Mon) 18:20",
            "2023/02/05 (Sun) 08:00",
            "2023/02/14 (Tue) 21:10",
            "2023/03/01 (Wed) 07:30",
        ],
        "haystack_sessions": [
            [
                _u("I started learning the cello in January."),
                _a("That is a lovely instrument to learn."),
                _u("I booked weekly cello lessons with Ms. Ortega.", has_answer=True),
            ],
            # a has_answer user turn outside the answer sessions: not relevant
            [_u("I bake sourdough bread every Sunday morning.", has_answer=True), _a("Sourdough takes patience!")],
            [
                _a("Welcome back!"),
                _u("I bought a second-hand violin for my nephew."),
                _a("What a kind gift."),
                _u("I also signed up for a weekend cello workshop in March.", has_answer=True),
            ],
            # an answer session whose only has_answer turn is the assistant's: not relevant
            [_u("Any tips for practising scales?"), _a("Practise slowly with a metronome.", has_answer=True)],
        ],
        "answer_session_ids": ["m_lessons", "m_workshop", "m_scales"],
    },
    {
        "question_id": "lme_pet_abs",
        "question_type": "single-session-user",
        "question": "What name did I give my cat?",
        "answer": "You did not mention a cat; you mentioned adopting a puppy.",
        "question_date": "2023/06/02 (Fri) 10:00",
        "haystack_session_ids": ["p_puppy", "p_garden", "p_books"],
        "haystack_dates": ["2023/05/20 (Sat) 10:30", "2023/05/21 (Sun) 16:00", "2023/05/22 (Mon) 20:45"],
        "haystack_sessions": [
            [_u("I adopted a puppy named Biscuit.", has_answer=True), _a("Congratulations!")],
            [_u("My tomatoes are finally turning red."), _a("Great, harvest them soon.")],
            [_u("Recommend me a mystery novel."), _a("Try The Moonstone by Wilkie Collins.")],
        ],
        "answer_session_ids": ["p_puppy"],
    },
    {
        "question_id": "lme_noev",
        "question_type": "temporal-reasoning",
        "question": "How many days passed between my dentist appointment and my haircut?",
        "answer": "7 days",
        "question_date": "2023/07/01 (Sat) 11:00",
        "haystack_session_ids": ["n_dentist", "n_haircut", "n_movies"],
        "haystack_dates": ["2023/06/01 (Thu) 09:00", "2023/06/08 (Thu) 17:30", "2023/06/10 (Sat) 20:00"],
        "haystack_sessions": [
            [_u("I had a dentist appointment this morning."), _a("I hope it went well.")],
            [_u("I just got a haircut, it is much shorter now."), _a("Sounds refreshing!")],
            [_u("Which movie should I watch tonight?"), _a("How about a comedy?")],
        ],
        "answer_session_ids": ["n_dentist", "n_haircut"],  # but no has_answer flag anywhere
    },
]

LOCOMO_DATA: list[dict[str, Any]] = [
    {
        "sample_id": "conv-t1",
        "conversation": {
            "speaker_a": "Alice",
            "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Alice", "dia_id": "D1:1", "text": "I finally repaired the old bicycle from the garage."},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice! Are you going to ride it to work?"},
                {
                    "speaker": "Alice",
                    "dia_id": "D1:3",
                    "text": "My grandfather restores antique harpsichords in his workshop in Ghent.",
                },
                {
                    "speaker": "Bob",
                    "dia_id": "D1:4",
                    "text": "Here is a picture from my hike on Saturday.",
                    "img_url": ["https://example.invalid/hike.jpg"],
                    "blip_caption": "a photo of a waterfall in a mossy forest",
                    "query": "waterfall",
                },
            ],
            "session_2_date_time": "10:00 am on 12 May, 2023",
            "session_2": [
                {"speaker": "Bob", "dia_id": "D2:1", "text": "I adopted a grey kitten called Pepper yesterday."},
                {"speaker": "Alice", "dia_id": "D2:2", "text": "I start my new job at the observatory next Monday."},
                {"speaker": "Bob", "dia_id": "D2:3", "text": "Good luck, tell me how the first week goes."},
            ],
            "session_3_date_time": "9:00 am on 20 May, 2023",
            "session_3": [],  # empty session: skipped
        },
        "qa": [
            {
                "question": "Who restores antique harpsichords?",
                "answer": "Alice's grandfather",
                "evidence": ["D1:3"],
                "category": 4,
            },
            {
                "question": "What did Alice repair, and what does her grandfather restore?",
                "answer": "a bicycle, antique harpsichords",
                "evidence": ["D1:1; D1:3"],  # malformed: two ids in one string
                "category": 1,
            },
            {
                "question": "When does Alice start her job at the observatory?",
                "answer": "The Monday after 12 May 2023",
                "evidence": ["D", "D2:2"],  # 'D' does not parse
                "category": 2,
            },
            {
                "question": "What kind of music might Alice's grandfather enjoy?",
                "answer": "Baroque music",
                "evidence": [],
                "category": 3,
            },
            {
                "question": "What is the name of Bob's kitten?",
                "answer": "Pepper",
                "evidence": ["D2:1", "D9:9"],  # D9:9 names no turn
                "category": 4,
            },
            {
                "question": "Who saw a waterfall in a mossy forest?",
                "answer": "Bob",
                "evidence": ["D1:4"],
                "category": 4,
            },
            {
                "question": "What is the name of Alice's kitten?",
                "adversarial_answer": "Pepper",
                "evidence": ["D2:1"],
                "category": 5,
            },
        ],
    },
    {
        "sample_id": "conv-t2",
        "conversation": {
            "speaker_a": "Chen",
            "speaker_b": "Dana",
            "session_4_date_time": "3:15 pm on 2 June, 2023",
            "session_4": [
                {"speaker": "Chen", "dia_id": "D4:1", "text": "I ran my first marathon in Rotterdam last Sunday."},
                {"speaker": "Dana", "dia_id": "D4:2", "text": "Amazing, what was your finishing time?"},
                {"speaker": "Chen", "dia_id": "D4:3", "text": "Four hours and twelve minutes, slower than I hoped."},
            ],
        },
        "qa": [
            {
                "question": "Where did Chen run his first marathon?",
                "answer": "Rotterdam",
                "evidence": ["D4:1"],
                "category": 4,
            }
        ],
    },
]


@pytest.fixture
def lme_path(tmp_path: Path) -> Path:
    path = tmp_path / "longmemeval_tiny.json"
    path.write_text(json.dumps(LME_DATA), "utf-8")
    return path


@pytest.fixture
def locomo_path(tmp_path: Path) -> Path:
    path = tmp_path / "locomo_tiny.json"
    path.write_text(json.dumps(LOCOMO_DATA), "utf-8")
    return path


def _questions(units: Sequence[BenchUnit]) -> dict[str, BenchQuestion]:
    return {q.qid: q for u in units for q in u.questions}


def _doc_ids(unit: BenchUnit) -> list[str]:
    return [t.turn_id for s in unit.sessions for t in s.turns if t.turn_id is not None]


# =============================================================================================== LongMemEval loader


def test_longmemeval_turn_granularity_indexes_user_turns_with_original_positions(lme_path: Path) -> None:
    units, notes = load_longmemeval(lme_path, "turn")
    assert [u.unit_id for u in units] == ["lme_single", "lme_multi", "lme_pet_abs", "lme_noev"]
    single = units[0]
    # s_bot has no user turn and is no document; the rest keep their haystack order
    assert [s.session_id for s in single.sessions] == ["s_pasta", "s_puppy", "s_travel"]
    assert [s.timestamp for s in single.sessions] == [
        datetime(2023, 5, 18, 19, 2),
        datetime(2023, 5, 20, 10, 30),
        datetime(2023, 5, 25, 8, 45),
    ]
    # ids number the turns as they stand in the session, assistant turns included (s_travel starts with one)
    assert _doc_ids(single) == ["s_pasta_1", "s_pasta_3", "s_puppy_1", "s_puppy_3", "s_travel_2", "s_travel_4"]
    for session in single.sessions:
        assert [t.index for t in session.turns] == list(range(len(session.turns)))
        assert {t.speaker for t in session.turns} == {"user"}
    travel = single.sessions[2]
    assert [t.text for t in travel.turns] == [
        "What should I pack for a week in Lisbon in spring?",
        "Thanks, I will also visit Porto for two days.",
    ]
    indexed = " ".join(t.text for s in single.sessions for t in s.turns)
    assert "Golden retrievers are wonderful" not in indexed  # assistant text never indexed

    q = _questions(units)
    assert q["lme_single"].relevant_turns == ("s_puppy_1",)
    assert q["lme_single"].relevant_sessions == ("s_puppy",)
    assert (q["lme_single"].category, q["lme_single"].answer, q["lme_single"].scored) == (
        "single-session-user",
        "Biscuit",
        True,
    )
    # m_bread: has_answer but not an answer session; m_scales: answer session, has_answer only on the assistant
    assert q["lme_multi"].relevant_turns == ("m_lessons_3", "m_workshop_4")
    assert q["lme_multi"].relevant_sessions == ("m_lessons", "m_workshop")
    assert q["lme_multi"].scored

    abstention = q["lme_pet_abs"]
    assert not abstention.scored and abstention.answer is None
    assert abstention.relevant_turns == ("p_puppy_1",)  # evidence kept; it is the _abs id that unscored it
    no_evidence = q["lme_noev"]
    assert not no_evidence.scored
    assert no_evidence.relevant_turns == () and no_evidence.relevant_sessions == ()
    assert notes == LongMemEvalNotes(questions=4, abstention=1, without_evidence=1)


def test_longmemeval_session_granularity_joins_user_turns(lme_path: Path) -> None:
    units, notes = load_longmemeval(lme_path, "session")
    single, multi = units[0], units[1]
    assert _doc_ids(single) == ["s_pasta", "s_puppy", "s_travel"]
    for session in single.sessions:
        assert len(session.turns) == 1 and session.turns[0].turn_id == session.session_id
    assert single.sessions[0].turns[0].text == (
        "Can you suggest a pasta recipe with mushrooms and spinach? I would rather keep it vegetarian and quick."
    )
    assert single.sessions[2].turns[0].text == (
        "What should I pack for a week in Lisbon in spring? Thanks, I will also visit Porto for two days."
    )
    assert _doc_ids(multi) == ["m_lessons", "m_bread", "m_workshop", "m_scales"]
    q = _questions(units)
    # at session level the ranked documents are sessions, so the relevant ids are the sessions too
    assert q["lme_single"].relevant_turns == q["lme_single"].relevant_sessions == ("s_puppy",)
    assert q["lme_multi"].relevant_turns == ("m_lessons", "m_workshop")
    assert [q[i].scored for i in ("lme_single", "lme_multi", "lme_pet_abs", "lme_noev")] == [True, True, False, False]
    assert notes == LongMemEvalNotes(questions=4, abstention=1, without_evidence=1)


# =============================================================================================== hand-computed summary


def _result(
    qid: str,
    category: str,
    relevant: tuple[str, ...],
    ranked: dict[str, list[str]],
    *,
    tokens: dict[str, dict[int, int]],
    latency: dict[str, float],
    contained: dict[str, dict[int, bool]] | None = None,
    answer: str | None = None,
    scored: bool = True,
) -> QuestionResult:
    """Document ids are ``<session>/<turn>``; the session of a ranked id is its prefix."""
    sessions = tuple(dict.fromkeys(r.split("/")[0] for r in relevant))
    question = BenchQuestion(qid, f"question {qid}", category, answer, relevant, sessions, scored=scored)
    return QuestionResult(
        question=question,
        unit_id="u",
        ranked=ranked,
        ranked_sessions={s: [i.split("/")[0] for i in ids] for s, ids in ranked.items()},
        tokens_at_k=tokens,
        contained=contained or {},
        latency_ms=latency,
    )


KS = (1, 2, 3, 5)


def _hand_run() -> BenchRun:
    q1 = _result(  # category x; one relevant turn S1/t1
        "q1",
        "x",
        ("S1/t1",),
        {
            "A": ["S2/u1", "S1/t1", "S2/u2", "S3/u3", "S4/u4"],
            "B": ["S1/t1", "S2/u1", "S2/u2", "S3/u3", "S4/u4"],
        },
        tokens={"A": {1: 10, 2: 20, 3: 30, 5: 50}, "B": {1: 1, 2: 2, 3: 3, 5: 5}},
        latency={"A": 5.0, "B": 2.0},
        contained={"A": {100: True}, "B": {100: True}},
        answer="ans1",
    )
    q2 = _result(  # category y; relevant S1/r1 and S3/r2
        "q2",
        "y",
        ("S1/r1", "S3/r2"),
        {
            "A": ["S1/a", "S1/b", "S1/r1", "S2/c", "S3/r2"],
            "B": ["S3/r2", "S1/r1", "S1/a", "S1/b", "S2/c"],
        },
        tokens={"A": {1: 4, 2: 8, 3: 12, 5: 20}, "B": {1: 3, 2: 6, 3: 9, 5: 15}},
        latency={"A": 1.0, "B": 4.0},
        answer=None,  # no answer: no containment entry
    )
    q3 = _result(  # category x; no reachable relevant id (LoCoMo's empty / unreachable evidence)
        "q3",
        "x",
        (),
        {"A": ["S1/p", "S2/q"], "B": ["S2/q", "S1/p"]},
        tokens={"A": {1: 7, 2: 14, 3: 14, 5: 14}, "B": {1: 8, 2: 16, 3: 16, 5: 16}},
        latency={"A": 3.0, "B": 6.0},
        contained={"A": {100: False}, "B": {100: True}},
        answer="ans3",
    )
    q4 = _result(  # category z; unscored (adversarial / abstention)
        "q4",
        "z",
        ("S9/t9",),
        {"A": ["S9/t9", "S1/x"], "B": ["S1/x", "S9/t9"]},
        tokens={"A": {1: 1000, 2: 1000, 3: 1000, 5: 1000}, "B": {1: 1000, 2: 1000, 3: 1000, 5: 1000}},
        latency={"A": 999.0, "B": 999.0},
        contained={"A": {100: True}, "B": {100: True}},
        answer="ans4",
        scored=False,
    )
    return BenchRun(dataset="hand", systems=("A", "B"), ks=KS, budgets=(100,), results=[q1, q2, q3, q4], embedder=None)


LOG2_3, LOG2_5 = math.log2(3), math.log2(5)


def test_summary_turn_level_metrics_by_hand() -> None:
    summary = summarise(_hand_run())
    assert set(summary) == {"A", "B"}
    # q4 is unscored: no group "z"; q3 (empty relevant set) still forms its category with q1
    assert set(summary["A"]) == {OVERALL, "x", "y"}
    a = summary["A"][OVERALL]
    assert a.questions == 2  # q1, q2 (q3 has nothing relevant, q4 unscored)
    # A: q1 relevant at rank 2; q2 relevant at ranks 3 and 5
    assert a.recall_any == {1: 0.0, 2: 0.5, 3: 1.0, 5: 1.0}
    assert a.recall_all == {1: 0.0, 2: 0.5, 3: 0.5, 5: 1.0}
    # nDCG (rank 1 as is, rank i >= 2 divided by log2 i; so rank 2 weighs 1 too):
    #   q1: @1 0, @2+ 1/1 = 1.   q2 (ideal = 1 + 1 = 2): @1 0, @2 0, @3 (1/log2 3)/2 = 0.3155,
    #   @5 (1/log2 3 + 1/log2 5)/2 = 0.5308.
    assert a.ndcg_any[1] == 0.0
    assert a.ndcg_any[2] == pytest.approx(0.5)
    assert a.ndcg_any[3] == pytest.approx((1 + (1 / LOG2_3) / 2) / 2)  # 0.6577
    assert a.ndcg_any[5] == pytest.approx((1 + (1 / LOG2_3 + 1 / LOG2_5) / 2) / 2)  # 0.7654
    b = summary["B"][OVERALL]
    assert b.questions == 2
    assert b.recall_any == {1: 1.0, 2: 1.0, 3: 1.0, 5: 1.0}
    assert b.recall_all == {1: 0.5, 2: 1.0, 3: 1.0, 5: 1.0}
    # q2 for B: ranks 1 and 2 -> (1 + 1/log2 2) / 2 = 1 at k >= 2; at k = 1: 1 / min(2, 1) = 1
    assert b.ndcg_any == pytest.approx({1: 1.0, 2: 1.0, 3: 1.0, 5: 1.0})
    # per category: x holds q1 (and q3, which has nothing to score), y holds q2
    ax, ay = summary["A"]["x"], summary["A"]["y"]
    assert (ax.questions, ay.questions) == (1, 1)
    assert ax.recall_any == {1: 0.0, 2: 1.0, 3: 1.0, 5: 1.0}
    assert ay.recall_all == {1: 0.0, 2: 0.0, 3: 0.0, 5: 1.0}
    assert ay.ndcg_any[3] == pytest.approx(1 / LOG2_3 / 2)


def test_summary_session_level_rules_by_hand() -> None:
    run = _hand_run()
    # A, sessions in rank order: q1 S2 S1 S2 S3 S4 (relevant S1); q2 S1 S1 S1 S2 S3 (relevant S1, S3)
    topk = summarise(run, session_rule="topk-turns")["A"][OVERALL]
    # topk-turns: sessions of the top-k turns. q1: {S2} {S2,S1} ... ; q2: {S1} {S1} {S1} {S1,S2,S3}
    assert topk.session_recall_any == {1: 0.5, 2: 1.0, 3: 1.0, 5: 1.0}
    assert topk.session_recall_all == {1: 0.0, 2: 0.5, 3: 0.5, 5: 1.0}
    widen = summarise(run, session_rule="widen")["A"][OVERALL]
    # widen: go down the ranking until k distinct sessions. q2 at k=2: [S1, S2]; at k=3: [S1, S2, S3] (rank 5)
    assert widen.session_recall_any == {1: 0.5, 2: 1.0, 3: 1.0, 5: 1.0}
    assert widen.session_recall_all == {1: 0.0, 2: 0.5, 3: 1.0, 5: 1.0}
    # B, q2: S3 S1 ... -> both sessions within the first two turns under either rule
    rules: tuple[SessionRule, ...] = ("topk-turns", "widen")
    for rule in rules:
        b = summarise(run, session_rule=rule)["B"][OVERALL]
        assert b.session_recall_all == {1: 0.5, 2: 1.0, 3: 1.0, 5: 1.0}


def test_summary_tokens_containment_latency_by_hand() -> None:
    summary = summarise(_hand_run())
    a, b = summary["A"][OVERALL], summary["B"][OVERALL]
    # tokens average over every scored question, q3 (empty relevant set) included, q4 (unscored) not
    assert a.tokens == pytest.approx({1: (10 + 4 + 7) / 3, 2: (20 + 8 + 14) / 3, 3: (30 + 12 + 14) / 3, 5: 28.0})
    assert b.tokens[5] == pytest.approx((5 + 15 + 16) / 3)
    # containment: only questions with an answer (q1, q3); q2 has none
    assert a.containment_questions == b.containment_questions == 2
    assert a.containment == {100: 0.5}
    assert b.containment == {100: 1.0}
    # latency over q1, q2, q3: A [1, 3, 5] -> p50 3, p95 5; B [2, 4, 6] -> p50 4, p95 6
    assert (a.latency_p50_ms, a.latency_p95_ms) == (3.0, 5.0)
    assert (b.latency_p50_ms, b.latency_p95_ms) == (4.0, 6.0)
    # category x = q1 + q3: A [3, 5] -> median 4; tokens include q3 though it has no relevant id
    ax = summary["A"]["x"]
    assert (ax.latency_p50_ms, ax.latency_p95_ms) == (4.0, 5.0)
    assert ax.tokens[1] == pytest.approx((10 + 7) / 2)
    assert ax.containment == {100: 0.5} and ax.containment_questions == 2
    # y = q2 only, which has no answer: containment over no question is 0.0, not NaN
    assert summary["A"]["y"].containment == {100: 0.0} and summary["A"]["y"].containment_questions == 0


@pytest.mark.parametrize("n", [1, 2, 3, 7, 20, 21, 100])
def test_latency_percentiles_definition(n: int) -> None:
    # p50 is the median (mean of the middle two for even n); p95 is the "higher" percentile: the smallest sample
    # at or above the 95 % position of (n - 1). For 1..20 that is 20; for 1..100 it is 96.
    latencies = [float(v) for v in range(n, 0, -1)]  # given in descending order: the summary must sort
    results = [
        _result(f"q{i}", "x", ("S1/t",), {"A": ["S1/t"]}, tokens={"A": {1: 1}}, latency={"A": ms})
        for i, ms in enumerate(latencies)
    ]
    run = BenchRun(dataset="lat", systems=("A",), ks=(1,), budgets=(), results=results, embedder=None)
    m = summarise(run)["A"][OVERALL]
    assert m.latency_p50_ms == pytest.approx(float(np.median(latencies)))
    assert m.latency_p95_ms == float(np.percentile(latencies, 95, method="higher"))
    assert m.latency_p95_ms == {1: 1.0, 2: 2.0, 3: 3.0, 7: 7.0, 20: 20.0, 21: 20.0, 100: 96.0}[n]


def test_summary_of_the_unscored_questions_alone() -> None:
    summary = summarise(_hand_run(), scored=False)
    # only q4 (category z): the questions kept out of the main figures are summarised apart
    assert set(summary["A"]) == {OVERALL, "z"}
    a, b = summary["A"][OVERALL], summary["B"][OVERALL]
    assert a.questions == b.questions == 1
    # A ranks S9/t9 first, B second
    assert a.recall_any == {1: 1.0, 2: 1.0, 3: 1.0, 5: 1.0}
    assert b.recall_any == {1: 0.0, 2: 1.0, 3: 1.0, 5: 1.0}
    assert b.ndcg_any == pytest.approx({1: 0.0, 2: 1.0, 3: 1.0, 5: 1.0})
    assert a.tokens[1] == 1000.0 and (a.latency_p50_ms, a.latency_p95_ms) == (999.0, 999.0)
    assert a.containment == {100: 1.0} and a.containment_questions == 1


# =============================================================================================== LoCoMo loader + runner


def test_locomo_loader_counts_quirks(locomo_path: Path) -> None:
    units, notes = load_locomo(locomo_path)
    assert notes == LocomoNotes(
        conversations=2,
        questions=8,
        empty_evidence=1,
        malformed_evidence_tokens=1,  # 'D'; 'D1:1; D1:3' is split, not malformed
        unreachable_evidence_ids=1,  # D9:9
        questions_without_answer=1,  # the adversarial one
        by_category={4: 4, 1: 1, 2: 1, 3: 1, 5: 1},
    )
    assert [s.session_id for s in units[0].sessions] == ["conv-t1_session_1", "conv-t1_session_2"]
    q = units[0].questions
    assert q[1].relevant_turns == ("D1:1", "D1:3") and q[1].relevant_sessions == ("conv-t1_session_1",)
    assert q[2].relevant_turns == ("D2:2",) and q[2].relevant_sessions == ("conv-t1_session_2",)
    assert q[3].relevant_turns == () and q[3].scored  # empty evidence: scored category, nothing to rank
    assert q[4].relevant_turns == ("D2:1",)
    assert q[6].category == "adversarial" and not q[6].scored and q[6].answer is None
    assert [x.category for x in q[:4]] == ["single-hop", "multi-hop", "temporal", "open-domain"]


@pytest.fixture(scope="module")
def embedder() -> FakeEmbedder:
    return FakeEmbedder()


def _check_rankings(run: BenchRun, units: Sequence[BenchUnit]) -> None:
    docs = {u.unit_id: {t.turn_id: s.session_id for s in u.sessions for t in s.turns} for u in units}
    assert len(run.results) == sum(len(u.questions) for u in units)
    for result in run.results:
        unit_docs = docs[result.unit_id]
        assert set(result.ranked) == set(run.systems)
        for system, ids in result.ranked.items():
            assert set(ids) <= set(unit_docs), (system, result.question.qid)
            assert len(ids) == len(set(ids)), (system, result.question.qid)
            assert result.ranked_sessions[system] == [unit_docs[i] for i in ids]
            assert set(result.tokens_at_k[system]) == set(run.ks)
            if system != "bm25":  # dense-based systems rank the whole (tiny) corpus
                assert len(ids) == len(unit_docs), (system, result.question.qid)
        assert (set(result.contained) == set(run.systems)) == (result.question.answer is not None)


def test_run_retrieval_on_locomo(locomo_path: Path, embedder: FakeEmbedder) -> None:
    units, _ = load_locomo(locomo_path)
    run = run_retrieval(units, dataset="LoCoMo", systems=SYSTEMS, ks=(1, 5, 10), embedder=embedder)
    assert run.embedder == "fake-64" and run.systems == SYSTEMS
    _check_rankings(run, units)
    by_qid = {r.question.qid: r for r in run.results}
    harpsichords, waterfall, marathon = by_qid["conv-t1#0"], by_qid["conv-t1#5"], by_qid["conv-t2#0"]
    assert harpsichords.ranked["bm25"][0] == "D1:3"
    assert waterfall.ranked["bm25"][0] == "D1:4"  # found through the image caption
    assert marathon.ranked["bm25"][0] == "D4:1"
    assert marathon.contained["bm25"] == {500: True, 1_000: True, 2_000: True}
    expected = turn_embedding_text(
        "Alice", "My grandfather restores antique harpsichords in his workshop in Ghent.", None
    )
    assert harpsichords.tokens_at_k["bm25"][1] == count_tokens(expected)
    for system in SYSTEMS:
        tokens = harpsichords.tokens_at_k[system]
        assert 0 < tokens[1] <= tokens[5] <= tokens[10]

    summary = summarise(run, session_rule="topk-turns")
    for system in SYSTEMS:
        overall = summary[system][OVERALL]
        assert overall.questions == 6  # 7 scored, minus the empty-evidence one
        assert overall.containment_questions == 7
        # conv-t1 has 7 turns, conv-t2 3: at k = 10 every turn is ranked by the dense-based systems
        if system != "bm25":
            assert overall.recall_all[10] == 1.0
        # the only open-domain question has empty evidence: the group exists but scores nothing
        assert summary[system]["open-domain"].questions == 0
        assert summary[system]["open-domain"].containment_questions == 1
    assert set(summary["bm25"]) == {OVERALL, "single-hop", "multi-hop", "temporal", "open-domain"}
    # every question here shares its key words with its evidence: bm25 finds each at rank 1 (multi-hop: top 2)
    assert summary["bm25"][OVERALL].recall_any[1] == 1.0
    assert summary["bm25"][OVERALL].recall_all[5] == 1.0
    assert summary["bm25"]["multi-hop"].recall_all[1] == 0.0

    run.notes = {"data": locomo_path.name}
    markdown = render_markdown(run, summary, "LoCoMo tiny")
    assert markdown.startswith("## LoCoMo tiny")
    for system in SYSTEMS:
        assert f"| {system} | 6 |" in markdown
    for k in run.ks:
        assert f"R_any@{k}" in markdown and f"R_all@{k}" in markdown
    assert "nDCG@10" in markdown and "contain@2000" in markdown
    assert "Per category" in markdown and "multi-hop" in markdown

    payload = json.loads(json.dumps(run_to_json(run, summary)))
    assert payload["systems"] == list(SYSTEMS) and payload["ks"] == [1, 5, 10]
    assert set(payload["metrics"]) == set(SYSTEMS)
    assert payload["metrics"]["bm25"][OVERALL]["questions"] == 6
    assert len(payload["questions"]) == len(run.results)
    for record, result in zip(payload["questions"], run.results, strict=True):
        assert record["qid"] == result.question.qid
        assert record["relevant"] == list(result.question.relevant_turns)
        assert set(record["ranked"]) == set(SYSTEMS)
        for system in SYSTEMS:
            assert record["ranked"][system] == result.ranked[system][:10]


@pytest.mark.parametrize("granularity", ["turn", "session"])
def test_run_retrieval_on_longmemeval(lme_path: Path, embedder: FakeEmbedder, granularity: str) -> None:
    units, notes = load_longmemeval(lme_path, "turn" if granularity == "turn" else "session")
    run = run_retrieval(units, dataset="LongMemEval", ks=LME_KS, embedder=embedder)
    _check_rankings(run, units)
    single = run.results[0]
    assert single.question.qid == "lme_single"
    assert single.ranked["bm25"][0] == ("s_puppy_1" if granularity == "turn" else "s_puppy")
    assert single.contained["bm25"][500] is True  # "Biscuit" is in the top document
    assert "lme_pet_abs" not in {r.question.qid for r in run.results if r.contained}  # abstention: no answer

    summary = summarise(run, session_rule="widen")
    for system in SYSTEMS:
        groups = summary[system]
        assert set(groups) == {OVERALL, "single-session-user", "multi-session"}
        assert groups[OVERALL].questions == 2
        assert groups[OVERALL].containment_questions == 2
        if system != "bm25":  # the dense-based systems rank every document of these tiny haystacks
            assert groups[OVERALL].recall_all[50] == groups[OVERALL].session_recall_all[50] == 1.0
        # session level, LongMemEval's rule, recomputed from the ranked sessions of the multi-session question
        multi = run.results[1]
        for k in LME_KS:
            top: list[str] = []
            for session in multi.ranked_sessions[system]:
                if session not in top:
                    top.append(session)
                if len(top) == k:
                    break
            expected = float({"m_lessons", "m_workshop"} <= set(top))
            assert groups["multi-session"].session_recall_all[k] == expected, (system, k)
    assert summary["bm25"]["single-session-user"].recall_any[1] == 1.0
    assert summary["bm25"]["single-session-user"].session_recall_any[1] == 1.0

    run.notes = {"granularity": granularity, **asdict(notes)}
    markdown = render_markdown(run, summary, "LME")
    for system in SYSTEMS:
        assert f"| {system} | 2 |" in markdown
    for k in LME_KS:
        assert f"R_any@{k}" in markdown
    payload = json.loads(json.dumps(run_to_json(run, summary)))
    assert [q["qid"] for q in payload["questions"]] == ["lme_single", "lme_multi", "lme_pet_abs", "lme_noev"]
    assert [q["scored"] for q in payload["questions"]] == [True, True, False, False]
    for record, result in zip(payload["questions"], run.results, strict=True):
        assert record["ranked"] == {s: result.ranked[s][:50] for s in SYSTEMS}


# =============================================================================================== CLI


def _bench(args: list[str]) -> None:
    main(["bench", *args])  # returns normally on success (standalone_mode=False)


def test_cli_bench_locomo_writes_json_report_and_plot(
    locomo_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, md, png = tmp_path / "out.json", tmp_path / "report.md", tmp_path / "plot.png"
    args = ["--embedder", "fake", "--no-cache", "--json", str(out), "--report", str(md), "--plot", str(png)]
    _bench(["locomo", "--data", str(locomo_path), *args])
    payload = json.loads(out.read_text("utf-8"))
    assert payload["dataset"] == "LoCoMo" and payload["embedder"] == "fake-64"
    assert payload["systems"] == list(SYSTEMS) and set(payload["metrics"]) == set(SYSTEMS)
    assert payload["ks"] == [1, 5, 10, 20]
    assert payload["notes"]["data"] == locomo_path.name
    assert payload["notes"]["malformed_evidence_tokens"] == 1 and payload["notes"]["empty_evidence"] == 1
    assert len(payload["questions"]) == 8
    # the adversarial question (its evidence D2:1 exists) is summarised apart, not in the main figures
    assert payload["metrics"]["bm25"][OVERALL]["questions"] == 6
    assert set(payload["unscored_metrics"]) == set(SYSTEMS)
    assert payload["unscored_metrics"]["bm25"][OVERALL]["questions"] == 1
    assert set(payload["unscored_metrics"]["bm25"]) == {OVERALL, "adversarial"}
    report = md.read_text("utf-8")
    assert report.startswith("# SodaMem retrieval benchmark") and "Notes: " in report
    assert "Reported separately (1 questions" in report
    assert all(f"| {s} |" in report for s in SYSTEMS)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "## LoCoMo" in capsys.readouterr().out


def test_cli_bench_longmemeval_turn(lme_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "lme.json"
    args = ["--granularity", "turn", "--embedder", "fake", "--no-cache", "--json", str(out)]
    _bench(["longmemeval", "--data", str(lme_path), *args])
    payload = json.loads(out.read_text("utf-8"))
    assert payload["dataset"] == "LongMemEval (turn)"
    assert payload["ks"] == list(LME_KS)
    assert set(payload["metrics"]) == set(SYSTEMS)
    assert payload["notes"]["abstention"] == 1 and payload["notes"]["without_evidence"] == 1
    assert payload["metrics"]["bm25"][OVERALL]["questions"] == 2
    # unscored: the abstention question (it has evidence) and the one without evidence (tokens only)
    unscored = payload["unscored_metrics"]["bm25"]
    assert set(unscored) == {OVERALL, "single-session-user", "temporal-reasoning"}
    assert unscored[OVERALL]["questions"] == 1 and unscored["temporal-reasoning"]["questions"] == 0
    assert unscored[OVERALL]["containment_questions"] == 1  # the abstention question has no answer
    first = payload["questions"][0]
    assert first["relevant"] == ["s_puppy_1"] and first["ranked"]["bm25"][0] == "s_puppy_1"


def test_cli_bench_without_embedder_runs_the_lexical_systems(locomo_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "bm25.json"
    _bench(["locomo", "--data", str(locomo_path), "--embedder", "none", "--json", str(out)])
    payload = json.loads(out.read_text("utf-8"))
    assert payload["systems"] == ["bm25", "sodamem"] and set(payload["metrics"]) == {"bm25", "sodamem"}
    assert payload["embedder"] is None
    assert all(set(q["ranked"]) == {"bm25", "sodamem"} for q in payload["questions"])


def test_cli_bench_dense_without_embedder_exits_2(locomo_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        _bench(["locomo", "--data", str(locomo_path), "--embedder", "none", "--system", "dense"])
    assert exc.value.code == 2
    assert "needs an embedder" in capsys.readouterr().err


def test_cli_bench_unreadable_data_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[{not json", "utf-8")
    for command in ("locomo", "longmemeval"):
        with pytest.raises(SystemExit) as exc:
            _bench([command, "--data", str(bad), "--embedder", "none"])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and "Traceback" not in err


@pytest.mark.parametrize(
    ("command", "payload"),
    [
        ("longmemeval", {"question_id": "q"}),  # an object, not a list: TypeError
        ("longmemeval", [{"question_id": "q", "question": "?"}]),  # no haystack: KeyError
        (
            "longmemeval",
            [
                {
                    "question_id": "q",
                    "question": "?",
                    "haystack_session_ids": ["s"],
                    "haystack_dates": ["yesterday"],  # ValueError from parse_longmemeval
                    "haystack_sessions": [[{"role": "user", "content": "hi"}]],
                }
            ],
        ),
        ("locomo", [{"sample_id": "c"}]),  # no conversation: KeyError
    ],
)
def test_cli_bench_malformed_data_exits_2(tmp_path: Path, command: str, payload: Any) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(payload), "utf-8")
    with pytest.raises(SystemExit) as exc:
        _bench([command, "--data", str(bad), "--embedder", "none"])
    assert exc.value.code == 2


def test_cli_bench_runs_a_variant_written_as_text(locomo_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "variant.json"
    off = "+".join(f"weight.{t}=0" for t in ("bm25", "bm25_piece", "dense_piece", "fact", "graph"))
    variant = f"sodamem:default+{off}"  # only the dense tunnel left
    args = ["--embedder", "fake", "--no-cache", "--system", "dense", "--system", "sodamem", "--system", variant]
    _bench(["locomo", "--data", str(locomo_path), *args, "--json", str(out)])
    payload = json.loads(out.read_text("utf-8"))
    assert payload["systems"] == ["dense", "sodamem", variant]
    questions = payload["questions"]
    # the dense tunnel alone keeps the flat dense order (the bonuses reorder; the set of ranked turns is the same)
    assert all(set(q["ranked"][variant]) == set(q["ranked"]["dense"]) for q in questions)
    assert any(q["ranked"][variant] != q["ranked"]["sodamem"] for q in questions)


@pytest.mark.parametrize(
    ("system", "message"),
    [
        ("sodamem:default+nope=1", "unknown setting 'nope'"),
        ("bm25:default", "one of bm25"),
        ("sodamem:no-such-preset", "unknown preset"),
    ],
)
def test_cli_bench_refuses_a_bad_variant(
    locomo_path: Path, system: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        _bench(["locomo", "--data", str(locomo_path), "--embedder", "none", "--system", system])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err
