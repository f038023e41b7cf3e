"""The Tunk draw's stock mean (GFF-7, TT-10): a control-variate estimate of one value function.

The stock line is the mean, over the unseen cards, of the value of the hand after drawing each
(``Evaluator.hand_value``, what ``discard`` answers for that hand). The sample measures only
that value less ``Evaluator.stock_proxy`` (the deadwood after the card and the best discard, or
the value of ending when the hand can then be emptied), whose mean over the unseen cards is
exact. Checked on real mid-deal situations of simulated baseline deals:

- the proxy's stated mean is its mean over the unseen cards;
- with every card in (``precision`` 0) the estimate is the exact mean of the hand values;
- from eight cards it is closer to that mean than the plain mean of the same cards' values,
  over many seeds (the reason it is used).
"""

from __future__ import annotations

import random
import statistics

import pytest

from engine.advice.situation import Observation
from engine.advice.tunk.draw import _order, stock_estimate
from engine.advice.tunk.value import Evaluator
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.gff import play_gff_deal
from engine.sim.policies import BaselinePolicy
from engine.sim.tt import play_tt_deal


class _Recorder(BaselinePolicy):
    """A baseline player that keeps the observations it had before each draw."""

    def __init__(self, game: str) -> None:
        super().__init__(game)
        self.draws: list[Observation] = []

    def take_discard(self, obs: Observation) -> bool:
        self.draws.append(obs)
        return super().take_discard(obs)


def _draw_situations(game: str, want: int, seed: int) -> list[Observation]:
    rng = random.Random(seed)
    rec = _Recorder(game)
    deal = 0
    while len(rec.draws) < want and deal < 50 * want:
        if game == GAME_FLIP_FLOP:
            play_gff_deal([rec, BaselinePolicy(game)], deal % 2, rng)
        else:
            play_tt_deal([rec, BaselinePolicy(game), BaselinePolicy(game)], deal % 3, rng)
        deal += 1
    # Hands of five before the draw, the size ``stock_prep`` takes.
    return [o for o in rec.draws if len(o.hand) == 5][:want]


SITUATIONS = {game: _draw_situations(game, 12, 5) for game in (GAME_FLIP_FLOP, TRIPLE_TUNK)}
GAMES = sorted(SITUATIONS)


def _values(ev: Evaluator, hand: tuple[int, ...]) -> dict[int, float]:
    return {c: ev.hand_value((*hand, c)).value for c in ev.unseen}


@pytest.mark.parametrize("game", GAMES)
def test_the_proxy_mean_is_its_mean_over_the_unseen_cards(game: str) -> None:
    for obs in SITUATIONS[game]:
        ev = Evaluator(obs)
        prep = ev.stock_prep(tuple(obs.hand))
        mean = statistics.fmean(ev.stock_proxy(prep, c) for c in ev.unseen)
        assert prep.proxy_mean == pytest.approx(mean, abs=1e-9)


@pytest.mark.rule("GFF-7", "TT-10")
@pytest.mark.parametrize("game", GAMES)
def test_every_card_in_gives_the_exact_mean_of_the_hand_values(game: str) -> None:
    for obs in SITUATIONS[game]:
        ev = Evaluator(obs)
        hand = tuple(obs.hand)
        est = stock_estimate(ev, hand, precision=0)
        assert est.samples == est.population == len(ev.unseen)
        assert est.half_width == 0.0
        assert est.value == pytest.approx(statistics.fmean(_values(ev, hand).values()), abs=1e-9)


@pytest.mark.parametrize("game", GAMES)
def test_eight_cards_estimate_the_mean_better_than_their_plain_mean(game: str) -> None:
    plain_errors: list[float] = []
    estimate_errors: list[float] = []
    for obs in SITUATIONS[game]:
        ev = Evaluator(obs)
        hand = tuple(obs.hand)
        values = _values(ev, hand)
        exact = statistics.fmean(values.values())
        cards = list(ev.unseen)
        for seed in range(25):
            est = stock_estimate(ev, hand, seed=seed, precision=0, cap=8)
            assert est.samples == 8
            drawn = [values[cards[i]] for i in _order(seed, len(cards))[:8]]
            plain_errors.append((statistics.fmean(drawn) - exact) ** 2)
            estimate_errors.append((est.value - exact) ** 2)
    assert statistics.fmean(estimate_errors) < 0.8 * statistics.fmean(plain_errors)
