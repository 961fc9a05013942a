"""The offline reader's current-state answers: where someone lives or works, their job, diet, studies ... now.

The question's keywords name the functional predicates it asks about (``answer/state.py``). The answer is the value
of the fact that holds (today's, or for "Where did Maya live in March?" the one that held then) and the value it
replaced ("York (previously Leeds)"); with a history cue ("used to", "before") the value it replaced. A relative
asked about ("Where does my brother live?") is answered from that relative's facts, citing the relation fact that
says who they are. A denial with nothing affirmed since ("I no longer live in London") is no answer. A yes/no
question naming a value ("Am I vegan?") is "Yes" when that value holds, "No" when it is denied or was replaced.
A where-question asks the slots that hold a place ("Where do I work?": the employer, not the job).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sodamem import instants
from sodamem.answer.due_plans import (
    PLAN_STATES,
    begins_after,
    due_endings,
    due_plans,
    latest_word,
    news_query,
    rescheduled,
)
from sodamem.answer.relatives import (
    Relative,
    person_of,
    relative_asked_about,
    relative_facts,
    relative_mentioned,
    relative_subjects,
)
from sodamem.answer.spans import asks_for_a_place, question_kind
from sodamem.answer.state import STATE_KEYWORDS, state_predicates
from sodamem.answer.state_anchor import anchored
from sodamem.answer.state_questions import (
    ANCHOR,
    AT_OR_IN,
    CAPITALISED,
    LIVE_WITH,
    LIVES_WITH_ME,
    SAYS_LIVING_WITH,
    WHO_LIVES_WITH,
    asked,
    asked_value,
    names_a_value,
    names_said,
    person_asked_of,
    same_value_said,
    value,
)
from sodamem.answer.titles import job_ending, said_with
from sodamem.answer.yes_no import asks_a_wish
from sodamem.ingest.entities import entity_key, value_key
from sodamem.ingest.extract.rules_vocabulary import snake
from sodamem.ingest.supersede import is_functional, same_value
from sodamem.ingest.timeparse import find_times
from sodamem.memory import Memory
from sodamem.records import FactRecord, SearchHit
from sodamem.retrieve.query import QueryAnalysis
from sodamem.roles import HOUSEMATE_WORDS, asked_words

USER_ROLE = "user"  # the asker's "I" and "my": the speaker "user" of a user/assistant log
_ALTERNATIVES = re.compile(r"\bor\b", re.IGNORECASE)
_ASKS_WHO = re.compile(r"\s*who(?:m|se)?\b", re.IGNORECASE)
_ASKS_A_MOVE = re.compile(r"^\s*where\s+(?:is|are)\s+.+?\s+moving\b", re.IGNORECASE)
# "What was my job?", "What did I do before I quit?", "What job did I have before Tesco?"
_LOOKS_BACK = re.compile(
    r"^\s*\w+(?:\s+\w+)?\s+(?:was|were|did)\b(?!.*\bnow\b)|\bused\s+to\b|\bbefore\s+(?:I|[A-Z])", re.IGNORECASE
)
# "Am I still a barista?", "Am I a nurse now?": a title asked with no state word (only where one was said)
_AM_I_A = re.compile(r"^\s*am\s+I\s+(?:still\s+|now\s+|currently\s+)?(?:an?)\s+\w", re.IGNORECASE)
_HOW_LONG = re.compile(r"\s*how\s+long\b", re.IGNORECASE)  # a span ("How old is Kuba?" is a state: an age)
Span = tuple[str, int, int, int]  # session_id, turn_index, char_start, char_end of a fact's source
STATE_PREDICATES = frozenset(p for predicates in STATE_KEYWORDS.values() for p in predicates if not p.endswith("*"))
PLACE_PREDICATES = frozenset({"lives_in", "works_at", "studies_at", "comes_from", "grew_up_in"})


@dataclass(frozen=True, slots=True)
class StateReading:
    """An answer from facts (its text and the facts to cite, relation facts first), or why there is none."""

    text: str = ""
    cited: tuple[FactRecord, ...] = ()
    abstain: str | None = None


@dataclass(slots=True)
class StateReader:
    memory: Memory
    user: str
    question: str
    analysis: QueryAnalysis
    hits: list[SearchHit]
    now: datetime  # when the question is asked
    _active: dict[str | None, list[FactRecord]] = field(default_factory=dict)  # a subject's active facts, read once
    # a title's ending, judged once (it searches the memory)
    _endings: dict[int, FactRecord | None] = field(default_factory=dict)

    def _all_of(self, subject: str) -> list[FactRecord]:
        return self.memory.facts(status="all", subject=subject, user=self.user)

    def _active_of(self, subject: str | None) -> list[FactRecord]:
        """Today's facts of ``subject`` (None: everyone's), read once per question."""
        if subject not in self._active:
            self._active[subject] = self.memory.facts(status="active", subject=subject, user=self.user)
        return self._active[subject]

    def read(self) -> StateReading | None:
        """The reading of a current-state question; None when it is none, or the facts do not settle it (the
        sentence readers go on)."""
        if WHO_LIVES_WITH.search(self.question):
            # "Who do I live with?", "Who does Tom live with?"; not my sister's housemates, which no slot holds
            return None if relative_asked_about(self.question, USER_ROLE) is not None else self._housemates()
        if question_kind(self.question) == "yes_no" and (
            LIVE_WITH.search(self.question) or LIVES_WITH_ME.search(self.question)
        ):
            return self._yes_or_no(("lives_in",))  # "Do I still live with Carlos?"
        moving = _ASKS_A_MOVE.search(self.question) and relative_asked_about(self.question, USER_ROLE)
        if moving:  # "Where is my mum moving to?": her planned move, whatever its day ("shes moving to nelson")
            return self._relative_plan(moving, ("lives_in",), [], any_day=True)
        # "Where did I work before I moved to Leeds?" asks where one worked, not lived
        clause = ANCHOR.search(self.question)
        asked = self.question[: clause.start()] if clause is not None else self.question
        if clause is not None and not asked.strip():  # "Before I moved to Leeds(,) where did I work?"
            asks = _WH_WORD.search(clause["what"])
            asked = clause["what"][asks.start() :] if asks is not None else ""
        wanted = state_predicates(asked) or state_predicates(self.question) or self._title_asked()
        if not wanted or asks_a_wish(self.question):
            return None  # "Where do I want to work?" asks no state that holds
        if _HOW_LONG.match(self.question):
            return None  # "How long did I work at X?" asks a span, which the sentences say ("been there 3 yrs")
        if _ASKS_WHO.match(self.question) and set(wanted) <= PLACE_PREDICATES:
            return None  # "Who did Lwazi's mom move in with?" asks a person, not where she lives
        if asks_for_a_place(self.question):  # "Where do I work?" is the employer, not the job title (if one is known)
            places = tuple(p for p in wanted if p in PLACE_PREDICATES)
            known = self._said_for(places) or self._denials_for(places)  # with the employers a last day ended
            wanted = places if places and known else wanted
        if question_kind(self.question) == "yes_no" and not _ALTERNATIVES.search(self.question):
            return self._yes_or_no(wanted)  # "vegetarian or pescatarian now?" asks which, not whether
        relative = relative_asked_about(self.question, USER_ROLE)
        if relative is not None:
            # "Where does my brother live?": the brother's facts (never the asker's own), cited with the relation
            # fact that says who the brother is ("my brother Tom")
            places = tuple(p for p in wanted if p in PLACE_PREDICATES) if asks_for_a_place(self.question) else ()
            found = relative_facts(self.memory, self.user, relative, places) if places else None
            if found is None or not found.facts:  # "Where does my sister's husband work?": the employer, if known
                found = relative_facts(self.memory, self.user, relative, wanted)
            planned = self._relative_plan(relative, wanted, found.facts)
            if planned is not None:  # "my father is moving to Ålesund in August", asked in October
                return planned
            if found.facts:
                return self._state_answer(found.facts, found.relations)
            if not relative_mentioned(relative, (h.turn_text for h in self.hits)):  # nobody mentioned such a one
                return StateReading(abstain="unknown relative")
            return None
        facts = self._facts_for(wanted)
        planned = self._due_plan(wanted, facts)  # "I start at Coastline on the 25th", asked after the 25th
        anchor = ANCHOR.search(self.question)
        if planned is not None and anchor is not None:
            # "Where did I work before Aker BP?", where Aker BP came about by a plan: the value it replaced
            came, went = planned.cited[0], planned.cited[1:]
            if anchor["side"].lower() == "before" and names_said(anchor["what"], value(came)) and went:
                return StateReading(f"{value(went[0])} (before {value(came)})", (went[0], came))
            planned = None
        if wanted[0] == "job" and self._title_newest(facts):
            # "What is my job?": the title, not the employer said with it or before it (a firm started at since is
            # the newer answer: "I'm a waitress", then "I started at Deloitte last week")
            facts = [f for f in facts if f.predicate == "job"]
            planned = planned if planned is None or PLAN_STATES[planned.cited[0].predicate] == "job" else None
        if planned is not None and not self.analysis.history_intent:
            return planned
        if not facts and any(self._ended_by_plan(f) or self._left_with_employer(f) for f in self._said_for(wanted)):
            # "my last day there will be feb 25", asked in March; "I quit Bean There", asked the job after
            return StateReading(abstain="ended")
        if not facts:
            ending = [f for f in self._denials_for(wanted) if self._ends_a_value(f)]
            if not ending:
                return None
            left = self._left_before(ending, anchor)
            return left or StateReading(abstain="denied")  # "I no longer live in London", and nothing said since
        return self._state_answer(facts, [])

    def _left_before(self, endings: list[FactRecord], anchor: re.Match[str] | None) -> StateReading | None:
        """For "Where did I work before the library job?" after "quit chatime", with no value said since: the value
        the latest ending ended (cited with where it was said), where the question names no value of that history
        and no time ("before Tesco" after Tesco, Aldi and "I quit Aldi" is not Aldi)."""
        if anchor is None or anchor["side"].lower() != "before":
            return None
        if find_times(anchor["what"], self.now) or re.search(r"\b(?:1[89]|20)\d\d\b", anchor["what"]):
            return None  # "before 2020", "before last summer": a time, not the next thing
        latest = max(endings, key=lambda f: instants.sort_key(f.mentioned_at))
        history = [f for f in self.memory.history(latest.id, user=self.user) if f.object]
        if any(_names_within(anchor["what"], value(f)) for f in history):
            return None
        ended = [
            f
            for f in history
            if f.affirms
            and f.modality == "asserted"
            and f.id != latest.id
            and (not latest.object or same_value_said(value(f), value(latest)))
        ]
        if not ended:
            return None
        return StateReading(value(ended[-1]), (ended[-1], latest))

    def others_states(self) -> tuple[list[Span], list[Span]]:
        """Where the hits say a state of someone other than the person asked about, or another state of theirs:
        ``(session_id, turn_index, char_start, char_end)`` of such facts' sources, less the spans that also say the
        asked state of the asked person. A sentence there answers another question ("Where does Alex work?" is not
        read from "I work as a nurse at Southmead Hospital"). For the asker's own states, whose name the facts may
        give as the speaker's, only another state counts. Empty when the question asks no state."""
        wanted = state_predicates(self.question)
        if not wanted or question_kind(self.question) == "yes_no":
            return [], []
        subjects = self._asked_subjects()
        asker = any(m.name == USER_ROLE for m in self.analysis.entities)
        if not subjects and not asker:
            return [], []
        read = {(h.session_id, h.turn_index) for h in self.hits}
        spans: dict[tuple[str, int, int, int], bool] = {}
        for fact in self.memory.facts(status="all", user=self.user):
            if not (is_functional(fact.predicate) or fact.predicate in STATE_PREDICATES):
                continue
            # the asker's own: any subject may be theirs by name, so only the state tells ("Where do I work?" is
            # not read from "I live in Ancoats")
            fits = asked(fact.predicate, wanted) and (asker or entity_key(fact.subject) in subjects)
            for src in fact.sources:
                if (src.session_id, src.turn_index) in read:
                    key = (src.session_id, src.turn_index, src.char_start, src.char_end)
                    spans[key] = spans.get(key, False) or fits
        return [span for span, fits in spans.items() if not fits], [span for span, fits in spans.items() if fits]

    def _asked_subjects(self) -> set[str]:
        """The keys of the people a state question asks about, when they are others than the asker."""
        relative = relative_asked_about(self.question, USER_ROLE)
        if relative is not None:
            owner = person_of(self.memory, self.user, relative)
            owned = self.memory.facts(status="all", subject=owner, user=self.user)
            kin = asked_words(relative.relation)
            named = [f.object for f in owned if f.kind == "relation" and f.predicate in {snake(k) for k in kin}]
            return {entity_key(n) for n in [*named, *(f"{owner}'s {k}" for k in kin)] if n}
        if any(m.name == USER_ROLE for m in self.analysis.entities):
            return set()
        return {entity_key(m.name) for m in self.analysis.entities}

    def _yes_or_no(self, wanted: tuple[str, ...]) -> StateReading | None:
        """ "Am I vegan?", "Do I still live in Leeds?": "Yes" when a value that holds is named, "No" when a denied
        value is (with nothing affirmed of it since) or a value the slot held before; else the sentences decide."""
        if relative_asked_about(self.question, USER_ROLE) is not None:
            return None
        if LIVE_WITH.search(self.question) or LIVES_WITH_ME.search(self.question):
            # "Do I still live with Carlos?": the roommate facts that hold, or their ending; else the sentences
            return self._housemate()
        named = self._names_value
        facts = self._facts_for(wanted)
        planned = self._due_plan(wanted, facts)
        if planned is not None:  # "Do I live in Daylesford?" after the move to Fitzroy North came about
            plan = planned.cited[0]
            if named(value(plan)):
                return StateReading("Yes", (plan,))
            return self._not_that(planned, wanted)
        holding = [f for f in facts if named(value(f))]
        if holding:
            return StateReading("Yes", (holding[0],))
        for fact in self._said_for(wanted):  # "Do I still work at Hollis?" after its last day
            ending = self._ended_by_plan(fact) if named(value(fact)) else None
            if ending is None and named(value(fact)):
                # "Do I still work as a barista?" after "I quit Bean There", the barista's employer (not after a move
                # to another employer, which may be the same job)
                left = self._ended_with_employer(fact)
                ending = left if left is not None and left.denies else None
            if ending is not None:
                return StateReading("No", (fact, ending))
        denied = [f for f in self._denials_for(wanted) if named(value(f))]
        if denied:
            return StateReading("No", (denied[-1],))
        for fact in facts:
            before = [f for f in self.memory.history(fact.id, user=self.user) if f.id != fact.id and f.affirms]
            if any(named(value(f)) for f in before) and not named(value(fact)):
                return StateReading("No", (fact, *[f for f in before if named(value(f))][-1:]))
        # "Do I live in York?" while Leeds holds: what holds, not someone's York; "Do I live with a roommate?"
        # names no value of the slot, and the sentences decide
        if not facts or not names_a_value(self.question):
            return None
        places = [f for f in facts if f.predicate in PLACE_PREDICATES]  # "Do I work at X?": the employer
        held = self._state_answer(places if places and AT_OR_IN.search(self.question) else facts, [])
        return self._not_that(held, wanted) if held is not None and held.text else held

    def _not_that(self, held: StateReading, wanted: tuple[str, ...]) -> StateReading | None:
        """ "Do I live in York?" while Leeds holds: "No, Leeds" where York is a value such a state takes in this
        memory (someone's home), else just what holds ("Do I live in England?" is no "No" to Leeds, nor "Do I work
        at Hollis?" to Hollis Construction)."""
        said = held.text.split(" (", 1)[0]
        asked = {value_key(m.group()) for m in CAPITALISED.finditer(self.question) if m.group() != "I"}
        if any(same_value(a, value_key(said)) for a in asked):
            return StateReading("Yes", held.cited)
        known = {value_key(f.object) for f in self.memory.facts(status="all", user=self.user) if asked_value(f, wanted)}
        # another employer is another ("Do I still work at Saltbush?" at the Lantern Room); another place may hold
        # this one ("Do I live in England?" in Leeds), so only a place the memory knows as a home is another
        employer = any(f.predicate in ("works_at", "started") for f in held.cited)
        if asked and (employer or asked & known):
            return StateReading(f"No, {held.text}", held.cited)
        return held if names_a_value(self.question) else None

    def _housemate(self) -> StateReading | None:
        m = LIVE_WITH.search(self.question) or LIVES_WITH_ME.search(self.question)
        if m is None:
            return None
        latest = self._housemate_word(m["name"], self._held(None))
        if latest is None:
            return None
        return StateReading("Yes" if latest.polarity else "No", (latest,))

    def _housemate_word(self, name: str, held: list[FactRecord]) -> FactRecord | None:
        """What speaks last of living with ``name``: the roommate facts, and dated moves in or out whose day came."""
        key = entity_key(name)
        mine = [f for f in held if f.predicate in HOUSEMATE_WORDS and entity_key(f.object or "") == key]
        said = [f for f in mine if f.kind == "relation" and f.modality == "asserted"]
        plans = self._as_said_since(f for f in mine if f.modality == "planned")
        return latest_word(said, plans, self._asked_at())

    def _as_said_since(self, plans: Iterable[FactRecord]) -> list[FactRecord]:
        """The plans as the user's later words leave them: without those called off or put off to a day not known,
        and on their new day where one was said ("the move got pushed to the 30th")."""
        kept = []
        for plan in plans:
            hits = self.memory.search(news_query(plan), k=10, user=self.user, now=self.now)
            now = rescheduled(plan, hits)
            if now is not None:
                kept.append(now)
        return kept

    def _asked_at(self) -> datetime:
        """The time a state is asked of: today's, or the end of the time the question names ("in March")."""
        window = self.analysis.window
        return min(window.end, self.now) if window is not None else self.now

    def _subjects(self) -> list[str | None]:
        """Whom the question names, or None: anyone."""
        return [m.name for m in self.analysis.entities] or [None]

    def _housemates(self) -> StateReading | None:
        """ "Who do I live with?": the housemates that hold (and those whose moving-in day has come), or, where all
        have left, no one now and who did; else the sentences decide where one says whom they live with."""
        held = [f for s in self._subjects() for f in self._held(s)]
        names = {f.object: None for f in held if f.predicate in HOUSEMATE_WORDS and f.object}
        words = [w for w in (self._housemate_word(name, held) for name in names if name) if w is not None]
        living = [w for w in words if w.polarity]
        if living:
            return StateReading(", ".join(dict.fromkeys(value(f) for f in living)), tuple(living))
        if words:  # all ended
            said = ", ".join(dict.fromkeys(value(f) for f in words))
            return StateReading(f"no one now (previously {said})", tuple(words))
        if any(SAYS_LIVING_WITH.search(h.turn_text) for h in self.hits):
            return None
        return StateReading(abstain="no housemate")

    def _names_value(self, text: str) -> bool:
        """Whether the question names ``text``, in full or by its short name ("Hollis" for Hollis Construction)."""
        if self._named_in_question(text):
            return True
        asked = [value_key(m.group()) for m in CAPITALISED.finditer(self.question) if m.group() != "I"]
        return bool(text) and any(same_value(a, value_key(text)) for a in asked)

    def _named_in_question(self, text: str) -> bool:
        return (
            bool(text)
            and re.search(rf"(?<!\w){re.escape(text.casefold())}(?!\w)", self.question.casefold()) is not None
        )

    def _state_answer(self, facts: list[FactRecord], relations: list[FactRecord]) -> StateReading | None:
        """The active value among ``facts`` and what it replaced; ``relations`` are cited first."""
        hit_turns = {(h.session_id, h.turn_index) for h in self.hits}
        said = instants.sort_key  # times as instants, not text
        active = max(
            facts,
            key=lambda f: (any((s.session_id, s.turn_index) in hit_turns for s in f.sources), said(f.mentioned_at)),
        )
        chain = self.memory.history(active.id, user=self.user)
        earlier = [f for f in chain if f.id != active.id and said(f.mentioned_at) <= said(active.mentioned_at)]
        # what it replaced: the last other value said as a fact, "used to" and "no longer" too ("York (previously
        # Leeds)", never "York (previously York)"); not a plan, a hypothesis or a never
        replaced = [
            f for f in earlier if f.modality == "asserted" and f.object and not same_value_said(value(f), value(active))
        ]  # a denial of no value ("I lost my job") replaced nothing by name; "Ember" is "Ember Health" again
        previous = replaced[-1] if replaced else None
        now_value = value(active)
        anchor = ANCHOR.search(self.question)
        elsewhere = [f for f in self._all_of(active.subject) if _another_state(f, active)] if anchor else []
        at = anchored(self.question, [*earlier, active], elsewhere)
        if at is not None:  # "Where did I live before York?": the value before York, not before today's
            if at.other is None:
                return StateReading(abstain=f"nothing {at.side} {value(at.anchor)}")
            return StateReading(f"{value(at.other)} ({at.side} {value(at.anchor)})", (at.other, at.anchor))
        asked = self.question.casefold()
        names_values = [v.casefold() in asked for v in (now_value, *(value(f) for f in earlier))]
        if not self.analysis.history_intent and names_values[0] and not any(names_values[1:]):
            # "What job did Maya get at Lumen Health?" already holds the state, so it asks something else;
            # "vegetarian or pescatarian now?" names two values of the slot and asks which holds.
            return None
        if self.analysis.history_intent and previous is not None:
            text = f"{value(previous)} (before {now_value})"
        elif previous is not None:
            text = f"{now_value} (previously {value(previous)})"
        else:
            text = now_value
        cited = (*relations, active) + ((previous,) if previous is not None else ())
        return StateReading(text, cited)

    def _due_plan(self, wanted: tuple[str, ...], facts: list[FactRecord]) -> StateReading | None:
        """The latest dated plan to take up an asked state whose day has come, begun after what held (or was ended)
        before it and not called off since; with the value it replaced."""
        asked_at, subjects = self._asked_at(), self._subjects()
        plans = [f for s in subjects for f in self._active_of(s)]
        said = [*facts, *self._denials_for(wanted)]
        before = [*self._said_for(wanted), *self._denials_for(wanted)]  # with the values a last day has ended
        # the plans due by their first day, then as said since (called off, or their day moved)
        for plan in due_plans(self._as_said_since(due_plans(plans, wanted, asked_at)), wanted, asked_at):
            if not begins_after(plan, said):
                continue
            # what it replaced: the last value said of the slot before (a denial names one too: "Last day at Hollis")
            named = [
                f
                for f in before
                if f.object
                # not "Havbrink (previously cartographic technician)"; a start ("I start at Coastline") replaces an
                # employer
                and (f.predicate == plan.predicate or (plan.predicate not in STATE_PREDICATES and f.predicate != "job"))
                and f.modality == "asserted"
                and not same_value_said(value(f), plan.object or "")
            ]
            held = max(named, key=lambda f: instants.sort_key(f.mentioned_at), default=None)
            if held is None:
                return StateReading(plan.object or "", (plan,))
            return StateReading(f"{plan.object} (previously {value(held)})", (plan, held))
        return None

    def _relative_plan(
        self, relative: Relative, wanted: tuple[str, ...], held: list[FactRecord], *, any_day: bool = False
    ) -> StateReading | None:
        """A relative's dated plan to take up an asked state whose day has come (``any_day``: or is to come),
        begun after what they held."""
        relations, subjects = relative_subjects(self.memory, self.user, relative)
        plans = [f for s in subjects for f in self._active_of(s)]
        asked_at = datetime.max if any_day else self._asked_at()
        for plan in due_plans(self._as_said_since(due_plans(plans, wanted, asked_at)), wanted, asked_at):
            if begins_after(plan, held):
                named = [r for r in relations if r.object and entity_key(r.object) == entity_key(plan.subject)]
                return StateReading(plan.object or "", (*named, plan))
        return None

    def _ends_a_value(self, denial: FactRecord) -> bool:
        """A denial of a value, or one of no value ("I lost my job") that ended a value said before: Jon's "Lost my
        job as a banker" with no employer ever named does not answer "What is Jon working on opening?"."""
        if denial.object:
            return True
        return any(f.affirms and f.object for f in self.memory.history(denial.id, user=self.user))

    def _facts_for(self, wanted: tuple[str, ...]) -> list[FactRecord]:
        subjects = [m.name for m in self.analysis.entities]
        if not subjects and person_asked_of(self.question):
            return []  # "What does Leah do?", and no fact names Leah: not the facts of whoever else
        return [f for f in self._said_for(wanted) if self._ended_by_plan(f) is None and not self._left_with_employer(f)]

    def _title_asked(self) -> tuple[str, ...]:
        """ "Am I still a barista?": ``("job",)`` where a title said of the asker is the one named (the yes/no of
        "Do I still work as a barista?" then answers it); else nothing ("Am I a good cook?" asks no job)."""
        if not _AM_I_A.match(self.question):
            return ()
        said = [f for f in self.memory.facts(status="all", subject=USER_ROLE, user=self.user) if f.predicate == "job"]
        return ("job",) if any(f.object and self._names_value(f.object) for f in said) else ()

    def _said_for(self, wanted: tuple[str, ...]) -> list[FactRecord]:
        """The asked states that hold (then), about the people the question names, before dated endings."""
        subjects = [m.name for m in self.analysis.entities]
        if not subjects and person_asked_of(self.question):
            return []
        pools = [self._held(s) for s in subjects] or [self._held(None)]
        return [f for pool in pools for f in pool if asked(f.predicate, wanted) and f.affirms and f.sources]

    def _ended_by_plan(self, fact: FactRecord) -> FactRecord | None:
        """A dated ending of ``fact`` whose day has come ("Last day at Hollis is the 15th", asked after the 15th;
        "my last day there will be feb 25"), said after it began."""
        plans = [f for f in self._active_of(fact.subject) if f.modality == "planned" and not f.polarity]
        if not plans:
            return None
        said = instants.sort_key(fact.mentioned_at)
        began = instants.sort_key(fact.valid_from or fact.mentioned_at)
        endings = due_endings(plans, fact.predicate, self._asked_at())
        if fact.predicate == "job":  # leaving the job's employer ends the job ("my last day there")
            endings += [e for e in due_endings(plans, "works_at", self._asked_at()) if not e.object]
        for ending in endings:
            other = ending.object and not same_value(value_key(ending.object), value_key(fact.object or ""))
            if fact.predicate != "job" and other:
                continue  # the last day at another employer
            ends = instants.sort_key(ending.occurred_start or "")
            if ends > began and said <= instants.sort_key(ending.mentioned_at):
                return ending
        return None

    def _title_newest(self, facts: list[FactRecord]) -> bool:
        """Whether a title among ``facts`` was said no earlier than any employer among them, but the one it was said
        with ("I'm a barista at Bean There", then "Bean There rehired me": still the barista)."""
        titles = [f for f in facts if f.predicate == "job"]
        said = [instants.sort_key(f.mentioned_at) for f in titles]
        firms = [
            instants.sort_key(f.mentioned_at)
            for f in facts
            if f.predicate == "works_at" and not any(said_with(t, f) for t in titles)
        ]
        return bool(said) and max(said) >= max(firms, default=datetime.min)

    def _left_with_employer(self, job: FactRecord) -> bool:
        """Whether ``job`` ended with its employer by the time asked (``answer/titles.py``)."""
        return self._ended_with_employer(job) is not None

    def _ended_with_employer(self, job: FactRecord) -> FactRecord | None:
        """The fact that ended ``job`` with its employer by the time asked (``titles.job_ending``), or None."""
        if job.predicate != "job":
            return None
        if job.id not in self._endings:
            self._endings[job.id] = self._job_ending(job)
        return self._endings[job.id]

    def _job_ending(self, job: FactRecord) -> FactRecord | None:
        if _LOOKS_BACK.search(self.question):
            return None  # "What was my job before I quit?": the title held then
        asked_at = self._asked_at()
        # the starts whose day has come, on the day said since ("my start date got pushed back a month")
        said = self._as_said_since(due_plans(self._active_of(job.subject), ("works_at",), asked_at))
        starts = due_plans(said, ("works_at",), asked_at)
        facts = self.memory.facts(status="all", subject=job.subject, user=self.user)
        return job_ending(job, facts, starts, asked_at)

    def _held(self, subject: str | None) -> list[FactRecord]:
        """The facts that hold: today's, or for "Where did Maya live in March?" those that held at the end of the
        time named (the end: "as mentioned on 3 July" names the day it was said, so what was said that day
        counts)."""
        window = self.analysis.window
        then = window.end - timedelta(microseconds=1) if window is not None else None
        if then is not None and then < self.now:
            return self.memory.facts(as_of=then, subject=subject, user=self.user)
        return self._active_of(subject)

    def _denials_for(self, wanted: tuple[str, ...]) -> list[FactRecord]:
        """The denials of the asked predicates that hold (then), about the people the question names (else
        anyone's)."""
        subjects: list[str | None] = [m.name for m in self.analysis.entities] or [None]
        if subjects == [None] and person_asked_of(self.question):
            return []
        return [
            f
            for s in subjects
            for f in self._held(s)
            if f.denies and f.modality != "planned" and asked(f.predicate, wanted)
        ]


_WH_WORD = re.compile(r"\b(?:where|what|who|which|how|when)\b", re.IGNORECASE)


def _names_within(words: str, said: str) -> bool:
    """Whether ``words`` name ``said`` anywhere ("before I started at Chatime" names Chatime)."""
    return re.search(rf"(?<!\w){re.escape(said.casefold())}(?!\w)", words.casefold()) is not None


def _another_state(fact: FactRecord, asked: FactRecord) -> bool:
    """A home, employer, job or study of another slot than ``asked``'s ("I started at Aldi" for a question about
    homes); not a favourite or anything one has ("My favorite city is Paris" is no move to Paris)."""
    return fact.predicate in _ANCHOR_PREDICATES and fact.predicate != asked.predicate


_ANCHOR_PREDICATES = frozenset({"lives_in", "works_at", "job", "studies"})
