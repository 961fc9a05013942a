"""Rules over a whole piece, with no subject needed: relations and aliases ("my sister Priya", "Tom (my partner)",
"his wife Anna" once "his" is resolved, "a dog named Rex"), self-introductions ("Hi! I'm Maya"), favourites,
"my <attribute> is ...", tastes ("the spicier the better") and a first or last day at work.
"""

from __future__ import annotations

import re
from dataclasses import replace

from sodamem.ingest.extract import rules_patterns as rp
from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Mood, _object, _Piece, _piece_clause
from sodamem.ingest.extract.rules_corrections import as_time
from sodamem.ingest.extract.rules_couple_begun import couples_begun
from sodamem.ingest.extract.rules_couple_over import couples_over
from sodamem.ingest.extract.rules_emit import _alias, _emit, _relation
from sodamem.ingest.extract.rules_gender import name_gender
from sodamem.ingest.extract.rules_modality import _piece_mood, _say
from sodamem.ingest.extract.rules_moving_in_with import moving_in_with
from sodamem.ingest.extract.rules_past_relations import NOT_SAID_AS_SO, ended_relations, relation_said
from sodamem.ingest.extract.rules_role_changes import role_changes
from sodamem.ingest.extract.rules_truecase import rare
from sodamem.model import FactKind, Modality
from sodamem.roles import CHAT_WORDS

K = FactKind


def _relations(p: _Piece) -> None:
    text = p.piece.text
    # "my manager Delphine" said before the question's own clause is said as so ("my manager Delphine wants a deck
    # by friday 😩 any tips?"); not "Should I name my daughter Olivia or Ava?", "Is Dan my boss?"
    said_so = replace(p, question=False)
    for pattern in (rp.REL_NAMED, rp.REL_BRACKETED, rp.NAME_PAREN_REL, rp.NAME_COMMA_REL, rp.PET_NAMED):
        for m in pattern.finditer(text):
            if _is_name(m["name"]) and not _a_list(m, text):
                relation_said(said_so if _said_before_the_question(text, m.end()) else p, p.speaker, m)
    for pattern in (rp.REL_IS_NAMED, rp.NAME_IS_MY_REL):
        for m in pattern.finditer(text):
            if _is_name(m["name"]):
                relation_said(p, p.speaker, m)
    for pattern in (rp.BARE_REL_NAMED, rp.BARE_REL_BRACKETED):  # "husband (Gideon) is away": a person's name only
        for m in pattern.finditer(text):
            # "girlfriend Carys": a capital only on the name; "Boss Baby is a good film", "Dog Days", "Father
            # Michael", "Sister Agnes": no one's; "boyfriend Tom and I broke up" is left to the endings' rules
            rel = m["rel"]
            titled = rel[0].isupper() and (rel.lower() in _TITLES or not _a_person(m["name"]))
            if _is_name(m["name"]) and _a_person_word(m["name"]) and not titled and not _ENDED_HERE.search(text):
                relation_said(said_so if _said_before_the_question(text, m.end()) else p, p.speaker, m)
    for pattern, relation in (
        (rp.NAME_FROM_WORK, "coworker"),
        (rp.REPORT_TO, "manager"),
        (rp.NAME_NEXT_DOOR, "neighbour"),
    ):
        for m in pattern.finditer(text):
            if _said_as_a_person(m, text) and not p.question and not NOT_SAID_AS_SO.search(text[: m.start()]):
                _relation(p, p.speaker, relation, m["name"], m.start(), m.end())
    for m in rp.MY_REL_IS_NAME.finditer(text):
        if not p.question and _named_so(m, text):  # not "My boss is Grace, right?"
            relation_said(p, p.speaker, m)
    _named_after(p, text)
    _pets_had(p, text)
    moving_in_with(p)
    ended_relations(p)
    couples_over(p)
    couples_begun(p)
    role_changes(p)
    for m in rp.POSS_REL_NAMED.finditer(text):
        if _is_name(m["name"]) and _is_name(m["owner"]):
            relation_said(p, m["owner"], m)
    for m in rp.PRONOUN_REL_NAMED.finditer(text):
        owner = p.antecedents.get(m.start())
        if owner is not None and _is_name(m["name"]):
            relation_said(p, owner, m)


