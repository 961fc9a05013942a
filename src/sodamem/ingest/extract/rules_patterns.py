"""The verb patterns matched right after a subject's aux chain, and the patterns over a whole piece (stdlib ``re``).

Word lists are in :mod:`sodamem.ingest.extract.rules_vocabulary`, the shape of a clause in
:mod:`sodamem.ingest.extract.rules_syntax`; :mod:`sodamem.ingest.extract.rules` walks the dialogue and builds facts.
"""

from __future__ import annotations

import re

from sodamem.ingest.extract.rules_vocabulary import (
    ATTRIBUTES,
    BREEDS,
    COUNTS,
    DIETS,
    JOB_HEADS,
    NAME,
    NAME_WORD,
    ORG_NAME,
    POSSESSION,
    REL_MOD,
    REL_ONE,
    alt,
    words,
)
from sodamem.roles import COUPLE_WORDS

_I = re.IGNORECASE

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
    r"started|starting|doing|on|trying|tried|"
    rf"supposed\s+to\s+be)\s+)*)(?P<obj>{alt(DIETS)})(?![\w-])"
    r"(?!\s+(?:food|restaurant|place|option|dish|recipe|meal|cafe|café|version|cookbook|friendly|menu|cheese))"
)
# "going freelance", "I'm self-employed now", "went freelance last year": working for oneself is the job (not "a
# freelance designer", whose job the job rules read, nor "freelance work" wanted)
SELF_EMPLOYED = re.compile(
    P + r"(?P<pre>(?:(?:now|officially|fully|finally|going|gone|went|go|turned|turning|become|became|becoming)\s+)*)"
    r"(?P<obj>freelance|freelancing|self[\s-]employed)(?![\w-])(?!\s+(?:[a-z]+(?:er|or|ist|ant)|work|gigs?|jobs?"
    r"|projects?|clients?|contracts?|basis|rates?)\b)"
)
CHANGE_VERB = re.compile(r"\b(?:going|gone|went|go|turned|turning|become|became|becoming|switch\w*|started)\b")
REL_STATUS = re.compile(
    P + r"(?P<pre>(?:(?:now|still|happily|recently|newly|finally|just|getting|got|get|gotten)\s+)*)"
    rf"(?P<obj>single|married|engaged|divorced|separated|widowed|in\s+a\s+relationship)(?![\w-])"
    rf"(?:\s+to\s+(?P<to>{NAME})(?![\w]))?"
)
# what may follow a verb that takes no object here: the clause's end, or when and why ("broke up last week")
ENDS_HERE = (
    r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:last|yesterday|today|this|in|on|a\s+(?:few|couple|while|week|month|year)|after|"
    r"because|and|but|so|over|recently|back|two|three|four|five|six|several|weeks|months|years|ago|"
    r"(?i:mon|tues|wednes|thurs|fri|satur|sun)day)\b)"
)
# a partner by role: "my boyfriend", "my wife"
PARTNER_ROLE = rf"(?:{alt(COUPLE_WORDS)})"
# after "dumped me" / "dumped Jake": the clause's end, or when ("Jake dumped me yesterday"), not "dumped me in the rain"
DUMPED_ENDS = r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:yesterday|today|last|this|over\s+text|by\s+text|after)\b)"
# "Tom and I broke up", "I split up with Tom", "Tom broke up with me", "I divorced Tom"
BREAK_UP = re.compile(
    P + r"(?:(?:finally|just|recently|officially|actually)\s+)?"
    r"(?P<verb>broke\s+up|broken\s+up|split\s+up|separated|got\s+divorced|divorced|ended\s+things|dumped|"
    r"called\s+it\s+quits|"
    r"(?:called|broke)\s+off\s+(?:the|our)\s+engagement)"
    rf"(?:\s+(?:with|from)?\s*(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b(?!\s+[A-Z]))(?P<name>{NAME}|me)(?![\w])"
    # "I broke up with my boyfriend (Tom)", "I divorced my husband": a partner by role, perhaps named
    rf"|\s+(?:(?:with|from)\s+)?my\s+(?P<role>{PARTNER_ROLE})"
    rf"(?:\s+(?P<role_name>{NAME})(?![\w]))?)?"
    # and nothing it did it to: not "split up the bill", "broke up the argument", "split up at the mall"
    r"(?:\s+(?:again|for\s+good))?" + ENDS_HERE
)
# words of a group or a day out, not of a couple, anywhere in the piece: "Our band was great until we broke up", "We
# broke up on Friday for the Christmas holidays", "I got separated from my husband in the crowd"
NOT_A_COUPLE = re.compile(
    r"\b(?:band|group|team|class|crowd|trail|conference|talks|search(?:ed|ing)?|mall|tour|holidays?|christmas"
    r"|easter|half[\s-]term|term|school|festival|concert|queue|station|airport|party|company|business|startup"
    r"|project)\b",
    re.IGNORECASE,
)
# "I'm dating Emil", "I'm seeing someone new, his name is Emil", "dating a guy called Emil" (not "seeing Tom tomorrow")
DATING = re.compile(
    P + r"(?:dating\s+|(?:dating|seeing)\s+(?:someone|somebody|a\s+(?:guy|girl|man|woman|lad|bloke))(?:\s+new)?"
    r"(?:\s*[,;:–—-]\s*(?:and\s+)?(?:his|her|their)\s+name(?:\s+is|['’]s)\s+|\s+(?:named|called)\s+))"
    rf"(?P<name>{NAME})(?![\w])"
)
# "nine", "twenty-one": an age said in words (one to ninety-nine)
_UNITS = "one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_DECADES = "twenty thirty forty fifty sixty seventy eighty ninety".split()
AGE_WORDS: dict[str, int] = (
    {w: i for i, w in enumerate(_UNITS + _TEENS, start=1)}
    | {d: 10 * i for i, d in enumerate(_DECADES, start=2)}
    | {f"{d}-{u}": 10 * i + j for i, d in enumerate(_DECADES, start=2) for j, u in enumerate(_UNITS, start=1)}
)
AGE = re.compile(
    P
    + r"(?P<turn>turn(?:ed|s|ing)\s+)?(?P<age>\d{1,3}|(?i:"
    + "|".join(sorted(AGE_WORDS, key=len, reverse=True))
    + r"))(?:\s+years?\s+old|\s*y/?o)?"
    r"(?=\s*(?:[,.!;)]|$)|\s+(?:and|now|today|yesterday|this|next|last|but|so|soon)\b)"
)
# "a nurse at St Mary's"; "a backend dev at a fintech in lisbon called Paylo": the firm by its name (not "a town
# called Hove", where the firm is not named)
_FIRM_CALLED = (
    r"(?:a|an)\s+(?:(?!(?:town|city|village|country|suburb|area|street|road|place|with|chef|guy|man|woman|owner)\b)"
    r"[\w-]+\s+){1,4}?(?:called|named)"
)
JOB = re.compile(
    P + rf"(?:a|an)\s+(?P<job>(?:{_NOT_JOB_MOD}[\w-]+\s+){{0,3}}?(?:{alt(JOB_HEADS)}))(?![\w'’-])"
    rf"(?:\s+(?:at|for|with)\s+(?:{_FIRM_CALLED}\s+)?(?P<org>{ORG_NAME})(?![\w]))?"
)
WORK = re.compile(P + r"(?P<verb>work|works|worked|working)(?![\w'’])")
# "I teach chemistry at Lincoln Park High School": a teacher, and where
TEACH = re.compile(
    P + r"(?P<verb>teach|teaches|taught|teaching)\s+(?:(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+)?(?:at|for)\s+"
    rf"(?P<org>{ORG_NAME})(?![\w])"
)
# "I got a new job at Orbital Systems", "accepted a position with the NHS": the employer (an offer only got is none)
NEW_JOB = re.compile(
    P + r"(?P<verb>got|get|gets|getting|landed|land|lands|landing|accepted|accept|accepts|accepting|started|start|"
    r"starts|starting)\s+(?P<what>(?:a|an|the|my|that)\s+(?:(?:new|first|dream|full-time|part-time|permanent)\s+)?"
    r"(?P<title>(?:[a-z][\w-]*\s+){0,3}?)(?:job|role|position|contract|internship|placement))(?P<offer>\s+offer)?(?:\s+as\s+(?:an?\s+)?(?P<job>[A-Za-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?))?"
    r"\s+(?:at|with)\s+(?=\S)"
)
# "I got laid off (from Google)", "I was fired", "I've been let go" ("I lost/quit my job": an event, rules_events)
LOST_JOB = re.compile(
    P + r"(?P<got>(?:got|get|gets|getting)\s+)?(?P<verb>laid\s+off|fired|let\s+go|sacked|made\s+redundant)"
    rf"(?:\s+(?:from|by|at|with)\s+(?P<org>{ORG_NAME}))?(?![\w])" + ENDS_HERE,  # not "fired up", "let go early"
    _I,
)
# "work part time as a barista", "work remotely for Spotify": how, between the verb and what
_WORK_HOW = r"(?:\s+(?:part[\s-]time|full[\s-]time|freelance|remotely|from\s+home|nights|weekends|shifts))?"
WORK_AS = re.compile(_WORK_HOW + r"\s+as\s+(?:an?\s+)?")
AT_ORG = re.compile(_WORK_HOW + r"\s+(?:at|for)\s+")
ORG_SPLIT = re.compile(rf"\s+(?:at|for|with)\s+(?P<org>{ORG_NAME})(?![\w])")  # "St. David's"
FROM = re.compile(rf"{P}(?:(?P<grew>grew\s+up\s+in)|(?:originally\s+)?from)\s+(?P<place>{ORG_NAME})(?![\w])")
NAMED_PET = re.compile(
    rf"^(?:a|an|another|the)\s+(?:[a-z]+\s+)?(?P<rel>{REL_ONE}|{alt(BREEDS)})\s+(?:named|called)\s+(?P<name>{NAME})(?![\w])"
)
# "I'm settled in", "I live up on Cerro Alegre"
LIVE = re.compile(
    P + r"(?P<verb>live|lives|lived|living|settled|based)\s+(?:(?:up|down|out|over)\s+)?(?:in|at|near|on)\s+"
)
NOT_A_HOME = words("moment present past now fear hope peace denial harmony luxury poverty comfort bubble dream world")
MOVE = re.compile(
    P + r"(?P<verb>move|moves|moved|moving|relocate|relocates|relocated|relocating)"
    r"(?P<adv>(?:\s+(?:back|house|out|away|over|here|there|abroad|home))*)"
    r"(?:\s+(?P<prep>to|into|in\s+to|from))?(?![\w'’])"
)
# "I start at Spotify in two weeks", "Starting at Studio Dumbar on July 1st", "I started at Google last week"
START_AT = re.compile(
    P + r"(?P<verb>start|starts|started|starting)\s+(?:(?:work|my\s+new\s+job|a\s+new\s+job)\s+)?at\s+"
    rf"(?P<org>{ORG_NAME})(?![\w])(?!\s+\d)"  # not "started with Spanish", "started at Level 1"
)
# "got a place in Logan Square", "bought a house in Leeds": a new home (not "looking for a place in ...")
NEW_HOME = re.compile(
    P + r"(?:got|found|bought|rented|has\s+bought|has\s+found)\s+(?:a|an|his|her|their|my|our)\s+(?:own\s+)?"
    rf"(?:new\s+)?(?:place|flat|apartment|house|home|condo)\s+(?:in|on)\s+(?P<place>{ORG_NAME})(?![\w])"
    r"(?![^.!?;]*\bfor\s+(?:the|our|a|my)\s+(?:summer|holidays?|vacation|trip|week|weekend|month)\b)"  # a rental
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
ALLERGIC = re.compile(P + r"(?:(?:very|really|severely|seriously|mildly|quite|so|badly|deathly)\s+)?allergic\s+to\s+")
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
# a base form after a third-person subject is no sentence ("Come join us"); a past said as the base ("Tom quit
# Google", "Ana cut her hair") is
BASE_FORMS = frozenset(
    [forms.split()[0] for forms in EVENT_FORMS.values() if forms.split()[0] not in forms.split()[1:]]
    + "like love enjoy hate prefer adore dislike go move live work study have own want join".split()
)

# --- patterns over a whole piece ---------------------------------------------------------------------------------
# "my sister Ana", "my old boss from Pellworth, Gregor"
REL_NAMED = re.compile(
    rf"\b(?P<my>[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE})"
    rf"(?:\s+from\s+[A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*)*,(?=\s+{NAME},)|\s+(?:here|there),)?"
    rf",?\s+(?P<name>{NAME})(?![\w])"
)
# "my husband (Gideon)", and with no "my" where a chat message opens: "husband (Gideon) is away", "girlfriend Carys
# and I are off to Edinburgh", "grandma Rosalind fell", "update: landlord (Mr. Okafor) fixed the boiler"
REL_BRACKETED = re.compile(rf"\b(?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE})\s+\((?P<name>{NAME})\)")
_OPENER = r"^(?:(?i:so|and|but|also|update|ok|okay|oh|btw|anyway|well|ugh|omg|lol)\s*[:,!.]*\s+)?"
BARE_REL_NAMED = re.compile(
    rf"{_OPENER}(?P<rel>(?i:{REL_ONE}))\s+(?P<name>{NAME})(?![\w'’])(?=\s*[,.;:!?]|\s+(?:and\s+I\b|[a-z]))"
)
BARE_REL_BRACKETED = re.compile(rf"{_OPENER}(?P<rel>(?i:{REL_ONE}))\s+\((?P<name>{NAME})\)")
NAME_PAREN_REL = re.compile(rf"(?P<name>{NAME})\s+\((?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE})\)")
# "Maya, my therapist, suggested journaling": a name and its relation said between commas or dashes (not a list:
# "I invited Tom, my sister, and Ana", "Tom, my mum, my dad", "Tom, my sister, Ana and I")
NAME_COMMA_REL = re.compile(
    rf"(?<![,&]\s)(?<!\band\s)(?<!\bor\s)(?P<name>{NAME}),\s+(?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE})\s*"
    rf"(?:,|\s[—–-])\s+(?!(?:and|or|&|my|our|his|her|their|the)\b|{NAME}\s*(?:,|and\b|&))"
)
# "I report to Dan now": one's manager
# "I report to Dan now", "First day on the new team today, reporting to Sigrid Johansen", "I'm now reporting to Dan"
REPORT_TO = re.compile(
    r"(?:\bI(?:['’]m|\s+am)?\s+(?:now\s+)?|(?:^|(?<=[.;:!—–])|(?<=\btoday,)|(?<=\bnow,))\s*(?:now\s+)?)"
    rf"report(?:ing)?\s+(?:directly\s+)?to\s+(?P<name>{NAME})(?![\w'’])"
)
# "Dorothy from next door has been taking me to the shops": a neighbour
NAME_NEXT_DOOR = re.compile(rf"(?<![\w'’])(?P<name>{NAME})\s+from\s+next\s+door(?![\w'’-])")
# "Grace from work invited me": someone one works with
NAME_FROM_WORK = re.compile(
    r"(?<!\bup\s)(?<!\bcollect\s)(?<!\bcollected\s)(?<!\bfetch\s)(?<!\bfetched\s)(?<!\bget\s)(?<!\bgot\s)"
    r"(?<!\bdrive\s)(?<!\bdrove\s)(?<!\bbring\s)(?<!\bbrought\s)(?<!\bwalk\s)(?<!\bwalked\s)"  # "picked up Grace"
    rf"(?<![\w'’])(?P<name>{NAME})\s+from\s+(?:work|the\s+office|my\s+(?:work|office|team|job))(?![\w'’])"
    r"(?!\s+(?:interview|application|search|hunt|fair|that)\b)"
)
POSS_REL_NAMED = re.compile(
    rf"(?<![\w'’])(?P<owner>{NAME})['’]s\s+{REL_MOD}(?P<rel>{REL_ONE}),?\s+(?P<name>{NAME})(?![\w])"
)
PRONOUN_REL_NAMED = re.compile(
    rf"\b(?:[Hh]is|[Hh]er|[Tt]heir)\s+{REL_MOD}(?P<rel>{REL_ONE}),?\s+(?P<name>{NAME})(?![\w])"
)
REL_IS_NAMED = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE})(?:['’]s\s+name(?:\s+is|['’]s)|(?:\s+is|['’]s)\s+(?:called|named))\s+"
    rf"(?P<name>{NAME})(?![\w])"
)
# "My new boss is Inês, she's direct", "My sister is Ana.", "My manager there is Grace": the name ends its clause
# ("my boss is Finn's friend" and "my mum is Irish" name no one; see ``rules_piece_wide.NOT_A_NAME``)
MY_REL_IS_NAME = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+{REL_MOD}(?P<rel>{REL_ONE})(?:\s+(?:there|here|now|at\s+work))?\s+is"
    rf"(?:\s+(?:now|officially))?\s+(?P<name>{NAME})"
    r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:and|but|so|now|though|btw|lol|haha)\b)"
)
# "Dan is my boss", "Dan's my new boss", "Grace is now my manager", "Finn was my boss" (over: ``rules_past_relations``)
NAME_IS_MY_REL = re.compile(
    rf"(?<![\w'’])(?P<name>{NAME})(?:(?:\s+is|['’]s)(?:\s+(?:now|also|still|officially))?|\s+was)\s+(?:[Mm]y|[Oo]ur)\s+"
    rf"{REL_MOD}(?P<rel>{REL_ONE})(?![\w'’])"
)
PET_NAMED = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+(?:[a-z]+\s+)?(?P<rel>{REL_ONE})\s+(?:named|called)\s+(?P<name>{NAME})(?![\w])"
)
# "I adopted a cat on Saturday. Her name is Mochi.": the name, and the relative or pet the sentence before ends on
PRONOUN_NAMED = re.compile(
    rf"^(?:(?:[Hh]er|[Hh]is|[Ii]ts|[Tt]heir)\s+name(?:\s+is|['’]s)|(?:[Ss]he|[Hh]e|[Ii]t)(?:['’]s|\s+is)\s+(?:called|named))\s+"
    rf"(?P<name>{NAME})(?![\w])"
)
WORK_THERE_IS = re.compile(
    r"^(?:(?:[Aa]nd|[Bb]ut|[Ss]o|[Aa]lso|[Aa]nyway|[Oo]h)\s*,?\s*)?(?:[Mm]y\s+(?:new\s+)?|[Tt]he\s+new\s+)?"
    rf"(?:[Ww]ork|[Jj]ob)\s+at\s+(?P<org>{ORG_NAME})\s+(?:is|has\s+been|was|['’]s)\b"
)
# (``described``: "a grey boy called Moth", said of a pet only)
PRONOUN_NAMED_ANYWHERE = re.compile(
    rf"(?:^|(?<=[\s,;—–-]))(?:(?:[Hh]er|[Hh]is|[Ii]ts|[Tt]heir)\s+name(?:\s+is|['’]s)|(?:[Ss]he|[Hh]e|[Ii]t)(?:['’]s|\s+is)\s+"
    rf"(?:called|named)|(?P<described>(?:[Aa]n?\s+)?(?:(?!(?i:the|my|his|her|their|our|your)\s)[A-Za-z][a-z]+\s+){{0,2}}"
    rf"(?:boy|girl|lad|lass|fella)\s+(?:called|named)))\s+(?P<name>{NAME})(?![\w])"
)
# "I'm seeing someone new.", "i met someone on hinge.": someone one dates, named in the next words (not "met someone
# at work", at a conference)
SEEING_SOMEONE = re.compile(
    r"\b(?:seeing|dating|met)\s+(?:someone|somebody|a\s+(?:guy|girl|man|woman))(?:\s+new)?"
    r"(?:\s+on\s+(?:hinge|tinder|bumble|grindr|raya|okcupid|the\s+apps?|an?\s+(?:dating\s+)?app))?\W*$"
)
# (a breed too: "adopted a rescue greyhound!! her name's lulu" names a dog)
MENTIONED = re.compile(
    rf"\b(?:[Aa]|[Aa]n|[Aa]nother|[Mm]y|[Oo]ur)\s+{REL_MOD}(?:[a-z]+\s+)?(?P<rel>{REL_ONE}|{alt(BREEDS)})\b"
)
LAST_MENTIONED = re.compile(
    rf"\b(?:[Aa]|[Aa]n|[Aa]nother|[Mm]y|[Oo]ur)\s+{REL_MOD}(?:[a-z]+\s+)?(?P<rel>{REL_ONE})\b"
    r"(?:[ \t]+[\w'’-]+){0,4}\W*$"
)
SELF_NAME = re.compile(
    rf"(?:\b[Mm]y\s+name\s+is|\b[Mm]y\s+name['’]s|\b[Cc]all\s+me|\bI\s+am\s+called|\bI['’]m\s+called)\s+"
    rf"(?P<name>{NAME})(?![\w'’])"
)
GREETING_INTRO = re.compile(  # "I'm Priya.", and "Hi, I'm Priya." or "Hiya, Kwame here." said as one piece
    rf"^(?:(?i:hi|hello|hey|hiya|heya|morning)(?:\s+there)?\s*[,!.]?\s+(?:I['’]m\s+|(?={NAME_WORD}\s+here\b))|I['’]m\s+)"
    rf"(?P<name>{NAME_WORD})(?=\s*(?:[.!,;]|$|\s+and\b|\s+here\b))"
)
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
TITLE_IS = re.compile(r"^(?:(?:[Aa]nd|[Ss]o|[Oo]h|[Aa]lso)\W+)*(?P<attr>(?:[Jj]ob\s+)?[Tt]itle)(?:['’]s|\s+is)\s+")
TASTE = re.compile(r"\b[Tt]he\s+(?P<adj>[a-z]+er)\s+the\s+better\b")
# "First week at Coastline done", "Last day at Hollis is the 15th", "my last day there will be feb 25"
FIRST_DAY = re.compile(
    rf"(?:^|\b[Mm]y\s+)(?P<which>[Ff]irst|[Ll]ast)\s+(?:full\s+)?(?:day|week|month|shift)\s+"
    rf"(?:(?:at|of\s+work\s+at|working\s+at)\s+(?P<org>{ORG_NAME})(?![\w])|(?P<there>there)\b"
    # "my last day is June 30th" alone: a job's, where the turn gives notice (``NOTICE``)
    r"|(?P<bare>(?=(?:is|will\s+be)\b)))"
    r"(?P<ahead>\s*(?<!\w)(?:is|will\s+be|['’]s)\b)?"
)
# the speaker's notice given on a job: "I handed in my notice at Brightsmile", "Handed in my notice", "I've resigned"
# (not a sister's, nor notice on a flat, a landlord or a gym: "gave notice on the flat", "resigned myself to")
NOTICE = re.compile(
    rf"(?:^|[.!?]\s+|\bI\s+(?:have\s+|['’]ve\s+|just\s+|finally\s+)?)(?:[Hh]anded|[Gg]ave|[Pp]ut)\s+in\s+my\s+notice"
    rf"(?:\s+at\s+(?P<org>{ORG_NAME})(?![\w]))?(?!\s+(?:on|to|for)\b)"
    rf"|\bI\s+(?:have\s+|['’]ve\s+|just\s+|finally\s+)?resigned(?!\s+(?:myself|as|from)\b)"
)
LEADING_FILLER = re.compile(r"^(?:(?:and|but|so|oh|well|honestly|yeah|yes|also|plus|ok|okay|now)\b[,\s]*)+", _I)
