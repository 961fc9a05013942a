"""Chat phrasings for the time resolver: "first thing Monday", "the weekend just gone", years said in words (pure,
stdlib only).

* "first thing <day>" ("first thing Monday", "first thing tomorrow", "first thing on Friday") is that day's morning,
  06:00-12:00 (granularity DAY), as "Monday morning" is.
* "<unit or weekday> just gone / just passed" (British) is "last <unit or weekday>": "the weekend just gone", "Monday
  just gone", "Christmas just gone".
* A year said in words after a preposition, as a bare year in digits needs one: "back in twenty nineteen", "in
  nineteen ninety-eight", "since two thousand and five", "in twenty oh eight", "by twenty twenty-six".
"""

from __future__ import annotations

import re
from datetime import timedelta

from sodamem.ingest import timeholidays
from sodamem.ingest import timewords as tw
from sodamem.ingest.timewords import Context, Span
from sodamem.model import TimeGranularity

G = TimeGranularity
_WEEKDAY = tw.alternation(tw.WEEKDAYS)

_FIRST_THING = (
    r"\bfirst\s+thing\s+(?:on\s+)?"
    rf"(?P<rest>tomorrow|today|(?:(?:this|next|coming)\s+)?(?:{_WEEKDAY}))\b(?!\s+(?:morning|afternoon|evening|night))"
)


def _first_thing(m: re.Match[str], c: Context) -> Span | None:
    rest = m["rest"].lower()
    span = c.resolve(rest if rest.split()[0] in ("tomorrow", "today", "this", "next", "coming") else "on " + rest)
    if span is None or span[1] - span[0] != timedelta(days=1):
        return None
    low, high = tw.PARTS["morning"]
    return span[0] + timedelta(hours=low), span[0] + timedelta(hours=high), G.DAY


_JUST_GONE = (
    rf"\b(?:the\s+)?(?P<what>weekend|week|month|year|{_WEEKDAY}|{timeholidays.NAME_ALT})\s+just\s+(?:gone|passed)\b"
)


def _just_gone(m: re.Match[str], c: Context) -> Span | None:
    return c.resolve("last " + m["what"].lower())


_ONES = tw.alternation([w for w, n in tw.NUMBERS.items() if 1 <= n <= 9 and w not in ("a", "an")])
_TEENS = tw.alternation([w for w, n in tw.NUMBERS.items() if 10 <= n <= 19])
_TENS = tw.alternation([w for w, n in tw.NUMBERS.items() if n >= 20])
_TWO_DIGITS = rf"(?:{_TENS})(?:[\s-]+(?:{_ONES}))?|{_TEENS}|oh[\s-]+(?:{_ONES})"
_YEAR_IN_WORDS = (
    r"\b(?P<prep>(?:back\s+)?(?:in|during|from|until|till|by|around|since))\s+"
    rf"(?P<y>(?P<century>nineteen|twenty)[\s-]+(?P<rest>{_TWO_DIGITS})"
    rf"|two\s+thousand(?:\s+(?:and\s+)?(?P<rest2>{_TWO_DIGITS}|{_ONES}))?)"
    r"\b(?![\s-]+(?:\w+\s+)?(?:hours?|minutes?|days?|weeks?|months?|years?|people|percent|dollars|bucks))"
)


def _two_digits(words: str) -> int:
    tokens = [token for token in words.lower().replace("-", " ").split() if token != "oh"]
    return sum(tw.NUMBERS[token] for token in tokens)


def _year_in_words(m: re.Match[str], c: Context) -> Span | None:
    if m["century"]:
        year = (1900 if m["century"].lower() == "nineteen" else 2000) + _two_digits(m["rest"])
    else:
        year = 2000 + (_two_digits(m["rest2"]) if m["rest2"] else 0)
    start = c.day.replace(year=year, month=1, day=1)
    return start, start.replace(year=year + 1), G.YEAR


RULES: tuple[tw.RuleEntry, ...] = (
    (_FIRST_THING, _first_thing, r"first\s+thing"),
    (_JUST_GONE, _just_gone, r"just\s+(?:gone|passed)"),
    (_YEAR_IN_WORDS, _year_in_words, r"nineteen|twenty|two\s+thousand"),
)
