"""Spoken corrections, for the rules extractor (pure, stdlib ``re``).

"I just moved to Leeds last weekend." / "Sorry, I meant York, not Leeds." The first sentence was a slip: Leeds
never held, so its facts are not kept (not superseded, which would make Leeds a past home), and the correcting
sentence says them again with York, quoted from its own words ("I meant York, not Leeds") and keeping the time
words of the fact it corrects ("last weekend"). A corrected day works the same way: "I hurt my knee on Thursday." /
"Sorry, it was Wednesday, not Thursday." keeps the event and moves it to Wednesday.

A correction is a piece (sentence) that opens with a correcting word ("sorry", "actually", "no wait", "I meant",
"make that", ...) and names the new value, then "not <old value>" -- or, after "I meant" / "make that", the new value
alone. It corrects the facts of the latest earlier piece of the same speaker, at most ``REACH`` turns back in the
same session, that say the old value as their object or in their time words (without an old value: the latest
piece's facts). A correction whose new value is a clause ("Actually I live in York, not Leeds") makes its own facts
through the ordinary rules; it only removes the facts it corrects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sodamem.ingest.extract.base import CandidateFact, SessionView, TurnView
from sodamem.ingest.timeparse import find_times
from sodamem.model import EntityRole, MessagePiece, Modality

REACH = 4  # turns back (any speaker's) a correction may reach

_LEAD = (
    r"(?:(?:oh|ah|um+|er+|no|nope|sorry|oops|whoops|wait|actually|correction|my\s+bad|scratch\s+that|hang\s+on|"
    r"I\s+misspoke|let\s+me\s+correct\s+that|I\s+got\s+that\s+wrong|I\s+was\s+wrong|to\s+be\s+clear|my\s+mistake|"
    r"(?:ignore|forget|scratch|disregard)\s+what\s+I\s+(?:just\s+)?said)"
)
_LEAD += r"(?:\s*[,.:;!—–-]+\s*|\s+))+"
_SAYS = (
    r"(?:I\s+meant|I\s+mean|make\s+that|it'?s|it\s+is|it\s+was|that'?s|that\s+was|that\s+should\s+be|"
    r"I\s+should\s+have\s+said)\s+"
)
_VALUE = r"[^,.;:!?]+?"
_NOT_OLD = r"(?P<comma>,)?\s*not\s+(?P<old>[^,.;:!?]+?)\s*(?:[,.;:!?]|$)"
# "Sorry, I meant York, not Leeds" / "Actually, Wednesday, not Thursday" / "No wait, it's the 22nd, not the 20th"
_NEW_NOT_OLD = re.compile(rf"(?P<lead>{_LEAD})?(?P<says>{_SAYS})?(?P<new>{_VALUE}){_NOT_OLD}", re.IGNORECASE)
# "I meant York." / "Make that Tuesday." (the latest earlier piece's facts)
_MEANT = re.compile(rf"(?:{_LEAD})?(?P<says>I\s+meant|make\s+that)\s+(?P<new>{_VALUE})\s*[.!]?$", re.IGNORECASE)
# "No wait, it's the 22nd." (a time only: "No, it's fine" corrects nothing)
_IT_IS = re.compile(rf"(?P<lead>{_LEAD})(?P<says>it'?s|it\s+is|it\s+was)\s+(?P<new>{_VALUE})\s*[.!]?$", re.IGNORECASE)
_MEANT_WORDS = re.compile(r"I\s+meant|I\s+mean|make\s+that|I\s+should\s+have\s+said", re.IGNORECASE)
# "Oops, I said Deloitte but I meant KPMG." / "Wait, not Deloitte, KPMG."
_SAID_BUT_MEANT = re.compile(
    rf"(?:{_LEAD})?I\s+said\s+(?P<old>{_VALUE})\s*,?\s+but\s+(?P<says>I\s+meant)\s+(?P<new>{_VALUE})\s*[.!]?$",
    re.IGNORECASE,
)
# "Correction: I work at KPMG." / "I got that wrong, I live in Brighton.": a clause after a lead that says the words
# before were wrong takes back what it says again of the latest earlier piece
_STRONG_LEAD = re.compile(
    r"(?P<lead>(?:(?:oh|oops|whoops|sorry|no|wait)\s*[,.!]?\s*)*(?:correction|I\s+misspoke|I\s+got\s+that\s+wrong|"
    r"I\s+was\s+wrong|my\s+mistake|my\s+bad|scratch\s+that|typo|(?:ignore|forget|scratch|disregard)\s+what\s+I\s+"
    r"(?:just\s+)?said)\s*[,.:;!—–-]+\s*)(?P<clause>(?:I|I'm|I've|we|we're|my)\b.+)$",
    re.IGNORECASE,
)
_NOT_OLD_FIRST = re.compile(rf"(?P<lead>{_LEAD})not\s+(?P<old>{_VALUE}),\s*(?P<new>{_VALUE})\s*[.!]?$", re.IGNORECASE)
# words that correct, unlike "oh", "um" or "ah" ("Oh, I'm flying from Manchester, not Leeds" corrects nothing)
_CORRECTING = re.compile(
    r"\b(?:sorry|oops|whoops|wait|actually|correction|my\s+bad|scratch\s+that|hang\s+on|misspoke|"
    r"let\s+me\s+correct\s+that|got\s+that\s+wrong|was\s+wrong|my\s+mistake|what\s+I\s+(?:just\s+)?said)\b",
    re.IGNORECASE,
)
_NO = re.compile(r"\b(?:no|nope)\b", re.IGNORECASE)
# "I meant every word", "I meant to ask", "I meant what I said", "I meant it": no value meant instead
_NOT_MEANT = re.compile(
    r"(?:to|it|that|this|what|every|everything|all|well|nothing|no|business|so|exactly|literally|for|as|by|when|"
    r"because|the\s+same|the\s+other|you|him|her|them|us|me|myself|yourself|a\s+lot|no\s+harm|no\s+offense)\b",
    re.IGNORECASE,
)
# "I work at Deloitte, sorry, KPMG.", "she's a physio — sorry, occupational therapist", "the 6th — sorry, the 13th of
# april", "they named her Hana — no wait, Hina": a value taken back inside its own sentence, the new one right after
_INLINE = re.compile(
    r"(?P<old>[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*)*|[\w'’-]+)\s*(?:,|—|–|\s-|\.{2,}|…)\s*"
    r"(?P<lead>(?i:(?:no\s+)?sorry(?:\s+no)?|no\s+wait|wait\s+no|no\s+sorry|I\s+mean|actually\s+no|oops|"
    r"or\s+rather|um+\s+no|er+\s+no))"
    r"\s*[,.:!]?\s+(?P<new>[^,.;:!?—–…()]+?)\s*(?=[,.;:!?—–…()]|$)"
)
_INLINE_CUE = re.compile(r"\b(?:sorry|wait|mean|oops|rather|actually|um+|er+)\b", re.IGNORECASE)
# "my sister lives in Ottawa... wait no, Kingston.": a sentence of a lead and a value alone corrects the sentence before
_LEAD_VALUE = re.compile(
    r"(?P<lead>(?i:wait\s+no|no\s+wait|no\s+sorry|sorry\s+no|I\s+mean|oops|actually\s+no)(?:\s*[,.:!]\s*|\s+))"
    r"(?P<new>[^,.;:!?—–…()]+?)\s*[.!]*$"
)
# "Sorry, the 23rd: they moved it to the Thursday", "wait no the 9th, the 2nd is her bday": a sentence opening with a
# lead and a time, the rest saying why (a time only: "Sorry, the wifi is bad" corrects nothing)
_LEAD_TIME = re.compile(
    r"(?P<lead>(?i:sorry|wait\s+no|no\s+wait|no\s+sorry|sorry\s+no|oops|actually\s+no)(?:\s*[,.:!]\s*|\s+))"
    r"(?P<new>[^,.;:!?—–…()]+?)\s*(?:[,:;]\s|[.!]*$)"
)
_ARTICLE = re.compile(r"^(?:the|a|an|my|on|in|at|to)\s+", re.IGNORECASE)
_CLAUSE = re.compile(r"^(?:I|we|he|she|they|it)\b|\s(?:is|am|are|was|were|live|work|moved|have|has)\b", re.IGNORECASE)
_PREPOSITION = re.compile(r"^(?:on|in|at|to)\s+", re.IGNORECASE)
_MAX_VALUE_WORDS = 5
_ANY_DAY = datetime(2000, 1, 1)  # whether words are a time does not depend on the day they are read on


@dataclass(frozen=True, slots=True)
class Correction:
    turn_index: int
    char_start: int  # of ``quote`` in the turn's text
    quote: str
    new: str | None  # None: a clause that makes its own facts ("Actually I live in York, not Leeds")
    old: str | None  # None: "I meant York" corrects the latest earlier piece's facts
    time_only: bool = False  # "No wait, it's the 22nd": the new value is a time, and corrects a time


def find_corrections(
    session: SessionView, skip_speakers: frozenset[str], near: Iterable[int] | None = None
) -> list[Correction]:
    """Every correction said in the session, in order; with ``near``, those within ``REACH`` turns of these (all
    that can touch their facts: a live add to a long session reads a few turns, not all)."""
    found: list[Correction] = []
    indexes = None if near is None else {i + d for i in near for d in range(-REACH, REACH + 1)}
    for turn in session.turns:
        if turn.speaker.lower() in skip_speakers or (indexes is not None and turn.index not in indexes):
            continue
        lead: MessagePiece | None = None  # a sentence of a lead alone: "moving july 25. no wait. 26th."
        for piece in turn.pieces:
            correction = _correction(piece.text.strip())
            if correction is not None:
                start, quote, new, old, time_only = correction
                start += len(piece.text) - len(piece.text.lstrip())
                found.append(Correction(turn.index, piece.char_start + start, quote, new, old, time_only))
            elif lead is not None and (day := _said_day(piece.text)) is not None:
                quote = turn.text[lead.char_start : piece.char_end].strip()
                found.append(Correction(turn.index, lead.char_start, quote, day, None, True))
            lead = piece if _BARE_LEAD.fullmatch(piece.text.strip()) else None
    return found


def _said_day(text: str) -> str | None:
    """A sentence that is a time and nothing else, as the resolver reads it ("26th." is "on the 26th")."""
    words = text.strip().rstrip(".!")
    return as_time(words) or (as_time(f"the {words}") if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", words) else None)


_A_DAY_NAMED = re.compile(
    r"\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b", re.IGNORECASE
)
_BARE_LEAD = re.compile(r"(?i:no\s+wait|wait\s+no|no\s+sorry|sorry\s+no|wait|sorry|oops)[\s,.!:;]*")


def _correction(text: str) -> tuple[int, str, str | None, str | None, bool] | None:
    m = _NEW_NOT_OLD.match(text)
    meant = m is not None and _MEANT_WORDS.match(m["says"] or "") is not None
    # without a comma only after "I meant" or a correcting lead ("I meant York not Leeds", "My mistake, it's KPMG
    # not Deloitte"; "It's just not right" corrects nothing)
    if m is not None and m["new"].strip() and (m["comma"] or meant or _CORRECTING.search(m["lead"] or "")):
        new = " ".join(m["new"].split())
        clause = _CLAUSE.search(new) is not None or len(new.split()) > _MAX_VALUE_WORDS
        correcting = meant or _CORRECTING.search(m["lead"] or "") is not None
        # a value after "it's"/"that's" with no lead ("It's Tuesday, not Monday") corrects too, a clause does not
        if correcting or (m["says"] and not m["lead"] and not clause):
            start = m.start("says") if m["says"] else m.start("new")
            new_value = None if clause else new
            return start, text[start : m.end("old")], new_value, " ".join(m["old"].split()), False
    for pattern in (_SAID_BUT_MEANT, _NOT_OLD_FIRST):
        m = pattern.match(text)
        if m is not None and _meant_value(m["new"]) and _CLAUSE.search(m["new"]) is None:
            if pattern is _NOT_OLD_FIRST and not _CORRECTING.search(m["lead"]):
                continue  # "Oh, not Leeds, York" says nothing was wrong
            start = m.start("old") if pattern is _NOT_OLD_FIRST else m.start("says")
            return start, text[start : m.end("new")], " ".join(m["new"].split()), " ".join(m["old"].split()), False
    inline = _inline(text)
    if inline is not None:
        return inline
    m = _STRONG_LEAD.match(text)
    if m is not None:
        return m.start("clause"), text[m.start("clause") :].rstrip(" .!"), None, None, False
    m = _MEANT.match(text)
    if m is not None and _meant_value(m["new"]):
        return m.start("says"), text[m.start("says") : m.end("new")], " ".join(m["new"].split()), None, False
    m = _IT_IS.match(text)
    time = as_time(m["new"]) if m is not None else None
    if m is not None and time is not None and (_CORRECTING.search(m["lead"]) or _NO.search(m["lead"])):
        return m.start("says"), text[m.start("says") : m.end("new")], time, None, True  # not "Oh, it's Friday!"
    return None


def _inline(text: str) -> tuple[int, str, str | None, str | None, bool] | None:
    """A correction inside its sentence, when the new value is a value of the old one's kind: a time for a time, a
    name for a name, a few plain words for a plain word (not a clause: "Kivipada, no sorry, Kivipada is the wall")."""
    if not _INLINE_CUE.search(text):
        return None
    for m in _INLINE.finditer(text):
        old, new = m["old"], " ".join(m["new"].split())
        if not _meant_value(new) or _CLAUSE.search(new) or _NOT_MEANT.match(new):
            continue
        if as_time(old) is not None or re.match(r"\d", old) or _MONTH.fullmatch(old):  # "the 4th of May, sorry, ..."
            if as_time(new) is None:
                continue  # "the 12th, wait no, that's dad's"
        elif old[:1].isupper() != new[:1].isupper():
            continue
        return m.start("new"), new, new, old, False
    alone = _LEAD_VALUE.match(text)
    if alone is not None and _meant_value(alone["new"]) and not _NOT_MEANT.match(alone["new"]):
        new = " ".join(alone["new"].split())
        return alone.start("new"), new, new, None, as_time(new) is not None and not new[:1].isupper()
    timed = _LEAD_TIME.match(text)
    # a day said by its number, month or weekday ("Sorry, the 23rd", "Sorry, Wednesday."), not "Sorry, last week, I
    # was swamped" nor "Sorry, tomorrow, I'll explain"
    if timed is not None and _A_DAY_NAMED.search(timed["new"]) and as_time(timed["new"]) is not None:
        new = " ".join(timed["new"].split())
        return timed.start("new"), new, new, None, True
    return None


def _meant_value(words: str) -> bool:
    """ "I meant York": a value; "I meant every word", "I meant to ask": none."""
    return len(words.split()) <= _MAX_VALUE_WORDS and not _CLAUSE.search(words) and not _NOT_MEANT.match(words)


def as_time(words: str) -> str | None:
    """``words`` as a time expression the resolver reads, when they are one and nothing else ("next Tuesday";
    "the 22nd" is read as "on the 22nd")."""
    words = " ".join(words.split())
    for said in (words, f"on {words}"):
        times = find_times(said, _ANY_DAY)
        if len(times) == 1 and times[0].char_start == 0 and len(times[0].spec.expression) == len(said):
            return said
    return None


def turns_to_read(session: SessionView, corrections: Sequence[Correction], turns: Iterable[int]) -> set[int]:
    """``turns`` and the turns their corrections may correct, and the corrections of ``turns``' facts."""
    wanted = set(turns)
    needed = set(wanted)
    for c in corrections:
        reach = _reach(session, c)
        if c.turn_index in wanted or wanted & reach:
            needed |= reach | {c.turn_index}
    return needed