# kin words that are titles too ("Father Michael", "Sister Agnes", "Mother Teresa"), and an ending said with a
# relation that names no "my": "boss Finn quit today", "boyfriend Tom and I broke up last week"
_TITLES = frozenset("father sister mother brother uncle aunt auntie".split())
_ENDED_HERE = re.compile(
    r"\b(?:broke\s+up|split\s+up|separated|divorced|dumped|quit|retired|resigned|left|fired|laid\s+off|moved\s+out"
    r"|passed\s+away|died|no\s+longer|not\s+(?:my|our)|any\s?more|former|ex)\b",
    re.IGNORECASE,
)
_QUESTION_CLAUSE = re.compile(r"[,;:.!]|\s(?:so|and|but|any|what|how|should|can|could|do|does|is|thoughts)\b.*\?")


def _said_before_the_question(text: str, end: int) -> bool:
    """Whether a relation ending at ``end`` of a question piece is said before the question's own clause begins:
    a clause break after it, not "or" ("my daughter Olivia or Ava?")."""
    after = text[end:]
    return not re.match(r"\s+or\b", after) and _QUESTION_CLAUSE.search(after) is not None


def _a_list(m: re.Match[str], text: str) -> bool:
    """Whether "my <chat word>, <Name>," lists two ("my gf, Toby, and I": the girlfriend and the dog Toby; a chat
    word is typed before its name, not apart: "my gf Ama"); "My wife, Sarah, and her mum" names the wife."""
    between = text[m.end("rel") : m.start("name")]
    listed = re.match(r"\s*,\s*(?:and|&|or)\b", text[m.end() :]) is not None
    return "," in between and listed and m["rel"].lower() in CHAT_WORDS


def _a_person_word(name: str) -> bool:
    """No common word after the first: "boss Fight" is no one."""
    return all(not w[0].isalpha() or w[0].isupper() for w in name.split())


def _said_as_a_person(m: re.Match[str], text: str) -> bool:
    """A name, and at the sentence's start one that is no common word ("Heard from work that ..." names no one)."""
    name = m["name"]
    if not _is_name(name):
        return False
    opening = not text[: m.start()].strip(" \t\"'“‘(")
    return not opening or name_gender(name) is not None or rare(name.split()[0])


# "My mum is Nepali", "my wife is Colombian", "my dad is Lebanese": what one is, not one's name
_SAID_OF_A_PEOPLE = re.compile(r"(?:ese|ish|ian|ean|ic)$", re.IGNORECASE)
_PERSON_SAID_NEXT = re.compile(r"^\s*(?:,\s*|\s+and\s+)(?:she|he|they|who)\b", re.IGNORECASE)


def _named_so(m: re.Match[str], text: str) -> bool:
    """Whether "my <relation> is <X>" names someone: X is a name, no word for what one is ("Irish", "Navy",
    "Nepali"), no breed ("my dog is Labrador"), not said under "if"; a common word only where it is a listed given
    name ("Grace", "Tom") or a pronoun follows ("My boss is Hope, she's fair")."""
    name = m["name"]
    first = name.split()[0].lower()
    if not _is_name(name) or first in NOT_A_NAME or first in rv.BREEDS or _SAID_OF_A_PEOPLE.search(first):
        return False
    if re.search(r"\b(?:if|unless|whether)\b", text[: m.start()], re.IGNORECASE):
        return False
    return _a_person(name) or _PERSON_SAID_NEXT.match(text[m.end() :]) is not None


def _a_person(name: str) -> bool:
    """A title ("Ms. Patel"), a listed given name ("Grace", though "grace" is a word) or no common word first."""
    titled = re.match(r"(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s", name) is not None
    return titled or name_gender(name) is not None or rare(name.split()[0])


# "got two dogs, a pitbull named Tank and a chihuahua named Peanut", "I have a cat called Miso": pets one has
_PETS_HAD = re.compile(
    r"(?:^|\bI\s+|\bwe\s+|\bI['’]ve\s+|\bwe['’]ve\s+)(?:have|got|own|(?:have|has)\s+got)\s+"
    rf"(?:(?:a|an|one|two|three|four|\d+|a\s+couple\s+of)\s+(?:{rv.PET_KIND}|pets|dogs|cats)\b[,:;—–-]*\s*)?"
    rf"(?=(?:an?\s+)?(?:[a-z]+\s+)?(?:{rv.PET_KIND})\s+(?:named|called)\s)",
    re.IGNORECASE,
)
_PET_NAMED_HERE = re.compile(
    rf"(?:an?\s+)?(?:[a-z]+\s+)?(?P<rel>{rv.PET_KIND})\s+(?:named|called)\s+(?P<name>{rv.NAME_WORD})(?![\w'’])"
)


