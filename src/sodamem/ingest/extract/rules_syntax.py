"""The shape of a clause for the rules extractor (pure, stdlib ``re`` only).

The aux chain between a subject and its verb ("'m not", "'ve been", "am going to") and what it says about modality,
where a clause (and so a subject) may start, the subjects themselves, and where an object ends and how it is cleaned.
"""

from __future__ import annotations

import re

from sodamem.ingest.extract.rules_vocabulary import (
    DIETS,
    NAME,
    NAME_WORD,
    REL,
    REL_MOD,
    REL_ONE,
    ROLE_NAME,
    alt,
    phrases,
    words,
)

_I = re.IGNORECASE

# --- the aux chain between a subject and its verb ----------------------------------------------------------------
# ... and "Im", "Ive", "shes", "hes", "theyre" typed without the apostrophe (right after the subject)
AUX_CONTRACTION = re.compile(r"['’](?:m|re|s|ve|d|ll)\b|(?<=\bI)(?:m|ve)\b|(?<=he)s\b|(?<=\bthey)re\b", _I)
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
RELATIVE_BEFORE = re.compile(  # "the way I cook", but not "By the way, I'm 29"
    r"(?<!\bby\sthe\s)(?<!\bBy\sthe\s)"
    r"\b(?:thing|things|stuff|one|ones|place|places|way|ways|what|whatever|everything|something|anything|all|"
    r"than|as|like|how|which|who|whom|that|time|times|day|where|kind|sort|type|reason|part)\s*$",
    _I,
)
REPORTING_BEFORE = re.compile(
    r"(?<!\bwhat\sI\s)(?<!\bwhat\sI\sjust\s)"  # "Ignore what I said, I live in Brighton" reports nothing
    r"\b(?:said|says|told\s+me|tells\s+me|mentioned|thinks|reckons|claims|claimed|heard|apparently|"
    r"according\s+to\s+\w+)(?:\s+that)?[,\s]*$",
    _I,
)
CONDITIONAL_BEFORE = re.compile(r"\b(?:if|unless|whether|in\s+case|wish|imagine|suppose|even\s+if)\b[^,;.]*$", _I)
QUESTION_END = re.compile(r"\?[\W_]*$")

