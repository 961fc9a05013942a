"""The roles people hold in one's life, in one table (pure, no I/O).

Each role lists the words said for it ("boss", "manager", "team lead"), the words only a question or a chat uses
for it ("sis", "hubby"), the kind of tie it is, whether its word alone names one person, and whether one has one
holder of it at a time. The extractor's relation words, the roles that end ("my old boss"), the roles that change
hands, the store's slots and the readers' synonyms are all read from here, so a role added once is known everywhere:
word lists kept apart had drifted ("landlady" named no one alone where "landlord" did; "my spouse and I separated"
was no couple where "my husband and I separated" was).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum


class Tie(Enum):
    KIN = "kin"  # family: never ends ("my old sister" is no former sister)
    COUPLE = "couple"  # partners: one slot per partner, whatever the word then ("boyfriend", later "fiancé")
    FRIEND = "friend"  # never ends either ("my old friend" still is one)
    WORK = "work"  # at work or school: ends, changes hands ("my old boss", "Grace took over as my manager")
    CARE = "care"  # those one goes to, or rents from: ends, changes hands ("my new dentist", "my old landlord")
    HOME = "home"  # those living beside one: ends ("my old flatmate"), not handed on ("Leo moved out" is a move)
    PET = "pet"


@dataclass(frozen=True, slots=True)
class Role:
    name: str  # the word the store's slot says for every word of the role ("boss" for "manager"), snake case
    said: tuple[str, ...]  # the words said for it, as typed ("GP", "team lead")
    tie: Tie
    names_one: bool  # "my sister Priya" makes Priya "Maya's sister"; friends, aunts and dentists come in numbers
    one_holder: bool = False  # the next holder ends the last: "I have a new boss, Grace" ends "my boss Finn"
    asked_as: tuple[str, ...] = ()  # words a question uses for it that the extractor does not read ("sis", "bf")
    kind_of: tuple[str, ...] = ()  # wider roles asked for it: a husband is asked of as a spouse, a partner

    @property
    def ends(self) -> bool:
        """One leaves it or it leaves: "my old boss Finn" was, "my old friend Finn" still is."""
        return self.tie in (Tie.COUPLE, Tie.WORK, Tie.CARE, Tie.HOME)


def snake(text: str) -> str:
    """``"Team Lead"`` -> ``"team_lead"``, ``"fiancé"`` -> ``"fiance"`` (as predicates are written)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")


def _role(
    said: str, tie: Tie, *, names_one: bool, one_holder: bool = False, asked: str = "", kind_of: str = ""
) -> Role:
    words = tuple(w.replace("_", " ") for w in said.split())
    return Role(snake(words[0]), words, tie, names_one, one_holder, tuple(asked.split()), tuple(kind_of.split()))


def _each(said: str, tie: Tie, *, names_one: bool) -> list[Role]:
    """One role per word: words that are not the same role as any other."""
    return [_role(word, tie, names_one=names_one) for word in said.split()]


# the first word of a role is its name; "_" joins the words of one ("team_lead")
ROLES: tuple[Role, ...] = (
    _role("sister", Tie.KIN, names_one=True, asked="sis"),
    _role("brother", Tie.KIN, names_one=True, asked="bro"),
    _role("mother mum mom", Tie.KIN, names_one=True, asked="mama mommy mummy ma"),
    _role("father dad", Tie.KIN, names_one=True, asked="daddy papa pa"),
    _role("grandmother grandma granny nana", Tie.KIN, names_one=True, asked="gran"),
    _role("grandfather grandpa", Tie.KIN, names_one=True, asked="grandad granddad"),
    _role("stepmother stepmom stepmum", Tie.KIN, names_one=True),
    _role("stepfather stepdad", Tie.KIN, names_one=True),
    *_each(
        """sibling twin son daughter stepson stepdaughter grandson granddaughter mother-in-law father-in-law
        sister-in-law brother-in-law son-in-law daughter-in-law""",
        Tie.KIN,
        names_one=True,
    ),
    _role("aunt auntie", Tie.KIN, names_one=False),
    *_each("uncle cousin niece nephew", Tie.KIN, names_one=False),
    _role("partner", Tie.COUPLE, names_one=True),
    _role("spouse", Tie.COUPLE, names_one=True, kind_of="partner"),
    _role("husband hubby", Tie.COUPLE, names_one=True, kind_of="spouse partner"),
    _role("wife wifey", Tie.COUPLE, names_one=True, kind_of="spouse partner"),
    _role("boyfriend bf", Tie.COUPLE, names_one=True, asked="dating", kind_of="partner"),
    _role("girlfriend gf", Tie.COUPLE, names_one=True, asked="dating", kind_of="partner"),
    _role("fiance fiancé fiancee fiancée", Tie.COUPLE, names_one=True, kind_of="partner"),
    _role("best_friend", Tie.FRIEND, names_one=True),
    *_each("friend bestie bff", Tie.FRIEND, names_one=False),
    _role("boss manager supervisor team_lead team_leader line_manager", Tie.WORK, names_one=True, one_holder=True),
    _role("colleague coworker co-worker labmate", Tie.WORK, names_one=False),
    *_each("mentor teacher coach classmate teammate tutor nanny babysitter", Tie.WORK, names_one=False),
    _role("therapist counsellor counselor", Tie.CARE, names_one=False, one_holder=True),
    _role("physio physiotherapist", Tie.CARE, names_one=False, one_holder=True),
    # one trains with one trainer at a time: "Mike handed me over to a new trainer" ends "my personal trainer Mike"
    _role("personal_trainer trainer", Tie.CARE, names_one=False, one_holder=True),
    _role("landlord landlady", Tie.CARE, names_one=True, one_holder=True),
    *(
        _role(w, Tie.CARE, names_one=False, one_holder=True)
        for w in "dentist psychiatrist psychologist accountant".split()
    ),
    _role("GP", Tie.CARE, names_one=False, one_holder=True, kind_of="doctor"),  # "Who's my doctor?" asks of the GP
    *_each("doctor vet lawyer hairdresser barber", Tie.CARE, names_one=False),
    _role("housemate roommate flatmate", Tie.HOME, names_one=False),
    _role("neighbour neighbor", Tie.HOME, names_one=False),
    *_each("dog cat puppy pup kitten rabbit bunny hamster parrot horse pony", Tie.PET, names_one=True),
)

