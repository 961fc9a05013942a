"""Vocabulary, regular expressions and string helpers of the rules extractor (pure, stdlib ``re`` only).

Everything here works on plain strings; :mod:`sodamem.ingest.extract.rules` walks the dialogue and builds facts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_I = re.IGNORECASE


def alt(words: Iterable[str]) -> str:
    """A regex alternation, longer words first, spaces matching any run of whitespace."""
    escaped = (re.escape(w).replace(r"\ ", r"\s+").replace("'", "['’]") for w in sorted(set(words), key=_longest))
    return "|".join(escaped)


def _longest(word: str) -> tuple[int, str]:
    return -len(word), word


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def phrases(text: str) -> frozenset[str]:
    """Comma-separated phrases (multi-word entries)."""
    return frozenset(p.strip() for p in text.split(",") if p.strip())


# --- names and people -------------------------------------------------------------------------------------------
_UP, _LOW = "A-ZÀ-ÖØ-Þ", "a-zà-öø-ÿ"
NAME_WORD = rf"[{_UP}][{_LOW}]+(?:[{_UP}][{_LOW}]+)?(?:-[{_UP}][{_LOW}]+|['’][{_UP}][{_LOW}]+)?"
NAME = rf"{NAME_WORD}(?:[ \t]+{NAME_WORD}){{0,2}}"
# Capitalised words that start sentences but are not names (compared lower-cased).
NAME_STOP = words(
    """i i'm my me we our us you your he she his her him they them their it its this that these those there here
    the a an and but or so because if when while where what who why how which whose then than now also just still
    hi hey hello hiya thanks thank cheers sorry please yes yeah yep yup no nope nah oh ah aw aww wow whoa ooh omg
    lol haha hahaha ha hmm um uh ugh meh ok okay sure cool nice great awesome amazing good glad happy sounds looks
    seems feels hope guess maybe perhaps probably definitely absolutely exactly totally really honestly actually
    basically literally seriously obviously apparently hopefully luckily unfortunately fortunately sadly finally
    anyway anyways well plus besides meanwhile btw tbh today yesterday tomorrow tonight last next every each all
    both some any many most much more lots one two three four five six seven eight nine ten first second after
    before since until though although as at in on for with from to of by about like love loved lovely congrats
    congratulations dear mine let lets speaking talking being having going got gonna went not never only even
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
    september october november december spring summer autumn fall winter christmas easter mum mom dad mummy mommy
    daddy grandma grandpa granny nana everyone everybody someone somebody nobody anyone people family kids same
    true right fine whatever wait yikes damn gosh god jeez bye goodbye morning evening afternoon night weekend
    recently lately later earlier agreed indeed certainly surely wish reminder note noted quick update other
    another new old big little fun funny interesting thankfully alright welcome enjoy check take make keep look
    tell try let's"""
)
KIN_BARE = words("mum mom dad mummy mommy daddy grandma grandpa granny nana")

REL_SINGLE = words(
    """sister brother sibling twin mum mom mother dad father stepmom stepmum stepdad stepmother stepfather grandma
    grandmother grandpa grandfather granny nana aunt auntie uncle cousin niece nephew son daughter stepson
    stepdaughter grandson granddaughter partner husband wife boyfriend girlfriend fiance fiancé fiancee fiancée
    spouse friend bestie bff colleague coworker co-worker boss manager mentor teacher coach therapist neighbour
    neighbor roommate flatmate housemate classmate teammate landlord dog cat puppy pup kitten rabbit bunny hamster
    parrot horse pony"""
) | {"best friend"}
REL_PLURAL = words(
    """parents kids children sons daughters sisters brothers siblings grandparents grandkids grandchildren friends
    colleagues coworkers cousins family pets dogs cats in-laws folks"""
)
# Relations one usually has one of: "my sister Priya" makes "Maya's sister" an alias of Priya. Friends, colleagues
# and cousins come in numbers, so "my friend Aisha" gives a relation fact but no alias.
NON_UNIQUE_RELS = words(
    """friend bestie bff colleague coworker co-worker neighbour neighbor cousin classmate teammate roommate flatmate
    housemate teacher coach therapist mentor aunt auntie uncle niece nephew"""
)
REL = alt(REL_SINGLE | REL_PLURAL)
REL_ONE = alt(REL_SINGLE)
REL_MOD = (
    r"(?:(?:little|big|older|younger|elder|eldest|oldest|youngest|baby|twin|new|old|late|dear|lovely|sweet|step|"
    r"half|adopted)\s+)?"
)

