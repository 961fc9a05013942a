"""Answering with an LLM: a bounded planner loop that may grow the evidence, then a reader that must cite it.

``answer_with_llm(memory, question, client)``:

0. with ``offline_states`` (off by default), asks the offline reader first and takes its answer, flagged
   ``offline_state:<reading>``, where it read a state of the asker's own from the stored facts (a state slot,
   relatives by name, pets, medicines, pastimes) or a yes/no the best sentence does not settle alone (a later
   ending, its time passed, a plan called off or never said done: ``OFFLINE_STATES``); no LLM is asked. Small
   models answer "Am I still with Callum?" as "not in memory" from "Callum and I split up", and "Did I run the Porto
   half?" as "Yes" from "signed up for it". Off by default: on two probes of casual histories the rules were never
   tuned on (docs/bench.md, fortieth session) it scored below the model alone (33 against 34 and 23 against 25 of
   60), though above it on the probe the rules were written from. With ``offline_relations`` (the default), a
   question of who a named person is ("Who is Finn?") takes the offline reader's answer where it read the relation
   a stored fact names ("Graham's grandson"; flag ``offline_relation``), one relation said as holding and nothing
   said of the person since that may have ended it (``answer/relation_settled.py``): Qwen2.5-1.5B answered 4 of 12
   such questions of a sealed probe with its rule for them, the offline reader 10 (docs/bench.md). Then, with
   ``speaker_guard`` (the default), asks the offline reader's speaker rule (``offline.said_by_another_speaker``):
   when the question names one of the people talking and the words that match it were said by someone else, the
   answer is "not in memory" (flag ``said_by_another_speaker``) and no LLM is asked. Small models answer such a
   question from the other person's words (docs/bench.md);
1. starts from ``memory.evidence(question, budget_tokens=...)`` (the density ranking, cut to a budget; with
   ``focus_tokens``, long turn lines cut to their sentences that match the question, ``retrieve.focus``);
2. asks the PLANNER (``prompts.plan_search``) for one structured JSON action per step: ``search`` (runs
   ``memory.evidence`` with the planner's query, filtered to its time window), ``inspect`` (the whole turn behind
   an evidence id), ``expand_session`` (the turns around one turn), ``timeline`` (every fact about an entity, old
   and current), or ``answer``. New evidence is merged into the pool: items already there keep their ids, new
   ones get the next free ids (``E<n+1>``...), so every id the planner saw means the same thing at the end. The
   loop stops at ``answer``, after ``max_steps`` planner calls, when a step adds nothing twice in a row, or when the
   LLM tokens spent reach ``max_llm_tokens``;
3. asks the READER (``prompts.read_answer``) for the answer from the final pack, says the dates it copied as a
   person does (a time word with the pack's note, ``yesterday [yesterday = 2023-06-08]``, becomes ``8 June 2023``),
   and validates it: cited ids not
   in the pack are removed from the text and flagged (``unknown_citation:E9``); a sentence without a citation is
   flagged (``uncited_sentence:<n>``), except that the ids listed beside a one-sentence answer cite it
   (``citations_from_list``), and an answer of several sentences none of which cites an id is cut to its first
   sentence, grounded the same way (``answer_cut_to_first_sentence``: Qwen2.5-1.5B answers, then retells the
   turn); an abstaining reader, or one answering "not in memory", gives ``abstained=True``. With ``cited_dates``
   (the default), a when-question's answer is said as a date, the model's words kept as ``detail``: the date it
   states (flag ``answer_cut_to_date``; widened to the span of several days a cited item gives when it is that
   span's first day, ``answer_widened_to_cited_span``), else the date of the evidence it cites
   (``date_from_citation:<how>``; ``answer/cited_date.py``), with the relative time word it was read from anchored
   on the day said beside it where that word's reading was a choice (``date_said_as_relative``); with
   ``concise_answers`` (the default), any other one-sentence answer drops the words that only restate the question,
   the model's sentence kept as ``detail`` (flag ``answer_without_question_echo:<cut>``, ``answer/concise.py``).
   The reader's JSON schema lists the pack's ids as the only citations, so a server decoding by the schema cannot
   cite an id it was never shown.

Faults never produce an answer shown as grounded: an ``LLMError`` (endpoint failed after retries, or a reply that
did not validate after the one repair) in the reader, a reader whose answer cites no id of the pack at all, or
one whose ids are only listed beside an answer whose first sentence says nothing outside brackets
(``uncited_answer``), or one that answers with a worked example of its prompt that the pack does not support
(``copied_example``), falls back to the offline reader with the flag ``fallback:<reason>``. A failing planner
only ends the search (flag ``planner_error:<kind>``); the reader still reads what was found.

Cost: the tokens the client's ``usage`` grew by during the call (a ``CachingChatClient`` counts replayed replies
too, so a re-scored run reports the same cost) priced with ``llm.prices``; ``price_unknown:<model>`` flags a model
without a price.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sodamem.answer.cited_date import asks_for_a_date, date_answer
from sodamem.answer.concise import concise_answer
from sodamem.answer.evidence_view import item_citation
from sodamem.answer.llm_reply import (
    cites_an_id,
    drop_pack_markup,
    has_words,
    human_dates,
    resolve_time_notes,
    says_not_in_memory,
    split_sentences,
    validate_citations,
    without_ids,
)
from sodamem.answer.offline import answer_offline, said_by_another_speaker
from sodamem.answer.relation_settled import relation_settled
from sodamem.answer.types import ABSTAIN_TEXT, Answer, AnswerCitation, Cost, Reading, reading_of
from sodamem.bench.metrics import count_tokens
from sodamem.errors import SodaMemError
from sodamem.llm.client import LLMError, LLMReplyError, LLMRequestError
from sodamem.llm.prices import PriceSpec, PriceTable, cost_usd
from sodamem.llm.prompts.plan_search import SCHEMA_NAME as PLANNER_SCHEMA
from sodamem.llm.prompts.plan_search import PlannerAction, planner_messages
from sodamem.llm.prompts.read_answer import SCHEMA_NAME as READER_SCHEMA
from sodamem.llm.prompts.read_answer import choose_reader_prompt, who_is_asked
from sodamem.llm.replay import JsonChatClient
from sodamem.memory import Memory
from sodamem.retrieve.pack import EvidenceItem, EvidencePack, build_pack
from sodamem.retrieve.query import analyze_query
from sodamem.retrieve.temporal import parse_iso

log = logging.getLogger(__name__)

_EXPAND_RADIUS = 2
# The offline reader's readings the LLM loop takes as they are: states its rules track through changes. Not a named
# entity's fact picked by the question's predicate words, nor a person named by a relation: on LoCoMo's tuning slices
# those misread ("What kind of game ...?": "shooting guard") where the model reads the turn.
OFFLINE_STATES = frozenset(
    {Reading.STATE, Reading.KIN, Reading.PETS, Reading.MEDICINES, Reading.PASTIMES, Reading.CHANGED}
)
_MAX_SEARCH_K = 20


@dataclasses.dataclass(slots=True)
class _Pool:
    """The evidence gathered so far, best first, with stable ids."""

    items: list[EvidenceItem]
    budget_tokens: int
    line_dates: bool = False  # the reader prompt's choice (``ReaderPrompt.line_dates``)

    def pack(self) -> EvidencePack:
        return build_pack(self.items, self.budget_tokens, count_tokens, line_dates=self.line_dates)

    def add(self, new: Sequence[EvidenceItem]) -> list[str]:
        """Merge ``new`` (renumbered after the highest id held); returns the ids added."""
        seen = {_identity(item) for item in self.items}
        next_id = max((_id_number(item.id) for item in self.items), default=0) + 1
        added: list[str] = []
        for item in new:
            key = _identity(item)
            if key in seen:
                continue
            seen.add(key)
            fresh = dataclasses.replace(item, id=f"E{next_id}", resolved=item.times)
            next_id += 1
            self.items.append(fresh)
            added.append(fresh.id)
        return added


def answer_with_llm(
    memory: Memory,
    question: str,
    client: JsonChatClient,
    *,
    now: datetime | None = None,
    max_steps: int = 3,
    budget_tokens: int = 1500,
    max_pack_tokens: int | None = None,
    max_llm_tokens: int | None = None,
    prices: Mapping[str, PriceSpec] | PriceTable | None = None,
    user: str | None = None,
    search_mode: str = "auto",
    reader_prompt: str = "auto",
    speaker_guard: bool = True,
    cited_dates: bool = True,
    concise_answers: bool = True,
    focus_tokens: int | None = None,
    list_budget_tokens: int | None = None,
    offline_states: bool = False,
    offline_relations: bool = True,
) -> Answer:
    """Answer ``question`` from ``memory`` with ``client`` (see the module docstring).

    ``budget_tokens``: the first pack's budget (and each extra search's); ``max_pack_tokens`` (default twice
    ``budget_tokens``): the budget of the merged pack the reader sees; ``max_llm_tokens``: stop planning once the
    call has spent this many LLM tokens (the reader call is always made); ``search_mode``: the search behind every
    pack (``bm25`` to measure the same loop on flat evidence); ``reader_prompt``: ``full``, ``compact`` or
    ``auto`` (compact for a local model; ``prompts.read_answer``); ``offline_states``, ``offline_relations``,
    ``speaker_guard``: step 0 above; ``cited_dates``: a when-question's answer is said as the date it states,
    else as the date of the evidence it cites (``answer/cited_date.py``);
    ``concise_answers``: any other one-sentence answer drops the words that only restate the question
    (``answer/concise.py``); ``focus_tokens``: every pack's turn lines longer than this are cut to the sentences
    that match the question or the planner's query (``retrieve.focus``); ``list_budget_tokens``: ``budget_tokens``
    for a question that gathers several items ("Which cities ...", "How many ...", "... both ..."), whose evidence
    is spread over more sessions than one answer's (None: ``budget_tokens`` for every question).
    """
    reader = choose_reader_prompt(reader_prompt, client.config.model)  # an unknown choice fails before any search
    now = now or memory.cutoff  # a memory seen at a past time is asked then
    if list_budget_tokens is not None and analyze_query(question, memory.asked_at(now)).gathers:
        budget_tokens = list_budget_tokens
    start = (client.usage.prompt_tokens, client.usage.completion_tokens)
    flags: list[str] = []
    if offline_states and (state := _offline_state(memory, question, now, user)) is not None:
        return state
    if offline_relations and (relation := _offline_relation(memory, question, now, user)) is not None:
        return relation
    if speaker_guard and said_by_another_speaker(memory, question, now=now, user=user, mode=search_mode):
        return Answer(
            question=question,
            answer=ABSTAIN_TEXT,
            abstained=True,
            flags=("said_by_another_speaker",),
        )
    first = memory.evidence(
        question,
        budget_tokens=budget_tokens,
        now=now,
        user=user,
        mode=search_mode,
        line_dates=reader.line_dates,
        focus_tokens=focus_tokens,
    )
    pool = _Pool(list(first.items), max_pack_tokens or 2 * budget_tokens, reader.line_dates)
    steps = 0
    history: list[str] = []
    idle_steps = 0
    while steps < max_steps:
        if max_llm_tokens is not None and _spent(client, start) >= max_llm_tokens:
            flags.append("planner_stopped:token_budget")
            break
        pack = pool.pack()
        try:
            reply = client.complete_json(
                planner_messages(question, pack.render_text(), history), PlannerAction, name=PLANNER_SCHEMA
            )
        except LLMError as exc:
            flags.append(f"planner_error:{_fault(exc)}")
            break
        steps += 1
        action = reply.value
        if action.action not in ("search", "inspect", "expand_session", "timeline"):
            history.append("answer")
            break
        description, added = _run_action(
            memory, action, pool, pack, budget_tokens, now, user, search_mode, focus_tokens
        )
        history.append(f"{description} -> " + (f"added {', '.join(added)}" if added else "nothing new"))
        idle_steps = 0 if added else idle_steps + 1
        if idle_steps >= 2:
            break
    final = pool.pack()
    pack_text = final.render_text()
    try:
        read = client.complete_json(
            reader.messages(question, pack_text, now), reader.schema(final.ids), name=READER_SCHEMA
        )
    except LLMError as exc:
        return _fallback(
            memory, question, f"reader_{_fault(exc)}", flags, steps, client, start, prices, now, budget_tokens, user
        )
    steps += 1
    answered = read.value
    if answered.abstain or says_not_in_memory(answered.answer):
        return Answer(
            question=question,
            answer=ABSTAIN_TEXT,
            abstained=True,
            steps=steps,
            cost=_cost(client, start, prices, flags),
            flags=tuple(flags),
            evidence_tokens=final.used_tokens,
        )
    if reader.copied_example(answered.answer, pack_text):
        return _fallback(
            memory, question, "copied_example", flags, steps, client, start, prices, now, budget_tokens, user
        )
    said = human_dates(resolve_time_notes(drop_pack_markup(answered.answer)))
    text, cited, unknown = validate_citations(said, answered.citations, set(final.ids))
    flags.extend(f"unknown_citation:{item_id}" for item_id in unknown)
    sentences = split_sentences(text)
    uncited = [n for n, sentence in enumerate(sentences, 1) if not cites_an_id(sentence)]
    # Ids only in the JSON list, with no sentence citing one, do not ground the words: a small model answers
    # "[Session 18]" with a valid id listed beside it.
    reason = ("unknown_citations" if unknown else "no_citations") if not cited else None
    if reason is None and len(sentences) > 1 and len(uncited) == len(sentences) and has_words(sentences[0]):
        # Several sentences, none citing an id, valid ids listed: the first sentence is the answer and the rest
        # retells the evidence (the 1.5B model's habit). Only the first is kept, and grounded as a one-sentence
        # answer is; the unsupported retelling is not shown.
        sentences = sentences[:1]
        text = sentences[0]
        uncited = [1]
        flags.append("answer_cut_to_first_sentence")
    if reason is None and len(sentences) == 1 and uncited:
        # A one-sentence answer ("2023-05-07") with valid ids listed beside it rests on them as surely as one
        # citing them inline; small models answer this way. Several sentences need their own ids (below).
        body = text.rstrip()
        stop = body[-1] if body[-1:] in (".", "!", "?") else ""
        text = f"{body[: len(body) - len(stop)]} [{', '.join(cited)}]{stop}"
        uncited = []
        flags.append("citations_from_list")
    if reason is None and len(uncited) == len(sentences):
        reason = "uncited_answer"
    if reason is not None:
        return _fallback(memory, question, reason, flags, steps, client, start, prices, now, budget_tokens, user)
    flags.extend(f"uncited_sentence:{n}" for n in uncited)
    detail = ""
    asked = memory.asked_at(now)
    if cited_dates and asks_for_a_date(question):
        words = without_ids(text).strip()
        items = [item for item_id in cited if (item := final.get(item_id)) is not None]
        dated = date_answer(words, items, asked, final.items)
        if dated is not None and dated.text != words.rstrip(". "):
            stop = words[-1] if words[-1:] in (".", "!", "?") else ""  # the reply's own full stop, as above
            detail, text, cited = words, f"{dated.text} [{', '.join(dated.cited)}]{stop}", list(dated.cited)
            flags.append(dated.flag)
            if dated.anchored:
                flags.append("date_said_as_relative")
    elif concise_answers and len(sentences) == 1:
        words = without_ids(text).strip()
        if (short := concise_answer(words, question)) is not None:
            stop = words[-1] if words[-1:] in (".", "!", "?") else ""
            detail, text = words, f"{short.text} [{', '.join(cited)}]{stop}"
            flags.append(f"answer_without_question_echo:{short.cut}")
    citations = _citations(memory, final, cited, user)
    return Answer(
        question=question,
        answer=text,
        citations=citations,
        abstained=False,
        steps=steps,
        cost=_cost(client, start, prices, flags),
        flags=tuple(flags),
        evidence_tokens=final.used_tokens,
        detail=detail,
    )


def _offline_state(memory: Memory, question: str, now: datetime | None, user: str | None) -> Answer | None:
    """The offline reader's answer where it is one of ``OFFLINE_STATES`` (flag ``offline_state:<reading>``)."""
    ruled = answer_offline(memory, question, now=now, user=user)  # its own budget: the answer it gives alone
    reading = reading_of(ruled)
    if reading not in OFFLINE_STATES:
        return None
    return dataclasses.replace(ruled, flags=(*ruled.flags, f"offline_state:{reading}"))


