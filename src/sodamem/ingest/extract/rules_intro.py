"""A self-introduction typed as chat fragments, without "I": "yo. ricky here, graphic designer, freelance mostly, based
in austin tx", "hey, lena here. ux researcher at zalando in berlin, live in neukölln", "oi! tomás here. im a backend
dev ...".

"<Name> here" opening a turn (after a greeting or not) names the speaker. The fragments that follow it, in its sentence
and in the turn's next one, describe the speaker: a job ("graphic designer", "ux researcher at Zalando") and where they
live ("based in Austin", "live in Neukölln"), each fragment read as if "I" opened it. Only an introduction's fragments
are read so: elsewhere "graphic designer, based in Leeds" may describe anyone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Piece, _piece_clause, _Subject
from sodamem.ingest.extract.rules_emit import _alias, _emit
from sodamem.ingest.extract.rules_gender import name_gender
from sodamem.ingest.extract.rules_modality import _piece_mood
from sodamem.ingest.extract.rules_piece_wide import NOT_A_NAME
from sodamem.ingest.extract.rules_states import _org_fact, emit_job
from sodamem.ingest.extract.rules_truecase import rare
from sodamem.model import FactKind

_GREETING = r"(?i:hi|hello|hey|hiya|heya|yo|oi|howdy|hallo|morning|evening)(?:\s+there)?"
# "ricky here", "hey, lena here", "Hiya, Kwame here": the name, then "here" closing its phrase
HERE_INTRO = re.compile(rf"^(?:{_GREETING}\s*[,!.]*\s+)?(?P<name>{rv.NAME_WORD})\s+here(?=\s*(?:[,.!;:—–-]|$))")
# a greeting alone before the introduction's sentence ("yo. ricky here, ...")
_GREETING_ONLY = re.compile(rf"^\W*{_GREETING}\W*$")
_SAYS_I = re.compile(r"(?:I|I['’]m|Im|I\s+am|we|we['’]re|my)\b", re.IGNORECASE)
# the people a fragment may be about instead of the speaker
_KIN = "wife|husband|partner|mum|mom|dad|sister|brother|son|daughter|friend"
# a fragment about someone or something else, after which the rest of the sentence may be theirs
_ABOUT_ANOTHER = re.compile(
    r"(?:need|needs|want|wants|looking|searching|hiring|asking|question|help|his|her|their|your|the|"
    rf"(?:my\s+)?(?:boyfriend|girlfriend|{_KIN})"
    r"(?:['’]s|\s+(?:is|was|works|lives))|\w+['’]s)\b",
    re.IGNORECASE,
)
# someone else typing for the user: "Sam here, using my brother's phone", "Sam here, Alex's flatmate"
_SOMEONE_ELSE = re.compile(
    r"\b(?:using|borrowing|on)\s+(?:my|his|her|their|\w+['’]s)\s+(?:\w+['’]s\s+)?(?:phone|account|laptop|computer)\b"
    rf"|\b\w+['’]s\s+(?:flatmate|roommate|housemate|colleague|boyfriend|girlfriend|{_KIN})\b"
    r"|\bon\s+behalf\b|\btyping\s+for\b",
    re.IGNORECASE,
)
_FRAGMENT_CUT = re.compile(r"\s*(?:[,;:]|\s[—–-])\s*")
# words that make a fragment no job of the speaker's: a verb or possessive before the job ("need a good plumber",
# "wife is a nurse", "hate my manager"), and a job not held ("former police officer", "aspiring writer")
_NOT_A_TITLE_WORD = (
    r"(?!(?:need|needs|want|wants|hate|love|like|looking|my|his|her|their|our|your|is|are|was|were|of|about|for|"
    rf"question|former|ex|aspiring|amateur|wannabe|retired|future|would-be|{_KIN}|the|a|an|and|or|not|no)\b)"
)
# "graphic designer", "a ux researcher at Zalando in Berlin", "art director at Blue Fin Creative"
_JOB_FRAGMENT = re.compile(
    rf"(?:(?:a|an)\s+)?(?P<job>(?:{_NOT_A_TITLE_WORD}[\w-]+\s+){{0,3}}?(?:{rv.alt(rv.JOB_HEADS)}|dev))"
    rf"(?:\s+(?:at|for|with)\s+(?P<org>{rv.ORG_NAME}))?(?![\w'’])",
    re.IGNORECASE,
)
# "based in Austin", "live in Neukölln", "living in Porto these days": where the speaker lives, as a state rule reads it
# (a place by its name: not "living in a nightmare")
_HOME_FRAGMENT = re.compile(rf"(?i:based|live|living|settled)\s+(?i:in|near)\s+(?={rv.ORG_NAME})(?!(?i:the|a|an)\s)")
# what a job fragment may hold after its job: a place ("in Berlin"), "mostly", "full time"
_JOB_TAIL = re.compile(
    rf"(?:\s+(?:in|near)\s+{rv.ORG_NAME}|\s+(?:mostly|now|atm|currently|full[\s-]time|part[\s-]time))*[\s.!]*",
    re.IGNORECASE,
)


def intro_fragments(p: _Piece, try_clause: Callable[[_Piece, _Subject, str], None]) -> None:
    """The speaker's name, job and home from an introduction's fragments; ``try_clause`` reads a home fragment with
    the speaker as its subject (the rules' own walk)."""
    if p.question:
        return
    text = p.piece.text
    m = HERE_INTRO.match(text)
    start = 0
    if m is not None and _opens_turn(p) and _a_name(m["name"]) and not _SOMEONE_ELSE.search(text):
        _named(p, m)
        start = m.end()
    elif not _follows_intro(p):
        return
    for fragment in _fragments(text, start):
        if _ABOUT_ANOTHER.match(text, fragment[0]):
            break  # "boyfriend's a chef, based in munich", "Looking for a web designer, based in Bath": not the speaker
        _read_fragment(p, fragment, try_clause)


def _a_name(word: str) -> bool:
    """A given name, or a word no dictionary holds ("Ricky", "Oksana"; not "Nurse", "Newbie": "Nurse here, ..."
    introduces no one by name)."""
    if not _is_name(word) or word.lower() in NOT_A_NAME:
        return False
    return name_gender(word) is not None or rare(word)


def _opens_turn(p: _Piece) -> bool:
    """Whether ``p`` opens its turn, or follows only a greeting ("yo. ricky here")."""
    if p.piece.index == 0:
        return True
    return p.piece.index == 1 and _GREETING_ONLY.match(p.turn.pieces[0].text) is not None


def _follows_intro(p: _Piece) -> bool:
    """Whether the sentence before ``p`` in its turn was an introduction ending in "here" ("hey, lena here.")."""
    index = p.piece.index
    if index == 0 or index > 2:
        return False
    before = p.turn.pieces[index - 1].text
    m = HERE_INTRO.match(before)
    return m is not None and _a_name(m["name"]) and not before[m.end() :].strip(" .!,;:—–-")


def _named(p: _Piece, m: re.Match[str]) -> None:
    """The speaker's name ("ricky here": the user is called Ricky), and an alias where the speaker is a role."""
    name, speaker = m["name"], p.speaker
    if name.lower() == speaker.lower():
        return
    c = _piece_clause(p, m.start("name"), m.end(), speaker)
    _emit(c, FactKind.ATTRIBUTE, "name", name, m.end(), _piece_mood(p), f"{speaker} is called {name}")
    if speaker.lower() in rv.ROLE_SPEAKERS or not speaker[:1].isupper():
        _alias(p, speaker, name)


def _fragments(text: str, start: int) -> list[tuple[int, int]]:
    """The spans of the comma-separated fragments of ``text`` from ``start`` on."""
    spans, at = [], start
    for cut in _FRAGMENT_CUT.finditer(text, start):
        spans.append((at, cut.start()))
        at = cut.end()
    spans.append((at, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _read_fragment(p: _Piece, span: tuple[int, int], try_clause: Callable[[_Piece, _Subject, str], None]) -> None:
    text = p.piece.text
    at = span[0] + len(text[span[0] : span[1]]) - len(text[span[0] : span[1]].lstrip())
    if _SAYS_I.match(text, at):
        return  # "im a backend dev ...": a clause with its subject, which the rules' walk reads
    home = _HOME_FRAGMENT.match(text, at)
    if home is not None:
        lowered = text[:at] + text[at].lower() + text[at + 1 :]  # "Live in ..." opening a sentence
        cut = at - 1 if at and text[at - 1].isspace() else at  # the rules match from the space before a verb
        try_clause(p, _Subject(p.speaker, cut, cut), lowered)
        return
    job = _JOB_FRAGMENT.match(text, at)
    if job is None or job.end() > span[1] or not _JOB_TAIL.fullmatch(text, job.end(), span[1]):
        return
    title = job["job"]
    title = title[0].lower() + title[1:] if title[1:].islower() else title  # "Ux researcher" opened its sentence
    if rs.object_rejected(title):
        return
    c = _piece_clause(p, at, at, p.speaker)
    mood = _piece_mood(p)
    emit_job(c, title, job.end(), mood)
    if job["org"]:  # "at Zalando in Berlin": the employer, not its city
        _org_fact(c, re.split(r"\s+(?:in|near)\s+", job["org"])[0], job.end(), mood)
