"""Entity names: the key two mentions must share to be one entity (case, possessives, articles, plurals)."""

from __future__ import annotations

import re
from collections.abc import Iterable

_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")
_ARTICLE = re.compile(r"^(?:the|a|an|my|our|your)\s+", re.IGNORECASE)
_POSSESSIVE = re.compile(r"[’']s\b")
_NOT_PLURAL = re.compile(r"(?:ss|us|is|ys)$")


def entity_key(name: str) -> str:
    """``"The Arch"`` -> ``"arch"``; ``"Maya’s sister"`` -> ``"maya's sister"``; ``"cats"`` -> ``"cat"``.

    Plurals fold only for lower-case words (common nouns), never for names: "James" stays "james".
    """
    text = _SPACE.sub(" ", name.replace("’", "'")).strip()
    text = _EDGE_PUNCT.sub("", text)
    text = _ARTICLE.sub("", text)
    words = text.split(" ")
    if words and words[-1].islower() and len(words[-1]) > 3 and words[-1].endswith("s"):
        last = words[-1]
        if not _NOT_PLURAL.search(last) and "'" not in last:
            if last.endswith("ies"):
                words[-1] = last[:-3] + "y"
            elif last.endswith(("sses", "xes", "ches", "shes")):
                words[-1] = last[:-2]
            else:
                words[-1] = last[:-1]
    return " ".join(words).casefold()


def value_key(value: str | None) -> str:
    """The comparable form of a fact's value (its object): an entity key, or empty."""
    return entity_key(value) if value else ""


def possessive_owner(name: str) -> str | None:
    """``"Maya's sister"`` -> ``"Maya"`` (the entity a relational name hangs on), else None."""
    match = _POSSESSIVE.search(name.replace("’", "'"))
    return name[: match.start()].strip() if match else None


def _person_key(name: str) -> str:
    return entity_key(name).replace(".", "")  # a title's full stop or none alike: "Dr Ferreira" is "Dr. Ferreira"


def same_person(a: str, b: str) -> bool:
    """Whether two names may be one person: one key (a title's full stop or none alike: "Dr Ferreira" is "Dr.
    Ferreira"), or a given name alone and the full name it begins ("Gerald" and "Gerald Whitcombe")."""
    first, second = _person_key(a), _person_key(b)
    if first == second:
        return bool(first)
    short, full = sorted((first, second), key=lambda k: len(k.split()))
    return len(short.split()) == 1 and len(full.split()) > 1 and full.split()[0] == short


def one_person(said: str, holder: str, known: Iterable[str] = ()) -> bool:
    """Whether ``said`` names ``holder``: the same name, or a given name alone that begins no other of ``known``
    (``same_person``; "Tom" is not "Tom Harris" where "Tom Reed" is known too)."""
    if not same_person(said, holder):
        return False
    if _person_key(said) == _person_key(holder):
        return True
    return all(
        not same_person(said, other) or (same_person(other, holder) and len(other.split()) > 1) for other in known
    )
