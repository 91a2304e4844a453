"""Shared test settings: hypothesis runs a fixed, moderate number of examples, no deadline."""

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "tabletop",
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.load_profile("tabletop")


@pytest.fixture(autouse=True)
def _data_home(tmp_path_factory, monkeypatch):
    """What the command line keeps for a player (nonce books) goes to a test's own folder,
    never to the home of whoever runs the tests."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