_BY_NAME = {role.name: role for role in ROLES}


RELATION_WORDS = frozenset(w for r in ROLES for w in r.said)  # every word said for a role: "my <word> Priya"
NAMES_ONE_WORDS = frozenset(w for r in ROLES if r.names_one for w in r.said)
ENDING_WORDS = frozenset(w for r in ROLES if r.ends for w in r.said)  # "my old <word> Finn" was
HANDED_ON_WORDS = frozenset(w for r in ROLES if r.tie in (Tie.WORK, Tie.CARE) for w in r.said)  # "my boss Finn quit"
COUPLE_WORDS = frozenset(w for r in ROLES if r.tie is Tie.COUPLE for w in r.said)
PARTNER_PREDICATES = COUPLE_WORDS | {"dating"}  # the predicates of a couple's relation: "I'm dating Emil" too
HOUSEMATE_WORDS = frozenset(_BY_NAME["housemate"].said)
ONE_HOLDER_ROLES = frozenset(r.name for r in ROLES if r.one_holder)
# a word's role where it is not the role's own name: "manager" -> "boss", "coworker" -> "colleague"
ROLE_OF_WORD = {snake(w): r.name for r in ROLES for w in r.said if snake(w) != r.name}


HANDED_ON_ROLES = frozenset(r.name for r in ROLES if r.tie in (Tie.WORK, Tie.CARE))
ONE_HOLDER_WORDS = frozenset(w for r in ROLES if r.one_holder for w in r.said)  # "met the new <word>, Sunniva"
# the role a verb says of one who does it to the speaker, by the verb's stem, as the word is said ("supervised by
# Dr. Whitcombe": a supervisor; "Who trained me in January?": the trainer)
_ROLE_BY_VERB = {"manag": "manager", "supervis": "supervisor", "coach": "coach", "train": "trainer", "tutor": "tutor"}
_ROLE_BY_VERB["mentor"] = "mentor"


def role_done_by(verb: str) -> str | None:
    """The role ``verb`` says ("managing" -> "manager", "trained" -> "trainer"), or None."""
    return next((role for stem, role in _ROLE_BY_VERB.items() if verb.lower().startswith(stem)), None)


# the event of a person leaving a post, said by name alone ("Dr Ferreira retired"): it ends a handed-on role held
LEFT_POST = "left_post"
# a promotion out of the post ("Oskar got promoted to director"): it ends only a role one has one holder of (a boss,
# not a colleague, who stays one)
PROMOTED_OUT = "promoted_out"


# chat words written as their role's word in a fact ("my gf Ama": "user's girlfriend is Ama")
CHAT_WORDS = {"hubby": "husband", "wifey": "wife", "bf": "boyfriend", "gf": "girlfriend"}


def role_of(predicate: str) -> str:
    """The role a relation predicate names, whatever its word: "manager" -> "boss"."""
    return ROLE_OF_WORD.get(predicate, predicate)


def _asked_group(role: Role) -> frozenset[str]:
    wider = (w for name in role.kind_of for w in _BY_NAME[name].said)
    return frozenset(w.lower().replace(" ", "_") for w in (*role.said, *role.asked_as, *wider))


_GROUPS = tuple(_asked_group(r) for r in ROLES)
_ASKED_WORDS = {
    word: tuple(sorted(frozenset().union(*(g for g in _GROUPS if word in g)))) for g in _GROUPS for word in g
}


def asked_words(word: str) -> tuple[str, ...]:
    """The words for one role as a question means it, the asked word first: a question's "mother" is the "mom" the
    user spoke of, "partner" any partner's word; words of no role give themselves."""
    key = word.lower().replace(" ", "_")  # "personal trainer" as a question says it
    return (word, *(w for w in _ASKED_WORDS.get(key, ()) if w not in (word, key)))
