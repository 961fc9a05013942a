"""Query analysis: what a question names (entities, a time window) and what it asks (history, a date).

``analyze_query`` is pure except for the optional entity lookup in the store. Decisions:

* ``window``: the time the question names, resolved against ``now`` by the ingestion time module
  (:func:`sodamem.ingest.timeparse.find_times`), so a question and a turn read "two months ago" alike. Questions are
  about the past unless they carry future cues (will, going to, next, planning, ...; timeparse infers the direction
  from the text). Several mentions give their hull ("between March and June"); vague ones ("recently") count only
  when nothing more precise is named.
* ``history_intent``: the question asks about an earlier state or a change, so superseded facts stay in
  ("used to", "before", "previously", "prior", "formerly", "originally", "initially", "at first", "first",
  "changed", "switched", "anymore", "no longer", "in the past"). "still" is *not* a cue: "does she still live
  in Leeds?" is answered by the active fact, which already says whether she moved.
* ``asks_when``: the answer is a time ("when", "what date/day/year/month...", "how long (ago)", "how many days
  ago", "since when").
* ``gathers``: the question collects several items, usually said in different sessions ("how many", "both",
  "in common", "what/which <plural noun>": "Which cities has John been to?", "What kinds of games ..."). A plural
  is a word of 4+ letters ending in a single "s" within two words of what/which; "what is/was" are not cues.
* ``entities``: the user's entities whose name or alias (``entity_aliases`` keys, i.e. ``entity_key`` forms) equals
  a run of whole words of the question, case-insensitive, possessives folded ("Caroline's" finds Caroline, and
  "Caroline's sister" also finds whoever is known by that alias). A match inside a longer match is dropped
  ("York" inside "New York City") unless it is a possessive owner. Capitalised words no alias explains also find
  entities whose name contains that word ("Jon" -> "Jon Snow") through ``entities_fts``: ``exact=False``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sodamem.errors import InputError
from sodamem.ingest.entities import entity_key
from sodamem.ingest.timeparse import TimeMention, find_times
from sodamem.model import TimeGranularity, TimeSpec
from sodamem.retrieve.fts_query import STOPWORDS, query_terms
from sodamem.store.in_lists import chunked
from sodamem.store.protocol import EntityLookups

MAX_NGRAM = 6  # longest entity name, in words, looked up as a whole

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")
_POSSESSIVE = re.compile(r"[’']s$", re.IGNORECASE)
_UNIT = r"(?:hours?|days?|weeks?|weekends?|months?|years?|decades?)"
_HISTORY = re.compile(
    r"\b(?:used\s+to|use\s+to|before|previous(?:ly)?|prior|formerly|former|original(?:ly)?|initial(?:ly)?|at\s+first"
    r"|first|chang(?:e|ed|es|ing)|switch(?:ed|es)?|anymore|any\s+more|no\s+longer|any\s+longer"
    rf"|in\s+the\s+past(?!\s+(?:[\w-]+\s+)?{_UNIT}\b))\b",
    re.IGNORECASE,
)
_WHEN = re.compile(
    r"\b(?:when|since\s+when|(?:what|which)\s+(?:exact\s+)?(?:dates?|day|time|week|weekend|month|year|season|decade)"
    rf"|how\s+long(?:\s+ago)?|how\s+many\s+{_UNIT}(?:\s+ago)?|how\s+recently|how\s+(?:soon|often)\s+after)\b",
    re.IGNORECASE,
)
_GATHERS = re.compile(
    r"\b(?:how\s+many|both|in\s+common|(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?"
    r"(?:[a-z-]+\s+){0,2}?[a-z-]{3,}(?<!s)s\b(?!\s+(?:is|was)\b))",
    re.IGNORECASE,
)
_GRANULARITY_ORDER = {g: i for i, g in enumerate(TimeGranularity)}


@dataclass(frozen=True, slots=True)
class EntityMatch:
    entity_pk: int
    name: str  # the entity's canonical name
    matched: str  # the question's words that named it, possessive dropped ("Caroline" for "Caroline's")
    char_start: int  # question[char_start:char_end] == matched
    char_end: int
    exact: bool = True  # a whole name or alias; False: one word of a longer name ("Jon" for "Jon Snow")


@dataclass(frozen=True, slots=True)
class QueryAnalysis:
    text: str
    terms: tuple[str, ...]  # fts_query.query_terms(text)
    content_terms: tuple[str, ...]  # terms outside time expressions and when-phrases (all terms if none is left)
    window: TimeSpec | None  # the time the question names, resolved against ``now``
    times: tuple[TimeMention, ...]  # every time expression found in the question
    history_intent: bool
    history_cues: tuple[str, ...]  # the words that set history_intent, lower-cased
    asks_when: bool
    gathers: bool
    entities: tuple[EntityMatch, ...]


def analyze_query(
    text: str,
    now: datetime,
    store: EntityLookups | None = None,
    user: str = "default",
    *,
    asker: str | None = None,
) -> QueryAnalysis:
    """Analyse ``text`` asked at ``now``; with ``store``, also find the entities of ``user`` it names. ``asker``: the
    speaker whose "I", "me" and "my" the question's are (an agent passing its user's question on), named then too."""
    times = tuple(find_times(text, now))
    terms = tuple(query_terms(text))
    when = list(_WHEN.finditer(text))
    blanked = _blank(text, [(m.char_start, m.char_end) for m in times] + [m.span() for m in when])
    content = tuple(t for t in query_terms(blanked) if t in terms)
    cues = tuple(dict.fromkeys(" ".join(m.group().lower().split()) for m in _HISTORY.finditer(text)))
    return QueryAnalysis(
        text=text,
        terms=terms,
        content_terms=content or terms,
        window=question_window(list(times)),
        times=times,
        history_intent=bool(cues),
        history_cues=cues,
        asks_when=bool(when),
        gathers=_GATHERS.search(text) is not None,
        entities=find_entities(store, user, text, asker=asker) if store is not None else (),
    )


def require_words(text: str, field: str) -> None:
    """Refuse, naming ``field``, a query or question without a letter or digit ("", "   ", "???"): nothing in it
    can be searched for, and hits ranked by the memory's priors alone would answer a question nobody asked."""
    if not any(c.isalnum() for c in text):
        raise InputError(f"has no words to search for: {text!r}", field=field)