def _pets_had(p: _Piece, text: str) -> None:
    """The speaker's pets named where they say they have them: each "a <pet or breed> named <Name>" of the list."""
    m = _PETS_HAD.search(text)
    if m is None or p.question:
        return
    at = m.end()
    while (pet := _PET_NAMED_HERE.match(text, at)) is not None and _is_name(pet["name"]):
        kind = rv.BREEDS.get(pet["rel"].lower(), pet["rel"])  # "a pitbull named Tank": a dog
        _relation(p, p.speaker, kind, pet["name"], pet.start(), pet.end(), alias=False)
        joined = re.match(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)", text[pet.end() :])
        if joined is None:
            break
        at = pet.end() + joined.end()


_GOT = re.compile(r"\b(?:adopt\w*|got|get|getting|bought|rescued|brought\s+home|picked\s+up|welcomed|have|has)\b", re.I)


def _named_after(p: _Piece, text: str) -> None:
    """A name said after the relative or pet it names: "I adopted a cat on Saturday. Her name is Mochi.", "found a
    new roommate, her name is Ananya", "I'm seeing someone new. His name is Kasper." (someone one dates), "adopted a
    second cat!! grey boy called moth" (a pet only)."""
    for named in rp.PRONOUN_NAMED_ANYWHERE.finditer(text):
        if not _is_name(named["name"]):
            continue
        before = text[: named.start()].rstrip()
        if not before and p.piece.index > 0:  # the sentence before, when the name opens this one
            before = p.turn.pieces[p.piece.index - 1].text
        elif not before.endswith((",", ";", "—", "–", "-")):
            continue  # "... and her name is on the list"
        said = before.rstrip(",;—–- ")
        mentioned = _last_mentioned(said)
        if mentioned is not None and not re.match(r"(?:[Mm]y|[Oo]ur)\b", mentioned.group()):
            # "a dog", "a new roommate": the speaker's only where no one else is the sentence's subject ("My brother
            # got a new dog. Her name is Luna." names the brother's dog, not a brother)
            mentioned = None if _OTHERS_OPEN.match(said) else mentioned
        if named["described"] and (mentioned is None or mentioned["rel"].lower() not in rv.PET_KINDS):
            continue  # "My sister had a baby, a girl called Ava" names no sister
        if mentioned is not None and mentioned["rel"].lower() in rv.BREEDS and not _GOT.search(said):
            continue  # "met a cute spaniel on my walk, his name is alfie": a breed is one's pet only when got
        if mentioned is not None:
            kind = rv.BREEDS.get(mentioned["rel"].lower(), mentioned["rel"])  # "a rescue greyhound": a dog
            _relation(p, p.speaker, kind, named["name"], named.start(), named.end())
        elif rp.SEEING_SOMEONE.search(before.rstrip(",;—–- ")):
            c = _piece_clause(p, named.start(), named.end(), p.speaker)
            text_ = f"{p.speaker} is dating {named['name']}"
            _emit(c, K.RELATION, "dating", named["name"], named.end(), _piece_mood(p), text_)


def _work_there_is(p: _Piece) -> None:
    """ "Work at Medisana is good actually", "My new job at Octopus is great": the speaker works there."""
    m = rp.WORK_THERE_IS.match(p.piece.text)
    if m is None or p.question:
        return
    org = re.sub(r"^the\s+", "", m["org"])
    c = _piece_clause(p, m.start(), m.end("org"), p.speaker)
    _emit(c, K.STATE, "works_at", org, m.end("org"), _piece_mood(p), f"{p.speaker} works at {org}")


