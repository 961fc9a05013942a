"""Words that look like times but name none, for the time resolver's rules (pure, stdlib only).

Each guard answers for one rule family whether a match it found is a time at all:

* Weekdays: a pet's name with an epithet ("Friday the cat"), part of a holiday's name ("Black Friday deals"), any
  such day after "a" ("it falls on a Tuesday", "a Sunday league"), a noun's modifier after "the" or a possessive
  ("the Tuesday crowd", "her Sunday best", "grandma's Sunday roast"), the nursery rhyme's "Friday's child", a title
  ("Friday Night Lights"), a first name before a surname ("Wednesday Addams", "Tuesday Weld": a capitalised word
  after it that is no month, weekday or pronoun) or before a person's verb ("Friday said she'd come"), a noun it
  makes a compound with ("Sunday school", "the Monday blues"); an abbreviation alone ("Wed", "Sat") unless it is no
  word ("Thurs", "fri") or is capitalised inside a sentence ("the game is on Sat.", "Weds", not "Sat down"), or any
  abbreviation ("Mon" too) before a clock time ("Mon at 6pm").
* Any weekday after "every" / "each" ("every other Tuesday"): a recurrence. "man / girl Friday": an assistant.
* A relative day in title case ("The Day After Tomorrow"): a title.
* Months: the second half of an event's name, a holiday "in" another month ("a Christmas in July sale").
* Decades: temperatures ("temps in the 60s", "highs in the low 80s"), a noun's modifier ("the 90s band").
"""

from __future__ import annotations

import re

from sodamem.ingest import timeholidays

_F = re.IGNORECASE
_EPITHET_AFTER = re.compile(
    r"\s+the\s+(?:cat|kitten|kitty|dog|puppy|pup|bird|parrot|hamster|rabbit|bunny|horse|pony|fish|goldfish|turtle"
    r"|tortoise|snake|lizard|goat|pig|cow|chicken|duck|hen|cockatiel|budgie|gerbil|ferret)s?\b",
    _F,
)
# The first word of holidays named by a weekday (Good Friday, Cyber Monday, Palm Sunday, Fat Tuesday, Mothering
# Sunday, Super Bowl Sunday): this resolver dates only some of them, and the weekday alone is none of them.
_HOLIDAY_WORD_BEFORE = re.compile(
    r"\b(?:black|good|cyber|easter|ash|palm|holy|maundy|fat|shrove|mothering|remembrance|whit|trinity|bowl)\s+$", _F
)
# A possessive determiner acts like "the": "her Sunday best", "my Monday meeting" (but "ruined my Saturday" is a day);
# so does a noun's possessive ("grandma's Sunday roast"), but not a pronoun's "'s" ("it's Friday tomorrow").
_ARTICLE_BEFORE = re.compile(
    r"\b(?:(?P<a>an?)|the|my|your|his|her|our|their"
    r"|(?!(?:it|that|what|he|she|there|here|who|let|where|when|how|today|tomorrow)['’]s)[a-z]+['’]s)\s+$",
    _F,
)
# After "the", a lowercase word that is no function word, verb of being or time word is the noun a weekday modifies.
_NOUN_AFTER = re.compile(
    r"\s+(?!(?:before|after|of|that|when|where|we|i|you|he|she|they|it|morning|afternoon|evening|night|and|or|but"
    r"|was|is|are|were|will|would|had|has|have|did|do|does|just|then|at|in|on|for|to|from|with|by|into|about|around"
    r"|through|like|too|as|so|though|anyway|again|still|ever|now|if|because|since|until|while|here|there|even|only"
    r"|all|both)\b)[a-z]+\b"
)
_RHYME_AFTER = re.compile(r"['’]s\s+child\b", _F)
# A surname after a first name: a capitalised word (case-sensitive) that is no month, weekday, pronoun or title word.
_SURNAME_AFTER = re.compile(
    r"\s+(?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar"
    r"|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|I|I['’]\w+|We|You"
    r"|They|He|She|It|My|Our|The|This|That|Then|And|But|So|Morning|Afternoon|Evening|Night|Week|Weekend)\b)"
    r"[A-Z][a-z]+\b(?!['’]|\s*(?:and|&|,))"  # "Friday Sarah and I went out" is a day
)
# A person's verbs after a capitalised weekday make it a first name: "Friday said she'd come".
_SPEECH_AFTER = re.compile(
    r"\s+(?:said|says|told|tells|asked|asks|replied|texted|thinks|thought|wants|wanted|loves|laughed|smiled)\b"
)
# Nouns a weekday makes a compound with, naming no particular day.
_COMPOUND_AFTER = re.compile(
    r"\s+(?:school|service|services|mass|roast|best|papers?|league|scaries|blues|supplement|edition|drivers?"
    r"|funday|brunch\s+club)\b",
    _F,
)


