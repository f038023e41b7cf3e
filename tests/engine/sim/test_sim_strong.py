"""The panel's strong heuristic player and the in-play calibration figures of the bench."""

from __future__ import annotations

import math
import random

import pytest

from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import brier_score, calibration_table, weighted_calibration_gap
from engine.sim.gff import play_gff_deal
from engine.sim.policies import MIN_LIMIT, StrongPolicy, knock_limit, panel_policy
from engine.sim.tt import play_tt_deal


def test_knock_limit_shrinks_with_opponents_down_to_its_floor() -> None:
    assert [knock_limit(5, n) for n in (2, 3, 4, 5, 6)] == [5, 4, 3, 3, 3]
    assert knock_limit(7, 3) == 6
    assert knock_limit(0, 2) == 0  # never knocks / drops
    assert MIN_LIMIT == 3


@pytest.mark.rule("GFF-8")
@pytest.mark.rule("TT-13")
@pytest.mark.parametrize("game", [GAME_FLIP_FLOP, TRIPLE_TUNK])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_strong_player_knocks_exactly_at_its_limit(game: str, players: int) -> None:
    # Every knock / drop question the simulator asks a strong seat: it knocks exactly when its
    # total is at most its limit at this table (and the deal then ends with that knock).
    limit = knock_limit(5, players)
    asked = 0
    for d in range(6):
        rng = random.Random(40 + d)
        seats = [StrongPolicy(game, random.Random(d * 10 + s)) for s in range(players)]
        seen: list[tuple[int, int, bool]] = []

        def hook(
            seat: int,
            totals: tuple[int, ...],
            knocked: bool,
            out: list[tuple[int, int, bool]] = seen,
        ) -> None:
            out.append((seat, totals[seat], knocked))

        if game == GAME_FLIP_FLOP:
            result, _flip, _flop = play_gff_deal(seats, d % players, rng, on_knock=hook, check=True)
        else:
            result = play_tt_deal(seats, d % players, rng, on_knock=hook, check=True)
        assert sum(result.game_net) == 0
        for _seat, total, knocked in seen:
            assert knocked == (total <= limit)
        assert all(not k for _s, _t, k in seen[:-1])  # only the last question may end the deal
        asked += len(seen)
    assert asked > 0


def test_panel_names_the_strong_players() -> None:
    strong = panel_policy("strong", GAME_FLIP_FLOP, random.Random(1))
    never = panel_policy("strong0", TRIPLE_TUNK, random.Random(1))
    assert isinstance(strong, StrongPolicy) and strong.limit == 5
    assert isinstance(never, StrongPolicy) and never.limit == 0


def test_brier_score_and_expected_calibration_error() -> None:
    predicted = [1.0, 0.0, 0.5, 0.5]
    observed = [True, True, False, True]
    assert math.isclose(brier_score(predicted, observed), (0 + 1 + 0.25 + 0.25) / 4)
    assert brier_score([], []) == 0.0
    # Two deciles: 0.05 predicted vs 0.0 observed (3 decisions), 0.95 vs 1/3 (3 decisions).
    rows = calibration_table([0.05] * 3 + [0.95] * 3, [False] * 3 + [True, False, False])
    assert math.isclose(weighted_calibration_gap(rows), (3 * 0.05 + 3 * (0.95 - 1 / 3)) / 6)
