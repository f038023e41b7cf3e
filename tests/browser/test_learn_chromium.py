"""The ``/learn`` teaching page in Debian's headless Chromium: the journeys a learner takes.

A real gunicorn serves the app; ``tests/browser/learn_journeys.mjs`` drives Chromium through
playwright-core (npm, pinned in package-lock.json; ``scripts/test`` runs ``npm ci``) and prints
what each journey saw, asserted here: a seeded Game Flip Flop hand with a wrong meld built by
dragging gets the verdict naming GFF-2 and opens the rule's text; a Triple Tunk hand with wilds
shows each wild's provenance (TT-3); a drop question shows a probability with its 95% interval; a
Three Thirteen round shows its wild rank (T13-1); the keyboard alone completes a check; bad input
is explained in words; no console errors. Screenshots are saved in ``tests/browser/artefacts/``
(``docs/img/learn-*.png`` are copies of two of them).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import REPO_ROOT, GunicornProcess, start_gunicorn

CHROMIUM = next(
    (
        path
        for path in ("/usr/lib/chromium/chromium", shutil.which("chromium"))
        if path and Path(path).exists()
    ),
    None,
)
NODE = shutil.which("node")
PLAYWRIGHT = REPO_ROOT / "node_modules" / "playwright-core"
ARTEFACTS = REPO_ROOT / "tests" / "browser" / "artefacts"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (scripts/test)"),
    pytest.mark.skipif(NODE is None, reason="node is not installed (scripts/test)"),
    pytest.mark.skipif(
        not PLAYWRIGHT.exists(), reason="node_modules missing (scripts/test runs `npm ci`)"
    ),
]


@pytest.fixture(scope="module")
def journeys(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Run every journey once against a live gunicorn; what the page showed, by journey."""
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    service: GunicornProcess = start_gunicorn(log, {"REDIS_URL": "", "WEB_CONCURRENCY": "2"})
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    try:
        assert NODE is not None and CHROMIUM is not None
        done = subprocess.run(
            [
                NODE,
                "tests/browser/learn_journeys.mjs",
                f"http://127.0.0.1:{service.port}",
                str(ARTEFACTS),
                CHROMIUM,
            ],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        service.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    yield result


def _ok(journeys: dict[str, Any], name: str) -> dict[str, Any]:
    seen: dict[str, Any] = journeys[name]
    assert "error" not in seen, seen.get("error")
    return seen


def test_seeded_gff_wrong_meld_names_the_rule_and_opens_its_text(journeys: dict[str, Any]) -> None:
    seen = _ok(journeys, "gff_check")
    assert seen["url"].endswith("/learn/?game=game-flip-flop&seed=7&players=3")  # shareable
    assert seen["dealt"] == ["JH", "10S", "QC", "5H", "7C"]  # seed 7 deals the same hand
    assert seen["meld"] == ["JH", "10S", "QC"]  # built by dragging
    assert seen["valid"] == "false"
    assert seen["rule"] == "GFF-2"
    assert "neither a set nor a run (GFF-2)" in seen["verdict"]
    assert seen["ruleTitle"] == "GFF-2: Spreads"
    assert seen["ruleText"].startswith("A spread is either a set")
    assert seen["panelFocused"] == "rule-panel"  # focus moves to the panel ...
    assert seen["panelHidden"] is True  # ... and Escape closes it
    assert seen["scrollWidth"] == 375  # nothing wider than a 375 px phone


def test_triple_tunk_wilds_show_their_provenance(journeys: dict[str, Any]) -> None:
    seen = _ok(journeys, "tt_wilds")
    assert seen["shown"] == ["RH1", "KH2", "RH3", "YT4", "GB4", "BS1"]
    assert seen["labels"][1] == "black heart 2 (wild colour)"
    assert seen["labels"][4] == "green blob 4 (wild shape)"
    assert seen["provenance"] == [
        "GB4: blob stands for heart, number 4 in the sequence (TT-3)",
        "KH2: black colour is wild, number 2 in the sequence (TT-3)",
    ]
    assert "Deadwood 5 points (C-2)" in seen["answer"]


def test_gff_drop_shows_probability_with_interval(journeys: dict[str, Any]) -> None:
    seen = _ok(journeys, "gff_drop")
    match = re.fullmatch(
        r"Chance your total is lowest: (\d+)% \(95% interval (\d+)% to (\d+)%\)", seen["text"]
    )
    assert match, seen["text"]
    p, low, high = (int(x) for x in match.groups())
    assert low <= p <= high and high - low > 0
    assert seen["bar"] == seen["text"]  # the bar's accessible name says the same
    assert seen["errorShown"] is False  # the opponents' known pickups were accepted ...
    assert seen["withPickups"].startswith("Chance your total is lowest: ")  # ... and answered
    assert seen["fill"].endswith("%") and abs(float(seen["fill"][:-1]) - p) < 1  # bar length


def test_three_thirteen_round_shows_wild_rank(journeys: dict[str, Any]) -> None:
    seen = _ok(journeys, "t13_round")
    assert seen["note"] == "Round 3: 5 cards dealt; 5s are wild (T13-1)."
    assert seen["round"] == "3" and seen["option"] == "Round 3: 5 cards, 5s wild"
    assert len(seen["dealt"]) == 5
    assert seen["note7"] == "Round 7: 9 cards dealt; 9s are wild (T13-1)."
    assert len(seen["dealt7"]) == 9
    assert seen["url"].endswith("round=7")
    nines = [c for c in seen["dealt7"] if c.startswith("9")]
    assert len(seen["wildLabels"]) == len(nines)


def test_keyboard_alone_completes_a_check(journeys: dict[str, Any]) -> None:
    seen = _ok(journeys, "keyboard")
    assert seen["skip"] == "Skip to the hand"
    assert seen["first"] == "7H"
    assert seen["selected"] == ["7H", "8H", "9H"]
    assert seen["onButton"] == "new-meld"
    assert seen["afterMeld"] == "check"  # focus goes on to Check
    assert seen["meld"] == ["7H", "8H", "9H"]
    assert seen["valid"] == "true" and "a legal run (GFF-2)" in seen["verdict"]
    assert seen["meldAfterKey"] == ["7H", "8H", "9H", "7S"]  # key "1" on a card


def test_errors_are_shown_in_words(journeys: dict[str, Any]) -> None:
    seen = _ok(journeys, "errors")
    assert seen["typed"].startswith("Not sent: the request needs fixing first.")
    assert '"ZZ" is not a card' in seen["typed"]
    assert seen["refused"].startswith("The service refused the request (HTTP 422")
    assert "table[0].cards: not a spread" in seen["refused"]


def test_no_console_errors_and_screenshots_saved(journeys: dict[str, Any]) -> None:
    assert journeys["problems"] == []
    # The one refused call is the error journey's own (Chromium logs every 4xx it fetches).
    assert [r.rsplit("/", 1)[-1] for r in journeys["refusals"]] == ["discard"]
    for name in ("gff-verdict", "gff-rule", "tt-wilds", "gff-drop", "t13-round", "keyboard"):
        assert (ARTEFACTS / f"learn-{name}.png").stat().st_size > 5000, name
