"""Multi-hop tunnels: evidence about one entity gathered across every session, and turns naming instances of the
type a list question asks for.

**Entity tunnel** (``entity``). A multi-hop question is about someone ("What activities does Melanie partake
in?") and its evidence is spread over many sessions, each turn matching the question weakly. The tunnel's scope
is every turn about the question's entities: said by a speaker the question names, or naming a non-speaker
entity by its name or the alias the question used. Inside the scope the turns are ranked by the question alone
(BM25 and cosine, fused by reciprocal rank), so a turn competes with the entity's other turns, not with the
whole memory, and the scope's best turn of each session can be lifted ahead of a session's second and third
(``session_decay``): the evidence of a list sits one or two turns per session.

**Answer-type tunnel** (``answer_type``). Over the same scope (or every candidate turn when the question names
no entity), turns are ranked by how close their best mention comes to the question's type phrase
(``answer_type.py``, ``mentions.py``), as the store keeps them since ingest. It needs an embedder.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Mapping, Sequence

import numpy as np

from sodamem.embed.base import Embedder, Vectors
from sodamem.retrieve.answer_type import Mention, mention_affinity, type_ranking
from sodamem.retrieve.fusion import reciprocal_rank_fusion
from sodamem.retrieve.mentions import Annotator, describe_label
from sodamem.retrieve.query import EntityMatch
from sodamem.store.mentions import mention_text
from sodamem.store.protocol import MemoryStore, VectorSearch

LEXICAL_LIMIT = 5000  # BM25 rows read to rank a scope; a memory larger than this ranks its scope's best only
_MAX_KEPT = 200_000  # vectors remembered by text; beyond that the memo starts afresh
_WORDS = re.compile(r"[^\W_]+")


def entity_scope(
    store: MemoryStore,
    user: str,
    speakers: Collection[str],
    entities: Sequence[EntityMatch],
    speaker_entity_pks: Collection[int],
) -> list[int]:
    """Turns about the question's entities: every turn said by ``speakers`` (those the question names), and
    every turn naming another entity the question names exactly, by its name or the words the question used."""
    scope = set(store.turns_said_by(user, sorted(speakers)))
    spoken = {s.casefold() for s in speakers}
    for entity in entities:
        if not entity.exact or entity.entity_pk in speaker_entity_pks or entity.name.casefold() in spoken:
            continue
        phrases = {_phrase(entity.name), _phrase(entity.matched)} - {""}
        if phrases:
            scope.update(row.rowid for row in store.search_turns(user, " OR ".join(sorted(phrases)), LEXICAL_LIMIT))
    return sorted(scope)


def _phrase(name: str) -> str:
    words = _WORDS.findall(name.lower())
    return f'"{" ".join(words)}"' if words else ""


def rank_scope(
    scope: Collection[int],
    lexical: Sequence[tuple[int, float]],
    cosine: Mapping[int, float],
) -> list[tuple[int, float]]:
    """The scope's turns by reciprocal-rank fusion of the BM25 ranking and the cosines, both cut to the scope."""
    inside = set(scope)
    lexical_order = [pk for pk, _ in lexical if pk in inside]
    dense_order = [pk for pk, _ in sorted(cosine.items(), key=lambda x: (-x[1], x[0])) if pk in inside]
    return reciprocal_rank_fusion([lexical_order, dense_order])


def spread_sessions(
    ranking: Sequence[tuple[int, float]], session_of: Mapping[int, int], decay: float
) -> list[tuple[int, float]]:
    """``ranking`` with the i-th turn of each session (0 = its best) scored ``score * decay ** i`` and re-sorted:
    with decay < 1 each session's best turns come before any session's later ones. decay 1 changes nothing."""
    if decay >= 1.0:
        return list(ranking)
    seen: dict[int, int] = {}
    out = []
    for pk, score in ranking:
        session = session_of.get(pk, -pk)  # a turn without a session stands alone
        nth = seen.get(session, 0)
        seen[session] = nth + 1
        out.append((pk, score * decay**nth))
    out.sort(key=lambda x: (-x[1], x[0]))
    return out


