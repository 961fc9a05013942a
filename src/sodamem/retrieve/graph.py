"""The graph/entity tunnel: from the question's entities (and matched facts) over typed links to turns.

Hops count fact-to-fact steps. Hop 0 holds the *direct* facts: the head facts given by the caller (BM25 or
dense matches, scores divided by the best one; non-positive ones dropped) and the facts that MENTION a head
entity. Each further hop takes one step from a fact to another fact: a NEIGHBOR link, a slot link (SUPERSEDES,
CONTRADICTS, UPDATES; both ways), or a *bridge* through an entity both facts mention
(fact -MENTIONS-> entity <-MENTIONS- fact). Facts then land on turns through DERIVED_FROM
(fact -> piece -> turn); landing is not a hop.

Scores: a direct fact gets ``weight[MENTIONS] * sqrt(min(1, fan_out / degree))`` per head entity it mentions
(summed, so a fact naming two of the question's entities beats one naming one; degree = the entity's facts); a
link step multiplies its parent's score by the link's weight and ``hop_decay``; a bridge is crossed once per
entity, from its best parent, damped by ``1 / sqrt(degree - 1)`` (times the MENTIONS weight and ``hop_decay``);
a fact reached by several routes in the same hop sums them (its ``via`` is the strongest route). A turn takes its
best fact's score times ``weight[DERIVED_FROM]``. Invalid facts are never traversed; superseded ones are, at
``superseded_factor``.

Bounded work: at most ``fan_out`` facts per entity (active first, then the most recently mentioned); bridges only
through entities of degree 2..``max_bridge_degree`` (speakers and other hubs are skipped), the ``max_bridges``
strongest per hop; the ``frontier`` best facts of a hop expanded; the ``max_facts`` best facts landed. About
3 + 6 * max_hops + 1 statements, each scoped by user, all asked of the store (``GraphReads``,
``store/graph_reads.py``); a search asks them through ``GraphLookup`` (``graph_lookup.py``), which gives the same
answers and asks the store only about facts and entities it has not read since the last write.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from sodamem.model import LinkType
from sodamem.store.protocol import GraphReads

DEFAULT_LINK_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        LinkType.MENTIONS.value: 1.0,
        LinkType.DERIVED_FROM.value: 1.0,
        LinkType.NEIGHBOR.value: 0.6,
        LinkType.SUPERSEDES.value: 0.8,
        LinkType.UPDATES.value: 0.8,
        LinkType.CONTRADICTS.value: 0.6,
    }
)


@dataclass(frozen=True)
class GraphSettings:
    max_hops: int = 2  # fact-to-fact steps beyond the direct facts (0: direct facts only)
    hop_decay: float = 0.5  # multiplies a score at each step
    link_weights: Mapping[str, float] = field(default_factory=lambda: DEFAULT_LINK_WEIGHTS)
    fan_out: int = 50  # facts taken per entity: active first, then the most recently mentioned
    max_bridge_degree: int = 50  # entities with more facts (the speakers, say) are not bridged through
    frontier: int = 50  # best facts of a hop that are expanded to the next
    max_bridges: int = 16  # strongest bridge entities crossed per hop
    max_facts: int = 300  # best facts landed on turns
    superseded_factor: float = 0.5  # 1.0 when the question has history intent
    statuses: tuple[str, ...] = ("active", "superseded")  # facts that may be traversed ('invalid' never is)

    def __post_init__(self) -> None:
        if self.max_hops < 0 or min(self.fan_out, self.frontier, self.max_bridges, self.max_facts) < 1:
            raise ValueError("max_hops must be >= 0; fan_out, frontier, max_bridges and max_facts >= 1")
        if not 0.0 <= self.hop_decay <= 1.0:
            raise ValueError("hop_decay must be within [0, 1]")
        if "invalid" in self.statuses:
            raise ValueError("invalid facts are never traversed")

    def weight(self, link: str) -> float:
        return self.link_weights.get(link, 0.0)


@dataclass(frozen=True, slots=True)
class FactHit:
    fact_pk: int
    score: float
    hop: int
    status: str
    via: tuple[str, ...]  # e.g. ("entity:Priya", "fact:3", "via:Bristol", "fact:9")


@dataclass(frozen=True, slots=True)
class Hit:
    """A turn the graph reached: its best fact's score, how it was reached, at which hop."""

    turn_pk: int
    score: float
    via: tuple[str, ...]  # e.g. ("entity:Priya", "fact:3", "hop:0")
    hop: int = 0
    fact_pk: int = 0  # the fact it was reached through


@dataclass(slots=True)
class _Node:
    score: float
    via: tuple[str, ...]
    best: float  # the largest single contribution (its route is ``via``)
    status: str

    def add(self, score: float, via: tuple[str, ...]) -> None:
        self.score += score
        if score > self.best:
            self.best, self.via = score, via


def graph_hits(
    store: GraphReads,
    user: str,
    *,
    entity_pks: Sequence[int],
    fact_pks: Sequence[tuple[int, float]] = (),
    settings: GraphSettings | None = None,
) -> list[Hit]:
    """Turns reached from the heads, best first (ties: lower hop, then lower turn id)."""
    settings = settings or GraphSettings()
    return facts_to_turns(
        store, user, walk_facts(store, user, entity_pks=entity_pks, fact_pks=fact_pks, settings=settings), settings
    )


