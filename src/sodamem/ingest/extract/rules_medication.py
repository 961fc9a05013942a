"""Medicines the speaker starts and stops: "Doctor has put me on amlodipine 5mg", "I'm on sertraline now", "they
switched me from amlodipine to ramipril", "I came off the citalopram in May", "I take metformin and insulin" (each
one listed). Each is an event of the speaker's, ``started_medication`` or ``stopped_medication`` with the medicine
as its object; ``answer/medications.py`` reads which still hold. A switch is both: the old one stopped, the new one
started.

A word is a medicine by a list of common ones or by the endings drug names share (``-pril``, ``-olol``, ``-statin``,
...), so "put me on nights" or "I'm on holiday" is none. Only what the speaker says happened counts: not a wish, a
question or a maybe ("the GP might put me on statins", "should I come off sertraline?").
"""

from __future__ import annotations

import re

from sodamem.ingest.extract.rules_clause import _Piece, _piece_clause
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_modality import _piece_mood
from sodamem.model import FactKind

K = FactKind

_COMMON = frozenset(
    """paracetamol acetaminophen ibuprofen aspirin naproxen codeine tramadol morphine oxycodone gabapentin pregabalin
    sertraline fluoxetine citalopram escitalopram paroxetine venlafaxine duloxetine mirtazapine bupropion
    amitriptyline nortriptyline trazodone lithium lamotrigine quetiapine olanzapine aripiprazole risperidone
    diazepam lorazepam clonazepam alprazolam zopiclone zolpidem melatonin propranolol
    metformin insulin gliclazide levothyroxine thyroxine warfarin apixaban rivaroxaban clopidogrel
    prednisolone prednisone hydrocortisone salbutamol ventolin albuterol montelukast cetirizine loratadine
    fexofenadine omeprazole lansoprazole ranitidine amoxicillin penicillin doxycycline azithromycin
    ciprofloxacin flucloxacillin nitrofurantoin methotrexate adalimumab humira ozempic wegovy semaglutide
    adderall ritalin methylphenidate elvanse lisdexamfetamine atomoxetine concerta strattera
    prozac zoloft lexapro wellbutrin xanax valium effexor cymbalta lipitor crestor synthroid eliquis
    amlodipine nifedipine furosemide bendroflumethiazide spironolactone digoxin isotretinoin roaccutane
    accutane finasteride minoxidil tamoxifen letrozole antibiotics antidepressants steroids painkillers""".split()
)
# the endings drug names share: ramipril, bisoprolol, atorvastatin, losartan, lansoprazole, ...
_ENDINGS = re.compile(
    r"(?:pril|sartan|olol|dipine|statin|prazole|oxetine|triptyline|azepam|cycline|cillin|mycin|floxacin|"
    r"triptan|gliptin|gliflozin|semide|thiazide|mab|parin|xaban|tidine|lukast|afil)$"
)
_MED = r"(?P<med>[A-Za-z][a-z]+)"
_DOSE = r"(?:\s+\d+(?:\.\d+)?\s?(?:mg|mcg|µg|g|ml|iu|units?))?"
# the speaker as the subject, said or left out at a sentence's start: "I ...", "I've ...", "Finally ..."
_I = r"(?:\bI(?:['’]ve|\s+have|['’]d|\s+had)?\s+|(?:^|(?<=[.!?]\s))(?=\w))(?:finally\s+|just\s+|now\s+|also\s+)?"
# "put me on amlodipine", "started me on metformin", "prescribed me sertraline", "I'm on sertraline now", "I've been
# taking ramipril", "I started taking melatonin", "I've been put on sertraline", "Back on sertraline" (opening its
# sentence: not "Mum's back on sertraline"), "I'm on 50mg of sertraline", "they switched me to ramipril"
_STARTED = re.compile(
    r"\b(?:(?:put|started|starting|got)\s+me\s+on|prescribed\s+me|(?:I\s+(?:was|got)|I['’]ve\s+been|I\s+have\s+been)"
    r"\s+prescribed|(?:I['’]?m|I\s+am|I['’]ve\s+been|I\s+have\s+been)"
    r"\s+(?:now\s+|also\s+|currently\s+|back\s+)?(?:on|taking)|(?:^|(?<=[.!?]\s))back\s+on"
    r"|(?:switched|moved|changed)\s+me\s+(?:over\s+)?(?:on)?to"
    r"|(?:I['’]ve|I\s+have|I)\s+(?:been|got|was)\s+put\s+on"
    r"|I\s+(?:now\s+|also\s+)?(?:take|started(?:\s+taking)?|began(?:\s+taking)?)"
    # the subject left out: "Also started taking melatonin for sleep" (not an order: "Take ibuprofen")
    r"|(?:^|(?<=[.!?]\s))(?:also\s+|just\s+|finally\s+)?(?:started|began)\s+(?:taking|on))"
    rf"\s+(?:\d+\s?(?:mg|mcg)\s+(?:of\s+)?)?(?:the\s+|some\s+)?{_MED}{_DOSE}\b",
    re.IGNORECASE,
)
# "I came off the citalopram", "I stopped taking melatonin", "I'm no longer on sertraline", "I'm off the sertraline
# now", "the GP took me off ramipril" (the speaker's own: not "Dad came off warfarin", "the vet stopped the steroids")
_STOPPED = re.compile(
    rf"(?:{_I}(?:(?:came|got|been|weaned)\s+off|stopped(?:\s+taking)?|quit(?:\s+taking)?)"
    r"|\bI['’]?m\s+(?:now\s+)?(?:no\s+longer\s+(?:on|taking)|off)|\btook\s+me\s+off)"
    rf"\s+(?:the\s+|my\s+)?{_MED}\b",
    re.IGNORECASE,
)
# "switched me from amlodipine to ramipril", "I switched from sertraline to fluoxetine" (not "Mum switched ...")
_SWITCHED = re.compile(
    rf"(?:\b(?:switched|changed|moved|swapped)\s+me|{_I}(?:switched|changed|moved|swapped))\s+"
    r"(?:from\s+|over\s+from\s+)?(?:the\s+|my\s+)?(?P<old>[A-Za-z][a-z]+)"
    r"\s+(?:to|for|onto)\s+(?:the\s+)?(?P<new>[A-Za-z][a-z]+)\b",
    re.IGNORECASE,
)
# a wish, a try, a question, a maybe or a denial before it in the clause: "the GP might put me on statins", "I tried
# to come off sertraline", "I can't come off it", "no doctor has ever put me on antidepressants"
_NOT_DONE = re.compile(
    r"\b(?:might|may|could|would|should|will|won['’]?t|wouldn['’]?t|if|whether|thinking|considering|want|wants|"
    r"wanted|going\s+to|gonna|hope|hoping|talked?\s+about|discussed|didn['’]?t|don['’]?t|doesn['’]?t|never|not|"
    r"refused|worried|scared|haven['’]?t|hasn['’]?t|can['’]?t|cannot|couldn['’]?t|can|tried|try|trying|meant|"
    r"need|needs|supposed|says|said|plan|planning|ever|nobody|no\s+one|no\s+doctor)\b",
    re.IGNORECASE,
)
_CLAUSE_START = re.compile(r"[.!?,;:]\s*|\s(?:and|but|so|because)\s", re.IGNORECASE)
# the next medicine of a list after one: "I take metformin and insulin", "I'm on sertraline, propranolol and
# omeprazole". A word that is no medicine ends it ("I'm on sertraline and feeling better"), and so does one that
# starts a clause of its own: "I stopped the insulin, metformin is enough now", "I'm on sertraline, ibuprofen didn't
# help". A stop lists only with "and" ("I came off citalopram, sertraline now" is a switch).
_LIST_END = (
    r"(?!\s+(?:is|was|are|were|did|does|do|didn['’]?t|doesn['’]?t|don['’]?t|isn['’]?t|wasn['’]?t|has|had|have|helps?|"
    r"works?|makes?|made|might|may|could|would|should|will|won['’]?t|can|can['’]?t|gives?|gave|got|gets|seems?|"
    r"im|i['’]m|\w+ed)\b)"
)
_AND_MORE = re.compile(
    rf"(?:\s*,\s*(?:and\s+|&\s*)?|\s+(?:and|&|plus)\s+)(?:the\s+|some\s+|my\s+)?{_MED}{_DOSE}\b{_LIST_END}",
    re.IGNORECASE,
)
_AND_MORE_STOPPED = re.compile(rf",?\s+(?:and|&)\s+(?:the\s+|my\s+)?{_MED}{_DOSE}\b{_LIST_END}", re.IGNORECASE)