# --- the aux chain between a subject and its verb ----------------------------------------------------------------
AUX_CONTRACTION = re.compile(r"['’](?:m|re|s|ve|d|ll)\b", _I)
_AUX = words(
    """am is are was were be been being do does did have has had will would shall should could can may might must
    don't doesn't didn't haven't hasn't hadn't isn't aren't wasn't weren't won't wouldn't shouldn't couldn't can't
    cannot dont doesnt didnt havent hasnt isnt arent wasnt werent wont wouldnt cant ain't not never also just really
    still always now absolutely totally actually definitely honestly kinda finally already even only officially
    recently usually often sometimes currently truly seriously genuinely literally basically probably maybe both all
    generally mostly certainly then soon eventually so very gonna wanna gotta considering happily newly personally
    typically ever"""
) | phrases(
    """no longer, kind of, sort of, pretty much, used to, going to, planning to, planning on, plan to, plans to,
    hope to, hoping to, hopes to, want to, wants to, wanted to, need to, needs to, have to, has to, got to,
    trying to, try to, tried to, decided to, intend to, intending to, about to, thinking of, thinking about,
    looking to, aiming to, off to, coming to, supposed to, able to, starting to, started to, learning to"""
)
AUX_WORD = re.compile(rf"(?:^|\s+)(?:{alt(_AUX)})(?![\w'’])", _I)

NEG = re.compile(
    r"\bnot\b|\b(?:do|does|did|is|are|was|were|have|has|had|wo|ca|would|could|should|ai|must)n['’]?t\b|\bwont\b|"
    r"\bcant\b|\bnever\b|\bcannot\b|\bno\s+longer\b",
    _I,
)
NO_LONGER = re.compile(r"\bno\s+longer\b", _I)
USED_TO = re.compile(r"\bused\s+to\b", _I)
PLAN = re.compile(
    r"['’]ll\b|\bwill\b|\bwon['’]?t\b|\bshall\b|\bgoing\s+to\b|\bgonna\b|\bplann?(?:s|ing)?\s+(?:to|on)\b|"
    r"\bhop(?:e|es|ing)\s+to\b|\bwants?\s+to\b|\bwanna\b|\babout\s+to\b|\bthinking\s+(?:of|about)\b|\bconsidering\b|"
    r"\blooking\s+to\b|\baiming\s+to\b|\bintend(?:s|ing)?\s+to\b|\boff\s+to\b|\bcoming\s+to\b|\bdecided\s+to\b",
    _I,
)
OBLIGATION = re.compile(r"\bneeds?\s+to\b|\bha(?:ve|s)\s+to\b|\bgot\s+to\b|\bgotta\b|\bmust\b|\bsupposed\s+to\b", _I)
HYPOTHETICAL = re.compile(
    r"['’]d\b|\bwould\b|\bwouldn['’]?t\b|\bcould\b|\bcouldn['’]?t\b|\bmight\b|\bshould\b|\bmay\b|\bcan\b", _I
)
COPULA = re.compile(r"['’](?:m|re|s)\b|\b(?:am|is|are|was|were|be|been|being|isn['’]?t|aren['’]?t|wasn['’]?t)\b", _I)
PERFECT = re.compile(r"['’]ve\b|\b(?:have|has|had|haven['’]?t|hasn['’]?t)\b", _I)
BEEN = re.compile(r"\bbeen\b", _I)

# --- where a subject may start: the start of a clause ------------------------------------------------------------
CLAUSE_START_BEFORE = re.compile(
    r"(?:^|[,;:(\[\"“'‘—–…!?.]|\s-|\b(?:"
    + alt(
        words(
            """and but so because cause cos coz cuz then now also honestly actually well oh ah yeah yes yep yup no
            nope plus anyway anyways that since when whenever while though although if unless whether after before
            until once said says say told tell tells think thought guess hope know knew mean feel felt believe
            realized realised reckon apparently luckily sadly unfortunately fortunately basically finally recently
            lately today yesterday tonight currently maybe perhaps probably definitely obviously seriously lol haha
            okay ok wow hey hi hello thanks where whereas wish tbh btw meanwhile otherwise instead still which
            sometimes usually besides"""
        )
    )
    + r"))\s*$",
    _I,
)
# Words before "I" that make it part of a relative clause ("the best thing I ate"), not a statement.
RELATIVE_BEFORE = re.compile(
    r"\b(?:thing|things|stuff|one|ones|place|places|way|ways|what|whatever|everything|something|anything|all|"
    r"than|as|like|how|which|who|whom|that|time|times|day|where|kind|sort|type|reason|part)\s*$",
    _I,
)
REPORTING_BEFORE = re.compile(
    r"\b(?:said|says|told\s+me|tells\s+me|mentioned|thinks|reckons|claims|claimed|heard|apparently|"
    r"according\s+to\s+\w+)(?:\s+that)?[,\s]*$",
    _I,
)
CONDITIONAL_BEFORE = re.compile(r"\b(?:if|unless|whether|in\s+case|wish|imagine|suppose|even\s+if)\b[^,;.]*$", _I)
QUESTION_END = re.compile(r"\?[\W_]*$")

