"""Free text -> a safe FTS5 MATCH expression.

Every word becomes a quoted FTS5 string, so operators (AND, OR, NOT, NEAR), ``*``, ``:``, ``^``, hyphens,
brackets and quotes in the user's text are searched as plain words and can never raise a syntax error.
Words are OR-ed: BM25 rewards documents matching more of them.
"""

from __future__ import annotations

import re
from collections.abc import Collection

MAX_TERMS = 64

# Letters and digits as SQLite's unicode61 tokenizer sees them; everything else separates words.
_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = frozenset(
    """a an the and or but if of at by for with about against between into through during before after above
    below to from up down in out on off over under again further then once here there when where why how all
    any both each few more most other some such no nor not only own same so than too very s t can will just
    don should now is are was were be been being have has had having do does did doing i me my myself we our
    ours you your yours he him his she her hers it its they them their what which who whom this that these
    those am would could""".split()
)


def query_terms(text: str) -> list[str]:
    """The distinct lower-cased words of ``text`` in order, stopwords dropped unless nothing else is left."""
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(text)))
    content = [w for w in words if w not in STOPWORDS]
    return (content or words)[:MAX_TERMS]


def to_match_query(text: str, drop: Collection[str] = ()) -> str | None:
    """An FTS5 MATCH string for ``text``, or None when it holds no searchable word. Words in ``drop`` (lower-case)
    are left out unless nothing else is left."""
    terms = query_terms(text)
    terms = [t for t in terms if t not in drop] or terms
    if not terms:
        return None
    return " OR ".join(f'"{term}"' for term in terms)


def without_words(text: str, drop: Collection[str]) -> str:
    """``text`` without the words in ``drop`` (lower-case; a possessive "'s" goes with its word), spaces closed up.
    ``text`` itself when nothing is dropped or nothing but those words and punctuation would be left."""
    if not drop:
        return text
    kept = _POSSESSIVE_WORD.sub(lambda m: "" if m.group(1).lower() in drop else m.group(0), text)
    kept = " ".join(kept.split())
    kept = re.sub(r"\s+([?!.,;:])", r"\1", kept)
    return kept if _WORD.search(kept) else text


_POSSESSIVE_WORD = re.compile(r"([^\W_]+)(?:['’]s\b)?")
