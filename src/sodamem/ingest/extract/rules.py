"""The offline extractor: regular expressions over each piece, no network, no model (stdlib ``re`` only).

Precision over recall. A fact needs a subject at the start of a clause -- "I", "we" (both the speaker), "Tom and I"
(the speaker, companion Tom), "my sister" ("<speaker>'s sister"), "my sister Priya" / "Priya's fiancé Marcus" (the
name), or a capitalised name -- then an aux chain ("'m not", "'ve been", "am going to") and one of the verb patterns
of ``_RULES``; or, at the very start of a piece, a bare past-tense event ("Went to The Arch on Tuesday"). "he",
"she", "they" and "his/her/their <relation>" stand for whom ``rules_coref`` resolves them to from the speaker's
previous words ("My brother Tom came over. He lives in Leeds": Tom lives in Leeds); unresolved ones, and "it" and
"you" always, give no fact. A capitalised word that the session never shows mid-sentence ("Change starts small") may
be no name, so it only takes predicates that presuppose a person (likes, lives in, ...). The assistant's own turns
give no facts (``skip_speakers``). Piece-wide rules add relations and aliases ("my sister Priya", "Tom (my
partner)", "a dog named Rex", "his wife Anna"), self-introductions ("Hi! I'm Maya": alias user -> Maya), favourites,
"my <attribute> is ...".

Decisions: the object is cut at a clause boundary and before a time expression (found with
:func:`sodamem.ingest.timeparse.find_times`, so the words handed on are words the resolver reads); "my"/"our" in an
object become "<speaker>'s". Negated preferences and "used to"/"no longer"/"not anymore" stay ASSERTED with polarity
False ("I used to love X": likes X, polarity False, text "... used to like X"); other negations are NEGATED. A past
like ("I loved the concert") is an OPINION ``enjoyed``, not a standing preference; a simple-past state ("I lived in
Paris") has polarity False. "going to/will/want to/hope to/thinking of", and a progressive of an arranging verb
("I'm moving to Leeds"), make PLAN facts (modality PLANNED, the predicate kept: a planned ``moved``); other plans
are ``plans_to`` with the verb phrase as object. "if/would/could/might/can/'d" make HYPOTHETICAL facts; "X said
(that) ..." REPORTED ones; a piece ending in "?" QUESTION ones.

Layout: this module holds the extractor, the walk over a piece (subjects, aux chains) and the rule tables. The rules
after a subject are in ``rules_states``, ``rules_preferences``, ``rules_events`` and ``rules_plans``; rules over a
whole piece in ``rules_piece_wide``; pronouns in ``rules_coref`` (with the gender words of ``rules_gender``);
clauses, objects and names in ``rules_clause``, modality and the normalised statement in ``rules_modality``, and
facts and aliases are emitted in ``rules_emit``. The regular expressions and word lists are in ``rules_patterns``
(verb and piece patterns), ``rules_syntax`` (aux chain, clause starts and ends, subjects, objects) and
``rules_vocabulary`` (names, relations, values).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial

from sodamem.ingest.extract import rules_life as rl
from sodamem.ingest.extract import rules_pastimes as rpa
from sodamem.ingest.extract import rules_patterns as rp
from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_taking_up as rt
from sodamem.ingest.extract import rules_titles as rti
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.base import Extraction, SessionView
from sodamem.ingest.extract.rules_case import as_typed, with_capital_i
from sodamem.ingest.extract.rules_clause import Handler, _Clause, _is_name, _person, _Piece, _Subject
from sodamem.ingest.extract.rules_coref import NO_FACT_SPEAKERS, resolve_pronouns
from sodamem.ingest.extract.rules_corrections import (
    apply_corrections,
    corrected_turns,
    correcting_turns,
    find_corrections,
    turns_to_read,
)
from sodamem.ingest.extract.rules_events import (
    _event,
    _go,
    _move,
    _new_home,
    _offered,
    _simple_event,
    _start_at,
    _took_me,
    _trip,
)
from sodamem.ingest.extract.rules_gender import name_gender
from sodamem.ingest.extract.rules_intro import intro_fragments
from sodamem.ingest.extract.rules_medication import medications
from sodamem.ingest.extract.rules_piece_wide import (
    _attributes,
    _favourites,
    _first_day,
    _relations,
    _self_name,
    _taste,
    _work_there_is,
)
from sodamem.ingest.extract.rules_plans import _generic_plan
from sodamem.ingest.extract.rules_preferences import _allergic, _cut_down, _fan, _like
from sodamem.ingest.extract.rules_states import (
    _age,
    _break_up,
    _dating,
    _diet,
    _from,
    _have,
    _job,
    _live,
    _lost_job,
    _new_job,
    _rel_status,
    _self_employed,
    _study,
    _teach,
    _work,
)
from sodamem.ingest.timeparse import find_times


class RulesExtractor:
    """The offline default extractor (``name == "rules"``)."""

    def __init__(self, *, skip_speakers: tuple[str, ...] = NO_FACT_SPEAKERS) -> None:
        self._skip = frozenset(s.lower() for s in skip_speakers)

    @property
    def name(self) -> str:
        return "rules"

    def extract(self, session: SessionView) -> Extraction:
        return self.extract_turns(session, range(len(session.turns)))

    def stale_turns(self, before: SessionView, after: SessionView) -> list[int]:
        """A turn depends on the rest of its session only through the names the session shows (a capitalised
        word is a name once seen mid-sentence anywhere): the turns holding a name the new turns revealed."""
        before, after = with_capital_i(before), with_capital_i(after)
        new_turns = range(len(before.turns), len(after.turns))
        stale = corrected_turns(after, find_corrections(after, self._skip, near=new_turns), new_turns)
        revealed = _known_names(after) - _known_names(before)
        if revealed:
            # any case: a name found in a lower-case turn is read capitalised in the session's other such turns
            word = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in sorted(revealed)) + r")(?!\w)", re.I)
            stale.update(t.index for t in before.turns if word.search(t.text))
        # a turn made again may hold what an earlier correction took back: that correction's copy is made again too
        stale |= correcting_turns(after, find_corrections(after, self._skip, near=stale), stale) - set(new_turns)
        return sorted(stale)

    def extract_turns(self, session: SessionView, turn_indexes: Sequence[int]) -> Extraction:
        """The facts of ``turn_indexes``, with the session's spoken corrections applied (the turns a correction
        takes back, and the corrections of these turns' facts, are read too)."""
        typed, session = session, with_capital_i(session)  # "i work at Google" is read as "I work at Google"
        wanted = set(turn_indexes)
        corrections = find_corrections(session, self._skip, near=wanted)
        read = turns_to_read(session, corrections, wanted) if corrections else wanted
        out = self._extract_turns(session, sorted(read))
        if corrections:
            fixed = apply_corrections(session, out.facts, corrections)
            out.facts = [f for f in fixed if f.turn_index in wanted]
            out.aliases = [a for a in out.aliases if a.turn_index in wanted]
        return as_typed(out, session, typed)

    def _extract_turns(self, session: SessionView, turn_indexes: Sequence[int]) -> Extraction:
        out = Extraction()
        names = _known_names(session)
        upto = max(turn_indexes, default=-1) + 1
        antecedents = resolve_pronouns(session, upto, skip_speakers=self._skip)
        for index in turn_indexes:
            turn = session.turns[index]
            if turn.speaker.lower() in self._skip:
                continue
            for piece in turn.pieces:
                times = [
                    (t.char_start, t.char_end, t.spec.expression) for t in find_times(piece.text, session.timestamp)
                ]
                question = bool(rs.QUESTION_END.search(piece.text))
                pronouns = {at: a.entity for at, a in antecedents.get((index, piece.index), {}).items()}
                p = _Piece(turn, piece, turn.speaker, times, question, out, names, antecedents=pronouns)
                _extract_piece(p)
        return out


