"""Numeric dates for the time resolver: "on 5/20", "3/4/2023", "dated 13/2" (pure, stdlib only).

Slashed dates are read US-style, month/day ("3/4/2023" is March 4), and day/month only where the first number cannot
be a month ("13/2" is February 13). A two-digit year is read like "'23" (:func:`sodamem.ingest.timewords.year_number`).
Without a year a numeric date is the nearest such day the tense points to, as a date with its month named (the latest
on or before the anchor's day; in a future context the first on or after it).

Slashed numbers are as often fractions, ratios and scores ("add 3/4 cup", "a 50/50 chance", "open 24/7", "rated it
4/5"), so a date without a year needs "on" or a word that takes a date before it (by, until, since, dated, born,
starts, due, ..., or a day's noun and its verb: "the deadline is"), and none is read before a unit of measure or
"of" ("2/3 of the class") or after a verb of scoring ("I scored 8/5/2023 on a weird scale").
"""

from __future__ import annotations

import re
from datetime import timedelta

from sodamem.ingest import timewords as tw
from sodamem.ingest.timewords import Context, Span
from sodamem.model import TimeGranularity

_NUMERIC_DATE = (
    r"\b(?:(?P<on>on)\s+)?(?<![\d/.:$])(?P<first>\d{1,2})/(?P<second>\d{1,2})(?:/(?P<year>(?:19|20)\d\d|\d\d))?"
    r"(?![\d/]|\.\d)"
)
_TAKES_A_DATE_BEFORE = re.compile(
    r"\b(?:by|until|till|til|thru|through|before|after|since|from|of|dated|born|due|starts?|begins?|ends?|opens"
    r"|closes|arrives?|leaves?|comes?"
    # a noun that names a day, and its verb: "the deadline is 3/28", "my birthday's 6/12"
    r"|(?:deadline|date|birthday|anniversary|appointment|wedding)(?:\s+(?:is|was)|['’]s))\s+$",
    re.IGNORECASE,
)
_MEASURE_AFTER = re.compile(
    r"\s*(?:cups?|c\b|tsp|teaspoons?|tbsps?|tablespoons?|inch(?:es)?|in\b|ft|feet|foot|miles?|mi\b|km|lbs?|pounds?"
    r"|oz|ounces?|gallons?|liters?|litres?|pints?|quarts?|of\b|off\b|price|%|full|empty|split|odds|chance|stars?"
    r"|scale|rating|points?)",
    re.IGNORECASE,
)


# After a verb of scoring a slashed number is a score, year-shaped or not: "I scored 8/5/2023 on a weird scale".
_SCORE_BEFORE = re.compile(
    r"\b(?:scored?|scoring|rated?|rating|graded?|ranked|got|gets|gave|give|went)\s+$", re.IGNORECASE
)


def _numeric_date(m: re.Match[str], c: Context) -> Span | None:
    if _MEASURE_AFTER.match(c.text, m.end()) or _SCORE_BEFORE.search(c.text, max(0, m.start() - 10), m.start()):
        return None
    if not (m["year"] or m["on"] or _TAKES_A_DATE_BEFORE.search(c.text, max(0, m.start() - 16), m.start())):
        return None
    first, second = int(m["first"]), int(m["second"])
    month, day_of_month = (first, second) if first <= 12 else (second, first)
    if month > 12:
        return None
    if m["year"]:
        year = int(m["year"]) if len(m["year"]) == 4 else tw.year_number("'" + m["year"], c.anchor)
        day = c.day.replace(year=year, month=month, day=day_of_month)
    else:
        day = tw.nearest_date(c, month, day_of_month)
    return day, day + timedelta(days=1), TimeGranularity.DAY


RULES: tuple[tw.RuleEntry, ...] = ((_NUMERIC_DATE, _numeric_date, r"\d/\d"),)
