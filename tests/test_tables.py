"""Random tables: loaded from data, refused with the table and value named when broken."""

from __future__ import annotations

import json

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import TableError
from tabletop.tables import Span, find_table, load_table, parse_span


def table(*entries: dict, dice: str = "2d6") -> dict:
    return {"name": "test", "dice": dice, "entries": list(entries)}


THREE_BANDS = table(
    {"roll": "2-6", "name": "low"},
    {"roll": 7, "name": "seven", "effects": [{"kind": "heal", "amount": 2}]},
    {"roll": "8+", "name": "high"},
)


def test_a_roll_reaches_its_entry_with_every_die_recorded():
    loaded = load_table(THREE_BANDS)
    result = loaded.roll(FixedDice([3, 4]))
    assert result.value == 7
    assert result.entry.name == "seven"
    assert result.entry.effects[0].kind == "heal"
    assert result.entry.effects[0].fields == {"amount": 2}
    assert str(result.roll) == "2d6 → [3, 4] = 7"


def test_a_modifier_is_added_before_the_lookup():
    loaded = load_table(THREE_BANDS)
    assert loaded.roll(FixedDice([1, 1]), modifier=5).entry.name == "seven"
    assert loaded.roll(FixedDice([6, 6]), modifier=9).entry.name == "high"


def test_declared_modifiers_allow_rows_only_a_modified_roll_reaches():
    data = table(
        {"roll": "<=0", "name": "spared"},
        {"roll": "1-6", "name": "hurt"},
        {"roll": "7+", "name": "dead"},
        dice="1d6",
    )
    with pytest.raises(TableError, match="can never be rolled"):
        load_table(data)
    loaded = load_table({**data, "modifiers": [-1, 3]})
    assert loaded.roll(FixedDice([1]), modifier=-1).entry.name == "spared"
    assert loaded.roll(FixedDice([6]), modifier=3).entry.name == "dead"
    with pytest.raises(TableError, match="no entry for a roll of 0"):
        load_table({**data, "entries": data["entries"][1:], "modifiers": [-1, 3]})


def test_a_modified_roll_past_every_entry_is_refused():
    loaded = load_table(table({"roll": "2-12", "name": "all"}))
    with pytest.raises(TableError, match="no entry for 13"):
        loaded.roll(FixedDice([6, 6]), modifier=1)


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        ([{"roll": "2-6", "name": "a"}, {"roll": "8-12", "name": "b"}], "no entry for a roll of 7"),
        (
            [{"roll": "2-7", "name": "a"}, {"roll": "7-12", "name": "b"}],
            "'a' (2-7) and 'b' (7-12) both cover 7",
        ),
        (
            [{"roll": "2-12", "name": "a"}, {"roll": "<=1", "name": "b"}],
            "'b' (<=1) can never be rolled",
        ),
        ([{"roll": "2-x", "name": "a"}], "cannot read the roll range '2-x'"),
        ([{"roll": "9-2", "name": "a"}], "runs backwards"),
        ([{"roll": True, "name": "a"}], "must be a number"),
        ([{"roll": "2-12", "name": ""}], "at least 1 character"),
        ([{"roll": "2-12", "name": "a", "effects": [{"amount": 2}]}], "kind"),
        ([{"roll": "2-12", "name": "a", "colour": "red"}], "colour"),
        ([], "at least 1 item"),
    ],
)
def test_a_broken_table_is_refused_naming_the_problem(entries, words):
    with pytest.raises(TableError, match=r"test|entries") as caught:
        load_table(table(*entries))
    assert words in str(caught.value)


def test_dice_that_cannot_be_weighed_are_refused():
    with pytest.raises(TableError, match="dice"):
        load_table(table({"roll": 1, "name": "a"}, dice="2d"))
    with pytest.raises(TableError, match="sample it instead"):
        load_table(table({"roll": 1, "name": "a"}, dice="1000d6kh500"))


def test_the_dice_are_normalised():
    assert load_table(table({"roll": "1-20", "name": "any"}, dice="d20")).dice == "1d20"


def test_toml_and_json_files_load_alike(tmp_path):
    toml = tmp_path / "bands.toml"
    toml.write_text(
        'name = "test"\ndice = "2d6"\n'
        '[[entries]]\nroll = "2-6"\nname = "low"\n'
        '[[entries]]\nroll = 7\nname = "seven"\neffects = [{ kind = "heal", amount = 2 }]\n'
        '[[entries]]\nroll = "8+"\nname = "high"\n'
    )
    as_json = tmp_path / "bands.json"
    as_json.write_text(json.dumps(THREE_BANDS))
    assert load_table(toml) == load_table(as_json) == load_table(THREE_BANDS)
    assert find_table(str(toml)).name == "test"


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("bad.toml", "name = ", "not valid TOML"),
        ("bad.json", "{", "not valid JSON"),
        ("list.json", "[1, 2]", "must hold one object"),
        ("binary.toml", b"\xff\xfe\x00", "not a UTF-8 text file"),
        ("huge.toml", "#" * 1_000_001, "too much for a data file"),
    ],
)
def test_corrupt_files_are_refused_with_one_line(tmp_path, name, content, words):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with pytest.raises(TableError) as caught:
        load_table(path)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_missing_file_is_a_table_error(tmp_path):
    with pytest.raises(TableError, match="cannot read"):
        load_table(tmp_path / "absent.toml")
    with pytest.raises(TableError, match="no table file or built-in table"):
        find_table(str(tmp_path / "absent.toml"))


@pytest.mark.parametrize(
    ("text", "span"),
    [
        (7, Span(7, 7)),
        ("7", Span(7, 7)),
        ("2-3", Span(2, 3)),
        ("7+", Span(7, None)),
        ("<=1", Span(None, 1)),
    ],
)
def test_roll_ranges_read_in_every_form(text, span):
    assert parse_span(text) == span


def test_every_builtin_table_loads():
    from tabletop.tables import builtin_tables

    for name in builtin_tables():
        assert find_table(name).entries


def test_negative_ranges_read_and_cover_negative_rolls():
    loaded = load_table(
        table({"roll": "-3--1", "name": "bad"}, {"roll": "0-2", "name": "good"}, dice="d6 - 4")
    )
    assert loaded.lookup(-2).name == "bad"
    assert parse_span("-3--1") == Span(-3, -1)


def test_checking_a_large_table_is_linear_not_quadratic():
    entries = [{"roll": value, "name": f"entry {value}"} for value in range(20_000, 0, -1)]
    assert len(load_table(table(*entries, dice="d20000")).entries) == 20_000


def test_a_device_or_directory_is_not_read_as_a_table(tmp_path):
    with pytest.raises(TableError, match="not a regular file"):
        load_table("/dev/zero")
    with pytest.raises(TableError, match="not a regular file"):
        load_table(tmp_path)


def test_a_dumped_table_loads_again():
    loaded = load_table(THREE_BANDS)
    assert load_table(loaded.model_dump(mode="json")) == loaded
