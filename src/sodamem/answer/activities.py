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
from sodamem.records import FactRecord

# a pastime over, in words the yes/no reader does not take as an ending
_OVER = re.compile(
    r"\b(?:finished|ended|is\s+over|was\s+over|switched\s+to|no\s+more|done\s+with|not\s+for\s+me|kicked\s+off|"
    r"for\s+good|haven['’]?t\s+been|gave\s+(?:it|that)\s+up|sold\s+my)\b",
    re.IGNORECASE,
)
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
_PASTIME_OR_CLUB = PASTIMES | _CLUB_WORDS


@dataclass(frozen=True, slots=True)
class Activities:
    """The pastimes that hold (latest first) and the facts that say them."""

    names: tuple[str, ...]
    cited: tuple[FactRecord, ...]


def asks_for_activities(question: str) -> bool:
    return ASKS_ACTIVITY.search(question) is not None


def is_pastime(what: str) -> bool:
    """Whether words name a pastime: a short phrase ending in one of ``PASTIMES`` or a club word that has one
    ("bouldering", "tennis lessons", "the university choir", "running with a club"); a club or a course word alone
    is not enough ("a ten-week course", "the team" at work), nor a doing with its own object ("painting the living
    room", "cooking dinner", "watching football"), a role ("the football club as their treasurer"), someone ("Tom for
    tennis") or a noun the pastime word only qualifies ("a fishing tackle business")."""
    words = [_bare(w) for w in what.split()]
    if words and words[0] in _DETERMINERS:
        words = words[1:]
    if not words or what.split()[-len(words)][:1].isupper() or "as" in words:
        return False
    last = max((i for i, w in enumerate(words) if w in _PASTIME_OR_CLUB), default=None)
    if last is None or not any(w in PASTIMES for w in words[: last + 1]) or last > 3:
        return False
    first = words[0]
    if first.endswith("ing") and first not in PASTIMES and first not in _LEADING_DOINGS:
        return False  # "watching football"
    after = words[last + 1] if last + 1 < len(words) else None
    gerund_then = [w for w in words[: last + 1] if w.endswith("ing") and w in PASTIMES]
    if gerund_then and words.index(gerund_then[0]) < last and words[words.index(gerund_then[0]) + 1] not in _CLUB_WORDS:
        return False  # "drawing up plans"
    return after is None or after in _GOES_ON


_DETERMINERS = frozenset("a an the my our some".split())
_LEADING_DOINGS = frozenset("learning playing doing taking".split())
# what may follow a pastime's last word: where, with whom, when (not "painting the ...", "fishing tackle ...")
_GOES_ON = frozenset(
    """with at in on near for from and every twice once each after before again too instead now lately recently btw
    lol properly regularly weekly this these last""".split()
)


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
    if words and words[0].lower() in _DETERMINERS:
        words = words[1:]
    last = max((i for i, w in enumerate(words) if _bare(w) in _PASTIME_OR_CLUB), default=len(words) - 1)
    return " ".join(words[: last + 1])


def _bare(word: str) -> str:
    return re.sub(r"[^\w-]", "", word.lower())


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
        if overlap(words, s.text) and (says_it_ended(s.text, question, described) or _OVER.search(s.text))
    ]
    return any(
        s.speaker == speaker
        and instants.sort_key(fact.mentioned_at) <= instants.sort_key(s.hit.timestamp)
        and instants.at_or_before(s.hit.timestamp, now)
        for s in endings
    )
