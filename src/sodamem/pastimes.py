"""Pastimes by their words (sports, arts, crafts, music) and whether a phrase names one: shared by the rules that
read "I play rugby" and the reader that lists the asker's hobbies (pure)."""

from __future__ import annotations

import re

# Sports and exercise: "What sports do I play?" lists no pottery
SPORTS = frozenset(
    """running jogging swimming cycling climbing bouldering hiking walking skating skiing snowboarding surfing rowing
    sailing kayaking canoeing paddleboarding diving fishing boxing fencing archery riding karate judo taekwondo jiujitsu
    kickboxing wrestling gymnastics yoga pilates crossfit weightlifting parkour tennis badminton squash padel pickleball
    golf football soccer rugby cricket hockey netball basketball volleyball baseball softball handball lacrosse
    curling bowling darts snooker pool chess bridge derby roller frisbee ultimate triathlon marathon orienteering
    dance dancing salsa zumba""".split()
)
# Pastimes by their words: sports, arts, crafts, music
PASTIMES = SPORTS | frozenset(
    """tango ballet swing bachata ballroom tap flamenco choir singing karaoke band orchestra
    guitar piano ukulele violin cello drums bass saxophone sax flute trumpet clarinet harp banjo mandolin accordion
    painting drawing sketching pottery ceramics sculpture knitting crochet crocheting sewing quilting embroidery
    weaving woodworking carving calligraphy photography gardening baking cooking birdwatching journaling writing
    poetry improv theatre theater acting drama astronomy origami scrapbooking beekeeping foraging""".split()
)
# and the words a club or a course is said by
CLUB_WORDS = frozenset("lessons lesson classes class course club league team practice training workshop".split())
PASTIME_OR_CLUB = PASTIMES | CLUB_WORDS


def is_pastime(what: str) -> bool:
    """Whether words name a pastime: a short phrase ending in one of ``PASTIMES`` or a club word that has one
    ("bouldering", "tennis lessons", "the university choir", "running with a club"); a club or a course word alone
    is not enough ("a ten-week course", "the team" at work), nor a doing with its own object ("painting the living
    room", "cooking dinner", "watching football"), a role ("the football club as their treasurer"), someone ("Tom for
    tennis") or a noun the pastime word only qualifies ("a fishing tackle business")."""
    words = [bare(w) for w in what.split()]
    if words and words[0] in DETERMINERS:
        words = words[1:]
    if not words or what.split()[-len(words)][:1].isupper() or "as" in words:
        return False
    last = max((i for i, w in enumerate(words) if w in PASTIME_OR_CLUB), default=None)
    if last is None or not any(w in PASTIMES for w in words[: last + 1]) or last > 3:
        return False
    first = words[0]
    if first.endswith("ing") and first not in PASTIMES and first not in _LEADING_DOINGS:
        return False  # "watching football"
    after = words[last + 1] if last + 1 < len(words) else None
    gerund_then = [w for w in words[: last + 1] if w.endswith("ing") and w in PASTIMES]
    if gerund_then and words.index(gerund_then[0]) < last and words[words.index(gerund_then[0]) + 1] not in CLUB_WORDS:
        return False  # "drawing up plans"
    return after is None or after in _GOES_ON


DETERMINERS = frozenset("a an the my our some".split())
_LEADING_DOINGS = frozenset("learning playing doing taking".split())
# what may follow a pastime's last word: where, with whom, when (not "painting the ...", "fishing tackle ...")
_GOES_ON = frozenset(
    """with at in on near for from and every twice once each after before again too instead now lately recently btw
    lol properly regularly weekly daily most this these last""".split()
)


def pastime_name(what: str) -> str:
    """The pastime without its article and what follows its last pastime word: "tennis lessons", not "tennis lessons
    with a coach called Dorin"."""
    words = _AN_AMOUNT_OF.sub("", what).split()  # "a bit of boxing": boxing
    if words and words[0].lower() in DETERMINERS:
        words = words[1:]
    last = max((i for i, w in enumerate(words) if bare(w) in PASTIME_OR_CLUB), default=len(words) - 1)
    return " ".join(words[: last + 1])


def leading_word(what: str) -> str:
    """The first word of a pastime phrase after an amount, bare: "a bit of boxing" -> "boxing", "the cooking" ->
    "the"."""
    first = _A_WORD.match(_AN_AMOUNT_OF.sub("", what))
    return bare(first.group()) if first is not None else ""


_AN_AMOUNT_OF = re.compile(r"^\s*(?:a\s+(?:bit|lot)\s+of|lots\s+of|some)\s+", re.IGNORECASE)
_A_WORD = re.compile(r"[\w-]+")


def bare(word: str) -> str:
    """A word lower-cased, without its punctuation."""
    return re.sub(r"[^\w-]", "", word.lower())
