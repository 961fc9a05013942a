"""Holidays for the time resolver: fixed dates, nth weekdays of a month and Easter (pure, stdlib only).

The names and their dates follow HeidelTime's English holiday resources and SUTime's ``english.holidays.sutime.txt``
(US observances where countries differ: Thanksgiving is the 4th Thursday of November, Mother's Day the 2nd Sunday of
May, Father's Day the 3rd Sunday of June, Labor Day the 1st Monday of September, Memorial Day the last Monday of May;
and a few British and Canadian ones: Bonfire Night, Remembrance Sunday, Mothering Sunday, Canada Day, Victoria Day).
Easter is the Gregorian computus (the anonymous "Meeus/Jones/Butcher" algorithm).

Which occurrence: "last X" is the latest strictly before the anchor's day, "next X" the first strictly after it, "this
X" the one of the anchor's year, "X 2019" / "X of 2019" that year's, "X last / next year" that year's; otherwise
(after on/at/for/over/during/..., or a bare name followed by was/is/will) the latest on or before the anchor's day, or
in a future context the first on or after it. "the X before last" / "the X after next" go one more year. "the day /
night / morning / afternoon / evening before|after X" move a day (a part narrows it), "the weekend before|after X"
is the Saturday-Sunday strictly before/after it, "the Monday before|after X" the first Monday strictly before/after
it, "the week before|after X" the calendar week before/after the holiday's, "X weekend" the
weekend touching it (holiday included: Memorial Day weekend is Saturday to Monday). "X morning|afternoon|evening|night"
narrows the day. A bare name needs a verb after it ("Halloween was fun"), a part ("Memorial Day weekend"), a place
or company after it ("Thanksgiving at my brother's"), "since", or a verb of coming and going before it with its
clause ending after it ("my parents arrive Christmas Eve"), or one of being open, closed, free or at work ("the
office is closed Labor Day", "we're back Easter Monday"), or having or spending it ending its clause ("we had a
quiet New Year's Day"); "NYE" is New Year's Eve; Maundy (Holy) Thursday is Easter - 3 days, Indigenous Peoples' Day
is Columbus Day; "spend Christmas" reads like "over Christmas". "two Christmases ago" counts back from the last one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from sodamem.ingest import timewords as tw
from sodamem.ingest.timewords import Context, Span
from sodamem.model import TimeGranularity

G = TimeGranularity
MON, THU, SAT, SUN = 0, 3, 5, 6


def easter(year: int) -> date:
    """Western (Gregorian) Easter Sunday of ``year``."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    weekday_shift = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * weekday_shift) // 451
    month, day = divmod(h + weekday_shift - 7 * m + 114, 31)
    return date(year, month, day + 1)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The ``n``-th ``weekday`` (Monday 0) of the month; ``n`` -1 is the last one."""
    if n > 0:
        first = date(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    last = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7 + 7 * (-n - 1))


def _fixed(month: int, day: int) -> Callable[[int], date]:
    return lambda year: date(year, month, day)


def _nth(month: int, weekday: int, n: int, plus_days: int = 0) -> Callable[[int], date]:
    return lambda year: nth_weekday(year, month, weekday, n) + timedelta(days=plus_days)


def _from_easter(days: int) -> Callable[[int], date]:
    return lambda year: easter(year) + timedelta(days=days)


def _victoria_day(year: int) -> date:
    """The Monday before May 25 (Canada)."""
    may_24 = date(year, 5, 24)
    return may_24 - timedelta(days=may_24.weekday())


_S = r"(?:['’]?s['’]?)?"  # an optional possessive: valentine's, valentines', veterans
# group name -> (name pattern, the date in a given year)
HOLIDAYS: dict[str, tuple[str, Callable[[int], date]]] = {
    "new_years_eve": (rf"new\s+year{_S}\s+eve|nye", _fixed(12, 31)),
    "new_years_day": (r"new\s+year(?:['’]?s)?(?:\s+day)?", _fixed(1, 1)),
    "christmas_eve": (r"(?:christmas|x-?mas)\s+eve", _fixed(12, 24)),
    "christmas": (r"(?:christmas|x-?mas)(?:\s+day)?", _fixed(12, 25)),
    "boxing_day": (r"boxing\s+day", _fixed(12, 26)),
    "halloween": (r"hallowe['’]?en", _fixed(10, 31)),
    "valentines_day": (rf"(?:(?:st\.?|saint)\s+)?valentine{_S}(?:\s+day)?", _fixed(2, 14)),
    "st_patricks_day": (rf"(?:st\.?|saint)\s+(?:patrick|paddy|patty){_S}(?:\s+day)?", _fixed(3, 17)),
    "independence_day": (r"independence\s+day|(?:the\s+)?(?:fourth|4th)\s+of\s+july", _fixed(7, 4)),
    "april_fools_day": (rf"april\s+fool{_S}(?:\s+day)?", _fixed(4, 1)),
    "groundhog_day": (r"groundhog\s+day", _fixed(2, 2)),
    "veterans_day": (rf"(?:veteran{_S}|armistice|remembrance)\s+day", _fixed(11, 11)),
    "remembrance_sunday": (r"remembrance\s+sunday", _nth(11, SUN, 2)),
    "bonfire_night": (r"(?:bonfire|guy\s+fawkes)\s+night", _fixed(11, 5)),
    "canada_day": (r"canada\s+day", _fixed(7, 1)),
    "victoria_day": (r"victoria\s+day", _victoria_day),
    "mothering_sunday": (r"mothering\s+sunday", _from_easter(-21)),
    "juneteenth": (r"juneteenth", _fixed(6, 19)),
    "cinco_de_mayo": (r"cinco\s+de\s+mayo", _fixed(5, 5)),
    "earth_day": (r"earth\s+day", _fixed(4, 22)),
    "easter_monday": (r"easter\s+monday", _from_easter(1)),
    "easter": (r"easter(?:\s+(?:sunday|day))?", _from_easter(0)),
    "good_friday": (r"good\s+friday", _from_easter(-2)),
    "maundy_thursday": (r"(?:maundy|holy)\s+thursday", _from_easter(-3)),
    "palm_sunday": (r"palm\s+sunday", _from_easter(-7)),
    "ash_wednesday": (r"ash\s+wednesday", _from_easter(-46)),
    "pentecost": (r"pentecost|whit\s+sunday", _from_easter(49)),
    "mardi_gras": (r"mardi\s+gras|fat\s+tuesday|shrove\s+tuesday|pancake\s+day", _from_easter(-47)),
    "thanksgiving": (r"thanksgiving(?:\s+day)?", _nth(11, THU, 4)),
    "cyber_monday": (r"cyber\s+monday", _nth(11, THU, 4, plus_days=4)),
    "election_day": (r"election\s+day", _nth(11, MON, 1, plus_days=1)),  # the Tuesday after the first Monday
    "black_friday": (r"black\s+friday", _nth(11, THU, 4, plus_days=1)),
    "mothers_day": (rf"mother{_S}\s+day", _nth(5, SUN, 2)),
    "fathers_day": (rf"father{_S}\s+day", _nth(6, SUN, 3)),
    "labor_day": (r"labou?r\s+day", _nth(9, MON, 1)),
    "memorial_day": (r"memorial\s+day", _nth(5, MON, -1)),
    "mlk_day": (r"(?:martin\s+luther\s+king(?:,?\s+jr\.?)?|mlk)\s+day", _nth(1, MON, 3)),
    "presidents_day": (rf"president{_S}\s+day", _nth(2, MON, 3)),
    "columbus_day": (rf"(?:columbus|indigenous\s+peoples?{_S})\s+day", _nth(10, MON, 2)),
}
# Holiday words the resolver's first pre-check lacks (names with "day", "year" or a month's first letters have it).
TRIGGER_WORDS = (
    *("christmas", "xmas", "x-mas", "easter", "hallowe", "thanksgiving", "pentecost"),
    *("valentine", "patrick", "paddy", "patty", "cinco", "mardi", "nye"),
)
# Some word of every holiday name, for this rule's own pre-check.
_NEEDS = (
    r"\b(?:"
    + (
        tw.trie(
            [
                *TRIGGER_WORDS,
                *"boxing independence july fool groundhog veteran armistice remembrance juneteenth whit".split(),
                *"mother father labo memorial luther mlk president columbus cyber election earth".split(),
                *"canada bonfire fawkes victoria maundy indigenous".split(),
            ]
        )
        + r"|new\s+year|(?:good|black)\s+friday|palm\s+sunday|ash\s+wednesday|(?:fat|shrove)\s+tuesday|pancake\s+day"
        + r"|holy\s+thursday"
    )
    + ")"
)  # every name starts a word: the leading \b spares the search most positions

# Any holiday name, without groups (for composite rules elsewhere: "two days before Christmas").
NAME_ALT = "|".join(pattern for pattern, _ in HOLIDAYS.values())
_NAMES = "|".join(f"(?P<{key}>{pattern})" for key, (pattern, _) in HOLIDAYS.items())
_STEP = r"before\s+last|after\s+next"
_PATTERN = (
    r"\b(?:(?P<prep>on|at|for|over|during|around|by|until|till|through|from|in|before|after|spen(?:d|ds|t|ding))\s+)?"
    rf"(?:the\s+(?P<near>day|night|morning|afternoon|evening|week(?:end)?|{tw.alternation(tw.WEEKDAYS)})"
    r"\s+(?P<side>before|after)\s+"
    r"|(?P<rel>this\s+past|this\s+coming|last|next|this|past|upcoming|coming)\s+"
    rf"|the\s+(?=(?:\S+\s+){{1,3}}(?:{_STEP})))?"
    rf"(?:{_NAMES})(?P<part>\s+(?:morning|afternoon|evening|night|weekend|week))?"
    rf"(?:,?\s+(?:of\s+)?{tw.YEAR}|\s+(?P<step>{_STEP})|\s+(?P<yrel>last|this|next)\s+year)?\b"
)
# ... or, opening a clause, a subject after it ("Labor Day we had a barbecue", "New Year's Eve we're staying in").
_VERB_AFTER = re.compile(
    r"\s+(?:was|is|will|went|came|falls|comes|lands)\b|,?\s+(?:i|we|you|they|he|she)\b", re.IGNORECASE
)
_CLAUSE_START = re.compile(r"(?:^|[.!?;:]\s*|\b(?:and|but|so)\s+)$", re.IGNORECASE)
# A holiday "in" another month is an event's name: "a Christmas in July sale".
_IN_MONTH_AFTER = re.compile(rf"\s+in\s+(?:{tw.MONTH_ALT})\b", re.IGNORECASE)
# A bare name followed by a place or company is the day itself ("doing Thanksgiving at my brother's", "Christmas with
# the kids"); followed by a noun it is a modifier ("a Christmas tree", "Thanksgiving dinner").
_PLACE_AFTER = re.compile(r"\s+(?:at|in|with)\b", re.IGNORECASE)
# A bare name right after a verb of coming and going, ending its clause, is the day: "my parents arrive Christmas
# Eve", "we fly home Thanksgiving morning" ("we got Christmas presents" is a modifier: a noun follows).
_MOTION_BEFORE = re.compile(
    r"\b(?:arriv(?:e|es|ed|ing)|leav(?:e|es|ing)|left|fl(?:y|ies|ew|ying)|com(?:e|es|ing)|came|return(?:s|ed|ing)?"
    r"|head(?:s|ed|ing)?|land(?:s|ed|ing)?|driv(?:e|es|ing)|drove|(?:get|gets|getting|got)\s+(?:in|back|home)"
    # and being open, closed, free or at work: "the office is closed Labor Day", "are you free Christmas Eve?"
    r"|closed|open|shut|off|free|busy|working|(?:['’](?:re|m|s)|is|are|am)\s+(?:back|away|home|out))"
    r"(?:\s+(?:in|back|home|out|over|up|down|away))?\s+$",
    re.IGNORECASE,
)
# Having or spending the day, with an adjective or two, ending its clause: "we had a quiet New Year's Day", "have a
# great Thanksgiving!" ("we had a Christmas party" is a modifier: a noun follows).
_HAD_BEFORE = re.compile(
    r"\b(?:had|have|has|having|spent|spend|spending|enjoyed|enjoy)\s+(?:a|an|our|my|the|their|your)\s+"
    r"(?:[a-z]+\s+){0,2}$",
    re.IGNORECASE,
)
_CLAUSE_END_AFTER = re.compile(r"\s*(?:$|[.,;:!?)]|\s(?:and|but|so|because|when|then|to|for)\b)", re.IGNORECASE)


def _occurrence(when: Callable[[int], date], m: re.Match[str], c: Context) -> date:
    """The holiday's date the words point to (see the module docstring)."""
    today, year = c.day.date(), c.anchor.year
    if m["year"]:
        return when(tw.year_number(m["year"], c.anchor))
    if m["yrel"]:  # "Christmas Day next year"
        return when(year + {"last": -1, "this": 0, "next": 1}[m["yrel"].lower()])
    rel = " ".join(m["rel"].lower().split()) if m["rel"] else ""
    if rel == "this":
        return when(year)
    if m["step"]:
        rel = "last" if m["step"].lower().startswith("before") else "next"
    back = rel in ("last", "past", "this past") or (not rel and not c.future)
    strictly = bool(rel)  # "last Christmas" said on Christmas Day is the year before; "on Christmas" is today

    def fits(day: date) -> bool:
        return (day < today if back else day > today) or (day == today and not strictly)

    found = next(day for day in map(when, (year, year - 1) if back else (year, year + 1)) if fits(day))
    return when(found.year + (-1 if back else 1)) if m["step"] else found


