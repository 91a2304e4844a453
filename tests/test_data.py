"""Reading and writing data files and validating data: one readable error, whatever went wrong."""

from __future__ import annotations

import errno
import os

import pytest
from pydantic import BaseModel, Field

from tabletop.data import read_data_file, shipped_data, validated, write_text_file
from tabletop.errors import DataError, RulesError


class Weapon(BaseModel):
    name: str = Field(min_length=1)
    damage: int = Field(ge=1)


def test_a_toml_file_reads_as_one_object(tmp_path):
    path = tmp_path / "weapons.toml"
    path.write_text('name = "axe"\ndamage = 6\n')
    assert read_data_file(path) == {"name": "axe", "damage": 6}


def test_the_error_type_can_be_the_callers_own(tmp_path):
    class SpellListError(RulesError):
        pass

    with pytest.raises(SpellListError, match="cannot read"):
        read_data_file(tmp_path / "missing.toml", SpellListError)


def test_validation_names_the_origin_and_every_problem():
    with pytest.raises(DataError) as caught:
        validated(Weapon, {"name": "", "damage": 0}, "weapons.toml")
    message = str(caught.value)
    assert message.startswith("weapons.toml: ")
    assert "name: String should have at least 1 character" in message
    assert "damage: Input should be greater than or equal to 1" in message
    assert "\n" not in message


def test_validation_returns_the_model_when_the_data_is_good():
    assert validated(Weapon, {"name": "axe", "damage": 6}, "x") == Weapon(name="axe", damage=6)


def test_shipped_data_reads_a_package_data_file():
    data = shipped_data("tabletop.systems.ap2d6", "actions.toml")
    assert data


def test_a_saved_file_is_written_whole(tmp_path):
    path = tmp_path / "sheet.json"
    write_text_file(path, "{}\n")
    write_text_file(path, '{"name": "Ada"}\n')
    assert path.read_text() == '{"name": "Ada"}\n'
    assert os.listdir(tmp_path) == ["sheet.json"]


def test_a_failed_write_leaves_the_earlier_file_and_no_litter(tmp_path, monkeypatch):
    """A full disk part-way through must not clobber what the --out file held before."""
    path = tmp_path / "sheet.json"
    path.write_text("the old sheet")

    def disk_full(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(DataError, match=r"cannot write .*No space left"):
        write_text_file(path, "the new sheet")
    assert path.read_text() == "the old sheet"
    assert os.listdir(tmp_path) == ["sheet.json"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_or_device_is_never_replaced_by_a_saved_file(tmp_path):
    """Writing to a pipe blocked for ever; replacing a device (say /dev/full) would be worse."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for target in (pipe, tmp_path, tmp_path / "missing-folder" / "x.json"):
        with pytest.raises(DataError, match="cannot write"):
            write_text_file(target, "{}")
    assert sorted(os.listdir(tmp_path)) == ["pipe"]
