"""Short answers cut from one evidence sentence (pure functions, no memory access).

A question's kind (who, where, how many, why, ...) and its content words decide which span of the sentence answers
it: the sentence is cut into runs of words that the question does not already say (a question's own words are the
part the asker knows), each run is trimmed of filler at both ends, and the run that best fits the question's kind
wins — a number for "how many", a name for "who", a place after "in"/"at" for "where", a quoted title, the words
right after the matched verb. LoCoMo's gold answers are short noun phrases, so a span scores far higher than the
whole sentence under token F1. The span is always a literal slice of the sentence (property-tested), so it can be
cited as it stands; when no run is worth taking, the whole sentence is the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from sodamem.porter import stem
from sodamem.retrieve.fts_query import STOPWORDS

QuestionKind = Literal["who", "where", "when", "how_many", "how_long", "why", "how", "yes_no", "what"]

WORD = re.compile(r"\d+(?:[:.,]\d+)+|[^\W_]+(?:['’][^\W_]+)*")  # "1:52", "3.5" and "1,000" are one word
_NUMBER_WORDS = frozenset(
    """one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen twenty thirty forty
    fifty hundred thousand once twice couple few several dozen first second third""".split()
)
_DURATION_WORDS = frozenset(
    "second seconds minute minutes hour hours day days week weeks month months year years decade decades".split()
)
# Words that carry no answer on their own: stopwords, contractions and conversational filler.
FILLER = STOPWORDS | frozenset(
    """i've i'm i'll i'd it's that's there's you're you've we're we've they're can't don't didn't wasn't isn't
    really also super pretty quite lot lots thing things stuff got get gets getting yeah yes wow oh hey thanks
    thank like definitely totally actually always still even much many well sure kind sort bit way ve ll
    re d m gonna wanna""".split()
)
_PLACE_PREPOSITIONS = frozenset("in at to from near around visited visit".split())
_REASON_MARKERS = ("because", "since", "so that", "due to", "thanks to")
_MANNER_MARKERS = ("by", "with", "through")
# A run ends at clause punctuation: the answer is rarely spread over two clauses.
_CLAUSE_BREAK = re.compile(r"[,;:.!?()\[\]—–\"“”]|\s-\s")
# Time words rarely belong to a non-temporal answer; they end a run.
_TIME_WORDS = frozenset(
    """yesterday today tonight tomorrow last next ago recently lately week weeks weekend month months year years
    morning afternoon evening night""".split()
)
_KIND_OF = frozenset("kind kinds type types sort sorts of".split())
_YES_NO_START = frozenset("am is are was were do does did can could would will should has have had might may".split())
MAX_SPAN_WORDS = 8
# "a climbing gym called The Arch": the name is the answer, the naming word only introduces it.
_NAMING_WORDS = frozenset("called named titled".split())
# The last of these before a question's head noun opens the noun phrase: "offered me the product manager job".
_DETERMINERS = frozenset("a an the my his her their our your its this that".split())
_COPULAS = frozenset("is are was were be been".split())
# Kinds of place a name answers by where it is ("Which neighbourhood ... in?": "Ancoats"); not venues, which are
# answered by their own name ("What bar did they open?": "The Crown", not the town it is in).
_PLACE_NOUNS = frozenset(
    """city cities town towns village villages country countries neighbourhood neighborhood area suburb district
    street state region county island islands""".split()
)


@dataclass(frozen=True, slots=True)
class Token:
    start: int
    end: int
    word: str  # lower-cased
    stem: str


def tokens(text: str) -> list[Token]:
    """The words of ``text`` with their offsets (contractions stay one word: "I've")."""
    out: list[Token] = []
    for match in WORD.finditer(text):
        word = match.group().lower().replace("’", "'")
        word = word[:-2] if word.endswith("'s") else word  # "Jon's" is Jon
        out.append(Token(match.start(), match.end(), word, stem(IRREGULAR_PAST.get(word, word))))
    return out


# Past forms the stemmer cannot bring home: "I went freelance" says what "When did I go freelance?" asks.
IRREGULAR_PAST = {
    past: base
    for base, forms in {
        "go": "went gone",
        "get": "got gotten",
        "have": "had",
        "make": "made",
        "take": "took taken",
        "see": "saw seen",
        "meet": "met",
        "eat": "ate eaten",
        "run": "ran",
        "buy": "bought",
        "bring": "brought",
        "think": "thought",
        "teach": "taught",
        "catch": "caught",
        "find": "found",
        "feel": "felt",
        "leave": "left",
        "lose": "lost",
        "sell": "sold",
        "win": "won",
        "begin": "began begun",
        "give": "gave given",
        "keep": "kept",
        "tell": "told",
        "say": "said",
        "spend": "spent",
        "send": "sent",
        "build": "built",
        "write": "wrote written",
        "drive": "drove driven",
        "fly": "flew flown",
        "become": "became",
        "come": "came",
        "swim": "swam swum",
        "sing": "sang sung",
        "draw": "drew drawn",
        "grow": "grew grown",
        "know": "knew known",
        "ride": "rode ridden",
        "speak": "spoke spoken",
        "choose": "chose chosen",
        "fall": "fell fallen",
        "hold": "held",
        "read": "read",
        "wear": "wore worn",
        "break": "broke broken",
        "sleep": "slept",
    }.items()
    for past in forms.split()
}


def question_stems(question: str) -> set[str]:
    """The stems of the question's content words (filler and stopwords left out)."""
    return {t.stem for t in tokens(question) if t.word not in FILLER}