def saturday_near(day: datetime, side: str) -> datetime:
    """The Saturday of the weekend strictly before or after ``day``, or (``side`` "") the weekend touching it."""
    if side == "before":
        return day - timedelta(days=(day.weekday() - SAT) % 7 or 7)
    if side == "after":
        return day + timedelta(days=(SAT - day.weekday()) % 7 or 7)
    return day + timedelta(days=(-2, -3, 3, 2, 1, 0, -1)[day.weekday()])


def _holiday(m: re.Match[str], c: Context) -> Span | None:
    bare = not (m["prep"] or m["rel"] or m["year"] or m["near"] or m["step"] or m["yrel"])
    verb_after = _VERB_AFTER.match(c.text, m.end())
    if verb_after and verb_after.group().strip(" ,").lower() in ("i", "we", "you", "they", "he", "she"):
        verb_after = _CLAUSE_START.search(c.text, max(0, m.start() - 6), m.start())
    if bare and not verb_after and _MOTION_BEFORE.search(c.text, max(0, m.start() - 24), m.start()):
        verb_after = _CLAUSE_END_AFTER.match(c.text, m.end())
    if bare and not verb_after and _HAD_BEFORE.search(c.text, max(0, m.start() - 40), m.start()):
        verb_after = _CLAUSE_END_AFTER.match(c.text, m.end())
    if (
        bare
        and not (m["part"] or verb_after or _PLACE_AFTER.match(c.text, m.end()))
        and tw.since_before(c.text, m.start()) is None
    ) or (bare and _IN_MONTH_AFTER.match(c.text, m.end())):
        return None  # "a Christmas tree", "Thanksgiving dinner"; but "Halloween was fun", "since Easter"
    key = next(key for key in HOLIDAYS if m[key])
    found = _occurrence(HOLIDAYS[key][1], m, c)
    day = c.day.replace(year=found.year, month=found.month, day=found.day)
    part = m["part"].strip().lower() if m["part"] else ""
    if m["near"]:
        near, side = m["near"].lower(), m["side"].lower()
        if near == "weekend":
            saturday = saturday_near(day, side)
            return saturday, saturday + timedelta(days=2), G.WEEK
        if near == "week":  # "the week after Thanksgiving": the calendar week after (before) the holiday's
            monday = day - timedelta(days=day.weekday(), weeks=-1 if side == "after" else 1)
            return monday, monday + timedelta(weeks=1), G.WEEK
        if near in tw.WEEKDAYS:  # "the Monday after Easter": the first such weekday strictly after (before) it
            wanted = tw.WEEKDAYS[near]
            if side == "after":
                day += timedelta(days=(wanted - day.weekday()) % 7 or 7)
            else:
                day -= timedelta(days=(day.weekday() - wanted) % 7 or 7)
            return day, day + timedelta(days=1), G.DAY
        day += timedelta(days=1 if side == "after" else -1)
        part = near if near in tw.PARTS else part  # "the night before Christmas", "the morning after Halloween"
    if part == "week":  # Thanksgiving week: the Monday-to-Sunday week of the holiday
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(weeks=1), G.WEEK
    if part == "weekend":  # Memorial Day weekend: Saturday to Monday, the holiday included
        saturday = saturday_near(day, "")
        return min(day, saturday), max(day + timedelta(days=1), saturday + timedelta(days=2)), G.WEEK
    if part:
        low, high = tw.PARTS[part]
        return day + timedelta(hours=low), day + timedelta(hours=high), G.DAY
    return day, day + timedelta(days=1), G.DAY


def _holidays_ago(m: re.Match[str], c: Context) -> Span | None:
    """ "two Christmases ago": counting back from the latest one strictly before the anchor's day (one ago)."""
    n, _, fuzzy = tw.count(m["n"])
    if fuzzy or n < 1:
        return None
    when = HOLIDAYS[next(key for key in HOLIDAYS if m[key])][1]
    today = c.day.date()
    last = next(day for day in (when(c.anchor.year), when(c.anchor.year - 1)) if day < today)
    found = when(last.year - (n - 1))
    day = c.day.replace(year=found.year, month=found.month, day=found.day)
    return day, day + timedelta(days=1), G.DAY


_AGO_PATTERN = rf"\b(?P<n>{tw.NUM})\s+(?:{_NAMES})(?:e?s)?\s+ago\b"
RULES: tuple[tw.RuleEntry, ...] = ((_PATTERN, _holiday, _NEEDS), (_AGO_PATTERN, _holidays_ago, r" ago"))


def holiday_dates(year: int) -> dict[str, datetime]:
    """Every known holiday of ``year`` at midnight (for tests and reports)."""
    return {key: datetime.combine(when(year), datetime.min.time()) for key, (_, when) in HOLIDAYS.items()}