def corrected_turns(session: SessionView, corrections: Sequence[Correction], new_turns: Iterable[int]) -> set[int]:
    """The earlier turns whose facts corrections in ``new_turns`` may take back."""
    new = set(new_turns)
    return {t for c in corrections if c.turn_index in new for t in _reach(session, c) if t not in new}


def correcting_turns(session: SessionView, corrections: Sequence[Correction], turns: Iterable[int]) -> set[int]:
    """The turns of corrections that may take back facts of ``turns``."""
    stale = set(turns)
    return {c.turn_index for c in corrections if _reach(session, c) & stale}


def _reach(session: SessionView, c: Correction) -> set[int]:
    speaker = _turn(session, c.turn_index).speaker
    return {t.index for t in session.turns if c.turn_index - REACH <= t.index <= c.turn_index and t.speaker == speaker}


def _turn(session: SessionView, index: int) -> TurnView:
    """The turn numbered ``index`` (a view may hold some of a session's turns only)."""
    return next(t for t in session.turns if t.index == index)


def apply_corrections(
    session: SessionView, facts: Sequence[CandidateFact], corrections: Sequence[Correction]
) -> list[CandidateFact]:
    """``facts`` with each correction applied in order: the corrected facts removed, their corrected copies added
    (a later correction may correct a correction)."""
    kept = list(facts)
    for c in corrections:
        reach = _reach(session, c)
        earlier = [f for f in kept if f.turn_index in reach and _position(f) < (c.turn_index, c.char_start)]
        targets = _targets(session, earlier, c)
        if c.new is None:  # a clause: it takes back only what it says again ("Actually, I live in York, not Leeds")
            said_again = {f.predicate for f in kept if _in_quote(f, c) and f.modality is Modality.ASSERTED}
            targets = [f for f in targets if f.predicate in said_again]
        elif c.old is None and not c.time_only:  # "I meant Microsoft" for Google, not "I meant fun" for Google
            targets = [f for f in targets if f.object and f.object[:1].isupper() == c.new[:1].isupper()]
        if not targets:
            continue
        kept = [f for f in kept if f not in targets]
        if c.new is not None:
            kept += [fixed for f in targets if (fixed := _corrected(f, c)) is not None]
    return kept


