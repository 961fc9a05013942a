"""The offline reader on small assistant histories, told message by message as an agent would add them.

Each case is a history a fresh-eyes probe wrote (user turns, days or weeks apart), a question, and what a person
would accept: an answer, or "not in memory" where the history does not say. Every answer's citations re-read.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from sodamem import Memory, Session, Turn
from sodamem.answer.when_reader import time_ago

from .scenario_histories import ABSTAIN, History, answered, check_answer

SISTER_AND_MOVE: History = [
    ("2026-01-05T19:00", "My sister Hannah lives in Glasgow."),
    ("2026-02-14T21:10", "We're moving to Cardiff in two weeks."),
]
LISBON: History = [
    ("2026-05-15T21:00", "Dev and I are flying to Lisbon on the 3rd of June for our anniversary."),
    ("2026-06-20T08:00", "Lisbon was amazing. We're thinking about moving to Vancouver next year."),
]
NEW_JOB: History = [("2026-02-14T21:10", "I start on the 2nd of March. We're moving to Cardiff in two weeks.")]
MOVED_AND_WORKING: History = [
    ("2026-01-05T10:00", "I am vegan."),
    ("2026-01-06T10:00", "I live in Leeds."),
    ("2026-02-06T10:00", "I moved to York."),
    ("2026-02-07T10:00", "I work at Finch Labs as a backend engineer."),
]
NOT_VEGAN_NOW: History = [("2026-01-05T10:00", "I'm vegan."), ("2026-02-05T10:00", "I'm not vegan anymore.")]
PARTNER: History = [
    ("2026-01-05T19:00", "I live in Bristol with my partner Alex. I work as a nurse at Southmead Hospital.")
]
FAMILY: History = [
    ("2026-01-05T19:00", "My sister Hannah lives in Glasgow."),
    ("2026-01-20T08:38", "My brother Luke just started a job at Airbus."),
    ("2026-02-02T12:00", "My husband Dev is a chef."),
]
MOVED_FROM: History = [
    ("2026-02-02T12:00", "I live in Denver."),
    ("2026-04-20T17:45", "I moved from Denver to Seattle."),
]
NEW_EMPLOYER: History = [
    ("2026-02-02T12:00", "I work at Finch Labs as a backend engineer."),
    ("2026-02-16T09:00", "I quit Finch Labs on Friday. I accepted a job at Orbital Systems as a staff engineer."),
]
QUIT_ONLY: History = [
    ("2026-02-02T12:00", "I work at Finch Labs as a backend engineer."),
    ("2026-02-16T09:00", "I quit Finch Labs on Friday."),
]
COUPLE: History = [
    ("2026-01-05T10:00", "My sister Hannah is married to Tom."),
    ("2026-02-05T10:00", "Hannah and Tom got divorced."),
]
IN_LAWS: History = [("2026-05-15T21:04", "My mother-in-law Asha came over. She lives in Pune.")]
DOGS: History = [("2026-05-01T10:00", "We have two dogs, Mango and Chai.")]
OTHERS_EAT_MEAT: History = [
    ("2026-01-05T10:00", "I don't eat meat."),
    ("2026-02-05T10:00", "My kids eat meat, though."),
]
BOUGHT: History = [("2026-01-05T10:00", "I bought a standing desk.")]
SISTER_IN_YORK: History = [("2026-01-05T10:00", "I live in Leeds."), ("2026-01-06T10:00", "My sister lives in York.")]
MOM: History = [("2026-01-05T10:00", "My mom lives in Ohio.")]
HABITS: History = [
    ("2026-01-05T10:00", "I eat meat every day."),
    ("2026-02-05T10:00", "I no longer eat meat."),
    ("2026-04-20T17:45", "I gave up coffee two weeks ago."),
    ("2026-04-21T08:30", "I quit smoking last year."),
]
BOTH_WORK: History = [
    ("2026-01-05T10:00", "Alex and I both work at Google."),
    ("2026-01-06T10:00", "Sam and I are vegan."),
]
THREE_HOMES: History = [
    ("2026-01-05T10:00", "I live in Leeds."),
    ("2026-02-05T10:00", "I moved to York."),
    ("2026-03-05T10:00", "I moved to Bristol."),
]
SLIP: History = [
    ("2026-01-05T19:00", "I just moved to Leeds last weekend."),
    ("2026-01-05T19:01", "Sorry, I meant York, not Leeds."),
    ("2026-03-23T19:00", "I live in Bristol now."),
]
CORRECTED_DAYS: History = [
    ("2026-09-07T20:00", "My flight to Tokyo is on the 20th. No wait, it's the 22nd."),
    ("2026-09-12T09:00", "I hurt my knee on Thursday."),
    ("2026-09-12T09:01", "Sorry, it was Wednesday, not Thursday."),
]
ENDINGS: History = [
    ("2026-03-02T21:00", "My boyfriend Tom and I broke up on Saturday."),
    ("2026-03-03T21:00", "We were planning a trip to Lisbon in April, but that's cancelled now."),
    ("2026-03-09T21:00", "I started learning Spanish on Monday."),
    ("2026-03-09T21:05", "I stopped the Spanish lessons, no time."),
]
KIDS_AND_CAT: History = [
    ("2026-09-07T20:00", "I have two kids, Mia and Leo. My flight to Tokyo is on the 20th."),
    ("2026-09-07T20:05", "Also, I adopted a cat named Biscuit the day before yesterday."),
]
LAID_OFF: History = [
    ("2026-09-07T20:00", "I'm a software engineer at Google."),
    ("2026-10-05T20:00", "I got laid off from Google last Friday."),
]
FIRED: History = [
    ("2026-09-07T20:00", "I work at Finch Labs."),
    ("2026-10-05T20:00", "I got fired last week. I'm working on opening a bakery now."),
]
JOB_QUIT: History = [
    ("2026-01-05T19:00", "I work as a nurse at St James Hospital."),
    ("2026-02-09T19:00", "I quit my job at the hospital last week."),
    ("2026-03-02T19:00", "I work at Boots now as a pharmacist, my first day was today."),
]
STARTS_AND_STOPS: History = [
    ("2026-09-07T20:00", "I started keto last Monday."),
    ("2026-10-26T20:00", "I just accepted an offer from Spotify, I start in two weeks."),
    ("2026-11-02T20:00", "I started a vegan diet two weeks ago."),
    ("2026-11-16T20:00", "I'm not vegan anymore, I stopped last weekend."),
]
MOVED_DAYS_AGO: History = [
    ("2026-03-23T19:00", "I live in Bristol now, I moved three days ago."),
    ("2026-10-05T20:00", "I got laid off from Google last Friday."),
]
WISHES: History = [
    ("2026-01-05T10:00", "I work at Finch Labs."),
    ("2026-02-05T10:00", "I want to get a job at Google someday."),
]
ONLY_A_WISH: History = [("2026-01-05T10:00", "I want to work at Google someday.")]
BROKE_UP: History = [
    ("2026-01-02T21:00", "My boyfriend Tom is a chef."),
    ("2026-03-02T21:00", "Tom and I broke up on Saturday."),
]
DENTIST: History = [
    ("2026-01-05T19:00", "I have a dentist appointment on Monday."),
    ("2026-01-19T20:00", "Scratch that, the dentist moved to the 14th of February."),
]
CORRECTED_BREED: History = [
    ("2026-09-14T09:00", "I got a dog, a beagle called Max."),
    ("2026-09-14T09:01", "Correction: Max is a basset hound, not a beagle."),
]
BREED_LATER: History = [
    ("2026-09-14T09:00", "I got a dog last weekend, a beagle called Max."),
    ("2026-09-20T09:00", "Correction from before: Max is a basset hound, not a beagle."),
]
ENGAGED: History = [("2026-04-02T10:00", "My girlfriend Priya and I got engaged on Thursday.")]
NOT_ENDINGS: History = [
    ("2026-03-01T10:00", "My boyfriend Tom and I went to the cinema, the movie ended at midnight."),
    ("2026-03-02T10:00", "I still play tennis with Sam, the season is over but we keep practising."),
    ("2026-03-03T10:00", "Sam recommended Dune to me, he loves sci-fi."),
    ("2026-03-04T10:00", "Just wanted to say that I work at Google now."),
]
OLD_ENDINGS: History = [
    ("2026-03-01T10:00", "I work at Google now. My boyfriend Tom is amazing."),
    ("2026-03-02T10:00", "I got laid off in 2020. Tom and I broke up back in 2019, but we got back together."),
]
SECOND_PROBE: History = [  # a second probe's histories, written apart from the rules above
    ("2024-10-02T19:00", "I got a job at Abbott Labs as a lab scientist."),
    ("2024-10-02T19:01", "Actually, I meant AbbVie, not Abbott."),
    ("2024-11-08T20:00", "I'm moving to Oak Park on the 1st of December."),
    ("2024-11-08T20:01", "Let me correct that, it's the 15th of December, not the 1st."),
    ("2025-01-20T18:00", "Fiona's birthday is on the 2nd of February."),
    ("2025-01-20T18:01", "Sorry, I got that wrong, her birthday is the 3rd of February."),
]
MISSPOKE: History = [("2024-10-02T19:00", "I work at Equinor. Wait, no, I misspoke, I work at Statkraft, not Equinor.")]
CALLED_OFF: History = [
    ("2025-06-02T12:00", "My fiancé Diego and I are getting married in October."),
    ("2025-07-07T19:00", "Diego and I called off the engagement. The wedding is cancelled."),
    ("2025-07-08T19:00", "I'm training for a half marathon on July 20."),
    ("2025-07-10T19:00", "I dropped out of the half marathon."),
]

CASES: list[tuple[str, History, str, str, str | None]] = [
    # a first-person question is no named entity: with nothing that shares its words, it is not in memory
    ("no-mother", SISTER_AND_MOVE, "2026-04-03", "What is my mother's name?", ABSTAIN),
    ("no-mot", SISTER_AND_MOVE, "2026-04-03", "When is my car's MOT due?", ABSTAIN),
    ("sister", SISTER_AND_MOVE, "2026-04-03", "Where does my sister live?", "Glasgow"),
    # a when-answer comes from a dated fact that shares the question's words, not from another plan's date
    ("lisbon", LISBON, "2026-06-21", "When are we flying to Lisbon?", "3 June 2026"),
    ("job-start", NEW_JOB, "2026-04-03", "When do I start the new job?", "2 March 2026"),
    # a yes/no question naming a value of a state: yes when it holds, no when it was replaced or denied
    ("vegan", MOVED_AND_WORKING, "2026-03-01", "Am I vegan?", "Yes"),
    ("still-leeds", MOVED_AND_WORKING, "2026-03-01", "Do I still live in Leeds?", "No"),
    ("york", MOVED_AND_WORKING, "2026-03-01", "Do I live in York?", "Yes"),
    ("not-vegan", NOT_VEGAN_NOW, "2026-03-01", "Am I vegan?", "No"),
    # a state of someone the history says nothing of is not another person's state, nor another state of theirs
    ("alex-work", PARTNER, "2026-01-06", "Where does Alex work?", ABSTAIN),
    ("my-work", PARTNER, "2026-01-06", "Where do I work?", "Southmead Hospital"),
    ("mother-home", FAMILY, "2026-03-01", "Where does my mother live?", ABSTAIN),
    ("devs-brother", FAMILY, "2026-03-01", "Where does Dev's brother live?", ABSTAIN),
    ("brother-home", FAMILY, "2026-03-01", "Where does my brother live?", ABSTAIN),
    ("hannah-grew-up", FAMILY, "2026-03-01", "Where did Hannah grow up?", ABSTAIN),
    ("hannah-home", FAMILY, "2026-03-01", "Where does my sister live?", "Glasgow"),
    ("brother-work", FAMILY, "2026-03-01", "Where does my brother work?", "Airbus"),
    ("moved-from-to", MOVED_FROM, "2026-04-21", "Where do I live?", "Seattle (previously Denver)"),
    ("new-employer", NEW_EMPLOYER, "2026-04-21", "Where do I work now?", "Orbital Systems (previously Finch Labs)"),
    ("new-title", NEW_EMPLOYER, "2026-04-21", "What is my job?", "staff engineer (previously backend engineer)"),
    ("quit-only", QUIT_ONLY, "2026-04-21", "Where do I work now?", ABSTAIN),  # not the employer they quit
    ("hannah-married", COUPLE, "2026-03-01", "Is Hannah married?", "No"),
    ("hannah-status", COUPLE, "2026-03-01", "What is Hannah's relationship status?", "divorced (previously married)"),
    ("in-law", IN_LAWS, "2026-05-16", "Who is my mother-in-law?", "Asha"),
    ("in-law-home", IN_LAWS, "2026-05-16", "Where does my mother-in-law live?", "Pune"),
    ("dog-names", DOGS, "2026-05-02", "What dogs do I have?", "Mango, Chai"),
    ("dog-count", DOGS, "2026-05-02", "How many dogs do I have?", "two"),
    # found in a review of the rules above
    ("others-eat-meat", OTHERS_EAT_MEAT, "2026-03-01", "Do I eat meat?", "No"),  # the kids' sentence is not mine
    ("bought", BOUGHT, "2026-03-01", "What did I buy?", "standing desk"),  # "bought" says "buy"
    ("york-is-hers", SISTER_IN_YORK, "2026-03-01", "Do I live in York?", "No, Leeds"),
    ("mom-is-mother", MOM, "2026-03-01", "Where does my mother live?", "Ohio"),
    # a yes/no question in the present tense: an ending says no, and the latest statement says it
    ("coffee", HABITS, "2026-05-01", "Do I drink coffee?", "No"),
    ("smoke", HABITS, "2026-05-01", "Do I smoke?", "No"),
    ("quit", HABITS, "2026-05-01", "Did I quit smoking?", "Yes"),
    ("meat", HABITS, "2026-05-01", "Do I eat meat?", "No"),
    # where someone works is the employer, not the job title
    ("where-work", MOVED_AND_WORKING, "2026-03-01", "Where do I work?", "Finch Labs"),
    ("job", MOVED_AND_WORKING, "2026-03-01", "What is my job?", "backend engineer"),
    ("where-live", MOVED_AND_WORKING, "2026-03-01", "Where do I live?", "York (previously Leeds)"),
    # "Alex and I" states the same of both
    ("pair-alex", BOTH_WORK, "2026-03-01", "Where does Alex work?", "Google"),
    ("pair-me", BOTH_WORK, "2026-03-01", "Where do I work?", "Google"),
    ("pair-vegan", BOTH_WORK, "2026-03-01", "Is Sam vegan?", "Yes"),
    # "before <value>" / "after <value>" anchor the history on that value
    ("before-bristol", THREE_HOMES, "2026-04-01", "Where did I live before Bristol?", "York (before Bristol)"),
    ("before-york", THREE_HOMES, "2026-04-01", "Where did I live before York?", "Leeds (before York)"),
    ("before-leeds", THREE_HOMES, "2026-04-01", "Where did I live before Leeds?", ABSTAIN),
    ("after-leeds", THREE_HOMES, "2026-04-01", "Where did I live after Leeds?", "York (after Leeds)"),
    # a spoken correction: Leeds never held
    ("slip-now", SLIP, "2026-04-01", "Where do I live?", "Bristol (previously York)"),
    ("slip-before", SLIP, "2026-04-01", "Where did I live before Bristol?", "York (before Bristol)"),
    ("slip-before-york", SLIP, "2026-04-01", "Where did I live before York?", ABSTAIN),
    # a corrected day read from the sentence it corrects
    ("flight-day", CORRECTED_DAYS, "2026-09-08", "When is my flight to Tokyo?", "22 September 2026"),
    ("knee-day", CORRECTED_DAYS, "2026-09-13", "When did I hurt my knee?", "9 September 2026"),
    # a sentence saying that what is asked about ended, to a question in the present tense
    ("broke-up", ENDINGS, "2026-03-10", "Am I still with Tom?", "No"),
    ("cancelled", ENDINGS, "2026-03-10", "Is the Lisbon trip still happening?", "No"),
    ("asks-the-ending", ENDINGS, "2026-03-10", "Is the Lisbon trip cancelled?", "Yes"),
    # a relative nobody mentioned, and a sentence that says nothing the question asks
    ("no-wife", KIDS_AND_CAT, "2026-09-08", "What is my wife's name?", ABSTAIN),
    ("mia-age", KIDS_AND_CAT, "2026-09-08", "How old is Mia?", ABSTAIN),
    ("priya-born", ENGAGED, "2026-04-03", "Where was Priya born?", ABSTAIN),  # the user's sentence, not hers
    ("kids-named", KIDS_AND_CAT, "2026-09-08", "What are my children's names?", "Mia, Leo"),
    # a job lost, with or without the employer named, ends working there
    ("laid-off", LAID_OFF, "2026-10-20", "Where do I work?", ABSTAIN),
    ("laid-off-yes-no", LAID_OFF, "2026-10-20", "Do I work at Google?", "No"),
    ("fired", FIRED, "2026-10-20", "Where do I work?", ABSTAIN),
    ("fired-plans", FIRED, "2026-10-20", "What am I working on opening?", "bakery"),
    ("new-after-quit", JOB_QUIT, "2026-03-05", "Where do I work now?", "Boots (previously St James Hospital)"),
    ("job-after-quit", JOB_QUIT, "2026-03-05", "What is my job?", "pharmacist (previously nurse)"),
    # a when-answer dated by what names the asked thing, and by the sentence that says more of the question
    (
        "start-spotify",
        STARTS_AND_STOPS,
        "2026-11-18",
        "When do I start at Spotify?",
        "9 November 2026 to 15 November 2026 (two weeks after 26 October 2026)",
    ),
    (
        "stop-vegan",
        STARTS_AND_STOPS,
        "2026-11-18",
        "When did I stop being vegan?",
        "14 November 2026 to 15 November 2026 (the weekend before 16 November 2026)",
    ),
    # how long ago: from the day it happened to the day asked
    ("moved-ago", MOVED_DAYS_AGO, "2026-03-25", "How long ago did I move to Bristol?", "5 days ago, 20 March 2026"),
    (
        "laid-off-ago",
        MOVED_DAYS_AGO,
        "2026-11-18",
        "How long ago was I laid off?",
        "7 weeks ago, 2 October 2026 (the Friday before 5 October 2026)",
    ),
    # a wish is not a state that holds, and a question about the wish reads it
    ("wish-not-work", ONLY_A_WISH, "2026-03-01", "Where do I work?", ABSTAIN),
    ("work-despite-wish", WISHES, "2026-03-01", "Where do I work?", "Finch Labs"),
    ("the-wish", WISHES, "2026-03-01", "Where do I want to work?", "Google"),
    ("breed", CORRECTED_BREED, "2026-09-15", "What breed is Max?", "basset hound"),
    ("breed-later", BREED_LATER, "2026-09-21", "What breed is Max?", "basset hound"),  # another session
    # a relation a breakup ended: no one holds it now, and the facts say who did
    ("ex-boyfriend", BROKE_UP, "2026-03-10", "Who is my boyfriend?", "no one now (previously Tom)"),
    ("ex-yes-no", BROKE_UP, "2026-03-10", "Is Tom my boyfriend?", "No"),
    # a time asked as ahead: the latest word on it, read forward from when it was said
    ("dentist-moved", DENTIST, "2026-01-20", "When is my dentist appointment?", "14 February 2026"),
    # what ended is not what is asked; a relative named by name; a wish that governs nothing; endings long past
    ("movie-ended", NOT_ENDINGS, "2026-03-10", "Is Tom my boyfriend?", "Yes"),
    ("season-over", NOT_ENDINGS, "2026-03-10", "Do I play tennis with Sam?", "Yes"),
    ("friend-named", NOT_ENDINGS, "2026-03-10", "What book did my friend Sam recommend?", "Dune"),
    ("wanted-to-say", NOT_ENDINGS, "2026-03-10", "Where do I work?", "Google"),
    ("laid-off-2020", OLD_ENDINGS, "2026-03-10", "Where do I work?", "Google"),
    ("broke-up-2019", OLD_ENDINGS, "2026-03-10", "Who is my boyfriend?", "Tom"),
    # corrections naming part of a name, after "let me correct that" / "I misspoke"; a corrected date; a later word
    ("abbvie", SECOND_PROBE, "2024-10-05", "Where do I work?", "AbbVie"),
    ("oak-park", SECOND_PROBE, "2024-11-10", "When am I moving to Oak Park?", "15 December 2024"),
    ("birthday", SECOND_PROBE, "2025-01-22", "When is Fiona's birthday?", "3 February 2025"),
    ("misspoke", MISSPOKE, "2024-10-05", "Where do I work?", "Statkraft"),
    ("called-off", CALLED_OFF, "2025-07-09", "Who is my fiancé?", "no one now (previously Diego)"),
    ("dropped-out", CALLED_OFF, "2025-09-10", "Am I still training for the half marathon?", "No"),
    ("stopped-later", ENDINGS, "2026-03-10", "Am I still learning Spanish?", "No"),  # the later turn of the two
]

# Said later, dated earlier: the later word is the newer knowledge
LATE_NEWS: History = [
    ("2026-03-03T10:00", "I live in London."),
    ("2026-03-10T10:00", "Actually I moved to Paris two weeks ago."),
]
BROKE_UP_LAST_WEEK: History = [("2026-03-03T10:00", "My boyfriend Tom and I broke up last week.")]
NEW_PARTNER: History = [
    ("2025-02-10T19:00", "My boyfriend Lars is still in Trondheim, so it's long distance for now."),
    ("2025-03-03T19:00", "I'm fired up about a new project at work, we're building a wind forecast tool."),
    ("2025-03-17T19:00", "Big news, sort of sad: Lars and I broke up two weeks ago."),
    ("2025-04-21T19:00", "I'm dating someone new, his name is Emil. We met at a climbing gym."),
]
HOUSEMATE: History = [
    ("2024-09-02T08:00", "Morning. I'm Dev. I teach chemistry at Lincoln Park High School."),
    ("2024-09-02T08:05", "I live in Evanston with my roommate Carlos."),
    ("2024-09-09T18:00", "My dog Biscuit is a beagle, she's four."),
    ("2024-10-14T18:00", "Carlos moved out last weekend, he got a place in Logan Square."),
]
NAMED_AFTER: History = [("2025-03-10T10:00", "Quick update: I adopted a cat on Saturday. Her name is Mochi.")]
TWO_SISTERS: History = [
    ("2025-03-03T10:00", "My sister Hannah is married to Tom."),
    ("2025-03-10T10:00", "My sister Ines lives in Porto with her husband Rui."),
    ("2025-03-17T10:00", "Rui works at a bank called Millennium."),
    ("2025-03-24T10:00", "My wife Ana is a pilot."),
]
UNSAID: History = [
    ("2025-03-03T10:00", "Hi, I'm Priya. I work as a nurse at Southmead Hospital and live in Bristol."),
    ("2025-03-10T10:00", "My brother Sam is visiting next weekend, he's flying in from Toronto."),
    ("2025-03-17T10:00", "Sam got engaged to his girlfriend Leah!"),
    ("2025-03-24T10:00", "My niece Ava just turned seven."),
]
BAND_AND_FLAT: History = [
    ("2025-01-06T19:00", "Hiya, Kwame here. I live in Glasgow, in Partick."),
    ("2025-01-13T19:00", "I've been playing bass in a band called The Wee Hours since 2019."),
    ("2025-02-10T19:00", "I left the band on Saturday. Creative differences."),
    ("2025-03-20T19:00", "We moved into the Edinburgh flat on the 15th."),
]
NOOR: History = [
    ("2025-01-04T10:00", "Hey! I'm Noor. I just started a new job as a UX designer at Fernhill Studio."),
    ("2025-01-04T10:02", "I live in Utrecht with my partner Joost and our dog Pim."),
    ("2025-01-20T19:00", "My mum is coming to visit on the 2nd of February."),
    ("2025-02-10T08:00", "Mum's visit was lovely. She stayed for a week."),
    ("2025-04-22T18:01", "I'm still at Fernhill, working remotely three days a week."),
    ("2025-06-12T20:00", "I quit Fernhill. Starting at Studio Dumbar on July 1st."),
]
TOMASZ: History = [
    ("2025-02-01T09:00", "Hi there, I'm Tomasz. I'm allergic to peanuts, just so you know when suggesting recipes."),
    ("2025-02-01T09:02", "I have two kids, Ola and Kuba. Ola is 8 and Kuba is 5."),
    ("2025-02-01T09:03", "My favourite cuisine is Thai."),
    ("2025-04-10T07:30", "My friend Pawel left Google and now works at Allegro."),
    ("2025-04-10T07:31", "I've gone off Thai food lately, I'm really into Ethiopian food now."),
    ("2025-06-09T10:00", "Marta's wedding was beautiful. Ola was the flower girl."),
    ("2025-06-20T12:00", "Kuba turned 6 today!"),
]
BACK_FROM: History = [
    ("2025-02-01T09:00", "Hi there, I'm Tomasz. I'm allergic to peanuts, just so you know when suggesting recipes."),
    ("2025-02-01T09:02", "I have two kids, Ola and Kuba. Ola is 8 and Kuba is 5."),
    ("2025-02-01T09:03", "My favourite cuisine is Thai."),
    ("2025-02-14T20:00", "My sister Marta is getting married on June 7th in Krakow."),
    ("2025-02-14T20:02", "We booked a trip to Lisbon for the 20th of March."),
    ("2025-03-05T18:00", "Bad news, we had to postpone Lisbon to May because Kuba broke his arm."),
    ("2025-03-05T18:01", "He fell off the climbing frame at school on Monday."),
    ("2025-04-10T07:30", "My friend Pawel left Google and now works at Allegro."),
    ("2025-04-10T07:31", "I've gone off Thai food lately, I'm really into Ethiopian food now."),
    ("2025-05-18T21:00", "Lisbon was great! We got back yesterday."),
    ("2025-06-09T10:00", "Marta's wedding was beautiful. Ola was the flower girl."),
    ("2025-06-20T12:00", "Kuba turned 6 today!"),
]
AT_THE_BBC: History = [
    ("2025-05-05T19:00", "I'm dating Alex now, we met at a pub quiz last Friday."),
    ("2025-05-05T19:01", "And I started working at the BBC the day before yesterday."),
]
NOT_THAT_RELATIVE: History = [
    ("2025-09-01T10:00", "Mom still lives in Curitiba and keeps asking when I'm coming home."),
    ("2025-09-08T10:00", "I'm seeing someone new. His name is Kasper."),
    ("2025-09-15T10:00", "My friend adopted a kitten. Should I get a cat too?"),
]
REVIEW_REPROS: History = [
    ("2024-05-01T10:00", "My sister Hannah Smith lives in Paris."),
    ("2024-05-02T10:00", "My sister Hannah moved to Rome last week."),
    ("2024-05-03T10:00", "Priya is 29."),
    ("2024-05-04T10:00", "Leah is in Boston these days, she loves it."),
    ("2024-05-05T10:00", "Rui and I have been together for five years."),
    ("2024-05-06T10:00", "I married Jane's cousin Mark last year."),
]
BACK_IN: History = [
    ("2024-05-01T10:00", "My roommate Carlos is great."),
    ("2024-05-10T10:00", "Carlos moved out last weekend."),
    ("2024-05-20T10:00", "My roommate Carlos moved back in!"),
]
SAINTS: History = [("2025-06-02T12:00", "Hey, I'm Marisol. I live in Austin and I'm a nurse at St. David's.")]
CASES += [
    ("late-news", LATE_NEWS, "2026-03-20", "Where do I live?", "Paris (previously London)"),
    ("broke-up-dated", BROKE_UP_LAST_WEEK, "2026-03-10", "Who is my boyfriend?", "no one now (previously Tom)"),
    ("dating-now", NEW_PARTNER, "2025-05-01", "Who is my boyfriend now?", "Emil"),
    ("partner-is-dating", NEW_PARTNER, "2025-05-01", "Who is my partner?", "Emil"),
    ("fired-up", NEW_PARTNER, "2025-05-01", "Did I get fired?", ABSTAIN),  # "fired up" is another verb
    ("teaches-at", HOUSEMATE, "2024-11-01", "Where do I work?", "Lincoln Park High School"),
    ("moved-out", HOUSEMATE, "2024-11-01", "Do I still live with Carlos?", "No"),
    ("ex-roommate", HOUSEMATE, "2024-11-01", "Who is my roommate?", "no one now (previously Carlos)"),
    ("their-new-place", HOUSEMATE, "2024-11-01", "Where does Carlos live now?", "Logan Square"),
    ("breed-said-plainly", HOUSEMATE, "2024-11-01", "What breed is Biscuit?", "beagle"),
    ("cat-named-after", NAMED_AFTER, "2025-04-01", "What's my cat's name?", "Mochi"),
    # two sisters stay two people; a relative's relative; spouses asked as "married to"
    ("hannahs-spouse", TWO_SISTERS, "2025-04-01", "Who is Hannah married to?", "Tom"),
    ("ines-spouse", TWO_SISTERS, "2025-04-01", "Who is Ines married to?", "Rui"),
    ("my-spouse", TWO_SISTERS, "2025-04-01", "Who am I married to?", "Ana"),
    ("ines-home", TWO_SISTERS, "2025-04-01", "Where does Ines live?", "Porto"),
    ("second-sister-home", TWO_SISTERS, "2025-04-01", "Where does Hannah live?", ABSTAIN),
    ("in-law-work", TWO_SISTERS, "2025-04-01", "Where does Ines's husband work?", "a bank called Millennium"),
    ("living-is-no-home", TWO_SISTERS, "2025-04-01", "What does Ines do for a living?", ABSTAIN),
    # what was never said: nobody's facts stand in for an unknown person's, and no other time or number answers
    ("leah-home", UNSAID, "2025-04-01", "Where does Leah live?", ABSTAIN),
    ("leah-job", UNSAID, "2025-04-01", "What does Leah do?", ABSTAIN),
    ("priya-works", UNSAID, "2025-04-01", "Where does Priya work?", "Southmead Hospital"),
    ("wedding-undated", UNSAID, "2025-04-01", "When is Sam's wedding?", ABSTAIN),
    ("engaged-dated", UNSAID, "2025-04-01", "When did Sam get engaged?", "17 March 2025"),
    ("brother-age", UNSAID, "2025-04-01", "How old is my brother?", ABSTAIN),
    ("niece-age", UNSAID, "2025-04-01", "How old is Ava?", "7"),
    # an ending said of a named thing by the noun it was described with; a home said as "the <place> flat"
    ("left-the-band", BAND_AND_FLAT, "2025-04-01", "Am I still in The Wee Hours?", "No"),
    ("into-the-flat", BAND_AND_FLAT, "2025-04-01", "Where do I live now?", "Edinburgh (previously Glasgow)"),
    # a job said with its title; a short name ends the long one; a start said ahead; nobody else's words
    ("job-title", NOOR, "2025-03-01", "What is my job?", "UX designer"),
    ("quit-short-name", NOOR, "2025-06-20", "Do I still work at Fernhill Studio?", "No"),
    ("start-ahead", NOOR, "2025-06-20", "When do I start at Studio Dumbar?", "1 July 2025"),
    ("partner-work", NOOR, "2025-06-20", "Where does Joost work?", ABSTAIN),
    ("mum-home", NOOR, "2025-06-20", "Where does my mum live?", ABSTAIN),
    # an allergy, and one never said; an age said in a later session; tastes that changed; who, by name
    ("allergy", TOMASZ, "2025-07-01", "What am I allergic to?", "peanuts"),
    ("no-such-allergy", TOMASZ, "2025-07-01", "Am I allergic to shellfish?", ABSTAIN),
    ("turned-six", TOMASZ, "2025-07-01", "How old is Kuba?", "6 (previously 5)"),
    ("gone-off", TOMASZ, "2025-07-01", "Do I like Thai food?", "No"),
    ("into-now", TOMASZ, "2025-07-01", "Do I like Ethiopian food?", "Yes"),
    ("friend-works", TOMASZ, "2025-07-01", "Where does Pawel work?", "Allegro"),
    ("flower-girl", TOMASZ, "2025-07-01", "Who was the flower girl at Marta's wedding?", "Ola"),
    ("at-the-bbc", AT_THE_BBC, "2025-05-10", "Where do I work?", "BBC"),  # a place after "the", capitalised
    # a relative's answer must speak of that relative: "mom" is no dad, "his name is Kasper" names no cat
    ("dads-home", NOT_THAT_RELATIVE, "2025-10-01", "Where does my dad live?", ABSTAIN),
    ("moms-home", NOT_THAT_RELATIVE, "2025-10-01", "Where does my mom live?", "Curitiba"),
    ("no-cat", NOT_THAT_RELATIVE, "2025-10-01", "What is my cat's name?", ABSTAIN),
    ("dating-kasper", NOT_THAT_RELATIVE, "2025-10-01", "Who am I dating?", "Kasper"),
    # a review's repros: one sister under two names; ages and homes of people no fact names; a partner "together"
    ("one-hannah", REVIEW_REPROS, "2024-06-01", "Where does Hannah live?", "Rome (previously Paris)"),
    ("priya-age", REVIEW_REPROS, "2024-06-01", "How old is Priya?", "29"),
    ("leah-boston", REVIEW_REPROS, "2024-06-01", "Where does Leah live?", "Boston"),
    ("partner-together", REVIEW_REPROS, "2024-06-01", "Who is my partner?", "Rui"),
    ("moved-back-in", BACK_IN, "2024-06-01", "Do I live with Carlos?", "Yes"),  # the roommate fact holds again
    ("saints-name", SAINTS, "2025-07-01", "Where do I work?", "St. David's"),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer_or_abstain(
    scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str | None
) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def test_a_question_the_person_asked_is_not_read_back_as_their_answer() -> None:
    """Mel asked Caro the very question; Mel's own statement answers it (it was "How long have you been creating
    art", the best-covering sentence)."""
    said = [
        ("Mel", "I have painted landscapes for seven years."),
        ("Caro", "That is lovely."),
        ("Mel", "How long have you been creating art?"),
        ("Caro", "Only a year."),
    ]
    turns = tuple(Turn(i, who, text, f"a:{i}") for i, (who, text) in enumerate(said))
    with Memory(":memory:", embedder="none") as memory:
        memory.ingest([Session("a", datetime(2026, 3, 1), turns)])
        answer = memory.ask("How long has Mel been creating art?", offline=True)
        assert answer.answer == "painted landscapes for seven years", answer
        assert [c.quote for c in answer.citations] == ["I have painted landscapes for seven years."]


