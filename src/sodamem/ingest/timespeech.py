"""Spoken and office phrasings for the time resolver: "same time next week", "midweek", "the run-up to Christmas",
"the other week", "next Tuesday but one", "EOD Friday", "the past two weekends" (pure, stdlib only).

* "same time <tomorrow / next week / last year ...>" is "this time <...>": the anchor's day moved so (DAY).
* "midweek" is the middle of a week, its Wednesday 00:00 to Friday 00:00 (WEEK), as "the middle of next week" is:
  "midweek next week" names the week; a bare one takes the tense's direction, this week's counting while its middle
  has not begun (ahead) or once it has ended (back). Not a noun's modifier after an article ("a midweek game").
* "the run-up / lead-up / build-up to <holiday>" is the 7 days before the holiday, [day - 7 days, day) (VAGUE).
* "the other week" is the three calendar weeks before the anchor's (VAGUE), as "the other day" is the week before
  the anchor's day.
* "next <weekday / unit> but one" (British) is "the <weekday / unit> after next".
* A deadline: "end of play / end of (the) day / EOD / COB / close of business <today / tomorrow / weekday>", or the
  day first ("Friday EOD"), is that day, a weekday the one ahead unless the clause before is in the past ("we'd
  wrapped up by close of business Friday"). "tomorrow / <weekday> first thing" is "first thing <day>".
* "earlier / later in the week / month / year / day" is "earlier / later this <unit>" ("... today"). "the other
  night / morning / evening / afternoon" is "the other day".
* A weekday after "coming", "next" or "last" (British, "Tuesday coming", "Wednesday next", "Friday last") is "this
  coming / next / last <weekday>"; not before a unit ("Tuesday next week").
* "the <week / weekend / month / year> after this" ending its sentence is "next <unit>" (before a comma "this" is
  as often an event: "the month after this, we moved").
* "end of <week / month / year>" without its article, and "EOW" / "EOM" / "EOY", are "the end of the <unit>".
* "the past / last N weekends" runs from the Saturday of the Nth latest weekend that has ended to the Monday that
  ended the latest (VAGUE: several weekends are no calendar unit); fuzzy counts take their upper bound, as other
  "the past N units" do.
"""

from __future__ import annotations

import re
from datetime import timedelta

from sodamem.ingest import timedirection, timeguards, timeholidays
from sodamem.ingest import timewords as tw
from sodamem.ingest.timewords import Context, Span
from sodamem.model import TimeGranularity

G = TimeGranularity
_F = re.IGNORECASE
_WEEKDAY = tw.alternation(tw.WEEKDAYS)
_WEEKDAY_NAMES = "monday tuesday wednesday thursday friday saturday sunday".split()

_SAME_TIME = r"\bsame\s+time\s+(?P<rest>(?:last|next)\s+(?:week|month|year)|yesterday|tomorrow)\b"


def _same_time(m: re.Match[str], c: Context) -> Span | None:
    return c.resolve("this time " + " ".join(m["rest"].split()))


_MIDWEEK = r"\bmid[\s-]?week\b(?:\s+(?P<rel>this|last|next)\s+week\b)?(?![\w-])"
_MODIFIER_BEFORE = re.compile(r"\b(?:a|an|the|my|your|his|her|our|their)\s+$", _F)


def _midweek(m: re.Match[str], c: Context) -> Span | None:
    if m["rel"]:
        return c.resolve(f"the middle of {m['rel'].lower()} week")
    if _MODIFIER_BEFORE.search(c.text, max(0, m.start() - 8), m.start()):
        return None  # "a midweek game", "the midweek special"
    wednesday = tw.floor(c.anchor, "week") + timedelta(days=2)
    if c.future:
        wednesday += timedelta(weeks=0 if c.anchor < wednesday else 1)
    else:
        wednesday -= timedelta(weeks=0 if wednesday + timedelta(days=2) <= c.anchor else 1)
    return wednesday, wednesday + timedelta(days=2), G.WEEK


_RUN_UP = rf"\b(?:the\s+)?(?:run|lead|build)[\s-]+up\s+to\s+(?P<rest>{timeholidays.NAME_ALT})\b"


def _run_up(m: re.Match[str], c: Context) -> Span | None:
    day = c.resolve("on " + m["rest"])
    if day is None or day[2] is not G.DAY:
        return None
    start = tw.floor(day[0], "day")
    return start - timedelta(days=7), start, G.VAGUE


def _other_week(m: re.Match[str], c: Context) -> Span:
    monday = tw.floor(c.anchor, "week")
    return monday - timedelta(weeks=3), monday, G.VAGUE


_BUT_ONE = rf"\bnext\s+(?P<what>week(?:end)?|month|year|{_WEEKDAY})\s+but\s+one\b"


def _but_one(m: re.Match[str], c: Context) -> Span | None:
    if timeguards.title_cased(c.text, m.start(), m.end()):
        return None  # a title: "Next Tuesday But One"
    return c.resolve(f"the {m['what'].lower()} after next")


_DEADLINE_KIND = (
    r"(?P<kind>(?:the\s+)?end\s+of\s+(?:play|(?:the\s+)?(?:business\s+)?day)|eod|e\.o\.d\.?|cob"
    r"|close\s+of\s+(?:business|play))"
)
_DEADLINE_DAY = rf"(?P<rest>today|tomorrow|{tw.alternation(tw.DAY_SPELLINGS)}|{tw.WEEKDAY_ALT})"
# "EOD Friday", "by close of business Thursday"; "Friday EOD", "tomorrow first thing" (the day first)
_DEADLINE = rf"\b(?:by\s+)?{_DEADLINE_KIND}\s+(?:on\s+)?{_DEADLINE_DAY}\b"
_DEADLINE_AFTER = rf"\b{_DEADLINE_DAY}\s+(?:by\s+)?{_DEADLINE_KIND}\b(?![.\w])"


