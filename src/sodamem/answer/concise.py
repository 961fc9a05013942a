"""An LLM answer without the words that only restate its question.

Small models answer in a full sentence that repeats the question around the answer: "What does John want to do
with his blog?" gets "John wants to use his blog to share his research on education reform." A person asked
"where does Andrew want to live?" says "near a park or woods", and so does the offline reader; LoCoMo's token F1
scores the repeated words as noise. So, as for when-answers (``cited_date.py``), the answer is cut to its own words
and the model's sentence becomes the answer's detail:

* the longest opening whose every word is a word of the question (compared by their Porter stems) or a grammar
  word (an article, an auxiliary, a pronoun) is dropped: "John wants to use his blog to" ... ;
* then a closing phrase that only restates the question is dropped, when it starts at a phrase boundary (a
  preposition, "to", "because"): "... to give their dog a large, open space to run around";
* a yes/no question answered "Yes, she would ..." keeps "Yes" (or "No"), and a reason only when it says something
  the question did not.

Nothing is cut when nothing new would be left ("Would she rather go to a national park or a theme park?" answered
"She would go to a national park") or when the answer is already short. Words are only removed, never added or
changed, so the answer still rests on what the model cited.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sodamem.answer.spans import question_kind
from sodamem.porter import stem

_WORD = re.compile(r"[\w][\w'’-]*")
_GRAMMAR = frozenset(
    """a an the is are was were be been being am has have had having do does did doing will would shall should can
    could may might must he she it they them his her hers its their theirs him i me my we our you your this that
    these those there also too still already yet really definitely probably likely anymore several some many various
    different few""".split()
)
# Past forms Porter's stems do not join to the present the question asks in: "Why did she leave?" "She left ...".
_IRREGULAR = {
    past: present
    for present, forms in {
        "be": "was were been",
        "become": "became",
        "begin": "began begun",
        "bring": "brought",
        "build": "built",
        "buy": "bought",
        "choose": "chose chosen",
        "come": "came",
        "do": "did done",
        "drive": "drove driven",
        "eat": "ate eaten",
        "feel": "felt",
        "find": "found",
        "get": "got gotten",
        "give": "gave given",
        "go": "went gone",
        "grow": "grew grown",
        "have": "had",
        "hear": "heard",
        "hold": "held",
        "keep": "kept",
        "know": "knew known",
        "leave": "left",
        "lose": "lost",
        "make": "made",
        "meet": "met",
        "pay": "paid",
        "run": "ran",
        "say": "said",
        "see": "saw seen",
        "sell": "sold",
        "send": "sent",
        "spend": "spent",
        "take": "took taken",
        "teach": "taught",
        "tell": "told",
        "think": "thought",
        "win": "won",
        "write": "wrote written",
    }.items()
    for past in forms.split()
}
_NEGATIONS = frozenset("not no never nothing none isn't wasn't doesn't didn't don't won't wouldn't can't".split())
_ARTICLES = frozenset("a an the".split())
# Where a phrase that restates the question may start at the end of an answer: "... near the park [to give their
# dog room to run]", "... a marching event [for veterans' rights]".
_PHRASE_STARTS = frozenset(
    """to for on in at with about during after before since because by from of as when while""".split()
)
# Left at the start of what remains, these only join it to the cut opening: "..., including board games".
_JOINERS = re.compile(
    r"^(?:[,;:–—-]\s*)*(?:(?:including|namely|such as|which (?:is|was)|that (?:is|was)|of)\b\s*)?", re.IGNORECASE
)
_NOTES = re.compile(r"\s*\[[^\]]*\]")  # the reader's bracketed notes ("[E24:1]"): not the answer's words
_YES_NO = re.compile(r"^\s*(yes|no)\b[\s,.;:!-]*", re.IGNORECASE)
# A yes/no answer's clauses: the ones that only restate the question go, a reason stays whole.
_CLAUSE = re.compile(r"\s*[;,.:]\s*|\s+(?=(?:because|but|since|as|so)\b)")
_MIN_WORDS = 4  # an answer this short is already what a person would say


@dataclass(frozen=True, slots=True)
class ConciseAnswer:
    text: str  # the answer's own words, without ids
    cut: str  # what was dropped, for the flag's reader: "opening", "closing", "both" or "yes_no"


def concise_answer(answer: str, question: str) -> ConciseAnswer | None:
    """``answer`` (its words, without ids) without the words that restate ``question`` (see the module docstring);
    None when nothing is cut."""
    words = _NOTES.sub("", answer).strip().rstrip(".!?").strip()
    if question_kind(question) == "yes_no" and (verdict := _YES_NO.match(words)):
        said = verdict.group(1).capitalize()
        reasons = [c for c in _CLAUSE.split(words[verdict.end() :]) if _content_words(c, question)]
        short = ", ".join([said, *reasons])
        return ConciseAnswer(short, "yes_no") if short.lower() != words.lower() else None
    if len(_WORD.findall(words)) < _MIN_WORDS:
        return None
    rest = _own_words(words, question)
    if rest is None or rest == words:
        return None
    return ConciseAnswer(rest, "echo")


def _own_words(words: str, question: str) -> str | None:
    """``words`` without an opening and a closing that restate ``question``; None when no new word would be left."""
    asked = {_key(w) for w in _WORD.findall(question)}
    tokens = list(_WORD.finditer(words))
    start = 0
    while start < len(tokens) and _echoes(tokens[start].group(), asked):
        start += 1
    if start == len(tokens):
        return None
    if start and tokens[start - 1].group().lower() in _ARTICLES and words[tokens[start - 1].end()] == " ":
        start -= 1  # "the cello", as a person says it
    end = len(tokens)
    for first in range(start + 1, len(tokens)):
        word = tokens[first].group().lower()
        if word in _PHRASE_STARTS and all(_echoes(t.group(), asked) for t in tokens[first:]):
            end = first
            break
    # no closing cut: the answer's end stays as written ("... (source D3:1)")
    stop = tokens[end - 1].end() if end < len(tokens) else len(words)
    text = words[tokens[start].start() if start else 0 : stop]
    text = _JOINERS.sub("", text).strip(" ,;:")
    return text if _WORD.search(text) else None


def _content_words(text: str, question: str) -> list[str]:
    """The words of ``text`` that are neither the question's, grammar, nor a negation."""
    asked = {_key(w) for w in _WORD.findall(question)}
    return [w for w in _WORD.findall(text) if not _echoes(w, asked) and w.lower() not in _NEGATIONS]


def _echoes(word: str, asked: set[str]) -> bool:
    lowered = word.lower()
    return lowered in _GRAMMAR or _key(word) in asked


def _key(word: str) -> str:
    lowered = word.lower().replace("’", "'").rstrip("'")
    if lowered.endswith("'s"):
        lowered = lowered[:-2]
    return stem(_IRREGULAR.get(lowered, lowered))
