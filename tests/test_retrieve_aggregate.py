"""The multi-hop tunnels: the entity scope across sessions, ranking inside it, session spreading, and the
answer-type tunnel's wiring and the mentions the store keeps for it (with a table standing in for spaCy; two tests
load the real spaCy model when installed)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem import Memory, Session, Turn
from sodamem.embed.fake import FakeEmbedder
from sodamem.retrieve import aggregate
from sodamem.retrieve.aggregate import TypeMatcher, entity_scope, rank_scope, spread_sessions
from sodamem.retrieve.answer_type import Mention, mention_affinity, type_ranking
from sodamem.retrieve.mentions import (
    LABEL_DESCRIPTIONS,
    describe_label,
    load_annotator,
    resolve_annotator,
    spacy_available,
)
from sodamem.retrieve.presets import fused_settings
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


def test_entity_scope_takes_only_a_speakers_latest_turns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory(tmp_path / "m.db", embedder="fake") as memory:
        memory.ingest(_sessions())
        store, user = memory.store, memory.user
        every = entity_scope(store, user, {"Melanie"}, (), set())
        monkeypatch.setattr(aggregate, "SPEAKER_SCOPE_LIMIT", 2)
        assert entity_scope(store, user, {"Melanie"}, (), set()) == every[-2:]


class _Annotator:
    """spaCy's place taken by a fixed table: which words of each text name what. Counts the texts it reads."""

    def __init__(self, table: Mapping[str, tuple[Mention, ...]]) -> None:
        self._table = table
        self.read: list[str] = []

    def mentions(self, texts: Sequence[str]) -> list[tuple[Mention, ...]]:
        self.read.extend(texts)
        return [next((m for key, m in self._table.items() if key in t), ()) for t in texts]


def test_answer_type_tunnel_reaches_turns_naming_an_instance(tmp_path: Path) -> None:
    table = {
        "clarinet": (Mention("clarinet", "NOUN"),),
        "violin": (Mention("violin", "NOUN"), Mention("Gina", "PERSON")),
        "camping": (Mention("beach", "NOUN"),),
    }
    # The fake embedder hashes texts: only identical texts are close, so "instruments" is made one of the words.
    table["clarinet"] = (Mention("instruments", "NOUN"),)
    with Memory(tmp_path / "m.db", embedder="fake", annotator=_Annotator(table)) as memory:
        memory.ingest(_sessions())
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


@pytest.mark.skipif(not spacy_available(), reason="the types extra (spaCy) is not installed")
def test_label_descriptions_are_spacys_own() -> None:
    import spacy

    annotator = load_annotator()
    assert annotator is not None
    labels = set(annotator._nlp.get_pipe("ner").labels)
    assert labels == set(LABEL_DESCRIPTIONS)
    assert all(LABEL_DESCRIPTIONS[label] == spacy.explain(label) for label in labels)


_INSTRUMENTS = {"clarinet": (Mention("instruments", "NOUN"),), "violin": (Mention("Gina", "PERSON"),)}
_QUESTION = "What instruments does Melanie play?"


def _typed_hits(memory: Memory) -> set[str]:
    return {h.text for h in memory.search(_QUESTION, k=6, now=datetime(2023, 6, 1)) if "answer_type" in h.tunnels}


