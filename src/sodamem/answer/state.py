"""Which functional predicates a current-state question asks about ("where does Maya live" -> lives_in)."""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+")

# question keywords -> the functional predicates they ask about (a trailing "*" is a prefix)
STATE_KEYWORDS: dict[str, tuple[str, ...]] = {
    "live": ("lives_in",),
    "lives": ("lives_in",),
    "living": ("lives_in",),
    "reside": ("lives_in",),
    "resides": ("lives_in",),
    "moved": ("lives_in",),
    "move": ("lives_in",),
    "work": ("works_at", "job"),
    "works": ("works_at", "job"),
    "working": ("works_at", "job"),
    "employer": ("works_at",),
    "employed": ("works_at",),
    "company": ("works_at",),
    "job": ("job", "works_at"),
    "occupation": ("job",),
    "profession": ("job",),
    "career": ("job",),
    "eat": ("diet",),
    "eats": ("diet",),
    "diet": ("diet",),
    "vegan": ("diet",),
    "vegetarian": ("diet",),
    "study": ("studies_at", "studies"),
    "studies": ("studies_at", "studies"),
    "studying": ("studies_at", "studies"),
    "school": ("studies_at",),
    "university": ("studies_at",),
    "college": ("studies_at",),
    "relationship": ("relationship_status",),
    "married": ("relationship_status",),
    "single": ("relationship_status",),
    "dating": ("relationship_status",),
    "from": ("comes_from", "grew_up_in"),
    "grew": ("grew_up_in",),
    "grow": ("grew_up_in",),
    "age": ("age",),
    "old": ("age",),
    "favorite": ("favorite_*", "favourite_*"),
    "favourite": ("favorite_*", "favourite_*"),
}


# "What does Maya do?", "What does my aunt do for a living?": the question asks for an occupation
_WHAT_DO = re.compile(
    r"^\s*what\s+(?:does|do)\s+\S.*?\s+do(?:\s+for\s+(?:a\s+)?(?:living|work))?"
    r"(?:\s+(?:now|these\s+days|nowadays|currently|at\s+the\s+moment))?\s*\??\s*$",
    re.IGNORECASE,
)


# "working on opening", "work out", "worked with": other verbs than holding a job; "for a living" is no home
_NOT_A_STATE = re.compile(
    r"\bwork(?:s|ing|ed)?\s+(?:on|out|with|through|together|hard)\b|\bfor\s+a\s+living\b"
    r"|\blive[sd]?\s+with\b"  # whom one lives with is no home ("Who does my sister live with?" is not York)
    r"|\bcompany['’]s\s+(?!name\b)",  # "Which company's headphones did John choose?" asks no employer
    re.IGNORECASE,
)


def state_predicates(question: str) -> tuple[str, ...]:
    """The predicates ``question``'s keywords point to, in the order they appear (a trailing "*" is a prefix)."""
    found: dict[str, None] = {}
    if _WHAT_DO.match(question):
        found.update(dict.fromkeys(("job", "works_at")))
    for word in (w.lower() for w in _WORD.findall(_NOT_A_STATE.sub(" ", question))):
        for predicate in STATE_KEYWORDS.get(word, ()):
            found.setdefault(predicate)
    if "job" in found and _ASKS_A_TITLE.search(question):
        found.pop("works_at", None)  # "What's my job title?" is not the employer
    elif "works_at" in found and _ASKS_AN_EMPLOYER.search(question) and not _SAYS_JOB.search(question):
        found.pop("job", None)  # "Which company do I work for?", "Who do I work for?" is not the job title
    return tuple(found)


_SAYS_JOB = re.compile(r"\bjob\b", re.IGNORECASE)  # "What's my job at the firm?" asks the title
_ASKS_AN_EMPLOYER = re.compile(
    r"\b(?:company|employer|firm)\b|^\s*(?:who|which\s+\w+)\s+(?:do|does|did)\s+.*\bwork\s+for\b", re.IGNORECASE
)


_ASKS_A_TITLE = re.compile(r"\b(?:job\s+title|title|position|role)\b", re.IGNORECASE)
