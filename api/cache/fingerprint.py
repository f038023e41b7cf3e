"""The code fingerprint: a hash of every source file of ``engine`` and ``api``, computed once.

Cache keys are namespaced by it, so a build whose rules logic, schemas or messages changed in any
way never serves an answer an older build stored in a shared Redis (and never skips its own
validation through an older alias). Nobody has to remember to bump a version string.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

PACKAGE_ROOTS = ("engine", "api")
FINGERPRINT_CHARS = 16


def fingerprint_of(root: Path, packages: tuple[str, ...] = PACKAGE_ROOTS) -> str:
    """sha256 over (relative path, content) of every ``*.py`` and ``*.c`` (the engine's
    compiled twins) under ``root/<package>``, sorted."""
    digest = hashlib.sha256()
    for package in packages:
        sources = [*(root / package).rglob("*.py"), *(root / package).rglob("*.c")]
        for path in sorted(sources):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:FINGERPRINT_CHARS]


@cache
def code_fingerprint() -> str:
    """This build's fingerprint (16 hex digits), hashed once per process."""
    return fingerprint_of(Path(__file__).resolve().parents[2])  # the repository root
