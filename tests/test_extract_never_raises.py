"""The rules extractor and the offline reader read any chat without raising: turns built from the words the casual
and careful rules key on (kin words before names, "shes", "im", corrections, moves, offers, dates, habits, notice,
joining as, how long had), in any order."""

from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodamem import Memory

_WORDS = [
    *"Mum mum Dad dad Sarah Tom Crina She she He he shes hes theyre They im ive Im I i we We my My".split(),
    *"told me said moved moving move to in from arrived Stavanger Leeds Brașov the city town job".split(),
    *"offered accepted I start on 12th 23rd 4th of May june sorry wait no , . ! : Havbrink Energy".split(),
    *"given gave sold dropped welding stopping quitting lessons at end started bouldering hobby".split(),
    *"have has been invited booked from a an interview last next week Friday yesterday".split(),
    *"play do go climbing yoga rugby every twice for ten years Got promoted senior dentist today".split(),
    *"Handed in notice resigned day is joining Trent Dental as partner fiancée girlfriend Priya".split(),
    *"getting married may officially over sang concert choir it Puffin's gone had adopted Toffee".split(),
]
_QUESTIONS = [
    "What hobby am I doing these days?",
    "How many days after moving to Leeds did I start at Havbrink?",
    "Where is my mum moving to?",
    "Do I still have Tom?",
    "When was my interview?",
    "how long did i work at havbrink?",
    "What sports do I play?",
    "Who is my fiancée?",
    "How long have we had Toffee?",
    "Where do I work?",
    "Who is my flatmate?",
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=18), min_size=1, max_size=4))
def test_any_chat_is_read_without_error(turns: list[list[str]]) -> None:
    with Memory(":memory:", embedder="none") as memory:
        start = datetime(2026, 3, 1, 9)
        for i, words in enumerate(turns):
            said = start + timedelta(days=20 * i)
            memory.add([{"role": "user", "text": " ".join(words)}], session_id=f"s{i}", timestamp=said)
        memory.facts(status="all")
        for question in _QUESTIONS:
            answer = memory.ask(question, now=start + timedelta(days=200), offline=True)
            assert answer.answer
