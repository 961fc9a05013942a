"""A second, hand-resolved table of time phrases, written from English temporal grammar rather than our rules.

Sources for what to cover and how to read it: the TimeML/TIMEX3 annotation guidelines and TIDES TIMEX2 standard
(relative expressions resolve against the document time; "early/mid/late", "the beginning/middle/end of" are the
TIMEX3 modifiers START/MID/END of the period they modify), HeidelTime's English resources (``repattern/reUnit.txt``
lists the units up to decades and centuries; ``normalization/normPartWords.txt`` the part words;
``normHolidayFix.txt``/``normHolidayVar.txt`` fixed holidays, Easter offsets and nth-weekday holidays;
``rules/daterules.txt`` "N units ago" as the unit N back, decades as 199X), and SUTime's ``english.sutime.txt``
(FORTNIGHT = two weeks, DECADE, "the first/second half of", "the Nth week|weekday of") and
``english.holidays.sutime.txt`` (the US holidays). Where those leave a choice open, this table fixes it:

* Intervals are [start, end) at the granularity of the unit the phrase names (a calendar decade is ten YEARs).
* "the week/month/year/decade before last" = the calendar unit two back; "after next" two ahead; "the Friday before
  last" one week before last Friday; "Friday after next" one week after next Friday (next = the first strictly
  after the anchor's day); "the March/summer/Christmas before last" one year before the last one.
* Parts (START/MID/END): a week Mon-Tue / Wed-Thu / Fri-Sun, a month days 1-10 / 11-20 / 21-end, a season its
  first/second/third month, a year Jan-Apr / May-Aug / Sep-Dec, a decade years 0-3 / 4-6 / 7-9, a century years
  0-32 / 33-65 / 66-99; halves split evenly.
* "the 1990s" / "the '90s" / "the nineties" is a decade (two digits: the latest begun by the anchor's year); "the
  1900s" a century once that century is over (SUTime reads XX00s as a century), "the 2000s" in 2023 the decade.
* Ordinals: the Nth weekday or weekend (from its Saturday) of a month; weeks are 7-day blocks from the 1st.
* Fractions are counted in the next finer unit, and resolve to the finer unit containing the point: "half a year ago"
  is the month six months back, "an hour and a half ago" the hour containing anchor - 90 minutes.
* A fortnight is two weeks (so "a fortnight ago" is the week containing anchor - 14 days); "a decade ago" is the
  calendar decade containing anchor - 10 years; "over the past decade" the ten years before the anchor.
* Holidays (US observances): the latest on or before the anchor's day, or the first on or after it in a future
  context; "last/next X" strictly before/after; "X weekend" the Saturday-Sunday touching the holiday, holiday included.
* A day of the month alone ("on the 21st") is the latest such day on or before the anchor's day, in a future context
  the first on or after (months without that day are skipped).
* Tense sets direction: a present-tense copula right before the expression ("the recital is on June 9th") reads it
  ahead, "was/were" right before it reads it back; "next to" is not "next".

The expected values were worked out by hand from printed calendars, not by running the parser. Row format and
scoring: :mod:`sodamem.bench.timeparse_eval`.
"""

from __future__ import annotations

Row = tuple[str, str, str | None, str | None, str | None]

MON = "2023-05-08T13:56:00"  # Monday
LEAP_FRI = "2024-03-01T09:00:00"  # Friday after a leap February
DEC_WED = "2023-12-20T10:00:00"  # Wednesday before Christmas
NOV_SUN = "2022-11-27T20:00:00"  # Sunday after Thanksgiving (Nov 24, 2022)
APR_THU = "2025-04-17T12:00:00"  # Thursday before Easter (Apr 20, 2025)
NYE = "2024-12-31T23:30:00"  # Tuesday, New Year's Eve
JAN_WED = "2024-01-10T08:00:00"  # Wednesday