# --- objects ----------------------------------------------------------------------------------------------------
# Where the clause carrying an object ends.
BOUNDARY = re.compile(
    r"\s*(?:[!?;…()\[\]\"“”]|\.(?=\s|$)|:(?=\s|$)|,(?=\s|$))|\s*[-–—]+(?=\s)|\s+['’](?:cause|cos|coz|cuz)\b|"
    r"\s+(?:but|because|cause|cos|cuz|coz|so|since|although|though|which|who|whom|whose|where|when|whenever|while|"
    r"whereas|until|unless|if|before|after|than|that|lol|haha|xx)\b|"
    r"\s+(?:and|or|&)\s+(?:then\s+)?(?:I|I['’]\w+|we|he|she|they|it|my|our|his|her|their|you|then|now|also|still|"
    r"so|that|this|there|was|is|had|have|got|went|did)\b|\s+(?=(?-i:I)(?:['’]\w+)?\s)|"
    r"\s+and\s+(?=(?:[a-z]+ed|went|got|had|made|took|saw|met|came|ate|ran|bought|found|felt|left|lost|sold|won|"
    r"began|did|gave|kept|told|said|thought|brought|caught|taught|spent|sent|built|wrote|drove|flew|became)\b)",
    _I,
)
LIST_REST = re.compile(r"^(?:,\s+[^,]+?)*(?:,?\s+(?:and|or)\s+[^,]+?)$")
TAIL_FILLER = re.compile(
    r"(?:\s+(?:too|as\s+well|again|already|yet|though|anyway|anyways|honestly|lol|haha|now|right\s+now|so\s+much|"
    r"a\s+lot|very\s+much|really|tbh|btw|either|at\s+all|ever|straight|right|then|for\s+now|these\s+days|"
    r"at\s+the\s+moment|currently|together|sometimes|often|every\s+day|all\s+the\s+time|mostly|still|also|instead|"
    r"finally|here|there|anymore|any\s+more|no\s+more|myself|ourselves|at\s+last|lately|recently|first|"
    r"straight\s+after|right\s+after|afterwards|once|twice|back|yesterday|today|tonight|atm|x+|!+|about|around|"
    r"nearly|almost|over|roughly|approximately|like|just|only|since))+$",
    _I,
)
TAIL_FUNCTION_WORD = re.compile(r"\s+(?:to|with|at|in|on|for|of|from|about|into|and|or|the|a|an|my|our|by|as)$", _I)
ANYMORE = re.compile(r"\b(?:anymore|any\s+more|no\s+more)\b", _I)
PRONOUN_START = words(
    """every everyday it it's its itself them they they're you you're your yours him his her hers he she me myself
    us we i i'm what how when where why who whom which whatever whoever if whether there here one ones some any all
    everything
    something anything nothing everyone someone anyone everybody somebody so too very such being getting having
    doing to and or but out up off into through over by around away back about on in at for with like just really
    also not no more less much many lot lots their theirs our ours myself yourself is was are were am be been has
    have had do does did will would can could should"""
)
DEMONSTRATIVE = words("this that these those")
FIRST_PERSON_OBJ = {"me": "", "us": "", "myself": "", "ourselves": ""}

ROLE_NAME = rf"(?:(?:The|the)\s+)?{NAME}"
LOCATION = re.compile(rf"\s+(?:in|at|near|around)\s+(?P<loc>{ROLE_NAME})(?![\w'’])")
COMPANION = re.compile(
    rf"\s+with\s+(?P<comp>(?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?:{REL})(?:\s+{NAME})?|{NAME}(?:(?:,\s*|\s+and\s+){NAME})*)"
    r"(?![\w'’])"
)

