"""A couple said as over in casual words the break-up verbs do not read: "Jake and I are over", "me and Jake are
done", "we're not together anymore", "we are no longer together", "my divorce is final".

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
from sodamem.ingest.extract.rules_patterns import NOT_A_COUPLE
from sodamem.model import FactKind, Modality

_OVER = _Mood(Modality.ASSERTED, False, "no_longer")
_SAID = _Mood(Modality.ASSERTED, True)

# the pair opens its clause: "Jake and I", "me and Jake", "we"
_PAIR = (
    rf"(?:^|(?<=[.!?;,:])\s*|\b(?i:and|but|so|ugh|well|yeah|now|honestly|basically|anyway)\s+)"
    rf"(?:(?P<name>{rv.NAME})\s+and\s+I|[Mm]e\s+and\s+(?P<other>{rv.NAME})|(?P<we>[Ww]e))"
)
_END = r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:now|for\s+good|again|lol|haha|tbh)\b)"
_COUPLE_OVER = re.compile(
    _PAIR + r"(?:\s+(?:are|r)|['’]re)\s+(?:(?:so|totally|officially|really|definitely|finally|completely)\s+)?"
    r"(?P<state>over|done|through|finished|no\s+longer\s+together|not\s+together(?:\s+any\s?more)?)" + _END
)
_NOT_TOGETHER = re.compile(_PAIR + r"\s+(?:aren['’]t|are\s+not)\s+together(?:\s+any\s?more)?" + _END)
_FOR_GOOD = re.compile(r"\s+for\s+good\b")
_COUPLE_WORDS = re.compile(
    r"\b(?:relationship|together|ex|dating|dumped|boyfriend|girlfriend|husband|wife|partner|heart\w*|single|marriage)\b",
    re.IGNORECASE,
)
# "my divorce is final", "our divorce came through", "the divorce was finalised" said by one of the pair
_DIVORCE_FINAL = re.compile(
    r"\b(?:[Mm]y|[Oo]ur)\s+divorce\s+(?:is|was|got|has\s+been|came|went|['’]s)\s+"
    r"(?:(?:now|finally|officially)\s+)?(?:final(?:ised|ized)?|through|official|done)\b"
)


def couples_over(p: _Piece) -> None:
    """The speaker's couple said as over in ``p`` (see the module docstring)."""
    text = p.piece.text
    if p.question or NOT_A_COUPLE.search(text):
        return
    for m in (*_COUPLE_OVER.finditer(text), *_NOT_TOGETHER.finditer(text)):
        partner = m["name"] or m["other"]
        if partner is not None and not _is_name(partner):
            continue
        done = m.re is _COUPLE_OVER and m["state"] in ("done", "through", "finished")
        if done and (partner is None or not (_FOR_GOOD.match(text, m.end()) or _COUPLE_WORDS.search(text))):
            continue  # "Jake and I are done, the deck looks great": a task, unless a couple is spoken of
        start = m.start("name") if m["name"] else m.start("other") if m["other"] else m.start("we")
        _ended(p, partner, start, m.end())
    for m in _DIVORCE_FINAL.finditer(text):
        _ended(p, None, m.start(), m.end())


def _ended(p: _Piece, partner: str | None, start: int, end: int) -> None:
    if NOT_SAID_AS_SO.search(p.piece.text[:start]):
        return  # "I wish we were over", "Sarah says Jake and I are done"
    speaker = p.speaker
    c = _piece_clause(p, start, end, speaker)
    whom = partner or "their partner"
    _emit(c, FactKind.EVENT, "broke_up", partner, end, _SAID, f"{speaker} broke up with {whom}", subject=speaker)
    text = f"{partner} is no longer {speaker}'s partner" if partner else f"{speaker} and {whom} are no longer a couple"
    _emit(c, FactKind.RELATION, "partner", partner, end, _OVER, text, subject=speaker)
