"""Whether a doing said ahead of time happened, for a yes/no question in the past: "Did I run the Porto half
marathon?" read from "signed up for the porto half marathon in november" is no "Yes" on its own.

What is asked is the question's own words less its verb ("porto", "half", "marathon"). A clause calls it off when a
cancelling word has it for its object, said by the speaker and not hedged: "had to cancel Japan", "skip the half
this year", "giving a talk instead of the poster"; not "went to japan but skipped kyoto" (asked: Japan), not "Tom
pulled out of Berlin", "almost cancelled Japan", "not cancelling Japan".

- The sentence that answers "Yes" calls it off: No.
- It says it as a plan (in the clause that names what is asked, a word of planning and a time word that lies ahead
  of when it was said: "going to a conference in lisbon in july", said in May): the latest later turn of the same
  speaker that names it decides: a clause there that calls it off answers No, citing it beside the plan; otherwise
  the "Yes" stands ("lisbon was amazing!"). No later turn: "not known (planned in May)", or "not yet (planned in
  november)" while its time is ahead.
- Questions about the cancelling, the booking or the telling ("Did I miss the bus?", "Did I sign up for ...?", "Did I
  tell you ...?") are left alone.

Reads the memory's search; the rest is pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sodamem import instants
from sodamem.answer.sentence_checks import stems_of
from sodamem.answer.spans import FILLER, tokens
from sodamem.answer.support import Sentence, rank_sentences, word_weights
from sodamem.ingest.extract.rules_gender import name_gender
from sodamem.ingest.timeparse import TimeMention, find_times
from sodamem.memory import Memory
from sodamem.retrieve.temporal import parse_iso

# "Did I run the Porto half?", "Did we go to Japan in the end?"
_ASKS_DID = re.compile(r"^\s*did\s+(?:I|we)\b", re.IGNORECASE)
# a question about the calling off, the booking or the telling itself
_ASKS_OTHERWISE = re.compile(
    r"\b(?:cancel\w*|call\w*\s+off|skip\w*|miss\w*|scrap\w*|drop\w*|pull\w*\s+out|withdr\w*|postpon\w*|sign\w*\s+up|"
    r"book\w*|regist\w*|enrol\w*|buy|bought|tell|told|say|said|mention\w*|plan\w*|decid\w*|agree\w*)\b",
    re.IGNORECASE,
)
# the question's verbs, which say nothing of what is asked ("go" in "Did I go to Japan?")
_GENERIC = frozenset(stems_of("go went do did get make take have come see be end up actually ever"))
# a cancelling word and what it takes: "cancel Japan", "skip the half", "instead of the poster"
_OBJECT = r"\s+(?:the\s+|my\s+|our\s+|a\s+|an\s+|this\s+year['’]?s\s+)?(?P<what>[\w'’-]+(?:\s+[\w'’-]+){0,2})"
_CALLS_OFF = re.compile(
    r"\b(?:cancel(?:l?ed|l?ing|s)?|call(?:ed|ing)?\s+off|skip(?:ped|ping|s)?|pull(?:ed|ing)?\s+out\s+of|"
    r"withdr[ae]w\s+from|scrap(?:ped)?|instead\s+of|(?:didn['’]?t|couldn['’]?t|did\s+not|could\s+not|won['’]?t|"
    r"never)\s+(?:go\s+to|make\s+it\s+to|do|run|get\s+to|present|give))" + _OBJECT,
    re.IGNORECASE,
)
# ... or what is called off, before it: "japan got cancelled", "the trip fell through"
_CALLED_OFF_AFTER = re.compile(
    r"(?P<what>[\w'’-]+(?:\s+[\w'’-]+){0,2})\s+(?:got|was|has\s+been|is|were|have\s+been)\s+"
    r"(?:cancell?ed|called\s+off|scrapped)\b|(?P<what2>[\w'’-]+(?:\s+[\w'’-]+){0,2})\s+fell\s+through\b",
    re.IGNORECASE,
)
# what before a cancelling word makes it no calling off, or someone else's
_HEDGED = re.compile(
    r"\b(?:almost|nearly|might|(?<!\bin\s)(?-i:may)|could|would|should|thought\s+about|thinking\s+about|considering|if|not|never|"
    r"wasn['’]?t|isn['’]?t|won['’]?t|don['’]?t|hope|hoping|wanted|want|he|she|they|his|her|their|friend|sister|"
    r"brother|mum|mom|dad|partner|wife|husband|boyfriend|girlfriend|boss)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[,;:!?.]+|\s(?:and|but|so|then|because|bc|though)\s", re.IGNORECASE)
_PLANNING = re.compile(
    r"\b(?:planning|plan\s+to|going\s+to|gonna|will|signed\s+up|registered|booked|enrolled|entered|hoping\s+to|"
    r"about\s+to|(?:I['’]m|I\s+am|we['’]re|we\s+are|im)\s+\w+ing)\b|['’]ll\b",
    re.IGNORECASE,
)
# "signed up for the half in november": the thing booked lies ahead, whatever the verb's tense
_BOOKED = re.compile(r"\b(?:signed\s+up|registered|entered|booked|enrolled)\s+(?:for|to|in|on)\b", re.IGNORECASE)
_JUST_PAST_DAYS = 60  # a booked thing's time word read as at most this far back is the one just past


@dataclass(frozen=True, slots=True)
class PlanOutcome:
    """What became of a plan: the reply, and the sentence that says so (None where nothing later does)."""

    reply: str
    said_by: Sentence | None


def plan_outcome(
    memory: Memory, user: str, question: str, best: Sentence, asked: set[str], now: datetime
) -> PlanOutcome | None:
    """For a "Did I ...?" question answered "Yes" from ``best`` (see the module docstring); None where the "Yes"
    stands. ``asked``: the question's content stems."""
    if not _ASKS_DID.match(question) or _ASKS_OTHERWISE.search(question):
        return None
    what = asked - _GENERIC
    if not what:
        return None
    if calls_off(best.text, what):
        return PlanOutcome("No", best)
    ahead = _planned_ahead(best.text, what, parse_iso(best.hit.timestamp))
    if ahead is None:
        return None
    later = _latest_turn_naming(memory, user, question, best, what, now)
    if later:
        off = next((s for s in later if calls_off(s.text, what)), None)
        if off is not None:
            return PlanOutcome("No", off)
        # "So excited for Lisbon next month!": the plan said again, not done
        renewed = [
            p for s in later if (p := _planned_ahead(s.text, what, parse_iso(s.hit.timestamp), again=True)) is not None
        ]
        if not renewed:
            return None  # spoken of since, not as planned or called off: the sentences decide
        ahead = renewed[0]
    return PlanOutcome(f"{'not known' if _at_or_before(ahead[0], now) else 'not yet'} (planned {ahead[1]})", None)


