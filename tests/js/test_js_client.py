"""The JavaScript client (``clients/js``): Node's test runner against a live gunicorn, ``tsc
--noEmit`` over the generated types, the generated operation table up to date, and the spec's card
patterns accepting what the service reads.

``scripts/test`` runs ``npm ci`` (openapi-typescript, typescript, playwright-core); without
``node`` or ``node_modules`` the Node parts are skipped with the reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from engine.core.cards import DECK, card_name
from engine.core.deck import STANDARD, TRIPLE_TOPPER
from engine.core.topper import DECK as TOPPER_DECK
from engine.core.topper import topper_card_name
from tests.support.processes import REPO_ROOT, GunicornProcess, start_gunicorn

NODE = shutil.which("node")
TSC = REPO_ROOT / "node_modules" / ".bin" / "tsc"
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
needs_modules = pytest.mark.skipif(
    not TSC.exists(), reason="node_modules missing (scripts/test runs `npm ci`)"
)


def _run(argv: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, env=env or None
    )


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GunicornProcess]:
    """A real gunicorn serving the app, no Redis, two workers."""
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    running = start_gunicorn(log, {"REDIS_URL": "", "WEB_CONCURRENCY": "2"})
    yield running
    running.stop()


@needs_node
@pytest.mark.slow
def test_node_test_runner_against_live_service(service: GunicornProcess) -> None:
    assert NODE is not None
    env = {**os.environ, "TUNK_BASE_URL": f"http://127.0.0.1:{service.port}"}
    done = _run([NODE, "--test", "clients/js/test"], env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"^# fail 0$", done.stdout, re.M), done.stdout[-2000:]
    assert re.search(r"^# skipped 0$", done.stdout, re.M), done.stdout[-2000:]
    assert int(re.search(r"^# pass (\d+)$", done.stdout, re.M).group(1)) >= 11  # type: ignore[union-attr]


@needs_node
@needs_modules
def test_tsc_no_emit_is_clean() -> None:
    done = _run([str(TSC), "--noEmit", "-p", "clients/js"])
    assert done.returncode == 0, done.stdout + done.stderr


@needs_node
@needs_modules
def test_generated_types_are_current(tmp_path: Path) -> None:
    fresh = tmp_path / "openapi.d.ts"
    tool = REPO_ROOT / "node_modules" / ".bin" / "openapi-typescript"
    argv = [str(tool), "openapi.yaml", "--default-non-nullable", "false", "-o", str(fresh)]
    done = _run(argv)
    assert done.returncode == 0, done.stderr
    committed = (REPO_ROOT / "clients" / "js" / "openapi.d.ts").read_text(encoding="utf-8")
    assert fresh.read_text(encoding="utf-8") == committed, "run `npm run types`"


def test_operation_table_is_current() -> None:
    from clients.js.generate import SPEC, outputs

    files = outputs(yaml.safe_load(SPEC.read_text(encoding="utf-8")))
    assert {path.name for path in files} == {"operations.js", "operations.d.ts"}
    for path, text in files.items():
        assert path.read_text(encoding="utf-8") == text, "run `python clients/js/generate.py`"


def _card_patterns() -> dict[str, set[str]]:
    """Every distinct card pattern in the spec, by deck (told apart by a sample card)."""
    spec = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                found.add(node["pattern"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec)
    return {
        "standard": {p for p in found if re.search(p, "10H")},
        "topper": {p for p in found if re.search(p, "RH3")},
    }


def test_spec_card_patterns_accept_every_short_spelling() -> None:
    patterns = _card_patterns()
    assert patterns == {"standard": {STANDARD.pattern}, "topper": {TRIPLE_TOPPER.pattern}}
    standard = re.compile(STANDARD.pattern)
    topper = re.compile(TRIPLE_TOPPER.pattern)
    for card in DECK:
        name = card_name(card)
        spellings = {
            name,
            name.lower(),
            f" {name} ",
            name.replace("10", "T"),
            name.replace("10", "0"),
        }
        for text in spellings:
            assert standard.match(text), text
            assert STANDARD.parse(text) == card
        assert not topper.match(name)
    for symbol, letter in zip("♠♥♦♣", "SHDC", strict=True):
        assert standard.match("Q" + symbol) and STANDARD.parse("Q" + symbol) == STANDARD.parse(
            "Q" + letter
        )
    for card in TOPPER_DECK:
        name = topper_card_name(card)
        for text in (name, name.lower()):
            assert topper.match(text), text
            assert TRIPLE_TOPPER.parse(text) == card
        assert not standard.match(name)
    for bad in ("1S", "11H", "ZZ", "10", "AS AS", "RH5", "XH1", "RH"):
        assert not standard.match(bad) and not topper.match(bad), bad
    # Spelled-out Triple Topper cards are read by the service but outside the pattern.
    assert TRIPLE_TOPPER.parse("red heart 3") == TRIPLE_TOPPER.parse("RH3")
    assert not topper.match("red heart 3")


def test_every_request_hand_is_bounded() -> None:
    spec = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    bounds = {}
    for name, schema in spec["components"]["schemas"].items():
        hand = schema.get("properties", {}).get("hand")
        if name.endswith("Request") and hand is not None:
            bounds[name] = (hand.get("minItems"), hand.get("maxItems"))
    assert bounds["GffMeldsRequest"] == (1, 6)  # five dealt plus the drawn card (GFF-7)
    assert bounds["TtKnockRequest"] == (1, 6)  # TT-10
    assert bounds["T13DiscardRequest"] == (1, 14)  # round 11 deals 13, plus the draw (T13-1)
    assert bounds["GffEarlyTunkRequest"] == (5, 5)  # the dealt hand (GFF-4)
    assert all(low is not None and high is not None for low, high in bounds.values()), bounds
