"""The Three Thirteen draw's stock mean: a control-variate estimate of the same value function.

The stock line is the mean, over the unseen cards, of the value of the hand after drawing each
(``t13_discard_advice`` on that hand). It is estimated from a seeded sample of stock cards plus
the exact mean of the deadwood after each card and the best discard (the control variate).
Checked here on random early-round situations, where every unseen card can be valued:

- with every card in, the estimate is the exact mean of the per-card values and its interval
  has width 0 (the control variate cancels out);
- from a few cards, it is closer to the exact mean than the plain mean of the same cards'
  values, over many seeds (the reason it is used), and its interval narrower;
- the per-card values it averages are the discard advice's values (one value function).
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from engine.advice.t13 import draw as t13
from engine.advice.t13.discard import t13_discard_advice
from engine.advice.t13.draw import _after_draw, _bases, _half_width, _stock_value
from engine.advice.t13.params import DEFAULT_SAMPLES
from engine.advice.t13.situation import T13Situation, unseen_for


def _situation(rng: random.Random, round_number: int) -> T13Situation:
    deck = list(range(52))
    rng.shuffle(deck)
    size = round_number + 2
    return T13Situation(
        hand=tuple(deck[:size]),
        round_number=round_number,
        discard_pile=tuple(deck[size : size + 3]),
    )


def _card_values(situation: T13Situation, seed: int) -> dict[int, float]:
    """The value of the hand after drawing each distinct unseen card, from the discard advice."""
    return {
        card: t13_discard_advice(
            _after_draw(situation, card, from_pile=False), seed=seed, samples=DEFAULT_SAMPLES
        ).value
        for card in set(unseen_for(situation))
    }


SITUATIONS = [_situation(random.Random(s), 1 + s % 3) for s in range(6)]


@pytest.fixture(autouse=True)
def _no_work_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lift the draw's work cap, so every card asked for is valued."""
    monkeypatch.setattr(t13, "DRAW_WORK_CAP", 10**9)


@pytest.mark.parametrize("situation", SITUATIONS)
def test_every_card_in_gives_the_exact_mean_of_the_discard_values(
    situation: T13Situation,
) -> None:
    unseen = unseen_for(situation)
    values = _card_values(situation, 13)
    exact = statistics.fmean(values[c] for c in unseen)
    mean, low, high, _dw, _chance, used, is_exact = _stock_value(
        situation, unseen, 13, DEFAULT_SAMPLES, len(unseen), 1e-9, None, _bases(situation)
    )
    assert used == len(unseen) and is_exact
    assert mean == pytest.approx(exact, abs=1e-9)
    assert low == pytest.approx(mean) and high == pytest.approx(mean)


def test_a_few_cards_estimate_the_mean_better_than_their_plain_mean() -> None:
    plain_errors: list[float] = []
    cv_errors: list[float] = []
    plain_widths: list[float] = []
    cv_widths: list[float] = []
    for situation in SITUATIONS:
        unseen = unseen_for(situation)
        values = _card_values(situation, 13)
        exact = statistics.fmean(values[c] for c in unseen)
        bases = _bases(situation)
        for seed in range(40):
            mean, low, high, *_rest, used, _ = _stock_value(
                situation, unseen, seed, DEFAULT_SAMPLES, 4, 1e-9, None, bases
            )
            assert used == 4
            # The same four cards the estimate drew (its seeded order), valued one by one.
            order = list(unseen)
            random.Random(seed ^ 0x5EED).shuffle(order)
            drawn = [values[c] for c in order[:4]]
            plain = statistics.fmean(drawn)
            plain_widths.append(2 * _half_width(drawn, len(unseen)))
            cv_widths.append(high - low)
            plain_errors.append((plain - exact) ** 2)
            cv_errors.append((mean - exact) ** 2)
    assert statistics.fmean(cv_errors) < 0.5 * statistics.fmean(plain_errors)
    assert statistics.median(cv_widths) < statistics.median(plain_widths)


def test_the_stock_stops_before_four_cards_only_when_the_choice_is_clear() -> None:
    # Before MIN_STOCK_SAMPLES stock cards, sampling stops only once the choice is clear: after
    # one card, its estimate more than CLEAR_MARGIN points from the value of taking the top card
    # (no interval: reported infinite); after two or three, Student's interval of those cards
    # (t with k - 1 degrees of freedom) excluding that value, the interval then reported. A
    # draw that went on had no such clear margin at any earlier card.
    rng = random.Random(4)
    stops = {1: 0, 2: 0, 3: 0, "later": 0}
    for k in range(60):
        situation = _situation(rng, 3 + k % 9)
        unseen = unseen_for(situation)
        advice = t13.t13_draw_advice(situation, seed=k)
        if advice.take_value is None or advice.discard_after_take == advice.top:
            continue  # no choice to make: the stock is sampled for its figure only
        bases = _bases(situation, unseen)
        for cards in range(1, min(advice.samples, t13.MIN_STOCK_SAMPLES - 1) + 1):
            mean, low, high, *_rest, used, _ = _stock_value(
                situation, unseen, k, DEFAULT_SAMPLES, cards, 1e-9, None, bases
            )
            assert used == cards
            margin = t13.CLEAR_MARGIN if cards == 1 else high - mean  # Student's, few cards
            if cards == advice.samples:
                assert abs(mean - advice.take_value) > margin
                assert (mean, low, high) == (advice.stock_value, *advice.stock_interval)
                assert math.isinf(high) == (cards == 1)
                stops[cards] += 1
            else:
                assert abs(mean - advice.take_value) <= margin
        if advice.samples >= t13.MIN_STOCK_SAMPLES:
            stops["later"] += 1
    assert stops[1] and stops[2] and stops["later"], stops


def test_the_interval_of_so_few_cards_is_students() -> None:
    # Two or three stock cards: Student's t quantile (12.706 and 4.303) instead of 1.96.
    values = [1.0, 2.0, 4.0]
    normal = _half_width(values, 40)
    assert _half_width(values, 40, t13._quantile(3)) == pytest.approx(normal * 4.303 / 1.96)
    assert t13._quantile(2) == 12.706 and t13._quantile(4) == t13._quantile(12) == 1.96