def when_cues(text: str) -> list[tuple[int, int]]:
    """The character spans of ``text``'s words that ask for a time ("when", "which month", "how long ago"): the
    cues of ``QueryAnalysis.asks_when``."""
    return [m.span() for m in _WHEN.finditer(text)]


def question_window(mentions: list[TimeMention]) -> TimeSpec | None:
    """One window for the question's time mentions: the hull of the precise ones, else of the vague ones."""
    precise = [m for m in mentions if m.spec.granularity is not TimeGranularity.VAGUE]
    chosen = precise or mentions
    if not chosen:
        return None
    if len(chosen) == 1:
        return chosen[0].spec
    return TimeSpec(
        start=min(m.spec.start for m in chosen),
        end=max(m.spec.end for m in chosen),
        granularity=max((m.spec.granularity for m in chosen), key=_GRANULARITY_ORDER.__getitem__),
        expression=" … ".join(m.spec.expression for m in chosen),
    )


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


# -- entities -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Candidate:
    key: str
    first: int  # word indexes, inclusive-exclusive
    last: int
    char_start: int
    char_end: int
    possessive_owner: bool  # the run ended in "'s" and the key is the owner's name


def find_entities(store: EntityLookups, user: str, text: str, *, asker: str | None = None) -> tuple[EntityMatch, ...]:
    """Entities of ``user`` named in ``text``, in text order, each once; with ``asker``, its first-person pronouns
    name the entity of that speaker."""
    words = list(_WORD.finditer(text))
    candidates = _candidates(text, words)
    keys = sorted({c.key for c in candidates})
    found: dict[str, int] = {}
    for chunk in chunked(keys):
        found.update(store.entity_pks_by_key(user, chunk))
    hits = [c for c in candidates if c.key in found]
    kept = [
        c
        for c in hits
        if c.possessive_owner
        or not any(
            o is not c and o.first <= c.first and c.last <= o.last and (o.first, o.last) != (c.first, c.last)
            for o in hits
        )
    ]
    kept.sort(key=lambda c: (c.char_start, -(c.char_end - c.char_start)))
    names = store.entity_names(user, sorted({found[c.key] for c in kept}))
    matches: dict[int, EntityMatch] = {}
    for c in kept:
        pk = found[c.key]
        if pk not in matches:
            matches[pk] = EntityMatch(pk, names[pk], text[c.char_start : c.char_end], c.char_start, c.char_end)
    covered = {i for c in hits for i in range(c.first, c.last)}
    for match in _partial(store, user, text, words, covered):
        matches.setdefault(match.entity_pk, match)
    pronoun = _first_person(text) if asker is not None else None
    if pronoun is not None and asker is not None:
        own = store.entity_pks_by_key(user, [entity_key(asker)]).get(entity_key(asker))
        if own is not None and own not in matches:
            matches[own] = EntityMatch(
                own, store.entity_names(user, [own])[own], pronoun.group(), pronoun.start(), pronoun.end()
            )
    return tuple(sorted(matches.values(), key=lambda m: (m.char_start, not m.exact)))


# The asker's own words for themself ("I" only as a capital: "i" is no pronoun in a question written with care) ...
_FIRST_PERSON = re.compile(r"\bI\b|\b(?i:me|my|mine|myself)\b")
# ... but in one typed all in lower case it is: "where do i work?"
_LOWER_I = re.compile(r"(?<![\w'’.-])i(?=\s|['’](?:m|ve|d|ll)\b)")


def _first_person(text: str) -> re.Match[str] | None:
    return _FIRST_PERSON.search(text) or (_LOWER_I.search(text) if text == text.lower() else None)


def _candidates(text: str, words: list[re.Match[str]]) -> list[_Candidate]:
    out: list[_Candidate] = []
    for first in range(len(words)):
        for last in range(first + 1, min(first + MAX_NGRAM, len(words)) + 1):
            start, end = words[first].start(), words[last - 1].end()
            possessive = _POSSESSIVE.search(words[last - 1].group())
            variants = [(end, False)]
            if possessive is not None:
                variants.append((end - 2, True))
            for stop, owner in variants:
                key = entity_key(text[start:stop])
                if key and not all(w in STOPWORDS for w in key.split()) and len(key) > 1:
                    out.append(_Candidate(key, first, last, start, stop, owner))
    return out


def _partial(
    store: EntityLookups, user: str, text: str, words: list[re.Match[str]], covered: set[int]
) -> list[EntityMatch]:
    """Capitalised words (not sentence-initial stopwords) that are one word of a longer entity name."""
    out: list[EntityMatch] = []
    for i, word in enumerate(words):
        token = _POSSESSIVE.sub("", word.group())
        if i in covered or not token[:1].isupper() or token.lower() in STOPWORDS or len(token) < 2:
            continue
        ranked = store.entities_named_with(user, token, 20)
        names = store.entity_names(user, ranked)
        for pk, name in ((pk, names[pk]) for pk in ranked if pk in names):
            if token.casefold() in (w.casefold() for w in _WORD.findall(str(name))):
                out.append(EntityMatch(int(pk), str(name), token, word.start(), word.start() + len(token), False))
    return out
