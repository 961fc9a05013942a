"""The reader's reply text, checked and cleaned before it is grounded (pure functions of strings).

Small models copy the evidence pack's own notation into their answers: resolved time notes ("yesterday [yesterday =
2023-06-08]"), ISO dates, "(source D7:22)" markup; and they cite ids they were never shown. These functions say it as
a person would and sort the cited ids into known and unknown; ``llm_loop`` decides what to do with the result.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from sodamem.answer.dates import human_day
from sodamem.llm.prompts.read_answer import NOT_IN_MEMORY

_ID = re.compile(r"\bE\d+\b")
_BRACKET = re.compile(r"\s*\[((?:\s*E\d+\s*[,;]?)+)\]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")
# An ISO date the reader copied from a resolved time word, with its time of day, or an interval "A..B" of them.
_ISO_DATE = r"(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?"
_ISO_DATES = re.compile(rf"\b{_ISO_DATE}(?:\s*\.\.\s*{_ISO_DATE})?\b")
_ISO_MONTH = re.compile(r"\b(\d{4})-(0[1-9]|1[0-2])\b(?!-\d)")  # the pack's form of a whole month: 2024-02
# The pack's note beside a resolved time word ("yesterday [yesterday = 2023-06-08]"), which small models copy
_TIME_NOTE = re.compile(r"\s*\[([^\[\]=]+?)\s*=\s*([^\[\]=]+?)\]")
# The pack's own markup copied into an answer: "(source D7:22)" after a fact, "(turn D7:22)" after a speaker, and a
# fact line's "fact (active):" opening. It says where a line came from, which the answer's ids already say.
_PACK_MARKUP = re.compile(r"\s*\((?:source|turn) [^()\s]+\)|^\s*fact \((?:active|superseded|invalid)\):\s*")


def drop_pack_markup(answer: str) -> str:
    """``answer`` without the pack's markup ("(source D7:22)", "(turn D7:22)", "fact (active):")."""
    return _PACK_MARKUP.sub("", answer)


def cites_an_id(sentence: str) -> bool:
    """Whether ``sentence`` names an evidence id (E3)."""
    return _ID.search(sentence) is not None


def without_ids(text: str) -> str:
    """``text`` without its bracketed evidence ids ("[E1, E4]"), trimmed."""
    return _BRACKET.sub("", text).strip()


def validate_citations(answer: str, listed: Sequence[str], known: set[str]) -> tuple[str, list[str], list[str]]:
    """The answer with unknown ids removed from its brackets, the known ids cited (in order), the unknown ones."""
    cited: list[str] = []
    unknown: list[str] = []

    def note(item_id: str) -> bool:
        if item_id in known:
            if item_id not in cited:
                cited.append(item_id)
            return True
        if item_id not in unknown:
            unknown.append(item_id)
        return False

    def rewrite(match: re.Match[str]) -> str:
        kept = [i for i in _ID.findall(match.group(1)) if note(i)]
        return f" [{', '.join(kept)}]" if kept else ""

    text = _BRACKET.sub(rewrite, answer).strip()
    for raw in listed:  # ids listed in "citations" but not in the text still count (and unknown ones are flagged)
        item_id = raw.strip().strip("[]").strip().upper()
        if item_id:
            note(item_id)
    return text, cited, unknown


def resolve_time_notes(answer: str) -> str:
    """A time word copied with the pack's note on it, said as the date it resolved to: "she left yesterday
    [yesterday = 2023-06-08]" -> "she left 2023-06-08" (a note without its word before it is replaced alone)."""
    parts: list[str] = []
    position = 0
    for match in _TIME_NOTE.finditer(answer):
        before = answer[position : match.start()]
        word, value = match.group(1).strip(), match.group(2).strip()
        if before.lower().endswith(word.lower()):
            before = before[: len(before) - len(word)]
        else:
            before = before + " " if before and not before.endswith(" ") else before
        parts.append(before + value)
        position = match.end()
    parts.append(answer[position:])
    return "".join(parts)


def human_dates(answer: str) -> str:
    """ISO dates copied from the evidence's resolved time words, as a person says them (``2023-06-15`` ->
    ``15 June 2023``, ``2023-10-16..2023-10-29`` -> ``16 October 2023 to 29 October 2023``, ``2024-02`` ->
    ``February 2024``), as the offline reader words them; small models copy the bracketed ISO form verbatim."""

    def say(match: re.Match[str]) -> str:
        first, last = match.group(1), match.group(2)
        if last is None or last == first:
            return human_day(first)
        return f"{human_day(first)} to {human_day(last)}"

    def month(match: re.Match[str]) -> str:
        return f"{datetime(int(match.group(1)), int(match.group(2)), 1):%B %Y}"

    return _ISO_MONTH.sub(month, _ISO_DATES.sub(say, answer))


def says_not_in_memory(answer: str) -> bool:
    """The reader answered "not in memory" (any case, with or without ids or a full stop) yet did not abstain."""
    words = _BRACKET.sub("", answer).strip().rstrip(".!").strip().lower()
    return words == NOT_IN_MEMORY


def has_words(sentence: str) -> bool:
    """Whether ``sentence`` says anything outside square brackets ("[Session s1 — 2024-05-01]." does not)."""
    return bool(re.search(r"\w", re.sub(r"\[[^\]]*\]", "", sentence)))


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split after ".", "!" or "?"), empty ones dropped."""
    return [s for s in _SENTENCE.split(text.strip()) if s.strip()]