# "Hi, I'm British.", "Hey, I'm Back!": words one says one is, not one's name
NOT_A_NAME = frozenset(
    """british english irish scottish welsh american canadian australian german french spanish italian dutch polish
    indian chinese japanese korean jewish muslim christian catholic hindu buddhist mexican brazilian portuguese swedish
    norwegian danish finnish greek turkish russian ukrainian nigerian kenyan african european asian latino latina
    filipino vietnamese thai pakistani arab persian iranian israeli egyptian moroccan swiss austrian belgian czech
    hungarian romanian croatian serbian icelandic kiwi aussie nepali bengali punjabi somali iraqi saudi kuwaiti
    yemeni omani emirati mormon sikh jain amish quaker northern southern back home here exhausted tired
    fine good great okay ready done sorry new single married vegan vegetarian excited bored sick free busy late early
    alive confused curious stuck lost happy sad nervous retired pregnant""".split()
)
# a sentence whose subject is someone else: "My brother got ...", "Tom adopted ..." (not "Also found ...", "I got ...")
_OTHERS_OPEN = re.compile(
    r"^\W*(?:(?i:so|and|also|oh|well|btw|just|quick\s+update|update|news|big\s+news|in\s+other\s+news|anyway|ok|"
    r"okay)\W+)*"
    r"(?:(?i:my|our|his|her|their)\s+\w|(?!(?i:I|I['’]\w+|we|also|so|and|just|oh|well|quick|update|found|got|"
    r"adopted|bought|met|finally|in|anyway|ok|okay|big|news)\b)[A-Z][a-z]+\s+[a-z])"
)


def _last_mentioned(said: str) -> re.Match[str] | None:
    """The last relative or pet the sentence names, within its last few words ("a new dog" in "My brother got a
    new dog")."""
    found = [m for m in rp.MENTIONED.finditer(said) if len(said[m.end() :].split()) <= 4]
    return found[-1] if found else None


def _self_name(p: _Piece) -> None:
    text = p.piece.text
    m = rp.SELF_NAME.search(text)
    if m is None and p.piece.index <= 2 and rp.GREETING.match(p.turn.text):
        m = rp.GREETING_INTRO.match(text)
    if m is None or not _is_name(m["name"]) or p.question or m["name"].lower() in NOT_A_NAME:
        return
    name, speaker = m["name"], p.speaker
    if name.lower() == speaker.lower():
        return
    c = _piece_clause(p, m.start(), m.end(), speaker)
    _emit(c, K.ATTRIBUTE, "name", name, m.end(), _piece_mood(p), f"{speaker} is called {name}")
    if speaker.lower() in rv.ROLE_SPEAKERS or not speaker[:1].isupper():
        _alias(p, speaker, name)
    else:
        _alias(p, name, speaker)


def _owner(p: _Piece, owner: str) -> str:
    return p.speaker if owner.lower() in ("my", "our") else re.sub(r"['’]s$", "", owner)


def _favorite_predicate(thing: str) -> str:
    return "favorite_" + rv.snake(thing).replace("colour", "color").replace("favourite", "favorite")


def _favourites(p: _Piece) -> None:
    text = p.piece.text
    for m in rp.FAVOURITE.finditer(text):
        owner = _owner(p, m["owner"])
        c = _piece_clause(p, m.start(), m.end(), owner)
        obj = _object(c, m.end(), cut_time=False)
        value = re.sub(r"^(?:definitely|probably|still|now|easily)\s+", "", obj.text)
        if rs.object_rejected(value) and not value.startswith("to "):
            continue
        thing = " ".join(m["thing"].split())
        if thing.split()[0] in rp.GENERIC_THINGS and " of " not in thing:
            continue
        _emit(c, K.ATTRIBUTE, _favorite_predicate(thing), value, obj.end, _piece_mood(p),
              f"{owner}'s favorite {thing} is {value}")  # fmt: skip
    for m in rp.FAVOURITE_BACK.finditer(text):
        raw = m["val"]
        value = rp.LEADING_FILLER.sub("", raw.strip())
        if not value or len(value.split()) > 4 or rs.object_rejected(value):
            continue
        start = m.start("val") + len(raw) - len(raw.lstrip()) + (len(raw.strip()) - len(value))
        owner = _owner(p, m["owner"])
        thing = " ".join(m["thing"].split())
        c = _piece_clause(p, start, m.end(), owner)
        _emit(c, K.ATTRIBUTE, _favorite_predicate(thing), value, m.end(), _piece_mood(p),
              f"{owner}'s favorite {thing} is {value}")  # fmt: skip


