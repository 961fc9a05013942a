"""The memory's own ranking: every tunnel, validity gates, connection-density fusion and the temporal bonus.

Tunnels (each a ranking of turns): ``bm25`` and ``dense`` over turns, ``bm25_piece`` and ``dense_piece`` over
pieces, ``fact`` (BM25 and dense over facts, landed on the turns they are derived from) and ``graph`` (the
question's entities and best facts expanded over typed links). Gates drop invalid facts, and superseded ones
unless the question asks for history. Fusion is by connection density (``density.py``); RRF is kept as an
alternative. The temporal bonus scales evidence inside the question's time window and the speaker focus evidence
said by a person the question names, and the self-disclosure prior (``disclosure.py``) lowers turns said to the
listener or only asking; none ever filters. Questions that gather items from many sessions ("Which cities has
John been to?") skip the session share. A second BM25 query with feedback words of the first evidence
(``bm25_prf``, ``feedback.py``) is fused in a second pass, whose ranking is the answer. Two multi-hop tunnels
(``aggregate.py``): ``answer_type`` (turns naming an instance of the type a list question asks for; on) and
``entity`` (the question's entities' turns across all sessions, ranked among themselves; off, CV chose it off).
The dense tunnels ask with the question's vector without the speakers' names (``dense_drop_names``), as BM25 asks
without those words; the whole question is embedded only for a mechanism that asks with it (the entity tunnel, the
bridge), so a search embeds the question once unless it runs one. The ``bridge`` tunnel (bridge.py: the turns nearest
to the first pass's best turn, in the second pass) feeds the ranks after the first 10 only (``bridge_tail_only``,
tail.py: the head is the fusion without it), so a search for at most 10 turns runs no bridge. The ``echo`` tunnel
(echo.py: the turns holding the rare words of the first pass's best turn) feeds the ranks after the first 15 only
(``echo_head``: a second splice), so a search for at most 15 turns runs no echo.
Off by default, measured by CV: the bridge over the whole ranking, a near-duplicate discount after the last pass,
and the tail's re-ordering by session coverage or tunnel leaders (tail.py).
With sub-queries of an LLM's query decomposition (``decompose.py``; none unless a decomposer is given), every direct
tunnel runs once more per sub-query as ``sub_<tunnel>``, weighing ``subquery_weight`` times the tunnel's weight, in
the same density fusion.
Every knob here was re-examined by leave-one-conversation-out cross-validation (``sodamem bench locomo --cv``,
docs/bench.md).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import numpy as np

from sodamem.embed.base import Vectors
from sodamem.retrieve import fused_steps
from sodamem.retrieve.aggregate import (
    TypeMatcher,
    entity_scope,
    rank_scope,
    scope_cosines,
    spread_sessions,
)
from sodamem.retrieve.answer_type import answer_type, type_bonus
from sodamem.retrieve.cutoff import within_turns
from sodamem.retrieve.dense import dense_pieces_by_turn, dense_turns
from sodamem.retrieve.density import (
    ContributionTable,
    DensitySettings,
    FusedUnit,
    fuse_density,
    ranked_table,
)
from sodamem.retrieve.disclosure import disclosure_bonus
from sodamem.retrieve.feedback import candidate_terms, expansion_terms
from sodamem.retrieve.fts_query import query_terms, to_match_query, without_words
from sodamem.retrieve.fusion import reciprocal_rank_fusion
from sodamem.retrieve.graph import graph_hits
from sodamem.retrieve.lexical import bm25_pieces_by_turn, bm25_turns
from sodamem.retrieve.presets import DIRECT_TUNNELS, SUBQUERY_PREFIX, FusedSettings
from sodamem.retrieve.query import EntityMatch, QueryAnalysis, analyze_query
from sodamem.retrieve.speaker import combine_bonuses, named_speakers, speaker_bonus
from sodamem.retrieve.temporal import bonus_for, window_decay_days
from sodamem.retrieve.turn_lookup import TurnLookup
from sodamem.store.protocol import GraphReads, MemoryStore, VectorSearch
from sodamem.store.write_protocol import Store


@dataclass(frozen=True, slots=True)
class FusedRanking:
    units: list[FusedUnit]
    analysis: QueryAnalysis
    match: str | None
    vector: Vectors | None  # the vector the dense tunnels asked with (the cited span's focus)


class QueryVectors:
    """The embeddings of the question and of its variants, each computed at its first use (a query embedding is
    most of a search's model time, and most searches need one text only)."""

    def __init__(self, embed: Callable[[str], Vectors] | None) -> None:
        self._embed = embed
        self._known: dict[str, Vectors] = {}

    def of(self, text: str) -> Vectors | None:
        if self._embed is None:
            return None
        if text not in self._known:
            self._known[text] = self._embed(text)
        return self._known[text]


@dataclass(frozen=True, slots=True)
class SubQuery:
    """One sub-query of a decomposed question, with its embedding (None without an embedder)."""

    text: str
    vector: Vectors | None = None


Ranking = list[tuple[int, float]]


def fused_rank(
    store: Store,
    index: VectorSearch | None,
    vectors: QueryVectors,
    user: str,
    query: str,
    k: int,
    now: datetime,
    settings: FusedSettings,
    turns: TurnLookup | None = None,
    types: TypeMatcher | None = None,
    subqueries: Sequence[SubQuery] = (),
    graph_reads: GraphReads | None = None,
    within: Container[int] | None = None,
) -> FusedRanking:
    """The first ``k`` turns for ``query``. ``turns``: a lookup kept across searches while the store is unchanged
    (a fresh one otherwise). ``types``: what the answer-type tunnel needs (spaCy and the embedder), or None.
    ``subqueries``: a decomposition's sub-queries, each run through the direct tunnels as ``sub_<tunnel>``.
    ``graph_reads``: what the graph tunnel asks, kept across searches (``GraphLookup``; the store otherwise).
    ``vectors``: the embedder's query vectors (none without an embedder): of the question without the speakers'
    names for the dense tunnels (``dense_drop_names``), of the whole question where a mechanism asks with it.
    ``store``: a ``Store`` while query analysis, the turn lookup and the lexical and dense tunnels still take one;
    what this module asks itself is in ``MemoryStore``. ``within``: the only turns that may rank (a memory seen at
    a past time: those said by then); every tunnel's ranking is cut to them before it is fused or seeds another."""

    def kept(found: dict[str, Ranking]) -> dict[str, Ranking]:
        return {tunnel: within_turns(ranking, within) for tunnel, ranking in found.items()}

    analysis = analyze_query(query, now, store, user)
    # The speakers the question names by an alias ("Maya" for "user"), looked up once for both passes.
    speakers = store.speakers(user)
    by_alias = _speaker_entities(store, user, speakers, analysis)
    names = _speaker_name_words(query, speakers, by_alias)
    match = to_match_query(query, drop=names)
    n = max(settings.candidates, k)
    on = settings.tunnels
    allowed = _allowed_statuses(settings, analysis)
    lookup = turns or TurnLookup(store)  # what the tunnels and both fusion passes ask about candidate turns
    topic_vector = vectors.of(without_words(query, names) if settings.dense_drop_names and names else query)
    graph = graph_reads or store
    rankings = kept(
        _direct_rankings(store, graph, index, lookup, topic_vector, user, match, n, settings, analysis, allowed)
    )
    sub_rankings: list[tuple[str, Ranking]] = []  # (sub_<tunnel>, ranking), one per sub-query and tunnel
    by_sub: list[dict[str, Ranking]] = []
    if settings.subquery_weight > 0:
        for sub in subqueries:
            sub_analysis = analyze_query(sub.text, now, store, user)
            sub_match = to_match_query(sub.text, drop=names | _speaker_name_words(sub.text, speakers, by_alias))
            found = kept(
                _direct_rankings(
                    store, graph, index, lookup, sub.vector, user, sub_match, n, settings, sub_analysis, allowed
                )
            )
            by_sub.append(found)
            sub_rankings += [(SUBQUERY_PREFIX + tunnel, ranking) for tunnel, ranking in found.items()]
    focus = named_speakers(query, speakers) | {s for s, _ in by_alias}
    # A tunnel weighed otherwise for the ranks after the head only: asked with that weight, so that it runs.
    tail_density = _tail_density(settings, k)
    asked = settings if tail_density is None else replace(settings, density=tail_density)
    rankings.update(
        kept(
            _multi_hop_rankings(
                store, index, vectors, user, query, match, n, asked, analysis, focus, lookup, rankings, types
            )
        )
    )
    tail_only: dict[str, Ranking] = {}
    if tail_density is not None and settings.density.weight(settings.tail_tunnel) <= 0:
        tail_only = {t: rankings.pop(t) for t in [settings.tail_tunnel] if t in rankings}
    if settings.fusion == "rrf":
        fused = reciprocal_rank_fusion([[u for u, _ in r] for _, r in [*rankings.items(), *sub_rankings]])
        units = [FusedUnit(unit, mass, (), ()) for unit, mass in fused]
    else:
        if sub_rankings:
            settings = replace(settings, density=subquery_density(settings.density, settings.subquery_weight))
        aliased = {s for s, _ in by_alias}
        typed = _typed_bonus(store, user, query, settings, types)
        # Enough units for the answer, the feedback's first turns and the tail's pool.
        tail = _wants_tail(settings, analysis)
        tail_fusion = tail_density is not None and (tail_only or settings.tail_tunnel in rankings)
        limit = max(k, settings.feedback_turns, settings.tail_pool if tail else 0)
        temporal_known: dict[int, float] = {}
        tables: dict[int, tuple[Ranking, ContributionTable]] = {}

        def fuse() -> list[FusedUnit]:
            every = [*rankings.items(), *sub_rankings]
            return _fuse_density(
                lookup, every, analysis, settings, query, aliased, limit, temporal_known, tables, typed
            )

        def fuse_tail() -> list[FusedUnit]:
            """The fusion for the ranks after the head: the tail tunnel at its tail weight (with the bridge)."""
            every = [*rankings.items(), *tail_only.items(), *sub_rankings]
            boosted = settings if tail_density is None else replace(settings, density=tail_density)
            return _fuse_density(lookup, every, analysis, boosted, query, aliased, limit, temporal_known, tables, typed)

        units = fuse()
        again = False  # a second pass, with the tunnels that start from the first pass's evidence
        query_vector = vectors.of(query) if _wants_bridge(settings, analysis, k) and units else None
        if index is not None and query_vector is not None:
            seeds = fused_steps.bridge_seeds(lookup, units, settings)
            bridge = fused_steps.bridge_hits(index, user, query_vector, seeds, n, settings)
            rankings["bridge"] = within_turns(bridge, within)
            again = bool(rankings["bridge"])
        wanted = "bm25_prf" in on and settings.density.weight("bm25_prf") > 0
        if wanted and match is not None and units and (analysis.gathers or not settings.feedback_gathering_only):
            expanded = _feedback_query(store, user, units[: settings.feedback_turns], query, names, settings)
            if expanded is not None:
                rankings["bm25_prf"] = within_turns(bm25_turns(store, user, expanded, n), within)
                again = True
        if _wants_echo(settings, k) and units:
            seeds = units[: settings.echo_seeds]
            speaker_words = {w for speaker in speakers for w in query_terms(speaker)}
            echo = fused_steps.echo_hits(store, lookup, user, seeds, speaker_words, n, settings)
            rankings["echo"] = within_turns(echo, within)
            again = again or bool(rankings["echo"])
        with_bridge = with_echo = None
        if again:
            # Tunnels for the ranks after the head only: the head is the fusion without them.
            tail_fed = [t for t in ("bridge", "echo") if rankings.get(t) and (t == "echo" or settings.bridge_tail_only)]
            if "echo" in tail_fed and settings.echo_head > settings.tail_head:
                with_echo = fuse_tail()  # for the ranks after ``echo_head``: the ranks before keep the fusion without
                del rankings["echo"]
                tail_fed.remove("echo")
            if tail_fed:
                with_bridge = fuse_tail()
                for tunnel in tail_fed:
                    del rankings[tunnel]
            units = fuse()
        if with_bridge is None and tail_fusion:
            with_bridge = fuse_tail()
        if with_bridge is not None:
            units = fused_steps.splice_units(units, with_bridge, settings.tail_head)
        if with_echo is not None:
            units = fused_steps.splice_units(units, with_echo, settings.echo_head)
        if settings.duplicate_penalty > 0 and index is not None and units:
            units = fused_steps.discount_duplicate_units(index, user, units, settings)
        if tail and len(units) > settings.tail_head + 1:
            units = fused_steps.rerank_tail_units(lookup, units, rankings, settings)
        if settings.answer_pair_share > 0 and len(units) > settings.tail_head and k > settings.tail_head:
            units = fused_steps.pair_answer_units(lookup, units, settings)
    units = units[:k]
    if by_sub:
        units = [_explain_subqueries(u, subqueries, by_sub) for u in units]
    return FusedRanking(units, analysis, match, topic_vector)


def subquery_density(density: DensitySettings, weight: float) -> DensitySettings:
    """``density`` with a ``sub_<tunnel>`` weight for every direct tunnel: ``weight`` times the tunnel's own."""
    return density.with_weights(**{SUBQUERY_PREFIX + t: weight * density.weight(t) for t in DIRECT_TUNNELS})


def _direct_rankings(
    store: Store,
    graph_reads: GraphReads,
    index: VectorSearch | None,
    lookup: TurnLookup,
    vector: Vectors | None,
    user: str,
    match: str | None,
    n: int,
    settings: FusedSettings,
    analysis: QueryAnalysis,
    allowed: tuple[str, ...],
) -> dict[str, Ranking]:
    """The direct tunnels' rankings of one query (the question, or one of its sub-queries): BM25 and dense over
    turns and pieces, facts, and the graph from the query's entities and best facts."""
    on = settings.tunnels
    rankings: dict[str, Ranking] = {}
    if match is not None:
        if "bm25" in on:
            rankings["bm25"] = bm25_turns(store, user, match, n)
        if "bm25_piece" in on:
            rankings["bm25_piece"] = bm25_pieces_by_turn(store, lookup.piece_turns, user, match, n)
    if index is not None and vector is not None:
        if "dense" in on:
            rankings["dense"] = dense_turns(index, user, vector, n)
        if "dense_piece" in on:
            rankings["dense_piece"] = dense_pieces_by_turn(lookup.piece_turns, index, user, vector, n)
    fact_scores = _fact_hits(store, index, vector, user, match, n, allowed) if "fact" in on or "graph" in on else []
    if "fact" in on:
        rankings["fact"] = _facts_to_turns(store, user, fact_scores)
    if "graph" in on and (analysis.entities or fact_scores):
        graph = replace(settings.graph, statuses=allowed, superseded_factor=1.0 if analysis.history_intent else 0.5)
        hits = graph_hits(
            graph_reads,
            user,
            entity_pks=[e.entity_pk for e in analysis.entities],
            fact_pks=fact_scores[: settings.graph_heads],
            settings=graph,
        )
        rankings["graph"] = [(h.turn_pk, h.score) for h in hits]
    return rankings


def _explain_subqueries(
    unit: FusedUnit, subqueries: Sequence[SubQuery], by_sub: Sequence[dict[str, Ranking]]
) -> FusedUnit:
    """``unit`` with a line per sub-query that reached it: which one, through which tunnels, at which ranks."""
    lines = []
    for number, (sub, found) in enumerate(zip(subqueries, by_sub, strict=True), 1):
        ranks = [
            f"{tunnel} rank {rank}"
            for tunnel, ranking in found.items()
            for rank in [next((i for i, (pk, _) in enumerate(ranking, 1) if pk == unit.unit), 0)]
            if rank
        ]
        if ranks:
            lines.append(f'sub-query {number} "{sub.text}": {", ".join(ranks)}')
    return replace(unit, explain=(*unit.explain, *lines)) if lines else unit


def _multi_hop_rankings(
    store: Store,
    index: VectorSearch | None,
    vectors: QueryVectors,
    user: str,
    query: str,
    match: str | None,
    n: int,
    settings: FusedSettings,
    analysis: QueryAnalysis,
    focus: frozenset[str] | set[str],
    lookup: TurnLookup,
    rankings: dict[str, list[tuple[int, float]]],
    types: TypeMatcher | None,
) -> dict[str, list[tuple[int, float]]]:
    """The entity and answer-type tunnels (aggregate.py), each only while its weight is above 0."""
    weights = settings.density.tunnel_weights
    want_entity = "entity" in settings.tunnels and weights.get("entity", 0.0) > 0
    type_phrase = answer_type(query) if types is not None else None
    want_type = "answer_type" in settings.tunnels and weights.get("answer_type", 0.0) > 0 and type_phrase is not None
    if not (want_entity or want_type):
        return {}
    speaker_pks = set(store.speaker_entities(user, store.speakers(user)).values())
    scope = entity_scope(store, user, focus, analysis.entities, speaker_pks)
    out: dict[str, list[tuple[int, float]]] = {}
    if want_entity and scope:
        lexical = bm25_turns(store, user, match, len(scope) + n) if match is not None else []
        vector = vectors.of(query) if index is not None else None
        cosine = scope_cosines(index, user, vector, scope) if index is not None and vector is not None else {}
        ranking = rank_scope(scope, lexical, cosine)
        if settings.entity_session_decay < 1:
            sessions = {pk: row.session_pk for pk, row in lookup.rows([pk for pk, _ in ranking]).items()}
            ranking = spread_sessions(ranking, sessions, settings.entity_session_decay)
        out["entity"] = ranking[:n]
    if want_type and types is not None and type_phrase is not None:
        pool = scope or sorted({pk for r in rankings.values() for pk, _ in r})
        mentions = types.mentions(store, user, pool)
        out["answer_type"] = types.rank(type_phrase, mentions, settings.answer_type_floor)[:n]
    return out


def _typed_bonus(
    store: Store, user: str, query: str, settings: FusedSettings, types: TypeMatcher | None
) -> Callable[[Sequence[int]], dict[int, float]] | None:
    """The answer-type bonus of candidate turns, or None when it is off or the question names no type."""
    phrase = answer_type(query) if types is not None and settings.answer_type_bonus > 0 else None
    if phrase is None or types is None:
        return None

    def bonus(candidates: Sequence[int]) -> dict[int, float]:
        affinity = types.best_affinity(phrase, types.mentions(store, user, candidates))
        return type_bonus(affinity, settings.answer_type_bonus, settings.answer_type_floor)

    return bonus


def _fuse_density(
    lookup: TurnLookup,
    rankings: Sequence[tuple[str, Ranking]],
    analysis: QueryAnalysis,
    settings: FusedSettings,
    query: str,
    aliased: set[str],
    limit: int,
    temporal_known: dict[int, float],
    tables: dict[int, tuple[Ranking, ContributionTable]],
    typed: Callable[[Sequence[int]], dict[int, float]] | None = None,
) -> list[FusedUnit]:
    """The first ``limit`` units of the density fusion of ``rankings`` (a tunnel may have several: one per
    sub-query), with every bonus of the question. ``temporal_known`` (temporal bonuses by turn) and ``tables`` (each
    ranking's table, by the ranking's id) are kept across the two passes of one search; ``typed``: the answer-type
    bonus of candidate turns, when it is on."""
    contributions = ContributionTable.concat([_table(tables, tunnel, r) for tunnel, r in rankings])
    candidates: list[int] = np.unique(contributions.unit).tolist()
    rows = lookup.rows(candidates)
    speaker_of = {pk: row.speaker for pk, row in rows.items()}
    focus = named_speakers(query, set(speaker_of.values())) | aliased
    temporal = _temporal_bonus(lookup, candidates, analysis, settings.temporal_weight, temporal_known)
    flags = {pk: (row.speaker, row.addresses_listener, row.only_asks) for pk, row in rows.items()}
    disclosure = disclosure_bonus(flags, settings.addressed_penalty, settings.asking_penalty)
    type_bonus = typed(candidates) if typed is not None else {}
    bonus = combine_bonuses(temporal, speaker_bonus(speaker_of, focus, settings.speaker_weight), disclosure, type_bonus)
    neighbors = lookup.neighbors(candidates)
    share = settings.gathering_session_share if analysis.gathers else settings.session_share
    sessions: dict[int, int] | None = None
    if share > 0:  # evidence clusters in sessions: a turn gains a share of its session's best other turn
        spilled = {n for pk in candidates for n in neighbors.get(pk, ())}
        sessions = {pk: row.session_pk for pk, row in lookup.rows([*candidates, *spilled]).items()}
    return fuse_density(
        contributions, settings.density, neighbors, bonus, groups=sessions, group_share=share, limit=limit
    )


def _table(tables: dict[int, tuple[Ranking, ContributionTable]], tunnel: str, ranking: Ranking) -> ContributionTable:
    """``ranked_table(tunnel, ranking)``, made once per ranking in a search (the second pass adds one ranking)."""
    held = tables.get(id(ranking))
    if held is not None and held[0] is ranking and held[1].names == (tunnel,):
        return held[1]
    table = ranked_table(tunnel, ranking)
    tables[id(ranking)] = (ranking, table)  # the ranking is held, so its id names no other while the entry lives
    return table


def _feedback_query(
    store: MemoryStore,
    user: str,
    units: Sequence[FusedUnit],
    query: str,
    names: set[str],
    settings: FusedSettings,
) -> str | None:
    """The question's words and the best words of its first evidence (feedback.py), as an FTS5 query."""
    rows = store.turn_texts(user, [u.unit for u in units])
    best = units[0].mass
    feedback = [(f"{rows[u.unit].text} {rows[u.unit].caption or ''}", u.mass / best) for u in units if u.unit in rows]
    skip = {*query_terms(query), *(w for row in rows.values() for w in query_terms(row.speaker))}
    terms = [candidate_terms([text], skip) for text, _ in feedback]  # each text's words, stemmed once
    counts, total = store.turn_term_counts(user, list(dict.fromkeys(key for found in terms for key in found)))
    extra = expansion_terms(
        feedback,
        skip,
        counts,
        total,
        n_terms=settings.feedback_words,
        min_docs=settings.feedback_min_turns,
        terms=terms,
    )
    return to_match_query(" ".join([query, *extra]), drop=names) if extra else None


def _wants_bridge(settings: FusedSettings, analysis: QueryAnalysis, k: int) -> bool:
    """The bridge tunnel is on, for this question, and (fed to the tail only) reaches one of the first ``k``."""
    on = "bridge" in settings.tunnels and settings.density.weight("bridge") > 0 and settings.bridge_seeds > 0
    on = on and not (settings.bridge_tail_only and k <= settings.tail_head)
    return on and (analysis.gathers or not settings.bridge_gathering_only)


def _wants_echo(settings: FusedSettings, k: int) -> bool:
    """The echo tunnel is on and reaches one of the first ``k`` (it feeds the ranks after the head only, or after
    ``echo_head`` where that is further down)."""
    on = "echo" in settings.tunnels and settings.density.weight("echo") > 0
    return on and k > max(settings.tail_head, settings.echo_head)


def _tail_density(settings: FusedSettings, k: int) -> DensitySettings | None:
    """The weights of the fusion for the ranks after the head where ``tail_tunnel`` is set and reached (else None)."""
    if not settings.tail_tunnel or k <= settings.tail_head or settings.tail_tunnel not in settings.tunnels:
        return None
    return settings.density.with_weights(**{settings.tail_tunnel: settings.tail_tunnel_weight})


def _wants_tail(settings: FusedSettings, analysis: QueryAnalysis) -> bool:
    on = settings.tail_pool > settings.tail_head + 1
    on = on and (settings.tail_session_decay < 1 or settings.tail_tunnel_bonus > 0)
    return on and (analysis.gathers or not settings.tail_gathering_only)


def _allowed_statuses(settings: FusedSettings, analysis: QueryAnalysis) -> tuple[str, ...]:
    if not settings.gates or analysis.history_intent:
        return ("active", "superseded")
    return ("active",)


def _fact_hits(
    store: MemoryStore,
    index: VectorSearch | None,
    vector: Vectors | None,
    user: str,
    match: str | None,
    n: int,
    allowed: Sequence[str],
) -> list[tuple[int, float]]:
    """Facts matching the question (BM25 and dense, fused by RRF), gated by status."""
    lexical: list[int] = []
    if match is not None:
        lexical = [row.rowid for row in store.search_facts(user, match, n, allowed)]
    dense: list[int] = []
    if index is not None and vector is not None:
        candidates = [pk for pk, _ in index.search(user, "facts", vector, n * 2)]
        if candidates:
            ok = store.fact_statuses(user, candidates, allowed)
            dense = [pk for pk in candidates if pk in ok][:n]
    return reciprocal_rank_fusion([lexical, dense])[:n]


def _facts_to_turns(store: MemoryStore, user: str, facts: list[tuple[int, float]]) -> list[tuple[int, float]]:
    if not facts:
        return []
    turn_of = store.source_turns(user, [pk for pk, _ in facts])
    return [(turn_of[pk], score) for pk, score in facts if pk in turn_of]


def _temporal_bonus(
    lookup: TurnLookup, turn_pks: Sequence[int], analysis: QueryAnalysis, weight: float, known: dict[int, float]
) -> dict[int, float]:
    """A turn's time is the occurred time of a fact derived from it, else when it was said. ``known``: the bonuses
    an earlier pass of the same search computed (a turn's bonus depends on the question only), extended here."""
    window = analysis.window
    if window is None or weight <= 0 or not turn_pks:
        return {}
    decay = window_decay_days(window)
    missing = [pk for pk in turn_pks if pk not in known]
    occurred = lookup.occurred(missing)
    for pk, row in lookup.rows(missing).items():
        said = bonus_for(None, None, row.said_at, window, weight=weight, decay_days=decay)
        spans = (bonus_for(start, end, None, window, weight=weight, decay_days=decay) for start, end in occurred[pk])
        known[pk] = max([said, *spans])
    return {pk: known[pk] for pk in turn_pks if pk in known}


def _speaker_entities(
    store: MemoryStore, user: str, speakers: Iterable[str], analysis: QueryAnalysis
) -> list[tuple[str, EntityMatch]]:
    """The speakers the question names by what they are known as, with the question's words for them: "Maya"
    names the speaker "user" once the user has said "I'm Maya" (the speaker's name is an alias of the entity the
    question matched)."""
    matched = {e.entity_pk: e for e in analysis.entities if e.exact}
    if not matched:
        return []
    found = store.speaker_entities(user, speakers)
    return [(speaker, matched[pk]) for speaker, pk in found.items() if pk in matched]


def _speaker_name_words(query: str, speakers: frozenset[str], by_alias: Sequence[tuple[str, EntityMatch]]) -> set[str]:
    """The question's words that name a speaker (directly or by alias): left out of the BM25 queries.

    Who is asked about is the speaker focus's job; as a word, the name matches greetings ("Nice to meet you,
    Maya!") and every turn addressed to that person. Dev split: R_any@10 / R_all@10 0.852 / 0.733 -> 0.855 /
    0.738 (multi-hop R_all@20 0.385 -> 0.380). A question of nothing but names keeps them (``to_match_query``).
    """
    names = {w for speaker in named_speakers(query, speakers) for w in query_terms(speaker)}
    return names | {w for _, m in by_alias for w in query_terms(m.matched)}