# --- vocabularies of values -------------------------------------------------------------------------------------
DIETS = phrases(
    "vegetarian, vegan, pescatarian, pescetarian, keto, paleo, gluten-free, gluten free, dairy-free, dairy free, "
    "plant-based, plant based, lactose intolerant, teetotal, sober, carnivore, flexitarian, halal, kosher"
)
RELATIONSHIP = phrases("single, married, engaged, divorced, separated, widowed, in a relationship, taken")
TASTES = words("spicy sweet salty sour cheesy crispy crunchy garlicky tangy smoky savory savoury greasy chocolatey")
JOB_HEADS = words(
    """teacher nurse doctor engineer developer designer analyst manager scientist lawyer accountant artist writer
    author photographer chef cook student researcher consultant programmer painter musician counselor counsellor
    therapist dentist pharmacist architect journalist editor professor lecturer librarian firefighter officer
    mechanic electrician plumber carpenter pilot driver barista waiter waitress cashier salesman saleswoman marketer
    veterinarian vet paramedic surgeon psychologist psychiatrist coach trainer instructor tutor dancer singer actor
    actress freelancer entrepreneur founder intern clerk receptionist secretary administrator technician farmer
    baker butcher tailor soldier translator economist statistician physiotherapist physio midwife bartender blogger
    youtuber streamer gardener landscaper director executive ceo cto cfo banker broker investor realtor agent
    illustrator animator producer composer dj filmmaker sculptor potter jeweller jeweler hairdresser stylist
    beautician pharmacist optician caregiver carer nanny babysitter cleaner janitor guard detective policeman
    policewoman cop sergeant lieutenant captain nun priest pastor rabbi imam chaplain volunteer activist
    politician diplomat historian archaeologist biologist chemist physicist mathematician geologist astronomer
    economist sociologist anthropologist linguist philosopher poet novelist screenwriter copywriter
    scriptwriter podcaster influencer vlogger gamer athlete footballer cyclist swimmer runner climber boxer
    wrestler golfer skater surfer gymnast referee umpire lifeguard paralegal solicitor barrister judge notary
    auditor bookkeeper underwriter actuary adviser advisor planner recruiter strategist specialist coordinator
    supervisor assistant apprentice resident registrar radiographer sonographer dietitian nutritionist
    chiropractor osteopath podiatrist hygienist optometrist ophthalmologist pediatrician paediatrician
    dermatologist cardiologist neurologist oncologist anaesthetist anesthetist obstetrician welder roofer
    bricklayer builder contractor surveyor plasterer glazier locksmith upholsterer florist grocer shopkeeper
    retailer merchant vendor trader courier postman mailman miner fisherman sailor seaman captain"""
)
POSSESSIONS = phrases(
    "dog, cat, puppy, pup, kitten, kitty, rabbit, bunny, hamster, guinea pig, bird, parrot, budgie, fish, goldfish, "
    "horse, pony, snake, turtle, tortoise, lizard, gecko, ferret, chicken, hen, goat, pet, kid, child, son, "
    "daughter, baby, sibling, brother, sister, grandchild, grandkid, grandson, granddaughter, niece, nephew, twin, "
    "stepson, stepdaughter, roommate, housemate, flatmate, car, bike, bicycle, motorbike, motorcycle, house, flat, "
    "apartment, guitar, piano, violin, tattoo, piercing, houseplant, plant, boat, laptop, camera, job"
)
IRREGULAR_PLURALS = {
    "children": "child",
    "grandchildren": "grandchild",
    "people": "person",
    "mice": "mouse",
    "geese": "goose",
    "fish": "fish",
    "goldfish": "goldfish",
    "sheep": "sheep",
    "wolves": "wolf",
    "knives": "knife",
    "wives": "wife",
    "calves": "calf",
}
COUNTS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "no": 0, "zero": 0, "any": 0, "a couple of": 2, "a pair of": 2,
}  # fmt: skip
ATTRIBUTES = phrases(
    "name, nickname, full name, first name, last name, surname, middle name, birthday, age, hometown, home town, "
    "job title, title, major, degree, email, email address, phone number, address, star sign, zodiac sign, "
    "blood type, height, weight, goal, dream, dream job, hobby, main hobby, passion, native language, "
    "first language, mother tongue, religion, nationality, shoe size, profession, occupation, diet, budget, "
    "username, pronouns, specialty, speciality"
)
# Verbs a bare plan ("I'll ask him") is too thin to keep.
PLAN_STOP_VERBS = words(
    """be see let say tell ask know think guess check keep have get do talk remember remind update send text call
    message look need make bring give take put find show help stop wait sleep go come leave stay head hang let's
    sort figure share mention hear feel love like hate enjoy want hope try start finish use pass drop forget
    cherish treasure miss regret appreciate thank apologize apologise recommend suggest owe admit bet promise
    catch chat hang"""
)
EVENT_STOP_OBJECTS = words("track count touch sight control interest patience hope faith time sleep best hard")