def calls_off(text: str, what: set[str]) -> bool:
    """Whether a clause of ``text`` calls off one of ``what`` (stems), said by the speaker and not hedged."""
    for clause in _clauses(text):
        for m in _CALLS_OFF.finditer(clause):
            # its first word is what is asked: "skip the half this year", not "scrapped the old blog" (a new one asked)
            if _first_stem(m["what"]) in what and not _not_the_speakers(clause[: m.start()]):
                return True
        for m in _CALLED_OFF_AFTER.finditer(clause):
            said = m["what"] or m["what2"]
            if stems_of(said) & what and not _not_the_speakers(clause[: m.start()] + said):
                return True
    return False


def _first_stem(words: str) -> str:
    stems = [t for t in tokens(words) if t.word not in FILLER]
    return stems[0].stem if stems else ""


def _clauses(text: str) -> list[str]:
    return [c for c in _CLAUSE.split(text) if c.strip()]


def _not_the_speakers(before: str) -> bool:
    """Whether the words before a cancelling word hedge it ("almost cancelled") or make it someone else's ("Tom
    pulled out of", "my sister cancelled")."""
    if _HEDGED.search(before):
        return True
    return any(name_gender(word.capitalize()) is not None for word in re.findall(r"\b[A-Za-z][a-z]+\b", before))


def _planned_ahead(
    text: str, what: set[str], said_at: datetime | None, again: bool = False
) -> tuple[datetime, str] | None:
    """(when, its words) of a time ahead of ``said_at`` in a clause of ``text`` that names one of ``what`` and says
    it as planned ("going to a conference in lisbon in july"); None when no clause does. ``again``: a plan already
    said, spoken of again, needs no word of planning ("so excited for Lisbon next month!")."""
    if said_at is None:
        return None
    naming = [c for c in _clauses(text) if stems_of(c) & what]
    if any(_said_done(c, said_at) for c in naming):
        return None  # "quit smoking 3 weeks ago, next month will be my first smoke free birthday"
    for clause in naming:
        planning = _PLANNING.search(clause)
        if (planning is None and not again) or _not_the_speakers(clause[: planning.start() if planning else 0]):
            continue  # "my sister is going to japan in april" is no plan of the speaker's
        for mention in _times(clause, said_at):
            if not _at_or_before(mention.spec.start, said_at):
                return mention.spec.start, mention.spec.expression
    return None


def _said_done(clause: str, said_at: datetime) -> bool:
    """Whether ``clause`` dates its doing before it was said ("quit smoking 3 weeks ago")."""
    return not _PLANNING.search(clause) and any(_at_or_before(m.spec.end, said_at) for m in find_times(clause, said_at))


def _times(clause: str, said_at: datetime) -> list[TimeMention]:
    """The clause's time words, a thing booked read ahead ("signed up for the half in november", said in April, is
    this November) unless read as just past ("registered for the porto half in november", said on 5 December)."""
    found = find_times(clause, said_at)
    if not _BOOKED.search(clause):
        return found
    recent = said_at - timedelta(days=_JUST_PAST_DAYS)
    if not any(_at_or_before(m.spec.end, recent) for m in found):
        return found
    return find_times(clause, said_at, future=True)


def _latest_turn_naming(
    memory: Memory, user: str, question: str, plan: Sentence, what: set[str], now: datetime
) -> list[Sentence]:
    """The statements of the latest turn of ``plan``'s speaker said after it (by ``now``) that name one of
    ``what``."""
    hits = memory.search(question, k=20, user=user, now=now)
    since = instants.sort_key(plan.hit.timestamp)
    naming = [
        s
        for s in rank_sentences(what, hits, word_weights(what, hits), depth=len(hits))
        if s.speaker == plan.speaker
        and instants.sort_key(s.hit.timestamp) > since
        and instants.at_or_before(s.hit.timestamp, now)
        and not s.is_question
        and stems_of(s.text) & what
    ]
    if not naming:
        return []
    latest = max(naming, key=lambda s: (instants.sort_key(s.hit.timestamp), s.hit.turn_index))
    return [s for s in naming if (s.hit.session_id, s.hit.turn_index) == (latest.hit.session_id, latest.hit.turn_index)]


def _at_or_before(when: datetime, than: datetime) -> bool:
    """``when`` no later than ``than``, compared as ``instants`` compares them."""
    first, second = instants.comparable(when, than)
    return first <= second
