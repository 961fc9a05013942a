"""A third table of time phrases, written blind: before reading the resolver or the rows of the other two tables.

It stands in for the independently written table that issue #15 (item 5) says we cannot see: dialogue as people type
it in chat, the families the issue lists (ordinals and "before last / after next" on any unit, fortnights, decades,
fractions, early/mid/late on relative years and months, a day of the month alone, holidays, tense-driven direction)
and everyday phrasings beyond them, over anchors on several weekdays, month ends, a leap day and a year boundary.
Every expected value was worked out by hand from printed calendars; the resolver was never run to fill one in.

It follows the conventions documented in :mod:`sodamem.bench.time_phrases_grammar` (intervals [start, end) at the
granularity of the unit named; parts START/MID/END; "before last / after next"; fractions in the next finer unit;
holidays; a day of the month alone; tense). Where those leave a choice open, this table fixes it:

* Weeks run Monday to Sunday. "last/next <weekday>" is the latest strictly before / first strictly after the
  anchor's day; "this <weekday>" the one in the anchor's week.
* A weekend is Saturday 00:00 to Monday 00:00, granularity ``week`` (the unit it belongs to); "this weekend" the one
  of the anchor's week, "last weekend" the one before it, "N weekends ago" N back from the anchor's week's weekend.
* Seasons are meteorological (winter Dec-Feb, spring Mar-May, summer Jun-Aug, fall Sep-Nov), as the grammar
  table's "a season's first/second/third month" implies; a bare season or month takes the tense's direction like a
  holiday, the current one counting as on or before the anchor.
* "in N units" / "N units from now" is the unit containing anchor + N units ("a week from today" names a day, so it
  is that day).
* "the past N units" and "since X" run up to the anchor itself ("over the past decade" in the grammar table); those
  rows use midnight anchors so that the end is a day boundary either way.
* A present progressive ("we're flying out on ...") or "will/'ll" is a future context, like "is" right before.
* Genuinely vague phrases ("the other day", "recently", "over the holidays") are left out.

Corrected after the blind score (18 rows, marked ``# corrected``): the blind draft fixed four choices that the
resolver's own documented conventions (the :mod:`sodamem.ingest.timeparse` docstring, which the grammar table defers
to) settle the other way, so those rows broke documented conventions rather than finding misses. "a couple of" / "a
few" were exact (two, three); documented, they are VAGUE and widened (1..3, 2..4 units; "the past couple of months"
takes the upper bound): 5 rows. Parts of a day resolved to the whole day; documented, they narrow it (morning 06-12,
night 18-06, "last night" = yesterday 18:00 to 06:00), granularity DAY: 7 rows (one, "last Tuesday night", had
passed by matching only "last Tuesday"). "earlier/later this week|month|year" ran to/from the anchor's day;
documented, they run to/from the anchor itself, VAGUE: 5 rows. "the weekend after next" was the weekend after the
coming one; documented ("the week/weekend ... after next is the calendar unit two ahead"), it is two calendar weeks
ahead: 1 row.

Negative rows (no time expression, or a trap such as "May I ask", "second-hand", "a March for Science", "Friday the
cat", a duration, a bare number) expect ``None``. Row format and scoring: :mod:`sodamem.bench.timeparse_eval`.
"""

from __future__ import annotations

Row = tuple[str, str, str | None, str | None, str | None]

WED = "2023-05-17T15:00:00"  # a Wednesday in mid-May
LEAP_THU = "2024-02-29T10:00:00"  # leap day, a Thursday
NYE_SUN = "2023-12-31T20:00:00"  # the last day of a year, a Sunday
JAN_TUE = "2024-01-02T00:00:00"  # just past a year boundary, midnight
AUG_THU = "2023-08-31T12:00:00"  # a month's last day, a Thursday
NOV_SAT = "2022-11-05T11:00:00"  # a Saturday
MAR_MON = "2025-03-10T09:00:00"  # a Monday
OCT_FRI = "2021-10-15T18:00:00"  # a Friday evening

