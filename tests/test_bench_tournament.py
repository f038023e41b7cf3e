"""bench.tournament: which seats learn opponent profiles, so that self-play stays symmetric."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import bench.tournament as tournament
from bench.tournament import deal_seed, learning_seats, opponents
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import Policy
from engine.sim.policies import HELD_OUT_STYLES, PANEL_STYLES, STYLES, AdvisorPolicy


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


def test_a_deal_that_an_opponent_tunks_out_of_teaches_its_profile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Triple Tunk heads-up against a player that holds its melds: most deals end in a tunk out
    # (TT-11), and the advised seat learns from the tunker's cards, its view taken at the start
    # of that turn.
    outs: list[tuple[int, int, int]] = []
    learn = tournament.learn_from_out

    def counting(obs, seat, revealed, picked, seed):  # type: ignore[no-untyped-def]
        outs.append((obs.seat, seat, len(revealed) - obs.hand_sizes[seat]))
        return learn(obs, seat, revealed, picked, seed)

    monkeypatch.setattr(tournament, "learn_from_out", counting)
    chunk = tournament.run_chunk((TRIPLE_TUNK, 2, 0, 30, 1, 100, None, 0.0, "hoarder"))
    assert outs and len(outs) == chunk.ends["tunk_out"]
    assert all(asker == 0 and extra == 1 for asker, _, extra in outs)
    monkeypatch.setattr(tournament, "LEARN_FROM_OUTS", False)
    outs.clear()
    tournament.run_chunk((TRIPLE_TUNK, 2, 0, 30, 1, 100, None, 0.0, "hoarder"))
    assert outs == []


def test_held_out_styles_leave_the_panel_deals_alone() -> None:
    """The held-out styles come after the panel's, so every panel style keeps its deals."""
    assert STYLES[: len(PANEL_STYLES)] == PANEL_STYLES
    assert set(HELD_OUT_STYLES).isdisjoint(PANEL_STYLES)
    assert deal_seed(1, 0, "strong") == 1 * 1_000_003 + 6 * 1_000_000_007
