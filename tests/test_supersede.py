from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from sodamem.ingest.entities import entity_key, possessive_owner, value_key
from sodamem.ingest.supersede import (
    ANY_VALUE,
    SlotFact,
    is_functional,
    order_key,
    resolve_slot,
    same_value,
    slot_of,
)
from sodamem.model import FactKind, FactStatus, LinkType, Modality


def fact(fact_id: int, day: int, value: str = "leeds", polarity: bool = True) -> SlotFact:
    starts = f"2024-03-{day:02d}T10:00:00"
    return SlotFact(fact_id, order_key(starts, "s", 0, 0, "lives_in", value), starts, value, polarity)


def test_newest_is_active_and_older_ones_close_at_its_start() -> None:
    outcomes, links = resolve_slot([fact(2, 20, "manchester"), fact(1, 5, "leeds")])
    by_id = {o.fact_id: o for o in outcomes}
    assert by_id[2].status is FactStatus.ACTIVE and by_id[2].valid_to is None
    assert by_id[1].status is FactStatus.SUPERSEDED and by_id[1].valid_to == "2024-03-20T10:00:00"
    assert [(link.type, link.newer, link.older) for link in links] == [(LinkType.SUPERSEDES, 2, 1)]


def test_link_types_follow_what_changed() -> None:
    _, links = resolve_slot(
        [fact(1, 1, "spicy food"), fact(2, 2, "spicy food", polarity=False), fact(3, 3, "spicy food", polarity=False)]
    )
    assert [link.type for link in links] == [LinkType.CONTRADICTS, LinkType.UPDATES]


def test_a_denial_of_another_value_ends_nothing_until_that_value_holds_again() -> None:
    """London holds; "I used to live in Leeds" is true beside it; "I moved back to Leeds" ends London and it."""
    london, not_leeds, york, leeds = (
        fact(1, 1, "london"), fact(2, 2, "leeds", polarity=False), fact(3, 3, "york"), fact(4, 4, "leeds")
    )  # fmt: skip
    outcomes, links = resolve_slot([london, not_leeds])
    assert {o.fact_id: o.status for o in outcomes} == {1: FactStatus.ACTIVE, 2: FactStatus.ACTIVE} and links == []
    outcomes, links = resolve_slot([london, not_leeds, york, leeds])
    by_id = {o.fact_id: o for o in outcomes}
    assert [fid for fid, o in by_id.items() if o.status is FactStatus.ACTIVE] == [4]
    assert by_id[2].valid_to == leeds.starts and by_id[1].valid_to == york.starts
    assert {(x.type, x.newer, x.older) for x in links} == {
        (LinkType.CONTRADICTS, 4, 2), (LinkType.SUPERSEDES, 3, 1), (LinkType.SUPERSEDES, 4, 3)
    }  # fmt: skip
    # Denials of values that do not hold end nothing, whichever comes first.
    not_london = fact(6, 1, "london", polarity=False)
    for pair in ([not_london, not_leeds], [not_leeds, replace(london, starts="2024-03-03T10:00:00")]):
        outcomes, links = resolve_slot(pair)
        assert all(o.status is FactStatus.ACTIVE for o in outcomes) and links == [], pair
    # A denial of the value that holds ends it, as before; so does one said with the "negated" modality.
    for denial in (fact(5, 5, "leeds", polarity=False), replace(fact(5, 5, "leeds"), negated=True)):
        outcomes, links = resolve_slot([leeds, denial])
        assert {o.fact_id: o.status for o in outcomes} == {4: FactStatus.SUPERSEDED, 5: FactStatus.ACTIVE}
        assert [(x.type, x.newer, x.older) for x in links] == [(LinkType.CONTRADICTS, 5, 4)]


def test_a_denial_of_no_value_ends_whichever_value_holds_and_a_new_value_ends_it() -> None:
    """ "I work at Google" / "I lost my job" (no employer named) / "I work at Boots now"."""
    google, lost, boots = fact(1, 1, "google"), fact(2, 2, ANY_VALUE, polarity=False), fact(3, 3, "boots")
    outcomes, links = resolve_slot([google, lost])
    assert {o.fact_id: o.status for o in outcomes} == {1: FactStatus.SUPERSEDED, 2: FactStatus.ACTIVE}
    assert [(x.type, x.newer, x.older) for x in links] == [(LinkType.CONTRADICTS, 2, 1)]
    outcomes, links = resolve_slot([boots, lost, google])
    by_id = {o.fact_id: o for o in outcomes}
    assert [fid for fid, o in by_id.items() if o.status is FactStatus.ACTIVE] == [3]
    assert by_id[1].valid_to == lost.starts and by_id[2].valid_to == boots.starts
    assert (LinkType.CONTRADICTS, 3, 2) in {(x.type, x.newer, x.older) for x in links}


