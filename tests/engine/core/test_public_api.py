"""``engine`` is a typed library: its documented public API works as its docstring shows."""

from __future__ import annotations

import doctest
from pathlib import Path

import engine


def test_docstring_examples_run() -> None:
    result = doctest.testmod(engine, verbose=False)
    assert result.attempted >= 8
    assert result.failed == 0


def test_every_public_name_exists_and_is_documented() -> None:
    assert len(engine.__all__) == len(set(engine.__all__))
    for name in engine.__all__:
        value = getattr(engine, name)
        if callable(value) and not isinstance(value, type(int | str)):
            assert getattr(value, "__doc__", None), name


def test_ships_py_typed() -> None:
    package = Path(engine.__file__).parent
    assert (package / "py.typed").exists()
    pyproject = (package.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert 'engine = ["py.typed", "*.pyi", "advice/*.pyi"]' in pyproject  # with the C stubs
