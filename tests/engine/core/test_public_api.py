"""``engine`` is a typed library: its documented public API works as its docstring shows."""

from __future__ import annotations

import doctest
import fnmatch
import tomllib
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
    pyproject = tomllib.loads((package.parent / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = pyproject["tool"]["setuptools"]["package-data"]["engine"]
    stubs = [p.relative_to(package).as_posix() for p in package.rglob("*.pyi")]
    assert stubs, "the compiled twins' stubs are missing"
    for stub in stubs:  # every compiled twin's stub is shipped with the package
        assert any(fnmatch.fnmatch(stub, pattern) for pattern in shipped), stub
