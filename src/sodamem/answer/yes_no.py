"""What a statement says to a yes/no question, and whether it says a state at all: negations ("I don't eat meat"),
endings ("I gave up coffee", "Tom and I broke up") and wishes ("I want to work at Google someday") (pure)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from sodamem.answer.spans import question_stems, tokens
from sodamem.ingest.timeparse import find_times
from sodamem.porter import stem

_NEGATIONS = frozenset("not no never nope".split())  # and any "n't" word


# Words that end what follows them ("I gave up coffee", "I quit smoking", "I stopped eating meat"): to a question in
# the present tense that does not itself ask about the ending ("Do I drink coffee?"), the statement says no.
_CEASED = re.compile(
    r"\b(?:gave|give|given|giving)\s+up\b|\bquit(?:ting)?\b|\bstopped\b(?!\s+(?:by|at|in|off|over|for)\b)"
    r"|\b(?:gone|went|going)\s+off\b|\bno\s+longer\s+into\b|\bfell\s+out\s+of\s+love\s+with\b"
    r"|\bleft\s+(?:the|my|our)\b|\bdropped\s+out\s+of\b|\b(?:cancell?ed|ended|called\s+off)\s+(?:the|my|our)\b"
    r"|\b(?:sold|gave\s+away|got\s+rid\s+of|rehomed)\s+(?:the|my|our)\b"
    # a last time: "Sang my last concert with the choir on Saturday" (not "my last match of the season", "my last
    # lesson before the holidays")
    r"|\b(?:sang|played|taught|ran|did|had|worked|danced|swam|rode|raced|coached|performed)\s+(?:my|our)\s+"
    r"(?:very\s+)?(?P<last>(?:last|final)\s+(?:concert|gig|show|game|match|class|lesson|session|shift|race|"
    r"performance|rehearsal|practice|day))\b"
    # (a break, not an ending, anywhere after it: "before my holiday, back in two weeks", "for a while", "this year")
    r"(?![^.!?]*\b(?:before|until|till|for\s+now|for\s+a\s+while|back\s+in|this\s+(?:year|season|term)|tomorrow"
    r"|of\s+the\s+(?:season|term|year|month|week|tournament|tour))\b)"
    # a thing named before it: "Puffin's gone, sold it to a guy from Cobh"
    # (the speaker's doing, at a clause's start or after "I"/"we": not "he sold it to me", "I nearly sold it")
    r"|(?:(?<=\bI\s)|(?<=\bwe\s)|(?<=\bWe\s)|(?<=\bbut\s)|(?<=\band\s)|(?<=\bso\s)|(?<=^)|(?<=[,;.!?]\s))"
    r"(?:sold|got\s+rid\s+of|rehomed)\s+(?:it|him|her)\b"
    r"(?!\s+back\b|\s+on\s+(?:the|this|that)\s+idea\b|\s+to\s+(?:me|us)\b)"
    r"|\brehomed(?=\s+(?!(?:a|an|another|one|two|three|some|from)\b)\w)"  # "we rehomed luna", not "a greyhound"
    # a doing dropped: "dropped welding. too tired after shifts" (not "dropped everything", "dropped the kids off")
    r"|(?:(?<=\bI\s)|(?<=\bwe\s)|(?<=^)|(?<=[.!?]\s))dropped(?=\s+(?!(?:every|no|some|any)thing\b)[a-z]+ing(?:\s*(?:[.,;:!?]|$)|\s+(?:and|but|because|as|since|after|"
    r"completely|altogether|entirely|for\s+good)\b))"
    # given to someone: "We have given Pemberton to Joakim's son Eskil", "handed the bakkie over to my cousin"
    # (not "gave Luna a bath to ...": no article inside what was given)
    r"|\b(?:gave|given|giving|handed)(?=\s+(?!(?:up|away|a|an|some|it|them|him|her|me|us|you|birth|notice|"
    r"in)\b)[\w'’-]+\s+(?:(?!(?:a|an|some)\b)[\w'’-]+\s+){0,2}?(?:over\s+|back\s+)?to\s+\w)"
    # sold a thing by its name: "sold Gannet last week" (not "sold out", "sold a painting", "sold Mark on the idea",
    # "sold Duchess's foal")
    r"|\bsold(?=\s+(?-i:[A-Z])[\w-]+(?![\w'’-])(?!\s+on\s+the\b))"
    # what one attends or belongs to, dropped: "I dropped the ceramics class" (not "dropped the dog at my mum's")
    r"|\bdropped\s+(?:the|my|our)\b(?=\s+(?:[\w-]+\s+){0,2}?(?:class|classes|course|lessons?|module|club|team|gym|"
    r"membership|subscription|choir|band|group)\b)"
    r"|\bpulled\s+out\s+of\b|\bwithdrew\s+from\b|\bdid\s+cancel\b"
    r"|\b(?:decided|chose|choosing|deciding)\s+to\s+(?:leave|quit|stop|drop)\b(?![^.!?]*\b(?:after|next|once|"
    r"at\s+the\s+end|in\s+(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december))\b)"
    r"|\bhad\s+to\s+(?:leave|quit)\s+(?:the|my|our)\b(?![^.!?]*\b(?:early|today|tonight|for\s+(?:a|the)\b|"
    r"rehearsal|practice|session|meeting|class\s+early)\b)",
    re.IGNORECASE,
)
# what one can be "free" of ("smoke free"): a habit or a food, not a person or a day
_WITHOUT = (
    *"smoke smoking nicotine vape alcohol booze drink sugar gluten dairy".split(),
    *"lactose meat caffeine carb wheat drug debt".split(),
)
# Words that say their subject itself ended ("Tom and I broke up", "the trip got cancelled", "Dev moved out"): to a
# question in the present tense that does not ask about the ending ("Am I still with Tom?"), the statement says no.
_ENDED = re.compile(
    r"\b(?:broke|broken|breaking)\s+up\b|\bsplit\s+up\b|\b(?:called|calling)\s+(?:it\s+)?off\b"
    r"|\bcancell?(?:ed|ing)\b|\bfell\s+through\b|\bmoved\s+out\b|\b(?:is|are|'s|was)\s+(?:off|over)\b"
    # ("officially" only at a clause's end: "salsa is officially over", not "the season is now over until spring")
    r"|\b(?:is|are|'s|was)\s+officially\s+(?:off|over)(?=\s*(?:[,.;:!?]|$))"
    r"|\bended\b|\bdivorced\b"
    # what one is now without: "smoke free since oct 6", "two weeks smoke-free", "went gluten free" (not "a free
    # trial", "Tom is free on Saturday")
    rf"|(?:{'|'.join(f'(?<={w})' for w in _WITHOUT)})[\s-]free\b"
    # then nothing it describes: "smoke free since oct 6", not "sugar free gum", "gluten free bread"
    r"(?=\s*(?:[.!?,;:)]|$)|\s+(?:since|for|now|last|this|again|and|but|so|lol|already|at\s+last|finally|\d))",
    re.IGNORECASE,
)
_GOING_FOR = re.compile(
    r"\b(?:trying|try|want|wants|wanna|hope|hoping|plan|planning|going\s+to|gonna|thinking|considering|might)\b", re.I
)
# a thing said to be free of it: "The hotel is smoke free", "my flat's smoke free"
_SOMETHING_IS = re.compile(
    r"\b(?:the|this|that|our|my|his|her|their|your)\s+[\w-]+(?:\s+is|\s+are|\s+was|\s+were|['’]s)\b", re.IGNORECASE
)


def _free_of_it_myself(before: str) -> bool:
    """Whether the clause before "<habit> free" says the speaker is now without it, not that they try to be ("trying
    to go dairy free") nor that something else is ("The hotel is smoke free")."""
    clause = re.split(r"[.!?,;]", before)[-1]
    if _GOING_FOR.search(clause):
        return False
    return not _SOMETHING_IS.search(clause)


_INTENT_BEFORE = re.compile(
    r"\b(?:(?:should|would|could|might)(?:['’]ve|\s+have)|trying|try|want|wants|wanted|going|plan|planning|hope|hoping|"
    r"need|needs|should|might|thinking\s+(?:of|about))"
    r"(?:\s+to)?\s*$",
    re.IGNORECASE,
)
_AGAIN = re.compile(r"\bagain\b", re.IGNORECASE)
_PRESENT_START = frozenset("am is are do does has have can".split())


def yes_or_no(sentence: str, question: str = "", described: frozenset[str] = frozenset()) -> str:
    """The reply a supporting statement gives to a yes/no question: "No" when it is negated, or when it says that
    something asked in the present tense has ended ("I gave up coffee" to "Do I drink coffee?"), else "Yes"."""
    if any(t.word in _NEGATIONS or t.word.endswith("n't") for t in tokens(sentence)):
        return "No"
    return "No" if says_it_ended(sentence, question, described) else "Yes"


def says_it_ended(sentence: str, question: str, described: frozenset[str] = frozenset()) -> bool:
    """Whether ``sentence`` says that what a present-tense ``question`` asks about ended ("We broke up" to "Am I
    still with Tom?", "I gave up coffee" to "Do I drink coffee?"), and the question does not ask about the ending
    itself ("Is the trip cancelled?", "Did I quit smoking?"). ``described``: the stems of what else names an asked
    thing ("band" for "a band called The Wee Hours", see ``described_as``)."""
    if not asks_in_the_present(question):
        return False
    asked = question_stems(question) | described
    # a thing one has, gone to live with someone else: "Pătrunjel moves to my parents' in Turda next weekend" (not
    # "for the weekend while we were in Rome")
    having = _ASKS_TO_HAVE.search(question) is not None
    went = _WENT_TO_SOMEONE.finditer(sentence) if having and not _FOR_A_WHILE.search(sentence) else iter(())
    # a pet had no more: "peanut passed away last night" to "Do I still have Peanut?" (not a phone that died)
    died = _DIED.finditer(sentence) if having and not _A_DEVICE.search(question) else iter(())
    for ended in (*_ENDED.finditer(sentence), *went, *died):
        if _intent_or_again(sentence, ended) or {t.stem for t in tokens(ended.group())} & asked:
            continue
        if ended.group().lower().endswith("free") and not _free_of_it_myself(sentence[: ended.start()]):
            continue  # "I'm trying to go dairy free", "The hotel is smoke free"
        if {t.stem for t in tokens(_what_ended(sentence[: ended.start()]))} & asked:
            return True  # "Tom and I broke up", not "we went to the cinema, the movie ended"
    ceased = _CEASED.search(sentence)
    if ceased is None or _intent_or_again(sentence, ceased):
        return False  # "trying to give up coffee", "stopped playing for a year but I'm playing again"
    # what it ended, to the clause's end: "going to pottery" names pottery, not "going"
    after = _GOING_TO.sub("", sentence[ceased.end() :], count=1)
    ended_what = re.split(r"[,;]|\s(?:and|but|to|so)\s", after, maxsplit=1)[0]
    if _A_PRONOUN.search(ceased.group()):  # "sold it": what was named before it
        ended_what = sentence[: ceased.start()]
    apposed = _APPOSED.match(after[len(ended_what) :])  # "sold my car today btw, the old yaris": the Yaris too
    if apposed is not None:
        ended_what += " " + apposed["what"]
    if _PARTED_WITH.match(ceased.group()) and not _ASKS_TO_HAVE.search(question):
        return False  # "I sold my first painting" says nothing of "Do I still paint?", only of having it
    if _PARTED_WITH.match(ceased.group()) and _FOR_A_WHILE.search(sentence):
        return False  # "I gave Rex to my neighbour for the weekend": back after it
    # the ending is not what is asked ("Did I quit smoking?"), and it ended what is asked, not something else: the
    # thing named ("gone off Thai food" ends no liking of Ethiopian food), else any word asked
    named = (specifics(question) | described) or asked
    ending = ceased["last"] or ceased.group()  # "sang my last concert" asks of singing, and ends it
    return not {t.stem for t in tokens(ending)} & asked and bool({t.stem for t in tokens(ended_what)} & named)


# a noun phrase set beside what ended, naming it: ", the old yaris", ", my trusty Alto"
_APPOSED = re.compile(
    r"\s*,\s*(?P<what>(?:the|my|our)(?:\s+(?!(?:is|are|was|were|has|have|does|do|takes|needs|keeps|makes|gets|goes|"
    r"feels|looks|seems)\b)[\w-]+){1,3})\s*(?:[.;!?]|$)",  # a noun phrase and no more: ", the old yaris." names it
    re.IGNORECASE,
)

# Words after a verb that make it another verb: "I'm fired up about it" says nothing of "Did I get fired?"
_PARTICLES = frozenset("up out off".split())


# handed over for a while: "for the weekend", "while we were away", "to look after him"
_FOR_A_WHILE = re.compile(
    r"\bfor\s+(?:the|a|an|one|two|three|a\s+few|a\s+couple\s+of)\s+(?:\w+\s+)?(?:weekend|week|weeks|days?|nights?|"
    r"holidays?|month|summer)\b|\bwhile\b|\blook\s+after\b|\bmind\b|\b(?:dog|cat|pet|house)[\s-]?sit"
    # a habit, or a job done on it: "goes to my parents when I'm at work", "to fix the wiring", "for repairs"
    r"|\bwhen(?:ever)?\b|\bevery\b|\busually\b|\bto\s+(?:fix|repair|mend|sort|service|clean|check)\b"
    r"|\bfor\s+(?:repairs?|a\s+service|servicing|its\s+service|an\s+MOT)\b|\bearly\b",
    re.IGNORECASE,
)
_WENT_TO_SOMEONE = re.compile(
    r"\b(?:moves?|moved|moving|went|goes|gone)\s+(?:to\s+(?:live\s+with\s+)?|in\s+with\s+)(?:my|our|his|her|their)\s+"
    r"(?:parents|mum|mom|dad|grandparents|gran|grandma|grandpa|aunt|uncle|sister|brother|cousin|friend)\b",
    re.IGNORECASE,
)
# parting with a thing (not "gave up" a habit) answers only whether one still has it: "Do we still have the Alto?"
_PARTED_WITH = re.compile(
    r"(?:sold|gave\s+away|got\s+rid\s+of|rehomed|(?:gave|given|giving|handed)(?!\s+up\b))\b", re.IGNORECASE
)
_A_PRONOUN = re.compile(r"\b(?:it|him|her)$", re.IGNORECASE)
_ASKS_TO_HAVE = re.compile(r"\b(?:have|has|own|owns|got|keep|keeps)\b", re.IGNORECASE)
_DIED = re.compile(r"\b(?:passed\s+away|(?:was|got)\s+put\s+(?:down|to\s+sleep)|died)\b", re.IGNORECASE)
_A_DEVICE = re.compile(r"\b(?:phone|laptop|battery|car|van|tablet|computer|pc|ipad|kindle|watch|bike|plant)s?\b", re.I)

# "a band called The Wee Hours": the noun a named thing is described by
_CALLED = re.compile(
    r"\b(?:a|an|the|my|our)\s+(?P<noun>[a-z]+)\s+(?:called|named)\s+"
    r"(?P<name>(?:[Tt]he\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)"
)


def described_as(question: str, texts: Iterable[str]) -> frozenset[str]:
    """The stems of the nouns ``texts`` describe a thing the question names by: "band" for "Am I still in The Wee
    Hours?" where "a band called The Wee Hours" was said, or a group's noun said beside its name ("In band news, I
    play trumpet in the Harmonie Sint-Cecilia"), so that "I left the band" ends it."""
    asked = question_stems(question)
    words = tokens(question)
    names = {t.stem for t in words[1:] if question[t.start].isupper() and t.word not in _NOT_NAMES}
    found: set[str] = set()
    for text in texts:
        for m in _CALLED.finditer(text):
            name = {t.stem for t in tokens(m["name"])} - {"the"}
            if name and name <= asked:
                found.add(stem(m["noun"]))
        said = {t.stem for t in tokens(text)}
        if names and names <= said:
            found |= said & _GROUP_NOUNS
    return frozenset(found)


# nouns for what one belongs to or attends, which an ending names instead of its name ("I left the band")
_GROUP_NOUNS = frozenset(
    stem(w)
    for w in """band club class course team choir orchestra group league gym programme program lessons society
    troupe crew ensemble""".split()
)
_GOING_TO = re.compile(r"^\s*(?:going|coming)\s+to\b", re.IGNORECASE)


# the word a yes/no question asks about after its preposition: "shellfish" in "Am I allergic to shellfish?"
_OBJECT_ASKED = re.compile(
    r"\b(?:to|at|in|with|about|of|from|for)\s+(?:(?:the|a|an|my|our|his|her|their|any|some)\s+)?(?P<word>[\w'’-]+)",
    re.IGNORECASE,
)
_NOT_NAMES = frozenset("i i'm i've i'd i'll".split())
_SUPPOSING = frozenset("would could might should".split())
# times ("during March 2023") and fillers name no thing a statement must repeat
_NOT_SPECIFIC = frozenset(
    stem(w)
    for w in """still now ever anymore any more january february march april may june july august september october
    november december monday tuesday wednesday thursday friday saturday sunday year years month months week weeks
    weekend day days summer winter spring autumn fall morning evening night time""".split()
)


def specifics(question: str) -> set[str]:
    """The stems a statement must say to answer a yes/no question at all: its names ("Paris" in "Did I go to
    Paris?") and what its prepositions name ("shellfish" in "Am I allergic to shellfish?"). "I'm allergic to
    peanuts" says nothing of shellfish."""
    words = tokens(question)
    if not words or words[0].word in _SUPPOSING:
        return set()  # "Would Melanie enjoy Vivaldi?" asks a guess, not a statement
    names = {t.stem for t in words[1:] if question[t.start].isupper() and t.word not in _NOT_NAMES}
    objects = {stem(m["word"].lower()) for m in _OBJECT_ASKED.finditer(question)}
    return {w for w in names | objects if w not in _NOT_SPECIFIC and not w[:1].isdigit()}


def other_senses(question: str, sentence: str) -> set[str]:
    """The stems ``sentence`` says only with a particle after them that the question does not say after them:
    "fired" in "I'm fired up about it" to "Did I get fired?" (another verb, not the one asked)."""
    meant = _particles_after(question)
    return {
        word
        for word, particles in _particles_after(sentence).items()
        if "" not in particles and not particles & meant.get(word, set())
    }


def _particles_after(text: str) -> dict[str, set[str]]:
    """Each stem of ``text`` with the particles said right after it ("" for none)."""
    words = tokens(text)
    after: dict[str, set[str]] = {}
    for i, token in enumerate(words):
        following = words[i + 1].word if i + 1 < len(words) else ""
        after.setdefault(token.stem, set()).add(following if following in _PARTICLES else "")
    return after


def _what_ended(before: str) -> str:
    """The words naming what an ending word ends: its clause's subject ("the movie" in "..., the movie ended"); for
    a pronoun ("but that's cancelled now", "Tom and I"), the clauses before it."""
    subject = re.split(r"[,;]|\s(?:and|but|so|because|while)\s", before)[-1]
    return before if _PRONOUN_SUBJECT.fullmatch(subject) else subject


# "that's", "it was", "we", "I" ("Tom and I"): a subject naming nothing itself
_PRONOUN_SUBJECT = re.compile(
    r"\s*(?:that|it|this|which|we|they|he|she|I)(?:['’]s)?(?:\s+(?:is|was|got|has|have|been|all|just|finally))*\s*",
    re.IGNORECASE,
)


def _intent_or_again(sentence: str, ending: re.Match[str]) -> bool:
    return bool(_INTENT_BEFORE.search(sentence[: ending.start()]) or _AGAIN.search(sentence[ending.end() :]))


_WISH = re.compile(
    r"\b(?:want|wants|wanted|wanna|hope|hoping|hopes|wish|wishing|dream|dreaming|would\s+love|'d\s+love|"
    r"would\s+like|'d\s+like|plan|planning|plans|thinking\s+(?:of|about)|considering|going)\b(?:\s+to)?",
    re.IGNORECASE,
)


def asks_a_wish(question: str) -> bool:
    """ "Where do I want to work?", "Where are we planning to live?": a wish or plan, not a state that holds."""
    return _WISH.search(question) is not None


_SUBJECT_WORD = re.compile(r"\b(?:I|we|he|she|they|you|that)\b", re.IGNORECASE)


def says_a_wish(sentence: str) -> bool:
    return _WISH.search(sentence) is not None


def only_wished(sentence: str, question: str, keywords: set[str]) -> bool:
    """Whether ``sentence`` says the state a present-tense ``question`` asks about only as a wish or plan ("I want
    to work at Google someday" for "Where do I work?"): its first keyword follows a wish word in the same clause.
    A question that asks about the wish ("Where do I want to work?") takes it."""
    if asks_a_wish(question):
        return False
    words = [t for t in tokens(sentence) if t.word in keywords]
    if not words:
        return False
    clause = re.split(r"[,;.!?]|\s(?:and|but|so)\s", sentence[: words[0].start])[-1]
    wish = max(_WISH.finditer(clause), key=lambda m: m.start(), default=None)
    # the wish governs the state: no subject of its own between ("Just wanted to say that I work at Google")
    return wish is not None and not _SUBJECT_WORD.search(clause[wish.end() :])


# what a statement only supposes or someone only suggests: "If I had a spare million I'd buy a cottage", "Ruben keeps
# telling me I should move to Antwerp", "maybe a greyhound someday"
_SUPPOSED = re.compile(
    r"\b(?:if|should|would|could|might|maybe|perhaps|someday|fantasy|tempting|dream\w*|wish\w*)\b"
    r"(?!['’]ve|\s+have\b|\s+mention\b)|['’]d\b(?!\s+(?:just|already|never)\b)",
    re.IGNORECASE,
)


def only_supposed(sentence: str, question: str) -> bool:
    """Whether ``sentence`` says what a yes/no ``question`` asks only as a supposition or someone's suggestion: the
    first word it shares with the question follows "if", "should", "'d", "maybe", ... in the same clause. A question
    that itself supposes ("Would Melanie enjoy Vivaldi?") takes it."""
    words = tokens(question)
    if not words or words[0].word in _SUPPOSING:
        return False
    asked = question_stems(question)
    shared = [t for t in tokens(sentence) if t.stem in asked and t.word not in _NOT_NAMES and t.word != "we"]
    if not shared:
        return False
    clause = re.split(r"[,;.!?]|\s(?:and|but|so|when|because)\s", sentence[: shared[0].start])[-1]
    return _SUPPOSED.search(clause) is not None


def asks_in_the_present(question: str) -> bool:
    """Whether a yes/no question opens in the present tense ("Do I eat meat?", "Is Hannah married?")."""
    words = [t.word for t in tokens(question)]
    return bool(words) and words[0] in _PRESENT_START


# An ending said ahead with its day ("i'm stopping sax lessons at the end of june", "I'm leaving the choir in May"),
# read as said once that day has passed
_ENDING_AHEAD = {
    "stopping": "stopped",
    "quitting": "quit",
    "leaving": "left",
    "dropping": "dropped",
    "giving up": "gave up",
}
# a thing left somewhere, right after "leaving": "leaving my bike at the shop", "leaving the kids with mum"; not
# what one belongs to ("leaving my job at Acme", "my position at the council") nor a time ("at the end of June")
_LEFT_AT = re.compile(
    r"\s+(?!(?:my|our|the)\s+(?:[\w-]+\s+)?(?:job|role|position|post|band|choir|team|club|class|course|lessons?|firm|"
    r"company|practice|membership|allotment|flat|house)\b)(?:\w+\s+){1,3}?(?:at|with)\s+"
    r"(?!the\s+(?:end|start|beginning|close)\b|\d|noon|midnight|christmas|easter|half\s+term|new\s+year)",
    re.IGNORECASE,
)
_ENDING_AHEAD_WORDS = re.compile(r"\b(?:stopping|quitting|leaving|dropping|giving\s+up)\b", re.IGNORECASE)


def ended_by_now(sentence: str, question: str, said_at: datetime, now: datetime) -> bool:
    """Whether ``sentence``, said at ``said_at``, ends what the present-tense ``question`` asks on a day that has
    passed by ``now``: "I'm stopping sax lessons at the end of June" to "Do I still take sax lessons?" in July."""
    ending = _ENDING_AHEAD_WORDS.search(sentence)
    left = ending is not None and ending.group().lower() == "leaving" and _LEFT_AT.match(sentence, ending.end())
    if ending is None or _FOR_A_WHILE.search(sentence) or left:
        return False  # "stopping piano for a week", "leaving choir practice early", "leaving my Vespa at the garage"
    days = [m.spec for m in find_times(sentence, said_at, future=True) if m.char_start > ending.start()]
    if not days or days[0].end > now:
        return False
    done = " ".join(ending.group().lower().split())
    said = sentence[: ending.start()] + _ENDING_AHEAD[done] + sentence[ending.end() :]
    return says_it_ended(said, question)