def test_mentions_are_stored_with_the_turns_and_searches_read_no_text(memory_location: str) -> None:
    reader = _Annotator(_INSTRUMENTS)
    with Memory(memory_location, embedder="fake", annotator=reader) as memory:
        memory.ingest(_sessions())
        assert len(reader.read) == 6  # each stored turn read once, at ingest
        stored = memory.store.turn_mentions(memory.user, list(range(1, 100)))
        assert sorted(stored.values()) == sorted([(("instruments", "NOUN"),), (("Gina", "PERSON"),)] + [()] * 4)
        assert _typed_hits(memory) == {"I started learning the clarinet this spring."}
        assert len(reader.read) == 6  # the search read nothing
        memory.add("My violin teacher moved away.", session_id="S9", speaker="Melanie")
        assert reader.read[6:] == ["My violin teacher moved away."]  # an add reads its own turn only
        memory.forget(session_id="S2")  # the clarinet's session
        assert len(memory.store.turn_mentions(memory.user, list(range(1, 100)))) == 5
        assert _typed_hits(memory) == set()
    # Opened without spaCy, the stored mentions still serve the tunnel.
    with Memory(memory_location, annotator="none") as memory:
        memory.ingest([Session("S3", datetime(2023, 5, 9), (Turn(0, "Melanie", "I bought a clarinet case.", "S3:0"),))])
        assert len(memory.store.turn_mentions(memory.user, list(range(1, 100)))) == 5  # the new turn: none read
        assert _typed_hits(memory) == set()


