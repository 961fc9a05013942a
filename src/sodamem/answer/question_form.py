"""A question as the readers parse it, without the words people wrap it in: "Remind me, who is Imogen?", "and who
is ama to me", "Who is Saoirse, dear?", "who's Tariq again?", "Can you remind me who my dentist is?" are "Who is
Imogen?", "Who is ama?", ..., "Who is my dentist?"; the present said in other words is "now" ("Who's my trainer
right now?"). The readers' patterns are written for the bare question; these words never change what is asked
("again" and "to me" only after a who- or what-is question: "Did I break up with Tom again?" keeps it).
"""

from __future__ import annotations

import re

_LEADING = re.compile(
    r"^\s*(?:(?:(?:can|could)\s+you\s+)?remind\s+me|quick\s+question|one\s+more\s+thing|hey|hi|hello|ok(?:ay)?|so|and"
    r"|um+|btw|sorry|also|oh|wait|hmm+)\b\s*[,:;.!-]*\s*",
    re.IGNORECASE,
)
_ASKED = re.compile(r"^(?:who|what|where|when|which|whom|whose|how|is|are|was|were|do|does|did|am)\b", re.IGNORECASE)
_VOCATIVE = re.compile(r"(?:\s*,\s*(?:dear|love|mate|buddy|pal|please)|\s+please|\s+btw|\s+lol)+(?=\s*\??\s*$)", re.I)
_WHO_IS = re.compile(r"^(?:who|what)(?:\s+(?:is|was|are)|['’]s)\b", re.IGNORECASE)
_TO_ME = re.compile(r"(?:\s*,?\s+(?:to|for)\s+me|\s*,?\s+again|\s+exactly)+(?=\s*\??\s*$)", re.IGNORECASE)
# the present said in other words: "right now", "these days", "at the moment" are "now"
_NOW = re.compile(
    r"\s+(?:right\s+now|at\s+the\s+moment|currently|these\s+days|at\s+present|in\s+this\s+moment|nowadays)"
    r"(?=\s*\??\s*$)",
    re.IGNORECASE,
)
_DONE_TO_ME = re.compile(r"\b\w+(?:ed|ing|en)\s+(?:to|for)\s+me\b", re.IGNORECASE)
# "who my dentist is": the order of a question asked inside another (of a person or a name: not "what time it is")
_EMBEDDED = re.compile(
    r"^(?P<wh>who|what)\s+(?P<what>(?i:my|our)\s+.+?|[A-Z][\w'’-]*(?:['’]s\s+\w+)?)\s+(?P<be>is|was|are)\s*(?P<end>\??)\s*$"
)


def plain_question(question: str) -> str:
    """``question`` without the words around it that ask nothing (itself where none are, or where what is left is no
    question: "So?" stays); what is stripped may bare more ("Who is Ana to me, dear?"), so to a fixed point."""
    bare = _plainer(question)
    for _ in range(4):
        barer = _plainer(bare)
        if barer == bare:
            break
        bare = barer
    return bare


def _plainer(question: str) -> str:
    bare, embedded = question, False
    while (lead := _LEADING.match(bare)) is not None and lead.end() > 0:
        rest = bare[lead.end() :]
        if not _ASKED.match(rest):
            break
        bare, embedded = rest, embedded or lead.group().lower().lstrip().startswith(("remind", "can", "could"))
    bare = _NOW.sub(" now", _VOCATIVE.sub("", bare))
    if _WHO_IS.match(bare) and len(bare.split()) <= 6 and not _DONE_TO_ME.search(bare):
        bare = _TO_ME.sub("", bare)  # "Who is Yuki to me?"; not "Who is married to me?", nor a longer question
    if embedded and (m := _EMBEDDED.match(bare)) is not None:
        bare = f"{m['wh']} {m['be']} {m['what']}?"
    if bare == question or not re.search(r"\w", bare):
        return question
    return bare[:1].upper() + bare[1:]
