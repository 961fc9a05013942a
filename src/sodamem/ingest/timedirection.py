"""The direction of an expression that could look either way, for the time resolver (pure, stdlib only).

"on Monday", "in March", "at Easter" name the latest such time or the next one; which, the words around them say.
:func:`looks_ahead` reads cue words anywhere in the text (will, 'll, going to, a present progressive, a question
about plans, a simple-present timetable, ...); :func:`verb_direction` lets the verb right before the expression, or
right after one that opens its clause, override them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sodamem.ingest.timewords import trie

# Timetable verbs as prefix trees (one branch per letter: the cue search runs over every text with a time).
_TIMETABLE_THIRD = trie(
    """starts ends begins leaves departs arrives opens closes airs launches lands visits expires graduates retires
    moves returns finishes flies travels resumes reopens drops premieres debuts renews""".split()
)
_TIMETABLE_BASE = trie(
    "leave fly depart drive travel visit return arrive move go graduate retire finish close resume start begin".split()
)
_FUTURE = re.compile(
    # every cue but "'ll" starts a word: one leading \b spares the search most positions
    r"['’]ll\b|\b(?:(?:will|shall|gonna|(?<!was )(?<!were )going\s+to|plan(?:s|ning)?\s+(?:to|on)|planning"
    r"|intend(?:s|ing)?\s+to"
    r"|hop(?:e|es|ing)\s+to|look(?:ing)?\s+forward|can'?t\s+wait|upcoming|next(?!\s+to\b)|tomorrow|soon|won'?t"
    r"|start\s+date|starts\s+on|(?<!was )(?<!were )(?:scheduled|booked)\s+for"
    # a sentence opening with a going verb, its "I'm" left out: "moving july 25", "flying out friday" (not "moving on")
    # (a fragment of a few words: not "Driving home on Friday was awful", "Travelling to Lisbon in March, I realised")
    r"|(?:^|(?<=[.!?]\s))(?:moving|leaving|flying|heading|travell?ing|driving)(?!\s+on\b)(?:\s+[\w'’]+){1,4}"
    r"(?=[.!]*\s*$|[.!]+\s)"
    # a stay booked from a day: "we've booked a gîte in the Dordogne from July 11th"; an invitation standing:
    # "they have invited me to an interview on the 22nd", "I've been invited to a wedding in June"
    # (the event named right before its day: not "has invited me to loads of parties, the one on Saturday was wild")
    r"|(?:(?:have|has|['’]ve)\s+(?:been\s+)?|\b(?:am|is|are|['’]m|['’]re)\s+)invited\s+(?:(?:me|us|him|her|them)\s+)?"
    r"(?:to|for)\s+(?:(?:a|an|the|my|our|his|her|their)\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:on|in|next|this)\s"
    # (a stay booked, in the perfect: not "we rented a cottage from a friend in April, it was lovely")
    r"|(?:['’]ve|have|has)\s+(?:booked|reserved|rented)\s+(?:[\w'’-]+\s+){1,6}?from\s"
    # "junior QA tester, starting march 2nd": a start ahead (not "was starting", "I've been starting")
    r"|(?<=[,;:–—-] )(?<!was )(?<!were )(?<!been )starting(?=\s+(?:on\s+|in\s+|from\s+)?(?:the\s+)?\w))\b"
    # a present progressive with a personal subject plans ahead: "we're grilling on Labor Day", "I'm seeing him Friday"
    r"|(?:i['’]m|i\s+am|(?:we|you|they)(?:['’]re|\s+are))\s+\w+ing\b"
    # and so do questions about plans or availability: "what are you doing Saturday?", "are you free Friday?"
    r"|(?:are|am)\s+(?:you|we|they|i)\s+(?:\w+ing|free|around|available|busy)\b|any\s+plans\b"
    r"|what\s+are\s+(?:your|the|our)\s+plans\b"
    # or proposals and partings: "can we meet a week from Monday?", "shall we do Friday?", "see you Friday"
    r"|(?:can|could|shall)\s+(?:we|i|you)\b|see\s+(?:you|ya)\b"
    r"|(?:he|she|it|what|who|that|there)['’]s\s+(?!(?:amazing|interesting|exciting|annoying|boring|confusing"
    r"|surprising|frustrating|relaxing|depressing|disappointing|embarrassing|fascinating|inspiring|refreshing"
    r"|something|nothing|everything|anything)\b)\w+ing\b"
    # modals and needs look ahead ("we should go in July", "I have to work on Christmas", "let's meet Saturday");
    # their perfect looks back ("we should have gone in March")
    # ("may" with its subject and a doing: not the month of "in May we went", nor "you may remember", "I may be
    # wrong but", "it may sound silly", "I may as well tell you", "she may well have left")
    r"|(?:should|might|must|(?:i|we|they|he|she|it)\s+may\s+(?!\d|(?:not\s+|well\s+)?have\b|be\s+wrong\b|as\s+well\b"
    r"|(?:not\s+)?(?:remember|recall|know|sound|seem|look)\b)"
    r"|needs?\s+to|ha(?:ve|s)\s+to|gotta|got\s+to|wants?\s+to|wanna|let['’]?s"
    r"|would\s+(?:love|like)|['’]d\s+(?:love|like|rather|better)|can['’]?t\s+make\s+it|(?:is|are|['’]s|['’]re)\s+due"
    # asking whether a time suits: "does Sunday at 3pm work?", "would Friday suit you?"
    r"|(?:does|would|will)\s+[^.!?]{1,30}?\s+(?:work|suit)\b"
    # holding a scheduled event: "I've got a dentist appointment Thursday", "we have a game on Saturday"
    r"|(?:['’]ve\s+got|(?:have|has)(?:\s+got)?)\s+(?:a|an|my|our|the|this)\s+(?:[\w-]+\s+){0,2}?(?:appointment|meeting"
    r"|interview|exam|test|flight|class|shift|game|match|date|party|wedding|concert|recital|show|gig|checkup"
    r"|check-up|deadline|presentation|rehearsal|practice|conference|reservation|surgery))\b"
    r"(?!\s+(?:have|had|been)\b)"
    # a timetable in the simple present: "my lease ends in July", "the show airs on Thursday", "we leave Monday", "he
    # graduates in May", "we get married in October"; not a habit ("we usually go to Italy in September")
    rf"|(?P<timetable>{_TIMETABLE_THIRD}|(?:comes|goes|gets)\s+(?:back|home)|goes\s+(?:up|live|on\s+sale)"
    r"|comes\s+out|gets\s+married|kicks\s+off|wraps\s+up"
    rf"|runs\s+(?:out|through|until|till)|(?:i|we|they)\s+(?:{_TIMETABLE_BASE}|head\s+out|get\s+married))\b"
    r")"
    # an imperative opening the text asks for something ahead: "text me Monday at 8pm", "email me Friday"
    r"|^\W*(?:please\s+)?(?:call|ring|text|phone|pick|meet|email|e-mail|remind|send|bring|book|grab|join|ping|drop"
    r"|message|come|swing|stop)\s",
    re.IGNORECASE,
)
# A short question with no verb proposes a time: "dinner Thursday?", "drinks on Friday?" (a heuristic); one opening
# with a question or quantity word asks about what was ("Anything fun over the weekend?", "How was Friday?").
_SHORT_QUESTION = re.compile(
    r"^\W*(?!(?:any|anything|something|how|what|why|where|who|when|which|good|nice|fun|great)\b)[a-z]+"
    r"(?:[^\w?]+[a-z]+){1,4}\s*\?+\s*$",
    re.IGNORECASE,
)
_QUESTION_VERB = re.compile(
    r"\b(?:was|were|did|had|has|have|is|are|do|does|went|got|been)\b|['’]|\b\w+ed\b", re.IGNORECASE
)
_HABIT = re.compile(r"\b(?:usually|always|often|sometimes|normally|generally|typically|every|each)\b", re.IGNORECASE)
# The verb right before an expression sets its direction: "the recital is on June 9th" (said in May: this June),
# "it was on Friday" (the last one), whatever cue words elsewhere say. "Today is Monday" is no schedule.
# A timetable verb in the simple present does the same: "the movers come on 5/20", "Grandma turns 90 in October".
# A particle of being away after "is/are" counts as the verb: "we're off on MLK Day", "he's back on Monday"; so does
# being open or closed: "the office is closed Labor Day" (ahead), "the gym was shut on Monday" (back).
_AWAY = r"(?:\s+(?:off|away|out|back|home|gone|closed|open|shut))?"
_AHEAD_VERB = re.compile(
    rf"(?:(?:(?<!\btoday )\b(?:is|are)|(?<!\btoday)['’](?:s|re)){_AWAY}|(?:\bam|['’]m)\s+(?:off|away|out|back|home)"
    r"|\b(?:comes?|arrives?|starts?|begins?|leaves?|opens?|falls?|lands?|turns?\s+\d+|runs|ends|wraps\s+up"
    # a return or renewal on a timetable: "the kids go back on the 5th", "the clocks go back ...", "the lease renews"
    r"|go(?:es)?\s+(?:back|home)|renews?|expires?"
    # a plan moved: "the launch slipped to Q3", "the meeting got pushed back to Friday"
    r"|(?:slipp|push|postpon|delay|reschedul|bump)(?:ed|es|s)?(?:\s+(?:back|out))?\s+(?:to|till|until)))\s+$",
    re.IGNORECASE,
)
_BEHIND_VERB = re.compile(rf"\b(?:was|were){_AWAY}\s+$", re.IGNORECASE)
# With no verb before it, an expression that opens its clause takes the tense of the verb right after it: "Father's
# Day is coming up", "the week of the 20th I'm in Boston", "on Monday I start the night shift" (ahead); "Labor Day we
# had a barbecue", "the 28th was my birthday" (back).
_SUBJECT = r",?\s*(?:i|we|you|they|he|she|it|there)"
# ("'s" after an expression is a possessive as often as "is": "Friday night's board game session was ...")
_AHEAD_AFTER = re.compile(
    rf"\s+(?:is|are|falls|comes|starts|begins|lands|works|suits|sounds|looks|should|could|might)\b"
    rf"|{_SUBJECT}(?:['’](?:m|re|ll|s(?!\s+been\b))"
    r"|\s+(?:am|are|will|start|leave|fly|head|begin|move|arrive|return|have\s+(?:got\s+)?to))\b",
    re.IGNORECASE,
)
# Present verbs that end in "-ed" like a regular past: "by the 20th we need a plan".
_PRESENT_ED = "need|needs|feed|bleed|proceed|succeed|exceed|speed|breed"
_BEHIND_AFTER = re.compile(
    rf"\s+(?:was|were)\b|{_SUBJECT}\s+(?:was|were|had|did|went|got|saw|met|(?!(?:{_PRESENT_ED})\b)\w+ed)\b",
    re.IGNORECASE,
)
# Any other verb after the subject: in the simple present it is a timetable or a habit, and looks ahead ("on the 15th
# we close on the house", "Good Friday I have off", "Easter Monday we drive home"); an irregular past looks back
# ("Sunday I ran a 5k"). An adverb before it is skipped; verbs of thinking ("Monday I think it rained"), forms that are
# present and past alike ("put", "read"), contractions ("I can't", "I don't") and habits ("Sundays we usually ...")
# decide nothing.
_SUBJECT_VERB = re.compile(
    rf"{_SUBJECT}\s+(?:(?:just|finally|also|really|still|only|even|all|both|probably|actually|never)\s+)?"
    r"(?P<verb>[a-z]+)\b(?!['’])",
    re.IGNORECASE,
)
_IRREGULAR_PAST = frozenset(
    """went came saw got had did met ran drove flew took made ate left bought found gave told said sat spent won lost
    heard felt kept slept brought thought caught taught began sang swam wrote rode wore threw knew grew drew broke spoke
    woke chose fell held built sent paid sold stood became forgot hid led meant fed fought hung stuck bit shot tore rang
    drank sank struck dug lay laid lit understood could""".split()
)
_UNDECIDED = frozenset(
    """think guess know believe remember recall mean suppose wish bet doubt swear forget love like hate miss hope would
    put read set let cut hit quit shut hurt cost spread usually always often sometimes normally generally
    typically""".split()
)


# A present "is/are/'s/'re/'m" earlier in the clause, with no past form after it, looks ahead: "it's my birthday on
# Sunday", "what's the plan for Saturday" (but "that's the dress I wore on Saturday", "a photo from Sunday").
_COPULA_IN_CLAUSE = re.compile(
    r"(?:\b(?:it|that|there|what|he|she)['’]s|\bi['’]m|\b(?:we|you|they)['’]re|(?<!\btoday )\b(?:is|are|am))\s+"
    r"(?P<between>[^.!?,;:]*?)$",
    re.IGNORECASE,
)
_PAST_WORDS = frozenset("been was were had did used".split()) | _IRREGULAR_PAST
_FROM_BEFORE = re.compile(r"\b(?:from|of)\s+$", re.IGNORECASE)


_COPULA_WORD = re.compile(r"\b(?:is|are|am)\b|['’](?:s|re|m)\b", re.IGNORECASE)  # the cheap first check


def _copula_before(text: str, start: int) -> bool:
    """Whether a present copula opens the clause part before ``start``, no past form after it (see above)."""
    if not _COPULA_WORD.search(text, max(0, start - 40), start):
        return False
    m = _COPULA_IN_CLAUSE.search(text, max(0, start - 40), start)
    if m is None or _FROM_BEFORE.search(text, max(0, start - 6), start):
        return False
    words = m["between"].lower().split()
    if words and words[0].endswith("ed") and words[0] not in _PAST_WORDS:
        words = words[1:]  # a participle right after the copula is a state: "we're slammed", "it's booked"
    return not any(word in _PAST_WORDS or word.endswith("ed") for word in words)


_BY_BEFORE = re.compile(r"\bby\s+$", re.IGNORECASE)
_BY_AT = re.compile(r"by\s", re.IGNORECASE)
_PARTICIPLE_BEFORE = re.compile(r"\b[a-z]+ed\s+$", re.IGNORECASE)
_CLAUSE_BEFORE = re.compile(r"[^.!?;:]*$")
# A past auxiliary makes a base-form timetable verb past: "did you go back on Friday?", "didn't they come Monday".
_DID_BEFORE = re.compile(r"\bdid(?:n['’]?t)?\s+(?:[\w'’]+\s+){1,4}$", re.IGNORECASE)


def _deadline_start(text: str, start: int) -> int | None:
    """Where "by" opens a deadline at or right before ``start`` ("by Friday", "by the 20th"), else None; not after a
    participle, where "by" names an agent ("inspired by autumn")."""
    if _BY_AT.match(text, start):
        by = start
    else:
        m = _BY_BEFORE.search(text, max(0, start - 4), start)
        if m is None:
            return None
        by = m.start()
    return None if _PARTICIPLE_BEFORE.search(text, max(0, by - 24), by) else by


def _past_after(text: str, by_start: int, end: int) -> bool:
    """Whether a deadline opening its clause is followed by a past verb: "By Monday it had stopped raining"."""
    if not _CLAUSE_START.search(text, max(0, by_start - 6), by_start):
        return False
    return bool(_BEHIND_AFTER.match(text, end)) or _tense_after_subject(text, end) is False


_PRESENT_ED_WORDS = frozenset(_PRESENT_ED.split("|"))
# A participle after a present or bare "be" is a state, not a past: "we have to be moved out by Christmas".
_BE_WORDS = frozenset("be is are am being get gets s re m".split())


def past_in_clause(text: str, start: int) -> bool:
    """Whether a past form (was, had, an irregular past, a regular "-ed" but not "need" nor a participle after "be")
    comes earlier in the clause before ``start``: a deadline in it has passed ("we had it done by Friday")."""
    m = _CLAUSE_BEFORE.search(text, max(0, start - 60), start)
    words = re.findall(r"[a-z]+", m.group().lower()) if m else []
    return any(
        word in _PAST_WORDS or (word.endswith("ed") and word not in _PRESENT_ED_WORDS and before not in _BE_WORDS)
        for before, word in zip(["", *words], words, strict=False)
    )


def _tense_after_subject(text: str, end: int) -> bool | None:
    """Ahead for a present verb after a subject right after ``end``, back for an irregular past, else None."""
    m = _SUBJECT_VERB.match(text, end)
    if m is None:
        return None
    verb = m["verb"].lower()
    if verb in _UNDECIDED:
        return None
    return verb not in _IRREGULAR_PAST


# "at my aunt's", "at Joe's": an elliptical possessive (someone's place), not "is".
_AT_POSSESSIVE = re.compile(r"\bat\s+(?:(?:my|his|her|our|their|your|the)\s+)?\w+['’]s\s+$", re.IGNORECASE)


# a past event's verb earlier in the expression's clause: a later clause's cue ("she's recovering") does not move it
_PAST_EVENT_BEFORE = re.compile(
    r"(?<!['’]ve\s)(?<!have\s)\b(?:had|did|went|came|took)\s+(?:[a-z'’]+\s+){0,4}$", re.IGNORECASE
)


# A personal subject's past verb a few words before the expression, in its clause, looks back whatever cue words
# later sentences hold ("I accepted on the 8th of May. I start on the 1st of July."); not a verb of planning or
# moving a date ("we booked it for June", "they moved it to the 23rd"), nor after "have" ("I've signed up for May").
_PLANNING_PAST = frozenset(
    """planned booked scheduled arranged organised organized reserved postponed moved pushed delayed rescheduled
    changed fixed pencilled penciled agreed decided promised invited expected hoped wanted needed asked settled
    chose picked finalised finalized locked set requested registered enrolled entered signed""".split()
)
# ... only right before a day said with "on"/"in" ("I accepted on the 8th of May"), not a day that is the verb's object
# or follows it ("we chose Saturday the 6th", "I got my surgery date on the 2nd", "I took friday off")
_PAST_VERB_RIGHT_BEFORE = re.compile(
    r"\b(?:i|we|he|she|they)\s+(?:just\s+|finally\s+|also\s+)?(?P<verb>[a-z]+)\s+$", re.IGNORECASE
)
_ON_OR_IN = re.compile(r"(?:on|in)\s", re.IGNORECASE)


def _subject_past_before(text: str, start: int) -> bool:
    """Whether a personal subject's past verb stands right before ``start``, where the day opens with on/in."""
    if not _ON_OR_IN.match(text, start):
        return False
    m = _PAST_VERB_RIGHT_BEFORE.search(text, max(0, start - 40), start)
    if m is None:
        return False
    verb = m["verb"].lower()
    if verb in _PLANNING_PAST:
        return False
    return verb in _IRREGULAR_PAST or (verb.endswith("ed") and verb not in _PRESENT_ED_WORDS)