def _known_names(session: SessionView) -> frozenset[str]:
    """Participants and capitalised words seen mid-sentence: a word capitalised only where sentences start
    ("Change starts small") is not taken for a name."""
    found = {w for p in session.participants for w in p.split()}
    for turn in session.turns:
        found.update(m["name"] for m in rs.MID_SENTENCE_NAME.finditer(turn.text))
        found.add(turn.speaker)
    return frozenset(found)


# --- walking a piece ---------------------------------------------------------------------------------------------
def _extract_piece(p: _Piece) -> None:
    text = p.piece.text
    for rule in _PIECE_RULES:
        rule(p)
    if (dropped := rs.PRO_DROP.match(text)) is not None:
        lowered = text[0].lower() + text[1:]
        # "working weekends at Chatime" said alone is the speaker's job, as after "Based in Leeds," below
        _try_clause(p, _Subject(p.speaker, 0, 0, dropped=dropped["working"] is not None), lowered)
        working = rs.WORKING_AFTER.search(lowered)
        if working is not None:  # "Based in Manchester, working as a nurse"
            then = working.start("then")
            _try_clause(p, _Subject(p.speaker, then, then, dropped=True), lowered)
    for m in rs.SUBJECT.finditer(text):
        subject = _subject(p, m)
        if subject is not None:
            _try_clause(p, subject, text)
    # "I live in Bristol and work as a nurse": the second verb's subject is the first's, the speaker
    for m in rs.SECOND_VERB.finditer(text):
        _try_clause(p, _Subject(p.speaker, m.end(), m.end()), text)
    for m in rs.SECOND_VERB_OF.finditer(text):  # "Pawel left Google and now works at Allegro"
        if m["name"] != "I" and _is_name(m["name"]):
            _try_clause(p, _Subject(m["name"], m.end(), m.end(), third=True), text)


