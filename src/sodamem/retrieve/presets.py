"""The search's settings: every knob of the fused ranking (``FusedSettings``, with the weights tuned on the LoCoMo dev
split and re-examined by cross-validation) and the named presets the bench's ablations use
(``fused_settings("no-graph+weight.dense=1.0")``, see ``overrides.py``). The ranking itself is ``fused.py``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sodamem.retrieve.density import DensitySettings, preset
from sodamem.retrieve.graph import GraphSettings
from sodamem.retrieve.overrides import apply_override, parse_overrides

ALL_TUNNELS = frozenset(
    {
        "answer_type",
        "bm25",
        "bm25_piece",
        "bm25_prf",
        "bridge",
        "dense",
        "dense_piece",
        "echo",
        "entity",
        "fact",
        "graph",
    }
)
# The tunnels each sub-query of a decomposed question runs again, as ``sub_<tunnel>`` (decompose.py).
DIRECT_TUNNELS = ("bm25", "bm25_piece", "dense", "dense_piece", "fact", "graph")
SUBQUERY_PREFIX = "sub_"

# Tuned on the LoCoMo dev split (recall@10 any / all, categories 1-4, `sodamem bench locomo`):
# density.py's neutral defaults (graph 1.0, dense 0.6, dense_piece 0.3, fact 0.8, spill 0.15, rank_k 20) gave
# 0.698 / 0.565; these give 0.792 / 0.664 (0.824 / 0.697 with the session share and temporal weight below, 0.846 /
# 0.725 with the speaker focus and the gathering settings, 0.852 / 0.733 with half of each contribution's discount
# taken from its min-max scaled score: a turn whose sentence is the dense tunnel's clear best no longer loses to
# turns every tunnel reaches weakly; score_share 0.3 / 0.5 / 0.7 gave all@10 0.729 / 0.733 / 0.730).
# Graph and fact tunnels weigh little while the offline rules yield few facts (9 per 100 turns); dense weighs
# more than BM25 once BM25 also enters through pieces.
TUNED_DENSITY = replace(
    DensitySettings().with_weights(
        graph=0.3,
        bm25=1.0,
        dense=1.3,
        bm25_piece=0.5,
        dense_piece=0.7,
        fact=0.3,
        bm25_prf=0.6,
        # Chosen by leave-one-conversation-out CV in 7 of 7 folds over 0 and 0.3 (docs/bench.md, "Multi-hop
        # mechanisms"); the entity tunnel (``weight.entity``) stays 0: 6 of 7 folds chose it off.
        answer_type=0.6,
        # The bridge tunnel (bridge.py), for the ranks after the first 10 only (``bridge_tail_only``): chosen by
        # leave-one-conversation-out CV in 7 of 7 folds with ties at @10 judged by R_all@20 (docs/bench.md, "The
        # ranking's tail"); multi-hop R_all@20 0.438 -> 0.464, the first 10 ranks unchanged.
        bridge=0.3,
        # The echo tunnel (echo.py), for the ranks after the first 15 only (``echo_head``): chosen by
        # leave-one-conversation-out CV in 6 of 7 folds with ties at @10 judged by R_all@20 (docs/bench.md, "The echo
        # tunnel"); multi-hop R_all@20 0.464 -> 0.500 (CV 0.484), the first 15 ranks unchanged.
        echo=1.5,
    ),
    spill=0.3,
    rank_k=10.0,
    score_share=0.5,
)


@dataclass(frozen=True, slots=True)
class FusedSettings:
    density: DensitySettings = TUNED_DENSITY
    graph: GraphSettings = field(default_factory=GraphSettings)
    tunnels: frozenset[str] = ALL_TUNNELS
    fusion: str = "density"  # or "rrf"
    gates: bool = True
    temporal_weight: float = 1.0  # mass x (1 + weight) inside the question's window, decaying outside
    # Rows per tunnel. With score-blended fusion, 200 edged out 100 (dev split recall@10 any / all 0.854 / 0.734
    # vs 0.852 / 0.733, multi-hop all@20 0.370 vs 0.354); without it, 200 had not helped.
    candidates: int = 200
    graph_heads: int = 10  # best fact hits used as graph heads besides the question's entities
    # Each turn also gets this share of the best mass among its session's other turns: evidence clusters in
    # sessions (dev split: 0 -> 0.4 took recall@10 any/all from 0.792 / 0.664 to 0.819 / 0.691). Re-measured with
    # the feedback and the self-disclosure prior, R_any@10 / R_all@10 / multi-hop R_all@20 for 0.2 / 0.25 / 0.3 /
    # 0.35 / 0.4: 0.860 / 0.738 / 0.422, 0.861 / 0.740 / 0.422, 0.864 / 0.744 / 0.417, 0.863 / 0.742 / 0.411,
    # 0.864 / 0.741 / 0.406 (the share pulls a session's other turns up; multi-hop evidence sits in many sessions).
    session_share: float = 0.3
    gathering_session_share: float = 0.0  # the share for questions that gather items from many sessions
    # Mass x (1 + weight) for turns said by a speaker the question names. Gathering questions had their own weight
    # (2.0) until cross-validation (docs/bench.md, "Cross-validation"): 1.0 was chosen in 4 of 7 folds, 2.0 in none.
    # 2.0 since the dense tunnels ask without the speakers' names (``dense_drop_names``), which leaves who is asked
    # about to this focus alone: CV chose 2.0 over 1.0 and 0 in 7 of 7 folds (R_any@10 / R_all@10 0.879 / 0.758 ->
    # 0.884 / 0.763, multi-hop R_all@20 0.438 both; docs/bench.md, "Evidence-seeded mechanisms ...").
    speaker_weight: float = 2.0
    # Pseudo-relevance feedback (feedback.py; on while the bm25_prf tunnel weighs > 0): the best words of the first
    # ``feedback_turns`` turns, held by at least ``feedback_min_turns`` of them, join the question's in a second
    # BM25 query, and the fusion runs again with its ranking, which every question takes whole. (Other questions
    # than gathering ones kept their first 3 turns from the first ranking until cross-validation found keeping
    # none as good: R_any@10 / R_all@10 identical, R_all@1 0.352 -> 0.356, chosen in every fold.) With
    # ``feedback_gathering_only`` only gathering questions get feedback.
    feedback_turns: int = 10
    feedback_words: int = 8
    feedback_min_turns: int = 2
    feedback_gathering_only: bool = False
    # Self-disclosure prior (disclosure.py): mass x (1 - penalty) for a turn said to the listener ("you" outweighs
    # "I/we") and for one that only asks. Dev split, with the feedback head: 0.3 / 0.3 took R_any@10 / R_all@10
    # 0.861 / 0.742 -> 0.864 / 0.741, R_all@20 0.793 -> 0.801, multi-hop R_all@20 0.391 -> 0.406; penalties from
    # 0.2 to 0.4 all gave multi-hop 0.396-0.406.
    addressed_penalty: float = 0.3
    asking_penalty: float = 0.3
    # The multi-hop tunnels (aggregate.py), off while their weights are 0 (``weight.entity``,
    # ``weight.answer_type``): the entity tunnel's i-th turn of a session counts ``entity_session_decay ** i``
    # (1: a plain ranking), and the answer-type tunnel keeps turns whose best mention has at least
    # ``answer_type_floor`` cosine with the type phrase.
    entity_session_decay: float = 1.0
    answer_type_floor: float = 0.4
    # Answer-type expansion as a soft bonus instead of (or besides) a tunnel: a fused candidate naming an instance
    # of the type gets mass x (1 + bonus x its affinity scaled from the floor to 1) (answer_type.type_bonus).
    answer_type_bonus: float = 0.0
    # The bridge tunnel (bridge.py; on while ``weight.bridge`` > 0): the turns nearest to each of the first pass's
    # ``bridge_seeds`` best turns, each probe the seed's vector blended with the question's (``bridge_mix``: the
    # question's share), fused in the second pass; with ``bridge_gathering_only`` only for gathering questions.
    bridge_seeds: int = 1  # 3 until the bridge fed the tail: one seed was chosen in 5 of 7 folds
    bridge_mix: float = 0.5
    bridge_gathering_only: bool = False
    # With ``bridge_tail_only`` the bridge feeds only the ranks after the first ``tail_head``: those come from the
    # fusion with it, the head from the fusion without it (tail.splice_tail); a search for at most ``tail_head``
    # turns asks no bridge at all. On by default since CV chose it (docs/bench.md, "The ranking's tail").
    bridge_tail_only: bool = True
    # Seeds from distinct sessions: each of the first sessions' best turn instead of the first turns overall.
    bridge_distinct_sessions: bool = False
    # The echo tunnel (echo.py; on while ``weight.echo`` > 0, 1.5 by default): the turns holding the rare words (idf
    # >= ``echo_min_idf``) of the first pass's ``echo_seeds`` best turns, by the summed idf of those they hold; with
    # ``echo_same_speaker`` only turns of the seed's speaker. It feeds the ranks after the first ``echo_head`` only
    # (spliced as the bridge is); a search for at most ``max(tail_head, echo_head)`` turns asks none.
    echo_seeds: int = 1
    echo_min_idf: float = 1.5
    echo_same_speaker: bool = True
    # Only turns of other sessions than the seed's (its own session's turns get the spill and the session share).
    echo_other_sessions: bool = False
    # The turns the echo ranks (per seed): a few clear echoes lift items, a long ranking re-orders the whole tail.
    echo_hits: int = 200
    # The first ranks the echo never changes: with ``echo_head`` > ``tail_head`` the ranks up to ``echo_head`` are
    # those of the ranking without the echo (the bridge's tail included), the ranks after come from the fusion with it.
    # 15, not 10: other categories' evidence at ranks 11-20 is pushed out less (docs/bench.md, "The echo tunnel").
    echo_head: int = 15
    # The dense tunnels (turns, pieces, facts) ask with the question's vector without the speakers' names ("What
    # has painted?" for "What has Melanie painted?"), as the BM25 queries leave them out: who is asked about is
    # the speaker focus's job, and a name in the vector pulls every turn of that speaker alike. The question is
    # still embedded once: the whole question's vector is made only for a mechanism that asks with it. Chosen by
    # leave-one-conversation-out CV in 7 of 7 folds (docs/bench.md, "Evidence-seeded mechanisms and the name-free
    # dense query"): R_any@10 / R_all@10 / multi-hop R_all@20 0.869 / 0.746 / 0.427 -> 0.879 / 0.758 / 0.438.
    dense_drop_names: bool = True
    # Near-duplicates (bridge.discount_duplicates): a turn whose vector has cosine >= ``duplicate_cosine`` with a
    # better-ranked turn's keeps ``1 - duplicate_penalty`` of its mass (0: off).
    duplicate_cosine: float = 0.9
    duplicate_penalty: float = 0.0
    # The ranking's tail (tail.py; on while ``tail_pool`` > ``tail_head`` and a factor is set): ranks
    # ``tail_head + 1`` to ``tail_pool`` are re-ordered greedily by mass x ``tail_session_decay`` ** (turns of the
    # unit's session ranked before it) x (1 + ``tail_tunnel_bonus`` when it is among the first ``tail_lead_rank``
    # of some tunnel); the head keeps the fusion's order. With ``tail_gathering_only`` only gathering questions.
    tail_head: int = 10
    tail_pool: int = 0
    tail_session_decay: float = 1.0
    tail_tunnel_bonus: float = 0.0
    tail_lead_rank: int = 3
    tail_gathering_only: bool = False
    # Answers paired with their questions (tail.pair_answers; 0: off): a turn among the first ``answer_pair_pool``
    # that only asks something (disclosure.only_asks) lends ``answer_pair_share`` of its mass to the next turn of
    # the session when another speaker says it (the answer); an answer ranked after ``tail_head`` whose lent mass
    # beats its own moves up, the head never moves.
    answer_pair_share: float = 0.0
    answer_pair_pool: int = 20
    # Every turn that asks something lends (disclosure.asks: "Nice! What did you make?"), not only one that asks and
    # states nothing (disclosure.only_asks).
    answer_pair_any_question: bool = False
    # One tunnel weighed ``tail_tunnel_weight`` for the ranks after the first ``tail_head`` only (``""``: none): the
    # head is the fusion with the usual weights (without the tunnel where its usual weight is 0), the ranks after
    # come from a fusion with that weight (tail.splice_tail), the bridge's ranking included.
    tail_tunnel: str = ""
    tail_tunnel_weight: float = 0.0
    # Query decomposition (decompose.py; only where the search was given a decomposer): each sub-query's direct
    # tunnels weigh this times the question's own (``sub_<tunnel>``); 0 asks no LLM at all.
    subquery_weight: float = 0.5
    # Only sub-queries that name a word the question does not (decompose.new_word_queries): paraphrases dropped.
    subquery_new_words: bool = False

    def __post_init__(self) -> None:
        if self.fusion not in ("density", "rrf"):
            raise ValueError(f"fusion must be 'density' or 'rrf', got {self.fusion!r}")
        if min(self.candidates, self.feedback_turns, self.feedback_min_turns) < 1:
            raise ValueError("candidates, feedback_turns and feedback_min_turns must be >= 1")
        if self.echo_seeds < 1 or self.echo_min_idf < 0 or self.echo_hits < 1 or self.echo_head < 0:
            raise ValueError("echo_seeds and echo_hits must be >= 1, echo_min_idf and echo_head >= 0")
        if self.bridge_seeds < 0 or not 0 <= self.bridge_mix <= 1:
            raise ValueError("bridge_seeds must be >= 0 and bridge_mix within [0, 1]")
        if not 0 <= self.duplicate_penalty <= 1:
            raise ValueError("duplicate_penalty must be within [0, 1]")
        if self.tail_head < 0 or self.tail_pool < 0 or self.tail_lead_rank < 1 or self.tail_tunnel_bonus < 0:
            raise ValueError("tail_head and tail_pool must be >= 0, tail_lead_rank >= 1, tail_tunnel_bonus >= 0")
        if self.tail_tunnel_weight < 0 or (self.tail_tunnel and self.tail_tunnel not in ALL_TUNNELS):
            raise ValueError(f"tail_tunnel_weight must be >= 0 and tail_tunnel one of {sorted(ALL_TUNNELS)} or ''")
        if self.answer_pair_share < 0 or self.answer_pair_pool < 0:
            raise ValueError("answer_pair_share and answer_pair_pool must be >= 0")
        if not 0 < self.tail_session_decay <= 1:
            raise ValueError("tail_session_decay must be in (0, 1]")
        if self.feedback_words < 0:
            raise ValueError("feedback_words must be >= 0")
        if not 0 < self.entity_session_decay <= 1:
            raise ValueError("entity_session_decay must be in (0, 1]")
        if not (0 <= self.addressed_penalty < 1 and 0 <= self.asking_penalty < 1):
            raise ValueError("addressed_penalty and asking_penalty must be in [0, 1)")
        shares = (self.session_share, self.gathering_session_share)
        bonuses = (self.temporal_weight, self.speaker_weight, self.answer_type_bonus, self.subquery_weight)
        if min(*bonuses, *shares) < 0:
            raise ValueError("bonus weights and session shares must be >= 0")
        if self.tunnels - ALL_TUNNELS:
            raise ValueError(f"unknown tunnels {sorted(self.tunnels - ALL_TUNNELS)} (known: {sorted(ALL_TUNNELS)})")


def fused_settings(name: str) -> FusedSettings:
    """Named presets, including the bench's ablations (``no-graph``, ``rrf``, ``no-temporal``, ...), optionally
    followed by changed settings: ``default+session_share=0.3+weight.dense=1.0`` (see ``overrides.py``)."""
    preset_name, _, changes = name.partition("+")
    settings = _preset(preset_name)
    for key, value in parse_overrides(changes) if changes else []:
        settings = apply_override(settings, key, value)
    return settings


def _preset(name: str) -> FusedSettings:
    base = FusedSettings()
    if name == "default":
        return base
    if name in ("lexical-heavy", "graph-heavy"):
        return replace(base, density=preset(name))
    if name.startswith("no-") and name[3:] in {"bm25", "dense", "fact", "graph"}:
        dropped = {name[3:], f"{name[3:]}_piece", f"{name[3:]}_prf"}
        return replace(base, tunnels=ALL_TUNNELS - dropped)
    if name == "no-prf":
        return replace(base, tunnels=ALL_TUNNELS - {"bm25_prf"})
    if name == "no-disclosure":
        return replace(base, addressed_penalty=0.0, asking_penalty=0.0)
    if name == "no-temporal":
        return replace(base, temporal_weight=0.0)
    if name == "no-speaker":
        return replace(base, speaker_weight=0.0)
    if name == "no-session":
        return replace(base, session_share=0.0)
    if name == "no-gates":
        return replace(base, gates=False)
    if name == "rrf":
        return replace(base, fusion="rrf")
    raise ValueError(f"unknown preset {name!r}: one of {', '.join(PRESET_NAMES)}")


PRESET_NAMES = (
    "default",
    "lexical-heavy",
    "graph-heavy",
    "no-bm25",
    "no-dense",
    "no-fact",
    "no-graph",
    "no-prf",
    "no-disclosure",
    "no-temporal",
    "no-session",
    "no-speaker",
    "no-gates",
    "rrf",
)
