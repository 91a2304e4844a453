"""Carrying: bulk, encumbrance, worn and held items, containers
(§ Encumbrance; CR-M06…M09, CR-A01, A03, A20, A25, A26)."""

from __future__ import annotations

import pytest

from tabletop.systems.rollunder import (
    AbilityRoll,
    Item,
    Load,
    RollUnderDataError,
    RollUnderError,
    RollUnderOptions,
    check_use,
    encumbered,
    needs_both_hands,
    place,
    remove,
)
from tabletop.systems.rollunder.errors import validated
from tests.systems.rollunder.helpers import hero, run

CLOTHES = Item(name="clothes", bulk=1, kind="clothes")
DEFAULTS = RollUnderOptions()


def load(limit: int, *stored: int, worn: tuple[Item, ...] = (CLOTHES,)) -> Load:
    return Load(
        carry_limit=limit,
        worn=worn,
        stored=tuple(Item(name=f"thing {n}", bulk=b) for n, b in enumerate(stored)),
    )


@pytest.mark.parametrize(
    ("limit", "bulk", "heavy"), [(7, 4, True), (7, 3, False), (8, 4, False), (8, 5, True)]
)
def test_cr_a01_encumbered_only_strictly_over_half(limit, bulk, heavy):
    """CR-A01: 2 × bulk > limit, compared exactly (clothes count 1, CR-A25)."""
    assert encumbered(load(limit, bulk - 1), DEFAULTS) is heavy


def test_cr_a01_the_option_makes_exactly_half_encumber():
    options = RollUnderOptions(encumbrance_threshold="half_or_more")
    assert encumbered(load(8, 3), options)
    assert not encumbered(load(8, 2), options)


def test_cr_m06_no_more_than_the_carry_limit():
    with pytest.raises(RollUnderError, match="over the carry limit of 5"):
        place(load(5, 4), Item(name="lamp", bulk=1), "stored", DEFAULTS)
    assert place(load(6, 4), Item(name="lamp", bulk=1), "stored", DEFAULTS).bulk == 6


def test_cr_a25_worn_and_held_items_count_toward_bulk():
    armour = Item(name="mail", bulk=3, kind="armour")
    full = Load(carry_limit=6, worn=(CLOTHES, armour), held=(Item(name="torch", bulk=2),))
    assert full.bulk == 6
    with pytest.raises(RollUnderError, match="carry limit"):
        place(full, Item(name="coin", bulk=1), "stored", DEFAULTS)


def test_cr_m07_one_set_of_clothes_one_suit_of_armour_any_accessories():
    mail = Item(name="mail", bulk=3, kind="armour")
    rings = tuple(Item(name=f"ring {n}", bulk=0, kind="accessory") for n in range(5))
    Load(carry_limit=20, worn=(CLOTHES, mail, *rings))
    with pytest.raises(RollUnderError, match="one set of armour"):
        place(Load(carry_limit=20, worn=(mail,)), mail, "worn", DEFAULTS)
    with pytest.raises(RollUnderError, match="one set of clothes"):
        place(Load(carry_limit=20, worn=(CLOTHES,)), CLOTHES, "worn", DEFAULTS)
    with pytest.raises(RollUnderError, match="cannot be worn"):
        place(Load(carry_limit=20), Item(name="sword", bulk=2, kind="weapon"), "worn", DEFAULTS)


def test_cr_m08_one_item_in_each_hand():
    two = Load(carry_limit=20, held=(Item(name="a", bulk=1), Item(name="b", bulk=1)))
    with pytest.raises(RollUnderError, match="at most 2 items"):
        place(two, Item(name="c", bulk=1), "held", DEFAULTS)


def test_cr_m09_cr_a20_clothes_store_items_of_bulk_4_or_less():
    assert place(load(20), Item(name="pack", bulk=4), "stored", DEFAULTS).bulk == 5
    with pytest.raises(RollUnderError, match="too big for containers"):
        place(load(20), Item(name="chest", bulk=5), "stored", DEFAULTS)
    with pytest.raises(RollUnderError, match="containers of worn clothes"):
        place(load(20, worn=()), Item(name="coin", bulk=1), "stored", DEFAULTS)
    assert place(load(20), Item(name="chest", bulk=5), "held", DEFAULTS).bulk == 6


@pytest.mark.parametrize(
    ("item", "default", "all_weapons"),
    [
        (Item(name="dagger", bulk=1, kind="weapon"), False, True),
        (Item(name="greatsword", bulk=3, kind="weapon"), True, True),
        (Item(name="crate", bulk=3), True, True),
        (Item(name="lantern", bulk=2), False, False),
    ],
)
def test_cr_a03_what_needs_both_hands(item, default, all_weapons):
    assert needs_both_hands(item, DEFAULTS) is default
    every_weapon = RollUnderOptions(two_handed="weapons_and_bulk_3_or_more")
    assert needs_both_hands(item, every_weapon) is all_weapons


def test_cr_a26_a_two_handed_item_fills_both_hands_unless_the_option_reads_it_literally():
    greatsword = Item(name="greatsword", bulk=3, kind="weapon")
    with_torch = Load(carry_limit=20, held=(greatsword,))
    with pytest.raises(RollUnderError, match="nothing else can be held"):
        place(with_torch, Item(name="torch", bulk=1), "held", DEFAULTS)
    literal = RollUnderOptions(two_handed_holding="only_to_use")
    both = place(with_torch, Item(name="torch", bulk=1), "held", literal)
    with pytest.raises(RollUnderError, match="put down 'torch' first"):
        check_use(both, "greatsword", literal)
    assert check_use(both, "torch", literal).name == "torch"
    assert check_use(with_torch, "greatsword", DEFAULTS) is greatsword
    with pytest.raises(RollUnderError, match="not held"):
        check_use(with_torch, "torch", DEFAULTS)


def test_cr_a26_a_sheet_holding_too_much_is_refused_when_a_rule_uses_it():
    crowded = Load(carry_limit=20, held=(Item(name="crate", bulk=3), Item(name="torch", bulk=1)))
    with pytest.raises(RollUnderError, match="needs both hands"):
        run(AbilityRoll(character=hero(load=crowded), ability="STR"), [])


def test_remove_takes_the_first_item_of_that_name():
    two = load(20, 1, 1)
    rest, item = remove(two, "thing 0")
    assert item.name == "thing 0" and [i.name for i in rest.stored] == ["thing 1"]
    with pytest.raises(RollUnderError, match="nothing called"):
        remove(two, "lamp")


def test_a_malformed_load_is_refused_with_a_readable_error():
    with pytest.raises(RollUnderDataError, match="carry_limit"):
        validated(Load, {"carry_limit": -1}, "load")
    with pytest.raises(RollUnderDataError, match="bulk"):
        validated(Load, {"carry_limit": 5, "held": [{"name": "x", "bulk": "lots"}]}, "load")
