"""The engine stays pure: no web/cache/serialisation imports, no global ``random`` state.

docs/architecture.md promises that ``engine/`` runs anywhere (advice, simulation, notebooks)
and is deterministic under a seeded ``random.Random``. This reads every module's AST, so a
forbidden import fails here even if nothing executes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE_DIR = Path(__file__).resolve().parent.parent / "engine"
FORBIDDEN_MODULES = frozenset(
    {
        "flask",
        "flask_smorest",
        "marshmallow",
        "redis",
        "werkzeug",
        "gunicorn",
        "webargs",
        "apispec",
        "hiredis",
    }
)
ALLOWED_RANDOM_NAMES = frozenset({"Random"})
"""``random.Random`` (a seeded instance passed in) is fine; module-level functions are not."""

ENGINE_MODULES = sorted(ENGINE_DIR.rglob("*.py"))


def _module_id(path: Path) -> str:
    return str(path.relative_to(ENGINE_DIR.parent))


def forbidden_uses(source: str) -> list[str]:
    """Human-readable violations found in one module's source."""
    tree = ast.parse(source)
    problems: list[str] = []
    random_aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in FORBIDDEN_MODULES:
                    problems.append(f"line {node.lineno}: import {alias.name}")
                if alias.name == "random":
                    random_aliases.add(alias.asname or "random")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = node.module.split(".")[0]
            if top in FORBIDDEN_MODULES:
                problems.append(f"line {node.lineno}: from {node.module} import ...")
            if node.module == "random":
                for alias in node.names:
                    if alias.name not in ALLOWED_RANDOM_NAMES:
                        problems.append(
                            f"line {node.lineno}: from random import {alias.name} (global state)"
                        )
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in random_aliases
            and node.attr not in ALLOWED_RANDOM_NAMES
        ):
            problems.append(f"line {node.lineno}: random.{node.attr} uses the global generator")
    return problems


def test_engine_has_modules() -> None:
    assert ENGINE_MODULES, f"no modules found under {ENGINE_DIR}"


@pytest.mark.parametrize("path", ENGINE_MODULES, ids=_module_id)
def test_engine_module_is_pure(path: Path) -> None:
    problems = forbidden_uses(path.read_text(encoding="utf-8"))
    assert not problems, f"{_module_id(path)}: " + "; ".join(problems)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import flask", 1),
        ("from werkzeug.exceptions import NotFound", 1),
        ("import redis.client as rc", 1),
        ("import random\nx = random.random()", 1),
        ("import random as r\nr.shuffle([])", 1),
        ("from random import shuffle", 1),
        ("import random\ndef f(rng: random.Random) -> None: ...", 0),
        ("from random import Random\nrng = Random(7)", 0),
        ("import json, dataclasses", 0),
        ("from .cards import parse_card", 0),
    ],
)
def test_detector(source: str, expected: int) -> None:
    assert len(forbidden_uses(source)) == expected
