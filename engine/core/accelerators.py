"""The engine's optional compiled parts: each is loaded here or, when it was not built (no C
compiler at install) or ``TUNK_PURE_PYTHON`` is set (non-empty), replaced by its pure-Python
twin, which gives the same answers (``setup.py`` builds them; the tests check each pair).

Each compiled file sits beside its Python twin: ``engine/standard/_solver.c`` beside
``engine/standard/solver.py`` (``_CardSolver``), ``engine/standard/_deadwood.c`` beside
``engine/standard/deadwood.py`` (``min_deadwood_py``), ``engine/advice/tunk/_keeptable.c``
beside ``engine/advice/tunk/value.py`` (the Triple Tunk kept-hand tables), and
``engine/advice/tunk/_sampler.c`` beside ``engine/advice/tunk/common.py``
(``HandSampler.sample_py``, the opponents' hidden-hand draws)."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

COMPILED = (
    "engine.standard._solver",
    "engine.standard._deadwood",
    "engine.advice.tunk._keeptable",
    "engine.advice.tunk._sampler",
)


def load(name: str) -> ModuleType | None:
    """The compiled module ``name`` (one of :data:`COMPILED`), or None: use the Python path."""
    if os.environ.get("TUNK_PURE_PYTHON"):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def loaded() -> dict[str, bool]:
    """Whether each compiled part runs in this process (False: its Python twin does)."""
    return {name: load(name) is not None for name in COMPILED}
