"""The Porter (1980) suffix-stripping stemmer, written from the paper, with NLTK's extensions as an option.

M. F. Porter, "An algorithm for suffix stripping", Program 14(3), 130-137, 1980.

Shared by the bench (LoCoMo's QA scorer), the offline reader and the retrieval's feedback words, so it lives at
the package's top, not under ``bench``. Two modes:

- ``"original"``: the published algorithm (steps 1a, 1b, 1c, 2, 3, 4, 5a, 5b), e.g. ``ties -> ti``; SQLite's
  FTS5 ``porter`` tokenizer stems the same way (checked in ``tests/test_retrieve_feedback.py``).
- ``"nltk"`` (default): what ``nltk.stem.PorterStemmer()`` does in its default ``NLTK_EXTENSIONS`` mode. LoCoMo's
  official QA scorer (task_eval/evaluation.py) stems with that class, so F1 scores only match the published numbers
  in this mode. The departures: a small table of irregular forms (``dying -> die``, ``skies -> sky``, ...); words
  of one or two letters are returned as they are; ``ies``/``ied`` become ``ie`` in four-letter words
  (``ties -> tie``, ``died -> die``) and ``i`` elsewhere; step 1c turns ``y`` into ``i`` only after a consonant
  that is not the first letter (``enjoy`` stays, ``cry -> cri``); *o also holds for a two-letter vowel-consonant
  stem; step 2 uses ``bli -> ble`` (not ``abli -> able``), ``alli -> al`` first and re-runs step 2 on the result,
  and adds ``fulli -> ful`` and ``logi -> log``.

Input is lower-cased first (as NLTK does); only lower-case ASCII letters are treated as vowels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Literal

Mode = Literal["nltk", "original"]

_VOWELS = frozenset("aeiou")
_IRREGULAR: dict[str, str] = {
    "sky": "sky",
    "skies": "sky",
    "dying": "die",
    "lying": "lie",
    "tying": "tie",
    "news": "news",
    "innings": "inning",
    "inning": "inning",
    "outings": "outing",
    "outing": "outing",
    "cannings": "canning",
    "canning": "canning",
    "howe": "howe",
    "proceed": "proceed",
    "exceed": "exceed",
    "succeed": "succeed",
}

Condition = Callable[[str], bool] | None
Rule = tuple[str, str, Condition]
_DOUBLE = "*d"  # pseudo-suffix: the word ends in a double consonant


def _consonants(word: str) -> list[bool]:
    """Per letter, whether it is a consonant: not a, e, i, o, u, and ``y`` only at the start or after a vowel."""
    flags: list[bool] = []
    for i, ch in enumerate(word):
        if ch in _VOWELS:
            flags.append(False)
        elif ch == "y":
            flags.append(i == 0 or not flags[i - 1])
        else:
            flags.append(True)
    return flags


def measure(stem: str) -> int:
    """Porter's m: the number of VC sequences in the form [C](VC){m}[V]."""
    pattern = "".join("c" if c else "v" for c in _consonants(stem))
    return pattern.count("vc")


def _contains_vowel(stem: str) -> bool:
    return not all(_consonants(stem))


def _ends_double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonants(word)[-1]


