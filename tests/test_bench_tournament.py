"""bench.tournament: which seats learn opponent profiles, so that self-play stays symmetric."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import bench.tournament as tournament
from bench.tournament import learning_seats, opponents
from engine.core.options import GAME_FLIP_FLOP
from engine.sim.core import Policy
from engine.sim.policies import AdvisorPolicy


def _table(style: str, players: int) -> list[Policy]:
    rng = random.Random(3)
    return [
        AdvisorPolicy(GAME_FLIP_FLOP, rng),
        *opponents(GAME_FLIP_FLOP, players, style, None, rng),
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_learns_in_self_play(players: int) -> None:
    assert learning_seats(_table("self", players), "self") == list(range(players))


@pytest.mark.parametrize("style", ["strong", "strong0", "never", "hoarder", "random"])
def test_only_the_advised_seat_learns_against_a_panel_style(style: str) -> None:
    # strong shares the advisor's card play (an AdvisorPolicy) but must not learn: its cells
    # measure the fixed player.
    assert learning_seats(_table(style, 3), style) == [0]


def test_self_play_deals_teach_every_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: Counter[int] = Counter()
    learn = tournament.learn_profiles

    def counting(obs, shown, ender, seed):  # type: ignore[no-untyped-def]
        asked[obs.seat] += 1
        return learn(obs, shown, ender, seed)

    monkeypatch.setattr(tournament, "learn_profiles", counting)
    tournament.run_chunk((GAME_FLIP_FLOP, 3, 0, 6, 1, 200, None, 0.0, "self"))
    assert set(asked) == {0, 1, 2} and len(set(asked.values())) == 1
    asked.clear()
    tournament.run_chunk((GAME_FLIP_FLOP, 3, 0, 6, 1, 200, None, 0.0, "strong"))
    assert set(asked) == {0}
