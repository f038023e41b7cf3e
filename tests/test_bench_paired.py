"""bench.paired: an unchanged setting changes no deal, a changed one reaches the advised seat
only, and every override is undone."""

from __future__ import annotations

import pytest

import engine.advice.tunk.value as tunk_value
from bench.paired import Patched, applied, parse_override, run_style, t13_game, tunk_deal
from engine.core.options import TRIPLE_TUNK


def test_parse_override_reads_module_name_and_literal() -> None:
    module, name, value = parse_override("engine.advice.tunk.value.DANGER_POINTS=8.5")
    assert module is tunk_value and name == "DANGER_POINTS" and value == 8.5


@pytest.mark.parametrize(
    "text",
    [
        "DANGER_POINTS=1",
        "engine.advice.tunk.value.NO_SUCH=1",
        "engine.advice.tunk.value.OUT_POINTS=x+",
    ],
)
def test_parse_override_refuses_what_it_cannot_apply(text: str) -> None:
    with pytest.raises(ValueError):
        parse_override(text)


def test_applied_restores_the_old_value_even_after_an_error() -> None:
    before = tunk_value.DANGER_POINTS
    with pytest.raises(RuntimeError), applied([(tunk_value, "DANGER_POINTS", before + 3)]):
        assert before + 3 == tunk_value.DANGER_POINTS
        raise RuntimeError
    assert before == tunk_value.DANGER_POINTS


def test_patched_policy_sees_the_override_only_inside_its_calls() -> None:
    class Probe:
        label = "probe"

        def read(self) -> float:
            return tunk_value.DANGER_POINTS

    before = tunk_value.DANGER_POINTS
    patched = Patched(Probe(), [(tunk_value, "DANGER_POINTS", before + 1)])
    assert patched.read() == before + 1
    assert patched.label == "probe"
    assert before == tunk_value.DANGER_POINTS


def test_the_current_value_changes_no_deal() -> None:
    same = [(tunk_value, "DANGER_POINTS", tunk_value.DANGER_POINTS)]
    pairs = run_style(lambda d, ov: tunk_deal(TRIPLE_TUNK, 3, "strong", 5, d, ov), 40, 1 / 3, same)
    assert pairs.changed == 0
    assert pairs.nets[0] == pairs.nets[1]


def test_dropping_the_out_bonus_changes_play() -> None:
    # Without the chance to tunk out in its value (TT-11) the advisor keeps other cards.
    no_out = [(tunk_value, "OUT_POINTS", {**tunk_value.OUT_POINTS, TRIPLE_TUNK: 0.0})]
    pairs = run_style(
        lambda d, ov: tunk_deal(TRIPLE_TUNK, 3, "strong", 5, d, ov), 60, 1 / 3, no_out
    )
    assert pairs.changed > 0


def test_three_thirteen_pairs_match_the_tournament_when_unchanged() -> None:
    import engine.advice.t13.value as t13_value

    same = [(t13_value, "GO_OUT_WEIGHT", t13_value.GO_OUT_WEIGHT)]
    assert t13_game(2, "greedy", 3, 0, same) == t13_game(2, "greedy", 3, 0, [])