class PorterStemmer:
    """A stemmer in one of the two modes; ``stem`` is a pure function of the word."""

    def __init__(self, mode: Mode = "nltk") -> None:
        if mode not in ("nltk", "original"):
            raise ValueError(f"unknown Porter mode: {mode!r}")
        self.mode: Mode = mode
        self._nltk = mode == "nltk"

    def stem(self, word: str) -> str:
        """Return the stem of ``word`` (lower-cased)."""
        word = word.lower()
        if self._nltk:
            if word in _IRREGULAR:
                return _IRREGULAR[word]
            if len(word) <= 2:
                return word
        for step in (
            self._step1a,
            self._step1b,
            self._step1c,
            self._step2,
            self._step3,
            self._step4,
            self._step5a,
            self._step5b,
        ):
            word = step(word)
        return word

    # The first rule whose suffix matches decides; if its condition fails, the word is left as it is.
    @staticmethod
    def _apply(word: str, rules: Sequence[Rule]) -> str:
        for suffix, replacement, condition in rules:
            if suffix == _DOUBLE:
                if not _ends_double_consonant(word):
                    continue
                stem = word[:-2]
            elif word.endswith(suffix):
                stem = word[: len(word) - len(suffix)]
            else:
                continue
            return stem + replacement if condition is None or condition(stem) else word
        return word

    def _ends_cvc(self, word: str) -> bool:
        """Porter's *o: the stem ends consonant-vowel-consonant, the last not w, x or y."""
        c = _consonants(word)
        if len(word) >= 3 and c[-3] and not c[-2] and c[-1] and word[-1] not in "wxy":
            return True
        return self._nltk and len(word) == 2 and not c[0] and c[1]

    def _step1a(self, word: str) -> str:
        if self._nltk and len(word) == 4 and word.endswith("ies"):
            return word[:-3] + "ie"
        return self._apply(word, [("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None), ("s", "", None)])

    def _step1b(self, word: str) -> str:
        if self._nltk and word.endswith("ied"):
            return word[:-3] + ("ie" if len(word) == 4 else "i")
        if word.endswith("eed"):
            return word[:-1] if measure(word[:-3]) > 0 else word
        for suffix in ("ed", "ing"):
            if word.endswith(suffix) and _contains_vowel(word[: -len(suffix)]):
                stem = word[: -len(suffix)]
                break
        else:
            return word
        last = stem[-1]
        return self._apply(
            stem,
            [
                ("at", "ate", None),
                ("bl", "ble", None),
                ("iz", "ize", None),
                (_DOUBLE, last, lambda _: last not in "lsz"),
                ("", "e", lambda s: measure(s) == 1 and self._ends_cvc(s)),
            ],
        )

    def _step1c(self, word: str) -> str:
        if self._nltk:
            return self._apply(word, [("y", "i", lambda s: len(s) > 1 and _consonants(s)[-1])])
        return self._apply(word, [("y", "i", _contains_vowel)])

    def _step2(self, word: str) -> str:
        if self._nltk and word.endswith("alli") and measure(word[:-4]) > 0:
            return self._step2(word[:-4] + "al")
        positive: Condition = _positive
        rules: list[Rule] = [
            ("ational", "ate", positive),
            ("tional", "tion", positive),
            ("enci", "ence", positive),
            ("anci", "ance", positive),
            ("izer", "ize", positive),
            ("bli", "ble", positive) if self._nltk else ("abli", "able", positive),
            ("alli", "al", positive),
            ("entli", "ent", positive),
            ("eli", "e", positive),
            ("ousli", "ous", positive),
            ("ization", "ize", positive),
            ("ation", "ate", positive),
            ("ator", "ate", positive),
            ("alism", "al", positive),
            ("iveness", "ive", positive),
            ("fulness", "ful", positive),
            ("ousness", "ous", positive),
            ("aliti", "al", positive),
            ("iviti", "ive", positive),
            ("biliti", "ble", positive),
        ]
        if self._nltk:
            rules.append(("fulli", "ful", positive))
            # the 'l' of 'logi' stays with the stem, so geo-logi and theo-logi qualify
            rules.append(("logi", "log", lambda s: measure(s + "l") > 0))
        return self._apply(word, rules)

    def _step3(self, word: str) -> str:
        return self._apply(
            word,
            [
                ("icate", "ic", _positive),
                ("ative", "", _positive),
                ("alize", "al", _positive),
                ("iciti", "ic", _positive),
                ("ical", "ic", _positive),
                ("ful", "", _positive),
                ("ness", "", _positive),
            ],
        )

    def _step4(self, word: str) -> str:
        rules: list[Rule] = [
            (suffix, "", _above_one)
            for suffix in ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent")
        ]
        rules.append(("ion", "", lambda s: measure(s) > 1 and s[-1:] in ("s", "t")))
        rules.extend((suffix, "", _above_one) for suffix in ("ou", "ism", "ate", "iti", "ous", "ive", "ize"))
        return self._apply(word, rules)

    def _step5a(self, word: str) -> str:
        if word.endswith("e"):
            m = measure(word[:-1])
            if m > 1 or (m == 1 and not self._ends_cvc(word[:-1])):
                return word[:-1]
        return word

    def _step5b(self, word: str) -> str:
        return word[:-1] if word.endswith("ll") and measure(word[:-1]) > 1 else word


def _positive(stem: str) -> bool:
    return measure(stem) > 0


def _above_one(stem: str) -> bool:
    return measure(stem) > 1


@lru_cache(maxsize=2)
def _stemmer(mode: Mode) -> PorterStemmer:
    return PorterStemmer(mode)


@lru_cache(maxsize=65536)
def stem(word: str, mode: Mode = "nltk") -> str:
    """Stem one word (cached); ``mode="nltk"`` matches ``nltk.stem.PorterStemmer().stem``."""
    return _stemmer(mode).stem(word)
