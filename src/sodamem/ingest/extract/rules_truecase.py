"""Names typed in lower case: "i'm a vet nurse at thistlecroft vets in aberdeen", "my sister morag got engaged",
"sunniva (my girlfriend) is moving in", "nidelva said yes!". The rules know a name by its capital letter, so for a
turn typed without capitals they read a copy (the same length: every offset holds) where the words that stand where
names stand, and are no common English word, are capitalised; a word so found is a name in the session's other
lower-case turns too ("first day at granitefield" names what "granitefield rang me" did). Each sentence's first
letter is capitalised too, as a careful writer types it.

Where names stand: after a preposition ("at", "in", "with", ...) with no article between, after a relation ("my
sister morag", "a dog called brindleby"), before one in brackets ("fenella (housemate)"), before "'s", and opening a
sentence. A rare word there is a name; an ordinary one is not ("at work", "with my sister", "to the gym"). Turns
that capitalise anything past their first letter (besides "I") are left as typed: their writer capitalises names.

``data/english_words.txt.gz`` holds the lower-case words of SCOWL's British and American English lists (the Debian
``wbritish``/``wamerican`` 2020.12.07 word lists; 65,525 words with their inflections; SCOWL's notices are in
``data/english_words.NOTICE``): names are capitalised there, so a word not in it may be one. Regenerate with
``python -m sodamem.ingest.extract.rules_truecase british-english american-english > english_words.txt`` and gzip.
"""

from __future__ import annotations

import gzip
import re
import sys
from functools import cache
from importlib import resources

from sodamem.ingest.extract.rules_vocabulary import NAME_STOP, PET_KIND, REL_SINGLE

_WORD = r"(?<![\w'’-])[a-zà-öø-ÿ][a-zà-öø-ÿ'’-]*"  # a whole word typed in lower case, not the tail of "Lingvara"
_TITLECASE = re.compile(r"(?<![\w'’])[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]")
_I_FORMS = re.compile(r"(?<![\w'’])I(?:['’](?:m|ve|d|ll))?(?![\w'’])")
_LOWER_START = re.compile(r"(?:^|[.!?]\s+)[a-zà-öø-ÿ]")
# "i", "i'm", "i've", "i'd", "i'll" on their own; not "i.e.", "Wi-Fi", "pi", nor a list's "(i)"
# "i", "i'm", and "im"/"ive" typed without their apostrophe (read as "I'm", "I've"; "ill" and "id" are words)
LOWER_I = re.compile(r"(?<![\w'’.(-])i(?=['’](?:m|ve|d|ll)\b|(?:m|ve)\b(?![’'])|(?![\w'’.)-]))")
_SENTENCE_START = re.compile(rf"(?:^|[.!?]\s+|\n\s*)(?P<w>{_WORD})")
_PREPOSITION = re.compile(
    rf"\b(?:at|in|to|from|near|with|for|joined|joining|quit|left|leaving|visit|visiting|outside|around)\s+(?P<w>{_WORD})"
)
_PREPOSITION_PAIR = re.compile(
    rf"\b(?:at|in|to|from|near|with|for|joined|joining)\s+(?P<w>[a-zà-öø-ÿ]+)\s(?P<w2>{_WORD})"
)
# words that open a noun phrase or a clause, never the first word of a name: "at my granitefield job"
_STOP_BEFORE_NAME = frozenset("the a an my our your his her their this that these those some any no".split())
_RELATIONS = "|".join(sorted((re.escape(r) for r in REL_SINGLE), key=len, reverse=True))
_AFTER_RELATION = re.compile(rf"\b(?:(?:{_RELATIONS}|mate)\s+(?:called\s+|named\s+)?|called\s+|named\s+)(?P<w>{_WORD})")
_BEFORE_BRACKETS = re.compile(rf"(?P<w>{_WORD})\s*\((?:my\s+|our\s+|the\s+)?[a-z -]{{2,30}}\)")
_POSSESSIVE = re.compile(rf"(?P<w>{_WORD})['’]s\b")
# "a pitbull named tank", "our cat called biscuit": after a pet, "named"/"called" gives a name even of a common word
# (there only: "tank" elsewhere stays a word)
# "her name's ros", "his name is kasper": a name, whatever word it is
_NAME_IS = re.compile(rf"\b(?:his|her|their|its)\s+name(?:\s+is|['’]s|s)\s+(?P<w>{_WORD})")
# what follows "her name is" that names no one: "her name is everywhere", "his name is down for the 10k"
_NOT_A_NAME_SAID = frozenset(
    """everywhere nowhere somewhere down up on in out off spelled spelt pronounced mud not literally also still now
    already written printed listed missing wrong gone there here like really actually very so too""".split()
)
_NOUN_NAMED = re.compile(
    rf"\b(?:(?:a|an|the|my|our|his|her|their)\s+)?(?:[\w-]+\s+)?(?:{PET_KIND}|boy|girl|lad|lass|fella)\s+(?:named|called)\s+"
    rf"(?P<w>{_WORD})"
)
# what follows "called" that is no name: "the girl called back later", "named below"
_NOT_CALLED = frozenset("back below above out off up in later again earlier today yesterday me him her us them".split())
# "our cat pickle (she's a tabby)", "my dog biscuit, he's 3": a word right after one's own pet, and then a bracket or
# a comma, names it (there only); not "my dog walker", "took my dog out, then", "missing my dog badly, ..."
_OWN_PET_WORD = re.compile(rf"\b(?:[Mm]y|[Oo]ur)\s+(?:[a-z-]+\s+)?(?:{PET_KIND})\s+(?P<w>{_WORD})(?=\s*\(|,\s)")
_NOT_A_PET_NAME = frozenset(
    """food litter bed beds toy toys tree flap sitter walker walkers groomer trainer hutch tank cage pen bowl door lead
    leash park friendly people owner owners insurance kibble treats vet vets box carrier crate run walk walks nap naps
    too also though tho lol lmao haha tbh btw obvs idk omg rn sm ngl fr now today tonight yesterday again already
    still anymore either aswell home back out in up off down over away around sick ill asleep outside inside upstairs
    downstairs first last ok okay mostly twice once ate badly really finally literally seriously honestly
    sleeps barks eats runs loves hates needs gets died passed ran slept barked""".split()
)  # verbs listed, not guessed from an ending (Fred, Molly and Boots are names); only "-ing" is judged by its ending
# "hey, lena here", "yo. ricky here": a name introducing its writer
_HERE = re.compile(rf"(?:^|[.!?]\s+|\b(?:hi|hello|hey|hiya|heya|yo|oi)\W+)(?P<w>{_WORD})\s+here\b")
# words a name runs on with: "thistlecroft vets", "nidelva handball club", "salt river day clinic"
_NAME_TAIL = frozenset(
    """vets vet hospital clinic pharmacy club school college university uni academy institute museum centre center
    cafe café bakery bar pub restaurant kitchen hotel gym studio studios library bank group labs lab house hall
    park street road lane avenue point bay beach island fysioterapi day""".split()
)
# small words inside a name, typed lower case in it too: "viña del mar", "sint van der berg"
_NAME_JOINERS = frozenset("of de del della da das do dos du la le van von der den di y".split())
# chat words and everyday words the vocabulary's cut misses
_CASUAL = frozenset(
    """lol btw omg haha hahaha tbh idk imo fyi brb lmao ugh hmm yay yep yup nope nah aww ooh hiya heya ok okay uni
    brunch yoga pilates lockdown quarantine covid physio vets rehab daycare netflix spotify airbnb uber whatsapp
    insta tiktok youtube zoom gonna wanna gotta kinda sorta dunno lemme gimme cuz coz cos tho thru pls plz thx ty
    xx xxx bday hubby wifey mum mom dad mam nan nana gran granny grandma grandpa telly footy bestie bff sis
    bro bootcamp startup podcast wifi pic vid fam fav ngl tbf smh istg rn fr""".split()
)


