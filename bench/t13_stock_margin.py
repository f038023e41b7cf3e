"""How far one stock card's estimate of the Three Thirteen stock mean can be trusted.

    python -m bench.t13_stock_margin --situations 160 --seed 3

The draw advice (``engine/advice/t13/draw.py``) estimates the mean value of the hand
after a
stock draw from a few stock cards: the exact mean of a control variate (the deadwood after
drawing each unseen card and throwing the best one) plus the sampled mean of each card's value
less that deadwood. On random situations with a choice to make (rounds 3-11, one or two decks,
the top discard not thrown straight back) this values every unseen card exactly and prints:

- the spread of a card's value less its control variate (standard deviation per situation:
  median, 90th percentile, largest): how far one card's estimate strays from the exact mean;
- per margin ``M``: over every possible first stock card, how often its estimate is more than
  ``M`` points from the value of taking the top card (the draw then stops after that one card:
  ``CLEAR_MARGIN``), how often that choice differs from the one the exact mean makes, and the
  mean points lost then (the exact stock mean's distance from the take's value);
- per margin (inf: no one-card stop), the whole stopping rule (``engine.advice.t13.draw.
  stock_settled``, default ``samples`` and ``precision``) over ``--orders`` seeded orders of the
  stock cards per situation: how often the choice differs from the exact mean's, the expected
  points lost per draw, and the mean number of stock cards valued.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from engine.advice.t13.discard import _discard
from engine.advice.t13.draw import (
    _after_draw,
    _bases,
    stock_settled,
)
from engine.advice.t13.params import (
    CLEAR_MARGIN,
    DEFAULT_PRECISION,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    DEFAULT_STOCK_SAMPLES,
)
from engine.advice.t13.situation import (
    T13Situation,
    unseen_for,
)
from engine.advice.t13.value import clear_caches


def situation(rng: random.Random, k: int) -> T13Situation:
    round_number = rng.randint(3, 11)
    decks = 1 + k % 2
    deck = list(range(52)) * decks
    rng.shuffle(deck)
    n = round_number + 2
    return T13Situation(
        tuple(deck[:n]),
        round_number,
        players=2 + k % 2,
        decks=decks,
        discard_pile=tuple(deck[n : n + 3]),
        known=(tuple(deck[n + 3 : n + 4]),),
    )


def card_figures(s: T13Situation) -> tuple[float, list[float], list[float]] | None:
    """(value of taking the top card, each unseen card's value, its control variate), or None
    when taking would throw the card straight back (the stock is drawn whatever its mean)."""
    clear_caches()
    unseen = unseen_for(s)
    bases = _bases(s, unseen)
    top = s.discard_pile[0]
    seed, samples = DEFAULT_SEED, DEFAULT_SAMPLES
    take = _discard(_after_draw(s, top, from_pile=True), seed, samples, False, bases, top, unseen)
    if take.discard == top:
        return None
    values: dict[int, float] = {}
    for card in sorted(set(unseen)):
        i = unseen.index(card)
        left = (*unseen[:i], *unseen[i + 1 :])
        after = _after_draw(s, card, from_pile=False)
        values[card] = _discard(after, seed, samples, False, bases, card, left).value
    proxy = bases.memo.after_adding
    return take.value, [values[c] for c in unseen], [float(proxy(bases.whole, c)) for c in unseen]


def whole_rule(
    rows: list[tuple[float, list[float], list[float]]], margin: float, orders: int
) -> tuple[float, float, float]:
    """(share of draws choosing otherwise than the exact mean, expected points lost per draw,
    mean stock cards valued) of the stopping rule with this one-card ``margin``."""
    wrong = draws = cards = 0
    lost = 0.0
    for take, values, proxies in rows:
        n = len(values)
        proxy_mean = statistics.fmean(proxies)
        exact = statistics.fmean(values)
        rng = random.Random(n)
        for _ in range(orders):
            order = list(range(n))
            rng.shuffle(order)
            diffs: list[float] = []
            for i in order:
                diffs.append(values[i] - proxies[i])
                settled = stock_settled(
                    diffs, n, proxy_mean, take, DEFAULT_STOCK_SAMPLES, DEFAULT_PRECISION, margin
                )
                if len(diffs) == n or settled:
                    break
            draws += 1
            cards += len(diffs)
            if (proxy_mean + statistics.fmean(diffs) < take) != (exact < take):
                wrong += 1
                lost += abs(exact - take)
    return wrong / draws, lost / draws, cards / draws


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--situations", type=int, default=160)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--orders", type=int, default=20, help="stock orders per situation")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    for k in range(args.situations):
        got = card_figures(situation(rng, k))
        if got is not None:
            rows.append(got)
    spreads = sorted(
        statistics.pstdev([v - p for v, p in zip(vs, ps, strict=True)]) for _, vs, ps in rows
    )
    median, p90 = spreads[len(spreads) // 2], spreads[int(0.9 * len(spreads))]
    print(f"{len(rows)} situations with a choice (of {args.situations}), seed {args.seed}")
    print(
        f"value less control variate, sd per situation: median {median:.2f}, p90 {p90:.2f}, "
        f"largest {spreads[-1]:.2f} points"
    )
    for margin in (2.0, 3.0, 4.0, CLEAR_MARGIN, 6.0, 8.0):
        fired = wrong = total = 0
        lost = 0.0
        for take, values, proxies in rows:
            proxy_mean = statistics.fmean(proxies)
            exact = statistics.fmean(values)
            for v, p in zip(values, proxies, strict=True):
                total += 1
                estimate = proxy_mean + v - p
                if abs(estimate - take) > margin:
                    fired += 1
                    if (estimate < take) != (exact < take):
                        wrong += 1
                        lost += abs(exact - take)
        mark = "  (CLEAR_MARGIN)" if margin == CLEAR_MARGIN else ""
        print(
            f"margin {margin:4.1f}: one card decides {fired / total:6.1%} of first cards, "
            f"another choice than the exact mean's {wrong} times ({wrong / max(1, fired):.2%}), "
            f"mean loss then {lost / max(1, wrong):.2f} points{mark}"
        )
    for margin in (math.inf, 4.0, CLEAR_MARGIN, 6.0, 8.0):
        share, points, per_draw = whole_rule(rows, margin, args.orders)
        mark = "  (CLEAR_MARGIN)" if margin == CLEAR_MARGIN else ""
        print(
            f"whole rule, one-card margin {margin:4.1f}: another choice than the exact mean's in "
            f"{share:.2%} of draws, {points:.4f} points lost per draw, {per_draw:.2f} stock cards"
            f"{mark}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
