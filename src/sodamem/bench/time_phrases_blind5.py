"""A seventh table of time phrases, written blind: before reading the resolver or the rows of the other tables.

The fourth blind table (:mod:`sodamem.bench.time_phrases_blind4`) was fixed against after its blind score, so it no
longer stands in for the independently written table that issue #15 (item 5) holds back. This one does, until it too
is scored and fixed against. It is chat as people type it, from rule families of English temporal grammar
(TimeML/TIMEX3 guidelines, HeidelTime and SUTime English rules) that the earlier tables' docstrings do not list, or
list only in part: quarters and halves of a year ("Q3", "H2", "Q4 last year", "the first half of next year", "last
quarter"), "the tail end of" a period, decades by name and by third ("the noughties", "the early 2010s", "the late
nineties", "the mid-90s"), centuries ("the 19th century", "the 1600s"), a week on from a day ("today week", "a week
today", "Friday week", "a week on Friday"), "come <month / season>", "earlier this morning", more holidays, several
with computed dates (Pancake Day, Ash Wednesday, Palm Sunday, Maundy Thursday, Good Friday, Easter Monday, MLK Day,
Presidents' Day, Indigenous Peoples' Day, Black Friday, Boxing Day, St. Paddy's Day, April Fools' Day, Earth Day,
Cinco de Mayo, Groundhog Day, Valentine's, Bonfire Night, the 4th of July, Thanksgiving week), plan verbs deciding the
direction ("I'm flying out on the 14th", "my exam is on Thursday"), dotted day.month.year dates ("28.3.2023"), ISO
weeks ("2026-W42"), ranges of days ("from the 3rd to the 7th", "the 20th-22nd", "Mon-Wed", "Feb 8-12"), clock times
narrowing a day ("Tuesday at 9pm", "at noon tomorrow", "tonight at 8"), chat spellings and typos ("nxt wk", "2moro",
"tomoz", "this arvo", "thursdy", "tues", "Weds", "fri"), ordinal weekdays of a month, "before last" on weekdays,
weeks, weekends, months, years and seasons, fortnights and fractions ("two and a half weeks ago", "half a year
ago"); over seven anchors: a leap day, a year's last days, a Saturday, a month's last day, Holy Week, a Sunday that
ends both its week and its month, and a midnight; and traps with no time expression. Every expected value was worked
out by hand from printed calendars; the resolver was never run to fill one in.

It follows the conventions of the fourth blind table's docstring (weeks Monday to Sunday; a weekend Saturday 00:00 to
Monday 00:00 at ``week``; meteorological seasons; "N units ago" / "in N units" the unit containing anchor -/+ N
units, "... ago today" / "... from now" in days a day; last/next <weekday> strictly before/after the anchor's day;
before last / after next two calendar units away; parts of a day narrow it at ``day``, morning 06:00-12:00,
afternoon 12:00-18:00, night 18:00-06:00; "earlier this <unit>" runs to the anchor, ``vague``; early / mid / late and
beginning / end split a month into days 1-10, 11-20, 21-end and a year into four-month thirds at the period's
granularity; a bare weekday, day of the month, month, season or holiday takes the tense's direction; fractions move
the anchor in the next finer unit and name that unit; US holidays). Where those leave a choice open, this table fixes
it:

* A quarter ("Q1".."Q4", "the third quarter") is a calendar quarter (January-March, ...), a half ("H1", "H2", "the
  first / second half of <year>") January-June or July-December; both are parts of a year, so ``year``. A bare one
  takes the tense's direction, the anchor's own quarter counting as current ("the budget is due in Q4" said on 30
  September is this year's). "last quarter" is the calendar quarter before the anchor's, also ``year``.
* "the tail end of <period>" is "the end of <period>".
* A decade by name ("the noughties" 2000-2009, "the nineties", "the 2010s", "the mid-90s") is its ten years at
  ``year``; early / mid / late split it into years 0-3, 4-6 and 7-9. A century ("the 19th century", "the 1800s") is
  1800-01-01 to 1900-01-01 at ``year``.
* "today week" and "a week today" are the day a week after the anchor's day; "<weekday> week" and "a week on
  <weekday>" a week after the weekday a future sentence would name; "a fortnight ago today" the day 14 days back.
* "come <month / season>" is the next one ahead (the anchor's own if it has not begun).
* "earlier this morning" runs from 06:00 of the anchor's day to the anchor, ``vague``.
* A clock time with a day ("Tuesday at 9pm", "at noon tomorrow", "tonight at 8", "at 3pm today") narrows the day to
  that hour, [h:00, h+1:00), at ``day``; "noon" is 12:00; a bare "at 8" with "tonight" is 20:00.
* Numbers with dots are day.month.year ("28.3.2023" is 28 March), never month.day. "2026-W42" is the ISO week,
  Monday to Monday at ``week``.
* A range of days ("from the 3rd to the 7th", "the 20th-22nd", "the 5th till the 9th", "Mon-Wed", "Feb 8-12") runs
  from its first day's midnight to the midnight after its last day, at ``day``.
* Holidays: Pancake Day is Shrove Tuesday (Easter - 47 days), Ash Wednesday Easter - 46, Palm Sunday Easter - 7,
  Maundy Thursday Easter - 3, Good Friday Easter - 2, Easter Monday Easter + 1; MLK Day the third Monday of January,
  Presidents' Day the third Monday of February, Indigenous Peoples' Day Columbus Day (second Monday of October),
  Black Friday the day after Thanksgiving, "Thanksgiving week" the calendar week containing it; fixed: Groundhog Day
  2 February, Valentine's 14 February, St. Patrick's / St. Paddy's Day 17 March, April Fools' Day 1 April, Earth Day
  22 April, Cinco de Mayo 5 May, the 4th of July, Bonfire Night 5 November, Boxing Day 26 December.
* "N weeks back" / "a month back" is "N weeks ago" / "a month ago". "this arvo" is this afternoon; "tomoz" and
  "2moro" tomorrow; "nxt wk" next week; "thursdy" Thursday.
* A weekday or month used as a first name ("June said", "Wednesday Addams", "Tuesday Weld") and "Sunday school", "the
  Monday blues", "Friday Night Lights", "the Four Seasons", "Mayday", "New Year's resolutions" are no time; nor are
  section numbers ("3.4"), scores ("4.5 out of 5"), page ranges ("pages 3-7") or a bus called "W14".

Negative rows expect ``None``. Row format and scoring: :mod:`sodamem.bench.timeparse_eval`.
"""

