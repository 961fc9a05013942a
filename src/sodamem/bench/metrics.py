"""Benchmark metrics as LongMemEval and LoCoMo define them: pure functions, no I/O.

Retrieval (LongMemEval, src/retrieval/eval_utils.py): ``recall_any``, ``recall_all``, ``ndcg_any`` and
``session_ranking`` (scoring a turn-level run at session level). LoCoMo: ``parse_evidence`` for its evidence ids and
the official QA scorer of task_eval/evaluation.py (``normalize_answer``, ``token_f1``, ``locomo_qa_score``).
Evidence budgets: ``count_tokens`` and ``pack_to_budget``.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from sodamem.porter import stem

# ---------------------------------------------------------------------------------------------------------------
# Retrieval


def _top_k(ranked: Sequence[str], k: int) -> list[str]:
    """The first ``k`` distinct ids of ``ranked`` (a repeated id keeps its first rank; later copies are dropped)."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    return list(dict.fromkeys(ranked))[:k]


def _relevant_set(relevant: Collection[str]) -> frozenset[str]:
    rel = frozenset(relevant)
    if not rel:
        raise ValueError("empty relevant set: skip this question instead of scoring it")
    return rel


def recall_any(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """1.0 if any relevant id is among the top ``k`` distinct ids of ``ranked``, else 0.0."""
    rel = _relevant_set(relevant)
    return float(any(i in rel for i in _top_k(ranked, k)))


def recall_all(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """1.0 if every relevant id is among the top ``k`` distinct ids of ``ranked``, else 0.0."""
    rel = _relevant_set(relevant)
    return float(rel <= set(_top_k(ranked, k)))


def _dcg(labels: Sequence[int]) -> float:
    """LongMemEval's DCG: rank 1 counts as is, rank i >= 2 is divided by log2(i)."""
    return sum(label if i == 1 else label / math.log2(i) for i, label in enumerate(labels, start=1))


def ndcg_any(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """NDCG@k with binary relevance, LongMemEval's discount, and the ideal ranking of ``min(len(relevant), k)`` ones.

    LongMemEval builds the ideal ranking from the relevant ids present in the corpus; here every relevant id counts,
    so callers should pass only ids that can be retrieved.
    """
    rel = _relevant_set(relevant)
    actual = _dcg([1 if i in rel else 0 for i in _top_k(ranked, k)])
    ideal = _dcg([1] * min(len(rel), k))
    return actual / ideal


def session_ranking(
    ranked_turn_ids: Sequence[str], session_of: Mapping[str, str] | Callable[[str], str], k: int
) -> list[str]:
    """Score a turn-level ranking at session level, as LongMemEval does.

    Turns are mapped to their sessions in rank order and the cut-off is widened until ``k`` distinct sessions are
    covered: the result is the distinct sessions in first-seen order, at most ``k`` of them. A turn missing from a
    mapping raises ``KeyError``. (For LongMemEval turn ids ``<session_id>_<n>`` pass
    ``lambda t: t.rsplit("_", 1)[0]``.)
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    lookup = session_of.__getitem__ if isinstance(session_of, Mapping) else session_of
    sessions: dict[str, None] = {}
    for turn_id in ranked_turn_ids:
        sessions.setdefault(lookup(turn_id))
        if len(sessions) == k:
            break
    return list(sessions)


# ---------------------------------------------------------------------------------------------------------------
# LoCoMo evidence ids

_EVIDENCE_ID = re.compile(r"D[0-9]+:[0-9]+")
_EVIDENCE_SPLIT = re.compile(r"[;,\s]+")


@dataclass(frozen=True, slots=True)
class EvidenceParse:
    """Evidence ids in order without duplicates, and the tokens that did not parse (in order, every occurrence)."""

    ids: tuple[str, ...]
    malformed: tuple[str, ...]


def parse_evidence(raw: Sequence[str]) -> EvidenceParse:
    """Parse a LoCoMo ``evidence`` list: split each string on ``;``, ``,`` and whitespace, keep ``D<n>:<n>`` tokens.

    ``['D8:6; D9:17']`` gives ids ``D8:6, D9:17``; ``'D'`` and ``'D:11:26'`` are reported as malformed.
    Whether an id names an existing turn is the loader's business.
    """
    ids: dict[str, None] = {}
    malformed: list[str] = []
    for entry in raw:
        for token in _EVIDENCE_SPLIT.split(entry):
            if not token:
                continue
            if _EVIDENCE_ID.fullmatch(token):
                ids.setdefault(token)
            else:
                malformed.append(token)
    return EvidenceParse(ids=tuple(ids), malformed=tuple(malformed))


# ---------------------------------------------------------------------------------------------------------------
# LoCoMo QA scoring (task_eval/evaluation.py)

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
ABSTENTION_PHRASES = ("no information available", "not mentioned")


def normalize_answer(s: str) -> str:
    """The official normalisation: lower-case, drop ASCII punctuation, drop ``a``/``an``/``the`` and also ``and``,
    collapse whitespace."""
    s = "".join(ch for ch in s.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", s).split())


def _stems(text: str) -> list[str]:
    return [stem(w) for w in normalize_answer(text).split()]


def token_f1(prediction: str, gold: str) -> float:
    """Token F1 between the normalised, Porter-stemmed (NLTK mode) tokens; 0.0 when nothing is shared."""
    pred, ref = _stems(prediction), _stems(gold)
    same = sum((Counter(pred) & Counter(ref)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def multi_answer_f1(prediction: str, gold: str) -> float:
    """Category 1: both sides split on ``,``; for each gold part the best F1 over prediction parts, averaged."""
    preds = [p.strip() for p in prediction.split(",")]
    golds = [g.strip() for g in gold.split(",")]
    return mean(max(token_f1(p, g) for p in preds) for g in golds)


def locomo_qa_score(prediction: str, answer: str | int | float, category: int) -> float:
    """Score one answer with LoCoMo's official rule for its category (1 multi-hop, 2 temporal, 3 open-domain,
    4 single-hop, 5 adversarial). For category 5 ``answer`` is ignored: the prediction scores 1.0 when it says
    "no information available" or "not mentioned" (case-insensitive)."""
    gold = str(answer)
    if category == 1:
        return multi_answer_f1(prediction, gold)
    if category in (2, 4):
        return token_f1(prediction, gold)
    if category == 3:
        return token_f1(prediction, gold.split(";")[0].strip())
    if category == 5:
        lowered = prediction.lower()
        return float(any(phrase in lowered for phrase in ABSTENTION_PHRASES))
    raise ValueError(f"unknown LoCoMo category: {category}")


def contains_answer(evidence_text: str, answer: str) -> bool:
    """Whether the normalised answer occurs as a run of whole tokens in the normalised evidence (no stemming).

    An answer that normalises to nothing (e.g. ``"the"``) is never contained.
    """
    needle = normalize_answer(answer).split()
    if not needle:
        return False
    hay = normalize_answer(evidence_text).split()
    n = len(needle)
    return any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


# ---------------------------------------------------------------------------------------------------------------
# Evidence budgets

TOKENIZER_NAME = "regex-words-v1"
"""Names the counting rule in reports. It is an approximate stand-in for a BPE tokenizer: a run of word characters
or a single other non-space character is one token. On English prose it gives fewer tokens than cl100k (which splits
rare words and attaches leading spaces differently), so treat budgets as approximate."""

_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """The number of ``regex-words-v1`` tokens in ``text``."""
    return sum(1 for _ in _TOKEN.finditer(text))


def pack_to_budget(texts: Sequence[str], budget: int) -> list[str]:
    """Take ``texts`` in order while the running token count stays <= ``budget``.

    The first text that would overflow is cut after its last token that still fits (a prefix of the original
    string, so spacing and punctuation inside it are kept) and packing stops; it is left out when no token fits.
    Texts with no tokens always fit.
    """
    if budget < 0:
        raise ValueError(f"budget must be >= 0, got {budget}")
    packed: list[str] = []
    used = 0
    for text in texts:
        n = count_tokens(text)
        if used + n <= budget:
            packed.append(text)
            used += n
            continue
        remaining = budget - used
        if remaining > 0:
            end = 0
            for i, match in enumerate(_TOKEN.finditer(text), start=1):
                end = match.end()
                if i == remaining:
                    break
            packed.append(text[:end])
        break
    return packed


def mean(values: Iterable[float]) -> float:
    """The arithmetic mean, or 0.0 for no values (keeps reports free of NaN)."""
    items = list(values)
    return math.fsum(items) / len(items) if items else 0.0