def looks_ahead(text: str) -> bool:
    """Whether cue words anywhere in ``text`` (will, 'll, going to, planning, next, tomorrow, ...) point ahead."""
    m = _FUTURE.search(text)
    while m is not None and m["timetable"] and _HABIT.search(text):
        m = _FUTURE.search(text, m.end())  # a habit: look for another cue
    if m is None and text.rstrip().endswith("?") and _SHORT_QUESTION.match(text):
        return not _QUESTION_VERB.search(text)
    return m is not None


def verb_direction(text: str, start: int, end: int, default: Callable[[], bool]) -> bool:
    """Ahead after "is/are/'s/'re" or a timetable verb, back after "was/were" right before ``start``; else, for an
    expression opening its clause, the verb right after ``end`` decides; else ``default()`` (the cue words, asked only
    when needed)."""
    clock = _CLOCK_BEFORE.search(text, max(0, start - 14), start)  # "the show's at 7pm on Friday"
    start = clock.start() if clock else start
    clock = _CLOCK_AFTER.match(text, end)  # "Sunday at 3pm I'm free"
    end = clock.end() if clock else end
    deadline = _deadline_start(text, start)
    if deadline is not None:  # "I need the slides by Friday": ahead, unless the clause is in the past
        return not (past_in_clause(text, deadline) or _past_after(text, deadline, end))
    if (
        _AHEAD_VERB.search(text, max(0, start - 16), start)
        and not _AT_POSSESSIVE.search(text, max(0, start - 40), start)
        and not _DID_BEFORE.search(text, max(0, start - 48), start)
    ):
        return True
    if _BEHIND_VERB.search(text, max(0, start - 12), start):
        return False
    if not _CLAUSE_START.search(text, max(0, start - 6), start):
        if _PAST_EVENT_BEFORE.search(text, max(0, start - 40), start):  # "Biscuit had surgery on Friday, she's ..."
            return False
        if _agenda_ahead(text, start, end):  # "vet says torn CCL, surgery on the 27th"
            return True
        if _subject_past_before(text, start):
            return False
        return default() or _copula_before(text, start)
    if _AHEAD_AFTER.match(text, end):
        return True
    if _BEHIND_AFTER.match(text, end):
        return False
    tense = _tense_after_subject(text, end)
    return default() if tense is None else tense


