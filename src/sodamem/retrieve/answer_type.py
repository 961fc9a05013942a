"""Answer-type expansion, the pure part: what kind of thing a list question asks for, and which turns name one.

"Which books has Melanie read?" asks for instances of *books*; the evidence names them ("Charlotte's Web") and
seldom says "book". So a list question's type phrase is read off the question (``answer_type``), every candidate
turn's mentions (named entities with their labels, and nouns; ``mentions.py`` finds them with spaCy) are compared
with it in embedding space, and a turn scores as its best mention (``type_ranking``). A named entity is also
compared through its label's description ("Titles of books, songs, etc." for WORK_OF_ART), so a title that the
embedder has never seen still matches "books"; a noun is compared by its own words ("clarinet" with
"instruments"). Nothing here knows any particular type: the type, the mentions and the label descriptions are all
compared by one embedder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from sodamem.retrieve.fts_query import STOPWORDS

# "what/which [kinds|types|sorts of] [up to two modifiers] <plural>", "how many <noun>": the words after the
# wh-word up to and including the plural head are the type phrase ("musical artists/bands", "LGBTQ+ events").
_TYPE_PHRASE = re.compile(
    r"\b(?:what|which)\s+(?:kinds?|types?|sorts?)\s+of\s+(?P<kind>(?:[\w+/-]+\s+){0,1}?[\w/-]{3,})\b"
    r"|\b(?:what|which)\s+"
    r"(?P<list>(?:[\w+/-]+\s+){0,2}?[\w/-]{3,}(?<!s)s)\b(?!\s+(?:is|was)\b)"
    r"|\bhow\s+many\s+(?P<count>(?:[\w+/-]+\s+){0,1}?[\w/-]{3,})\b",
    re.IGNORECASE,
)
# Words that may follow a wh-word yet are no type ("What does", "How many times").
_NOT_TYPES = frozenset({"times", "does", "has", "have", "was", "were", "is", "are", "did", "days", "years"})


@dataclass(frozen=True, slots=True)
class Mention:
    text: str  # the words of the turn that name something
    label: str  # a named-entity label (PERSON, GPE, WORK_OF_ART, ...) or "NOUN"


def answer_type(question: str) -> str | None:
    """The type phrase of a list question ("books" for "What books has Melanie read?"), or None."""
    for match in _TYPE_PHRASE.finditer(question):
        phrase = match.group("kind") or match.group("list") or match.group("count")
        words = [w for w in phrase.split() if w.lower() not in STOPWORDS]
        if words and words[-1].lower() not in _NOT_TYPES:
            return " ".join(words)
    return None


def type_ranking(
    turn_mentions: Mapping[int, Sequence[Mention]],
    affinity: Callable[[Mention], float],
    *,
    floor: float,
) -> list[tuple[int, float]]:
    """Turns ranked by their best mention's affinity to the type, best first (ties by turn id); turns whose best
    is below ``floor`` are left out, so the tunnel is silent where nothing of the type is named."""
    best = {pk: max((affinity(m) for m in ms), default=0.0) for pk, ms in turn_mentions.items()}
    return ranked_by_affinity(best, floor)


def ranked_by_affinity(best: Mapping[int, float], floor: float) -> list[tuple[int, float]]:
    """``(turn, best affinity)`` of the turns at or above ``floor``, best first (ties by turn id)."""
    return sorted(((pk, score) for pk, score in best.items() if score >= floor), key=lambda x: (-x[1], x[0]))


def type_bonus(affinity: Mapping[int, float], weight: float, floor: float) -> dict[int, float]:
    """A soft bonus for turns naming an instance of the type: ``weight`` times the best mention's affinity scaled
    from ``floor`` (0) to 1 (1); turns at or below the floor get none. A bonus only rescales what the tunnels
    found, so a typed turn no tunnel reached stays out."""
    if weight <= 0 or floor >= 1:
        return {}
    out = {}
    for pk, score in affinity.items():
        if score > floor:
            out[pk] = weight * min(1.0, (score - floor) / (1.0 - floor))
    return out


def mention_affinity(
    type_vector: np.ndarray, text_vectors: Mapping[str, np.ndarray], label_vectors: Mapping[str, np.ndarray]
) -> Callable[[Mention], float]:
    """Cosine of the type with the mention's words, or with its label's description if that is closer (vectors
    normalised). A mention whose words or label have no vector scores 0. Each cosine is taken once per distinct
    words or label: a list question's scope repeats the same few hundred words thousands of times."""
    text_scores = {text: float(v @ type_vector) for text, v in text_vectors.items()}
    label_scores = {label: float(v @ type_vector) for label, v in label_vectors.items()}

    def affinity(mention: Mention) -> float:
        own = text_scores.get(mention.text)
        label = label_scores.get(mention.label)
        if own is None:
            return 0.0 if label is None else label
        return own if label is None else max(own, label)

    return affinity