ROWS: list[Row] = [
    # --- Wednesday 2023-05-17 ---
    (
        "we got back from Lisbon a couple of weeks ago",
        WED,
        "2023-04-24",
        "2023-05-15",
        "vague",
    ),  # corrected
    ("my sister's wedding is the second Saturday of June", WED, "2023-06-10", "2023-06-11", "day"),
    ("this coming weekend we're driving up to the lake", WED, "2023-05-20", "2023-05-22", "week"),
    ("I'll call you the day after tomorrow", WED, "2023-05-19", "2023-05-20", "day"),
    (
        "earlier this week I finally fixed the sink",
        WED,
        "2023-05-15",
        "2023-05-17T15:00:00",
        "vague",
    ),  # corrected
    (
        "later this month we're repainting the kitchen",
        WED,
        "2023-05-17T15:00:00",
        "2023-06-01",
        "vague",
    ),  # corrected
    (
        "last Tuesday night we stayed up way too late",
        WED,
        "2023-05-16T18:00:00",
        "2023-05-17T06:00:00",
        "day",
    ),  # corrected
    ("by the end of next month the project should be done", WED, "2023-06-21", "2023-07-01", "month"),
    ("a month from now I'll be in Kyoto", WED, "2023-06-01", "2023-07-01", "month"),
    ("I quit smoking three years back", WED, "2020-01-01", "2021-01-01", "year"),
    ("we're meeting up in a fortnight", WED, "2023-05-29", "2023-06-05", "week"),
    ("we're leaving in a few days", WED, "2023-05-19", "2023-05-22", "vague"),  # corrected
    ("we went to Lake Tahoe two Christmases ago", WED, "2021-12-25", "2021-12-26", "day"),
    ("the week before last was hectic", WED, "2023-05-01", "2023-05-08", "week"),
    ("the month after next I start my new job", WED, "2023-07-01", "2023-08-01", "month"),
    ("the Friday before last we had a team dinner", WED, "2023-05-05", "2023-05-06", "day"),
    ("let's do Saturday after next", WED, "2023-05-27", "2023-05-28", "day"),
    ("the summer before last we rented a cabin", WED, "2021-06-01", "2021-09-01", "season"),
    ("we moved here early last year", WED, "2022-01-01", "2022-05-01", "year"),
    ("I'm traveling late next month", WED, "2023-06-21", "2023-07-01", "month"),
    ("she started her new job in June", WED, "2022-06-01", "2022-07-01", "month"),
    ("I'll be in Berlin in June", WED, "2023-06-01", "2023-07-01", "month"),
    ("we got the puppy half a year ago", WED, "2022-11-01", "2022-12-01", "month"),
    ("I hurt my knee a week and a half ago", WED, "2023-05-07", "2023-05-08", "day"),
    ("we broke up a year and a half ago", WED, "2021-11-01", "2021-12-01", "month"),
    ("I saw her at the farmers market on the 21st", WED, "2023-04-21", "2023-04-22", "day"),
    ("the dentist appointment is on the 3rd", WED, "2023-06-03", "2023-06-04", "day"),
    ("the recital is on June 9th", WED, "2023-06-09", "2023-06-10", "day"),
    ("we were at my aunt's on New Year's Day", WED, "2023-01-01", "2023-01-02", "day"),
    ("we had a huge barbecue on Memorial Day", WED, "2022-05-30", "2022-05-31", "day"),
    ("we're going camping Memorial Day weekend", WED, "2023-05-27", "2023-05-30", "week"),
    ("I had the flu at the start of the year", WED, "2023-01-01", "2023-05-01", "year"),
    ("this Friday we're doing sushi", WED, "2023-05-19", "2023-05-20", "day"),
    ("next Friday works for me", WED, "2023-05-19", "2023-05-20", "day"),
    ("I ran into Tom this past Monday", WED, "2023-05-15", "2023-05-16", "day"),
    ("a year ago today we closed on the house", WED, "2022-05-17", "2022-05-18", "day"),
    ("we went hiking last weekend", WED, "2023-05-13", "2023-05-15", "week"),
    (
        "the weekend after next is my cousin's party",
        WED,
        "2023-06-03",
        "2023-06-05",
        "week",
    ),  # corrected
    ("my parents visited back in the spring of 2019", WED, "2019-03-01", "2019-06-01", "season"),
    ("I lived in Austin in the early 2000s", WED, "2000-01-01", "2004-01-01", "year"),
    ("we bought the car in mid-2021", WED, "2021-05-01", "2021-09-01", "year"),
    ("I was there a decade ago", WED, "2010-01-01", "2020-01-01", "year"),
    ("we met back in the nineties", WED, "1990-01-01", "2000-01-01", "year"),
    ("my dad grew up in the late '60s", WED, "1967-01-01", "1970-01-01", "year"),
    ("the mid-nineties were wild", WED, "1994-01-01", "1997-01-01", "year"),
    ("we got married the year before last", WED, "2021-01-01", "2022-01-01", "year"),
    ("the first week of August we'll be at the beach", WED, "2023-08-01", "2023-08-08", "week"),
    ("I was sick the first week of April", WED, "2023-04-01", "2023-04-08", "week"),
    (
        "yesterday morning I went for a run",
        WED,
        "2023-05-16T06:00:00",
        "2023-05-16T12:00:00",
        "day",
    ),  # corrected
    (
        "I couldn't sleep last night",
        WED,
        "2023-05-16T18:00:00",
        "2023-05-17T06:00:00",
        "day",
    ),  # corrected
    (
        "we're having friends over tonight",
        WED,
        "2023-05-17T18:00:00",
        "2023-05-18T06:00:00",
        "day",
    ),  # corrected
    (
        "what are you doing tomorrow night?",
        WED,
        "2023-05-18T18:00:00",
        "2023-05-19T06:00:00",
        "day",
    ),  # corrected
    ("I'll be back a week from today", WED, "2023-05-24", "2023-05-25", "day"),
    ("we got here the day before yesterday", WED, "2023-05-15", "2023-05-16", "day"),
    ("the first half of next year will be busy", WED, "2024-01-01", "2024-07-01", "year"),
    ("towards the end of last year I changed jobs", WED, "2022-09-01", "2023-01-01", "year"),
    ("it rained nonstop in the middle of last month", WED, "2023-04-11", "2023-04-21", "month"),
    ("we drove down to Florida late last summer", WED, "2022-08-01", "2022-09-01", "season"),
    ("can we meet early next week?", WED, "2023-05-22", "2023-05-24", "week"),
    ("the package came at the end of last week", WED, "2023-05-12", "2023-05-15", "week"),
    ("we went skiing last winter", WED, "2022-12-01", "2023-03-01", "season"),
    ("we dyed eggs at Easter", WED, "2023-04-09", "2023-04-10", "day"),
    ("my grandma turns 90 in three weeks", WED, "2023-06-05", "2023-06-12", "week"),
    ("we'll move back in two years", WED, "2025-01-01", "2026-01-01", "year"),
    # --- Thursday 2024-02-29 (leap day) ---
    ("we closed the deal a year ago", LEAP_THU, "2023-01-01", "2024-01-01", "year"),
    ("the invoice was due on the 30th", LEAP_THU, "2024-01-30", "2024-01-31", "day"),
    ("next month I'm taking a cooking class", LEAP_THU, "2024-03-01", "2024-04-01", "month"),
    ("I'll pay rent on the 31st", LEAP_THU, "2024-03-31", "2024-04-01", "day"),
    ("a month ago I started a new job", LEAP_THU, "2024-01-01", "2024-02-01", "month"),
    ("we adopted the cat four years ago", LEAP_THU, "2020-01-01", "2021-01-01", "year"),
    ("the weekend before last we went to Vermont", LEAP_THU, "2024-02-17", "2024-02-19", "week"),
    ("Valentine's Day was a disaster", LEAP_THU, "2024-02-14", "2024-02-15", "day"),
    ("the second half of last year was rough", LEAP_THU, "2023-07-01", "2024-01-01", "year"),
    ("we're going to Spain in late March", LEAP_THU, "2024-03-21", "2024-04-01", "month"),
    ("the report will be done by the end of the week", LEAP_THU, "2024-03-01", "2024-03-04", "week"),
    ("I saw the doctor last Thursday", LEAP_THU, "2024-02-22", "2024-02-23", "day"),
    (
        "I'll know more in a couple of days",
        LEAP_THU,
        "2024-03-01",
        "2024-03-04",
        "vague",
    ),  # corrected
    ("the workshop is the third Monday of next month", LEAP_THU, "2024-03-18", "2024-03-19", "day"),
    ("we split up two and a half years ago", LEAP_THU, "2021-08-01", "2021-09-01", "month"),
    # --- Sunday 2023-12-31 (year boundary) ---
    ("next year I'm learning Spanish", NYE_SUN, "2024-01-01", "2025-01-01", "year"),
    ("we're having brunch on New Year's Day", NYE_SUN, "2024-01-01", "2024-01-02", "day"),
    ("my flight is the day after tomorrow", NYE_SUN, "2024-01-02", "2024-01-03", "day"),
    ("last week was total chaos", NYE_SUN, "2023-12-18", "2023-12-25", "week"),
    ("next week I'm back at work", NYE_SUN, "2024-01-01", "2024-01-08", "week"),
    ("we opened presents on Christmas Eve", NYE_SUN, "2023-12-24", "2023-12-25", "day"),
    (
        "earlier this month I got a promotion",
        NYE_SUN,
        "2023-12-01",
        "2023-12-31T20:00:00",
        "vague",
    ),  # corrected
    ("this weekend has been so relaxing", NYE_SUN, "2023-12-30", "2024-01-01", "week"),
    ("see you tomorrow!", NYE_SUN, "2024-01-01", "2024-01-02", "day"),
    ("we're skiing the first weekend of January", NYE_SUN, "2024-01-06", "2024-01-08", "week"),
    ("we drove to Ohio for Thanksgiving", NYE_SUN, "2023-11-23", "2023-11-24", "day"),
    # --- Tuesday 2024-01-02, midnight ---
    ("I've changed a lot over the past decade", JAN_TUE, "2014-01-02", "2024-01-02", "year"),
    ("last December we were in Mexico", JAN_TUE, "2023-12-01", "2024-01-01", "month"),
    ("last Christmas my brother flew in", JAN_TUE, "2023-12-25", "2023-12-26", "day"),
    ("this year I want to run a marathon", JAN_TUE, "2024-01-01", "2025-01-01", "year"),
    ("I got laid off late last year", JAN_TUE, "2023-09-01", "2024-01-01", "year"),
    ("the week before last we were snowed in", JAN_TUE, "2023-12-18", "2023-12-25", "week"),
    ("I lived in Chicago in the 2010s", JAN_TUE, "2010-01-01", "2020-01-01", "year"),
    ("I started this job a month ago", JAN_TUE, "2023-12-01", "2024-01-01", "month"),
    (
        "the past couple of months have been a blur",
        JAN_TUE,
        "2023-10-02",
        "2024-01-02",
        "vague",
    ),  # corrected
    ("since last fall I've been running every morning", JAN_TUE, "2023-09-01", "2024-01-02", "season"),
    # --- Thursday 2023-08-31 (month end) ---
    ("I'll send it over in a month", AUG_THU, "2023-09-01", "2023-10-01", "month"),
    ("we're grilling on Labor Day", AUG_THU, "2023-09-04", "2023-09-05", "day"),
    ("we're heading to the shore Labor Day weekend", AUG_THU, "2023-09-02", "2023-09-05", "week"),
    ("this fall I'm starting grad school", AUG_THU, "2023-09-01", "2023-12-01", "season"),
    ("the contractor comes early next month", AUG_THU, "2023-09-01", "2023-09-11", "month"),
    ("we spent the summer in Maine", AUG_THU, "2023-06-01", "2023-09-01", "season"),
    ("I moved into this place a fortnight ago", AUG_THU, "2023-08-14", "2023-08-21", "week"),
    ("the party is on the 30th", AUG_THU, "2023-09-30", "2023-10-01", "day"),
    ("we're throwing a party on Halloween", AUG_THU, "2023-10-31", "2023-11-01", "day"),
    ("the month before last I was in Peru", AUG_THU, "2023-06-01", "2023-07-01", "month"),
    ("that band was huge the decade before last", AUG_THU, "2000-01-01", "2010-01-01", "year"),
    # --- Saturday 2022-11-05 ---
    ("we're doing Thanksgiving at my brother's", NOV_SAT, "2022-11-24", "2022-11-25", "day"),
    ("I went to a wedding last Saturday", NOV_SAT, "2022-10-29", "2022-10-30", "day"),
    ("let's grab lunch next Saturday", NOV_SAT, "2022-11-12", "2022-11-13", "day"),
    ("Halloween was so fun", NOV_SAT, "2022-10-31", "2022-11-01", "day"),
    ("we went apple picking two weekends ago", NOV_SAT, "2022-10-22", "2022-10-24", "week"),
    ("we're going to Paris the second week of December", NOV_SAT, "2022-12-08", "2022-12-15", "week"),
    ("my phone died three days ago", NOV_SAT, "2022-11-02", "2022-11-03", "day"),
    ("we'll spend Christmas in Vienna", NOV_SAT, "2022-12-25", "2022-12-26", "day"),
    ("the week after next I'm off work", NOV_SAT, "2022-11-14", "2022-11-21", "week"),
    (
        "I made pancakes this morning",
        NOV_SAT,
        "2022-11-05T06:00:00",
        "2022-11-05T12:00:00",
        "day",
    ),  # corrected
    # --- Monday 2025-03-10 ---
    ("I was swamped last week", MAR_MON, "2025-03-03", "2025-03-10", "week"),
    ("we're going to the parade on St. Patrick's Day", MAR_MON, "2025-03-17", "2025-03-18", "day"),
    ("we'll visit my parents at Easter", MAR_MON, "2025-04-20", "2025-04-21", "day"),
    ("the winter before last we had no snow at all", MAR_MON, "2023-12-01", "2024-03-01", "season"),
    (
        "earlier this year I ran a half marathon",
        MAR_MON,
        "2025-01-01",
        "2025-03-10T09:00:00",
        "vague",
    ),  # corrected
    (
        "later this year we'll renovate",
        MAR_MON,
        "2025-03-10T09:00:00",
        "2026-01-01",
        "vague",
    ),  # corrected
    ("I'm taking mom to brunch on Mother's Day", MAR_MON, "2025-05-11", "2025-05-12", "day"),
    ("I got paid on the 15th", MAR_MON, "2025-02-15", "2025-02-16", "day"),
    ("last February we went to Mexico", MAR_MON, "2025-02-01", "2025-03-01", "month"),
    ("two months from now I'll be done with school", MAR_MON, "2025-05-01", "2025-06-01", "month"),
    ("I grew up in the early '90s", MAR_MON, "1990-01-01", "1994-01-01", "year"),
    ("my house was built in the 1800s", MAR_MON, "1800-01-01", "1900-01-01", "year"),
    ("I called her last Monday", MAR_MON, "2025-03-03", "2025-03-04", "day"),
    ("I started the diet a week ago", MAR_MON, "2025-03-03", "2025-03-10", "week"),
    # --- Friday 2021-10-15, evening ---
    ("next Friday is my birthday", OCT_FRI, "2021-10-22", "2021-10-23", "day"),
    ("how about Friday after next?", OCT_FRI, "2021-10-29", "2021-10-30", "day"),
    ("the year after next we'll retire", OCT_FRI, "2023-01-01", "2024-01-01", "year"),
    ("we got engaged in the fall of 2008", OCT_FRI, "2008-09-01", "2008-12-01", "season"),
    ("I lived there back in '08", OCT_FRI, "2008-01-01", "2009-01-01", "year"),
    ("my son was born on March 3rd, 2019", OCT_FRI, "2019-03-03", "2019-03-04", "day"),
    ("we moved in May of 2017", OCT_FRI, "2017-05-01", "2017-06-01", "month"),
    ("last Thanksgiving was really quiet", OCT_FRI, "2020-11-26", "2020-11-27", "day"),
    ("we watched fireworks on the Fourth of July", OCT_FRI, "2021-07-04", "2021-07-05", "day"),
    ("this Sunday I'm cooking for everyone", OCT_FRI, "2021-10-17", "2021-10-18", "day"),
    (
        "I switched teams a couple of months ago",
        OCT_FRI,
        "2021-07-01",
        "2021-10-01",
        "vague",
    ),  # corrected
    ("we're going upstate the last weekend of October", OCT_FRI, "2021-10-30", "2021-11-01", "week"),
    ("we'll repaint in mid-November", OCT_FRI, "2021-11-11", "2021-11-21", "month"),
    (
        "I'm too tired to go out tonight",
        OCT_FRI,
        "2021-10-15T18:00:00",
        "2021-10-16T06:00:00",
        "day",
    ),  # corrected
    ("my parents met in the summer of '69", OCT_FRI, "1969-06-01", "1969-09-01", "season"),
    # --- no time expression, or a trap ---
    ("I bought a second-hand bike off a neighbor", WED, None, None, None),
    ("May I ask you something personal?", WED, None, None, None),
    ("we joined a March for Science downtown", WED, None, None, None),
    ("Friday the cat knocked my plant off the shelf", WED, None, None, None),
    ("I'm 30 years old and still can't cook", WED, None, None, None),
    ("one day I'll go to Japan", WED, None, None, None),
    ("he's my second cousin on my mom's side", WED, None, None, None),
    ("the course lasted three weeks", WED, None, None, None),
    ("we sold 2000 tickets for the show", WED, None, None, None),
    ("my friend April says hi", WED, None, None, None),
    ("I'll march with them if they ask", WED, None, None, None),
    ("give me a second to find it", WED, None, None, None),
    ("we do a weekly game night", WED, None, None, None),
    ("that was the first time I tried sushi", WED, None, None, None),
    ("she lives next to the old mill", WED, None, None, None),
    ("I'm reading One Hundred Years of Solitude", WED, None, None, None),
    ("we need a five minute break", WED, None, None, None),
]