def question_kind(question: str) -> QuestionKind:
    """What sort of answer ``question`` wants, from its wh-word (the first one found) or its auxiliary opening."""
    words = [t.word for t in tokens(question)]
    if not words:
        return "what"
    for i, word in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else ""
        if word in ("who", "whom", "whose"):
            return "who"
        if word == "where":
            return "where"
        if word == "when" or (word == "what" and after in ("year", "month", "day", "date", "time")):
            return "when"
        if word == "why":
            return "why"
        if word == "how":
            if after in ("many", "much"):
                return "how_many"
            if after in ("long", "often", "old", "far"):
                return "how_long"
            return "how"
        if word in ("what", "which"):
            return "what"
    return "yes_no" if words[0] in _YES_NO_START else "what"


def asks_for_a_list(question: str) -> bool:
    """Whether the question asks for several things ("which cities", "what activities", "what are the names")."""
    words = [t.word for t in tokens(question)]
    for i, word in enumerate(words[:-1]):
        if word not in ("what", "which"):
            continue
        if words[i + 1] in ("are", "were"):
            return True
        head = head_noun(question) or ""
        return head.endswith("s") and not head.endswith(("ss", "us", "is"))
    return False


def asks_for_a_place(question: str) -> bool:
    """ "Where ...?", or a what/which question about a kind of place ("Which city am I in?")."""
    kind = question_kind(question)
    return kind == "where" or (kind == "what" and head_noun(question) in _PLACE_NOUNS)


def head_noun(question: str) -> str | None:
    """The thing a what/which question asks about ("What kind of art ..." -> "art"), lower-cased."""
    words = [t.word for t in tokens(question)]
    for i, word in enumerate(words[:-1]):
        if word in ("what", "which"):
            following = [w for w in words[i + 1 : i + 5] if w not in _KIND_OF]
            head = following[0] if following else ""
            return head if head and head not in FILLER else None
    return None


@dataclass(frozen=True, slots=True)
class _Run:
    tokens: tuple[Token, ...]
    after_question_word: bool  # the run follows one of the question's words (the object of the matched verb)
    before_head: bool  # the run ends with the question's head noun ("fantasy literature forum" for "what forum")
    quoted: bool


