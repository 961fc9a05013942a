"""The echo tunnel: the first evidence's rare words, scored purely and end to end on a small memory."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

import pytest

from sodamem import Memory, Session, Turn
from sodamem.embed.fake import FakeEmbedder
from sodamem.retrieve.echo import echo_ranking, seed_words
from sodamem.retrieve.presets import fused_settings


def test_seed_words_keep_the_rare_stems_with_their_idf() -> None:
    words = seed_words(["marshmallow", "famili", "unknown"], {"marshmallow": 2, "famili": 60}, 99, min_idf=2.0)
    assert words == {"marshmallow": pytest.approx(math.log(100 / 3))}  # famili: log(100 / 61) < 2; unknown: no df
    assert seed_words(["famili"], {"famili": 60}, 99, min_idf=0.0) == {"famili": pytest.approx(math.log(100 / 61))}


def test_echo_ranking_sums_the_idf_of_the_words_held_and_leaves_the_seed_out() -> None:
    words = {"marshmallow": 3.0, "stori": 1.5, "campfir": 2.0}
    candidates = {
        1: {"marshmallow", "stori", "campfir"},  # the seed
        2: {"marshmallow", "stori"},
        3: {"campfir"},
        4: {"stori"},
        5: {"hike"},  # holds none
        6: {"campfir", "other"},  # ties with 3: by turn id
    }
    ranking = echo_ranking(words, candidates, exclude={1}, limit=10)
    assert ranking == [(2, 4.5), (3, 2.0), (6, 2.0), (4, 1.5)]
    assert echo_ranking(words, candidates, exclude={1}, limit=2) == ranking[:2]
    assert echo_ranking({}, candidates, exclude=(), limit=10) == []


def test_echo_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        fused_settings("default+echo_seeds=0")
    with pytest.raises(ValueError):
        fused_settings("default+echo_min_idf=-1")
    assert fused_settings("default").density.weight("echo") == 1.5  # on by default, after rank 15
    assert fused_settings("default").echo_head == 15


def session(sid: str, day: int, lines: Sequence[tuple[str, str]]) -> Session:
    turns = tuple(Turn(i, who, text, f"{sid}:{i}") for i, (who, text) in enumerate(lines))
    return Session(sid, datetime(2024, 5, day), turns)


# The second camping trip says "marshmallows" and "stories" but none of the question's words, and other sessions
# fill the ranks with one of the question's words; Caroline's marshmallows are another speaker's.
HIKES = [
    session("a", 1, [("Melanie", "On family hikes we roast marshmallows and tell stories."), ("Caroline", "Cute!")]),
    session(
        "b", 2, [("Melanie", "We roasted marshmallows again and shared stories by the fire."), ("Caroline", "Fun")]
    ),
    session("c", 3, [("Caroline", "I roast marshmallows too."), ("Melanie", "Nice.")]),
    *(session(f"d{i}", 4 + i, [("Melanie", f"We love hikes, day {i}.")]) for i in range(8)),
]


def test_the_echo_tunnel_feeds_the_tail_with_turns_sharing_the_first_evidences_rare_words() -> None:
    question = "What does Melanie do with her family on hikes?"
    # No feedback words (the echo alone reaches the second trip), and no echo unless asked for.
    base = "default+tail_head=2+weight.bm25_prf=0+weight.echo=0"
    preset = base + "+weight.echo=1.0+echo_min_idf=1.0+echo_head=2"
    with Memory(":memory:", embedder=FakeEmbedder()) as memory:
        memory.ingest(HIKES)
        plain = memory.search(question, k=14, preset=base)
        echoed = memory.search(question, k=14, preset=preset)
        short = memory.search(question, k=2, preset=preset)
        other_speaker = memory.search(question, k=14, preset=preset + "+echo_same_speaker=false")
    assert [h.turn_text for h in echoed[:2]] == [h.turn_text for h in plain[:2]]  # the head is the default's
    assert [h.turn_text for h in short] == [h.turn_text for h in plain[:2]]  # a short search asks no echo
    assert not any("echo" in h.tunnels for h in short)
    reached = [h for h in echoed if "echo" in h.tunnels]
    assert [h.turn_text for h in reached] == ["We roasted marshmallows again and shared stories by the fire."]
    assert [h.turn_text for h in echoed].index(reached[0].turn_text) < [h.turn_text for h in plain].index(
        reached[0].turn_text
    )
    assert any(h.speaker == "Caroline" and "echo" in h.tunnels for h in other_speaker)


def test_echo_head_keeps_the_ranks_before_it_as_without_the_echo() -> None:
    question = "What does Melanie do with her family on hikes?"
    base = "default+tail_head=2+weight.bm25_prf=0+weight.echo=0"
    with Memory(":memory:", embedder=FakeEmbedder()) as memory:
        memory.ingest(HIKES)
        plain = [h.turn_text for h in memory.search(question, k=14, preset=base)]
        at_two = [
            h.turn_text
            for h in memory.search(question, k=14, preset=base + "+weight.echo=1.0+echo_min_idf=1.0+echo_head=2")
        ]
        deeper = memory.search(question, k=14, preset=base + "+weight.echo=1.0+echo_min_idf=1.0+echo_head=4")
        short = memory.search(question, k=4, preset=base + "+weight.echo=1.0+echo_min_idf=1.0+echo_head=4")
    assert [h.turn_text for h in deeper[:4]] == plain[:4]
    assert [h.turn_text for h in deeper[4:]] == [t for t in at_two if t not in plain[:4]][: len(deeper) - 4]
    assert [h.turn_text for h in short] == plain[:4] and not any("echo" in h.tunnels for h in short)
