"""Encumbrance (§ Encumbrance, § Storage Spaces, § The [encumbered] Threshold and Maximum)."""

import pytest

from tabletop.errors import TabletopError
from tabletop.systems.ap2d6 import Bag, Item, apply_encumbrance, carry, standard_sheet
from tabletop.systems.ap2d6.encumbrance import load_bags, space_encs


def test_rut19_heavy_weapons_past_the_personal_threshold_encumber() -> None:
    """RU-T19: STR 1 → threshold 4, max 7; two [heavy] weapons (4) and a weapon (1) = 5 > 4:
    [encumbered], 3 spaces a move, To-Hit 3, -1 to AGI checks."""
    load = carry(1, [Item(kind="heavy-weapon", count=2), Item(kind="weapon")])
    personal = load.spaces[0]
    assert (personal.encs, personal.threshold, personal.maximum) == (5, 4, 7)
    assert load.encumbered
    sheet, events = apply_encumbrance(standard_sheet("Ayla", STR=1), load)
    assert (sheet.move_spaces(), sheet.to_hit, sheet.check_modifier("AGI")) == (3, 3, -1)
    assert events[0].kind == "encumbered"
    unburdened, _ = apply_encumbrance(sheet, carry(1, [Item(kind="weapon")]))
    assert not unburdened.has("encumbered") and unburdened.to_hit == 6


def test_rut19_a_bag_without_a_threshold_never_encumbers() -> None:
    """RU-T19, RU-M50: a bag with max 10 and no threshold holding 9 encs."""
    sack = Bag(name="sack", maximum=10)
    load = carry(1, [], [(sack, [Item(kind="other", encs=9)])])
    assert not load.encumbered and load.total == 9


def test_rut19_everything_together_is_capped_by_the_largest_maximum() -> None:
    """RU-T19, RU-M52: bag 9 + personal 2 = 11 > max(7, 10): refused."""
    sack = Bag(name="sack", maximum=10)
    with pytest.raises(TabletopError, match="11 encs in all"):
        carry(1, [Item(kind="weapon", count=2)], [(sack, [Item(kind="other", encs=9)])])


def test_rum51_past_a_bags_threshold_encumbers() -> None:
    """RU-M51: "past" is strictly more (RU-A29)."""
    pack = Bag(name="pack", threshold=4, maximum=8)
    assert not carry(0, [], [(pack, [Item(kind="food-day", count=4)])]).encumbered
    assert carry(0, [], [(pack, [Item(kind="food-day", count=5)])]).encumbered


def test_rut19_small_items_go_by_threes() -> None:
    """RU-T19, RU-A29: seven small items are ceil(7/3) = 3 encs; negligible ones nothing."""
    assert space_encs([Item(kind="small", count=7), Item(kind="negligible", count=50)]) == 3


def test_each_space_has_its_own_maximum_and_one_bag_at_a_time() -> None:
    with pytest.raises(TabletopError, match="personal holds 7"):
        carry(0, [Item(kind="other", encs=7)])
    bags = [(Bag(name="a", maximum=5), []), (Bag(name="b", maximum=5), [])]
    with pytest.raises(TabletopError, match="1 bag"):
        carry(0, [], bags)
    assert carry(0, [], bags, bags_allowed=2).capacity == 6


def test_other_items_need_their_encs() -> None:
    with pytest.raises(TabletopError, match="needs its encs"):
        carry(0, [Item(name="anvil", kind="other")])


def test_bag_files(tmp_path) -> None:
    path = tmp_path / "bags.toml"
    path.write_text("[backpack]\nthreshold = 6\nmaximum = 10\n[pouch]\nmaximum = 1\n")
    bags = load_bags(path)
    assert bags["backpack"].threshold == 6 and bags["pouch"].threshold is None
    path.write_text("[backpack]\nmaximum = -1\n")
    with pytest.raises(TabletopError, match="backpack"):
        load_bags(path)