def test_the_users_own_words_in_another_verb_form_are_not_someone_elses_story() -> None:
    """ "I went freelance" is the user's; the assistant's "going freelance" only echoes it (the speaker guard
    abstained, taking "went" for another verb)."""
    with Memory(":memory:", embedder="fake") as memory:
        memory.add(
            [
                {"role": "user", "text": "I went freelance last week."},
                {"role": "assistant", "text": "Congratulations on going freelance."},
            ],
            session_id="s",
            timestamp=datetime(2026, 6, 20, 8, 4),
        )
        answer = memory.ask("When did I go freelance?", now=datetime(2026, 6, 21), offline=True)
        assert answer.answer.startswith("8 June 2026 to 14 June 2026"), answer


@pytest.mark.parametrize(
    ("start", "now", "said"),
    [
        ("2026-03-20T00:00:00", "2026-03-20T18:00", "today"),
        ("2026-03-20T00:00:00", "2026-03-21T09:00", "1 day ago"),
        ("2026-03-01T00:00:00", "2026-03-20T09:00", "3 weeks ago"),
        ("2026-01-01T00:00:00", "2026-06-01T09:00", "5 months ago"),
        ("2013-05-01T00:00:00", "2026-06-01T09:00", "13 years ago"),
    ],
)
def test_time_ago_says_the_span_in_a_persons_unit(start: str, now: str, said: str) -> None:
    assert time_ago(start, datetime.fromisoformat(now)) == said


