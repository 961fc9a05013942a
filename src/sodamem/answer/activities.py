"""The asker's hobbies and sports now ("What hobby am I doing these days?", "What sport do I do?"): what they said
they started, joined, signed up for or took up, that is a pastime by its words ("bouldering", "tennis lessons", "the
university choir"), less what a later sentence of theirs ended ("I officially quit derby", "I've given up on tennis",
"salsa is officially over"), latest first. A plan ("I'd like to start a course in January") or a start still ahead
is none yet.

Pure reading over the memory's facts and search; the endings are judged as ``still_holds`` judges "Do I still do
X?", so the two answers agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sodamem import instants
from sodamem.answer.spans import tokens
from sodamem.answer.still_holds import endings_of
from sodamem.answer.support import Sentence
from sodamem.memory import Memory
from sodamem.records import FactRecord

_KINDS = r"(?:sports?|hobby|hobbies|activit(?:y|ies)|pastimes?|class(?:es)?|lessons|instruments?)"
ASKS_ACTIVITY = re.compile(
    rf"^\s*(?:what|which)\s+(?:kind\s+of\s+)?{_KINDS}(?:\s+(?:or|and|/)\s+{_KINDS})?\s+"
    r"(?:am\s+I\s+(?:\w+\s+)?(?:doing|into|taking|playing)|do\s+I\s+(?:\w+\s+)?(?:do|play|practi[sc]e|take)"
    r"|have\s+I\s+(?:got|been\s+doing))\b"
    # "What do I do for exercise these days?"
    r"|^\s*what\s+do\s+I\s+do\s+(?:for\s+(?:exercise|fun|fitness|sport)|in\s+my\s+(?:free|spare)\s+time)\b",
    re.IGNORECASE,
)
_STARTS = frozenset({"started", "joined", "signed_up"})
# Pastimes by their words: sports, arts, crafts, music, and the words a club or a course is said by
PASTIMES = frozenset(
    """running jogging swimming cycling climbing bouldering hiking walking skating skiing snowboarding surfing rowing
    sailing kayaking canoeing paddleboarding diving fishing boxing fencing archery riding karate judo taekwondo jiujitsu
    kickboxing wrestling gymnastics yoga pilates crossfit weightlifting parkour tennis badminton squash padel pickleball
    golf football soccer rugby cricket hockey netball basketball volleyball baseball softball handball lacrosse
    curling bowling darts snooker pool chess bridge derby roller frisbee ultimate triathlon marathon orienteering
    dance dancing salsa tango ballet swing zumba bachata ballroom tap flamenco choir singing karaoke band orchestra
    guitar piano ukulele violin cello drums bass saxophone sax flute trumpet clarinet harp banjo mandolin accordion
    painting drawing sketching pottery ceramics sculpture knitting crochet crocheting sewing quilting embroidery
    weaving woodworking carving calligraphy photography gardening baking cooking birdwatching journaling writing
    poetry improv theatre theater acting drama astronomy origami scrapbooking beekeeping foraging""".split()
)
_CLUB_WORDS = frozenset("lessons lesson classes class course club league team practice training workshop".split())


@dataclass(frozen=True, slots=True)
class Activities:
    """The pastimes that hold (latest first) and the facts that say them."""

    names: tuple[str, ...]
    cited: tuple[FactRecord, ...]


def asks_for_activities(question: str) -> bool:
    return ASKS_ACTIVITY.search(question) is not None


def is_pastime(what: str) -> bool:
    """Whether words name a pastime: one of ``PASTIMES`` ("tennis lessons", "the university choir"); a club or a
    course word alone is not enough ("a ten-week course" could be anything, "the team" at work)."""
    return any(t.word in PASTIMES for t in tokens(what))


def current_activities(memory: Memory, user: str, speaker: str, now: datetime) -> Activities | None:
    """The speaker's pastimes that hold at ``now``, or None when they said they started none."""
    started = [
        f
        for f in memory.facts(subject=speaker, user=user, status="all")
        if f.predicate in _STARTS and f.affirms and f.object and is_pastime(f.object) and _begun(f, now)
    ]
    if not started:
        return None
    held: dict[str, FactRecord] = {}
    for fact in sorted(started, key=lambda f: instants.sort_key(f.mentioned_at), reverse=True):
        name = _short(fact.object or "")
        if name.casefold() in (n.casefold() for n in held) or _ended(memory, user, speaker, fact, name, now):
            continue
        held[name] = fact
    return Activities(tuple(held), tuple(held.values()))


def _begun(fact: FactRecord, now: datetime) -> bool:
    when = fact.occurred_start or fact.valid_from or fact.mentioned_at
    return instants.at_or_before(when, now) and instants.at_or_before(fact.mentioned_at, now)


def _short(what: str) -> str:
    """The pastime without its article and what follows its last pastime word: "tennis lessons", not "tennis lessons
    with a coach called Dorin"."""
    words = what.split()
    if words and words[0].lower() in ("a", "an", "the", "my", "our", "some"):
        words = words[1:]
    last = max((i for i, w in enumerate(words) if _bare(w) in PASTIMES | _CLUB_WORDS), default=len(words) - 1)
    return " ".join(words[: last + 1])


def _bare(word: str) -> str:
    return re.sub(r"[^\w-]", "", word.lower())


def _ended(memory: Memory, user: str, speaker: str, fact: FactRecord, name: str, now: datetime) -> bool:
    """Whether a sentence of the speaker's after the start ends the pastime, judged as "Do I still do <it>?"."""
    words = {t.stem for t in tokens(name) if t.word in PASTIMES}
    endings: list[Sentence] = endings_of(memory, user, f"Do I still do {name}?", now, words)
    return any(
        s.speaker == speaker
        and instants.sort_key(fact.mentioned_at) <= instants.sort_key(s.hit.timestamp)
        and instants.at_or_before(s.hit.timestamp, now)
        for s in endings
    )
