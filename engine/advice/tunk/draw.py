"""Draw advice for the Tunk games (GFF-7, TT-10): take the top discard or draw from the stock.

Both choices are valued with the one hand evaluation of :mod:`engine.advice.tunk.value`:

- taking the top discard X is worth the value of the hand with X, i.e. exactly what ``discard``
  answers for that hand (its best discard's score, or the value of ending the play now);
- the stock is worth the mean of the same value over the unseen cards, each equally likely to
  be the next stock card. It is estimated from a seeded sample of them with a control variate:
  the deadwood each card would leave after the best discard (or the ending value, for a card
  that lets the hand be emptied) is known for every unseen card at once from the hand's keep
  table, so only the value less that figure is sampled - the same mean, far less variance.

The advice takes the discard when that value is lower. When the best discard after taking X is
X itself (C-5 allows throwing it straight back), the line is a pass; the advice says so, with
the reason, instead of leaving the follow-up ``discard`` to undo it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from engine.advice.situation import Observation
from engine.advice.tunk.value import Evaluator, HandValue, card_text
from engine.core.stats import Z95


@dataclass(frozen=True, slots=True)
class DrawAdvice:
    """``take_discard`` with the value of each choice (lower is better) and the deadwood of
    each line. ``discard_after_take`` is the card the discard advice throws after taking (None:
    no discard, or the take ends the play); ``throw_back`` marks a pass (take X, throw X back).
    """

    take_discard: bool
    discard_top: int | None
    deadwood_now: int
    deadwood_if_take: int | None
    expected_deadwood_if_stock: float
    explanation: str
    value_if_take: float | None = None
    value_if_stock: float = 0.0
    discard_after_take: int | None = None
    ends_if_take: str | None = None
    throw_back: bool = False
    stock_cards: int = 0
    stock_half_width: float = 0.0
    hand_value: float = 0.0  # Evaluator.keep(hand).value: what knock weighs for playing on


def _deadwood_of(hv: HandValue) -> int:
    """Deadwood left by the line a hand value recommends (0 when it ends the play)."""
    if hv.ends is not None:
        return 0
    return hv.options[0].keep.deadwood


DEFAULT_DRAW_PRECISION = 0.25  # 95% half-width of the stock value, in value points
MIN_STOCK_SAMPLES = 8


@dataclass(frozen=True, slots=True)
class StockEstimate:
    """The stock line: mean value and deadwood over the stock cards evaluated, the 95%
    half-width of the mean (0 when every unseen card was evaluated) and how many were."""

    value: float
    deadwood: float
    half_width: float
    samples: int
    population: int


_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}
_ORDERS_LIMIT = 4096


def _order(seed: int, n: int) -> tuple[int, ...]:
    """``random.Random(seed).shuffle`` of ``range(n)``: the order depends only on its seed and
    the length, so it is memoised (shuffling the cards applies the same permutation)."""
    got = _ORDERS.get((seed, n))
    if got is None:
        perm = list(range(n))
        random.Random(seed).shuffle(perm)
        got = tuple(perm)
        if len(_ORDERS) >= _ORDERS_LIMIT:
            _ORDERS.clear()
        _ORDERS[(seed, n)] = got
    return got


def stock_estimate(
    ev: Evaluator,
    hand: tuple[int, ...],
    *,
    seed: int = 0,
    precision: float = DEFAULT_DRAW_PRECISION,
    cap: int | None = None,
    against: float | None = None,
) -> StockEstimate:
    """Mean of the hand value of ``hand`` + c over the unseen cards c (each equally likely to
    be the next stock card). Cards are taken in a seeded random order without replacement until
    the 95% half-width (with the finite-population correction, so it is 0 once every card is
    in) reaches ``precision``, or the interval clears ``against`` (the other choice's value),
    or ``cap`` cards were evaluated. ``precision`` 0: every unseen card (the exact mean)."""
    cards = list(ev.unseen)
    n_all = len(cards)
    if not n_all:
        k = ev.keep(hand)
        return StockEstimate(k.value, float(k.deadwood), 0.0, 0, 0)
    cards = [cards[i] for i in _order(seed, n_all)]
    limit = n_all if cap is None else max(1, min(cap, n_all))
    total = total_sq = dead = 0.0
    n = 0
    half = 0.0
    prep = ev.stock_prep(hand)
    # Control variate: only the value less ev.stock_proxy (whose mean is exact) is sampled.
    base = prep.proxy_mean
    proxy = ev.stock_proxy
    for c in cards[:limit]:
        v, d = ev.after_draw(prep, hand, c)  # == ev.hand_value((*hand, c), quick=True)
        v -= proxy(prep, c)
        total += v
        total_sq += v * v
        dead += d
        n += 1
        if n >= MIN_STOCK_SAMPLES and n < n_all:
            mean = total / n
            var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
            half = Z95 * math.sqrt(var / n * (n_all - n) / (n_all - 1))
            if var == 0 and n < 3 * MIN_STOCK_SAMPLES:
                continue  # identical values so far: no evidence of spread yet
            if (precision > 0 and half <= precision) or (
                against is not None and abs(against - base - mean) > half
            ):
                break
    if n == n_all:
        half = 0.0
    elif n < MIN_STOCK_SAMPLES and n > 1:
        mean = total / n
        var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
        half = Z95 * math.sqrt(var / n * (n_all - n) / (n_all - 1))
    return StockEstimate(base + total / n, dead / n, half, n, n_all)


def draw_advice(
    obs: Observation,
    evaluator: Evaluator | None = None,
    *,
    seed: int = 0,
    precision: float = DEFAULT_DRAW_PRECISION,
    cap: int | None = None,
    settle: bool = True,
) -> DrawAdvice:
    """Take the top discard or draw from the stock, for ``obs.hand`` before the draw.

    The stock's value is estimated by :func:`stock_estimate` (``seed``, ``precision``, ``cap``);
    with ``settle`` it also stops once its interval clears the value of taking the discard.
    """
    ev = evaluator if evaluator is not None else Evaluator(obs)
    hand = tuple(obs.hand)
    now = ev.model.deadwood(hand)
    top = obs.discards[0] if obs.discards else None
    taken = ev.hand_value((*hand, top)) if top is not None else None
    est = stock_estimate(
        ev,
        hand,
        seed=seed,
        precision=precision,
        cap=cap,
        against=taken.value if taken is not None and settle else None,
    )
    stock_value, stock_dead, n = est.value, est.deadwood, est.samples
    if top is None or taken is None:
        return DrawAdvice(
            False,
            None,
            now,
            None,
            stock_dead,
            f"Draw from the stock: the discard pile is empty (value {stock_value:.2f}).",
            None,
            stock_value,
            stock_cards=n,
            stock_half_width=est.half_width,
            hand_value=ev.keep(hand).value,
        )
    take = taken.value < stock_value
    name = card_text(obs.game, top)
    after = taken.discard
    throw_back = take and taken.ends is None and after == top
    if not take:
        text = (
            f"Draw from the stock: its cards are worth {stock_value:.2f} on average (about "
            f"{stock_dead:.1f} deadwood points), against {taken.value:.2f} for taking {name}."
        )
    elif taken.ends is not None:
        how = "tunk out" if taken.ends == "tunk_out" else "go out"
        text = f"Take {name}: it lets you {how} this turn."
    elif throw_back:
        text = (
            f"Take {name} to deny it and throw it back (a pass, C-5): keeping your hand is "
            f"worth {taken.value:.2f}, while a stock card is worth {stock_value:.2f} on average "
            "- most of them would not improve the hand and the card you would then throw is "
            "likelier to help the next player."
        )
    else:
        text = (
            f"Take {name} and discard {card_text(obs.game, after) if after is not None else '-'}"
            f": it leaves {_deadwood_of(taken)} deadwood points (value {taken.value:.2f}), "
            f"against {stock_value:.2f} on average from the stock (about {stock_dead:.1f} "
            "deadwood points)."
        )
    return DrawAdvice(
        take,
        top,
        now,
        _deadwood_of(taken),
        stock_dead,
        text,
        taken.value,
        stock_value,
        after,
        taken.ends,
        throw_back,
        n,
        est.half_width,
        ev.keep(hand).value,
    )


__all__ = [
    "DEFAULT_DRAW_PRECISION",
    "DrawAdvice",
    "StockEstimate",
    "draw_advice",
    "stock_estimate",
]