ROWS: list[Row] = [
    # --- before last / after next, on any unit
    ("We went camping the week before last.", MON, "2023-04-24", "2023-05-01", "week"),
    ("My cousin visits the month after next.", MON, "2023-07-01", "2023-08-01", "month"),
    ("I changed careers the year before last.", MON, "2021-01-01", "2022-01-01", "year"),
    ("The renovation finishes the year after next.", DEC_WED, "2025-01-01", "2026-01-01", "year"),
    ("We hiked the weekend before last.", DEC_WED, "2023-12-09", "2023-12-11", "week"),
    ("I saw him the Friday before last.", MON, "2023-04-28", "2023-04-29", "day"),
    ("Let's meet Friday after next.", MON, "2023-05-19", "2023-05-20", "day"),
    ("We leave on Tuesday after next.", DEC_WED, "2024-01-02", "2024-01-03", "day"),
    ("It snowed the night before last.", LEAP_FRI, "2024-02-28T18:00", "2024-02-29T06:00", "day"),
    ("We rented a cabin the summer before last.", MON, "2021-06-01", "2021-09-01", "season"),
    ("I ran the marathon the March before last.", MON, "2022-03-01", "2022-04-01", "month"),
    ("The decade before last was wild.", DEC_WED, "2000-01-01", "2010-01-01", "year"),
    ("We're moving the week after next.", LEAP_FRI, "2024-03-11", "2024-03-18", "week"),
    ("I got promoted the month before last.", LEAP_FRI, "2024-01-01", "2024-02-01", "month"),
    ("The party is this coming Friday.", MON, "2023-05-12", "2023-05-13", "day"),
    ("I sat next to Mia last Friday.", MON, "2023-05-05", "2023-05-06", "day"),
    # --- ordinals inside a month or year
    ("The test is on the next-to-last Friday of June.", MON, "2023-06-23", "2023-06-24", "day"),
    ("We met on the first Monday of March.", LEAP_FRI, "2023-03-06", "2023-03-07", "day"),
    ("The last weekend of August was hot.", MON, "2022-08-27", "2022-08-29", "week"),
    ("Rent is due on the last day of the month.", MON, "2023-05-31", "2023-06-01", "day"),
    ("I'm off the second week of next month.", MON, "2023-06-08", "2023-06-15", "week"),
    ("We got married on the third Saturday of June 2019.", MON, "2019-06-15", "2019-06-16", "day"),
    ("The first week of the year was slow.", DEC_WED, "2023-01-01", "2023-01-08", "week"),
    ("We camp the first weekend of next month.", MON, "2023-06-03", "2023-06-05", "week"),
    # --- early / mid / late, beginning / middle / end, halves
    ("We moved early last year.", MON, "2022-01-01", "2022-05-01", "year"),
    ("The contract ends late next month.", MON, "2023-06-21", "2023-07-01", "month"),
    ("Prices rose in mid-2022.", DEC_WED, "2022-05-01", "2022-09-01", "year"),
    ("She started in the middle of last month.", LEAP_FRI, "2024-02-11", "2024-02-21", "month"),
    ("I'll finish by the end of the year.", MON, "2023-09-01", "2024-01-01", "year"),
    ("We bought the house at the beginning of 2020.", MON, "2020-01-01", "2020-05-01", "year"),
    ("It rained a lot in late March.", MON, "2023-03-21", "2023-04-01", "month"),
    ("I was in Lisbon at the end of June.", MON, "2022-06-21", "2022-07-01", "month"),
    ("The project kicks off early next week.", DEC_WED, "2023-12-25", "2023-12-27", "week"),
    ("We traveled in the first half of last year.", DEC_WED, "2022-01-01", "2022-07-01", "year"),
    ("I got my dog in early summer 2021.", MON, "2021-06-01", "2021-07-01", "season"),
    ("I lived there in the late 1990s.", MON, "1997-01-01", "2000-01-01", "year"),
    ("I was late last week.", MON, "2023-05-01", "2023-05-08", "week"),
    # --- a day of the month alone, by tense
    ("I paid the rent on the 3rd.", MON, "2023-05-03", "2023-05-04", "day"),
    ("We had the meeting on the 21st.", MON, "2023-04-21", "2023-04-22", "day"),
    ("The package will arrive on the 21st.", MON, "2023-05-21", "2023-05-22", "day"),
    ("My birthday is on the 31st.", LEAP_FRI, "2024-03-31", "2024-04-01", "day"),
    ("I called her on the 31st.", MON, "2023-03-31", "2023-04-01", "day"),
    ("Let's meet on the 3rd of next month.", MON, "2023-06-03", "2023-06-04", "day"),
    ("It's on the 14th.", MON, "2023-05-14", "2023-05-15", "day"),
    # --- holidays: fixed dates
    ("We had a big dinner on Christmas Eve.", DEC_WED, "2022-12-24", "2022-12-25", "day"),
    ("We'll be at my parents' for Christmas.", DEC_WED, "2023-12-25", "2023-12-26", "day"),
    ("Halloween was a blast.", MON, "2022-10-31", "2022-11-01", "day"),
    ("What did you do on New Year's Eve?", LEAP_FRI, "2023-12-31", "2024-01-01", "day"),
    ("On New Year's Day we went swimming.", JAN_WED, "2024-01-01", "2024-01-02", "day"),
    ("I proposed on Valentine's Day.", MON, "2023-02-14", "2023-02-15", "day"),
    ("We watched fireworks on the Fourth of July.", MON, "2022-07-04", "2022-07-05", "day"),
    ("We're going to a barbecue on Independence Day.", MON, "2023-07-04", "2023-07-05", "day"),
    ("We wore green on St. Patrick's Day.", MON, "2023-03-17", "2023-03-18", "day"),
    ("I went skating on Christmas morning.", NYE, "2024-12-25T06:00", "2024-12-25T12:00", "day"),
    ("We adopted the cat the Christmas before last.", NYE, "2023-12-25", "2023-12-26", "day"),
    ("We were exhausted the day before Christmas.", DEC_WED, "2022-12-24", "2022-12-25", "day"),
    ("I've been sober since Halloween.", MON, "2022-10-31", MON, "day"),
    # --- holidays: Easter (computus) and nth weekdays
    ("I flew home for Thanksgiving.", DEC_WED, "2023-11-23", "2023-11-24", "day"),
    ("Next Thanksgiving we host.", NOV_SUN, "2023-11-23", "2023-11-24", "day"),
    ("Last Thanksgiving was chaotic.", NOV_SUN, "2022-11-24", "2022-11-25", "day"),
    ("Thanksgiving 2021 was quiet.", MON, "2021-11-25", "2021-11-26", "day"),
    ("My flight is the day after Thanksgiving.", MON, "2023-11-24", "2023-11-25", "day"),
    ("We painted eggs at Easter.", APR_THU, "2024-03-31", "2024-04-01", "day"),
    ("We're visiting grandma this Easter.", APR_THU, "2025-04-20", "2025-04-21", "day"),
    ("The shop will close on Good Friday.", APR_THU, "2025-04-18", "2025-04-19", "day"),
    ("Easter 2019 was rainy.", MON, "2019-04-21", "2019-04-22", "day"),
    ("We got engaged on Easter Sunday 2008.", MON, "2008-03-23", "2008-03-24", "day"),
    ("I called my mom on Mother's Day.", MON, "2022-05-08", "2022-05-09", "day"),
    ("We had brunch on Mother's Day 2024.", MON, "2024-05-12", "2024-05-13", "day"),
    ("We will grill for Father's Day.", MON, "2023-06-18", "2023-06-19", "day"),
    ("The pool opened on Memorial Day.", DEC_WED, "2023-05-29", "2023-05-30", "day"),
    ("We opened the pool on Memorial Day 2024.", MON, "2024-05-27", "2024-05-28", "day"),
    ("We went to the lake over Labor Day weekend.", DEC_WED, "2023-09-02", "2023-09-05", "week"),
    ("Labor Day 2024 was sunny.", MON, "2024-09-02", "2024-09-03", "day"),
    # --- fortnight and decade
    ("I saw the doctor a fortnight ago.", MON, "2023-04-24", "2023-05-01", "week"),
    ("The results come in a fortnight.", LEAP_FRI, "2024-03-11", "2024-03-18", "week"),
    ("I've known her for a fortnight.", MON, "2023-04-24T13:56", MON, "week"),
    ("We moved here a decade ago.", MON, "2010-01-01", "2020-01-01", "year"),
    ("Two decades ago I lived in Oslo.", DEC_WED, "2000-01-01", "2010-01-01", "year"),
    ("Things changed a lot last decade.", MON, "2010-01-01", "2020-01-01", "year"),
    ("Prices doubled over the past decade.", MON, "2013-05-08T13:56", MON, "year"),
    ("Let's revisit this in a decade.", MON, "2030-01-01", "2040-01-01", "year"),
    # --- fractions
    ("I quit smoking half a year ago.", MON, "2022-11-01", "2022-12-01", "month"),
    ("We broke up a year and a half ago.", MON, "2021-11-01", "2021-12-01", "month"),
    ("I started learning piano two and a half years ago.", LEAP_FRI, "2021-09-01", "2021-10-01", "month"),
    ("Dinner is ready in half an hour.", MON, "2023-05-08T14:00", "2023-05-08T15:00", "instant"),
    ("He called an hour and a half ago.", MON, "2023-05-08T12:00", "2023-05-08T13:00", "instant"),
    ("I've lived here for a year and a half.", MON, "2021-11-08T13:56", MON, "month"),
    ("We've been dating for 1.5 years.", LEAP_FRI, "2022-09-01T09:00", LEAP_FRI, "month"),
    ("I moved out one and a half months ago.", MON, "2023-03-20", "2023-03-27", "week"),
    ("It happened three and a half weeks ago.", MON, "2023-04-14", "2023-04-15", "day"),
    # --- numbers written as words, vague counts
    ("I retired twenty-five years ago.", NYE, "1999-01-01", "2000-01-01", "year"),
    ("My grandpa emigrated sixty years ago.", MON, "1963-01-01", "1964-01-01", "year"),
    ("We met three weeks ago.", DEC_WED, "2023-11-27", "2023-12-04", "week"),
    ("She moved a couple of weeks ago.", MON, "2023-04-17", "2023-05-08", "vague"),
    ("I went to Japan a few years ago.", DEC_WED, "2019-01-01", "2022-01-01", "vague"),
    # --- decades
    ("My parents met in the 1980s.", MON, "1980-01-01", "1990-01-01", "year"),
    ("Music was better in the nineties.", MON, "1990-01-01", "2000-01-01", "year"),
    ("She was a teen in the early 2000s.", MON, "2000-01-01", "2004-01-01", "year"),
    ("We lived there in the '70s.", MON, "1970-01-01", "1980-01-01", "year"),
    ("I found a book from the 1900s.", MON, "1900-01-01", "2000-01-01", "year"),
    ("The house was built in the early 1900s.", MON, "1900-01-01", "1933-01-01", "year"),
    # --- tense decides the direction
    ("The recital is on June 9th.", MON, "2023-06-09", "2023-06-10", "day"),
    ("I went there on June 9th.", MON, "2022-06-09", "2022-06-10", "day"),
    ("Our anniversary is in March.", MON, "2024-03-01", "2024-04-01", "month"),
    ("The party is on Saturday.", MON, "2023-05-13", "2023-05-14", "day"),
    ("The party was on Saturday.", MON, "2023-05-06", "2023-05-07", "day"),
    ("I'll tell you what happened; it was on Friday.", MON, "2023-05-05", "2023-05-06", "day"),
    ("Her graduation is June 2nd.", DEC_WED, "2024-06-02", "2024-06-03", "day"),
    ("I have a half day tomorrow.", MON, "2023-05-09", "2023-05-10", "day"),
    # --- no time expression
    ("I'm on the 3rd floor.", MON, None, None, None),
    ("Thanksgiving dinner was at my aunt's.", MON, None, None, None),
    ("We decorated the Christmas tree.", MON, None, None, None),
    ("I read the first half of the book.", MON, None, None, None),
    ("We stayed up late.", MON, None, None, None),
    ("She finished second to last in the race.", MON, None, None, None),
]