# --- objects ----------------------------------------------------------------------------------------------------
# Where the clause carrying an object ends.
BOUNDARY = re.compile(
    r"\s*(?:[!?;…()\[\]\"“”]|(?<!\bSt)(?<!\bMt)(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)\.(?=\s|$)|:(?=\s|$)|,(?=\s|$))|\s*[-–—]+(?=\s)|\s+['’](?:cause|cos|coz|cuz)\b|"
    r"\s+(?:but|because|cause|cos|cuz|coz|so|since|although|though|which|who|whom|whose|where|when|whenever|while|"
    r"whereas|until|unless|if|before|after|than|that|lol|haha|xx)\b|"
    r"\s+(?:and|or|&)\s+(?:then\s+)?(?:I|I['’]\w+|we|he|she|they|it|my|our|his|her|their|you|then|now|also|still|"
    r"so|that|this|there|was|is|had|have|got|went|did)\b|\s+(?=(?-i:I)(?:['’]\w+)?\s)|"
    r"\s+and\s+(?=(?:[a-z]+ed|went|got|had|made|took|saw|met|came|ate|ran|bought|found|felt|left|lost|sold|won|"
    r"began|did|gave|kept|told|said|thought|brought|caught|taught|spent|sent|built|wrote|drove|flew|became)\b)|"
    # "I live in Bristol and work as a nurse": a second state verb of the same subject starts a clause of its own
    r"\s+and\s+(?=(?:work|works|live|lives|study|studies|teach|teaches)\s+(?:as|at|in|for)\b)",
    _I,
)
LIST_REST = re.compile(r"^(?:,\s+[^,]+?)*(?:,?\s+(?:and|or)\s+[^,]+?)$")
TAIL_FILLER = re.compile(
    r"(?:\s+(?:too|as\s+well|again|already|yet|though|anyway|anyways|honestly|lol|haha|now|right\s+now|so\s+much|"
    r"a\s+lot|very\s+much|really|tbh|btw|either|at\s+all|ever|straight|right|then|for\s+now|these\s+days|"
    r"at\s+the\s+moment|currently|together|sometimes|often|every\s+day|all\s+the\s+time|mostly|still|also|instead|"
    r"finally|here|there|anymore|any\s+more|no\s+more|myself|ourselves|at\s+last|lately|recently|first|"
    r"straight\s+after|right\s+after|afterwards|once|twice|back|yesterday|today|tonight|atm|x+|!+|about|around|"
    r"nearly|almost|over|roughly|approximately|like|just|only|since|"
    # how long, without a time to resolve ("for years"; "for two years" is a time mention, cut before this)
    r"for\s+(?:(?:so\s+)?(?:many\s+)?(?:years|months|weeks|ages|decades)|a\s+(?:long\s+)?(?:while|time)|so\s+long|"
    r"a\s+few\s+(?:years|months|weeks)|some\s+time|a\s+bit|(?:a\s+)?little\s+while)))+$",
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
DETERMINERS = words("a an the my our your his her their this that these those some any no every each")

LOCATION = re.compile(rf"\s+(?:in|at|near|around)\s+(?P<loc>{ROLE_NAME})(?![\w'’])")
COMPANION = re.compile(
    rf"\s+with\s+(?P<comp>(?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?:{REL})(?:\s+{NAME})?|{NAME}(?:(?:,\s*|\s+and\s+){NAME})*)"
    r"(?![\w'’])"
)


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


# --- subjects ----------------------------------------------------------------------------------------------------
MID_SENTENCE_NAME = re.compile(rf"(?<=[\w,;:)] )(?P<name>{NAME_WORD})(?![\w])")
SUBJECT = re.compile(
    rf"(?P<pair>(?P<pa>[Mm]y\s+{REL_MOD}(?:{REL_ONE})\s+{NAME}|{NAME}|[Mm]y\s+{REL_MOD}(?:{REL_ONE}))\s+and\s+I)"
    r"(?![\w'’])"
    rf"|(?P<pair2>(?:I|[Mm]e)\s+and\s+(?P<pb>{NAME}|my\s+{REL_MOD}(?:{REL_ONE})))(?![\w'’])"
    r"|(?P<i>\bI)(?:(?![\w])|(?=(?:m|ve)\s))"
    r"|(?P<we>\b[Ww]e)(?![\w])"
    rf"|(?P<my>\b[Mm]y\s+{REL_MOD}(?P<rel>{REL})(?![\w'’])(?:,?\s+(?P<relname>{NAME})(?![\w]),?)?)"
    rf"|(?P<poss>\b(?P<owner>{NAME})['’]s\s+{REL_MOD}(?P<prel>{REL_ONE})(?![\w'’])"
    rf"(?:,?\s+(?P<pname>{NAME})(?![\w]))?)"
    r"|(?P<pro>\b(?:[Hh]e|[Ss]he|[Tt]hey))(?:(?![\w])|(?<=e)(?=s\s)|(?<=y)(?=re\s))"  # "shes", "theyre" too
    rf"|(?P<pposs>\b(?:[Hh]is|[Hh]er|[Tt]heir)\s+{REL_MOD}(?P<pprel>{REL})(?![\w'’])"
    rf"(?:,?\s+(?P<ppname>{NAME})(?![\w]),?)?)"
    rf"|(?P<name>\b{NAME})(?![\w])"
)
# A first-person verb after "and" with its subject left out ("I live in Leeds and work at the bank").
SECOND_VERB = re.compile(
    r"\bI\s+(?:live|work|study|teach)\b[^,.;:!?]*?\s+and(?=\s+(?:work|live|study|teach)\s+(?:as|at|in|for)\b)"
)
# Someone's second verb after "and" ("Pawel left Google and now works at Allegro"): where the second verb starts
SECOND_VERB_OF = re.compile(
    rf"(?<![\w'’])(?P<name>{NAME_WORD})\s+(?:left|quit|moved|lives|works|teaches|studies)\b[^,.;:!?]*?\s+and"
    r"(?:\s+now)?(?=\s+(?:lives|works|teaches|studies)\s+(?:as|at|in|for)\b)"
)
# a job said as a fragment after one ("Based in Manchester, working as a nurse", "Moved to York, now working at Tesco"):
# ``then`` starts a clause of the speaker's; only a title or a firm and the sentence's end ("working as hard as ever",
# "working for the weekend", "working at home mostly" are none)
_WORKING = (
    r"\s+(?:now\s+)?working\s+(?:as\s+an?(?:\s+[a-z][\w-]*){1,3}|at\s+[A-ZÀ-Þ][\w'’&-]*"
    r"(?:\s+[A-ZÀ-Þ][\w'’&-]*){0,3})\s*(?:[.!]|$)"
)
WORKING_AFTER = re.compile(rf",(?P<then>{_WORKING})")
PRO_DROP = re.compile(
    r"^(?:(?:(?:just|finally|recently|also|officially)\s+)?(?:(?:went|visited|bought|started|finished|adopted|moved|"
    r"joined|met|lost|graduated|ran|completed|signed|attended|tried|quit|sold|painted|won|switched|took|gonna|"
    r"planning|hoping|thinking|starting|got\s+promoted|landed)\b"
    # "got a job at the uni library": a job got, said alone ("got a cold" is none)
    r"|got(?=\s+(?:a|an|my)\s+(?:(?:new|first|dream|proper|real|permanent|summer|saturday|weekend|part[\s-]time"
    r"|full[\s-]time)\s+){0,2}(?:job|role|position)\s+(?:at|with)\s)"  # not "got my sister a job at Tesco"
    # "going freelance", "going vegan": a change of one's own state said alone ("going to the gym" is none)
    rf"|(?:going(?=\s+(?:freelance|self[\s-]employed|{alt(DIETS)})(?![\w-]))"
    # "also working weekends at Chatime": a job said alone, at a place by its name ("working at home" is none; not a
    # time or a parent: "Working at Christmas", "Working for Dad")
    r"|(?P<working>working)(?=\s+(?:(?:part[\s-]time|full[\s-]time|weekends|nights|evenings|mornings|shifts)\s+)?"
    r"(?:at|for)\s+(?!(?:christmas|easter|thanksgiving|dad|mum|mom|home)\b)(?-i:[A-Z])))\b"
    # ... neither as the subject of its sentence: "going vegan is not for me", "Working at Amazon was brutal"
    r"(?![^,.;:!?]*?\b(?:is|was|were|sounds|seems|seemed|worked|works|isn['’]t|wasn['’]t|would|could|might|will|has"
    r"|had)\b))"
    # "settled in porto finally": a home said alone (not "Based in Leeds, the novel ...", "Settled in Bristol and ..."),
    # or before a job
    r"|(?:settled|based)\s+in\s+[A-ZÀ-Þ][\w'’-]*(?:\s+(?:finally|now|at\s+last))?\s*"
    rf"(?:[.!]|$|(?=(?-i:,{_WORKING}))))",
    re.IGNORECASE,
)
