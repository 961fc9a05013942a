"""The ranking's tail: ranks below the head re-ordered for coverage, the head left as fused.

A multi-hop or list question is answered by several turns, usually in several sessions ("What has Melanie
painted?": a sunrise in one session, a horse in another). The density fusion ranks each turn on its own, so
once the best evidence is found the ranks just below it fill with that evidence's neighbours and near-repeats
(the session share and the spill pull a session's other turns up with its best one), and a second item said
weakly elsewhere sits at rank 25. R_all@20 rewards covering every evidence turn; the head (the first ``head``
ranks, what a short context gets) is where precision matters. So only the ranks after the head change: the units
ranked ``head + 1`` to ``pool`` are taken again greedily, each step taking the one with the best adjusted mass,

    mass * session_decay ** (turns of its session already ranked) * (1 + tunnel_bonus if it leads a tunnel)

where "already ranked" counts the head and the tail units taken before it, and a unit "leads a tunnel" when it is
among the first ``lead_rank`` of some tunnel's own ranking (a turn one tunnel finds clearly, which the fusion
ranked low because the other tunnels missed it). Ranks after ``pool`` keep their order. With ``session_decay``
1 and ``tunnel_bonus`` 0 nothing moves. Earlier sessions tried a session-diversity discount over the whole
ranking (docs/bench.md: it cost R_all@10, since evidence clusters in sessions); here the head is untouchable.

**A tunnel for the tail only** (``splice_tail``): a tunnel that finds more of a list's items but shuffles the head
(the bridge tunnel: docs/bench.md) can feed the ranks after the head alone. The head is the first ``head`` units of
the fusion without it; the ranks after are the fusion with it, the head's units left out.

**Answers paired with their questions** (``pair_answers``): a turn that only asks something of the other speaker
("What gave you the idea?", disclosure.only_asks) matches a question's topic as well as the turn that answers it,
but the answer is the next turn, said by the other speaker, and often shares none of the question's words ("My
grandma's garden."). Each asking turn among the first ``pool`` ranks lends ``share`` of its mass to its answer;
an answer below the head whose lent mass beats its own moves up to where that mass places it (before the first
unit after the head with less), a turn outside the ranking enters there. The head never moves.

``rerank_tail``, ``splice_tail`` and ``pair_answers`` are pure: the caller gives each unit's session and best
tunnel rank, the two fused orders, or each asking turn's answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence


def rerank_tail(
    ranking: Sequence[tuple[int, float]],
    session_of: Mapping[int, int],
    best_rank: Mapping[int, int],
    *,
    head: int,
    pool: int,
    session_decay: float = 1.0,
    tunnel_bonus: float = 0.0,
    lead_rank: int = 3,
) -> list[tuple[int, float]]:
    """``ranking`` (``(unit, mass)``, best first) with ranks ``head + 1`` to ``pool`` re-ordered greedily by
    adjusted mass (module docstring); the masses returned are the adjusted ones for those ranks, the given ones
    elsewhere. ``session_of``: each unit's session (a unit missing here is its own session); ``best_rank``: a
    unit's best 1-based rank in any tunnel (missing: it leads none). Ties keep the given order."""
    if not 0 < session_decay <= 1:
        raise ValueError(f"session_decay must be in (0, 1], got {session_decay}")
    if tunnel_bonus < 0 or lead_rank < 1 or head < 0:
        raise ValueError("tunnel_bonus must be >= 0, lead_rank >= 1 and head >= 0")
    ranking = list(ranking)
    if pool <= head + 1 or len(ranking) <= head + 1 or (session_decay == 1 and tunnel_bonus == 0):
        return ranking
    out = ranking[:head]
    seen = Counter(session_of.get(pk, -pk - 1) for pk, _ in out)
    left = ranking[head:pool]  # in the given order, so the first of equal scores wins
    while left:
        best_at, best_score = 0, -1.0
        for at, (pk, mass) in enumerate(left):
            score = mass * session_decay ** seen[session_of.get(pk, -pk - 1)]
            if best_rank.get(pk, lead_rank + 1) <= lead_rank:
                score *= 1.0 + tunnel_bonus
            if score > best_score:
                best_at, best_score = at, score
        pk, _ = left.pop(best_at)
        out.append((pk, best_score))
        seen[session_of.get(pk, -pk - 1)] += 1
    return out + ranking[pool:]


def best_ranks(rankings: Mapping[str, Sequence[tuple[int, float]]], units: Sequence[int]) -> dict[int, int]:
    """Each of ``units``' best 1-based rank over ``rankings`` (one per tunnel); units no tunnel ranks are left out."""
    wanted = set(units)
    best: dict[int, int] = {}
    for ranking in rankings.values():
        for rank, (pk, _) in enumerate(ranking, 1):
            if pk in wanted and rank < best.get(pk, rank + 1):
                best[pk] = rank
    return best


def splice_tail(head_order: Sequence[int], tail_order: Sequence[int], head: int) -> list[int]:
    """The first ``head`` of ``head_order``, then ``tail_order`` without them, then whatever of ``head_order`` is in
    neither (in its order): every unit of either order once."""
    out = list(dict.fromkeys(head_order[: max(head, 0)]))
    taken = set(out)
    for pk in [*tail_order, *head_order]:
        if pk not in taken:
            out.append(pk)
            taken.add(pk)
    return out


def pair_answers(
    ranking: Sequence[tuple[int, float]],
    answer_of: Mapping[int, int],
    *,
    head: int,
    pool: int,
    share: float,
) -> list[tuple[int, float]]:
    """``ranking`` (``(unit, mass)``, best first) with each answer raised to ``share`` x its asking turn's mass
    where that beats its own (module docstring): ``answer_of`` maps an asking turn to its answer; only asking
    turns among the first ``pool`` lend, only answers after the first ``head`` move (with the raised mass), each
    one inserted before the first unit after the head with less mass, the others keeping their order."""
    if share < 0 or head < 0 or pool < 0:
        raise ValueError("share, head and pool must be >= 0")
    ranking = list(ranking)
    if share == 0 or not answer_of:
        return ranking
    lent: dict[int, float] = {}
    for pk, mass in ranking[:pool]:
        answer = answer_of.get(pk)
        if answer is not None and answer != pk:
            lent[answer] = max(lent.get(answer, 0.0), share * mass)
    head_part = ranking[:head]
    in_head = {pk for pk, _ in head_part}
    own = {pk: mass for pk, mass in ranking[head:]}
    raised = {pk: m for pk, m in lent.items() if pk not in in_head and m > own.get(pk, 0.0)}
    if not raised:
        return ranking
    rest = [(pk, mass) for pk, mass in ranking[head:] if pk not in raised]
    # Best first, so that an answer raised higher lands before one raised less (ties: the earlier-ranked asker's).
    for pk, mass in sorted(raised.items(), key=lambda item: -item[1]):
        at = next((i for i, (_, m) in enumerate(rest) if m < mass), len(rest))
        rest.insert(at, (pk, mass))
    return head_part + rest
