"""Names typed in lower case (``ingest/extract/rules_truecase.py``): the rules read a copy of a lower-case turn
with the names capitalised, and the facts quote the words as typed."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem import Memory
from sodamem.ingest.extract.rules_truecase import names_found, rare, true_cased, typed_lower

from .scenario_histories import History, answered, check_answer, made_memories, remembered


@pytest.fixture(scope="module")
def scenario_memories():  # type: ignore[no-untyped-def]
    yield from made_memories()


def test_a_turn_typed_lower_case() -> None:
    assert typed_lower("i'm a physio at lade fysioterapi in trondheim")
    assert typed_lower("GOT THE JOB. granitefield rang me on the 9th")  # shouting capitalises no name
    assert typed_lower("ok I'm at granitefield now")  # "I" is no name
    assert not typed_lower("I'm a physio at Lade in Trondheim")  # its writer capitalises names
    assert not typed_lower("12 34")
    assert not typed_lower("I found out I'm allergic to cockroaches.")  # names nobody, typed with capitals


def test_rare_words_may_be_names_and_common_ones_are_not() -> None:
    for name in ("thistlecroft", "granitefield", "sunniva", "stonehaven", "nidelva"):
        assert rare(name), name
    for word in ("the", "work", "gym", "vets", "leeks", "bouldering", "lol", "uni", "yoga", "moved"):
        assert not rare(word), word
    # "ines" is no plural of "in" (a dev probe's miss), while chat plurals stay words
    for name in ("ines", "inês", "ives"):
        assert rare(name), name
    for word in ("bros", "pics", "vids", "fams", "favs", "lols", "oks", "sous", "goes", "coders", "influencers"):
        assert not rare(word), word
    assert rare("tess")  # a chat word ("ty") is no stem of a name
    assert names_found("i quit ngl") == set()
    assert names_found("and my sister ines lives in lisbon") == {"ines", "lisbon"}
    # an employer left, in a session that never named it where names stand (dev probes' misses)
    assert names_found("quit chatime. the manager was awful") == {"chatime"}
    assert names_found("leaving mirabella end of the month") == {"mirabella"}
    assert names_found("quit smoking, left early") == set()


def test_names_are_found_where_names_stand() -> None:
    assert names_found("i'm a vet nurse at thistlecroft vets") == {"thistlecroft"}
    assert names_found("my sister morag got engaged") == {"morag"}
    assert names_found("so sunniva (my girlfriend) is moving in") == {"sunniva"}
    assert names_found("granitefield rang me on the 9th") == {"granitefield"}
    assert names_found("a dog called brindleby") == {"brindleby"}
    assert names_found("a cat called pickle") == set()  # a word, whatever the cat is called
    assert names_found("i went to the gym with my sister at work") == set()
    assert names_found("Lingvara (a localisation company) offered me a job") == set()  # no word's tail


def test_a_name_runs_on_over_its_words() -> None:
    said = "i'm a vet nurse at thistlecroft vets in aberdeen, first day at thistlecroft was great"
    read = true_cased(said, {"thistlecroft"})
    assert read == "I'm a vet nurse at Thistlecroft Vets in aberdeen, first day at Thistlecroft was great"


@given(st.text(alphabet="abcdefghij klmnopqrst'’-.,!?()uvwxyzøåßÿ", max_size=80))
def test_true_casing_keeps_every_offset(text: str) -> None:
    read = true_cased(text, names_found(text))
    assert len(read) == len(text) and read.lower() == text.lower()


PHYSIO: History = [
    ("2026-05-04T17:00", "hei! i'm a physio at lade fysioterapi in trondheim, mostly knees and shoulders"),
    ("2026-05-04T17:02", "unrelated, sunniva (my girlfriend) is moving in with me next month"),
]
MUM_MOVED: History = [("2026-06-17T19:10", "mum's moved to tromsø now, she loves it apparantly")]
NO_APOSTROPHES: History = [
    ("2026-03-05T22:40", "hey can u help me w a budget lol. im a baker at harbourlight bakery, been there 3 yrs now"),
    ("2026-03-06T22:40", "ive started ukulele lessons btw"),
    ("2026-09-06T22:40", "ok the ukulele is great"),
]
MUM_MOVING: History = [
    (
        "2026-11-02T18:14",
        "mid dec i think. also mum told me yesterday shes moving from invercargill to nelson next year",
    ),
]
DAD_MOVING: History = [("2026-11-02T18:18", "dad rang. hes moving to york in june")]
CASES = [
    # "shes", "hes" without the apostrophe, "mum" and "dad" without "my", reported after "told me"
    ("shes-moving-told-by-mum", MUM_MOVING, "2026-11-03", "where is my mum moving to?", "Nelson"),
    ("hes-moving", DAD_MOVING, "2026-11-03", "Where is my dad moving?", "York"),
    # "im" and "ive" typed without the apostrophe; "i" in a question typed all in lower case is the asker, whether or
    # not the hits say a word of it
    ("im-without-apostrophe", NO_APOSTROPHES, "2026-04-20", "where do i work?", "Harbourlight Bakery"),
    ("ive-without-apostrophe", NO_APOSTROPHES, "2026-04-20", "what hobby am i doing these days?", "ukulele lessons"),
    ("employer-typed-lower", PHYSIO, "2026-05-10", "Where do I work?", "Lade Fysioterapi"),
    ("a-sentence-opening-lower-case", MUM_MOVED, "2026-07-01", "Where does my mum live now?", "Tromsø"),
    ("girlfriend-in-brackets", PHYSIO, "2026-05-10", "Who is my girlfriend?", "Sunniva"),
]


@pytest.mark.parametrize(("history", "now", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_answer(scenario_memories: dict[int, Memory], history: History, now: str, question: str, expected: str) -> None:
    check_answer(*answered(scenario_memories, history, now, question), expected)


def test_quotes_are_the_words_as_typed() -> None:
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": PHYSIO[0][1]}], session_id="s1", timestamp=datetime(2026, 5, 4, 17))
        employer = [f for f in memory.facts() if f.predicate == "works_at"]
        assert [f.object for f in employer] == ["Lade Fysioterapi"]
        turn = memory.turn(employer[0].sources[0].turn_id, session_id="s1")
        source = employer[0].sources[0]
        assert "lade fysioterapi" in turn.text[source.char_start : source.char_end]


@pytest.mark.parametrize(
    "said",
    ["Dad Jones called me. He is moving.", "Also Mum Told Me She Is Moving.", "Mum Sarah and I went out. She ..."],
)
def test_a_bare_kin_word_before_a_capitalised_word_is_read_without_error(said: str) -> None:
    with Memory(":memory:", embedder="none") as memory:  # a kin word opening a run of capitals once crashed coref
        memory.add([{"role": "user", "text": said}], session_id="s1", timestamp=datetime(2026, 6, 17, 19))
        assert memory.facts(status="all") is not None


def test_reported_after_told_me() -> None:
    with Memory(":memory:", embedder="none") as memory:
        said = "Tom told me he works at Google now. Sam told me. She called."
        memory.add([{"role": "user", "text": said}], session_id="s1", timestamp=datetime(2026, 6, 17, 19))
        [works] = [f for f in memory.facts(status="all") if f.predicate == "works_at"]
        assert (works.subject, works.object, works.modality) == ("Tom", "Google", "reported")


def test_words_like_im_are_no_subject() -> None:
    with Memory(":memory:", embedder="none") as memory:
        said = "Imogen is great. The im button broke. ill be late. Ivet is a baker at Harbourlight Bakery."
        memory.add([{"role": "user", "text": said}], session_id="s1", timestamp=datetime(2026, 6, 17, 19))
        assert [(f.subject, f.object) for f in memory.facts() if f.predicate == "works_at"] == [
            ("Ivet", "Harbourlight Bakery")
        ]


def test_a_trip_moved_to_a_month_is_no_move() -> None:
    with Memory(":memory:", embedder="none") as memory:
        said = "lofoten is moved to september because of the baby, now it's 5th to 12th of sept"
        memory.add([{"role": "user", "text": said}], session_id="s1", timestamp=datetime(2026, 6, 17, 19))
        assert not [f for f in memory.facts(status="all") if f.predicate in ("moved", "lives_in")]


def test_turns_added_one_at_a_time_read_as_a_session_told_at_once() -> None:
    """A name found in a later turn is read in the earlier lower-case turns too, whichever way they came."""
    said = [
        "the big news is that ruairidh works at the harbour office now",  # no place where names stand
        "ruairidh lives in stonehaven, i might move in with him",
    ]
    start = datetime(2026, 3, 1, 9)

    def facts(memory: Memory) -> set[tuple[str, str, str | None]]:
        return {(f.predicate, f.subject, f.object) for f in memory.facts(status="all")}

    with Memory(":memory:", embedder="none") as one_by_one, Memory(":memory:", embedder="none") as at_once:
        for n, text in enumerate(said):
            one_by_one.add([{"role": "user", "text": text}], session_id="s1", timestamp=start + timedelta(minutes=n))
        at_once.add([{"role": "user", "text": text} for text in said], session_id="s1", timestamp=start)
        assert facts(one_by_one) == facts(at_once)
        assert ("works_at", "Ruairidh", "harbour office") in facts(at_once)


@pytest.mark.parametrize(
    "said",
    [
        "my boyfriend snores so loud i can't sleep",
        "my wife reckons we should get a dog",
        "i moved to freelance last year and i love it",
        "my son started at nursery on monday, he cried",
        "we're living in caravan while the house gets renovated",
    ],
)
def test_ordinary_lower_case_words_make_no_names(said: str) -> None:
    """A verb after a relation, a word after a preposition: no person, home or employer (a review's repros)."""
    with Memory(":memory:", embedder="none") as memory:
        memory.add([{"role": "user", "text": said}], session_id="s1", timestamp=datetime(2024, 5, 1, 12))
        made = {(f.predicate, f.object) for f in memory.facts(status="all")}
        assert not {o for p, o in made if p in ("boyfriend", "wife", "lives_in", "works_at") and o and o[0].isupper()}


def test_a_passive_move_of_the_speaker_is_a_move() -> None:
    with Memory(":memory:", embedder="none") as memory:
        said = "We were moved to Aberdeen when my husband got posted there."
        memory.add([{"role": "user", "text": said}], session_id="s1", timestamp=datetime(2024, 5, 1, 12))
        assert ("lives_in", "Aberdeen") in {(f.predicate, f.object) for f in memory.facts(status="all")}


def test_an_employer_quit_in_a_later_lower_case_session_is_left() -> None:
    memory = remembered(
        [
            ("2025-09-15T10:00", "also working weekends at chatime (bubble tea) for money"),
            ("2025-12-05T10:00", "quit chatime. the manager was awful, kept changing my shifts"),
        ]
    )
    try:
        employers = [f for f in memory.facts(status="active") if f.predicate == "works_at"]
        assert [(f.object, f.affirms) for f in employers] == [("Chatime", False)], employers
    finally:
        memory.close()