# --- helpers -----------------------------------------------------------------------------------------------------
def snake(text: str) -> str:
    """``"Favourite Colour"`` -> ``"favourite_colour"`` (ASCII, lower case, underscores)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")


def singular(noun: str) -> str:
    """A plural noun (or noun phrase, by its last word) made singular: ``"guinea pigs"`` -> ``"guinea pig"``."""
    head, _, last = noun.lower().rpartition(" ")
    if last in IRREGULAR_PLURALS:
        last = IRREGULAR_PLURALS[last]
    elif last.endswith("ies") and len(last) > 4:
        last = last[:-3] + "y"
    elif re.search(r"(?:ch|sh|ss|x|z)es$", last):
        last = last[:-2]
    elif last.endswith("s") and not last.endswith("ss") and len(last) > 2:
        last = last[:-1]
    return f"{head} {last}" if head else last


def plural(noun: str) -> str:
    for many, one in IRREGULAR_PLURALS.items():
        if one == noun:
            return many
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    if re.search(r"(?:ch|sh|s|x|z)$", noun):
        return noun + "es"
    return noun + "s"


POSSESSION_FORMS = {form: noun for noun in POSSESSIONS for form in (noun, plural(noun))}
POSSESSION = alt(POSSESSION_FORMS)


def count_value(word: str) -> str:
    """``"two"`` -> ``"2"``; digits stay digits."""
    key = " ".join(word.lower().split())
    return word if word.isdigit() else str(COUNTS.get(key, key))


def comparative_base(word: str) -> str:
    """``"spicier"`` -> ``"spicy"``, ``"hotter"`` -> ``"hot"``, ``"sweeter"`` -> ``"sweet"``."""
    w = word.lower()
    if w.endswith("ier"):
        return w[:-3] + "y"
    if w.endswith("er"):
        stem = w[:-2]
        return stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem
    return w


def object_rejected(obj: str) -> bool:
    """Objects too vague to be a fact: pronouns, bare demonstratives, empty or very long phrases."""
    tokens = obj.lower().replace("’", "'").split()
    if not tokens or len(tokens) > 8:
        return True
    if tokens[0] in PRONOUN_START:
        return True
    if tokens[0] in DEMONSTRATIVE and (len(tokens) == 1 or tokens[1] in PRONOUN_START):
        return True
    if all(t in DETERMINERS for t in tokens):
        return True
    return not any(ch.isalnum() for ch in obj)


def strip_tail(text: str) -> str:
    """Trailing fillers ("too", "now", "lol") and punctuation off an object."""
    previous = None
    while previous != text:
        previous = text
        text = TAIL_FUNCTION_WORD.sub("", TAIL_FILLER.sub("", text)).rstrip()
        while text and not (text[-1].isalnum() or text[-1] in ")%+"):
            text = text[:-1].rstrip()
    return text


def clause_end(text: str, start: int, *, allow_list: bool = False) -> int:
    """Where the clause that starts at ``start`` ends (a list "a, b and c" is kept whole when ``allow_list``)."""
    pos = start
    while True:
        m = BOUNDARY.search(text, pos)
        if m is None:
            return len(text)
        if allow_list and m.group().startswith(","):
            hard = BOUNDARY.search(text, m.end())
            while hard is not None and hard.group().startswith(","):
                hard = BOUNDARY.search(text, hard.end())
            rest = text[m.start() : hard.start() if hard else len(text)]
            items = split_list(rest.lstrip(", "))
            if LIST_REST.match(rest) and all(len(i.split()) <= 4 and not _pronoun_first(i) for i in items):
                return hard.start() if hard else len(text)
        return m.start()


def _pronoun_first(item: str) -> bool:
    first = item.lower().replace("’", "'").split()[:1]
    return bool(first) and (first[0] in PRONOUN_START or "'" in first[0])


def split_list(text: str) -> list[str]:
    """``"spicy food, coffee and eating late"`` -> its items (only a list with a comma is split; "and" inside
    the first item stays: "trips with friends and family, hiking" has two items)."""
    if "," not in text:
        return [text]
    chunks = [c.strip() for c in re.split(r",\s*", text) if c.strip()]
    last = re.sub(r"^(?:and|or)\s+", "", chunks[-1])
    tail = [i.strip() for i in re.split(r"\s+(?:and|or)\s+", last) if i.strip()]
    return [*chunks[:-1], *tail]


# --- verb patterns (matched right after a subject's aux chain; see rules.py) -------------------------------------
P = r"(?:^|\s+)"
_NOT_JOB_MOD = r"(?!(?:of|and|or|the|a|an|that|who|to|with|in|at|for|but|so|bit|fan|lot|big|huge)\b)"
OFFERED = re.compile(
    P + r"offered\s+me\s+(?P<obj>(?:a|an|the)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:job|role|position|contract|internship|place|promotion))(?![\w])"
)
TOOK_ME = re.compile(P + r"took\s+me\s+(?:to|for)\s+")
DIET = re.compile(
    P + r"(?P<pre>(?:(?:a|an|strict|full|fully|now|still|mostly|completely|officially|totally|basically|"
    r"pretty\s+much|going|gone|went|go|turned|turning|become|became|becoming|switch(?:ed|ing)?\s+to|"
    rf"supposed\s+to\s+be)\s+)*)(?P<obj>{alt(DIETS)})(?![\w-])"
    r"(?!\s+(?:food|restaurant|place|option|dish|recipe|meal|cafe|café|version|cookbook|friendly|menu|cheese))"
)
CHANGE_VERB = re.compile(r"\b(?:going|gone|went|go|turned|turning|become|became|becoming|switch\w*)\b")
REL_STATUS = re.compile(
    P + r"(?P<pre>(?:(?:now|still|happily|recently|newly|finally|just|getting|got|get|gotten)\s+)*)"
    rf"(?P<obj>single|married|engaged|divorced|separated|widowed|in\s+a\s+relationship)(?![\w-])"
    rf"(?:\s+to\s+(?P<to>{NAME})(?![\w]))?"
)
DATING = re.compile(P + rf"dating\s+(?P<name>{NAME})(?![\w])")
AGE = re.compile(
    P + r"(?P<turn>turn(?:ed|s|ing)\s+)?(?P<age>\d{1,3})(?:\s+years?\s+old|\s*y/?o)?"
    r"(?=\s*(?:[,.!;)]|$)|\s+(?:and|now|today|this|next|last|but|so|soon)\b)"
)
JOB = re.compile(
    P + rf"(?:a|an)\s+(?P<job>(?:{_NOT_JOB_MOD}[\w-]+\s+){{0,3}}?(?:{alt(JOB_HEADS)}))(?![\w'’-])"
    rf"(?:\s+(?:at|for|with)\s+(?P<org>{ROLE_NAME})(?![\w]))?"
)
WORK = re.compile(P + r"(?P<verb>work|works|worked|working)(?![\w'’])")
WORK_AS = re.compile(r"\s+as\s+(?:an?\s+)?")
AT_ORG = re.compile(r"\s+(?:at|for)\s+")
ORG_SPLIT = re.compile(rf"\s+(?:at|for|with)\s+(?P<org>{ROLE_NAME})(?![\w])")
FROM = re.compile(rf"{P}(?:(?P<grew>grew\s+up\s+in)|(?:originally\s+)?from)\s+(?P<place>{ROLE_NAME})(?![\w])")
NAMED_PET = re.compile(
    rf"^(?:a|an|another|the)\s+(?:[a-z]+\s+)?(?P<rel>{REL_ONE})\s+(?:named|called)\s+(?P<name>{NAME})(?![\w])"
)
LIVE = re.compile(P + r"(?P<verb>live|lives|lived|living)\s+(?:in|at|near|on)\s+")
NOT_A_HOME = words("moment present past now fear hope peace denial harmony luxury poverty comfort bubble dream world")
MOVE = re.compile(
    P + r"(?P<verb>move|moves|moved|moving)(?P<adv>(?:\s+(?:back|house|out|away|over|here|there|abroad|home))*)"
    r"(?:\s+(?P<prep>to|into|in\s+to|from))?(?![\w'’])"
)
STUDY = re.compile(P + r"(?P<verb>study|studies|studied|studying|majoring\s+in|majored\s+in|major\s+in)(?![\w'’])")
STUDY_STOP = words("for with hard abroad together all so late really up on it that this them every each some more")
HAVE = re.compile(
    P + r"(?P<verb>have|has|had|got|own|owns|owned)\s+(?:got\s+)?"
    rf"(?P<num>\d{{1,2}}|{alt(COUNTS)})\s+(?P<mods>(?:(?!(?:of|and|or|the)\b)[a-z-]+\s+){{0,2}}?)"
    rf"(?P<noun>{POSSESSION})(?![\w'’-])(?:\s+(?:named|called)\s+(?P<name>{NAME})(?![\w]))?"
)
CUT_DOWN = re.compile(
    P + r"(?:(?:cut|cutting|cuts)\s+(?:down|back)(?:\s+on)?|(?:gone|went|going|go)\s+off|"
    r"(?:gave|give|giving|given|gives)\s+up(?:\s+on)?|(?:quit|quitting|stopped|stopping)\s+(?=\w+ing\b))\s+"
)
FAN = re.compile(
    P + r"(?:a\s+)?(?:(?:big|huge|massive|real|great|total|true|die-hard|long-time|longtime)\s+)?fan\s+of\s+"
    r"|" + P + r"(?:(?:really|so|totally|very|super|quite|pretty|genuinely|absolutely|kinda|obsessively)\s+)?"
    r"(?:into|obsessed\s+with|keen\s+on|crazy\s+about|passionate\s+about|addicted\s+to|hooked\s+on|mad\s+about|"
    r"in\s+love\s+with|a\s+(?:big\s+|huge\s+)?lover\s+of)\s+"
)
LIKE = re.compile(
    P + r"(?P<verb>love|loves|loved|loving|adore|adores|adored|like|likes|liked|enjoy|enjoys|enjoyed|enjoying|"
    r"prefer|prefers|preferred|hate|hates|hated|hating|dislike|dislikes|disliked|detest|detests|stand)(?![\w'’])"
)
PREFER_CUT = re.compile(r"\s+(?:to|over|than|rather\s+than|instead\s+of)\s+")
TRIP = re.compile(
    P + r"(?P<verb>doing|do|did|done|taking|take|took|taken|going\s+on|went\s+on|gone\s+on|go\s+on|having|had|"
    r"planning|plan|booked|booking)\s+(?:a|an|our|my|the)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:trip|holiday|vacation|getaway|road\s+trip|break)\s+to\s+"
)
GO = re.compile(P + r"(?P<verb>go|goes|went|going|gone|been)(?:\s+back)?(?![\w'’])")
GO_TO = re.compile(
    r"\s+to\s+(?=(?:the|a|an|my|our|this|that|some|[A-Z0-9])|(?:school|church|work|college|uni|"
    r"university|class|hospital|rehab|therapy|town|camp|mass|market|court)\b)"
)
GO_FOR = re.compile(r"\s+(?P<prep>for|on)\s+(?=(?:a|an|some)\s)")
GO_ING = re.compile(r"\s+(?=(?!going\b|being\b|getting\b|doing\b|having\b|nothing\b|something\b|thing\b)[a-z]+ing\b)")
GO_HOME = re.compile(r"\s+(?=home\b|abroad\b)")
SIGN_UP = re.compile(P + r"(?:sign|signs|signed|signing)\s+up\s+(?:for|to)\s+")
SWITCH = re.compile(P + r"(?:switch|switches|switched|switching)\s+(?:from\s+(?P<src>[\w' -]{1,40}?)\s+)?to\s+")
TAKE_UP = re.compile(P + r"(?P<verb>take|takes|took|taken|taking)\s+up\s+(?=\w)")
EVENT_FORMS = {
    "visited": "visit visits visited visiting",
    "bought": "buy buys bought buying",
    "started": "start starts started starting",
    "finished": "finish finishes finished finishing",
    "adopted": "adopt adopts adopted adopting",
    "joined": "join joins joined joining",
    "met": "meet meets met meeting",
    "lost": "lose loses lost losing",
    "graduated": "graduate graduates graduated graduating",
    "ran": "run - ran running",
    "completed": "complete completes completed completing",
    "attended": "attend attends attended attending",
    "tried": "try tries tried trying",
    "quit": "quit quits quit quitting",
    "sold": "sell sells sold selling",
    "painted": "paint paints painted painting",
    "won": "win wins won winning",
}
# form -> (predicate, base, which form: 0 base, 1 third person, 2 past, 3 -ing)
EVENT_FORM_INDEX = {
    form: (predicate, forms.split()[0], i)
    for predicate, forms in EVENT_FORMS.items()
    for i, form in enumerate(forms.split())
    if form != "-"
}
EVENT = re.compile(P + rf"(?P<verb>{alt(EVENT_FORM_INDEX)})(?![\w'’])(?!\s+(?:to|up|out|into|off|over)\b)")
GENERIC_PLAN = re.compile(P + r"(?P<verb>[a-z]+)(?![\w'’])")

# --- patterns over a whole piece ---------------------------------------------------------------------------------
REL_NAMED = re.compile(rf"\b(?P<my>[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE}),?\s+(?P<name>{NAME})(?![\w])")
NAME_PAREN_REL = re.compile(rf"(?P<name>{NAME})\s+\((?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE})\)")
POSS_REL_NAMED = re.compile(
    rf"(?<![\w'’])(?P<owner>{NAME})['’]s\s+{REL_MOD}(?P<rel>{REL_ONE}),?\s+(?P<name>{NAME})(?![\w])"
)
REL_IS_NAMED = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE})(?:['’]s\s+name\s+is|(?:\s+is|['’]s)\s+(?:called|named))\s+"
    rf"(?P<name>{NAME})(?![\w])"
)
NAME_IS_MY_REL = re.compile(
    rf"(?<![\w'’])(?P<name>{NAME})\s+(?:is|was)\s+(?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE})(?![\w'’])"
)
PET_NAMED = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+(?:[a-z]+\s+)?(?P<rel>{REL_ONE})\s+(?:named|called)\s+(?P<name>{NAME})(?![\w])"
)
SELF_NAME = re.compile(
    rf"(?:\b[Mm]y\s+name\s+is|\b[Mm]y\s+name['’]s|\b[Cc]all\s+me|\bI\s+am\s+called|\bI['’]m\s+called)\s+"
    rf"(?P<name>{NAME})(?![\w'’])"
)
GREETING_INTRO = re.compile(rf"^I['’]m\s+(?P<name>{NAME_WORD})(?=\s*(?:[.!,;]|$|\s+and\b|\s+here\b))")
GREETING = re.compile(
    r"^\W*(?:hi|hello|hey|hiya|heya|greetings|good\s+(?:morning|afternoon|evening)|morning|evening)\b", _I
)
_THING_WORD = r"(?!(?:is|are|was|were|has|had|would|will|when|that|which|who|because|i|we|you|it)\b)[a-z][a-z-]*"
GENERIC_THINGS = words("one ones thing things part bit moment moments memory memories way time times kind type sort")
FAVOURITE = re.compile(
    rf"(?<![\w'’])(?P<owner>[Mm]y|{NAME}['’]s)\s+(?:(?:all[- ]time|absolute|current|new|old|ultimate|top)\s+)?"
    rf"(?:favou?rite|fave|fav)\s+(?P<thing>{_THING_WORD}(?:\s+{_THING_WORD}){{0,3}}?)\s+"
    r"(?:is|are|was|were|has\s+to\s+be|would\s+be|['’]s)\s+"
)
FAVOURITE_BACK = re.compile(
    r"(?P<val>[^,;:.!?]{1,40}?)\s+(?:is|are|was)\s+(?:definitely\s+|probably\s+|still\s+|now\s+)?"
    rf"(?P<owner>my|{NAME}['’]s)\s+(?:all[- ]time\s+|absolute\s+|new\s+)?(?:favou?rite|fave)\s+"
    r"(?P<thing>[a-z][a-z-]{1,20}(?:\s+(?:of\s+)?[a-z][a-z-]{1,20})?)(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|ever)\b)"
)
MY_ATTRIBUTE = re.compile(
    rf"(?<![\w'’])(?P<owner>[Mm]y|{NAME}['’]s)\s+(?P<attr>{alt(ATTRIBUTES)})\s+(?:is|was|['’]s)\s+"
)
TASTE = re.compile(r"\b[Tt]he\s+(?P<adj>[a-z]+er)\s+the\s+better\b")
FIRST_DAY = re.compile(
    rf"(?:^|\b[Mm]y\s+)(?P<which>[Ff]irst|[Ll]ast)\s+(?:full\s+)?(?:day|week|month|shift)\s+"
    rf"(?:at|of\s+work\s+at|working\s+at)\s+(?P<org>{ROLE_NAME})(?![\w])"
)
LEADING_FILLER = re.compile(r"^(?:(?:and|but|so|oh|well|honestly|yeah|yes|also|plus|ok|okay|now)\b[,\s]*)+", _I)


# --- subjects and small vocabularies of rules.py ----------------------------------------------------------------
NEGATIVE_LIKES = frozenset({"hate", "hates", "hated", "hating", "dislike", "dislikes", "disliked", "detest"})
MID_SENTENCE_NAME = re.compile(rf"(?<=[\w,;:)] )(?P<name>{NAME_WORD})(?![\w])")
SUBJECT = re.compile(
    rf"(?P<pair>(?P<pa>{NAME}|[Mm]y\s+{REL_MOD}(?:{REL_ONE}))\s+and\s+I)(?![\w'’])"
    rf"|(?P<pair2>(?:I|[Mm]e)\s+and\s+(?P<pb>{NAME}|my\s+{REL_MOD}(?:{REL_ONE})))(?![\w'’])"
    r"|(?P<i>\bI)(?![\w])"
    r"|(?P<we>\b[Ww]e)(?![\w])"
    rf"|(?P<my>\b[Mm]y\s+{REL_MOD}(?P<rel>{REL})(?![\w'’])(?:,?\s+(?P<relname>{NAME})(?![\w]),?)?)"
    rf"|(?P<poss>\b(?P<owner>{NAME})['’]s\s+{REL_MOD}(?P<prel>{REL_ONE})(?![\w'’])"
    rf"(?:,?\s+(?P<pname>{NAME})(?![\w]))?)"
    rf"|(?P<name>\b{NAME})(?![\w])"
)
BASE_FORMS = frozenset(
    [forms.split()[0] for forms in EVENT_FORMS.values()]
    + "like love enjoy hate prefer adore dislike go move live work study have own want join".split()
)
PRO_DROP = re.compile(
    r"^(?:went|visited|bought|started|finished|adopted|moved|joined|met|lost|graduated|ran|completed|signed|"
    r"attended|tried|quit|sold|painted|won|switched|took|gonna|planning|hoping|thinking)\b",
    re.IGNORECASE,
)
IRREGULAR_PAST = frozenset("went bought met lost ran sold won quit took got".split())
FUTURE_PROGRESSIVE = frozenset("visited bought started adopted joined met graduated ran attended quit sold".split())
DETERMINERS = words("a an the my our your his her their this that these those some any no every each")
ROLE_SPEAKERS = frozenset("user human speaker me person client customer patient you".split())
WEAK_VALUE = words("so too very really pretty quite kind kinda super not getting going still always just literally")