def test_turns_stored_without_mentions_are_read_at_search_time(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake", annotator=None) as memory:
        memory.ingest(_sessions())
        assert memory.store.turn_mentions(memory.user, list(range(1, 100))) == {}
    reader = _Annotator(_INSTRUMENTS)
    with Memory(tmp_path / "m.db", annotator=reader) as memory:
        assert _typed_hits(memory) == {"I started learning the clarinet this spring."}
        assert "I started learning the clarinet this spring." in reader.read
        assert memory.store.turn_mentions(memory.user, list(range(1, 100))) == {}  # a search writes nothing
        memory.repair()  # reads what is missing
        assert len(memory.store.turn_mentions(memory.user, list(range(1, 100)))) == 6


def test_annotator_specs() -> None:
    assert resolve_annotator("none") is None and resolve_annotator(None) is None
    assert (resolve_annotator("auto") is None) is (not spacy_available())
    table = _Annotator({})
    assert resolve_annotator(table) is table
    with pytest.raises(ValueError, match="unknown annotator"):
        resolve_annotator("nltk")
    fake = resolve_annotator("fake")
    assert fake is not None
    assert fake.mentions(["Gina played the violin."]) == [
        (Mention("Gina", "PERSON"), Mention("played", "NOUN"), Mention("violin", "NOUN"))
    ]


def test_answer_type_bonus_lifts_candidates_naming_an_instance(tmp_path: Path) -> None:
    table = {"clarinet": (Mention("instruments", "NOUN"),)}  # the fake embedder: only equal texts are close
    with Memory(tmp_path / "m.db", embedder="fake", annotator=_Annotator(table)) as memory:
        memory.ingest(_sessions())
        when = datetime(2023, 6, 1)
        question = "What instruments does Melanie play?"
        on = memory.search(question, k=6, now=when, preset="default+weight.answer_type=0+answer_type_bonus=1.0")
        off = memory.search(question, k=6, now=when, preset="default+weight.answer_type=0")
        clarinet_on = next(h for h in on if "clarinet" in h.text)
        clarinet_off = next(h for h in off if "clarinet" in h.text)
        assert clarinet_on.score == pytest.approx(2 * clarinet_off.score)  # affinity 1: mass x (1 + 1.0)


@pytest.mark.skipif(not spacy_available(), reason="the types extra (spaCy) is not installed")
def test_spacy_loads_without_torch_and_torch_still_imports_afterwards() -> None:
    script = (
        "import sys\n"
        "from sodamem.retrieve.mentions import load_annotator\n"
        "(found,) = load_annotator().mentions(['I played the clarinet in Paris.'])\n"
        "assert 'torch' not in sys.modules, 'spaCy pulled torch in'\n"
        "import torch\n"
        "print(sorted(m.text for m in found), int(torch.ones(3).sum()))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.split() == ["['Paris',", "'clarinet']", "3"]


def test_without_mentions_the_tunnel_changes_nothing(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder="fake", annotator=None) as memory:
        memory.ingest(_sessions())
        when = datetime(2023, 6, 1)
        on = memory.search(_QUESTION, k=6, now=when)
        off = memory.search(_QUESTION, k=6, now=when, preset="default+weight.answer_type=0")
    assert [(h.text, h.score, h.tunnels) for h in on] == [(h.text, h.score, h.tunnels) for h in off]


@pytest.mark.skipif(not spacy_available(), reason="the types extra (spaCy) is not installed")
def test_an_add_does_not_load_spacy_but_ingest_does(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from sodamem import Memory\n"
        "from sodamem.retrieve import mentions\n"
        f"m = Memory({str(tmp_path / 'm.db')!r}, embedder='fake')\n"
        "m.add('I bought a clarinet in Paris.', session_id='s1', speaker='Ann')\n"
        "after_add = (mentions._loaded is not None, len(m.store.turn_mentions(m.user, list(range(1, 9)))))\n"
        "m.repair()\n"
        "after_repair = (mentions._loaded is not None, len(m.store.turn_mentions(m.user, list(range(1, 9)))))\n"
        "m.add('Then I went to Rome.', session_id='s1', speaker='Ann')\n"
        "print(after_add, after_repair, len(m.store.turn_mentions(m.user, list(range(1, 9)))))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip() == "(False, 0) (True, 1) 2"  # once loaded, adds store their turns' mentions


_WORDS = ("Charlotte's Web", "clarinet", "Boston", "violin", "pottery", "Nate", "tournament", "cake", "Paris", "dog")
_LABELS = ("NOUN", "PERSON", "GPE", "WORK_OF_ART", "ORG")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_LABELS)), max_size=6), min_size=1, max_size=12
    ),
    st.sampled_from(["books", "instruments", "cities", "musical artists"]),
    st.floats(0.0, 0.6),
)
def test_type_matcher_scores_as_the_per_mention_reference(
    turns: list[list[tuple[str, str]]], phrase: str, floor: float
) -> None:
    """TypeMatcher's array computation equals type_ranking with mention_affinity, one mention at a time, on the
    same unit vectors: the turns' best affinities, and the ranking (tuples the store gives, and other sequences)."""
    embedder = FakeEmbedder(dim=32)
    matcher = TypeMatcher(embedder, annotator=None)
    pairs = [tuple(turn) for turn in turns]
    stored = {
        pk: matcher._typed.setdefault(p, tuple(Mention(t, label) for t, label in p)) for pk, p in enumerate(pairs)
    }
    mentions: dict[int, Sequence[Mention]] = {**stored, len(pairs): [Mention("violin", "NOUN")]}  # a list: not kept

    def unit(text: str) -> np.ndarray:
        v = np.asarray(embedder.embed([text])[0], dtype=np.float32)
        return v / np.linalg.norm(v)

    words = {m.text for ms in mentions.values() for m in ms}
    labels = {m.label for ms in mentions.values() for m in ms if m.label != "NOUN"}
    affinity = mention_affinity(
        unit(phrase), {w: unit(w) for w in words}, {label: unit(describe_label(label)) for label in labels}
    )
    expected = type_ranking(mentions, affinity, floor=floor)
    for _ in range(2):  # the second time from the kept encodings
        best = matcher.best_affinity(phrase, mentions)
        reference = {pk: max((affinity(m) for m in ms), default=0.0) for pk, ms in mentions.items()}
        assert best.keys() == reference.keys()
        assert all(best[pk] == pytest.approx(reference[pk], abs=1e-6) for pk in best)
        ranked = matcher.rank(phrase, mentions, floor)
        assert [pk for pk, _ in ranked] == [pk for pk, _ in expected] or _near_ties(reference.values(), floor)


def _near_ties(values: Iterable[float], floor: float) -> bool:
    """Whether float32 rounding may order a ranking otherwise: two distinct scores within 1e-6, or one at the
    floor."""
    scores = sorted(set(values))
    return any(b - a < 1e-6 for a, b in itertools.pairwise(scores)) or any(abs(s - floor) < 1e-6 for s in scores)
