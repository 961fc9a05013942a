"""Which person "he", "she", "they", "his", "her" and "their" stand for, for the rules extractor (pure, stdlib ``re``).

One speaker's pieces (sentences) are read in order, and each piece's mentions of people are collected:

* the speaker's relatives: "my sister" (the entity "<speaker>'s sister", or the name the session gave her: "my
  sister Anna" earlier makes a later "my sister" Anna), "my sister Anna" (Anna), "our kids" (plural);
* "Priya's fiancé" / "Priya's fiancé Marcus", and the owner Priya; "his brother (Tom)" once "his" is resolved;
* a given name whose gender is known: from the short list of :mod:`rules_gender`, or because the session tied it to
  a gendered relation earlier ("my brother Tom"); a name right after a place preposition ("to Paris") is no person;
* a capitalised name of unknown gender where a person's name would stand ("Sam came over", "with Sam"): it is
  never chosen, it only competes, so "Sam and Tom came. He ..." stays unresolved;
* the pronouns themselves: a resolved one is a mention of its antecedent, an unresolved one competes.

The people talking are never antecedents ("I"/"you" are theirs). A pronoun looks in its own piece before it, then
back over at most ``LOOKBACK`` earlier pieces of the same speaker with no other speaker's turn in between (an
assistant's reply in between is read too, for the names it says: "How old is Zoe now?" "She turned nine"), and stops
at the first piece holding a compatible mention: he/him/his a singular male or unknown-gender one, she/her/hers a
singular female or unknown one, they/them/their a plural one. It is resolved only when every compatible mention in
that piece names the same entity (two men in the previous sentence: "he" stays unresolved), and "they" only when
no plural-looking noun stands between ("My kids got puppies. They ..." stays unresolved). "it" is never resolved:
precision over recall.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from sodamem.ingest.extract import rules_patterns as rp
from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.base import SessionView
from sodamem.ingest.extract.rules_gender import Gender, name_gender, relation_gender

LOOKBACK = 2  # earlier pieces (sentences) of the same speaker a pronoun may reach back to
NO_FACT_SPEAKERS = ("assistant", "system")  # whose turns the rules extractor reads no facts from


@dataclass(frozen=True, slots=True)
class Antecedent:
    """Who a pronoun stands for, and the words that name them: ``text[start:end]`` of piece ``piece_index`` of turn
    ``turn_index`` ("My brother Tom", "my aunt", "Tom"), offsets in the piece's text."""

    entity: str  # "Tom", "Maya's aunt"
    turn_index: int
    piece_index: int
    start: int
    end: int


# (turn index, piece index) -> offset of a resolved pronoun in the piece's text -> its antecedent
Antecedents = dict[tuple[int, int], dict[int, Antecedent]]


def _then_name(group: str) -> str:
    """An optional name after a relation, as the named group ``group`` ("my sister, Anna")."""
    return rf"(?:,?\s+(?P<{group}>{rv.NAME})(?![\w]))?"


_MENTION = re.compile(
    rf"(?P<my>\b(?:[Mm]y|[Oo]ur)\s+{rv.REL_MOD}(?P<rel>{rv.REL})(?![\w'’]){_then_name('relname')})"
    rf"|(?P<poss>\b(?P<owner>{rv.NAME})['’]s\s+{rv.REL_MOD}(?P<prel>{rv.REL_ONE})(?![\w'’]){_then_name('pname')})"
    rf"|(?P<pposs>\b(?P<pown>(?i:his|her|their))\s+{rv.REL_MOD}(?P<pprel>{rv.REL})(?![\w'’]){_then_name('ppname')})"
    r"|(?P<pron>\b(?i:he|him|his|himself|she|her|hers|herself|they|them|their|theirs|themselves)\b"
    r"|\b(?i:s?he)(?=s\b)|\b(?i:they)(?=re\b))"  # "shes", "theyre" typed without the apostrophe
    rf"|(?P<name>\b{rv.NAME})(?![\w])"
)
_PRONOUN = re.compile(r"\b(?i:he|him|his|she|her|they|them|their)", re.ASCII)
_MAY_TIE = re.compile(r"\b(?:[Mm]y|[Oo]ur)\s|['’]s\s")
_MALE = frozenset("he him his himself".split())
_FEMALE = frozenset("she her hers herself".split())
_PLACE_BEFORE = re.compile(r"\b(?:in|at|to|from|near|around|into|of|visit|visited|visiting)\s+$", re.IGNORECASE)
_ENDS_PIECE = re.compile(r"\s*[.!?…]*\s*$")
_PERSON_BEFORE = re.compile(r"\b(?:with|and|&|told|tell|asked|ask|met|meet|called|texted|saw)\s+$", re.IGNORECASE)
# A lower-case word ending in "s" that is no verb or adverb of the usual kind: perhaps a plural noun "they" could mean.
_PLURALISH = re.compile(r"\b[a-z]{2,}[^s'’\W]s\b")
_NOT_PLURAL = frozenset(
    """always sometimes perhaps whereas unless across thus plus series news lots this has was does goes says
    yes its his hers ours yours theirs ourselves themselves""".split()
)