def _subject(p: _Piece, m: re.Match[str]) -> _Subject | None:
    before = p.piece.text[: m.start()]
    speaker = p.speaker
    if m["i"] or m["we"] or m["pair"] or m["pair2"]:
        if rs.RELATIVE_BEFORE.search(before) and not rs.REPORTING_BEFORE.search(before):
            return None
        other = m["pa"] or m["pb"]
        # "Tom and I went", not "I live in Berlin and I work": a pair opens its clause
        opens = bool(rs.CLAUSE_START_BEFORE.search(before)) or _time_ends(p, m.start())
        companions = (_person(other, speaker),) if other and opens else ()
        if other and not _is_name(other) and not other.lower().startswith("my"):
            return None
        start = m.end() - 1 if m["pair"] and not opens else m.start()  # "... in Berlin and I work": from "I"
        return _Subject(speaker, start, m.end(), companions)
    # a clause opens at its start, after a time ("yesterday she ..."), or after reporting words ("told me she's ...")
    if not (rs.CLAUSE_START_BEFORE.search(before) or _time_ends(p, m.start()) or rs.REPORTING_BEFORE.search(before)):
        return None
    if m["pro"] or m["pposs"]:
        return _pronoun_subject(p, m)
    if m["my"]:
        rel = " ".join(m["rel"].lower().split())
        name = m["relname"]
        if name and _is_name(name):
            return _Subject(name, m.start(), m.end(), third=True)
        end = m.start("relname") if name else m.end()
        return _Subject(f"{speaker}'s {rel}", m.start(), end, third=rel in rv.REL_SINGLE)
    if m["poss"]:
        if not _is_name(m["owner"]):
            return None
        if m["pname"] and _is_name(m["pname"]):
            return _Subject(m["pname"], m.start(), m.end(), third=True)
        end = m.start("pname") if m["pname"] else m.end()
        return _Subject(f"{m['owner']}'s {m['prel'].lower()}", m.start(), end, third=True)
    name, start = m["name"], m.start()
    lead = _LEAD_WORDS.match(name)  # "So Sam is moving": Sam, after a word no name holds
    if lead is not None and all(w.lower() in rv.NAME_STOP for w in lead.group().split()):
        name, start = name[lead.end() :], m.start("name") + lead.end()
    first = name.split()[0].lower()
    if first in rv.KIN_BARE and len(name.split()) == 1:
        return _Subject(f"{speaker}'s {first}", start, m.end(), third=True)
    if not _is_name(name):
        return None
    # a word never seen mid-sentence may be no name ("Change starts small"), unless it is a given name ("Tom quit")
    tentative = len(name.split()) == 1 and name not in p.names and name_gender(name) is None
    return _Subject(name, start, m.end(), third=True, tentative=tentative)


_LEAD_WORDS = re.compile(r"(?:[A-Z][a-z]*\s+)+?(?=[A-Z])")


def _pronoun_subject(p: _Piece, m: re.Match[str]) -> _Subject | None:
    """ "He"/"she"/"they" as their antecedent; "his sister (Anna)" as Anna or "<antecedent>'s sister"."""
    antecedent = p.antecedents.get(m.start())
    if antecedent is None:
        return None
    if m["pro"]:
        return _Subject(antecedent, m.start(), m.end(), third=m["pro"].lower() != "they")
    rel = " ".join(m["pprel"].lower().split())
    name = m["ppname"]
    if name and _is_name(name):
        return _Subject(name, m.start(), m.end(), third=True)
    end = m.start("ppname") if name else m.end()
    return _Subject(f"{antecedent}'s {rel}", m.start(), end, third=rel in rv.REL_SINGLE)


def _time_ends(p: _Piece, pos: int) -> bool:
    """A time expression right before ``pos`` ("Last weekend I went ...") also starts a clause."""
    return any(0 <= pos - end <= 2 and p.piece.text[end:pos].strip() in ("", ",") for _, end, _ in p.times)