def _offline_relation(memory: Memory, question: str, now: datetime | None, user: str | None) -> Answer | None:
    """For "Who is Finn?", the offline reader's answer where it read the one relation a stored fact names ("Graham's
    grandson"; flag ``offline_relation``) and nothing said since may have ended it (``relation_settled``)."""
    name = who_is_asked(question)
    if name is None:
        return None
    ruled = answer_offline(memory, question, now=now, user=user)
    if reading_of(ruled) is not Reading.RELATION or not relation_settled(memory, ruled, name, now, user):
        return None
    return dataclasses.replace(ruled, flags=(*ruled.flags, "offline_relation"))


# -- planner actions ---------------------------------------------------------------------------------------------


def _run_action(
    memory: Memory,
    action: PlannerAction,
    pool: _Pool,
    pack: EvidencePack,
    budget_tokens: int,
    now: datetime | None,
    user: str | None,
    search_mode: str,
    focus_tokens: int | None = None,
) -> tuple[str, list[str]]:
    try:
        if action.action == "search":
            query = (action.query or "").strip()
            if not query:
                return "search without a query", []
            k = max(1, min(action.k or 10, _MAX_SEARCH_K))
            found = memory.evidence(
                query,
                budget_tokens=budget_tokens,
                k=max(k, 10),
                now=now,
                user=user,
                mode=search_mode,
                focus_tokens=focus_tokens,
            ).items
            items = [i for i in found if _in_window(i, action.after, action.before)][:k]
            window = f" after {action.after}" if action.after else ""
            window += f" before {action.before}" if action.before else ""
            return f"search {query!r}{window} k={k}", pool.add(items)
        if action.action == "inspect":
            item = pack.get((action.evidence_id or "").strip().upper())
            if item is None:
                return f"inspect {action.evidence_id!r}: no such evidence", []
            record = memory.turn(item.turn_id, session_id=item.session_id, user=user)
            return f"inspect {item.id}", pool.add([_turn_item(record, item.session_timestamp, item.score)])
        if action.action == "expand_session":
            if not action.session_id:
                return "expand_session without a session id", []
            session = memory.session(action.session_id, user=user)
            centre = action.around_turn if action.around_turn is not None else 0
            turns = [t for t in session.turns if abs(t.turn_index - centre) <= _EXPAND_RADIUS]
            items = [_turn_item(t, session.timestamp, 0.0) for t in turns]
            return f"expand_session {action.session_id} around turn {centre}", pool.add(items)
        entity = (action.entity or "").strip()
        if not entity:
            return "timeline without an entity", []
        facts = [f for f in memory.facts(status="all", subject=entity, user=user) if f.sources][:_MAX_SEARCH_K]
        return f"timeline {entity!r}", pool.add([_fact_item(f) for f in facts])
    except SodaMemError as exc:  # NotFoundError, AmbiguousIdError, ...: the step found nothing
        return f"{action.action} failed: {exc}", []