def _attributes(p: _Piece) -> None:
    text = p.piece.text
    said = [(m, _owner(p, m["owner"])) for m in rp.MY_ATTRIBUTE.finditer(text)]
    said += [(m, p.speaker) for m in rp.TITLE_IS.finditer(text)]  # "Title's clinical pharmacy assistant"
    for m, owner in said:
        attr = " ".join(m["attr"].lower().split())
        if attr == "name":
            continue
        c = _piece_clause(p, m.start(), m.end(), owner)
        obj = _object(c, m.end(), cut_time=False)
        if attr in _JOB_ATTRIBUTES:  # "My title is technically 'graduate research technician'": the job
            value = _HEDGE.sub("", obj.text).strip("'\"‘’“” ")
            # a job's title ends in a job's word ("Title is 'The Long Field'" names a novel)
            if value and not rs.object_rejected(value) and value.split()[-1].lower() in rv.JOB_HEADS:
                _emit(c, K.ATTRIBUTE, "job", value, obj.end, _piece_mood(p), f"{owner} works as {value}")
            continue
        words = obj.text.lower().split()
        if not words or words[0] in rv.WEAK_VALUE or words[0] in ("it", "this", "that", "he", "she", "they", "you"):
            continue
        predicate = attr if attr in ("age", "diet") else "attribute_" + rv.snake(attr)
        _emit(c, K.ATTRIBUTE, predicate, obj.text, obj.end, _piece_mood(p), f"{owner}'s {attr} is {obj.text}")


_JOB_ATTRIBUTES = frozenset({"job title", "title", "profession", "occupation"})
_HEDGE = re.compile(r"^(?:(?:technically|officially|actually|now|still|basically|just)\s+)+", re.IGNORECASE)


def _taste(p: _Piece) -> None:
    for m in rp.TASTE.finditer(p.piece.text):
        base = rv.comparative_base(m["adj"])
        if base in rv.TASTES:
            c = _piece_clause(p, m.start(), m.end(), p.speaker)
            food = f"{base} food"
            _emit(c, K.PREFERENCE, "likes", food, m.end(), _piece_mood(p), f"{p.speaker} likes {food}")


def _first_day(p: _Piece) -> None:
    """ "First week at Coastline done": working there; "Last day at Hollis was Friday": no longer; a last day ahead
    ("Last day at Hollis is the 15th", "my last day there will be feb 25") ends it on that day, a dated plan."""
    m = rp.FIRST_DAY.search(p.piece.text)
    if m is None or (m["there"] and m["which"].lower() == "first"):
        return
    notice = rp.NOTICE.search(p.turn.text) if m["bare"] is not None else None
    if m["bare"] is not None and (notice is None or m["which"].lower() == "first"):
        return  # "My last day is June 30th" of a holiday, a school year: only a job's where notice was given
    named = m["org"] or (notice["org"] if notice is not None else None)
    org = re.sub(r"^the\s+", "", named) if named else None
    first = m["which"].lower() == "first"
    said_at = m.start("ahead")
    day = _day_said(p.piece.text[said_at:]) if not first and m["ahead"] else None
    if m["bare"] is not None and day is None:
        return  # "Handed in my notice, my last day is still being agreed": no day, no ending yet
    mood = _piece_mood(p) if first else _Mood(Modality.PLANNED if day else _piece_mood(p).modality, False, "no_longer")
    c = _piece_clause(p, m.start(), m.end(), p.speaker)
    if day is None:
        _emit(c, K.STATE, "works_at", org, m.end(), mood, _say(p.speaker, mood, "works at", "work at", org or ""))
        return
    words, end = day
    text = f"{p.speaker} leaves {org or 'their job'}"
    _emit(c, K.STATE, "works_at", org, said_at + end, mood, text, time_expression=words)  # ends that day


def _day_said(after: str) -> tuple[str, int] | None:
    """The day a last day is said to be ("is the 15th", "will be feb 25"), as words the resolver reads, and where they
    end in ``after``."""
    m = re.match(r"\s*(?:is|will\s+be|['’]s)\s+(?P<day>[^,.;:!?]+?)(?=\s+and\b|[,.;:!?]|$)", after)
    if m is None:
        return None
    words = as_time(m["day"])
    return (words, m.end("day")) if words is not None else None
