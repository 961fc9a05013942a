"""Turn lines cut to the sentences that match the question (``retrieve.focus``), and packs built from them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory
from sodamem.bench.metrics import count_tokens
from sodamem.errors import InputError
from sodamem.ingest.pieces import split_pieces
from sodamem.records import SearchHit
from sodamem.retrieve.focus import focus_items, focus_span
from sodamem.retrieve.pack import EvidenceItem
from tests.conftest import make_session

LONG_TURN = (
    "Work has been hectic with the quarterly reports piling up on my desk. "
    "Last weekend I finally went hiking at Mount Tam with my sister. "
    "We saw a family of deer near the summit trail. "
    "Anyway, how has your week been going so far?"
)


def hit(text: str, start: int = 0, end: int | None = None, turn_index: int = 0) -> SearchHit:
    end = len(text) if end is None else end
    return SearchHit("s1", turn_index, f"s1:{turn_index}", "Ana", start, end, "2024-03-01T10:00:00",
                     text[start:end], 1.0, text)  # fmt: skip


def turn_item(text: str, turn_index: int = 0, item_id: str = "E1") -> EvidenceItem:
    return EvidenceItem(item_id, "turn", "s1", turn_index, f"s1:{turn_index}", "Ana", 0, len(text),
                        "2024-03-01T10:00:00", text, 1.0)  # fmt: skip


def test_a_long_turn_keeps_the_sentence_that_matches_the_question() -> None:
    [item] = focus_items([turn_item(LONG_TURN)], [hit(LONG_TURN)], "Where did Ana go hiking?", 20, count_tokens)
    assert item.text.startswith("Last weekend I finally went hiking at Mount Tam")
    assert "quarterly reports" not in item.text and count_tokens(item.text) <= 20
    assert LONG_TURN[item.char_start : item.char_end] == item.text  # still a literal span of the turn


def test_the_cap_grows_the_run_by_the_better_matching_neighbour() -> None:
    [item] = focus_items([turn_item(LONG_TURN)], [hit(LONG_TURN)], "What did Ana see hiking near the summit?", 30,
                         count_tokens)  # fmt: skip
    assert item.text == "Last weekend I finally went hiking at Mount Tam with my sister. " + (
        "We saw a family of deer near the summit trail."
    )


def test_time_words_are_resolved_from_the_words_kept() -> None:
    [whole] = [turn_item(LONG_TURN)]
    assert [r.expression.lower() for r in whole.times] == ["last weekend"]
    [cut] = focus_items([whole], [hit(LONG_TURN)], "Where did Ana go hiking?", 20, count_tokens)
    assert [r.expression.lower() for r in cut.times] == ["last weekend"]
    [other] = focus_items([whole], [hit(LONG_TURN)], "What reports piled up at work?", 16, count_tokens)
    assert "quarterly reports" in other.text and other.times == ()


def test_short_turns_facts_and_one_sentence_turns_pass_unchanged() -> None:
    short = turn_item("I moved to Lisbon. It is sunny.", item_id="E1")
    one_sentence = turn_item(" ".join(["word"] * 60) + ".", turn_index=1, item_id="E2")
    fact = EvidenceItem("E3", "fact", "s1", 0, "s1:0", "Ana", 0, 18, "2024-03-01T10:00:00", "Ana lives_in Lisbon",
                        0.5, status="active")  # fmt: skip
    hits = [hit(short.text), hit(one_sentence.text, turn_index=1)]
    assert focus_items([short, one_sentence, fact], hits, "Where does Ana live?", 20, count_tokens) == [
        short,
        one_sentence,
        fact,
    ]


def test_the_sentence_the_search_cited_wins_a_tie() -> None:
    text = "The cake was lovely. The cake was lovely too. The party ended late at night."
    second = split_pieces(text)[1]
    span = focus_span(text, {}, 5, count_tokens, cited=(second.char_start, second.char_end))
    assert text[span[0] : span[1]] == second.text


sentences = st.lists(
    st.lists(st.sampled_from(["hike", "deer", "cake", "work", "report", "sister", "trail", "the", "a"]), min_size=1,
             max_size=12).map(lambda words: " ".join(words).capitalize() + "."),
    min_size=1, max_size=8,
)  # fmt: skip


@given(sentences, st.sampled_from(["hike", "deer", "cake", "report"]), st.integers(min_value=1, max_value=40))
def test_the_kept_run_is_whole_sentences_holding_the_best_one_within_the_cap(
    parts: list[str], word: str, cap: int
) -> None:
    text = " ".join(parts)
    pieces = split_pieces(text)
    start, end = focus_span(text, {word: 1.0}, cap, count_tokens)
    starts, ends = {p.char_start for p in pieces}, {p.char_end for p in pieces}
    assert start in starts and end in ends and start < end
    kept = [p for p in pieces if start <= p.char_start and p.char_end <= end]
    if len(pieces) > 1:
        assert len(kept) == 1 or count_tokens(" ".join(p.text for p in kept)) <= cap
        holds = [word in p.text.lower().rstrip(".").split() for p in pieces]
        assert not any(holds) or any(word in p.text.lower().rstrip(".").split() for p in kept)


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    memory = Memory(tmp_path / "memory.db")
    memory.ingest([make_session("s1", [LONG_TURN, "Sounds like a lovely walk."], when="2024-03-04T10:00")])
    yield memory
    memory.close()


def test_memory_evidence_cuts_long_lines_and_their_citations_re_read(mem: Memory) -> None:
    now = datetime(2024, 6, 1)
    whole = mem.evidence("Where did I hike?", budget_tokens=500, now=now)
    cut = mem.evidence("Where did I hike?", budget_tokens=500, now=now, focus_tokens=20)
    [long_whole] = [i for i in whole.items if i.kind == "turn" and "Mount Tam" in i.text]
    [long_cut] = [i for i in cut.items if i.kind == "turn" and "Mount Tam" in i.text]
    assert long_whole.text == LONG_TURN and "quarterly" not in long_cut.text
    assert mem.turn(long_cut.turn_id).text[long_cut.char_start : long_cut.char_end] == long_cut.text
    assert "[Last weekend = 2024-03-02..2024-03-03]" in cut.render_text() and cut.used_tokens < whole.used_tokens
    with pytest.raises(InputError, match="focus_tokens"):
        mem.evidence("Where did I hike?", focus_tokens=0)