@dataclass(frozen=True, slots=True)
class _Mention:
    start: int  # offsets in the piece's text
    end: int
    # where the entity is named (a resolved pronoun: where its antecedent is); None: the mention competes but is
    # never chosen (an unresolved pronoun, a name of unknown gender)
    named: Antecedent | None
    gender: Gender | None
    plural: bool = False


@dataclass(slots=True)
class _Said:
    text: str
    turn_index: int
    piece_index: int
    speaker: str
    mentions: list[_Mention] = field(default_factory=list)
    read: bool = False  # mentions collected (a piece with no pronoun is read only when a later pronoun looks back)

    def here(self, entity: str | None, start: int, end: int) -> Antecedent | None:
        return None if entity is None else Antecedent(entity, self.turn_index, self.piece_index, start, end)


@dataclass(slots=True)
class _Known:
    """What the session said before: genders of names, and names of a speaker's one-of relatives."""

    genders: dict[str, Gender] = field(default_factory=dict)
    relatives: dict[tuple[str, str], str] = field(default_factory=dict)  # (owner, relation) -> name
    people: set[str] = field(default_factory=set)  # words of the names of the people talking so far
    places: set[str] = field(default_factory=set)  # names said after a place preposition so far ("from Ottawa")


def resolve_pronouns(
    session: SessionView, upto: int, *, skip_speakers: Collection[str] = NO_FACT_SPEAKERS
) -> Antecedents:
    """The antecedents of the pronouns in turns ``0 .. upto - 1``. Only earlier words count, so a turn's answer never
    changes when turns are added after it. Turns of ``skip_speakers`` (lower-case: the assistant's) have none
    resolved; one such reply between two turns of the same voice is read for the people it names (they compete), and
    the voice's story goes on across it. Any other speaker's turn breaks the chain."""
    known = _Known()
    out: Antecedents = {}
    # What a pronoun may look back to, oldest first: the pieces of the voice speaking, and of one assistant's reply
    # since the voice's last turn ("How old is Zoe now?"), whose names count and whose "my" is nobody's.
    recent: list[_Said] = []
    previous_speaker: str | None = None
    last_voice: str | None = None  # the last speaker whose turns are read
    for turn in session.turns[:upto]:
        skipped = turn.speaker.lower() in skip_speakers
        if turn.speaker != previous_speaker:
            if skipped:  # keep only the voice's last turn before the reply
                last = recent[-1].turn_index if recent and recent[-1].speaker == last_voice else None
                recent = [r for r in recent if r.turn_index == last]
            elif (
                turn.speaker != last_voice or previous_speaker is None or previous_speaker.lower() not in skip_speakers
            ):
                recent = []
        previous_speaker = turn.speaker
        known.people.update(turn.speaker.split())
        if skipped:
            recent.extend(_Said(piece.text, turn.index, piece.index, turn.speaker) for piece in turn.pieces)
            continue
        last_voice = turn.speaker
        for piece in turn.pieces:
            _learn(piece.text, turn.speaker, known)
            said = _Said(piece.text, turn.index, piece.index, turn.speaker)
            if _PRONOUN.search(piece.text):
                earlier = _lookback(recent, turn.speaker)
                for before in earlier:
                    if not before.read:  # no pronoun in it: its mentions need no context
                        _read(before, known, (), names_only=before.speaker != turn.speaker)
                resolved = _read(said, known, earlier)
                if resolved:
                    out[(turn.index, piece.index)] = resolved
            recent.append(said)
    return out