class Direction:
    """The direction of one expression at text[start:end], worked out on the first call and kept: ``value`` when given
    (False after "since", or the caller's forced ``future``), else :func:`verb_direction` with ``cue`` (the text's cue
    words)."""

    __slots__ = ("_cue", "_end", "_start", "_text", "_value")

    def __init__(self, text: str, start: int, end: int, cue: Callable[[], bool], value: bool | None = None) -> None:
        self._text, self._start, self._end, self._cue, self._value = text, start, end, cue, value

    def __call__(self) -> bool:
        if self._value is None:
            self._value = verb_direction(self._text, self._start, self._end, self._cue)
        return self._value


class Cue:
    """Whether the text's cue words look ahead (:func:`looks_ahead`), searched on the first call and kept."""

    __slots__ = ("_text", "_value")

    def __init__(self, text: str) -> None:
        self._text = text
        self._value: bool | None = None

    def __call__(self) -> bool:
        if self._value is None:
            self._value = looks_ahead(self._text)
        return self._value


# A clock time between a verb and a day, or after a day: "the show's at 7pm on Friday", "Sunday at 3pm I'm free".
_CLOCK = r"(?:\d{1,2}(?::\d\d)?\s*(?:[ap]\.?m\.?)?|noon|midday)"
_CLOCK_BEFORE = re.compile(rf"\b(?:at|@)\s+{_CLOCK}\s+(?:on\s+)?$", re.IGNORECASE)
_CLOCK_AFTER = re.compile(rf"\s+(?:at|@)\s+{_CLOCK}(?![\d:])", re.IGNORECASE)

