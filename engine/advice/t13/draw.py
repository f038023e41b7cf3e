"""Three Thirteen draw advice: take the top discard or draw from the stock.

Both choices are valued with the value function of :mod:`engine.advice.t13.value`: taking the top
discard ``T`` is worth the value of the hand with ``T`` (exactly the best ``discard`` answer on
that hand: same unseen cards, same seed, same samples), and the stock the mean of the value over
the stock card. On a last turn (no lookahead) the mean is exact; otherwise stock cards are drawn in
a seeded order without replacement until the 95% interval of the mean is narrower than
``precision``, excludes the value of taking, covers every unseen card, reaches ``samples`` cards or
the work cap (``DRAW_WORK_CAP`` deadwood figures); before ``MIN_STOCK_SAMPLES`` cards it stops only
when Student's interval for so few cards (``T_975``, the interval then reported) already excludes
the value of taking, or, after one card (no interval: reported as infinite), when that card's
estimate is more than ``CLEAR_MARGIN`` points from it (:func:`stock_settled`). The mean is a
control-variate estimate: the deadwood after drawing each unseen card and throwing the best one
(read off the hand before the draw, exact over every unseen card) plus the sampled mean of value
minus that deadwood, which varies far less than the value itself
(``tests/engine/advice/test_t13_stock_estimate.py``). Taking a card only to throw it back is never
advised: when the best discard after taking ``T`` is ``T`` itself, the stock is drawn (and, the
choice being clear, its mean comes from ``MIN_STOCK_SAMPLES`` cards).

Everything is deterministic for a given request, ``seed``, ``samples`` and ``precision``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace

from engine.advice.t13.discard import _discard
from engine.advice.t13.opponents import _DrawBases
from engine.advice.t13.params import (
    CLEAR_MARGIN,
    DEFAULT_PRECISION,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    DEFAULT_STOCK_SAMPLES,
    DRAW_WORK_CAP,
    MAX_PRECISION,
    MAX_SAMPLES,
    MAX_STOCK_SAMPLES,
    MIN_STOCK_SAMPLES,
    T_975,
)
from engine.advice.t13.situation import (
    T13DiscardAdvice,
    T13DrawAdvice,
    T13Situation,
    _check,
    _check_budget,
    unseen_for,
)
from engine.advice.t13.value import risk_of
from engine.core.cards import card_name
from engine.core.errors import EngineError
from engine.games.t13.game import GAME
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo


def _bases(situation: T13Situation, unseen: tuple[int, ...] | None = None) -> _DrawBases:
    """The shared profiles of the hand before the draw (the memo of its round and rules) and its
    unseen cards (``unseen_for(situation)``, passed when the caller has them)."""
    ctx = t13_context(situation.round_number, situation.rules)
    if unseen is None:
        unseen = unseen_for(situation)
    return _DrawBases(DeadwoodMemo.for_context(ctx), situation.hand, unseen)


def _after_draw(situation: T13Situation, card: int, *, from_pile: bool) -> T13Situation:
    """The situation once ``card`` is drawn (from the top of the pile or from the stock)."""
    pile = situation.discard_pile[1:] if from_pile else situation.discard_pile
    return replace(situation, hand=(*situation.hand, card), discard_pile=pile)


def t13_draw_advice(
    situation: T13Situation,
    *,
    seed: int = DEFAULT_SEED,
    samples: int = DEFAULT_STOCK_SAMPLES,
    precision: float = DEFAULT_PRECISION,
    danger_samples: int = DEFAULT_SAMPLES,
    figures: bool = True,
) -> T13DrawAdvice:
    """Take the top discard or draw from the stock, for a hand before the draw (r+2 cards).

    Both choices are the value of a hand after the draw (see the module docstring): taking is
    the best ``discard`` answer's value on the hand with the top card (``seed`` and
    ``danger_samples`` as in that request); the stock is its mean over the stock card, sampled
    up to ``samples`` cards or until ``precision``. With ``figures`` False (simulations) the
    stock is not sampled when the choice is already clear (no top card, or taking it would only
    throw it back); the advice is the same, the stock figures are then NaN.

    :raises EngineError: invalid situation, ``samples`` above the work cap or a bad precision.
    """
    _check(situation, (GAME.deal_size(situation.round_number),))
    _check_budget(samples, MAX_STOCK_SAMPLES)
    _check_budget(danger_samples, MAX_SAMPLES, "danger_samples")
    if not 0 < precision <= MAX_PRECISION:
        raise EngineError(f"precision must be > 0 and <= {MAX_PRECISION:g}", field="precision")
    unseen = unseen_for(situation)
    top = situation.discard_pile[0] if situation.discard_pile else None
    bases = _bases(situation, unseen)
    take: T13DiscardAdvice | None = None
    if top is not None:
        take = _discard(
            _after_draw(situation, top, from_pile=True),
            seed,
            danger_samples,
            False,
            bases,
            top,
            unseen,  # the top discard was seen
        )
    passing = take is not None and take.discard == top
    target = None if take is None or passing else take.value
    if target is None:  # the choice is the stock whatever its mean: a few cards for the figure
        samples = min(samples, MIN_STOCK_SAMPLES)
    if not figures and target is None:
        nan = math.nan
        mean, low, high, dw_mean, chance, used, exact = nan, nan, nan, nan, nan, 0, False
    else:
        mean, low, high, dw_mean, chance, used, exact = _stock_value(
            situation, unseen, seed, danger_samples, samples, precision, target, bases
        )
    take_it = take is not None and not passing and take.value < mean
    risk = risk_of(situation.scores, situation.round_number)
    text = _draw_sentence(situation, top, take, passing, take_it, mean, dw_mean)
    return T13DrawAdvice(
        take_it,
        top,
        None if take is None else take.value,
        None if take is None else _kept_deadwood(take),
        None if take is None else take.discard,
        mean,
        (low, high),
        dw_mean,
        chance,
        used,
        exact,
        text,
        len(unseen),
        risk,
    )


def _kept_deadwood(advice: T13DiscardAdvice) -> int:
    """Deadwood left when ``advice`` is followed."""
    if advice.discard is None:
        assert advice.keep_deadwood is not None
        return advice.keep_deadwood
    for o in advice.options:
        if o.card == advice.discard:
            return o.deadwood
    raise AssertionError("the advised discard is one of the options")


def _stock_value(
    situation: T13Situation,
    unseen: tuple[int, ...],
    seed: int,
    danger_samples: int,
    cap: int,
    precision: float,
    target: float | None,
    bases: _DrawBases,
) -> tuple[float, float, float, float, float, int, bool]:
    """Mean value of the hand after a stock draw: (mean, 95% low, high, mean deadwood kept,
    chance of going out, stock cards evaluated, exact)."""
    n = len(unseen)
    if not n:
        return math.inf, math.inf, math.inf, math.inf, 0.0, 0, True
    order = list(unseen)
    random.Random(seed ^ 0x5EED).shuffle(order)
    last_turn = situation.out is not None
    if last_turn:  # no lookahead: cheap, so exact over every distinct card
        cap = n
    cache: dict[int, tuple[float, int, bool]] = {}
    work = 0
    # Control variate: the deadwood after drawing each card and throwing the best one (what the
    # hand before the draw reads directly, for every unseen card) tracks the value closely and
    # its mean over the unseen cards is exact, so only the difference is estimated by sampling.
    proxy: dict[int, float] = {}
    proxy_mean = 0.0
    if not last_turn:
        after = bases.memo.after_adding
        for card in set(order):
            proxy[card] = float(after(bases.whole, card))
        work += len(proxy)
        proxy_mean = sum(proxy[c] for c in order) / n
    diffs: list[float] = []
    dws: list[int] = []
    outs = 0
    for card in order:
        got = cache.get(card)
        if got is None:
            i = unseen.index(card)
            adv = _discard(
                _after_draw(situation, card, from_pile=False),
                seed,
                danger_samples,
                False,
                bases,
                card,
                (*unseen[:i], *unseen[i + 1 :]),  # one copy of the card fewer
            )
            got = (adv.value, _kept_deadwood(adv), adv.go_out)
            cache[card] = got
            work += adv.work
        diffs.append(got[0] - proxy.get(card, 0.0))
        dws.append(got[1])
        outs += got[2]
        k = len(diffs)
        if k == n:
            break
        if not last_turn and stock_settled(diffs, n, proxy_mean, target, cap, precision):
            break
        if not last_turn and work >= DRAW_WORK_CAP:
            break
    k = len(diffs)
    mean = proxy_mean + sum(diffs) / k
    half = _half_width(diffs, n, _quantile(k))
    return mean, mean - half, mean + half, sum(dws) / k, outs / k, k, k == n


def stock_settled(
    diffs: Sequence[float],
    population: int,
    proxy_mean: float,
    target: float | None,
    cap: int,
    precision: float,
    margin: float = CLEAR_MARGIN,
) -> bool:
    """Whether the stock's sampling stops after the stock cards whose value less control
    variate are ``diffs`` (of ``population`` unseen cards; ``target``: the take's value, None
    when there is no choice to make): at ``cap`` cards, once the 95% interval is within
    ``precision`` or excludes ``target`` from ``MIN_STOCK_SAMPLES`` cards on; before that only
    once Student's interval excludes ``target``, or after one card once its estimate is more
    than ``margin`` points from it (``bench/t13_stock_margin.py`` measures this rule)."""
    k = len(diffs)
    mean = proxy_mean + sum(diffs) / k
    if k >= min(cap, MIN_STOCK_SAMPLES):
        half = _half_width(diffs, population)
        return k >= cap or half <= precision or (target is not None and abs(mean - target) > half)
    if target is None:
        return False
    if k == 1:
        return abs(mean - target) > margin
    return abs(mean - target) > _half_width(diffs, population, _quantile(k))


def _quantile(cards: int) -> float:
    """The 97.5% quantile of the stock mean's interval from ``cards`` stock cards: Student's
    below ``MIN_STOCK_SAMPLES`` cards (so few that the normal one would be too narrow)."""
    if 2 <= cards < MIN_STOCK_SAMPLES:
        return T_975[cards - 1]
    return 1.96


def _half_width(values: Sequence[float], population: int, quantile: float = 1.96) -> float:
    """95% half-width of the mean of ``values`` drawn without replacement from ``population``
    (``quantile`` of the normal, or of Student's t for very few values)."""
    k = len(values)
    if k >= population:
        return 0.0
    if k < 2:
        return math.inf
    m = sum(values) / k
    var = sum((v - m) ** 2 for v in values) / (k - 1)
    fpc = (population - k) / (population - 1) if population > 1 else 0.0
    return quantile * math.sqrt(var / k * fpc)


def _draw_sentence(
    situation: T13Situation,
    top: int | None,
    take: T13DiscardAdvice | None,
    passing: bool,
    take_it: bool,
    mean: float,
    dw_mean: float,
) -> str:
    if top is None or take is None:
        return "Draw from the stock: the discard pile is empty."
    name = card_name(top)
    if take_it and take.go_out:
        assert take.discard is not None
        return (
            f"Take {name}: with it you can discard {card_name(take.discard)} and go out now "
            "(T13-5)."
        )
    if passing:
        return (
            f"Draw from the stock: with {name} your best discard would be {name} itself, so "
            "taking it gains nothing a stock card cannot give."
        )
    left = _kept_deadwood(take)
    after = "keep every card" if take.discard is None else f"discard {card_name(take.discard)}"
    if take_it:
        return (
            f"Take {name} and {after}: that hand is worth {take.value:.1f} (deadwood {left}, "
            f"lower is better) against {mean:.1f} on average from a stock card."
        )
    return (
        f"Draw from the stock: a stock card is worth {mean:.1f} on average (about {dw_mean:.1f} "
        f"deadwood points kept) against {take.value:.1f} with {name} ({after}, deadwood {left})."
    )


__all__ = [
    "stock_settled",
    "t13_draw_advice",
]