def answer_span(question: str, sentence: str, kind: QuestionKind | None = None) -> tuple[int, int]:
    """The ``(start, end)`` of the part of ``sentence`` that answers ``question``; ``(0, len(sentence))`` when no
    shorter part fits. Always ``0 <= start < end <= len(sentence)`` for a sentence with a word in it."""
    kind = kind or question_kind(question)
    words = tokens(sentence)
    if not words:
        return 0, len(sentence)
    asked = question_stems(question)
    if kind == "why":
        return _after_marker(sentence, words, _REASON_MARKERS) or _whole(sentence, words)
    if kind == "how":  # a manner: the "by ..." clause, else the whole statement (runs lose half its F1 here)
        return _after_marker(sentence, words, _MANNER_MARKERS) or _whole(sentence, words)
    head = head_noun(question)
    place_asked = kind == "where" or (kind == "what" and head in _PLACE_NOUNS)  # "Which neighbourhood ... in?"
    if place_asked and (place := _named_place(sentence, words, asked)) is not None:
        return place
    if kind == "what" and head in _TYPE_NOUNS and (said := _COMPLEMENT.search(sentence)) is not None:
        return said.span("what")  # "What breed is Biscuit?": "a beagle" in "My dog Biscuit is a beagle, she's four"
    runs = _runs(sentence, words, asked, stem(head) if head else None, cut_at_time=kind != "how_long")
    scored = [(_score(run, kind, sentence), -n, run) for n, run in enumerate(runs)]
    scored = [s for s in scored if s[0] > 0]
    if not scored:
        return _whole(sentence, words)
    best = max(scored, key=lambda s: (s[0], s[1]))[2]
    return _trimmed(sentence, best)


# The nouns of a question asking what sort of thing something is, and the words saying it: "is a beagle" (up to the
# clause's end)
_TYPE_NOUNS = frozenset("breed kind type sort colour color make model brand species".split())
_COMPLEMENT = re.compile(
    r"\b(?:is|was|are|were|['’]s)\s+(?:an?\s+|the\s+)?(?P<what>[\w-]+(?:\s+[\w-]+){0,2}?)"
    r"(?=\s*(?:[,.;:!?]|$)|\s+(?:and|but|who|which|that|so|because|with|from|named|called)\b)",
    re.IGNORECASE,
)


def _named_place(sentence: str, words: list[Token], asked: set[str]) -> tuple[int, int] | None:
    """The first capitalised name after a place preposition that the question does not already hold: "at Northwind
    Bank" in "I work as a data analyst at Northwind Bank" (a leading "the" stays out)."""
    for i, token in enumerate(words[:-1]):
        if token.word not in _PLACE_PREPOSITIONS:
            continue
        j = i + 1
        if words[j].word == "the" and j + 1 < len(words):
            j += 1
        name: list[Token] = []
        for t in words[j:]:
            gap = sentence[name[-1].end : t.start] if name else ""
            if (name and _CLAUSE_BREAK.search(gap)) or not (sentence[t.start].isupper() or (name and t.word == "of")):
                break
            name.append(t)
        while name and name[-1].word == "of":
            name.pop()
        if name and not all(t.stem in asked for t in name):
            return name[0].start, name[-1].end
    return None


def _whole(sentence: str, words: list[Token]) -> tuple[int, int]:
    return words[0].start, _close_quote(sentence, words[-1].end)


def _runs(sentence: str, words: list[Token], asked: set[str], head: str | None, cut_at_time: bool) -> list[_Run]:
    """Maximal runs of words the question does not hold, cut at clause punctuation (and at time words when
    ``cut_at_time``: "a puppy last week" is "a puppy"), trimmed of filler; a run directly before the question's head
    noun keeps it ("spicy" + "food" for "what food ...")."""
    runs: list[_Run] = []
    current: list[Token] = []
    after_question = False
    previous_asked = False
    with_head = False

    def close() -> None:
        nonlocal current, with_head
        content = [t for t in current if t.word not in FILLER]
        if content:
            quoted = _is_quoted(sentence, current[0].start, current[-1].end)
            first = 0 if quoted else current.index(content[0])  # a quoted title stays whole: "The Hobbit"
            last = current.index(content[-1])
            kept = tuple(current[first : last + 1])
            runs.append(_Run(kept, after_question, with_head, quoted))
        current = []
        with_head = False

    for i, token in enumerate(words):
        gap = sentence[words[i - 1].end : token.start] if i else ""
        if current and _CLAUSE_BREAK.search(gap):
            close()
            after_question = False
        if token.stem in asked and token.word not in FILLER:
            if token.stem == head and current and current[-1].word not in FILLER and not gap.strip():
                current.append(token)
                with_head = True
                close()
                previous_asked = False
                continue
            close()
            # what follows the asked subject's name is its verb ("Alex started"), not what the question asks for
            previous_asked = not sentence[token.start].isupper()
            continue
        if cut_at_time and token.word in _TIME_WORDS:
            close()
            previous_asked = False
            continue
        if not current:
            after_question = previous_asked or (after_question and token.word in FILLER)
        if token.word not in FILLER:
            previous_asked = False
        current.append(token)
    close()
    return runs


