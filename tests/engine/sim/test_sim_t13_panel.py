"""The Three Thirteen opponent panel and self-play: every style plays legal games for 2 and 3
players, self-play nets to zero, and a last turn may keep every card (T13-5)."""

from __future__ import annotations

import random

import pytest

from engine.core.options import ThreeThirteenRules
from engine.sim.t13 import T13View, play_game, play_round
from engine.sim.t13_policies import PANEL, AdvisorT13Policy, BaselineT13Policy


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("style", sorted(PANEL))
def test_every_panel_style_plays_legal_rounds(style: str, players: int) -> None:
    policies = [PANEL[style](random.Random(i)) for i in range(players)]
    result = play_game(policies, random.Random(5), rounds=(1, 4, 8))
    assert len(result.rounds) == 3 and len(result.totals) == players
    assert abs(sum(result.nets())) < 1e-9


def test_self_play_seats_net_to_zero() -> None:
    policies = [AdvisorT13Policy(seed=i) for i in range(3)]
    result = play_game(policies, random.Random(11), rounds=(1, 2, 3))
    nets = result.nets()
    assert abs(sum(nets)) < 1e-9
    # The net is the others' mean total minus one's own.
    t = result.totals
    assert nets[0] == pytest.approx((t[1] + t[2]) / 2 - t[0])


class _Keeper(BaselineT13Policy):
    """Greedy, but keeps every card on a last turn."""

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        if view.out_seat is not None and view.out_seat != view.seat:
            return None, False
        return super().discard(view)


class _NeverDiscards(BaselineT13Policy):
    def discard(self, view: T13View) -> tuple[int | None, bool]:
        return None, False


def test_a_last_turn_may_keep_every_card() -> None:
    rules = ThreeThirteenRules()
    result = play_round(
        1, [_Keeper(), _Keeper()], random.Random(3), dealer=0, decks=1, rules=rules, totals=(0, 0)
    )
    assert result.went_out is not None
    other = 1 - result.went_out
    assert len(result.final_hands[other]) == 4  # r+3 cards: drew and kept (T13-5)


def test_keeping_before_anyone_went_out_is_rejected() -> None:
    with pytest.raises(ValueError, match="only a last turn may keep"):
        play_round(
            1,
            [_NeverDiscards(), _NeverDiscards()],
            random.Random(3),
            dealer=0,
            decks=1,
            rules=ThreeThirteenRules(),
            totals=(0, 0),
        )
