"""The offline extractor: regular expressions over each piece, no network, no model (stdlib ``re`` only).

Precision over recall. A fact needs a subject at the start of a clause -- "I", "we" (both the speaker), "Tom and I"
(the speaker, companion Tom), "my sister" ("<speaker>'s sister"), "my sister Priya" / "Priya's fiancé Marcus" (the
name), or a capitalised name -- then an aux chain ("'m not", "'ve been", "am going to") and one of the verb patterns
of ``_RULES``; or, at the very start of a piece, a bare past-tense event ("Went to The Arch on Tuesday"). "he",
"she", "they", "it" and "you" are never resolved: their statements give no fact. A capitalised word that the session
never shows mid-sentence ("Change starts small") may be no name, so it only takes predicates that presuppose a
person (likes, lives in, ...). The assistant's own turns give no facts (``skip_speakers``). Piece-wide rules add
relations and aliases ("my sister Priya", "Tom (my partner)", "a dog named Rex"), self-introductions ("Hi! I'm Maya":
alias user -> Maya), favourites, "my <attribute> is ...".

Decisions: the object is cut at a clause boundary and before a time expression (found with
:func:`sodamem.ingest.timeparse.find_times`, so the words handed on are words the resolver reads); "my"/"our" in an
object become "<speaker>'s". Negated preferences and "used to"/"no longer"/"not anymore" stay ASSERTED with polarity
False ("I used to love X": likes X, polarity False, text "... used to like X"); other negations are NEGATED. A past
like ("I loved the concert") is an OPINION ``enjoyed``, not a standing preference; a simple-past state ("I lived in
Paris") has polarity False. "going to/will/want to/hope to/thinking of", and a progressive of an arranging verb
("I'm moving to Leeds"), make PLAN facts (modality PLANNED, the predicate kept: a planned ``moved``); other plans
are ``plans_to`` with the verb phrase as object. "if/would/could/might/can/'d" make HYPOTHETICAL facts; "X said
(that) ..." REPORTED ones; a piece ending in "?" QUESTION ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from sodamem.ingest.extract import rules_patterns as rp
from sodamem.ingest.extract.base import AliasHint, CandidateFact, Extraction, SessionView, TurnView
from sodamem.ingest.timeparse import find_times
from sodamem.model import EntityRole, FactKind, MessagePiece, Modality

K, M = FactKind, Modality


@dataclass(frozen=True, slots=True)
class _Subject:
    name: str
    start: int  # offsets in the piece's text
    end: int
    companions: tuple[str, ...] = ()
    third: bool = False  # a third-person singular subject: "Priya", "my sister" (so "Priya like ..." is no clause)
    tentative: bool = False  # a capitalised word never seen mid-sentence: perhaps no name at all ("Change starts")


@dataclass(slots=True)
class _Piece:
    turn: TurnView
    piece: MessagePiece
    speaker: str
    times: list[tuple[int, int, str]]
    question: bool
    out: Extraction
    names: frozenset[str]
    seen: set[tuple[object, ...]] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class _Clause:
    p: _Piece
    subj: _Subject
    aux: str
    text: str  # the piece's text as matched (a pro-drop piece has its first letter lower-cased)
    reported: bool = False
    conditional: bool = False

    @property
    def speaker(self) -> str:
        return self.p.speaker


@dataclass(frozen=True, slots=True)
class _Mood:
    modality: Modality
    polarity: bool
    note: str = ""  # "used_to", "no_longer", "past"


@dataclass(frozen=True, slots=True)
class _Obj:
    text: str  # the object, cleaned
    end: int  # where its clause ends (the quote's end)
    roles: tuple[EntityRole, ...] = ()


class RulesExtractor:
    """The offline default extractor (``name == "rules"``)."""

    def __init__(self, *, skip_speakers: tuple[str, ...] = ("assistant", "system")) -> None:
        self._skip = frozenset(s.lower() for s in skip_speakers)

    @property
    def name(self) -> str:
        return "rules"

    def extract(self, session: SessionView) -> Extraction:
        out = Extraction()
        names = _known_names(session)
        for turn in session.turns:
            if turn.speaker.lower() in self._skip:
                continue
            for piece in turn.pieces:
                times = [
                    (t.char_start, t.char_end, t.spec.expression) for t in find_times(piece.text, session.timestamp)
                ]
                p = _Piece(turn, piece, turn.speaker, times, bool(rp.QUESTION_END.search(piece.text)), out, names)
                _extract_piece(p)
        return out


def _known_names(session: SessionView) -> frozenset[str]:
    """Participants and capitalised words seen mid-sentence: a word capitalised only where sentences start
    ("Change starts small") is not taken for a name."""
    found = {w for p in session.participants for w in p.split()}
    for turn in session.turns:
        found.update(m["name"] for m in rp.MID_SENTENCE_NAME.finditer(turn.text))
        found.add(turn.speaker)
    return frozenset(found)


# --- walking a piece ---------------------------------------------------------------------------------------------
def _extract_piece(p: _Piece) -> None:
    text = p.piece.text
    for rule in _PIECE_RULES:
        rule(p)
    if rp.PRO_DROP.match(text):
        lowered = text[0].lower() + text[1:]
        _try_clause(p, _Subject(p.speaker, 0, 0), lowered)
    for m in rp.SUBJECT.finditer(text):
        subject = _subject(p, m)
        if subject is not None:
            _try_clause(p, subject, text)


def _subject(p: _Piece, m: re.Match[str]) -> _Subject | None:
    before = p.piece.text[: m.start()]
    speaker = p.speaker
    if m["i"] or m["we"] or m["pair"] or m["pair2"]:
        if rp.RELATIVE_BEFORE.search(before) and not rp.REPORTING_BEFORE.search(before):
            return None
        other = m["pa"] or m["pb"]
        companions = (_person(other, speaker),) if other else ()
        if other and not _is_name(other) and not other.lower().startswith("my"):
            return None
        return _Subject(speaker, m.start(), m.end(), companions)
    if not (rp.CLAUSE_START_BEFORE.search(before) or _time_ends(p, m.start())):
        return None
    if m["my"]:
        rel = " ".join(m["rel"].lower().split())
        name = m["relname"]
        if name and _is_name(name):
            return _Subject(name, m.start(), m.end(), third=True)
        end = m.start("relname") if name else m.end()
        return _Subject(f"{speaker}'s {rel}", m.start(), end, third=rel in rp.REL_SINGLE)
    if m["poss"]:
        if not _is_name(m["owner"]):
            return None
        if m["pname"] and _is_name(m["pname"]):
            return _Subject(m["pname"], m.start(), m.end(), third=True)
        end = m.start("pname") if m["pname"] else m.end()
        return _Subject(f"{m['owner']}'s {m['prel'].lower()}", m.start(), end, third=True)
    name = m["name"]
    first = name.split()[0].lower()
    if first in rp.KIN_BARE and len(name.split()) == 1:
        return _Subject(f"{speaker}'s {first}", m.start(), m.end(), third=True)
    if not _is_name(name):
        return None
    return _Subject(name, m.start(), m.end(), third=True, tentative=len(name.split()) == 1 and name not in p.names)


def _is_name(name: str) -> bool:
    return all(w.lower().replace("’", "'") not in rp.NAME_STOP for w in name.split())


def _person(mention: str, speaker: str) -> str:
    """``"my sister"`` -> ``"Maya's sister"``; a name stays a name."""
    m = re.match(rf"(?:[Mm]y|[Oo]ur)\s+{rp.REL_MOD}(?P<rel>{rp.REL})(?:\s+(?P<name>{rp.NAME}))?$", mention)
    if m is None:
        return mention
    if m["name"] and _is_name(m["name"]):
        return m["name"]
    return f"{speaker}'s {' '.join(m['rel'].lower().split())}"


def _time_ends(p: _Piece, pos: int) -> bool:
    """A time expression right before ``pos`` ("Last weekend I went ...") also starts a clause."""
    return any(0 <= pos - end <= 2 and p.piece.text[end:pos].strip() in ("", ",") for _, end, _ in p.times)


def _try_clause(p: _Piece, subj: _Subject, text: str) -> None:
    cuts = [subj.end]
    pos = subj.end
    contraction = rp.AUX_CONTRACTION.match(text, pos) if pos > 0 else None
    if contraction:
        pos = contraction.end()
        cuts.append(pos)
    while (aux := rp.AUX_WORD.match(text, pos)) is not None and aux.end() > pos:
        pos = aux.end()
        cuts.append(pos)
    before = text[: subj.start]
    bare = re.match(r"\s+([a-z]+)", text[subj.end :]) if subj.third and len(cuts) == 1 else None
    if bare is not None and bare.group(1) in rp.BASE_FORMS:
        return  # "Come join us", "Stuff like this": no third-person subject takes a bare verb
    for cut in reversed(cuts):
        clause = _Clause(
            p,
            subj,
            " ".join(text[subj.end : cut].lower().replace("’", "'").split()),
            text,
            reported=bool(rp.REPORTING_BEFORE.search(before)),
            conditional=bool(rp.CONDITIONAL_BEFORE.search(before)),
        )
        for pattern, handler, who in _RULES:
            if (who == "others" and subj.name == p.speaker) or (subj.tentative and who == "any"):
                continue
            m = pattern.match(text, cut)
            if m is not None and handler(clause, m):
                return


# --- moods, objects, facts ---------------------------------------------------------------------------------------
def _mood(c: _Clause, tail: str = "", *, ing: bool = False, preference: bool = False, state: bool = False) -> _Mood:
    """Modality and polarity from the context and the aux chain (``ing``: a progressive that means a plan)."""
    aux = c.aux
    neg = bool(rp.NEG.search(aux))
    if c.p.question:
        modality = M.QUESTION
    elif c.reported:
        modality = M.REPORTED
    elif c.conditional or rp.HYPOTHETICAL.search(aux) or re.search(r"\b(?:wanted|tried|try|trying)\s+to\b", aux):
        modality = M.HYPOTHETICAL
    elif (
        rp.PLAN.search(aux)
        or (rp.OBLIGATION.search(aux) and not preference and not (state and "supposed to" in aux))
        or (ing and rp.COPULA.search(aux) and not rp.BEEN.search(aux))
    ):
        modality = M.PLANNED
    else:
        modality = M.ASSERTED
    if preference and modality is M.PLANNED and re.search(r"\balways\b", aux):
        modality = M.ASSERTED  # "I will always love reading"
    if modality in (M.ASSERTED, M.QUESTION, M.REPORTED):
        if rp.USED_TO.search(aux):
            return _Mood(modality, False, "used_to")
        if rp.NO_LONGER.search(aux) or (neg and rp.ANYMORE.search(tail)):
            return _Mood(modality, False, "no_longer")
    if neg:
        if preference or modality is not M.ASSERTED:
            return _Mood(modality, False)
        return _Mood(M.NEGATED, True)
    if state and modality is M.ASSERTED and re.search(r"\b(?:was|were)\b", aux) and not rp.PERFECT.search(aux):
        return _Mood(modality, False, "past")
    return _Mood(modality, True)


def _object(c: _Clause, start: int, *, allow_list: bool = False, roles: bool = False, cut_time: bool = True) -> _Obj:
    text = c.text
    while start < len(text) and text[start].isspace():
        start += 1
    end = rp.clause_end(text, start, allow_list=allow_list)
    obj_end = end
    if cut_time:
        for t_start, _, _ in c.p.times:
            if start <= t_start < obj_end:
                obj_end = t_start
                break
    obj = rp.strip_tail(text[start:obj_end].strip())
    found: list[EntityRole] = []
    if roles:
        obj, found = _split_roles(obj, c.speaker)
    obj = re.sub(r"\b(?:[Mm]y|[Oo]ur)\s+(?=\w)", f"{c.speaker}'s ", obj)
    if obj.lower() in rp.FIRST_PERSON_OBJ:
        obj = c.speaker
    quote_end = len(text[:end].rstrip(" ,;:-–—"))
    return _Obj(obj, quote_end, tuple(found))


def _split_roles(obj: str, speaker: str) -> tuple[str, list[EntityRole]]:
    cut = len(obj)
    found: list[EntityRole] = []
    comp = rp.COMPANION.search(obj)
    if comp is not None:
        for mention in re.split(r",\s*|\s+and\s+", comp["comp"]):
            person = _person(mention.strip(), speaker)
            if person.startswith(f"{speaker}'s") or _is_name(person):
                found.append(EntityRole("companion", person))
        if found:
            cut = comp.start()
    loc = rp.LOCATION.search(obj)
    if loc is not None:
        place = re.sub(r"^the\s+", "", loc["loc"])
        if _is_name(re.sub(r"^The\s+", "", place)):
            found.append(EntityRole("location", place))
            cut = min(cut, loc.start())
    return obj[:cut].strip(), found


_PAST = {"works as": "worked as", "works at": "worked at", "studies": "studied", "studies at": "studied at"}


def _say(subject: str, mood: _Mood, pres: str, base: str, obj: str, *, negative: str = "") -> str:
    """A short normalised statement: "Maya likes spicy food", "Maya plans to visit Lisbon", ..."""
    be = base == "be"
    pol, note = mood.polarity, mood.note
    not_ = "" if pol else " not"
    if mood.modality is M.PLANNED:
        verb = f"plans to {base}" if pol else f"does not plan to {base}"
    elif mood.modality is M.HYPOTHETICAL:
        verb = f"would{not_} {base}"
    elif mood.modality is M.NEGATED:
        verb = "is not" if be else f"{'did' if pres.endswith('ed') or pres in rp.IRREGULAR_PAST else 'does'} not {base}"
    elif not pol and note == "used_to":
        verb = f"used to {base}"
    elif not pol and note == "no_longer":
        verb = "is no longer" if be else f"no longer {pres}"
    elif not pol and note == "past":
        verb = "was" if be else _PAST.get(pres, pres)
    elif not pol:
        verb = negative or ("is not" if be else f"does not {base}")
    else:
        verb = pres
    sentence = " ".join(w for w in (subject, verb, obj) if w)
    if mood.modality is M.QUESTION:
        return sentence + "?"
    if mood.modality is M.REPORTED:
        return sentence + " (reported)"
    return sentence


def _emit(
    c: _Clause,
    kind: FactKind,
    predicate: str,
    obj: str | None,
    end: int,
    mood: _Mood,
    text: str,
    *,
    roles: tuple[EntityRole, ...] = (),
    subject: str | None = None,
) -> bool:
    p = c.p
    begin = c.subj.start
    quote = p.piece.text[begin:end].rstrip()
    if not quote.strip():
        return False
    if mood.modality is M.PLANNED:
        kind = K.PLAN
    subject = subject or c.subj.name
    companions = tuple(EntityRole("companion", name) for name in c.subj.companions)
    all_roles = tuple(dict.fromkeys(companions + roles))
    key = (p.turn.index, kind, predicate, subject, (obj or "").lower(), mood.modality, mood.polarity)
    if key in p.seen:
        return True
    p.seen.add(key)
    p.out.facts.append(
        CandidateFact(
            kind=kind,
            predicate=predicate,
            subject=subject,
            turn_index=p.turn.index,
            quote=quote,
            object=obj,
            modality=mood.modality,
            polarity=mood.polarity,
            roles=all_roles,
            char_start=p.piece.char_start + begin,
            time_expression=_time_for(p, begin, end, nearby=kind in (K.EVENT, K.PLAN)),
            text=text,
        )
    )
    return True


def _time_for(p: _Piece, start: int, end: int, *, nearby: bool) -> str | None:
    """The time words inside the quote; for events and plans, else the nearest ones in the piece."""
    inside = [t for t in p.times if start <= t[0] < end]
    if inside:
        return inside[0][2]
    if not nearby or not p.times:
        return None
    return min(p.times, key=lambda t: min(abs(t[0] - end), abs(t[1] - start)))[2]


def _alias(p: _Piece, alias: str, canonical: str) -> None:
    hint = AliasHint(alias=alias, canonical=canonical, turn_index=p.turn.index)
    if hint not in p.out.aliases and alias != canonical:
        p.out.aliases.append(hint)


# --- rules after a subject ---------------------------------------------------------------------------------------
Handler = Callable[[_Clause, re.Match[str]], bool]


def _offered(c: _Clause, m: re.Match[str]) -> bool:
    end = _object(c, m.end()).end
    mood = _mood(c)
    text = f"{c.speaker} was offered {m['obj']} by {c.subj.name}"
    org = (EntityRole("organization", c.subj.name),)
    return _emit(c, K.EVENT, "job_offer", m["obj"], end, mood, text, roles=org, subject=c.speaker)


def _took_me(c: _Clause, m: re.Match[str]) -> bool:
    obj = _object(c, m.end(), roles=True)
    if rp.object_rejected(obj.text):
        return False
    mood = _mood(c)
    roles = (EntityRole("companion", c.subj.name), *obj.roles)
    text = _say(c.speaker, mood, "went", "go", f"to {obj.text} with {c.subj.name}")
    return _emit(c, K.EVENT, "went", obj.text, obj.end, mood, text, roles=roles, subject=c.speaker)


def _diet(c: _Clause, m: re.Match[str]) -> bool:
    if not (rp.COPULA.search(c.aux) or rp.CHANGE_VERB.search(m["pre"])):
        return False
    mood = _mood(c, c.text[m.end() :], state=True)
    diet = " ".join(m["obj"].lower().split())
    return _emit(c, K.ATTRIBUTE, "diet", diet, m.end(), mood, _say(c.subj.name, mood, "is", "be", diet))


def _rel_status(c: _Clause, m: re.Match[str]) -> bool:
    got = re.search(r"\b(?:get|got|getting|gotten)\b", m["pre"])
    if not (rp.COPULA.search(c.aux) or got):
        return False
    status = " ".join(m["obj"].split())
    mood = _mood(c, c.text[m.end() :], ing=bool(got), state=True)
    end = _object(c, m.end()).end
    done = _emit(c, K.ATTRIBUTE, "relationship_status", status, end, mood, _say(c.subj.name, mood, "is", "be", status))
    if got:
        verb = f"got {status}"
        _emit(
            c, K.EVENT, f"got_{rp.snake(status)}", None, end, mood, _say(c.subj.name, mood, verb, f"get {status}", "")
        )
    if m["to"] and rp.NAME_STOP.isdisjoint(m["to"].lower().split()):
        _emit(c, K.RELATION, "spouse", m["to"], end, mood, f"{c.subj.name}'s spouse is {m['to']}")
    return done


def _dating(c: _Clause, m: re.Match[str]) -> bool:
    if not rp.COPULA.search(c.aux) or not _is_name(m["name"]):
        return False
    mood = _mood(c, state=True)
    _emit(c, K.ATTRIBUTE, "relationship_status", "dating", m.end(), mood, _say(c.subj.name, mood, "is", "be", "dating"))
    text = _say(c.subj.name, mood, "is dating", "date", m["name"])
    return _emit(c, K.RELATION, "dating", m["name"], m.end(), mood, text)


def _age(c: _Clause, m: re.Match[str]) -> bool:
    if not (m["turn"] or re.fullmatch(r"'m|'s|am|is|'m now|am now|is now", c.aux)) or int(m["age"]) > 120:
        return False
    mood = _mood(c, ing=bool(m["turn"] and m["turn"].startswith("turning")), state=True)
    text = _say(c.subj.name, mood, "is", "be", f"{m['age']} years old")
    return _emit(c, K.ATTRIBUTE, "age", m["age"], m.end("age"), mood, text)


def _job(c: _Clause, m: re.Match[str]) -> bool:
    if not rp.COPULA.search(c.aux) or c.aux.endswith("being"):
        return False
    job = " ".join(m["job"].lower().split())
    mood = _mood(c, state=True)
    end = m.end()
    done = _emit(c, K.ATTRIBUTE, "job", job, end, mood, _say(c.subj.name, mood, "works as", "work as", _a(job)))
    if m["org"]:
        _org_fact(c, m["org"], end, mood, student=job == "student")
    return done


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _from(c: _Clause, m: re.Match[str]) -> bool:
    grew = m["grew"] is not None
    if not grew and not re.search(r"(?:'m|'s|'re|\b(?:am|is|are|originally))$", c.aux):
        return False
    place = re.sub(r"^the\s+", "", m["place"])
    mood = _mood(c, state=True)
    predicate, pres, base = ("grew_up_in", "grew up in", "grow up in") if grew else ("comes_from", "is from", "be from")
    text = _say(c.subj.name, mood, pres, base, place)
    return _emit(c, K.ATTRIBUTE, predicate, place, m.end(), mood, text)


def _org_fact(c: _Clause, org: str, end: int, mood: _Mood, *, student: bool = False) -> bool:
    org = re.sub(r"^the\s+", "", org)
    if student:
        return _emit(c, K.STATE, "studies_at", org, end, mood, _say(c.subj.name, mood, "studies at", "study at", org))
    return _emit(c, K.STATE, "works_at", org, end, mood, _say(c.subj.name, mood, "works at", "work at", org))


def _work(c: _Clause, m: re.Match[str]) -> bool:
    text, verb = c.text, m["verb"]
    if verb == "working" and not rp.COPULA.search(c.aux):
        return False
    mood = _state_mood(c, verb == "worked", m.end())
    as_ = rp.WORK_AS.match(text, m.end())
    if as_ is not None:
        obj = _object(c, as_.end())
        job, org = obj.text, None
        split = rp.ORG_SPLIT.search(job)
        if split is not None:
            job, org = job[: split.start()], split["org"]
        if rp.object_rejected(job):
            return False
        job = re.sub(r"^an?\s+", "", job)
        _emit(c, K.ATTRIBUTE, "job", job, obj.end, mood, _say(c.subj.name, mood, "works as", "work as", _a(job)))
        if org:
            _org_fact(c, org, obj.end, mood)
        return True
    at = rp.AT_ORG.match(text, m.end())
    if at is None:
        return False
    obj = _object(c, at.end())
    org = obj.text
    capitalised = re.match(rf"(?:the\s+)?{rp.NAME}$", org) is not None
    if rp.object_rejected(org) and not capitalised:
        return False
    if (not capitalised and not re.match(r"(?:a|an|the)\s", org)) or len(org.split()) > 5:
        return False
    return _org_fact(c, org, obj.end, mood)


def _state_mood(c: _Clause, past: bool, after: int) -> _Mood:
    mood = _mood(c, c.text[after:], state=True)
    if past and mood.polarity and mood.modality is M.ASSERTED and not rp.PERFECT.search(c.aux):
        return _Mood(M.ASSERTED, False, "past")
    return mood


def _live(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"]
    if verb == "living" and not rp.COPULA.search(c.aux):
        return False
    obj = _object(c, m.end())
    place, roles = _split_roles(obj.text, c.speaker)
    locations = [r.entity for r in roles if r.role == "location"]
    if not re.match(rf"(?:the\s+)?{rp.NAME}", place):
        if locations:
            place = locations[0]
        elif not re.match(r"(?:a|an|the)\s", place) or rp.NOT_A_HOME & set(place.lower().split()):
            return False
    if rp.object_rejected(place) and not place[:1].isupper():
        return False
    mood = _state_mood(c, verb == "lived", m.end())
    pres = "lived in" if mood.note == "past" else "lives in"
    return _emit(c, K.STATE, "lives_in", place, obj.end, mood, _say(c.subj.name, mood, pres, "live in", place))


def _move(c: _Clause, m: re.Match[str]) -> bool:
    verb, prep = m["verb"], (m["prep"] or "")
    if not prep:
        return False
    obj = _object(c, m.end(), roles=True)
    if not obj.text or rp.object_rejected(obj.text):
        return False
    mood = _mood(c, ing=verb == "moving")
    if verb == "moving" and not (rp.COPULA.search(c.aux) or rp.PLAN.search(c.aux)):
        return False
    if prep == "from":
        roles = (EntityRole("origin", obj.text), *obj.roles)
        text = _say(c.subj.name, mood, "moved", "move", f"from {obj.text}")
        return _emit(c, K.EVENT, "moved", None, obj.end, mood, text, roles=roles)
    place = obj.text
    text = _say(c.subj.name, mood, "moved", "move", f"to {place}")
    done = _emit(c, K.EVENT, "moved", place, obj.end, mood, text, roles=obj.roles)
    home = place if place[:1].isupper() else next((r.entity for r in obj.roles if r.role == "location"), None)
    if home and verb == "moved" and mood.modality is M.ASSERTED and mood.polarity:
        _emit(c, K.STATE, "lives_in", home, obj.end, mood, _say(c.subj.name, mood, "lives in", "live in", home))
    return done


def _study(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"]
    if verb == "studying" and not rp.COPULA.search(c.aux):
        return False
    obj = _object(c, m.end())
    first = obj.text.split()[0].lower() if obj.text else ""
    if first in rp.STUDY_STOP or rp.object_rejected(obj.text):
        return False
    mood = _state_mood(c, verb in ("studied", "majored in"), m.end())
    subject_, roles = _split_roles(obj.text, c.speaker)
    if not subject_:
        return False
    done = _emit(c, K.STATE, "studies", subject_, obj.end, mood, _say(c.subj.name, mood, "studies", "study", subject_))
    for role in roles:
        if role.role == "location":
            _org_fact(c, role.entity, obj.end, mood, student=True)
    return done


def _have(c: _Clause, m: re.Match[str]) -> bool:
    verb, num = m["verb"], " ".join(m["num"].lower().split())
    if verb == "got" and not rp.PERFECT.search(c.aux):
        return False
    neg = bool(rp.NEG.search(c.aux))
    if num == "any" and not neg:
        return False
    noun_surface = " ".join(m["noun"].lower().split())
    noun = rp.POSSESSION_FORMS[noun_surface]
    count = "0" if neg or num in ("no", "zero") else rp.count_value(num)
    if (count == "1" and noun_surface != noun) or (count not in ("0", "1") and noun_surface == noun != rp.plural(noun)):
        return False
    mood = _state_mood(c, verb in ("had", "owned"), m.end())
    if neg and mood.modality is M.NEGATED:
        mood = _Mood(M.ASSERTED, True)
    shown = f"no {rp.plural(noun)}" if count == "0" else f"{num} {m['mods']}{noun_surface}"
    pres = "had" if mood.note == "past" else "has"
    text = _say(c.subj.name, mood, pres, "have", " ".join(shown.split()))
    done = _emit(c, K.ATTRIBUTE, f"has_{rp.snake(noun)}", count, m.end(), mood, text)
    if m["name"] and count == "1" and _is_name(m["name"]):
        _relation(c.p, c.subj.name, noun, m["name"], c.subj.start, m.end())
    return done


def _cut_down(c: _Clause, m: re.Match[str]) -> bool:
    return _preference(c, m.end(), False, "is cutting down on" if "cut" in m.group() else "has gone off")


def _fan(c: _Clause, m: re.Match[str]) -> bool:
    if not rp.COPULA.search(c.aux):
        return False
    return _preference(c, m.end(), True)


def _like(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"]
    if verb == "stand":
        if not re.search(r"\b(?:can't|cannot|cant|couldn't|couldnt)\b", c.aux):
            return False
        clause = _Clause(c.p, c.subj, re.sub(r"\b(?:can't|cannot|cant|couldn't|couldnt)\b", "", c.aux), c.text,
                         c.reported, c.conditional)  # fmt: skip
        return _preference(clause, m.end(), False, "cannot stand")
    if verb.endswith("ing") and not rp.COPULA.search(c.aux):
        return False
    if not verb.endswith("ing") and re.search(r"(?:'m|'re|'s|\b(?:am|is|are|was|were|be))$", c.aux):
        return False  # "we're like a family"
    positive = verb not in rp.NEGATIVE_LIKES
    wish = (
        re.search(r"['’]d\b|\bwould\b", c.aux) and verb in ("love", "like") and re.match(r"\s+to\s", c.text[m.end() :])
    )
    if wish:
        return _plan(c, m.end() + c.text[m.end() :].index("to") + 2, predicate="wants_to")
    past = verb.endswith("ed") and not rp.PERFECT.search(c.aux) and not rp.USED_TO.search(c.aux)
    return _preference(
        c, m.end(), positive, "" if positive else "dislikes", opinion=past, prefer=verb.startswith("pref")
    )


def _preference(
    c: _Clause, start: int, positive: bool, negative: str = "", *, opinion: bool = False, prefer: bool = False
) -> bool:
    obj = _object(c, start, allow_list=True)
    text = obj.text
    if prefer:
        text = rp.PREFER_CUT.split(text)[0]
    if opinion and rp.object_rejected(text):
        return False
    mood = _mood(c, c.text[start:], preference=True)
    if not positive:
        mood = _Mood(mood.modality, not mood.polarity, mood.note)
    kind, predicate, pres = (K.OPINION, "enjoyed", "enjoyed") if opinion else (K.PREFERENCE, "likes", "likes")
    done = False
    for item in rp.split_list(text):
        core = item[3:] if item.startswith("to ") else item
        if rp.object_rejected(core):
            continue
        if not mood.polarity and negative and mood.modality is M.ASSERTED and not mood.note:
            say = f"{c.subj.name} {negative} {item}"
        else:
            say = _say(c.subj.name, mood, pres, pres[:-1] if opinion else "like", item)
        done = _emit(c, kind, predicate, item, obj.end, mood, say) or done
    return done


def _trip(c: _Clause, m: re.Match[str]) -> bool:
    obj = _object(c, m.end(), roles=True)
    if rp.object_rejected(obj.text):
        return False
    verb = m["verb"]
    planned = verb.startswith(("doing", "taking", "going", "having", "plan", "book"))
    mood = _mood(c, ing=planned)
    if planned and mood.modality is M.ASSERTED:
        mood = _Mood(M.PLANNED, mood.polarity)
    roles = (EntityRole("location", obj.text), *obj.roles) if obj.text[:1].isupper() else obj.roles
    text = _say(c.subj.name, mood, "went", "go", f"to {obj.text}")
    return _emit(c, K.EVENT, "went", obj.text, obj.end, mood, text, roles=roles)


def _go(c: _Clause, m: re.Match[str]) -> bool:
    verb, text = m["verb"], c.text
    if verb == "been" and not rp.PERFECT.search(c.aux):
        return False
    if verb == "going" and not (rp.COPULA.search(c.aux) or rp.PLAN.search(c.aux)):
        return False
    prep = ""
    at = m.end()
    if verb == "been":
        to = re.match(r"\s+to\s+", text[at:])
        if to is None:
            return False
        prep, at = "to", at + to.end()
    elif (to := rp.GO_TO.match(text, at)) is not None:
        prep, at = "to", to.end()
    elif (for_ := rp.GO_FOR.match(text, at)) is not None:
        prep, at = for_["prep"], for_.end()
    elif (ing := rp.GO_ING.match(text, at) or rp.GO_HOME.match(text, at)) is not None:
        at = ing.end()
    else:
        return False
    obj = _object(c, at, roles=True)
    named_place = prep == "to" and obj.text[:1].isupper()
    if rp.object_rejected(obj.text) and not named_place and obj.text.split()[:1] != ["home"]:
        return False
    mood = _mood(c, text[at:], ing=verb == "going")
    roles = obj.roles
    if prep == "to" and re.match(rf"(?:The\s+)?{rp.NAME}$", obj.text):
        roles = (EntityRole("location", obj.text), *roles)
    shown = f"{prep} {obj.text}".strip()
    return _emit(c, K.EVENT, "went", obj.text, obj.end, mood, _say(c.subj.name, mood, "went", "go", shown), roles=roles)


def _simple_event(predicate: str, pres: str, base: str) -> Handler:
    def handler(c: _Clause, m: re.Match[str]) -> bool:
        nonlocal pres, base
        obj = _object(c, m.end(), roles=True)
        if rp.object_rejected(obj.text):
            return False
        mood = _mood(c, ing=bool(re.search(r"ing\b", m.group())))
        src = m.groupdict().get("src")
        if src:
            pres, base, shown = pres.removesuffix(" to"), base.removesuffix(" to"), f"from {src.strip()} to {obj.text}"
        else:
            shown = obj.text
        text = _say(c.subj.name, mood, pres, base, shown)
        return _emit(c, K.EVENT, predicate, obj.text, obj.end, mood, text, roles=obj.roles)

    return handler


def _event(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"].lower()
    predicate, base, form = rp.EVENT_FORM_INDEX[verb]
    modal = rp.PLAN.search(c.aux) or rp.OBLIGATION.search(c.aux) or rp.HYPOTHETICAL.search(c.aux)
    if form == 3 and not (rp.COPULA.search(c.aux) or modal):
        return False
    if form in (0, 1) and predicate == "ran" and not modal:
        return False
    if form == 0 and re.search(r"\b(?:have|has|had)\b|'ve", c.aux) and base != verb:
        return False
    obj = _object(c, m.end(), roles=True)
    what, shown = obj.text, obj.text
    if predicate == "graduated" and what.startswith("from "):
        what = what[5:]
    proper = re.match(rf"{rp.NAME}(?=\s+(?:at|in|on|near|during|through)\s+[a-z])", what)
    if proper is not None:
        what = shown = proper.group()
    if rp.object_rejected(what) or what.split()[0].lower() in rp.EVENT_STOP_OBJECTS:
        return False
    mood = _mood(c, c.text[m.end() :], ing=form == 3 and predicate in rp.FUTURE_PROGRESSIVE)
    text = _say(c.subj.name, mood, predicate, base, shown)
    job = re.search(r"\b(?:job|role|position|work)\b", obj.text)
    orgs = [r.entity for r in obj.roles if r.role == "location"]
    roles = tuple(EntityRole("organization", r.entity) if job and r.role == "location" else r for r in obj.roles)
    done = _emit(c, K.EVENT, predicate, what, obj.end, mood, text, roles=roles)
    named = rp.NAMED_PET.search(obj.text)
    if named and predicate in ("adopted", "bought") and mood.modality is M.ASSERTED and _is_name(named["name"]):
        unique = not obj.text.startswith("another")
        _relation(c.p, c.subj.name, named["rel"], named["name"], c.subj.start, obj.end, alias=unique)
    if job and orgs and predicate in ("started", "quit", "lost") and mood.modality is M.ASSERTED:
        state = _Mood(M.ASSERTED, predicate == "started")
        _org_fact(c, orgs[0], obj.end, state)
    return done


def _plan(c: _Clause, at: int, predicate: str = "plans_to") -> bool:
    m = rp.GENERIC_PLAN.match(c.text, at)
    if m is None:
        return False
    verb = m["verb"]
    if verb in rp.PLAN_STOP_VERBS or verb in rp.PRONOUN_START or verb in rp.DETERMINERS or verb.endswith(("ly", "ed")):
        return False
    if rp.AUX_WORD.match(c.text, at) or re.search(r"\b(?:be|been|being|have|has|had|do|does|did)$", c.aux):
        return False
    gerund = re.search(r"\b(?:thinking\s+(?:of|about)|considering)$", c.aux) is not None
    if verb.endswith("ing") != gerund:
        return False
    obj = _object(c, m.end(), roles=True)
    if not obj.text or rp.object_rejected(obj.text):
        return False
    what = f"{verb} {obj.text}"
    mood = _mood(c)
    plans = "plans on" if gerund else "plans to"
    if predicate == "wants_to":
        text = _say(c.subj.name, mood, "wants to", "want to", what)
    elif mood.modality is M.HYPOTHETICAL:
        text = f"{c.subj.name} would{'' if mood.polarity else ' not'} {what}"
    else:
        text = _say(c.subj.name, _Mood(M.ASSERTED, mood.polarity), plans, plans.replace("plans", "plan"), what)
        text += "?" if mood.modality is M.QUESTION else " (reported)" if mood.modality is M.REPORTED else ""
    return _emit(c, K.PLAN, predicate, what, obj.end, mood, text, roles=obj.roles)


def _generic_plan(c: _Clause, m: re.Match[str]) -> bool:
    if not (rp.PLAN.search(c.aux) or rp.OBLIGATION.search(c.aux)):
        return False
    return _plan(c, m.start())


# A rule's subjects: "any", "others" (a name or relative, never the speaker), or "person" (any subject, and also a
# capitalised word not yet seen as a name mid-sentence: these predicates presuppose a person).
_RULES: tuple[tuple[re.Pattern[str], Handler, str], ...] = (
    (rp.OFFERED, _offered, "others"),
    (rp.TOOK_ME, _took_me, "others"),
    (rp.DIET, _diet, "person"),
    (rp.REL_STATUS, _rel_status, "person"),
    (rp.DATING, _dating, "person"),
    (rp.AGE, _age, "any"),
    (rp.JOB, _job, "person"),
    (rp.WORK, _work, "person"),
    (rp.FROM, _from, "person"),
    (rp.LIVE, _live, "person"),
    (rp.MOVE, _move, "person"),
    (rp.STUDY, _study, "person"),
    (rp.HAVE, _have, "any"),
    (rp.CUT_DOWN, _cut_down, "person"),
    (rp.FAN, _fan, "person"),
    (rp.LIKE, _like, "person"),
    (rp.TRIP, _trip, "any"),
    (rp.GO, _go, "any"),
    (rp.SIGN_UP, _simple_event("signed_up", "signed up for", "sign up for"), "any"),
    (rp.SWITCH, _simple_event("switched", "switched to", "switch to"), "any"),
    (rp.TAKE_UP, _simple_event("started", "took up", "take up"), "any"),
    (rp.EVENT, _event, "any"),
    (rp.GENERIC_PLAN, _generic_plan, "any"),
)


# --- rules over a whole piece ------------------------------------------------------------------------------------
def _piece_clause(p: _Piece, start: int, end: int, subject: str) -> _Clause:
    text = p.piece.text
    return _Clause(p, _Subject(subject, start, end), "", text, reported=bool(rp.REPORTING_BEFORE.search(text[:start])))


def _piece_mood(p: _Piece) -> _Mood:
    return _Mood(M.QUESTION if p.question else M.ASSERTED, True)


def _relation(p: _Piece, owner: str, rel: str, name: str, start: int, end: int, *, alias: bool = True) -> None:
    rel = " ".join(rel.lower().split())
    c = _piece_clause(p, start, end, owner)
    _emit(c, K.RELATION, rp.snake(rel), name, end, _piece_mood(p), f"{owner}'s {rel} is {name}")
    if alias and rel not in rp.NON_UNIQUE_RELS and not p.question:
        _alias(p, f"{owner}'s {rel}", name)


def _relations(p: _Piece) -> None:
    text = p.piece.text
    for pattern in (rp.REL_NAMED, rp.NAME_PAREN_REL, rp.REL_IS_NAMED, rp.NAME_IS_MY_REL, rp.PET_NAMED):
        for m in pattern.finditer(text):
            if _is_name(m["name"]):
                _relation(p, p.speaker, m["rel"], m["name"], m.start(), m.end())
    for m in rp.POSS_REL_NAMED.finditer(text):
        if _is_name(m["name"]) and _is_name(m["owner"]):
            _relation(p, m["owner"], m["rel"], m["name"], m.start(), m.end())


def _self_name(p: _Piece) -> None:
    text = p.piece.text
    m = rp.SELF_NAME.search(text)
    if m is None and p.piece.index <= 2 and rp.GREETING.match(p.turn.text):
        m = rp.GREETING_INTRO.match(text)
    if m is None or not _is_name(m["name"]) or p.question:
        return
    name, speaker = m["name"], p.speaker
    if name.lower() == speaker.lower():
        return
    c = _piece_clause(p, m.start(), m.end(), speaker)
    _emit(c, K.ATTRIBUTE, "name", name, m.end(), _piece_mood(p), f"{speaker} is called {name}")
    if speaker.lower() in rp.ROLE_SPEAKERS or not speaker[:1].isupper():
        _alias(p, speaker, name)
    else:
        _alias(p, name, speaker)


def _owner(p: _Piece, owner: str) -> str:
    return p.speaker if owner.lower() in ("my", "our") else re.sub(r"['’]s$", "", owner)


def _favorite_predicate(thing: str) -> str:
    return "favorite_" + rp.snake(thing).replace("colour", "color").replace("favourite", "favorite")


def _favourites(p: _Piece) -> None:
    text = p.piece.text
    for m in rp.FAVOURITE.finditer(text):
        owner = _owner(p, m["owner"])
        c = _piece_clause(p, m.start(), m.end(), owner)
        obj = _object(c, m.end(), cut_time=False)
        value = re.sub(r"^(?:definitely|probably|still|now|easily)\s+", "", obj.text)
        if rp.object_rejected(value) and not value.startswith("to "):
            continue
        thing = " ".join(m["thing"].split())
        if thing.split()[0] in rp.GENERIC_THINGS and " of " not in thing:
            continue
        _emit(c, K.ATTRIBUTE, _favorite_predicate(thing), value, obj.end, _piece_mood(p),
              f"{owner}'s favorite {thing} is {value}")  # fmt: skip
    for m in rp.FAVOURITE_BACK.finditer(text):
        raw = m["val"]
        value = rp.LEADING_FILLER.sub("", raw.strip())
        if not value or len(value.split()) > 4 or rp.object_rejected(value):
            continue
        start = m.start("val") + len(raw) - len(raw.lstrip()) + (len(raw.strip()) - len(value))
        owner = _owner(p, m["owner"])
        thing = " ".join(m["thing"].split())
        c = _piece_clause(p, start, m.end(), owner)
        _emit(c, K.ATTRIBUTE, _favorite_predicate(thing), value, m.end(), _piece_mood(p),
              f"{owner}'s favorite {thing} is {value}")  # fmt: skip


def _attributes(p: _Piece) -> None:
    text = p.piece.text
    for m in rp.MY_ATTRIBUTE.finditer(text):
        attr = " ".join(m["attr"].lower().split())
        if attr == "name":
            continue
        owner = _owner(p, m["owner"])
        c = _piece_clause(p, m.start(), m.end(), owner)
        obj = _object(c, m.end(), cut_time=False)
        words = obj.text.lower().split()
        if not words or words[0] in rp.WEAK_VALUE or words[0] in ("it", "this", "that", "he", "she", "they", "you"):
            continue
        predicate = attr if attr in ("age", "diet") else "attribute_" + rp.snake(attr)
        _emit(c, K.ATTRIBUTE, predicate, obj.text, obj.end, _piece_mood(p), f"{owner}'s {attr} is {obj.text}")


def _taste(p: _Piece) -> None:
    for m in rp.TASTE.finditer(p.piece.text):
        base = rp.comparative_base(m["adj"])
        if base in rp.TASTES:
            c = _piece_clause(p, m.start(), m.end(), p.speaker)
            food = f"{base} food"
            _emit(c, K.PREFERENCE, "likes", food, m.end(), _piece_mood(p), f"{p.speaker} likes {food}")


def _first_day(p: _Piece) -> None:
    m = rp.FIRST_DAY.search(p.piece.text)
    if m is None:
        return
    org = re.sub(r"^the\s+", "", m["org"])
    first = m["which"].lower() == "first"
    mood = _piece_mood(p) if first else _Mood(_piece_mood(p).modality, False, "no_longer")
    c = _piece_clause(p, m.start(), m.end(), p.speaker)
    _emit(c, K.STATE, "works_at", org, m.end(), mood, _say(p.speaker, mood, "works at", "work at", org))


_PIECE_RULES: tuple[Callable[[_Piece], None], ...] = (
    _relations,
    _self_name,
    _favourites,
    _attributes,
    _taste,
    _first_day,
)