def walk_facts(
    store: GraphReads,
    user: str,
    *,
    entity_pks: Sequence[int],
    fact_pks: Sequence[tuple[int, float]] = (),
    settings: GraphSettings | None = None,
) -> list[FactHit]:
    """Facts reached from the heads within ``max_hops``, best first, at most ``max_facts``."""
    settings = settings or GraphSettings()
    names = store.entity_names(user, entity_pks)
    layer: dict[int, _Node] = {}
    given: dict[int, float] = {}
    for pk, score in fact_pks:
        given[pk] = max(score, given.get(pk, score))
    top = max(given.values(), default=0.0)
    for pk, status in store.fact_statuses(user, list(given), settings.statuses).items():
        score = given[pk] / top if top > 0 else 1.0
        _offer(layer, pk, status, score * _status_factor(status, settings), ())
    mention = settings.weight(LinkType.MENTIONS.value)
    degrees = store.mention_counts(user, list(names), settings.statuses)
    for entity, facts in store.facts_mentioning(user, list(names), settings.statuses, settings.fan_out).items():
        hub = math.sqrt(min(1.0, settings.fan_out / degrees[entity]))
        for pk, status in facts:
            via = (f"entity:{names[entity]}",)
            _offer(layer, pk, status, mention * hub * _status_factor(status, settings), via)
    found: dict[int, tuple[int, _Node]] = {pk: (0, node) for pk, node in layer.items()}
    for hop in range(1, settings.max_hops + 1):
        frontier = sorted(layer.items(), key=lambda item: (-item[1].score, item[0]))[: settings.frontier]
        layer = _expand(store, user, dict(frontier), set(found), settings)
        if not layer:
            break
        found.update({pk: (hop, node) for pk, node in layer.items()})
    ranked = sorted(found.items(), key=lambda item: (-item[1][1].score, item[1][0], item[0]))
    return [
        FactHit(pk, node.score, hop, node.status, (*node.via, f"fact:{pk}"))
        for pk, (hop, node) in ranked[: settings.max_facts]
    ]


def facts_to_turns(
    store: GraphReads, user: str, facts: Sequence[FactHit], settings: GraphSettings | None = None
) -> list[Hit]:
    """Land facts on the turns they are DERIVED_FROM; a turn keeps its best fact (ties: lower hop)."""
    settings = settings or GraphSettings()
    weight = settings.weight(LinkType.DERIVED_FROM.value)
    if weight <= 0:
        return []
    by_fact = {hit.fact_pk: hit for hit in facts}
    best: dict[int, FactHit] = {}
    for fact_pk, turn_pk in store.derived_turns(user, list(by_fact)):
        hit, held = by_fact[fact_pk], best.get(turn_pk)
        if held is None or (-hit.score, hit.hop, hit.fact_pk) < (-held.score, held.hop, held.fact_pk):
            best[turn_pk] = hit
    hits = [
        Hit(turn, hit.score * weight, (*hit.via, f"hop:{hit.hop}"), hit.hop, hit.fact_pk) for turn, hit in best.items()
    ]
    return sorted(hits, key=lambda h: (-h.score, h.hop, h.turn_pk))


def _expand(
    store: GraphReads, user: str, frontier: dict[int, _Node], seen: set[int], settings: GraphSettings
) -> dict[int, _Node]:
    """One hop: the unseen facts one fact-to-fact step away from the frontier."""
    layer: dict[int, _Node] = {}
    decay = settings.hop_decay
    for src, dst, link, status in store.fact_links_from(user, list(frontier), settings.statuses):
        if dst in seen:
            continue
        parent = frontier[src]
        score = parent.score * settings.weight(link) * decay * _status_factor(status, settings)
        _offer(layer, dst, status, score, (*parent.via, f"fact:{src}", link))
    # Bridges: each entity once, from its best frontier fact; only the max_bridges strongest are crossed.
    parent_of: dict[int, int] = {}
    for fact_pk, entity in store.entities_mentioned(user, list(frontier)):
        held = parent_of.get(entity)
        if held is None or (frontier[fact_pk].score, -fact_pk) > (frontier[held].score, -held):
            parent_of[entity] = fact_pk
    degrees = store.mention_counts(user, list(parent_of), settings.statuses, settings.max_bridge_degree + 1)
    damp = {e: 1.0 / math.sqrt(d - 1) for e, d in degrees.items() if 2 <= d <= settings.max_bridge_degree}
    strength = {e: frontier[parent_of[e]].score * damp[e] for e in damp}
    chosen = sorted(strength, key=lambda e: (-strength[e], e))[: settings.max_bridges]
    names = store.entity_names(user, chosen)
    mention = settings.weight(LinkType.MENTIONS.value)
    for entity, facts in store.facts_mentioning(user, chosen, settings.statuses, settings.fan_out).items():
        parent_pk = parent_of[entity]
        via = (*frontier[parent_pk].via, f"fact:{parent_pk}", f"via:{names[entity]}")
        for pk, status in facts:
            if pk not in seen:
                _offer(layer, pk, status, strength[entity] * mention * decay * _status_factor(status, settings), via)
    return layer


def _offer(layer: dict[int, _Node], pk: int, status: str, score: float, via: tuple[str, ...]) -> None:
    if score <= 0.0:
        return
    node = layer.get(pk)
    if node is None:
        layer[pk] = _Node(score, via, score, status)
    else:
        node.add(score, via)


def _status_factor(status: str, settings: GraphSettings) -> float:
    return settings.superseded_factor if status == "superseded" else 1.0