@cache
def common_words() -> frozenset[str]:
    """The English words that are no names (lower case), of ``data/english_words.txt.gz``."""
    packed = resources.files("sodamem.ingest.extract").joinpath("data/english_words.txt.gz").read_bytes()
    return frozenset(gzip.decompress(packed).decode("utf-8").split())


def typed_lower(text: str) -> bool:
    """Whether ``text`` is typed in lower case: a sentence starts lower-case or "i" is typed so, and no word past its
    first letter is capitalised besides "I" (a turn that names nobody, typed with capitals, is no such turn)."""
    if _TITLECASE.search(_I_FORMS.sub("", text[1:])) is not None:
        return False
    return _LOWER_START.search(text) is not None or LOWER_I.search(text) is not None


def rare(word: str) -> bool:
    """A word that may be a name: no common English word, chat word or inflection of one."""
    w = word.lower().strip("'’-")
    if len(w) < 3 or not w.isalpha() or w in NAME_STOP or w in _CASUAL:
        return False
    common = common_words()
    if w in common or (w.endswith("s") and w[:-1] in _CASUAL):  # "pics", "favs": a chat word's plural
        return False
    # vets, leeks, hamstrings, parties, goes; but "ines" is no plural of "in", nor "ives" of "iv"
    two_shorter = w[:-2] if len(w) > 4 or w[:-2].endswith("o") else ""
    stems = {w[:-1], two_shorter, w[:-3] + "y"} if w.endswith("s") else set()
    stems |= {w[:-2], w[:-1], w[:-3]} if w.endswith("ed") else set()  # picked, moved, shopped
    stems |= {w[:-3], w[:-3] + "e", w[:-4]} if w.endswith("ing") else set()  # bouldering, driving, shopping
    stems |= {w[:-2], w[:-1]} if w.endswith(("er", "ly")) else set()
    return not (stems & common or w.endswith(("ing", "ed", "ly")))