def test_a_correction_after_an_assistants_reply_is_read() -> None:
    """The user's turns of a session are read by their numbers, the assistant's between them."""
    said = datetime(2026, 9, 7, 20)
    with Memory(":memory:", embedder="fake") as memory:
        memory.add(
            [
                {"role": "user", "text": "I started keto last Monday."},
                {"role": "assistant", "text": "Good luck with it!"},
                {"role": "user", "text": "My flight to Tokyo is on the 20th."},
                {"role": "assistant", "text": "Noted, the 20th."},
                {"role": "user", "text": "No wait, it's the 22nd."},
            ],
            session_id="s1",
            timestamp=said,
        )
        answer = memory.ask("When is my flight to Tokyo?", now=datetime(2026, 9, 8), offline=True)
        assert answer.answer == "22 September 2026", answer
        assert [c.quote for c in answer.citations] == ["My flight to Tokyo is on the 20th.", "it's the 22nd"]
        keto = memory.ask("When did I start keto?", now=datetime(2026, 9, 8), offline=True)
        assert keto.answer.startswith("31 August 2026"), keto


def test_a_when_answer_reads_the_hit_that_says_most_of_the_question() -> None:
    """Of the hits naming Lisbon, "We got back yesterday" says what is asked, the booking does not (BM25 alone, where
    the booking ranks first)."""
    with Memory(":memory:", embedder="none") as memory:
        for when, text in BACK_FROM:
            said = datetime.fromisoformat(when)
            memory.add([{"role": "user", "text": text}], session_id=f"s{said:%Y%m%d}", timestamp=said)
        answer = memory.ask("When did we get back from Lisbon?", now=datetime(2025, 7, 1), offline=True)
        assert answer.answer == "17 May 2025" and answer.citations[0].quote == "We got back yesterday."