def _lookback(recent: Sequence[_Said], voice: str) -> list[_Said]:
    """The pieces a pronoun of ``voice`` may reach, oldest first: back to ``LOOKBACK`` of the voice's own, with
    the reply between them."""
    found: list[_Said] = []
    own = 0
    for said in reversed(recent):
        if said.speaker == voice:
            own += 1
            if own > LOOKBACK:
                break
        found.append(said)
    return found[::-1]


def _learn(text: str, speaker: str, known: _Known) -> None:
    """Names tied to relations ("my brother Tom", "Tom (my brother)", "Priya's fiancé Marcus")."""
    if not _MAY_TIE.search(text):
        return  # each pattern needs "my", "our" or "'s"
    for pattern in (rp.REL_NAMED, rp.NAME_PAREN_REL, rp.REL_IS_NAMED, rp.NAME_IS_MY_REL):
        for m in pattern.finditer(text):
            _tie(known, speaker, m["rel"], m["name"])
    for m in rp.POSS_REL_NAMED.finditer(text):
        if _is_name(m["owner"]):
            _tie(known, m["owner"], m["rel"], m["name"])


def _tie(known: _Known, owner: str, relation: str, name: str) -> None:
    if not _is_name(name):
        return
    relation = _relation(relation)
    gender = relation_gender(relation)
    if gender is not None:
        known.genders[name] = gender
    if relation not in rv.NON_UNIQUE_RELS:
        known.relatives[(owner, relation)] = name


def _read(said: _Said, known: _Known, earlier: Sequence[_Said], *, names_only: bool = False) -> dict[int, Antecedent]:
    """Collect the piece's mentions into ``said``, resolving its pronouns on the way. ``names_only``: a skipped
    speaker's words (an assistant's), whose "my" is nobody the user knows and whose pronouns only compete."""
    said.read = True
    text, speaker = said.text, said.speaker
    resolved: dict[int, Antecedent] = {}
    for m in _MENTION.finditer(text):
        if names_only and m["my"]:
            continue
        if m["pron"] or m["pposs"]:
            word = (m["pron"] or m["pown"]).lower()
            antecedent = None if names_only else _antecedent(word, m.start(), said, earlier)
            if antecedent is not None:
                resolved[m.start()] = antecedent
            gender: Gender | None = "m" if word in _MALE else "f" if word in _FEMALE else None
            end = m.end("pown") if m["pposs"] else m.end()
            said.mentions.append(_Mention(m.start(), end, antecedent, gender, plural=gender is None))
            if m["pposs"]:
                owner = antecedent.entity if antecedent is not None else None
                said.mentions.append(_relative(said, m, "pprel", "ppname", owner, known))
        elif m["my"]:
            said.mentions.append(_relative(said, m, "rel", "relname", speaker, known))
        elif m["poss"]:
            owner = m["owner"]
            if not _is_name(owner):
                continue
            if not _talking(owner, known):  # "Caroline's sister" said to Caroline: only the sister is a candidate
                named = said.here(owner, m.start(), m.end("owner"))
                said.mentions.append(_Mention(m.start(), m.end("owner"), named, _gender_of(owner, known)))
            said.mentions.append(_relative(said, m, "prel", "pname", owner, known))
        else:
            said.mentions.extend(_name(said, m.start(), m["name"], known))
    return resolved


def _relative(
    said: _Said, m: re.Match[str], rel_group: str, name_group: str, owner: str | None, known: _Known
) -> _Mention:
    """ "my sister (Anna)" / "Priya's fiancé (Marcus)" / "his son (Leo)": the relative as a mention."""
    relation = _relation(m[rel_group])
    name = m[name_group] if m[name_group] and _is_name(m[name_group]) else None
    plural = relation in rv.REL_PLURAL
    gender = relation_gender(relation) or (_gender_of(name, known) if name else None)
    if name is not None:
        entity: str | None = name
    elif owner is None:
        entity = None
    else:
        entity = known.relatives.get((owner, relation), f"{owner}'s {relation}")
    end = m.end(name_group) if name is not None else m.end(rel_group)
    return _Mention(m.start(), end, said.here(entity, m.start(), end), None if plural else gender, plural)


