"""Word lists of the rules extractor and the regex fragments built from them (pure, stdlib ``re`` only).

Names and relations ("my little sister", "Priya's fiancé"), vocabularies of values (diets, jobs, possessions,
attributes, counts), small word lists the rules consult, and string helpers over words (``snake``, ``plural``, ...).
The shape of a clause is in :mod:`sodamem.ingest.extract.rules_syntax`, the verb and piece patterns in
:mod:`sodamem.ingest.extract.rules_patterns`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sodamem.roles import CHAT_WORDS, NAMES_ONE_WORDS, RELATION_WORDS
from sodamem.roles import snake as snake  # the rules' string helper, beside the others here


def alt(words: Iterable[str]) -> str:
    """A regex alternation, longer words first, spaces matching any run of whitespace."""
    escaped = (re.escape(w).replace(r"\ ", r"\s+").replace("'", "['’]") for w in sorted(set(words), key=_longest))
    return "|".join(escaped)


def _longest(word: str) -> tuple[int, str]:
    return -len(word), word


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# letter names that begin with a vowel sound ("an HR manager", "an MRI technician"; "a UX designer")
_VOWEL_LETTERS = frozenset("AEFHILMNORSX")
# acronyms typed in lower case, said letter by letter ("an hr manager", "a ux designer")
_LOWER_ACRONYMS = frozenset("ux ui hr it qa seo nhs ceo cto cfo coo vp pr gp rn sql aws eu".split())
# words spelt with a vowel that begin with a consonant sound ("a uni lecturer", "a European"), and the reverse
_YOU_SOUND = re.compile(r"(?:uni(?!n)|us[eu]|uti|ur[aeiou]|eu|ewe|one\b|once\b)", re.IGNORECASE)
_SILENT_H = re.compile(r"(?:hour|honest|honou?r|heir)", re.IGNORECASE)
_EIGHT_ELEVEN = re.compile(r"(?:8|11|18)(?!\d)|8\d\d(?!\d)")  # "an 8th grade teacher", "an 11-plus tutor"


def a_or_an(noun: str) -> str:
    """``noun`` with the indefinite article its first sound takes: "an engineer", "a UX designer", "an HR manager",
    "a NASA engineer" (an acronym said as a word)."""
    first = noun.split()[0] if noun.split() else ""
    letters = first.split("-")[0]
    if first[:1].isdigit():
        vowel = _EIGHT_ELEVEN.match(first) is not None
    elif (
        letters.lower() in _LOWER_ACRONYMS
        or (len(letters) == 1 and letters.isupper())
        or (letters.isupper() and (len(letters) <= 3 or not re.search(r"[AEIOU]", letters[1:])))
    ):
        vowel = letters[:1].upper() in _VOWEL_LETTERS  # said letter by letter: "an HR", "an X-ray", "an NHS"
    elif _YOU_SOUND.match(first):
        vowel = False
    else:
        vowel = first[:1].lower() in "aeiou" or bool(_SILENT_H.match(first))
    return f"{'an' if vowel else 'a'} {noun}".rstrip()


def phrases(text: str) -> frozenset[str]:
    """Comma-separated phrases (multi-word entries)."""
    return frozenset(p.strip() for p in text.split(",") if p.strip())


# --- names and people -------------------------------------------------------------------------------------------
# Latin letters of western and central/eastern European names: Latin-1, and inside a name Latin Extended-A/B too
# ("Aerolinia Carpatică", "Kraków", "Brașov"); a capital beyond Latin-1 would slow every name search by a tenth
# (sre's big-charset path on each position scanned), so "Łódź" and "Șerban" are left out
_UP, _LOW = "A-ZÀ-ÖØ-Þ", "a-zà-öø-ÿ\u0100-\u024f"
NAME_WORD = rf"[{_UP}][{_LOW}]+(?:[{_UP}][{_LOW}]+)?(?:-[{_UP}][{_LOW}]+|['’][{_UP}][{_LOW}]+)?"
# a title before a name is part of it: "my boss Dr. Paredes", "Prof. Marisol Huenchullán"
_TITLE = r"(?:(?:Dr|Dra|Prof|Mr|Mrs|Ms|Mx)\.?[ \t]+)?"
NAME = rf"{_TITLE}{NAME_WORD}(?:[ \t]+{NAME_WORD}){{0,2}}"
# Capitalised words that start sentences but are not names (compared lower-cased).
NAME_STOP = words(
    """i i'm im ive shes hes theyre my me we our us you your he she his her him they them their it its this that these
    those there here
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

