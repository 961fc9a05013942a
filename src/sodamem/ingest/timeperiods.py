"""Halves of a year, centuries by ordinal, and chat and British phrasings for the time resolver (pure, stdlib only).

* Halves of a year in business shorthand, "H1" / "H2" (capital H): January-June / July-December at the year's
  granularity, as "the first half of the year" is. A year may follow ("H1 2023", "H2 of 2024", "H2 next year"); with
  none the half needs a preposition before it ("in H2") or business words about ("our H1 numbers"), and is the
  anchor's year's, or the nearest the tense points to (as a bare quarter).
* Centuries by ordinal: "the 12th century", "the twelfth century" is 1100-01-01 to 1200-01-01 (YEAR), as "the
  1100s" is.
* "come <month / season>" ("come December", "come winter") is the next one ahead, the anchor's own included: "in
  December" in a future sentence. Not after a subject or a modal ("they come May", "will come spring").
* "earlier / later this morning|afternoon|evening" runs from the part's start to the anchor / from the anchor to the
  part's end (VAGUE), as "earlier / later today" do for the day (so "earlier this morning" said at 15:00 runs to
  15:00).
* "this arvo", "tomorrow arvo" (Australian) are the afternoon.
* "today week", "tomorrow week" (British) are the day a week after today / tomorrow.
* "a week ago Monday", "two weeks back Tuesday", "a week ago yesterday" (US): that many weeks before last Monday /
  yesterday; British "a week last Tuesday" the same.
"""

from __future__ import annotations

import re
from datetime import timedelta

from sodamem.ingest import timewords as tw
from sodamem.ingest.timewords import Context, Span
from sodamem.model import TimeGranularity

G = TimeGranularity
_YEAR = r"(?:19|20)\d\d(?!\d)"
_BUSINESS = re.compile(
    r"\b(?:sales|revenue|earnings|profits?|fiscal|financial|results|growth|numbers|budget|targets?|goals?|roadmap"
    r"|launch\w*|release|plan|okrs?|kpis?|forecast|pipeline|hiring|quarter\w*)\b",
    re.IGNORECASE,
)
_HALF = (
    r"\b(?:(?P<prep>in|by|for|during|until|till|over|through|from|since)\s+)?(?P<h>h[12])"
    rf"(?:\s+(?:of\s+)?(?P<year>{_YEAR})|\s+(?P<rel>last|this|next)\s+year)?\b"
)


def _half(m: re.Match[str], c: Context) -> Span | None:
    if m["h"][0] != "H":
        return None  # "h1" is a heading
    first_month = 0 if m["h"][1] == "1" else 6
    if m["year"]:
        year = int(m["year"])
    elif m["rel"]:
        year = c.anchor.year + {"last": -1, "this": 0, "next": 1}[m["rel"].lower()]
    elif not (m["prep"] or _BUSINESS.search(c.text)):
        return None  # "H2" fuel, a hydrogen car
    else:
        year = c.anchor.year
        start = tw.month_start(year * 12 + first_month, c.anchor)
        if not c.future and start > c.anchor:
            year -= 1
        elif c.future and tw.add_months(start, 6) <= c.anchor:
            year += 1
    start = tw.month_start(year * 12 + first_month, c.anchor)
    return start, tw.add_months(start, 6), G.YEAR


_CENTURY_WORDS = tw.alternation(tw.ORDINAL_DAYS).replace(" ", r"[\s-]+")
_CENTURY = (
    r"\b(?:(?:in|during|from|since|by|of|through)\s+)?the\s+"
    rf"(?:(?P<n>[12]?\d)(?:st|nd|rd|th)|(?P<words>{_CENTURY_WORDS}))\s+century\b(?![\w-])"
)


def _century(m: re.Match[str], c: Context) -> Span | None:
    n = int(m["n"]) if m["n"] else tw.ORDINAL_DAYS[" ".join(m["words"].lower().replace("-", " ").split())]
    if not 1 <= n <= 21:
        return None
    start = c.day.replace(year=max(1, (n - 1) * 100), month=1, day=1)
    return start, start.replace(year=n * 100), G.YEAR


