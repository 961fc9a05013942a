"""A couple said as over in casual words the break-up verbs do not read: "Jake and I are over", "me and Jake are
done", "we're not together anymore", "we are no longer together", "my divorce is final", "I'm single again".

Each is a denial of the speaker's partner, named where the pair names one ("Jake is no longer user's partner"),
else of no partner, which ends whichever partner held then (``supersede.ends_any_partner``). Not read: "we're done"
with no partner named, and "Jake and I are done" with no couple spoken of (a task done); "we're over the moon",
"done with dinner" (the clause goes on); a question, a wish or hearsay before it, or a group or day out spoken of in
the piece ("We're done for the term").
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Mood, _Piece, _piece_clause
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_past_relations import NOT_SAID_AS_SO
from sodamem.ingest.extract.rules_patterns import DUMPED_ENDS, NOT_A_COUPLE, PARTNER_ROLE
from sodamem.ingest.extract.rules_states import _through_time
from sodamem.model import FactKind, Modality

_OVER = _Mood(Modality.ASSERTED, False, "no_longer")
_SAID = _Mood(Modality.ASSERTED, True)

# the pair opens its clause: "Jake and I", "me and Jake", "my wife and I", "me and my boyfriend", "we"
_PAIR = (
    rf"(?:^|(?<=[.!?;,:])\s*|\b(?i:and|but|so|ugh|well|yeah|now|honestly|basically|anyway)\s+)"
    rf"(?:(?P<name>{rv.NAME})\s+and\s+I|[Mm]e\s+and\s+(?P<other>{rv.NAME})|(?:[Mm]y|[Mm]e\s+and\s+my)\s+"
    rf"(?P<role>{PARTNER_ROLE})(?:\s+and\s+I)?|(?P<we>[Ww]e))"
)
_END = r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:now|for\s+good|again|lol|haha|tbh|because|since|as\s+of|after)\b)"
_COUPLE_OVER = re.compile(
    _PAIR + r"(?:\s+(?:are|r)|['’]re)\s+(?:(?:so|totally|officially|really|definitely|finally|completely)\s+)?"
    r"(?P<state>over|done|through|finished|no\s+longer\s+together|not\s+together\s+any\s?more)" + _END
)
_NOT_TOGETHER = re.compile(_PAIR + r"\s+(?:aren['’]t|are\s+not)\s+together\s+any\s?more" + _END)
# "It's over between us", "it's over between me and Jake"
_OVER_BETWEEN = re.compile(rf"\b[Ii]t['’]?s\s+over\s+between\s+(?:us|me\s+and\s+(?P<name>{rv.NAME}))" + _END)
# "She dumped me.", "I got dumped last week": said of a partner, the clause ending there or with a time
_DUMPED = re.compile(r"\b(?:(?:[Hh]e|[Ss]he)\s+(?:just\s+)?dumped\s+me|I\s+(?:just\s+)?got\s+dumped)" + DUMPED_ENDS)
# "I'm single again", "i am officially single now": no partner now
_SINGLE = re.compile(
    r"\b(?:I['’]m|I\s+am|i['’]?m)\s+(?:(?:officially|finally|now|so|back\s+to\s+being)\s+)?single(?![\w-])"
    r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:again|now|once\s+more|lol|haha|tbh|and|as\s+of|since)\b)"
)
_FOR_GOOD = re.compile(r"\s+for\s+good\b")
# a couple spoken of in the piece, where "we" or "done" could be said of anything
_COUPLE_WORDS = re.compile(
    r"\b(?:relationship|dating|dumped|broke\s+up|heart\w*|single(?![\w-])|marriage|ex)\b", re.IGNORECASE
)
# "my divorce is final", "our divorce finally came through", "my divorce from Tom is final"; not "once my divorce
# is final", "my divorce is final next month"
_DIVORCE_FINAL = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+divorce(?:\s+from\s+(?P<name>{rv.NAME}))?\s+(?:(?:now|finally|officially|just)\s+)?"
    r"(?:is|was|got|has\s+been|came|went|['’]s)\s+(?:(?:now|finally|officially)\s+)?"
    r"(?:final(?:ised|ized)?|through|official|done)\b(?!\s+(?:next|soon|by|in\s+(?:a|an|two|three|few)|once)\b)"
)
_NOT_YET = re.compile(r"\b(?i:once|when|until|till|after|as\s+soon\s+as|before)\s+$")
# passed on: "My sister texted me: Jake and I are over"
_PASSED_ON = re.compile(r"\b(?:texted|messaged|wrote|posted|tweeted|replied|quoted|dms?|dm['’]d)\b", re.IGNORECASE)


def couples_over(p: _Piece) -> None:
    """The speaker's couple said as over in ``p`` (see the module docstring)."""
    text = p.piece.text
    if p.question or NOT_A_COUPLE.search(text):
        return
    spoken_of = _COUPLE_WORDS.search(text) is not None
    for m in (*_COUPLE_OVER.finditer(text), *_NOT_TOGETHER.finditer(text)):
        partner = m["name"] or m["other"]
        if partner is not None and not _is_name(partner):
            continue
        state = m["state"] if m.re is _COUPLE_OVER else "not together"
        if state in ("done", "through", "finished") and (
            not (partner or m["role"]) or not (_FOR_GOOD.match(text, m.end()) or spoken_of)
        ):
            continue  # "Jake and I are done, the deck looks great": a task, unless a couple is spoken of
        if m["we"] and state == "over" and not spoken_of:
            continue  # "The meeting ran long but we're over now"
        start = next(m.start(g) for g in ("name", "other", "role", "we") if m[g])
        _ended(p, partner, m["role"], start, m.end())
    for m in _OVER_BETWEEN.finditer(text):
        if m["name"] is None or _is_name(m["name"]):
            _ended(p, m["name"], None, m.start(), m.end())
    for m in _DUMPED.finditer(text):
        _ended(p, None, None, m.start(), m.end())
    for m in _SINGLE.finditer(text):
        _ended(p, None, None, m.start(), m.end(), single=True)  # no break-up said: perhaps there was no one
    for m in _DIVORCE_FINAL.finditer(text):
        if not _NOT_YET.search(text[: m.start()]) and (m["name"] is None or _is_name(m["name"])):
            said = _piece_clause(p, m.start(), m.end(), p.speaker)
            _ended(p, m["name"], None, m.start(), _through_time(said, m.end()))  # "came through back in 2015"


def _ended(p: _Piece, partner: str | None, role: str | None, start: int, end: int, *, single: bool = False) -> None:
    before = p.piece.text[:start]
    if NOT_SAID_AS_SO.search(before) or _PASSED_ON.search(before):
        return  # "I wish we were over", "Sarah says Jake and I are done", "My sister texted me: ..."
    speaker = p.speaker
    c = _piece_clause(p, start, end, speaker)
    whom = partner or (f"{speaker}'s {role.lower()}" if role else "their partner")
    if single:
        _emit(c, FactKind.RELATION, "partner", None, end, _OVER, f"{speaker} has no partner", subject=speaker)
        return
    _emit(c, FactKind.EVENT, "broke_up", partner, end, _SAID, f"{speaker} broke up with {whom}", subject=speaker)
    text = f"{partner} is no longer {speaker}'s partner" if partner else f"{speaker} and {whom} are no longer a couple"
    _emit(c, FactKind.RELATION, "partner", partner, end, _OVER, text, subject=speaker)