def test_said_at_one_place_an_affirmation_comes_before_a_denial() -> None:
    """ "My wife Ana and I divorced": the relation and its ending start at one place; the ending is the news."""
    starts = "2024-03-01T10:00:00"
    wife = SlotFact(1, order_key(starts, "s", 0, 0, "wife", "ana"), starts, "ana", True)
    ended = SlotFact(2, order_key(starts, "s", 0, 0, "partner", "ana"), starts, "ana", False)
    for facts in ([wife, ended], [ended, wife]):
        outcomes, _ = resolve_slot(facts)
        assert {o.fact_id: o.status for o in outcomes} == {1: FactStatus.SUPERSEDED, 2: FactStatus.ACTIVE}


@given(st.permutations(list(range(6))))
def test_outcome_does_not_depend_on_input_order(order: list[int]) -> None:
    facts = [fact(i, i + 1, value=f"city{i % 3}", polarity=i % 4 != 1) for i in range(6)]
    expected = resolve_slot(facts)
    shuffled = resolve_slot([facts[i] for i in order])
    assert sorted(expected[0], key=lambda o: o.fact_id) == sorted(shuffled[0], key=lambda o: o.fact_id)
    assert expected[1] == shuffled[1]


def test_slots() -> None:
    assert slot_of(FactKind.STATE, "lives_in", Modality.ASSERTED, "maya", "leeds") == "maya|lives_in"
    assert slot_of(FactKind.PREFERENCE, "likes", Modality.ASSERTED, "maya", "spicy food") == "maya|likes|spicy food"
    assert slot_of(FactKind.EVENT, "visited", Modality.ASSERTED, "maya", "lisbon") is None
    assert slot_of(FactKind.STATE, "lives_in", Modality.HYPOTHETICAL, "maya", "paris") is None
    assert is_functional("favorite_color") and is_functional("has_cat") and not is_functional("visited")


def test_entity_keys() -> None:
    assert entity_key("The Arch") == entity_key("the arch") == "arch"
    assert entity_key("Maya’s sister") == entity_key("maya's sister")
    assert entity_key("cats") == "cat" and entity_key("puppies") == "puppy"
    assert entity_key("James") == "james" and entity_key("glasses") == "glass" and entity_key("bus") == "bus"
    assert value_key(None) == ""
    assert possessive_owner("Maya's sister") == "Maya" and possessive_owner("Priya") is None


def test_order_key_sorts_by_time_first() -> None:
    keys = [order_key(f"2024-0{m}-01T00:00:00", s, 0, 0, "p", "v") for m, s in ((3, "a"), (1, "z"), (2, "m"))]
    assert sorted(keys) == [keys[1], keys[2], keys[0]]


def said_fact(fact_id: int, starts: str, said: str, value: str, polarity: bool = True, turn: int = 0) -> SlotFact:
    key = order_key(starts, "s", turn, 0, "lives_in", value)
    return SlotFact(fact_id, key, starts, value, polarity, said=said)


def test_a_change_said_later_but_dated_shortly_before_a_plain_statement_ends_it() -> None:
    """ "I live in London" on 3 March; on 10 March "I moved to Paris two weeks ago" (24 February): Paris holds, and
    London's span is left empty rather than ending before it began."""
    london = said_fact(1, "2024-03-03T10:00:00", "2024-03-03T10:00:00", "london")
    paris = said_fact(2, "2024-02-24T00:00:00", "2024-03-10T10:00:00", "paris", turn=1)
    for facts in ([london, paris], [paris, london]):
        outcomes, links = resolve_slot(facts)
        by_id = {o.fact_id: o for o in outcomes}
        assert by_id[2].status is FactStatus.ACTIVE and by_id[1].status is FactStatus.SUPERSEDED
        assert by_id[1].valid_to == london.starts
        assert [(x.type, x.newer, x.older) for x in links] == [(LinkType.SUPERSEDES, 2, 1)]