# the words said for a role (the table of :mod:`sodamem.roles`): "my sister Priya", "my team lead Finn"
REL_SINGLE = RELATION_WORDS
REL_PLURAL = words(
    """parents kids children sons daughters sisters brothers siblings grandparents grandkids grandchildren friends
    colleagues coworkers cousins family pets dogs cats in-laws folks"""
)
# Relations one usually has one of: "my sister Priya" makes "Maya's sister" an alias of Priya. Friends, colleagues
# and cousins come in numbers, so "my friend Aisha" gives a relation fact but no alias; so do those one goes to
# (``sodamem.roles.Role.names_one``).
NON_UNIQUE_RELS = RELATION_WORDS - NAMES_ONE_WORDS
REL = alt(REL_SINGLE | REL_PLURAL)
# a pet named by its breed is that kind of pet: "a pitbull named Tank" is a dog
BREEDS = {
    **dict.fromkeys(
        """pitbull chihuahua greyhound labrador terrier poodle beagle collie spaniel retriever dachshund pug husky
        corgi bulldog schnauzer rottweiler whippet lurcher staffie staffy cockapoo labradoodle goldendoodle cavapoo
        pomeranian mutt sheepdog""".split(),
        "dog",
    ),
    **dict.fromkeys(("black lab", "chocolate lab", "yellow lab", "golden lab"), "dog"),  # not "a lab called Helix"
    **dict.fromkeys("tabby siamese ragdoll bengal sphynx moggy".split(), "cat"),
}
PET_KINDS = frozenset("dog cat puppy pup kitten kitty rabbit bunny hamster parrot horse pony".split()) | BREEDS.keys()
PET_KIND = alt(PET_KINDS)
REL_ONE = alt(REL_SINGLE)
REL_MOD = (
    r"(?:(?:little|big|older|younger|elder|eldest|oldest|youngest|baby|twin|new|old|late|dear|lovely|sweet|step|"
    r"half|adopted)\s+)?"
)
ROLE_NAME = rf"(?:(?:The|the)\s+)?{NAME}"
# An employer's or a place's name: "St. David's", "St. Mary's Hospital", "McDonald's". A possessive is part of the name
# where no lower-case noun follows it ("Google's office" is Google's). Up to four words: "Lincoln Park High School".
# chat's acronyms, which name nothing ("I'm from NYC BTW")
_CHAT_ACRONYMS = r"(?:BTW|OMG|LOL|FYI|IMO|IMHO|ASAP|TBH|IDK|BRB|TBF|IIRC|AFAIK|LMAO|ROFL|TV|OK|PS|ETA|TL|DR|AKA)\b"
_ORG_WORD = (  # a name, or an acronym ("KPMG", "the NHS", "UCLA")
    rf"(?:{NAME_WORD}|(?!{_CHAT_ACRONYMS})[{_UP}]{{2,6}}(?![{_LOW}]))(?:['’]s(?=[ \t]+[{_UP}]|[ \t]*(?:[.,;:!?)]|$)|"
    r"[ \t]+(?:in|as|at|on|near|now|and|but|since|for|with|until|downtown|currently|these|so|because)\b))?"
)
# "of" joins two names: "the City of Ghent", "University of Arizona", "Bank of America", "Universidad de Valparaíso"
_ORG_JOIN = r"(?:(?:of|de|del|di|da|du|des|van|von|der)[ \t]+(?:the[ \t]+)?)?"
ORG_NAME = rf"(?:(?:The|the)\s+)?(?:(?:St|Mt)\.[ \t]+)?{_ORG_WORD}(?:[ \t]+{_ORG_JOIN}{_ORG_WORD}){{0,3}}"

# words that open a noun phrase, never a town typed in lower case ("moved to the studio", "moved to a bigger flat")
DETERMINERS_TYPED = frozenset("the a an my our his her their this that some another".split())

# --- vocabularies of values -------------------------------------------------------------------------------------
DIETS = phrases(
    "vegetarian, vegan, pescatarian, pescetarian, keto, paleo, gluten-free, gluten free, dairy-free, dairy free, "
    "plant-based, plant based, lactose intolerant, teetotal, sober, carnivore, flexitarian, halal, kosher, "
    "intermittent fasting, low-carb, low carb, whole30"
)
RELATIONSHIP = phrases("single, married, engaged, divorced, separated, widowed, in a relationship, taken")
TASTES = words("spicy sweet salty sour cheesy crispy crunchy garlicky tangy smoky savory savoury greasy chocolatey")
# what one does for fun as often as for a living: "I'm an asthmatic runner" is no job, "a runner for Nike" is
HOBBY_HEADS = words("runner swimmer cyclist climber gamer surfer skater golfer boxer wrestler gymnast blogger")
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
    retailer merchant vendor trader courier postman mailman miner fisherman sailor seaman captain tech dev operator
    representative rep associate brewer winemaker sommelier curator archivist ranger zookeeper dispatcher
    inspector"""
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

# --- small vocabularies of the rules -----------------------------------------------------------------------------
NEGATIVE_LIKES = frozenset({"hate", "hates", "hated", "hating", "dislike", "dislikes", "disliked", "detest"})
IRREGULAR_PAST = frozenset("went bought met lost ran sold won quit took got".split())
FUTURE_PROGRESSIVE = frozenset("visited bought started adopted joined met graduated ran attended quit sold".split())
ROLE_SPEAKERS = frozenset("user human speaker me person client customer patient you".split())
WEAK_VALUE = words("so too very really pretty quite kind kinda super not getting going still always just literally")


# --- helpers -----------------------------------------------------------------------------------------------------
def role_said(rel: str) -> str:
    """A relation word as a fact says it: lower case, one space, an acronym kept ("my GP": "GP"), a chat word as its
    role's ("my gf": "girlfriend")."""
    said = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in rel.split())
    return CHAT_WORDS.get(said, said)


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
