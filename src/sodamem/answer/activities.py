"""The asker's hobbies and sports now ("What hobby am I doing these days?", "What sport do I do?"): what they said
they started, joined, signed up for or took up, that is a pastime by its words ("bouldering", "tennis lessons", "the
university choir"), less what a later sentence of theirs ended ("I officially quit derby", "I've given up on tennis",
"salsa is officially over"), latest first. A plan ("I'd like to start a course in January") or a start still ahead
is none yet.

Pure reading over the memory's facts and search; the endings are judged as ``still_holds.endings_of`` judges "Do I
still do X?", so the two answers agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sodamem import instants
from sodamem.answer.evidence_view import overlap
from sodamem.answer.spans import tokens
from sodamem.answer.support import rank_sentences, word_weights
from sodamem.answer.yes_no import says_it_ended
from sodamem.memory import Memory
from sodamem.pastimes import PASTIMES, SPORTS, bare, is_pastime, pastime_name
from sodamem.records import FactRecord

# a pastime over, in words the yes/no reader does not take as an ending
_OVER = re.compile(
    r"\b(?:finished|ended|(?:is|was)\s+over|(?:is|was)\s+officially\s+over(?=\s*(?:[,.;:!?]|$))|switched\s+to"
    r"|no\s+more|done\s+with|not\s+for\s+me|kicked\s+off|"
    r"for\s+good|haven['’]?t\s+been|gave\s+(?:it|that)\s+up|sold\s+my)\b",
    re.IGNORECASE,
)
_NEXT_CLAUSE = re.compile(r"[,;:]|\s(?:and|but|so)\s")


def _over(words: set[str], sentence: str) -> bool:
    """Whether ``sentence`` says the pastime is over: named before the words that end it ("The salsa classes with
    Tom and Ana are finished", "tennis: done with it") or in their own clause ("done with pottery"); not a pastime
    named after, in another clause ("salsa is officially over, ... and I've started tennis lessons")."""
    for ended in _OVER.finditer(sentence):
        after = _NEXT_CLAUSE.split(sentence[ended.end() :], maxsplit=1)[0]
        if overlap(words, sentence[: ended.end()]) or overlap(words, after):
            return True
    return False


_KINDS = r"(?:sports?|hobby|hobbies|activit(?:y|ies)|pastimes?|class(?:es)?|lessons|instruments?)"
ASKS_ACTIVITY = re.compile(
    rf"^\s*(?:what|which)\s+(?:kind\s+of\s+)?{_KINDS}(?:\s+(?:or|and|/)\s+{_KINDS})?\s+"
    r"(?:am\s+I\s+(?:\w+\s+)?(?:doing|into|taking|playing)|do\s+I\s+(?:\w+\s+)?(?:do|play|practi[sc]e|take)"
    r"|have\s+I\s+(?:got|been\s+doing))\b"
    # "What do I do for exercise these days?"
    r"|^\s*what\s+do\s+I\s+do\s+(?:for\s+(?:exercise|fun|fitness|sport)|in\s+my\s+(?:free|spare)\s+time)\b",
    re.IGNORECASE,
)
# what a pastime is held by: begun ("I started bouldering") or kept up ("I play rugby", ``rules_pastimes``)
_STARTS = frozenset({"started", "joined", "signed_up", "practises"})


@dataclass(frozen=True, slots=True)
class Activities:
    """The pastimes that hold (latest first) and the facts that say them."""

    names: tuple[str, ...]
    cited: tuple[FactRecord, ...]


def asks_for_activities(question: str) -> bool:
    return ASKS_ACTIVITY.search(question) is not None


def asks_for_sports(question: str) -> bool:
    """ "What sports do I play?", "What do I do for exercise?": sports only, no pottery."""
    return _SPORT.search(question) is not None and _NOT_ONLY_SPORT.search(question) is None


_SPORT = re.compile(r"\b(?:sports?|exercise|fitness|workouts?)\b", re.IGNORECASE)
_NOT_ONLY_SPORT = re.compile(
    r"\b(?:hobby|hobbies|pastimes?|activit(?:y|ies)|class(?:es)?|lessons|instruments?)\b", re.IGNORECASE
)


def current_activities(
    memory: Memory, user: str, speaker: str, now: datetime, *, sports: bool = False
) -> Activities | None:
    """The speaker's pastimes (``sports``: their sports) that hold at ``now``, or None when they said they started
    or kept up none."""
    started = [
        f
        for f in memory.facts(subject=speaker, user=user, status="all")
        if f.predicate in _STARTS
        and f.affirms
        and f.object
        and is_pastime(f.object)
        and (not sports or any(bare(w) in SPORTS for w in pastime_name(f.object).split()))
        and _begun(f, now)
    ]
    if not started:
        return None
    held: dict[str, FactRecord] = {}
    for fact in sorted(started, key=lambda f: instants.sort_key(f.mentioned_at), reverse=True):
        name = pastime_name(fact.object or "")
        if name.casefold() in (n.casefold() for n in held) or _ended(memory, user, speaker, fact, name, now):
            continue
        held[name] = fact
    return Activities(tuple(held), tuple(held.values()))


def _begun(fact: FactRecord, now: datetime) -> bool:
    when = fact.occurred_start or fact.valid_from or fact.mentioned_at
    return instants.at_or_before(when, now) and instants.at_or_before(fact.mentioned_at, now)


def _ended(memory: Memory, user: str, speaker: str, fact: FactRecord, name: str, now: datetime) -> bool:
    """Whether a sentence of the speaker's after the start ends the pastime, judged as "Do I still do <it>?", or says
    it is over in other words ("the dance class finished in March", "tennis is not for me", "done with it")."""
    words = {t.stem for t in tokens(name) if t.word in PASTIMES}
    if not words:
        return False
    # one search for the pastime's words, its sentences judged as ``still_holds.endings_of`` judges them
    question, described = f"Do I still do {name}?", frozenset(words)
    found = memory.search(" ".join(sorted(words)), k=10, user=user, now=now)
    endings = [
        s
        for s in rank_sentences(words, found, word_weights(words, found))
        if overlap(words, s.text) and (says_it_ended(s.text, question, described) or _over(words, s.text))
    ]
    return any(
        s.speaker == speaker
        and instants.sort_key(fact.mentioned_at) <= instants.sort_key(s.hit.timestamp)
        and instants.at_or_before(s.hit.timestamp, now)
        for s in endings
    )