def scope_cosines(index: VectorSearch, user: str, query: Vectors, scope: Sequence[int]) -> dict[int, float]:
    vectors = index.exact_vectors(user, "turns", list(scope))
    q = np.asarray(query, dtype=np.float32).reshape(-1)
    return {pk: float(v @ q) for pk, v in vectors.items()}


class TypeMatcher:
    """Answer-type rankings (``answer_type.py``) over the mentions the store holds for each turn (read at ingest,
    ``ingest/mentions.py``) and the memory's embedder. A turn stored without mentions is read by ``annotator``
    when there is one (else it names nothing); those, and the vectors of mention words and label descriptions,
    are kept by text in the process."""

    def __init__(self, embedder: Embedder, annotator: Annotator | None) -> None:
        self._embedder = embedder
        self._annotator = annotator
        self._vectors: dict[str, np.ndarray] = {}
        self._typed: dict[tuple[tuple[str, str], ...], tuple[Mention, ...]] = {}  # stored pairs as Mentions
        self._lock = threading.Lock()

    def mentions(self, store: MemoryStore, user: str, turn_pks: Sequence[int]) -> dict[int, tuple[Mention, ...]]:
        """What each of ``turn_pks`` names: stored, else read now (turns the store does not hold are left out)."""
        stored = store.turn_mentions(user, turn_pks)
        if len(self._typed) > _MAX_KEPT:
            self._typed = {}
        typed = self._typed
        found = {}
        for pk, pairs in stored.items():
            mentions = typed.get(pairs)
            if mentions is None:
                mentions = typed[pairs] = tuple(Mention(text, label) for text, label in pairs)
            found[pk] = mentions
        unread = [pk for pk in turn_pks if pk not in stored]
        if unread:
            texts = {pk: mention_text(t.text, t.caption) for pk, t in store.turn_texts(user, unread).items()}
            if self._annotator is None:
                found.update((pk, ()) for pk in texts)
            else:
                pks = list(texts)
                found.update(zip(pks, self._annotator.mentions([texts[pk] for pk in pks]), strict=True))
        return {pk: found[pk] for pk in turn_pks if pk in found}

    def rank(
        self, type_phrase: str, mentions: Mapping[int, Sequence[Mention]], floor: float
    ) -> list[tuple[int, float]]:
        return type_ranking(mentions, self._affinity(type_phrase, mentions), floor=floor)

    def best_affinity(self, type_phrase: str, mentions: Mapping[int, Sequence[Mention]]) -> dict[int, float]:
        """Each turn's best mention's affinity with the type phrase (0 for a turn naming nothing)."""
        affinity = self._affinity(type_phrase, mentions)
        return {pk: max((affinity(m) for m in ms), default=0.0) for pk, ms in mentions.items()}

    def _affinity(self, type_phrase: str, mentions: Mapping[int, Sequence[Mention]]) -> Callable[[Mention], float]:
        labels = sorted({m.label for ms in mentions.values() for m in ms if m.label != "NOUN"})
        descriptions = {label: describe_label(label) for label in labels}
        words = {m.text for ms in mentions.values() for m in ms}
        vectors = self._vectors_of([type_phrase, *words, *descriptions.values()])
        return mention_affinity(
            vectors[type_phrase],
            {w: vectors[w] for w in words},
            {label: vectors[d] for label, d in descriptions.items()},
        )

    def _vectors_of(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        with self._lock:
            new = [t for t in dict.fromkeys(texts) if t not in self._vectors]
            if len(self._vectors) + len(new) > _MAX_KEPT:
                self._vectors.clear()
                new = list(dict.fromkeys(texts))
            if new:
                for text, vector in zip(new, self._embedder.embed(new), strict=True):
                    v = np.asarray(vector, dtype=np.float32)
                    norm = float(np.linalg.norm(v))
                    self._vectors[text] = v / norm if norm > 0 else v
            return {t: self._vectors[t] for t in texts}