def test_a_change_dated_long_before_a_plain_statement_is_history() -> None:
    """ "I live in London", then "I moved to Bristol in 2010": London, said since, still holds."""
    london = said_fact(1, "2024-03-03T10:00:00", "2024-03-03T10:00:00", "london")
    bristol = said_fact(2, "2010-01-01T00:00:00", "2024-03-10T10:00:00", "bristol", turn=1)
    outcomes, _ = resolve_slot([london, bristol])
    assert {o.fact_id: o.status for o in outcomes} == {1: FactStatus.ACTIVE, 2: FactStatus.SUPERSEDED}


def test_an_ending_dated_before_the_relation_said_with_it_ends_it() -> None:
    """ "My boyfriend Tom and I broke up last week": one turn, the relation plain, its ending dated a week back."""
    said = "2024-03-03T10:00:00"
    boyfriend = SlotFact(1, order_key(said, "s", 0, 0, "boyfriend", "tom"), said, "tom", True, said=said)
    ended = SlotFact(2, order_key("2024-02-25T00:00:00", "s", 0, 0, "partner", "tom"), "2024-02-25T00:00:00", "tom",
                     False, said=said)  # fmt: skip
    outcomes, _ = resolve_slot([ended, boyfriend])
    assert {o.fact_id: o.status for o in outcomes} == {1: FactStatus.SUPERSEDED, 2: FactStatus.ACTIVE}


def test_dated_changes_keep_their_own_order() -> None:
    """Plain "London" on 1 March; on 5 March "moved to Rome last week" (26 February); on 10 March "moved to Paris in
    January": both changes come after London was said, and between them the dates decide (Rome is the later)."""
    london = said_fact(1, "2024-03-01T10:00:00", "2024-03-01T10:00:00", "london")
    rome = said_fact(2, "2024-02-26T00:00:00", "2024-03-05T10:00:00", "rome", turn=1)
    paris = said_fact(3, "2024-01-15T00:00:00", "2024-03-10T10:00:00", "paris", turn=2)
    outcomes, _ = resolve_slot([paris, london, rome])
    assert [o.fact_id for o in outcomes if o.status is FactStatus.ACTIVE] == [2]


def test_a_short_name_ends_the_long_one() -> None:
    """ "I work at Fernhill Studio" / "I quit Fernhill": the denial names the employer by its first word."""
    studio, quit_ = fact(1, 1, "fernhill studio"), fact(2, 2, "fernhill", polarity=False)
    outcomes, links = resolve_slot([studio, quit_])
    assert {o.fact_id: o.status for o in outcomes} == {1: FactStatus.SUPERSEDED, 2: FactStatus.ACTIVE}
    assert [(x.type, x.newer, x.older) for x in links] == [(LinkType.CONTRADICTS, 2, 1)]
    assert same_value("fernhill", "fernhill studio") and not same_value("fern", "fernhill studio")
    assert same_value("de linde", "apotheek de linde") and not same_value("linde", "lindeman")
    outcomes, _ = resolve_slot([fact(1, 1, "york", polarity=False), fact(2, 2, "york minster")])
    assert {o.fact_id: o.status for o in outcomes} == {1: FactStatus.SUPERSEDED, 2: FactStatus.ACTIVE}


def test_a_moved_change_sorts_before_a_plain_statement_said_after_it_at_the_same_time() -> None:
    """Three messages stamped alike: "I live in Leeds." / "I moved to York last month." / "I live in Manchester now."
    York, moved after Leeds, must not pass Manchester, said after it."""
    said = "2024-05-01T00:00:00"
    leeds = SlotFact(1, order_key(said, "s", 0, 0, "lives_in", "leeds"), said, "leeds", True, said=said)
    york = SlotFact(2, order_key("2024-04-01T00:00:00", "s", 1, 0, "lives_in", "york"), "2024-04-01T00:00:00",
                    "york", True, said=said)  # fmt: skip
    manchester = SlotFact(3, order_key(said, "s", 2, 0, "lives_in", "manchester"), said, "manchester", True, said=said)
    outcomes, _ = resolve_slot([manchester, york, leeds])
    assert [o.fact_id for o in outcomes if o.status is FactStatus.ACTIVE] == [3]
    assert not same_value("york", "new york")  # one trailing word is no name of the longer
