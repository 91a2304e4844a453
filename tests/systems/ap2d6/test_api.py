"""The public API: the package docstring's examples run, and every name it exports exists."""

import doctest

import tabletop.systems.ap2d6 as ap2d6


def test_the_package_examples_run() -> None:
    assert doctest.testmod(ap2d6).failed == 0


def test_every_exported_name_exists() -> None:
    assert all(hasattr(ap2d6, name) for name in ap2d6.__all__)
    assert sorted(ap2d6.__all__) == sorted(set(ap2d6.__all__))
