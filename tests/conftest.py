"""Shared test settings: hypothesis runs a fixed, moderate number of examples, no deadline;
room clients send fixed ids and nonces, so the dice of a test server never vary."""

import itertools
import zlib

import pytest
from hypothesis import HealthCheck, settings

from tests.effort import tried

settings.register_profile(
    "tabletop",
    max_examples=tried(150),
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


@pytest.fixture(autouse=True)
def _fixed_client_ids(request, monkeypatch):
    """Each test's room clients number their request ids and nonces from 1, after a mark of
    the test (so no two tests share one): with the test servers' fixed seed
    (tests/rooms/conftest.py) every die is the same on every run, in any order. Ids are 16
    hex digits and nonces 32 (128 bits), as the client's own; the nonce a hall draws for a
    request that sent none comes from the same count, which keeps every id and nonce of a
    test distinct."""
    mark = zlib.crc32(request.node.nodeid.encode())
    count = itertools.count(1)
    nonce = lambda: f"{mark:08x}{next(count):024x}"  # noqa: E731
    monkeypatch.setattr("tabletop.rooms.client.new_id", lambda: f"{mark:08x}{next(count):08x}")
    monkeypatch.setattr("tabletop.rooms.client.new_nonce", nonce)
    monkeypatch.setattr("tabletop.rooms.hall.new_nonce", nonce)


def pytest_collection_modifyitems(config, items):
    """`--dist loadgroup` (make test) sends the tests of an `xdist_group` to one test process
    by a suffix on their ids, `@group`, which pytest-xdist 3.8 writes to a node's `_nodeid`;
    pytest 9.2 keeps the id in `_id`, so the suffix never reached the scheduler and the
    group's tests ran on both processes (test_ray.py started a Ray in each). Until xdist
    writes it where pytest reads it, the suffix is put there here; a no-op once it is."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        marks = item.iter_markers("xdist_group")
        names = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in marks}
        suffix = "@" + "_".join(sorted(names))
        if names and not item.nodeid.endswith(suffix) and hasattr(item, "_id"):
            item._id = type(item._id).parse(item.nodeid + suffix)
