"""Fixtures for the 2d6 action-point rules: the test-only weapons."""

from pathlib import Path

import pytest

from tabletop.systems.ap2d6 import Weapon, load_weapons

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def weapons() -> dict[str, Weapon]:
    """Weapons made up for the tests (RU-G02: the rules ship none)."""
    return load_weapons(FIXTURES / "weapons.toml")