_COME = rf"\bcome\s+(?P<rest>{tw.MONTH_ALT}|summer|winter|spring|fall|autumn)\b(?!\s+(?:the\s+)?\d)"
_NO_COME_BEFORE = re.compile(
    r"\b(?:i|we|you|they|he|she|it|will|to|can|could|would|should|might|must|did|do|does|don'?t|didn'?t|please"
    r"|may|and|or|then|not)\s+$|['’](?:ll|d)\s+$",
    re.IGNORECASE,
)


def _come(m: re.Match[str], c: Context) -> Span | None:
    rest = m["rest"]
    if rest.lower() == "may" and rest[0] != "M":
        return None
    if _NO_COME_BEFORE.search(c.text, max(0, m.start() - 10), m.start()):
        return None  # "they come May", "it will come spring"
    return c.phrase_resolver("in " + rest, c.anchor, True)


_PART_EDGE = r"\b(?P<el>earlier|later)\s+this\s+(?P<part>morning|afternoon|evening)\b"


def _part_edge(m: re.Match[str], c: Context) -> Span | None:
    low, high = tw.PARTS[m["part"].lower()]
    start, end = c.day + timedelta(hours=low), c.day + timedelta(hours=high)
    if m["el"].lower() == "earlier":
        return (start, c.anchor, G.VAGUE) if c.anchor > start else None
    return (c.anchor, end, G.VAGUE) if c.anchor < end else None


_ARVO = r"\b(?P<base>this|today|tomorrow|tmrw|yesterday)\s+arvo\b"


def _arvo(m: re.Match[str], c: Context) -> Span | None:
    base = m["base"].lower()
    return c.resolve(("this" if base in ("this", "today") else base) + " afternoon")


_DAY_WEEK = r"\b(?P<base>today|tomorrow)\s+week\b(?![\w'’-])"


def _day_week(m: re.Match[str], c: Context) -> Span:
    day = c.day + timedelta(days=8 if m["base"].lower() == "tomorrow" else 7)
    return day, day + timedelta(days=1), G.DAY


_WEEKS_AGO_DAY = (
    rf"\b(?P<n>{tw.NUM})\s+(?P<unit>weeks?|wks?|fortnights?)\s+(?:(?:ago|back)\s+(?:on\s+|last\s+)?|last\s+)"
    rf"(?P<wd>{tw.alternation(tw.WEEKDAYS)}|yesterday)\b(?!\s+(?:morning|afternoon|evening|night))"
)


def _weeks_ago_day(m: re.Match[str], c: Context) -> Span | None:
    n, _, fuzzy = tw.count(m["n"])
    if fuzzy or n < 1:
        return None
    wd = m["wd"].lower()
    base = c.phrase_resolver(wd if wd == "yesterday" else "last " + wd, c.anchor, False)
    if base is None or base[2] is not G.DAY:
        return None
    step = timedelta(weeks=n * (2 if m["unit"].lower().startswith("f") else 1))
    return base[0] - step, base[1] - step, G.DAY


RULES: tuple[tw.RuleEntry, ...] = (
    (_HALF, _half, r"\bh[12]\b"),
    (_CENTURY, _century, r"century"),
    (_COME, _come, r"\bcome\s"),
    (_PART_EDGE, _part_edge, r"(?:earlier|later)\s+this\s"),
    (_ARVO, _arvo, r"arvo"),
    (_DAY_WEEK, _day_week, r"(?:today|tomorrow)\s+week"),
    (_WEEKS_AGO_DAY, _weeks_ago_day, r"(?:ago|back|last)\s+(?:on\s+|last\s+)?[a-z]+day"),
)
# Words these rules need that the resolver's first pre-check lacks.
TRIGGER_WORDS = ("arvo",)