def names_found(text: str) -> set[str]:
    """The words of a lower-case turn standing where names stand that are rare enough to be names."""
    found: set[str] = set()
    for pattern in (_SENTENCE_START, _PREPOSITION, _AFTER_RELATION, _BEFORE_BRACKETS, _POSSESSIVE, _HERE):
        for m in pattern.finditer(text):
            word = m["w"].strip("'’-")
            if word.endswith(("'s", "’s")):
                word = word[:-2]
            if rare(word):
                found.add(word.lower())
    for m in _PREPOSITION_PAIR.finditer(text):  # "at lade fysioterapi", "in new york": a word, then a rare one
        first, second = m["w"].lower(), m["w2"].strip("'’-").lower()
        common_first = first not in NAME_STOP and first not in _STOP_BEFORE_NAME and not rare(first)
        if common_first and second not in _NAME_JOINERS and rare(second):
            found.add(f"{first} {second}")
    return found


# a parent or grandparent called by the word alone, no "my" or "the" before it ("mum told me", "ask dad")
_BARE_KIN = re.compile(
    r"(?<![\w'’-])(?<!\bmy )(?<!\bour )(?<!\bhis )(?<!\bher )(?<!\byour )(?<!\bthe )(?<!\ba )(?<!\btheir )"
    r"(?<!['’]s )(?<!\bone )(?<!\bany )(?<!\bevery )(?<!\beach )(?<!\bsome )(?<!\bno )(?<!\bthat )(?<!\bthis )"
    r"(?:mum|mom|dad|mummy|mommy|daddy|grandma|grandpa|granny|nana)(?![\w-])"
)


def true_cased(text: str, names: set[str]) -> str:
    """``text`` with each of ``names`` capitalised, and the name-like words that run on from one ("thistlecroft
    vets" -> "Thistlecroft Vets"), and each sentence's first letter ("mum's moved to tromsø" reads as written
    with capitals); the same length."""
    out = list(text)
    for m in _LOWER_START.finditer(text):
        out[m.end() - 1] = _upper(out[m.end() - 1])
    for m in _NOUN_NAMED.finditer(text):  # "a pitbull named tank": Tank there only
        word = m["w"].lower()
        if word not in NAME_STOP and word not in _STOP_BEFORE_NAME and word not in _NOT_CALLED:
            out[m.start("w")] = _upper(out[m.start("w")])
    for m in _OWN_PET_WORD.finditer(text):  # "our cat pickle (she's a tabby)": Pickle there only
        word = m["w"].lower()
        if not (word in NAME_STOP or word in _STOP_BEFORE_NAME or word in _NOT_A_PET_NAME or word.endswith("ing")):
            out[m.start("w")] = _upper(out[m.start("w")])
    for m in _NAME_IS.finditer(text):  # "her name's ros", "her name's grace"; not "her name is everywhere"
        word = m["w"].lower()
        if word not in NAME_STOP and word not in _STOP_BEFORE_NAME and word not in _NOT_A_NAME_SAID:
            out[m.start("w")] = _upper(out[m.start("w")])
    for m in _BARE_KIN.finditer(text):  # "also mum told me shes moving": Mum, as a name stands
        out[m.start()] = _upper(out[m.start()])
    phrases = [n for n in names if " " in n]
    if phrases:  # a two-word name: both words, where they stand together
        alternation = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
        for m in re.finditer(rf"(?<![\w'’-])(?:{alternation})(?![\w'’-])", text):
            out[m.start()] = _upper(out[m.start()])
            space = text.index(" ", m.start())
            out[space + 1] = _upper(out[space + 1])
    tokens = list(re.finditer(_WORD, text))
    in_name = after_joiner = False
    for n, m in enumerate(tokens):
        word = m.group().strip("'’-").lower()
        joined = n > 0 and text[tokens[n - 1].end() : m.start()] in (" ", "-")
        if word.removesuffix("'s").removesuffix("’s") in names:
            out[m.start()] = _upper(out[m.start()])
            in_name, after_joiner = True, False
        elif in_name and joined and word in _NAME_JOINERS and not after_joiner:
            after_joiner = True  # "viña del mar": "del" joins, as typed
        elif in_name and joined and (after_joiner or word in _NAME_TAIL or rare(word)):
            out[m.start()] = _upper(out[m.start()])
            after_joiner = False
        else:
            in_name = after_joiner = False
    return "".join(out)


def _upper(letter: str) -> str:
    """The capital of ``letter`` where it is one letter too (the copy keeps every offset)."""
    upper = letter.upper()
    return upper if len(upper) == 1 else letter


def _regenerate(paths: list[str]) -> None:  # pragma: no cover - a maintenance script
    words: set[str] = set()
    for path in paths:
        with open(path, encoding="utf-8") as listed:
            words |= {w for w in listed.read().split() if w.islower() and w.isalpha()}
    print("\n".join(sorted(words)))


if __name__ == "__main__":  # pragma: no cover
    _regenerate(sys.argv[1:])
