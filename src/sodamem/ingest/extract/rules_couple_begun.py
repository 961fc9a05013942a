"""A couple said as begun or resumed in casual words the relation patterns do not read: "Sam and I are dating",
"I started seeing Sam", "Sam and I made it official", "I'm in a relationship with Sam", "Ben proposed and I said
yes", "Tom and I are back together".

Each is the speaker's partner named: dating ("user is dating Sam"), engaged ("user's fiance is Ben") or together
again ("user is back together with Tom", which ends the break-up before it in the partner's slot). Not read: a
question, a wish or hearsay before it ("I wish Sam and I were dating", "Sarah says ..."), "seeing" said of a
meeting or a doctor ("I'm seeing Sam tomorrow", "I've been seeing Dr. Patel for my back"), "together" said of a
place or a task ("Sam and I are together at the conference"), and a couple that is not the speaker's.
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Mood, _Piece, _piece_clause
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_past_relations import NOT_SAID_AS_SO
from sodamem.ingest.extract.rules_patterns import NOT_A_COUPLE
from sodamem.model import FactKind, Modality

_SAID = _Mood(Modality.ASSERTED, True)

# the pair opens its clause: "Sam and I", "me and Sam", "Sam & I" (a word before the name is trimmed off it:
# "Honestly Sam and I", ``_named``)
_OPENS = (
    r"(?:^|(?<=[.!?;,:])\s*|\b(?i:and|but|so|well|yeah|now|honestly|basically|anyway|update|news|omg|oh\s+my\s+god"
    r"|wow|yay|eek|guess\s+what|big\s+news|ok|okay|finally|lol)\s*[:,!]?\s+)"
)
_PAIR = rf"{_OPENS}(?:(?P<name>{rv.NAME})\s+(?:and|&)\s+I|[Mm]e\s+(?:and|&)\s+(?P<other>{rv.NAME}))"
_CLAUSE_ENDS = r"\s*(?:[,.;!?)]|$)"
# a time said of it: "last week", "in May", "a few days ago", "on Friday"
_TIME = (
    r"\s+(?:last\s+\w+|yesterday|today|tonight|this\s+\w+|on\s+\w+|in\s+\w+(?:\s+\d{4})?|back\s+in\s+\w+"
    r"|(?:a\s+few|a\s+couple\s+of|\w+)\s+\w+\s+ago|\w+\s+ago)"
)
_DURATION = (
    r"\s+(?:for\s+(?:a|about|almost|over|nearly|\d+|two|three|four|five|six|several|a\s+few|a\s+couple\s+of)\s+"
    r"(?:\w+\s+)?(?:days?|weeks?|months?|years?|while)|since\s+\w+)"
)
# the clause ends there, or goes on with a time, a duration or a feeling, not with a place, a purpose or a task
_END = (
    rf"(?={_CLAUSE_ENDS}|\s+(?:now|again|officially|finally|lol|haha|tbh|for\s+good|and\s+I)\b"
    rf"|(?:{_TIME}|{_DURATION})(?:\s+(?:now|lol|haha))?{_CLAUSE_ENDS})"
)
_BE = r"(?:\s+(?:are|r)|['’]re)\s+(?:(?:now|officially|finally|actually|so|really)\s+)?"
_HAVE_BEEN = r"(?:\s+have|['’]ve)\s+been\s+"
_BEGAN = r"\s+(?:(?:just|finally|officially)\s+)?(?:started|began)\s+"
_PAIR_BEGUN = re.compile(
    _PAIR + rf"(?:{_BE}(?P<state>dating|seeing\s+each\s+other|an?\s+(?:item|thing|couple)|official)"
    rf"|{_HAVE_BEEN}(?P<been>dating|seeing\s+each\s+other)|{_BEGAN}(?P<began>dating|seeing\s+each\s+other)"
    r"|\s+(?:(?:just|finally|officially)\s+)?(?P<made>made\s+(?:it|things)\s+official)"
    r"|\s+(?:(?:finally|officially)\s+)?(?P<together>got\s+together))" + _END
)
# "got together" on a day is a meeting ("Sam and I got together last Friday"), over months a couple ("... last summer")
_A_DAY = re.compile(
    r".*\b(?:yesterday|today|tonight|weekends?|weeks?|days?|nights?|mornings?|afternoons?|evenings?|\w+day)\b"
)
_PAIR_AGAIN = re.compile(_PAIR + rf"(?:{_BE}|\s+(?:(?:just|finally)\s+)?got\s+)back\s+together" + _END)
# "I started dating Sam", "I've started seeing Daniel", "I've been seeing Sam since March", "I'm in a relationship
# with Sam", "I got back together with Tom"
_I_BEGUN = re.compile(
    rf"{_OPENS}(?P<i>I)(?:(?:['’]ve|\s+have)?{_BEGAN}(?P<verb>dating|seeing)|{_HAVE_BEEN}(?P<been>dating|seeing)"
    r"|(?:['’]m|\s+am)\s+(?:now\s+|officially\s+)?in\s+a\s+relationship\s+with"
    r"|(?P<again>(?:['’]m|\s+am|\s+got|\s+have\s+got|['’]ve\s+got)\s+back\s+together\s+with))"
    rf"\s+(?P<name>{rv.NAME})(?![\w'’])" + _END
)
# "Ben proposed last night and I said yes!", "Ben popped the question in Paris, I said yes": not "proposed a toast",
# "proposed to my sister", "said yes to another drink"
_PROPOSED = re.compile(
    rf"{_OPENS}(?P<name>{rv.NAME})\s+(?:just\s+)?(?:proposed|popped\s+the\s+question)(?:\s+to\s+me)?"
    rf"(?:{_TIME}|\s+(?:at|in|on)\s+(?:the\s+)?[A-Z]?\w+)?\s*[,;!.]?\s*(?:and\s+)?I\s+said\s+yes"
    r"(?=\s*(?:[,.;!?)]|$)|\s+(?:and|lol|haha|omg)\b)"
)
# "Ben proposed!" with "I said yes!" the next sentence of the message
_PROPOSED_ALONE = re.compile(
    rf"{_OPENS}(?P<name>{rv.NAME})\s+(?:just\s+)?(?:proposed|popped\s+the\s+question)(?:\s+to\s+me)?"
    rf"(?:{_TIME}|\s+(?:at|in|on)\s+(?:the\s+)?[A-Z]?\w+)?\s*[!.]*\s*\Z"
)
_SAID_YES = re.compile(r"\s*(?:[Aa]nd\s+)?I\s+said\s+(?i:yes)\b(?!\s+to\b)(?![^.!?]*\bbut\b)")
# "Sam asked me to be his girlfriend!": not "... but I said no"
_ASKED_TO_BE = re.compile(
    rf"{_OPENS}(?P<name>{rv.NAME})\s+(?:just\s+|finally\s+)?asked\s+me\s+to\s+be\s+(?:his|her|their)\s+"
    r"(?:girlfriend|boyfriend|partner|gf|bf)\b(?![^.!?]*\b(?:said\s+no|turned\s+(?:him|her|them)\s+down|declined)\b)"
)
# "seeing" a doctor, a tutor, or someone somewhere or for something: no couple
_SEEING_OTHERWISE = re.compile(
    r"\b(?:dr|doctor|therap\w+|counsel\w+|physio\w*|chiro\w*|dentist|appointments?|sessions?|treatment|specialist|GP"
    r"|tutor\w*|coach\w*|trainer|lessons?|class(?:es)?|gym|office|anxiety|clinic)\b",
    re.IGNORECASE,
)
# the clause a pair's words stand in: after the last comma, "but" or "so" before them
_CLAUSE_START = re.compile(r".*(?:[,;:—–]|\b(?:but|so|and)\b)", re.IGNORECASE | re.DOTALL)


def couples_begun(p: _Piece) -> None:
    """The speaker's couple said as begun, engaged or together again in ``p`` (see the module docstring)."""
    text = p.piece.text
    if p.question:
        return
    grouped = NOT_A_COUPLE.search(text) is not None  # "made it official" of a band, "seeing each other" at a festival
    for m in _PAIR_BEGUN.finditer(text):
        dated = "dating" in (m["state"], m["been"], m["began"])
        if m["together"] and (grouped or _A_DAY.match(re.split(r"[.!?;,]", text[m.end() :])[0].lower())):
            continue
        if dated or not grouped:
            _begun(p, m, "name" if m["name"] else "other", "dating")
    for m in _PAIR_AGAIN.finditer(text):
        _begun(p, m, "name" if m["name"] else "other", "partner")
    for m in _ASKED_TO_BE.finditer(text):
        _begun(p, m, "name", "dating")
    for m in _I_BEGUN.finditer(text):
        if "seeing" in (m["verb"], m["been"]) and (grouped or _SEEING_OTHERWISE.search(text)):
            continue  # "I've been seeing Dr. Patel for my back", "... he's a chiropractor"
        _begun(p, m, "name", "partner" if m["again"] else "dating", opens="i")
    for m in _PROPOSED.finditer(text):
        _begun(p, m, "name", "fiance")
    pieces = p.turn.pieces
    after = pieces[p.piece.index + 1].text if p.piece.index + 1 < len(pieces) else ""
    if _SAID_YES.match(after):
        for m in _PROPOSED_ALONE.finditer(text):
            _begun(p, m, "name", "fiance")


