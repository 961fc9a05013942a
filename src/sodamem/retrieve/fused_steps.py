"""Steps of the memory's ranking that work on fused units after the density fusion (``fused.py`` calls them):
the bridge tunnel's seeds and hits (bridge.py), the echo tunnel's hits (echo.py), the tail spliced from a second
fusion, the tail re-ordered for coverage and answers paired with their questions (tail.py), and the near-duplicate
discount (bridge.py). Each adapts a pure function of ``(unit, mass)`` rankings to ``FusedUnit``s, adding a line to a
moved unit's explanation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from sodamem.embed.base import Vectors
from sodamem.retrieve.bridge import SEED_SCAN, blend, bridge_ranking, discount_duplicates, distinct_session_seeds
from sodamem.retrieve.density import FusedUnit
from sodamem.retrieve.echo import echo_ranking, seed_words
from sodamem.retrieve.feedback import candidate_terms
from sodamem.retrieve.presets import FusedSettings
from sodamem.retrieve.tail import best_ranks, pair_answers, rerank_tail, splice_tail
from sodamem.retrieve.turn_lookup import TurnLookup
from sodamem.store.protocol import MemoryStore, VectorSearch

Ranking = list[tuple[int, float]]


def bridge_seeds(lookup: TurnLookup, units: Sequence[FusedUnit], settings: FusedSettings) -> list[FusedUnit]:
    """The first pass's best ``bridge_seeds`` units; with ``bridge_distinct_sessions`` each session's best only
    (bridge.distinct_session_seeds)."""
    if not settings.bridge_distinct_sessions:
        return list(units[: settings.bridge_seeds])
    head = units[: settings.bridge_seeds * SEED_SCAN]
    sessions = {pk: row.session_pk for pk, row in lookup.rows([u.unit for u in head]).items()}
    chosen = distinct_session_seeds([u.unit for u in head], sessions, settings.bridge_seeds)
    return [u for u in head if u.unit in chosen]


def bridge_hits(
    index: VectorSearch, user: str, query: Vectors, seeds: Sequence[FusedUnit], n: int, settings: FusedSettings
) -> Ranking:
    """The bridge tunnel (bridge.py): the turns nearest to each seed (the first pass's best turns), blended with the
    question, each seed's cosines scaled by its mass relative to the first."""
    vectors = index.exact_vectors(user, "turns", [u.unit for u in seeds])
    best = seeds[0].mass
    hits = {}
    for u in seeds:
        if u.unit in vectors:
            probe = blend(np.asarray(query), np.asarray(vectors[u.unit]), settings.bridge_mix)
            hits[u.unit] = index.search(user, "turns", probe.reshape(1, -1), n)
    weights = {u.unit: u.mass / best if best > 0 else 1.0 for u in seeds}
    return bridge_ranking(hits, weights, n)


def echo_hits(
    store: MemoryStore,
    lookup: TurnLookup,
    user: str,
    seeds: Sequence[FusedUnit],
    skip: set[str],
    n: int,
    settings: FusedSettings,
) -> Ranking:
    """The echo tunnel (echo.py): turns holding the seeds' rare words (``skip``: words never lent, the speakers'
    names), each seed's scores scaled by its mass relative to the first, a turn taking its best; with
    ``echo_same_speaker`` only turns said by the seed's speaker, with ``echo_other_sessions`` only turns of other
    sessions than the seed's; each seed's first ``echo_hits`` turns."""
    texts = store.turn_texts(user, [u.unit for u in seeds])
    lent = {
        u.unit: candidate_terms([f"{texts[u.unit].text} {texts[u.unit].caption or ''}"], skip)
        for u in seeds
        if u.unit in texts
    }
    counts, total = store.turn_term_counts(user, list(dict.fromkeys(s for terms in lent.values() for s in terms)))
    holders: dict[str, list[int]] = {}  # stem -> the turns holding it (one FTS query per rare word, shared by seeds)
    hits: dict[int, Ranking] = {}
    for seed, terms in lent.items():
        words = seed_words(terms, counts, total, settings.echo_min_idf)
        for stem in words:
            if stem not in holders:
                holders[stem] = [row.rowid for row in store.search_turns(user, f'"{terms[stem]}"', n)]
        held: dict[int, set[str]] = {}
        for stem in words:
            for pk in holders[stem]:
                held.setdefault(pk, set()).add(stem)
        if settings.echo_same_speaker or settings.echo_other_sessions:
            rows = lookup.rows([*held, seed])
            if settings.echo_same_speaker:
                held = {pk: s for pk, s in held.items() if pk in rows and rows[pk].speaker == texts[seed].speaker}
            if settings.echo_other_sessions and seed in rows:  # the seed's own session is the spill's
                session = rows[seed].session_pk
                held = {pk: s for pk, s in held.items() if pk in rows and rows[pk].session_pk != session}
        hits[seed] = echo_ranking(words, held, lent.keys(), settings.echo_hits)
    best = seeds[0].mass
    weights = {u.unit: u.mass / best if best > 0 else 1.0 for u in seeds}
    return bridge_ranking(hits, weights, settings.echo_hits)


def splice_units(head_units: Sequence[FusedUnit], tail_units: Sequence[FusedUnit], head: int) -> list[FusedUnit]:
    """The first ``head`` units of the fusion without the bridge, then the fusion with it (tail.splice_tail)."""
    kept = {u.unit for u in head_units[:head]}
    by_unit = {u.unit: u for u in head_units}
    by_unit.update({u.unit: u for u in tail_units if u.unit not in kept})
    order = splice_tail([u.unit for u in head_units], [u.unit for u in tail_units], head)
    return [by_unit[pk] for pk in order]


def rerank_tail_units(
    lookup: TurnLookup, units: Sequence[FusedUnit], rankings: dict[str, Ranking], settings: FusedSettings
) -> list[FusedUnit]:
    """``units`` with ranks ``tail_head + 1`` to ``tail_pool`` re-ordered for coverage (tail.rerank_tail): each
    unit's mass discounted by its session's turns ranked before it and raised where it leads a tunnel."""
    pool = [u.unit for u in units[: settings.tail_pool]]
    sessions = {pk: row.session_pk for pk, row in lookup.rows(pool).items()}
    ranked = rerank_tail(
        [(u.unit, u.mass) for u in units],
        sessions,
        best_ranks(rankings, pool[settings.tail_head :]),
        head=settings.tail_head,
        pool=settings.tail_pool,
        session_decay=settings.tail_session_decay,
        tunnel_bonus=settings.tail_tunnel_bonus,
        lead_rank=settings.tail_lead_rank,
    )
    by_unit = {u.unit: u for u in units}
    out = list(units[: settings.tail_head])
    for pk, mass in ranked[settings.tail_head : settings.tail_pool]:
        unit = by_unit[pk]
        out.append(replace(unit, mass=mass, explain=(*unit.explain, f"tail x{mass / unit.mass:.3f}")))
    return out + list(units[settings.tail_pool :])


def pair_answer_units(lookup: TurnLookup, units: Sequence[FusedUnit], settings: FusedSettings) -> list[FusedUnit]:
    """``units`` with the answers to the asking turns among the first ``answer_pair_pool`` raised in the ranks
    after the head (tail.pair_answers). An asking turn's answer is its next neighbour in the session (the higher
    id: turns are stored in the order said) when another speaker says it."""
    pool = [u.unit for u in units[: settings.answer_pair_pool]]
    rows = lookup.rows(pool)
    any_question = settings.answer_pair_any_question
    asking = [pk for pk in pool if pk in rows and (rows[pk].asks if any_question else rows[pk].only_asks)]
    if not asking:
        return list(units)
    following = {
        pk: max((n for n in others if n > pk), default=None) for pk, others in lookup.neighbors(asking).items()
    }
    nexts = {pk: n for pk, n in following.items() if n is not None}
    said_by = lookup.rows(nexts.values())
    answer_of = {pk: n for pk, n in nexts.items() if n in said_by and said_by[n].speaker != rows[pk].speaker}
    ranked = pair_answers(
        [(u.unit, u.mass) for u in units],
        answer_of,
        head=settings.tail_head,
        pool=settings.answer_pair_pool,
        share=settings.answer_pair_share,
    )
    by_unit = {u.unit: u for u in units}
    asker_of = {answer: pk for pk, answer in reversed(answer_of.items())}
    out = []
    for pk, mass in ranked:
        unit = by_unit.get(pk)
        if unit is None:
            out.append(FusedUnit(pk, mass, (f"answer to {asker_of[pk]} {mass:+.4f}",), ()))
        elif mass != unit.mass:
            out.append(replace(unit, mass=mass, explain=(*unit.explain, f"answer to {asker_of[pk]} {mass:+.4f}")))
        else:
            out.append(unit)
    return out


def discount_duplicate_units(
    index: VectorSearch, user: str, units: Sequence[FusedUnit], settings: FusedSettings
) -> list[FusedUnit]:
    """``units`` with each near-duplicate of a better unit (turn cosine >= ``duplicate_cosine``) at ``1 -
    duplicate_penalty`` of its mass, re-sorted (bridge.discount_duplicates)."""
    vectors = index.exact_vectors(user, "turns", [u.unit for u in units])
    ranked = discount_duplicates(
        [(u.unit, u.mass) for u in units],
        {pk: np.asarray(v) for pk, v in vectors.items()},
        settings.duplicate_cosine,
        settings.duplicate_penalty,
    )
    by_unit = {u.unit: u for u in units}
    out = []
    for pk, mass in ranked:
        unit = by_unit[pk]
        if mass != unit.mass:
            unit = replace(
                unit, mass=mass, explain=(*unit.explain, f"near-duplicate x{1 - settings.duplicate_penalty:.3f}")
            )
        out.append(unit)
    return out