def _name(said: _Said, start: int, name: str, known: _Known) -> Iterable[_Mention]:
    """A capitalised name (leading sentence words like "Hi" dropped) as a mention, if it may be a person."""
    text = said.text
    words = name.split()
    while words and not _is_name(words[0]) and words[0].lower() not in rv.KIN_BARE:
        start = text.index(words[0], start) + len(words[0])
        words = words[1:]
    # "Also Mum told me she's moving": the speaker's mum; "Tom's Mum", "every Dad I know": someone's, who competes
    if words and words[0].lower() in rv.KIN_BARE:
        relation = words[0].lower()
        start = text.index(words[0], start)
        end = start + len(words[0])
        if _SOMEONES_KIN.search(text, 0, start):
            return (_Mention(start, end, None, relation_gender(relation)),)
        entity = known.relatives.get((said.speaker, relation), f"{said.speaker}'s {relation}")
        return (_Mention(start, end, said.here(entity, start, end), relation_gender(relation)),)
    if not words or not _is_name(words[0]) or _talking(words[0], known):
        return ()
    start = text.index(words[0], start)
    kept = " ".join(words[: next((i for i, w in enumerate(words) if not _is_name(w)), len(words))])
    before = text[:start]
    if _PLACE_BEFORE.search(before):
        known.places.add(kept)
        return ()
    end = start + len(kept)
    gender = _gender_of(kept, known)
    if gender is not None:
        return (_Mention(start, end, said.here(kept, start, end), gender),)
    if kept in known.places:
        return ()  # "Ottawa", said "from Ottawa" before
    # a name at a clause's start competes where a sentence goes on after it ("Sam came over"), not as a word said
    # alone ("wait no, sorry, Kingston.": a correction of a place)
    opens = rs.CLAUSE_START_BEFORE.search(before) and not _ENDS_PIECE.match(text, end)
    if opens or _PERSON_BEFORE.search(before):
        return (_Mention(start, end, None, None),)
    return ()


_SOMEONES_KIN = re.compile(r"(?:['’]s|\b(?i:one|any|every|each|some|no|that|this|the|a|his|her|their|your))\s+$")


def _antecedent(word: str, position: int, current: _Said, earlier: Sequence[_Said]) -> Antecedent | None:
    plural = word not in _MALE and word not in _FEMALE
    gender: Gender | None = "m" if word in _MALE else "f" if word in _FEMALE else None
    before = _Said(current.text[:position], current.turn_index, current.piece_index, current.speaker)
    before.mentions = [m for m in current.mentions if m.end <= position]
    pools = [before, *reversed(earlier)]
    for depth, said in enumerate(pools):
        fits = [m for m in said.mentions if _fits(m, gender, plural)]
        if not fits:
            continue
        entities = {m.named.entity if m.named is not None else None for m in fits}
        if len(entities) != 1 or None in entities:
            return None
        if plural and _plural_noun_in(_between(pools, depth, fits[-1])):
            return None
        return fits[-1].named
    return None


def _between(pools: Sequence[_Said], depth: int, mention: _Mention) -> str:
    """The words from ``mention`` (in ``pools[depth]``) up to the pronoun (at the end of ``pools[0]``)."""
    if depth == 0:
        return pools[0].text[mention.end :]
    middle = [s.text for s in pools[depth - 1 : 0 : -1]]
    return " ".join([pools[depth].text[mention.end :], *middle, pools[0].text])


def _fits(mention: _Mention, gender: Gender | None, plural: bool) -> bool:
    if plural:
        return mention.plural
    return not mention.plural and mention.gender in (gender, None)


def _plural_noun_in(text: str) -> bool:
    return any(w.lower() not in _NOT_PLURAL for w in _PLURALISH.findall(text))


def _gender_of(name: str, known: _Known) -> Gender | None:
    return known.genders.get(name) or known.genders.get(name.split()[0]) or name_gender(name)


def _relation(words: str) -> str:
    return " ".join(words.lower().split())


def _is_name(name: str) -> bool:
    return all(w.lower().replace("’", "'") not in rv.NAME_STOP for w in name.split())


def _talking(name: str, known: _Known) -> bool:
    return name.split()[0] in known.people
