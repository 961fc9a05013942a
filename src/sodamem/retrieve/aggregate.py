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
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from sodamem.embed.base import Embedder, Vectors
from sodamem.retrieve.answer_type import Mention, ranked_by_affinity
from sodamem.retrieve.fusion import reciprocal_rank_fusion
from sodamem.retrieve.mentions import Annotator, describe_label
from sodamem.retrieve.query import EntityMatch
from sodamem.store.mentions import mention_text
from sodamem.store.protocol import MemoryStore, VectorSearch

LEXICAL_LIMIT = 5000  # BM25 rows read to rank a scope; a memory larger than this ranks its scope's best only
# A speaker's latest turns that a scope takes: a list question reads every scoped turn's mentions, ~15 us each, so a
# memory where one person said 25,000 things paid ~0.4 s a list question for it (bench perf, 100k turns).
SPEAKER_SCOPE_LIMIT = 2000
_MAX_KEPT = 200_000  # vectors remembered by text; beyond that the memo starts afresh
_WORDS = re.compile(r"[^\W_]+")


def entity_scope(
    store: MemoryStore,
    user: str,
    speakers: Collection[str],
    entities: Sequence[EntityMatch],
    speaker_entity_pks: Collection[int],
) -> list[int]:
    """Turns about the question's entities: the latest ``SPEAKER_SCOPE_LIMIT`` turns said by ``speakers`` (those
    the question names), and every turn naming another entity the question names exactly, by its name or the words
    the question used (at most ``LEXICAL_LIMIT``)."""
    scope = set(store.turns_said_by(user, sorted(speakers), latest=SPEAKER_SCOPE_LIMIT))
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
    are kept by text in the process.

    A list question compares a few thousand mentions with its type: the words' unit vectors are kept as rows of one
    matrix and each stored turn's mentions as row numbers (``_Encoded``), so a question costs one matrix-vector
    product and a few array operations, not a Python call per mention. ``answer_type.type_ranking`` with
    ``mention_affinity`` is the same computation written per mention (``tests/test_retrieve_aggregate.py``)."""

    def __init__(self, embedder: Embedder, annotator: Annotator | None) -> None:
        self._embedder = embedder
        self._annotator = annotator
        self._vectors: dict[str, np.ndarray] = {}  # type phrases and label descriptions
        self._typed: dict[tuple[tuple[str, str], ...], tuple[Mention, ...]] = {}  # stored pairs as Mentions
        self._words = _WordMatrix()
        self._encoded: dict[int, _Encoded] = {}  # id of a tuple of _typed -> its rows (the tuple is held in it)
        self._labels: dict[str, int] = {}  # label -> its code (NOUN has none: a noun is compared by its words)
        self._lock = threading.Lock()

    def mentions(self, store: MemoryStore, user: str, turn_pks: Sequence[int]) -> dict[int, tuple[Mention, ...]]:
        """What each of ``turn_pks`` names: stored, else read now (turns the store does not hold are left out)."""
        stored = store.turn_mentions(user, turn_pks)
        if len(self._typed) > _MAX_KEPT:
            with self._lock:
                self._typed, self._encoded = {}, {}
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
        """Turns ranked by their best mention's affinity with the type phrase, those below ``floor`` left out."""
        return ranked_by_affinity(self.best_affinity(type_phrase, mentions), floor)

    def best_affinity(self, type_phrase: str, mentions: Mapping[int, Sequence[Mention]]) -> dict[int, float]:
        """Each turn's best mention's affinity with the type phrase (0 for a turn naming nothing)."""
        if not mentions:
            return {}
        with self._lock:
            words = self._words
            encoded = [self._encode(ms) for ms in mentions.values()]
            if self._words is not words:  # the word matrix started afresh midway: earlier rows name the old one
                encoded = [self._encode(ms) for ms in mentions.values()]
            labels = sorted(self._labels, key=self._labels.__getitem__)
            descriptions = [describe_label(label) for label in labels]
            vectors = self._phrase_vectors([type_phrase, *descriptions])
            type_vector = vectors[type_phrase]
            word_scores = self._words.matrix @ type_vector if self._words.rows else np.zeros(0, dtype=np.float32)
            # One slot per label code, and a last one for "no label" that never wins the max.
            label_scores = np.full(len(labels) + 1, -np.inf, dtype=np.float32)
            label_scores[: len(labels)] = [vectors[d] @ type_vector for d in descriptions]
        counts = np.array([len(e.rows) for e in encoded], dtype=np.int64)
        best = np.zeros(len(encoded), dtype=np.float64)
        named = np.flatnonzero(counts)
        if len(named):
            rows = np.concatenate([e.rows for e in encoded])
            codes = np.concatenate([e.labels for e in encoded])
            affinity = np.maximum(word_scores[rows], label_scores[np.where(codes < 0, len(labels), codes)])
            starts = np.concatenate([[0], np.cumsum(counts)[:-1]])[named]
            best[named] = np.maximum.reduceat(affinity, starts)
        return dict(zip(mentions, best.tolist(), strict=True))

    def _encode(self, mentions: Sequence[Mention]) -> _Encoded:
        """The word rows and label codes of one turn's mentions (kept for the tuples the store's pairs become)."""
        held = self._encoded.get(id(mentions))
        if held is not None and held.mentions is mentions:
            return held
        new_words = [m.text for m in mentions if m.text not in self._words.rows]
        if new_words:
            self._add_words(new_words)
        for m in mentions:
            if m.label != "NOUN" and m.label not in self._labels:
                self._labels[m.label] = len(self._labels)
        encoded = _Encoded(
            mentions,
            np.array([self._words.rows[m.text] for m in mentions], dtype=np.int64),
            np.array([self._labels.get(m.label, -1) if m.label != "NOUN" else -1 for m in mentions], dtype=np.int64),
        )
        if isinstance(mentions, tuple) and self._typed.get(_pairs(mentions)) is mentions:
            self._encoded[id(mentions)] = encoded  # a stored turn's: met again by every list question
        return encoded

    def _add_words(self, words: Sequence[str]) -> None:
        fresh = list(dict.fromkeys(words))
        if len(self._words.rows) + len(fresh) > _MAX_KEPT:  # start afresh: every encoding names old rows
            self._words = _WordMatrix()
            self._encoded = {}
        self._words.add(fresh, _unit_rows(self._embedder.embed(fresh)))

    def _phrase_vectors(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        new = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if len(self._vectors) + len(new) > _MAX_KEPT:
            self._vectors.clear()
            new = list(dict.fromkeys(texts))
        if new:
            for text, vector in zip(new, _unit_rows(self._embedder.embed(new)), strict=True):
                self._vectors[text] = vector
        return {t: self._vectors[t] for t in texts}


@dataclass(frozen=True, slots=True)
class _Encoded:
    mentions: Sequence[Mention]  # held, so that its id names it for as long as this entry lives
    rows: np.ndarray  # each mention's word row in the matrix
    labels: np.ndarray  # each mention's label code, -1 for none (a noun)


class _WordMatrix:
    """Unit vectors of words as the rows of one matrix, in the order the words came (grown by doubling)."""

    def __init__(self) -> None:
        self.rows: dict[str, int] = {}
        self._data = np.zeros((0, 0), dtype=np.float32)

    @property
    def matrix(self) -> np.ndarray:
        return self._data[: len(self.rows)]  # (0, 0) before the first word

    def add(self, words: Sequence[str], vectors: np.ndarray) -> None:
        needed = len(self.rows) + len(words)
        if needed > len(self._data) or self._data.shape[1] != vectors.shape[1]:
            grown = np.zeros((max(needed, 2 * len(self._data), 256), vectors.shape[1]), dtype=np.float32)
            if self.rows:
                grown[: len(self.rows)] = self.matrix
            self._data = grown
        self._data[len(self.rows) : needed] = vectors
        for word in words:
            self.rows[word] = len(self.rows)


def _pairs(mentions: Sequence[Mention]) -> tuple[tuple[str, str], ...]:
    return tuple((m.text, m.label) for m in mentions)


def _unit_rows(vectors: Vectors) -> np.ndarray:
    """``vectors`` as float32 rows of norm 1 (a zero row stays zero)."""
    rows = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.where(norms > 0, rows / np.where(norms > 0, norms, 1), rows).astype(np.float32)
