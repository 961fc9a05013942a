"""What a mention says about gender, for resolving "he"/"she" (pure word lists, stdlib only).

Relation words that fix a gender ("brother", "aunt"), and a short list of common given names whose gender is
near-certain in English-language dialogue. Names worn by either gender ("Sam", "Alex", "Jordan") and names that are
also places ("Florence", "Sydney", "Paris") are left out on purpose: a name not listed has no known gender, and the
resolver then leaves "he"/"she" alone rather than guess.
"""

from __future__ import annotations

from typing import Literal

from sodamem.ingest.extract.rules_vocabulary import words

Gender = Literal["m", "f"]

MALE_RELATIONS = words(
    """brother dad father daddy husband boyfriend son uncle nephew grandpa grandfather stepdad stepfather stepson
    grandson fiancé father-in-law brother-in-law son-in-law"""
)
FEMALE_RELATIONS = words(
    """sister mum mom mother mummy mommy wife girlfriend daughter aunt auntie niece grandma grandmother granny nana
    stepmom stepmum stepmother stepdaughter granddaughter fiancée fiancee mother-in-law sister-in-law daughter-in-law"""
)

MALE_NAMES = words(
    """aaron adam adrian ahmed alan albert alexander alfie andrew angelo anthony antonio arjun arthur ben benjamin
    bill billy bob bobby brandon brian bruce caleb calvin carl carlos charles christopher colin connor
    craig daniel danny darren dave david dean dennis derek dominic donald doug douglas dylan edward eric ethan evan
    frank fred freddie gary gavin george gerald gordon graham greg gregory harry henry hugo ian isaac jack jacob jake
    james jason jeff jeffrey jeremy jerry jim jimmy joe joel john johnny jon jonathan jose joseph josh joshua
    juan justin keith ken kenneth kevin kyle larry leo leon liam louis lucas luke marcus mark martin matt matthew
    max michael mike mohammed muhammad nate nathan neil nick nicholas noah oliver omar oscar owen patrick paul peter
    phil philip rahul ravi ray raymond richard rick rob robert roger ron ronald ryan scott sean simon stephen
    steve steven stuart ted theo thomas tim timothy todd tom tommy tony tyler victor vincent walter wayne
    william zach"""
)
FEMALE_NAMES = words(
    """abigail aisha alice alicia alison amanda amber amelia amy ana andrea angela anna anne annie anya ashley
    audrey barbara becky beth bethany brenda caitlin caroline catherine charlotte chloe christina christine claire
    deborah debbie diana diane donna dorothy eleanor elena elizabeth ella ellie emily emma erin eva evelyn fatima
    fiona gemma gina grace hannah harriet heather helen holly isabel isabella jane janet jasmine jenna jennifer
    jenny jessica jill joan joanna jolene julia julie karen kate katherine kathy katie kelly laura lauren leah
    linda lisa lily lucy lydia maria mary maya megan melanie melissa mia michelle molly monica nancy natalie nicole
    nina olivia pamela patricia priya rachel rebecca rose ruby ruth samantha sandra sara sarah sharon sophia sophie
    stephanie susan tanya tina vanessa victoria wendy zoe"""
)


def relation_gender(relation: str) -> Gender | None:
    """``"brother"`` -> ``"m"``, ``"aunt"`` -> ``"f"``, ``"boss"`` -> None."""
    word = relation.lower().split()[-1]
    if word in MALE_RELATIONS:
        return "m"
    if word in FEMALE_RELATIONS:
        return "f"
    return None


def name_gender(name: str) -> Gender | None:
    """The gender of a listed given name (its first word), else None."""
    first = name.split()[0].lower()
    if first in MALE_NAMES:
        return "m"
    if first in FEMALE_NAMES:
        return "f"
    return None
