"""Latency of Three Thirteen discard and draw advice for 14-card hands (issue 4 speed target).

Usage: ``python bench/bench_advice_t13.py [--hands N] [--seed S] [--samples K] [--decks D]``

Hands are random round-11 hands (kings wild): 14 cards for the discard advice (after the draw),
13 for the draw advice, with a few cards on the discard pile and one known pickup of the next
player. Each call is timed with the deadwood memo cleared first ("cold", what a request with a
new hand costs) and the p50 / p90 / max are printed in milliseconds. Target: p50 <= 150 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.advice.t13 import (  # noqa: E402 (after the sys.path line)
    DEFAULT_SAMPLES,
    T13Situation,
    clear_caches,
    t13_discard_advice,
    t13_draw_advice,
)

TARGET_MS = 150.0


def situations(n: int, seed: int, decks: int, size: int) -> list[T13Situation]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(range(52)) * decks
        rng.shuffle(deck)
        hand = tuple(deck[:size])
        pile = tuple(deck[size : size + 4])
        known = (tuple(deck[size + 4 : size + 5]),)
        out.append(T13Situation(hand, 11, players=2, decks=decks, discard_pile=pile, known=known))
    return out


def timed(
    fn: Callable[..., object], items: list[T13Situation], samples: int
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each call, with a cold deadwood memo."""
    wall = []
    cpu = []
    for s in items:
        clear_caches()
        t0 = time.perf_counter()
        c0 = time.process_time()
        fn(s, seed=1, samples=samples)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    return wall, cpu


def report(name: str, times: tuple[list[float], list[float]]) -> float:
    for label, values in zip(("wall", "cpu"), times, strict=True):
        q = statistics.quantiles(values, n=10)
        p50 = statistics.median(values)
        print(
            f"  {name:<26} {label:<4} p50 {p50:7.1f} ms   p90 {q[8]:7.1f} ms"
            f"   max {max(values):7.1f} ms   ({len(values)} hands)"
        )
    return statistics.median(times[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--decks", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    ok = True
    for decks in args.decks:
        print(f"== round 11, {decks} deck(s), samples={args.samples} (cold memo per call) ==")
        discard = timed(
            t13_discard_advice, situations(args.hands, args.seed, decks, 14), args.samples
        )
        draw = timed(t13_draw_advice, situations(args.hands, args.seed, decks, 13), args.samples)
        p1 = report("discard advice, 14 cards", discard)
        p2 = report("draw advice, 13+1 cards", draw)
        for name, p in (("discard", p1), ("draw", p2)):
            verdict = "PASS" if p <= TARGET_MS else "FAIL"
            print(f"  target {name} p50 <= {TARGET_MS:.0f} ms: {verdict}")
            ok = ok and p <= TARGET_MS
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