def _deadline(m: re.Match[str], c: Context) -> Span | None:
    kind = m["kind"].lower()
    if kind == "cob" and m["kind"] != "COB":
        return None  # "corn on the cob"
    if kind.endswith("day") and _AT_BEFORE.search(c.text, max(0, m.start() - 4), m.start()):
        return None  # the idiom: "at the end of the day Friday won"
    rest = m["rest"].lower()
    weekday = tw.WEEKDAYS.get(rest, tw.WEEKDAY_ABBREVIATIONS.get(rest))
    if weekday is None:
        return c.resolve(rest)
    ahead = not timedirection.past_in_clause(c.text, m.start())
    return c.phrase_resolver("on " + _WEEKDAY_NAMES[weekday], c.anchor, ahead)


_AT_BEFORE = re.compile(r"\bat\s+$", _F)
_FIRST_THING_AFTER = rf"\b(?P<rest>today|tomorrow|{_WEEKDAY})\s+first\s+thing\b"


def _first_thing_after(m: re.Match[str], c: Context) -> Span | None:
    return c.resolve("first thing " + m["rest"])


_PAST_WEEKENDS = rf"\b(?:(?:over|in|during|for)\s+)?the\s+(?:past|last)\s+(?P<n>{tw.NUM})\s+weekends\b"


def _past_weekends(m: re.Match[str], c: Context) -> Span | None:
    _, high, _ = tw.count(m["n"])
    if high < 1:
        return None
    saturday = tw.floor(c.anchor, "week") - timedelta(days=2)  # the latest weekend that has ended
    return saturday - timedelta(weeks=high - 1), saturday + timedelta(days=2), G.VAGUE


_EDGE_IN = r"\b(?P<el>earlier|later)\s+in\s+the\s+(?P<u>day|week|month|year)\b"


def _edge_in(m: re.Match[str], c: Context) -> Span | None:
    unit, edge = m["u"].lower(), m["el"].lower()
    return c.resolve(f"{edge} today" if unit == "day" else f"{edge} this {unit}")


def _other_part(m: re.Match[str], c: Context) -> Span | None:
    return c.resolve("the other day")


# Units and parts of a day that make the word after a weekday a relative of its own: "Tuesday next week".
_POSTPOSED = rf"\b(?P<wd>{_WEEKDAY})\s+(?P<rel>coming|next|last)\b(?![\s-]+(?:to\b|{tw.UNIT}|weekend|time\b|night\b))"


def _postposed(m: re.Match[str], c: Context) -> Span | None:
    rel = {"coming": "this coming", "next": "next", "last": "last"}[m["rel"].lower()]
    return c.resolve(f"{rel} {m['wd']}")


_END_OF = r"\b(?:(?:the\s+)?end\s+of\s+(?P<u>week|month|year)|(?P<abbr>EO[WMY]))\b"


def _end_of(m: re.Match[str], c: Context) -> Span | None:
    if m["abbr"]:
        if m["abbr"] != m["abbr"].upper():
            return None  # "eom", "eow" lowercase are no reliable abbreviations
        unit = {"W": "week", "M": "month", "Y": "year"}[m["abbr"][2]]
    else:
        unit = m["u"].lower()
    return c.resolve(f"the end of the {unit}")


_AFTER_THIS = (
    r"\bthe\s+(?P<u>week(?:end)?|month|year)\s+after\s+this\b"
    r"(?=\s*(?:$|[.;!?)]|(?:and|but)\b))"  # not "the week after this happened", "the month after this, we moved"
)


def _after_this(m: re.Match[str], c: Context) -> Span | None:
    return c.resolve("next " + m["u"].lower())


# Each rule's ``needs`` starts with a literal where it can: the regex engine then skips ahead to it.
RULES: tuple[tw.RuleEntry, ...] = (
    (_SAME_TIME, _same_time, r"same\s+time\s"),
    (_MIDWEEK, _midweek, r"mid[\s-]?week"),
    (_RUN_UP, _run_up, r"up\s+to\s"),
    (r"\bthe\s+other\s+week\b", _other_week, r"other\s+week"),
    (_BUT_ONE, _but_one, r"but\s+one\b"),
    (_DEADLINE, _deadline, r"end\s+of\s+(?:play|the\s+day|day|business)|eod|e\.o\.d|cob\b|close\s+of\s"),
    (_DEADLINE_AFTER, _deadline, r"day\s+(?:by\s+)?(?:eod|e\.o\.d|cob\b|close\s+of|end\s+of)"),
    (_FIRST_THING_AFTER, _first_thing_after, r"first\s+thing\b"),
    (_PAST_WEEKENDS, _past_weekends, r"weekends"),
    (_EDGE_IN, _edge_in, r"er\s+in\s+the\s"),
    (r"\bthe\s+other\s+(?:night|morning|evening|afternoon)\b", _other_part, r"other\s+(?:n|m|e|a)"),
    (_POSTPOSED, _postposed, r"day\s+(?:coming|next|last)\b"),
    (_END_OF, _end_of, r"end\s+of\s+(?:week|month|year)|eo[wmy]\b"),
    (_AFTER_THIS, _after_this, r"after\s+this\b"),
)
# Words these rules need that the resolver's first pre-check lacks.
TRIGGER_WORDS = ("eow", "eom", "eoy")