# A scheduled event named with no verb, right after a present saying in its sentence, is on the agenda, ahead: "vet
# says torn CCL, surgery on the 27th", "doc says it's fine, scan on friday to be sure". Alone it is as often a report
# ("the wedding on the 5th? amazing.", "surgery on the 27th! she's home now") and keeps the cue words' direction; a
# past form after it in its sentence or the next one makes it a report ("... surgery on the 27th. all went fine").
_AGENDA_BEFORE = re.compile(
    r"[,;:(]\s*(?:(?:my|his|her|our|their|the|a|an|[\w-]+['’]s)\s+)?(?:(?![\w-]+ed\b)[\w-]+\s+)?"
    r"(?:surgery|op|operation|appointment|appt|interview|exam|scan|flight|hearing|checkup|check-up|procedure"
    r"|ultrasound|induction|orientation|court\s+date|due\s+date)\s+(?:(?:is|['’]s)\s+)?(?:(?:on|at|for)\s+)?$",
    re.IGNORECASE,
)
# the present saying before it, in its sentence: "vet says", "the doctor reckons", "they've told me", "it's"
_PRESENT_SAYING = re.compile(
    r"\b(?:says|say|reckons|thinks|wants|needs|has|have|is|are|['’]s|['’]re|['’]ve\s+(?:booked|scheduled|told\s+\w+))"
    r"\b[^.!?]*$",
    re.IGNORECASE,
)
_TWO_SENTENCES = re.compile(r"[^.!?]*[.!?]*[^.!?]*")


def _agenda_ahead(text: str, start: int, end: int) -> bool:
    """Whether the expression at text[start:end] dates an agenda item said after a present saying (see above)."""
    clause = _AGENDA_BEFORE.search(text, max(0, start - 40), start)
    if clause is None:
        return False
    sentence_start = max(text.rfind(end_mark, 0, start) for end_mark in ".!?") + 1
    if not _PRESENT_SAYING.search(text, sentence_start, clause.start() + 1):
        return False
    after = _TWO_SENTENCES.match(text, end)
    words = re.findall(r"[a-z]+", after.group().lower()) if after else []
    return not any(w in _PAST_WORDS or (w.endswith("ed") and w not in _PRESENT_ED_WORDS) for w in words)


# An expression opens its clause at the start of the text or after punctuation or "and/but/so".
_CLAUSE_START = re.compile(r"(?:^|[.!?,;:]\s*|\b(?:and|but|so)\s+)$", re.IGNORECASE)
