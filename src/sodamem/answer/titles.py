"""Whether a job title still holds: a title said with its employer ("I'm a barista at Bean There") is that employer's
job, and ends when the employer is left ("I quit Bean There") or another takes its place ("First week at Lumen
Health", "I start at Talkdesk on June 1st", once that day has come); "I quit my job" (naming none) ends it too. A title
said with no employer ("I'm a nurse") outlives any employer and any job quit: a nurse moving hospitals is still a nurse.

Facts of the job slot and of the employer slot never supersede each other at ingestion (``ingest/supersede.py``), so
whether a title outlived its employer is read here, at question time, like the plans of ``due_plans``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from sodamem import instants
from sodamem.records import FactRecord


def job_ending(
    job: FactRecord, facts: Iterable[FactRecord], starts: Iterable[FactRecord], asked_at: datetime
) -> FactRecord | None:
    """The fact that ended ``job`` by ``asked_at``, its employer left or replaced since it was said: the employer's
    denial ("I quit Bean There"), the employer said since in its place, or the start at one whose day has come
    (``starts``: the subject's dated plans to start at an employer whose day has come, less those called off);
    ``facts``: the subject's facts, superseded ones too. None while the title holds."""
    if job.predicate != "job" or not job.sources:
        return None
    quote = " ".join(source.quote for source in job.sources)
    said = instants.sort_key(job.mentioned_at)
    employers = [f for f in facts if f.predicate == "works_at" and f.modality == "asserted"]
    since = [
        f
        for f in employers
        if said < instants.sort_key(f.mentioned_at) and instants.at_or_before(f.mentioned_at, asked_at)
    ]
    tied = any(f.affirms and f.object and _names(quote, f.object) for f in employers)
    if not tied:
        return None  # "I'm a nurse": no employer to leave ("I quit my job at the pub" may be a second one)
    left = [f for f in since if f.denies and (not f.object or _names(quote, f.object))]
    back = [f for f in since if f.affirms and f.object and _names(quote, f.object)]
    last_quit = _newest(left)
    if last_quit is not None and not (back and _said(_newest(back)) > _said(last_quit)):
        return last_quit  # the latest "I quit Bean There", "I quit my job" (not "I started at Bean There again" since)
    replaced = [f for f in since if f.affirms and f.object and not _names(quote, f.object)]
    if back:  # back at the title's firm: only a firm said since then replaces it ("Bean There rehired me")
        replaced = [f for f in replaced if _said(f) > _said(_newest(back))]
    started = [
        p for p in starts if said < instants.sort_key(p.occurred_start or "") and not _names(quote, p.object or "")
    ]
    ended_by = replaced or started
    return ended_by[0] if ended_by else None


def said_with(job: FactRecord, employer: FactRecord) -> bool:
    """Whether the title ``job`` was said with ``employer``'s firm ("I'm a barista at Bean There"): back there is
    back at that job."""
    quote = " ".join(source.quote for source in job.sources)
    return bool(employer.object) and _names(quote, employer.object or "")


def _newest(facts: list[FactRecord]) -> FactRecord | None:
    return max(facts, key=_said, default=None)


def _said(fact: FactRecord | None) -> datetime:
    return instants.sort_key(fact.mentioned_at) if fact is not None else datetime.min


def _names(quote: str, employer: str) -> bool:
    """Whether ``quote`` names ``employer`` as words, in full or by its first words ("Bean" in "a barista at Bean
    There"; "Bean There Coffee" too, the same firm named longer)."""
    words = employer.split()
    for n in range(len(words), 0, -1):
        named = " ".join(words[:n])
        if len(named) < 3 or named.lower() in _NOT_A_FIRM:
            break
        if re.search(rf"(?<!\w){re.escape(named)}(?!\w)", quote, re.IGNORECASE) is not None:
            return True
    return False


_NOT_A_FIRM = frozenset("the st saint new old".split())  # first words naming no firm alone ("St" of "St James's")