def _score(run: _Run, kind: QuestionKind, sentence: str) -> float:
    content = [t for t in run.tokens if t.word not in FILLER]
    score = min(len(content), 3) * 1.0
    if len(run.tokens) > MAX_SPAN_WORDS:
        score -= 0.5 * (len(run.tokens) - MAX_SPAN_WORDS)
    if run.after_question_word:
        score += 1.5
    if run.before_head:
        score += 2.5
    if run.quoted:
        score += 2.0
    # A sentence-initial capital says nothing, except for "who": "Daniel organised the drinks."
    capitalised = [t for t in content if sentence[t.start].isupper() and (t.start > 0 or kind == "who")]
    numbers = [t for t in run.tokens if t.word.isdigit() or t.word in _NUMBER_WORDS]
    if kind == "how_many":
        score += 4.0 if numbers else -1.0
    elif kind == "how_long":
        score += 4.0 if numbers and any(t.word in _DURATION_WORDS for t in run.tokens) else (2.0 if numbers else 0.0)
    elif kind == "who":
        score += 4.0 if capitalised else 0.0
    elif kind == "where":
        before = sentence[: run.tokens[0].start].split()
        after_place_word = bool(before) and before[-1].lower() in _PLACE_PREPOSITIONS
        score += (2.0 if capitalised else 0.0) + (2.0 if after_place_word else 0.0)
    elif capitalised:
        score += 0.5
    return score


def _trimmed(sentence: str, run: _Run) -> tuple[int, int]:
    kept = run.tokens
    if run.before_head:  # the noun phrase that ends with the head, not the verb before it
        opens = [i for i, t in enumerate(kept[:-2]) if t.word in _DETERMINERS]
        # ... unless what comes before names the thing: "Barcelona is a must-visit city" answers "which city".
        if opens and not _names_before(sentence, kept[: opens[-1]]):
            kept = kept[opens[-1] + 1 :]
    if len(kept) > 1 and kept[0].word in _NAMING_WORDS and not run.quoted:
        kept = kept[1:]
    kept = kept[:MAX_SPAN_WORDS] if len(kept) > MAX_SPAN_WORDS else kept
    while len(kept) > 1 and kept[-1].word in FILLER:
        kept = kept[:-1]
    start, end = kept[0].start, kept[-1].end
    if run.quoted:
        return start, end
    return start, _close_quote(sentence, end) if _opens_quote(sentence, start) else end


def _names_before(sentence: str, dropped: tuple[Token, ...]) -> bool:
    """Whether the words before a noun phrase's determiner name its thing: a copula ("X is a ...") or a name
    inside the sentence (a sentence's first word is capitalised whatever it is)."""
    if dropped and dropped[-1].word in _COPULAS:
        return True
    return any(t.start > 0 and sentence[t.start].isupper() and t.word != "i" for t in dropped)


def _after_marker(sentence: str, words: list[Token], markers: tuple[str, ...]) -> tuple[int, int] | None:
    """The clause that follows the first marker word ("because ...", "by ..."), up to the next sentence end."""
    lowered = [t.word for t in words]
    for marker in markers:
        parts = marker.split()
        for i in range(len(lowered) - len(parts)):
            if lowered[i : i + len(parts)] == parts:
                rest = words[i + len(parts) :]
                end = next(
                    (
                        rest[j].end
                        for j in range(len(rest) - 1)
                        if re.search(r"[.!?;]", sentence[rest[j].end : rest[j + 1].start])
                    ),
                    rest[-1].end,
                )
                start = words[i].start if marker in _MANNER_MARKERS else rest[0].start
                return start, end
    return None


def _is_quoted(sentence: str, start: int, end: int) -> bool:
    return _opens_quote(sentence, start) and end < len(sentence) and sentence[end] in "\"”'’"


def _opens_quote(sentence: str, start: int) -> bool:
    return start > 0 and sentence[start - 1] in "\"“'‘"


def _close_quote(sentence: str, end: int) -> int:
    return end + 1 if end < len(sentence) and sentence[end] in '"”' else end