def _turn_item(record: Any, session_timestamp: str | None, score: float) -> EvidenceItem:
    return EvidenceItem(
        id="E0",
        kind="turn",
        session_id=record.session_id,
        turn_index=record.turn_index,
        turn_id=record.turn_id,
        speaker=record.speaker,
        char_start=0,
        char_end=len(record.text),
        timestamp=record.timestamp,
        text=record.text,
        score=score,
        session_timestamp=session_timestamp,
        caption=record.caption,
    )


def _fact_item(fact: Any) -> EvidenceItem:
    source = fact.sources[0]
    return EvidenceItem(
        id="E0",
        kind="fact",
        session_id=source.session_id,
        turn_index=source.turn_index,
        turn_id=source.turn_id,
        speaker=getattr(source, "speaker", ""),
        char_start=source.char_start,
        char_end=source.char_end,
        timestamp=fact.mentioned_at,
        text=fact.text,
        score=0.0,
        status=fact.status,
        occurred_start=fact.occurred_start,
        occurred_end=fact.occurred_end,
    )


def _in_window(item: EvidenceItem, after: str | None, before: str | None) -> bool:
    when = parse_iso(item.occurred_start or item.timestamp)
    if when is None:
        return True
    when = when.replace(tzinfo=None)
    low = parse_iso(after) if after else None
    high = parse_iso(before) if before else None
    if low is not None and when < low.replace(tzinfo=None):
        return False
    return not (high is not None and when >= high.replace(tzinfo=None))