def _named(p: _Piece, m: re.Match[str], group: str) -> tuple[str, int] | None:
    """The partner ``m`` names and where, a word before the name trimmed off ("Honestly Sam and I": Sam); None when no
    name is left, or a wish, hearsay or a denial opens the clause ("I wish Sam and I were dating", "Sarah says ...";
    not "I can't believe it, Sam and I are official")."""
    said = m[group]
    at = next((w.start() for w in re.finditer(r"\S+", said) if _is_name(said[w.start() :])), None)
    if at is None:
        return None
    partner, start = said[at:], m.start(group) + at
    before = p.piece.text[:start]
    clause = _CLAUSE_START.match(before)
    if NOT_SAID_AS_SO.search(before[clause.end() :] if clause else before):
        return None
    return partner, start


# what each reading says: dating, together again (a partner), engaged
_SAYS = {"dating": "{} is dating {}", "partner": "{} is back together with {}", "fiance": "{}'s fiance is {}"}


def _begun(p: _Piece, m: re.Match[str], group: str, predicate: str, *, opens: str | None = None) -> None:
    """The couple ``m`` says (``predicate``: "dating", "partner" again, "fiance"), quoted from the name, or from the
    group ``opens`` ("I got back together with Tom")."""
    named = _named(p, m, group)
    if named is None:
        return
    partner, start = named
    start = m.start(opens) if opens else start
    speaker, end = p.speaker, m.end()
    c = _piece_clause(p, start, end, speaker)
    text = _SAYS[predicate].format(speaker, partner)
    _emit(c, FactKind.RELATION, predicate, partner, end, _SAID, text, subject=speaker)