def _in_quote(fact: CandidateFact, c: Correction) -> bool:
    return fact.turn_index == c.turn_index and c.char_start <= (fact.char_start or 0) < c.char_start + len(c.quote)


def _position(fact: CandidateFact) -> tuple[int, int]:
    return fact.turn_index, fact.char_start or 0


def _targets(session: SessionView, earlier: list[CandidateFact], c: Correction) -> list[CandidateFact]:
    """The facts of the latest earlier piece that says the old value; when none is named ("I meant Microsoft",
    "No wait, it's the 22nd"), those of the speaker's sentence right before the correction, if it made any."""
    if c.old is not None:
        earlier = [f for f in earlier if _says(f.object, c.old) or said_in_time(f.time_expression, c.old)]
    else:
        before = previous_piece(session, c)
        earlier = [f for f in earlier if (f.turn_index, _piece_of(session, f)) == before]
        if c.time_only:
            earlier = [f for f in earlier if f.time_expression]
    if not earlier:
        return []
    latest = max(earlier, key=_position)
    piece = _piece_of(session, latest)
    return [f for f in earlier if f.turn_index == latest.turn_index and _piece_of(session, f) == piece]


def previous_piece(session: SessionView, c: Correction) -> tuple[int, int] | None:
    """``(turn index, piece index)`` of the speaker's sentence right before the correction, in its reach."""
    for index in sorted(_reach(session, c), reverse=True):
        pieces = [p for p in _turn(session, index).pieces if index < c.turn_index or p.char_end <= c.char_start]
        if pieces:
            return index, pieces[-1].index
    return None