def _identity(item: EvidenceItem) -> tuple[str, str, int, int, int, str]:
    return (item.kind, item.session_id, item.turn_index, item.char_start, item.char_end, item.text)


def _id_number(item_id: str) -> int:
    digits = "".join(ch for ch in item_id if ch.isdigit())
    return int(digits) if digits else 0


def _citations(memory: Memory, pack: EvidencePack, ids: Sequence[str], user: str | None) -> tuple[AnswerCitation, ...]:
    out: list[AnswerCitation] = []
    for item_id in ids:
        item = pack.get(item_id)
        if item is None:
            continue
        quote = _quote(memory, item, user)
        if quote is None:
            continue
        out.append(item_citation(item, quote))
    return tuple(out)


def _quote(memory: Memory, item: EvidenceItem, user: str | None) -> str | None:
    if item.kind == "turn" and item.char_start == 0 and item.char_end == len(item.text):
        return item.text
    try:
        text = memory.turn(item.turn_id, session_id=item.session_id, user=user).text
    except SodaMemError:
        return None
    return text[item.char_start : item.char_end]


# -- faults and cost ---------------------------------------------------------------------------------------------


def _fault(exc: LLMError) -> str:
    if isinstance(exc, LLMReplyError):
        return "invalid_reply"
    if isinstance(exc, LLMRequestError):
        return f"http_{exc.status}" if exc.status is not None else "request_failed"
    return "llm_error"