# "man Friday", "girl Friday": an assistant, after Robinson Crusoe's.
_ASSISTANT_BEFORE = re.compile(r"\b(?:man|girl|gal|guy)\s+$", _F)


def weekday_names_no_day(text: str, start: int, end: int) -> bool:
    """Whether a bare weekday at text[start:end] (no last/next/on, no part of a day) names no particular day."""
    if _EPITHET_AFTER.match(text, end) or _HOLIDAY_WORD_BEFORE.search(text, max(0, start - 14), start):
        return True
    if text[start:end].lower() == "friday" and _ASSISTANT_BEFORE.search(text, max(0, start - 5), start):
        return True
    article = _ARTICLE_BEFORE.search(text, max(0, start - 16), start)
    if article and (article["a"] or _NOUN_AFTER.match(text, end)):
        return True
    if text[start].isupper() and (_SURNAME_AFTER.match(text, end) or _SPEECH_AFTER.match(text, end)):
        return True
    return bool(_RHYME_AFTER.match(text, end) or _COMPOUND_AFTER.match(text, end))


# Abbreviated weekdays that are no English word ("Tues", "thurs"); "Wed", "Fri" and "Sat" only capitalised inside a
# sentence ("the game is on Sat.", not "Sat down" or "they wed in May"); "Mon" and "Sun" never alone.
_ALWAYS_ABBREVIATION = frozenset("tue tues thu thur thurs fri".split())
_CAPITALISED_ABBREVIATION = frozenset("wed weds sat".split())
_CLOCK_AFTER = re.compile(r"\.?\s+(?:at|@)\s+(?:\d{1,2}(?::\d\d)?\s*(?:[ap]\.?m\b|\b)|noon\b|midday\b)", _F)
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s*)$")


def abbreviated_weekday_alone(text: str, start: int, end: int) -> bool:
    """Whether the abbreviated weekday at text[start:end], with no last/next/this before it, names a day."""
    word = text[start:end]
    if word.lower() in _ALWAYS_ABBREVIATION or _CLOCK_AFTER.match(text, end):
        return True
    return (
        word.lower() in _CAPITALISED_ABBREVIATION
        and word[0].isupper()
        and word[1:].islower()
        and not _SENTENCE_START.search(text, max(0, start - 4), start)
    )


# A title: a capitalised weekday and part of a day before another capitalised word ("Friday Night Lights", "Saturday
# Night Live", "Monday Night Football").
_TITLE_WORD_AFTER = re.compile(r"\s+[A-Z][a-z]")


def weekday_part_is_a_title(text: str, part_start: int, end: int) -> bool:
    """Whether a weekday with a part of a day ending at ``end`` (the part from ``part_start``) is a title's words."""
    return text[part_start].isupper() and bool(_TITLE_WORD_AFTER.match(text, end))


# "every Sunday", "every other Tuesday", "each Friday morning": a recurrence, no one day.
_RECURRENCE_BEFORE = re.compile(r"\b(?:every|each)\s+(?:(?:other|second|single|alternate)\s+)?(?:on\s+)?$", _F)


def recurrence_before(text: str, start: int) -> bool:
    """Whether "every" / "each" (or "every other") right before ``start`` makes what follows a recurrence."""
    return bool(_RECURRENCE_BEFORE.search(text, max(0, start - 24), start))


def title_cased(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is three or more words, each capitalised and the rest lowercase: a title ("we watched
    The Day After Tomorrow"), not a sentence's opening ("The day after tomorrow") or shouting ("NEXT FRIDAY")."""
    words = text[start:end].split()
    return len(words) >= 3 and all(word[0].isupper() and word[1:].islower() for word in words)


_HOLIDAY_BEFORE = re.compile(rf"\b(?:{timeholidays.NAME_ALT})\s+$", _F)


def month_ends_an_event_name(text: str, start: int) -> bool:
    """Whether a month matched from ``start`` ("in July") follows a holiday's name ("Christmas in July")."""
    return bool(_HOLIDAY_BEFORE.search(text, max(0, start - 40), start))


_TEMPERATURE_BEFORE = re.compile(
    r"\b(?:temps?|temperatures?|degrees|highs?|lows?|forecast|weather|thermometer|hovering)\b[\w\s,'’-]{0,20}$",
    _F,
)


def decade_names_no_time(text: str, start: int, end: int) -> bool:
    """Whether a decade at text[start:end] ("the 60s") reads as a temperature ("temps in the 60s") or modifies a noun
    ("the 90s band played a reunion show": the band is of the 90s, the show is not)."""
    return bool(_TEMPERATURE_BEFORE.search(text, max(0, start - 40), start) or _NOUN_AFTER.match(text, end))