def _piece_of(session: SessionView, fact: CandidateFact) -> int:
    pieces = _turn(session, fact.turn_index).pieces
    at = fact.char_start or 0
    return max((p.index for p in pieces if p.char_start <= at), default=0)


def _bare(value: str) -> str:
    return _ARTICLE.sub("", " ".join(value.lower().split()))


def _says(obj: str | None, old: str) -> bool:
    """Whether ``obj`` is the value ``old`` names: the same words, or its first words ("not Abbott" of "Abbott
    Labs")."""
    if obj is None:
        return False
    said, named = _bare(obj).split(), _bare(old).split()
    return bool(named) and said[: len(named)] == named


def said_in_time(expression: str | None, old: str) -> bool:
    return expression is not None and re.search(rf"\b{re.escape(_bare(old))}\b", expression.lower()) is not None


# a day of the month said alone: "the 22nd", "on the 5th" (``day`` with its ordinal, ``n`` the number)
BARE_DAY = re.compile(r"^\s*(?:on\s+)?(?:the\s+)?(?P<day>(?P<n>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?)\s*$", re.I)
_DAY_NUMBER = re.compile(r"\b(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?\b")
_MONTH = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?!\w)", re.I)


def _day_in_month_said(new: str, old: str | None) -> str:
    """A day said alone to correct a date that named its month, as that month's day ("the 5th" of "March 3rd")."""
    bare = BARE_DAY.match(new)
    if bare is None or old is None or not _MONTH.search(old) or len(_DAY_NUMBER.findall(old)) != 1:
        return new
    return _DAY_NUMBER.sub(bare["day"], old, count=1)