def _fallback(
    memory: Memory,
    question: str,
    reason: str,
    flags: list[str],
    steps: int,
    client: JsonChatClient,
    start: tuple[int, int],
    prices: Mapping[str, PriceSpec] | PriceTable | None,
    now: datetime | None,
    budget_tokens: int,
    user: str | None,
) -> Answer:
    """The offline reader's answer, flagged ``fallback:<reason>``, with the LLM tokens already spent as its cost."""
    flags = [*flags, f"fallback:{reason}"]
    base = answer_offline(memory, question, now=now, budget_tokens=budget_tokens, user=user)
    cost = _cost(client, start, prices, flags)
    merged = tuple(dict.fromkeys([*base.flags, *flags]))
    return dataclasses.replace(base, steps=steps, cost=cost, flags=merged)


def _spent(client: JsonChatClient, start: tuple[int, int]) -> int:
    return client.usage.prompt_tokens - start[0] + client.usage.completion_tokens - start[1]


def _cost(
    client: JsonChatClient,
    start: tuple[int, int],
    prices: Mapping[str, PriceSpec] | PriceTable | None,
    flags: list[str],
) -> Cost:
    input_tokens = client.usage.prompt_tokens - start[0]
    output_tokens = client.usage.completion_tokens - start[1]
    estimate = cost_usd(client.config.model, input_tokens, output_tokens, prices=prices)
    if not estimate.known and (input_tokens or output_tokens):
        flags.append(f"price_unknown:{client.config.model}")
    return Cost(input_tokens=input_tokens, output_tokens=output_tokens, usd=estimate.usd)