def is_medication(word: str) -> bool:
    """Whether ``word`` names a medicine: a common one, or a drug name by its ending ("statins" as "statin")."""
    lowered = word.lower()
    singular = lowered.removesuffix("s")
    return any(w in _COMMON or (len(w) > 5 and _ENDINGS.search(w) is not None) for w in {lowered, singular})


def medications(p: _Piece) -> None:
    """The speaker's medicines started, stopped and switched in this piece (see the module docstring)."""
    if p.question:
        return
    text = p.piece.text
    for m in _SWITCHED.finditer(text):
        if is_medication(m["old"]) and is_medication(m["new"]) and _done(text, m.start()):
            _medicine(p, "stopped_medication", m["old"], m.start(), m.end())
            _medicine(p, "started_medication", m["new"], m.start(), m.end())
    for pattern, predicate in ((_STARTED, "started_medication"), (_STOPPED, "stopped_medication")):
        for m in pattern.finditer(text):
            if is_medication(m["med"]) and _done(text, m.start()):
                _medicine(p, predicate, m["med"], m.start(), m.end())
                for more in _listed_after(
                    text, m.end(), _AND_MORE if predicate == "started_medication" else _AND_MORE_STOPPED
                ):
                    _medicine(p, predicate, more["med"], m.start(), more.end())


def _listed_after(text: str, end: int, more_of_it: re.Pattern[str]) -> list[re.Match[str]]:
    """The medicines listed after one that ends at ``end`` ("metformin and insulin"), up to the first word that is
    none."""
    listed = []
    while (more := more_of_it.match(text, end)) is not None and is_medication(more["med"]):
        listed.append(more)
        end = more.end()
    return listed


def _done(text: str, start: int) -> bool:
    """Whether nothing in the clause before ``start`` makes it a wish, a question, a maybe or a denial ("didn't
    work, so they switched me ..." is done)."""
    clause_start = max((m.end() for m in _CLAUSE_START.finditer(text, 0, start)), default=0)
    return _NOT_DONE.search(text[clause_start:start]) is None


def _medicine(p: _Piece, predicate: str, medicine: str, start: int, end: int) -> None:
    name = medicine.lower()
    c = _piece_clause(p, start, end, p.speaker)
    verb = "started taking" if predicate == "started_medication" else "stopped taking"
    _emit(c, K.EVENT, predicate, name, end, _piece_mood(p), f"{p.speaker} {verb} {name}")