def _aux_said(words: str) -> str:
    """The aux chain as the modality rules read it: lower case, one space, "'m" for "Im", "'s" for "shes"."""
    aux = " ".join(words.lower().replace("’", "'").split())
    return "'" + aux if re.match(r"(?:m|ve|s|re)\b", aux) else aux


def _try_clause(p: _Piece, subj: _Subject, text: str) -> None:
    cuts = [subj.end]
    pos = subj.end
    contraction = rs.AUX_CONTRACTION.match(text, pos) if pos > 0 else None
    if contraction:
        pos = contraction.end()
        cuts.append(pos)
    while (aux := rs.AUX_WORD.match(text, pos)) is not None and aux.end() > pos:
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
            _aux_said(text[subj.end : cut]),
            text,
            reported=bool(rs.REPORTING_BEFORE.search(before)),
            conditional=bool(rs.CONDITIONAL_BEFORE.search(before)),
        )
        for pattern, handler, who in _RULES:
            if (who == "others" and subj.name == p.speaker) or (subj.tentative and who == "any"):
                continue
            m = pattern.match(text, cut)
            if m is not None and handler(clause, m):
                return


# --- the rule tables ---------------------------------------------------------------------------------------------
# A rule's subjects: "any", "others" (a name or relative, never the speaker), or "person" (any subject, and also a
# capitalised word not yet seen as a name mid-sentence: these predicates presuppose a person).
_RULES: tuple[tuple[re.Pattern[str], Handler, str], ...] = (
    (rp.OFFERED, _offered, "others"),
    (rp.TOOK_ME, _took_me, "others"),
    (rp.DIET, _diet, "person"),
    (rp.SELF_EMPLOYED, _self_employed, "person"),
    (rp.BREAK_UP, _break_up, "person"),
    (rp.REL_STATUS, _rel_status, "person"),
    (rp.DATING, _dating, "person"),
    (rp.AGE, _age, "person"),  # a capitalised word not yet seen as a name only with "turned" ("Kuba turned 6")
    (rp.JOB, _job, "person"),
    (rp.WORK, _work, "person"),
    (rp.TEACH, _teach, "person"),
    (rp.NEW_JOB, _new_job, "person"),
    (rl.EMPLOYED, rl._employed, "person"),
    (rl.AT_ORG_AS, rl._at_org_as, "person"),
    (rl.PROMOTED, rl._promoted, "person"),
    (rl.NO_JOB, rl._no_job, "person"),
    (rl.MARRIED_NAME, rl._married_name, "person"),
    (rl.TOGETHER, rl._together, "person"),
    (rl.DIED, rl._died, "person"),
    (rl.PUT_DOWN, rl.put_down, "any"),
    (rl.BEEN_IN_SINCE, rl._been_in_since, "person"),
    (rp.START_AT, _start_at, "person"),
    (rti.START_AS, rti.start_as, "person"),
    (rt.TOOK_JOB, rt.took_job, "person"),
    (rt.MOVING_IN, rt.moving_in, "others"),
    (rt.MOVING_OUT, rt.moving_out, "others"),
    (rp.LOST_JOB, _lost_job, "person"),
    (rp.FROM, _from, "person"),
    (rp.LIVE, _live, "person"),
    (rp.MOVE, _move, "person"),
    (rp.NEW_HOME, _new_home, "person"),
    (rp.STUDY, _study, "person"),
    (rp.HAVE, _have, "any"),
    (rp.CUT_DOWN, _cut_down, "person"),
    (rp.ALLERGIC, _allergic, "person"),
    (rp.FAN, _fan, "person"),
    (rp.LIKE, _like, "person"),
    (rpa.PRACTISE, rpa.practise, "any"),
    (rp.TRIP, _trip, "any"),
    (rp.GO, _go, "any"),
    (rp.SIGN_UP, _simple_event("signed_up", "signed up for", "sign up for"), "any"),
    (rp.SWITCH, _simple_event("switched", "switched to", "switch to"), "any"),
    (rp.TAKE_UP, _simple_event("started", "took up", "take up"), "any"),
    (rp.EVENT, _event, "any"),
    (rp.GENERIC_PLAN, _generic_plan, "any"),
)

# Rules over a whole piece, run on every piece before its clauses.
_PIECE_RULES: tuple[Callable[[_Piece], None], ...] = (
    _relations,
    _work_there_is,
    _self_name,
    _favourites,
    _attributes,
    _taste,
    _first_day,
    rt.intro_job,
    partial(intro_fragments, try_clause=_try_clause),
    rt.offered_and_took,
    rt.weeks_in,
    rt.back_at_job,
    rt.move_set,
    rt.move_on,
    rt.here_in,
    rt.arrived_after_move,
    medications,
)