from __future__ import annotations

Row = tuple[str, str, str | None, str | None, str | None]

LEAP = "2024-02-29T14:00:00"  # a Thursday afternoon, a leap day (week 26 February .. 3 March; Easter 31 March)
NYE = "2025-12-30T21:00:00"  # a Tuesday evening at the year's end (week 29 December .. 4 January)
SAT_JUN = "2025-06-07T11:00:00"  # a Saturday morning (week 2 .. 8 June; Easter was 20 April)
SEP30 = "2026-09-30T12:30:00"  # a Wednesday lunchtime, the last day of September (week 28 Sep .. 4 Oct)
MON_APR = "2023-04-03T09:00:00"  # a Monday morning in Holy Week (Easter 9 April); ISO week 2023-W14
SUN_JAN = "2027-01-31T18:00:00"  # a Sunday evening, the last day of its week and of January
FRI_NOV = "2024-11-15T00:00:00"  # a Friday at midnight, two weeks before Thanksgiving (28 November)

ROWS: list[Row] = [
    # --- a leap day, Thursday afternoon (week 26 February .. 3 March 2024; Easter is 31 March) ---
    ("I'm flying out on the 14th", LEAP, "2024-03-14", "2024-03-15", "day"),
    ("my exam is on Monday", LEAP, "2024-03-04", "2024-03-05", "day"),
    ("the results come out today week", LEAP, "2024-03-07", "2024-03-08", "day"),
    ("come September we'll be living in Lisbon", LEAP, "2024-09-01", "2024-10-01", "month"),
    ("the launch slipped to Q3", LEAP, "2024-07-01", "2024-10-01", "year"),
    ("we're aiming for the first half of next year", LEAP, "2025-01-01", "2025-07-01", "year"),
    ("I ran into her earlier this morning", LEAP, "2024-02-29T06:00:00", "2024-02-29T14:00:00", "vague"),
    ("we got engaged four years ago today", LEAP, "2020-02-29", "2020-03-01", "day"),
    ("Q4 last year was brutal for us", LEAP, "2023-10-01", "2024-01-01", "year"),
    ("things got crazy at the tail end of last month", LEAP, "2024-01-21", "2024-02-01", "month"),
    ("I'm going to the parade on St. Paddy's Day", LEAP, "2024-03-17", "2024-03-18", "day"),
    ("we made crepes on Pancake Day", LEAP, "2024-02-13", "2024-02-14", "day"),
    ("we gave up sweets on Ash Wednesday", LEAP, "2024-02-14", "2024-02-15", "day"),
    ("we're off on Good Friday", LEAP, "2024-03-29", "2024-03-30", "day"),
    ("call me Tuesday at 9pm", LEAP, "2024-03-05T21:00:00", "2024-03-05T22:00:00", "day"),
    ("we're in Rome from the 3rd to the 7th of March", LEAP, "2024-03-03", "2024-03-08", "day"),
    ("we went skiing the weekend before last", LEAP, "2024-02-17", "2024-02-19", "week"),
    ("we signed the lease a fortnight ago today", LEAP, "2024-02-15", "2024-02-16", "day"),
    ("she called the Tuesday before last", LEAP, "2024-02-20", "2024-02-21", "day"),
    ("the party is on the second Tuesday of next month", LEAP, "2024-03-12", "2024-03-13", "day"),
    ("we're meeting up nxt wk", LEAP, "2024-03-04", "2024-03-11", "week"),
    ("see you 2moro", LEAP, "2024-03-01", "2024-03-02", "day"),
    ("the lease runs out on the last day of next month", LEAP, "2024-03-31", "2024-04-01", "day"),
    ("we bought the car in the second half of 2022", LEAP, "2022-07-01", "2023-01-01", "year"),
    ("the inspection is at 10am on the 4th", LEAP, "2024-03-04T10:00:00", "2024-03-04T11:00:00", "day"),
    # --- a Tuesday evening at the year's end (week 29 December 2025 .. 4 January 2026) ---
    ("see you next year!", NYE, "2026-01-01", "2027-01-01", "year"),
    ("the project wraps up in Q1", NYE, "2026-01-01", "2026-04-01", "year"),
    ("I first moved to Leeds in the noughties", NYE, "2000-01-01", "2010-01-01", "year"),
    ("we met in the early 2010s", NYE, "2010-01-01", "2014-01-01", "year"),
    ("that song was everywhere in the late nineties", NYE, "1997-01-01", "2000-01-01", "year"),
    ("the sale ends Friday week", NYE, "2026-01-09", "2026-01-10", "day"),
    ("we hit the sales on Boxing Day", NYE, "2025-12-26", "2025-12-27", "day"),
    ("we're volunteering on MLK Day", NYE, "2026-01-19", "2026-01-20", "day"),
    ("we redid the kitchen the year before last", NYE, "2023-01-01", "2024-01-01", "year"),
    ("the house was built in the 19th century", NYE, "1800-01-01", "1900-01-01", "year"),
    ("the church dates from the 1600s", NYE, "1600-01-01", "1700-01-01", "year"),
    ("we're driving up on the 2nd", NYE, "2026-01-02", "2026-01-03", "day"),
    ("my flight is on the 3rd of January", NYE, "2026-01-03", "2026-01-04", "day"),
    ("the interview is Jan 5th at 10am", NYE, "2026-01-05T10:00:00", "2026-01-05T11:00:00", "day"),
    ("see you tomoz", NYE, "2025-12-31", "2026-01-01", "day"),
    ("we're getting married in the spring of 2026", NYE, "2026-03-01", "2026-06-01", "season"),
    ("my gran passed a month ago today", NYE, "2025-11-30", "2025-12-01", "day"),
    ("I quit sugar six weeks ago", NYE, "2025-11-17", "2025-11-24", "week"),
    ("we adopted the cat two and a half weeks ago", NYE, "2025-12-13", "2025-12-14", "day"),
    ("the gym reopens Monday the 5th", NYE, "2026-01-05", "2026-01-06", "day"),
    ("we're having brunch on New Year's Day at 11am", NYE, "2026-01-01T11:00:00", "2026-01-01T12:00:00", "day"),
    ("the cabin is ours from the 2nd to the 4th", NYE, "2026-01-02", "2026-01-05", "day"),
    # --- a Saturday morning in early June (week 2 .. 8 June 2025; Easter was 20 April) ---
    ("any plans this weekend?", SAT_JUN, "2025-06-07", "2025-06-09", "week"),
    ("my exam is on Thursday", SAT_JUN, "2025-06-12", "2025-06-13", "day"),
    ("I got my results back on Tuesday", SAT_JUN, "2025-06-03", "2025-06-04", "day"),
    ("I'm off Mon-Wed next week", SAT_JUN, "2025-06-09", "2025-06-12", "day"),
    ("we're hosting a BBQ on the 4th of July", SAT_JUN, "2025-07-04", "2025-07-05", "day"),
    ("come fall I'll be in grad school", SAT_JUN, "2025-09-01", "2025-12-01", "season"),
    ("I switched jobs half a year ago", SAT_JUN, "2024-12-01", "2025-01-01", "month"),
    ("we rented a villa the summer before last", SAT_JUN, "2023-06-01", "2023-09-01", "season"),
    ("revenue dipped last quarter", SAT_JUN, "2025-01-01", "2025-04-01", "year"),
    ("tonight at 8 works for me", SAT_JUN, "2025-06-07T20:00:00", "2025-06-07T21:00:00", "day"),
    ("the show's at 7pm on Friday", SAT_JUN, "2025-06-13T19:00:00", "2025-06-13T20:00:00", "day"),
    ("the festival runs the 20th-22nd", SAT_JUN, "2025-06-20", "2025-06-23", "day"),
    ("the movers come two weeks from Monday", SAT_JUN, "2025-06-23", "2025-06-24", "day"),
    ("we're camping the weekend after next", SAT_JUN, "2025-06-21", "2025-06-23", "week"),
    ("we hunted for eggs last Easter", SAT_JUN, "2025-04-20", "2025-04-21", "day"),
    ("we went out for Cinco de Mayo", SAT_JUN, "2025-05-05", "2025-05-06", "day"),
    ("I'm seeing the dentist on Weds", SAT_JUN, "2025-06-11", "2025-06-12", "day"),
    ("the reunion is the first Saturday in July", SAT_JUN, "2025-07-05", "2025-07-06", "day"),
    ("I'll ring you Sunday morning", SAT_JUN, "2025-06-08T06:00:00", "2025-06-08T12:00:00", "day"),
    ("we closed on the house on 28.5.2025", SAT_JUN, "2025-05-28", "2025-05-29", "day"),
    ("the wedding was on Sat 31st May", SAT_JUN, "2025-05-31", "2025-06-01", "day"),
    # --- a Wednesday lunchtime, the last day of September (week 28 September .. 4 October 2026) ---
    ("we're doing Thanksgiving at ours", SEP30, "2026-11-26", "2026-11-27", "day"),
    ("I'm getting a TV on Black Friday", SEP30, "2026-11-27", "2026-11-28", "day"),
    ("the budget is due in Q4", SEP30, "2026-10-01", "2027-01-01", "year"),
    ("our H2 targets are tight", SEP30, "2026-07-01", "2027-01-01", "year"),
    ("Q3 was a great quarter", SEP30, "2026-07-01", "2026-10-01", "year"),
    ("the pop-up opens at the beginning of October", SEP30, "2026-10-01", "2026-10-11", "month"),
    ("the release is planned for 2026-W42", SEP30, "2026-10-12", "2026-10-19", "week"),
    ("the plumber comes a week on Friday", SEP30, "2026-10-09", "2026-10-10", "day"),
    ("we're off on Indigenous Peoples' Day", SEP30, "2026-10-12", "2026-10-13", "day"),
    ("I started the course three weeks back", SEP30, "2026-09-07", "2026-09-14", "week"),
    ("the contract starts 1.10.2026", SEP30, "2026-10-01", "2026-10-02", "day"),
    ("we got the keys in late Sept", SEP30, "2026-09-21", "2026-10-01", "month"),
    ("I'm away the 5th till the 9th", SEP30, "2026-10-05", "2026-10-10", "day"),
    ("the rent goes up at the end of next month", SEP30, "2026-10-21", "2026-11-01", "month"),
    ("we moved in at the tail end of August", SEP30, "2026-08-21", "2026-09-01", "month"),
    ("pick me up Thursday at noon", SEP30, "2026-10-01T12:00:00", "2026-10-01T13:00:00", "day"),
    ("does Sunday at 3pm work?", SEP30, "2026-10-04T15:00:00", "2026-10-04T16:00:00", "day"),
    ("I last saw him in the summer of '24", SEP30, "2024-06-01", "2024-09-01", "season"),
    ("we're flying to Denver on the 2nd", SEP30, "2026-10-02", "2026-10-03", "day"),
    ("the deadline's fri", SEP30, "2026-10-02", "2026-10-03", "day"),
    ("it happened on the 3rd Sunday of last month", SEP30, "2026-08-16", "2026-08-17", "day"),
    # --- a Monday morning in Holy Week (week 3 .. 9 April 2023; Easter is 9 April) ---
    ("we're back Easter Monday", MON_APR, "2023-04-10", "2023-04-11", "day"),
    ("we went to church on Palm Sunday", MON_APR, "2023-04-02", "2023-04-03", "day"),
    ("I'm working Maundy Thursday", MON_APR, "2023-04-06", "2023-04-07", "day"),
    ("the sprint covers 2023-W14", MON_APR, "2023-04-03", "2023-04-10", "week"),
    ("the invoice is dated 28.3.2023", MON_APR, "2023-03-28", "2023-03-29", "day"),
    ("she pranked me on April Fools' Day", MON_APR, "2023-04-01", "2023-04-02", "day"),
    ("sales picked up at the tail end of March", MON_APR, "2023-03-21", "2023-04-01", "month"),
    ("our Q1 numbers just came in", MON_APR, "2023-01-01", "2023-04-01", "year"),
    ("the wedding is Saturday week", MON_APR, "2023-04-15", "2023-04-16", "day"),
    ("I'll pop round this arvo", MON_APR, "2023-04-03T12:00:00", "2023-04-03T18:00:00", "day"),
    ("we split up the month before last", MON_APR, "2023-02-01", "2023-03-01", "month"),
    ("I'm in London Wed-Fri", MON_APR, "2023-04-05", "2023-04-08", "day"),
    ("lunch at noon tomorrow?", MON_APR, "2023-04-04T12:00:00", "2023-04-04T13:00:00", "day"),
    ("dinner thursdy?", MON_APR, "2023-04-06", "2023-04-07", "day"),
    ("we're planting trees on Earth Day", MON_APR, "2023-04-22", "2023-04-23", "day"),
    ("this coming Tuesday is my birthday", MON_APR, "2023-04-04", "2023-04-05", "day"),
    ("the audit is sometime in the first half of the year", MON_APR, "2023-01-01", "2023-07-01", "year"),
    ("I'm starting my new job on the 17th", MON_APR, "2023-04-17", "2023-04-18", "day"),
    ("we had a power cut on Friday night", MON_APR, "2023-03-31T18:00:00", "2023-04-01T06:00:00", "day"),
    ("I turned in my thesis last wk", MON_APR, "2023-03-27", "2023-04-03", "week"),
    # --- a Sunday evening, the last day of January and of its week (25 .. 31 January 2027) ---
    ("I start the new job next week", SUN_JAN, "2027-02-01", "2027-02-08", "week"),
    ("the party is on Groundhog Day", SUN_JAN, "2027-02-02", "2027-02-03", "day"),
    ("I'm taking her out for Valentine's", SUN_JAN, "2027-02-14", "2027-02-15", "day"),
    ("school's closed on Presidents' Day", SUN_JAN, "2027-02-15", "2027-02-16", "day"),
    ("we're skiing the first weekend in February", SUN_JAN, "2027-02-06", "2027-02-08", "week"),
    ("the call is tomorrow at 9am", SUN_JAN, "2027-02-01T09:00:00", "2027-02-01T10:00:00", "day"),
    ("I grew up in the mid-90s", SUN_JAN, "1994-01-01", "1997-01-01", "year"),
    ("the farmhouse went up in the 1800s", SUN_JAN, "1800-01-01", "1900-01-01", "year"),
    ("work was mad at the tail end of last year", SUN_JAN, "2026-09-01", "2027-01-01", "year"),
    ("I saw him a week ago Friday", SUN_JAN, "2027-01-22", "2027-01-23", "day"),
    ("rent's due on the 1st", SUN_JAN, "2027-02-01", "2027-02-02", "day"),
    ("we had a quiet New Year's Day", SUN_JAN, "2027-01-01", "2027-01-02", "day"),
    ("let's do Tues-Thurs next week", SUN_JAN, "2027-02-02", "2027-02-05", "day"),
    ("the course runs Feb 8-12", SUN_JAN, "2027-02-08", "2027-02-13", "day"),
    ("I'll be there Mon at 6pm", SUN_JAN, "2027-02-01T18:00:00", "2027-02-01T19:00:00", "day"),
    ("we got snowed in the week before last", SUN_JAN, "2027-01-11", "2027-01-18", "week"),
    ("the audit starts in Q2", SUN_JAN, "2027-04-01", "2027-07-01", "year"),
    ("the lease started 15.01.2027", SUN_JAN, "2027-01-15", "2027-01-16", "day"),
    ("we launch in 2027-W05", SUN_JAN, "2027-02-01", "2027-02-08", "week"),
    # --- a Friday at midnight two weeks before Thanksgiving (week 11 .. 17 November 2024) ---
    ("we're slammed Thanksgiving week", FRI_NOV, "2024-11-25", "2024-12-02", "week"),
    ("my flight is the Monday before Thanksgiving", FRI_NOV, "2024-11-25", "2024-11-26", "day"),
    ("see you tues night", FRI_NOV, "2024-11-19T18:00:00", "2024-11-20T06:00:00", "day"),
    ("the plan is to launch in H1 2025", FRI_NOV, "2025-01-01", "2025-07-01", "year"),
    ("the bathroom will be done in 3 months' time", FRI_NOV, "2025-02-01", "2025-03-01", "month"),
    ("I'm in Denver the 18th-20th", FRI_NOV, "2024-11-18", "2024-11-21", "day"),
    ("the vet can see us at 3pm today", FRI_NOV, "2024-11-15T15:00:00", "2024-11-15T16:00:00", "day"),
    ("the package arrives ten days from now", FRI_NOV, "2024-11-25", "2024-11-26", "day"),
    ("I quit a month back", FRI_NOV, "2024-10-01", "2024-11-01", "month"),
    ("we watched the fireworks on Bonfire Night", FRI_NOV, "2024-11-05", "2024-11-06", "day"),
    ("I'm having surgery on the 2nd of December", FRI_NOV, "2024-12-02", "2024-12-03", "day"),
    ("my sister visits a week today", FRI_NOV, "2024-11-22", "2024-11-23", "day"),
    ("we had the inspection on Wed", FRI_NOV, "2024-11-13", "2024-11-14", "day"),
    ("I had a flip phone back in the early noughties", FRI_NOV, "2000-01-01", "2004-01-01", "year"),
    ("that building is from the 18th century", FRI_NOV, "1700-01-01", "1800-01-01", "year"),
    ("payday's the last Friday of the month", FRI_NOV, "2024-11-29", "2024-11-30", "day"),
    ("we're doing Friendsgiving on the 23rd", FRI_NOV, "2024-11-23", "2024-11-24", "day"),
    # --- traps and negatives: no time expression ---
    ("can you get me a second opinion on this rash", LEAP, None, None, None),
    ("give me a minute to think", LEAP, None, None, None),
    ("he's in his second year of med school", NYE, None, None, None),
    ("daylight saving time is a scam", NYE, None, None, None),
    ("my New Year's resolutions never stick", NYE, None, None, None),
    ("back in the day we walked everywhere", NYE, None, None, None),
    ("she teaches Sunday school", SAT_JUN, None, None, None),
    ("June said she'd pick up the cake", SAT_JUN, None, None, None),
    ("the day job is killing me", SAT_JUN, None, None, None),
    ("we stayed at the Four Seasons", SAT_JUN, None, None, None),
    ("Wednesday Addams is my favourite character", SEP30, None, None, None),
    ("Mayday! the sink is leaking", SEP30, None, None, None),
    ("I scored 4.5 out of 5", SEP30, None, None, None),
    ("Tuesday Weld was in that film", MON_APR, None, None, None),
    ("the Easter egg in that game is hilarious", MON_APR, None, None, None),
    ("take two tablets three times a day", MON_APR, None, None, None),
    ("see section 3.4 of the manual", MON_APR, None, None, None),
    ("I've got the Monday blues", SUN_JAN, None, None, None),
    ("it's a 9-to-5 job", SUN_JAN, None, None, None),
    ("read pages 3-7 for class", SUN_JAN, None, None, None),
    ("we binged Friday Night Lights", FRI_NOV, None, None, None),
    ("take the W14 bus to the station", FRI_NOV, None, None, None),
]