def _corrected(fact: CandidateFact, c: Correction) -> CandidateFact | None:
    assert c.new is not None
    fixed = replace(fact, turn_index=c.turn_index, quote=c.quote, char_start=c.char_start)
    if c.time_only:  # "on March 3rd, no wait, the 5th": March 5th, not the 5th of the month it was said in
        return replace(fixed, time_expression=_day_in_month_said(c.new, fact.time_expression))
    if c.old is not None and not _says(fact.object, c.old):  # a corrected time: "Wednesday, not Thursday"
        assert fact.time_expression is not None
        if BARE_DAY.match(c.new) and _MONTH.search(fact.time_expression):  # "March 3rd, no wait, the 5th"
            return replace(fixed, time_expression=_day_in_month_said(c.new, fact.time_expression))
        whole = as_time(c.new)
        if whole is not None and len(whole.split()) > 2:  # "the 15th of December, not the 1st": the new time
            return replace(fixed, time_expression=whole)
        pattern = re.compile(rf"\b{re.escape(_bare(c.old))}\b", re.IGNORECASE)
        new_day = _ARTICLE.sub("", c.new)
        return replace(fixed, time_expression=pattern.sub(new_day, fact.time_expression, count=1))
    if fact.object is None:
        return None
    new = _PREPOSITION.sub("", c.new)  # "I meant to York": York
    roles = tuple(EntityRole(r.role, new) if r.entity == fact.object else r for r in fact.roles)
    text = fact.text.replace(fact.object, new) if fact.object in fact.text else fact.text
    return replace(fixed, object=new, roles=roles, text=text)
