"""The multi-hop tunnels: the entity scope across sessions, ranking inside it, session spreading, and the
answer-type tunnel's wiring (with a stand-in annotator; one test loads the real spaCy model when installed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

import pytest

from sodamem import Memory, Session, Turn
from sodamem.embed.fake import FakeEmbedder
from sodamem.retrieve.aggregate import TypeMatcher, entity_scope, rank_scope, spread_sessions
from sodamem.retrieve.answer_type import Mention
from sodamem.retrieve.fused import fused_settings
from sodamem.retrieve.mentions import SpacyAnnotator, load_annotator, spacy_available
from sodamem.retrieve.query import analyze_query


def test_rank_scope_fuses_both_orders_and_keeps_only_the_scope() -> None:
    lexical = [(9, 5.0), (2, 4.0), (3, 1.0)]  # 9 is outside the scope
    cosine = {3: 0.9, 2: 0.5, 4: 0.4, 9: 0.99}
    ranking = rank_scope({2, 3, 4}, lexical, cosine)
    assert [pk for pk, _ in ranking][:2] in ([2, 3], [3, 2])  # each first in one order, second in the other
    assert {pk for pk, _ in ranking} == {2, 3, 4}
    assert rank_scope(set(), lexical, cosine) == []


def test_spread_sessions_puts_each_sessions_best_first() -> None:
    ranking = [(1, 1.0), (2, 0.9), (3, 0.8), (4, 0.5)]
    session_of = {1: 10, 2: 10, 3: 10, 4: 20}
    assert spread_sessions(ranking, session_of, 1.0) == ranking
    spread = spread_sessions(ranking, session_of, 0.5)
    assert [pk for pk, _ in spread] == [1, 4, 2, 3]  # 0.5 for session 20's best beats 0.45 for session 10's second
    assert dict(spread)[3] == pytest.approx(0.2)


def _sessions() -> list[Session]:
    lines = [
        ("Melanie", "I took the kids camping at the beach last weekend."),
        ("Caroline", "That sounds lovely! I went to a pride parade."),
        ("Melanie", "My friend Gina plays the violin beautifully."),
        ("Caroline", "Gina sounds talented."),
        ("Melanie", "I started learning the clarinet this spring."),
        ("Caroline", "Nice, I read a book about adoption."),
    ]
    return [
        Session(
            f"S{i // 2}",
            datetime(2023, 5, 1 + i),
            tuple(Turn(j, speaker, text, f"S{i // 2}:{j}") for j, (speaker, text) in enumerate(lines[i : i + 2])),
        )
        for i in range(0, len(lines), 2)
    ]


def test_entity_scope_takes_a_speakers_turns_and_every_turn_naming_another_entity(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest(_sessions())
        store, user = memory.store, memory.user
        texts = store.turn_texts(user, list(range(1, 100)))
        by_text = {t.text: pk for pk, t in texts.items()}
        speakers = store.speakers(user)
        speaker_pks = set(store.speaker_entities(user, speakers).values())
        melanie = entity_scope(store, user, {"Melanie"}, (), speaker_pks)
        assert {texts[pk].speaker for pk in melanie} == {"Melanie"} and len(melanie) == 3
        gina = analyze_query("What does Gina play?", datetime(2023, 6, 1), store, user).entities
        if not gina:  # the rules extractor must know Gina for the scope to reach her turns
            pytest.skip("the extractor made no entity for Gina")
        scope = entity_scope(store, user, set(), gina, speaker_pks)
        assert set(scope) == {by_text["My friend Gina plays the violin beautifully."], by_text["Gina sounds talented."]}


class _Annotator(SpacyAnnotator):
    """spaCy's place taken by a fixed table: which words of each text name what."""

    def __init__(self, table: Mapping[str, tuple[Mention, ...]]) -> None:
        self._table = table

    def mentions(self, texts: Sequence[str]) -> list[tuple[Mention, ...]]:
        return [next((m for key, m in self._table.items() if key in t), ()) for t in texts]

    def describe(self, label: str) -> str:
        return f"label {label}"


def test_answer_type_tunnel_reaches_turns_naming_an_instance(tmp_path: Path) -> None:
    table = {
        "clarinet": (Mention("clarinet", "NOUN"),),
        "violin": (Mention("violin", "NOUN"), Mention("Gina", "PERSON")),
        "camping": (Mention("beach", "NOUN"),),
    }
    # The fake embedder hashes texts: only identical texts are close, so "instruments" is made one of the words.
    table["clarinet"] = (Mention("instruments", "NOUN"),)
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest(_sessions())
        memory.searcher._types = TypeMatcher(FakeEmbedder(), _Annotator(table))
        when = datetime(2023, 6, 1)
        question = "What instruments does Melanie play?"
        on = memory.search(question, k=6, now=when)  # on by default
        off = memory.search(question, k=6, now=when, preset="default+weight.answer_type=0")
        clarinet = next(h for h in on if "clarinet" in h.text)
        assert "answer_type" in clarinet.tunnels
        assert all("answer_type" not in h.tunnels for h in off)
        assert all("answer_type" not in h.tunnels for h in on if "clarinet" not in h.text)


def test_entity_tunnel_is_fused_when_weighted(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest(_sessions())
        hits = memory.search(
            "What does Melanie like?", k=6, now=datetime(2023, 6, 1), preset="default+weight.entity=0.5"
        )
        reached = {h.text for h in hits if "entity" in h.tunnels}
        assert reached and all(h.speaker == "Melanie" for h in hits if h.text in reached)


def test_multi_hop_settings_are_checked() -> None:
    assert fused_settings("default+entity_session_decay=0.5").entity_session_decay == 0.5
    with pytest.raises(ValueError, match="entity_session_decay"):
        fused_settings("default+entity_session_decay=0")


@pytest.mark.skipif(not spacy_available(), reason="the types extra (spaCy) is not installed")
def test_spacy_annotator_names_entities_and_nouns() -> None:
    annotator = load_annotator()
    assert annotator is not None
    (mentions,) = annotator.mentions(["I played the clarinet in Paris with my friend Gina."])
    assert Mention("clarinet", "NOUN") in mentions
    assert Mention("Paris", "GPE") in mentions
    assert "books" in annotator.describe("WORK_OF_ART").lower()


def test_answer_type_bonus_lifts_candidates_naming_an_instance(tmp_path: Path) -> None:
    table = {"clarinet": (Mention("instruments", "NOUN"),)}  # the fake embedder: only equal texts are close
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest(_sessions())
        memory.searcher._types = TypeMatcher(FakeEmbedder(), _Annotator(table))
        when = datetime(2023, 6, 1)
        question = "What instruments does Melanie play?"
        on = memory.search(question, k=6, now=when, preset="default+weight.answer_type=0+answer_type_bonus=1.0")
        off = memory.search(question, k=6, now=when, preset="default+weight.answer_type=0")
        clarinet_on = next(h for h in on if "clarinet" in h.text)
        clarinet_off = next(h for h in off if "clarinet" in h.text)
        assert clarinet_on.score == pytest.approx(2 * clarinet_off.score)  # affinity 1: mass x (1 + 1.0)
