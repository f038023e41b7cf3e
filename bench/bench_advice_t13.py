"""Latency of Three Thirteen discard and draw advice for 14-card hands, and the work-cap probe.

Usage: ``python -m bench.bench_advice_t13 [--hands N] [--seed S] [--decks D ...] [--no-probe]``

Hands are random round-11 hands (kings wild): 14 cards for the discard advice (after the draw),
13 for the draw advice, with four cards on the discard pile and one known pickup of the next
player. Each call runs at the default settings with the deadwood memo cleared first ("cold",
what a request with a new hand costs; the group pattern tables, which do not depend on the
hand, stay warm as in a running worker); p50 / p90 / p99 / max are printed in milliseconds of
CPU time (process time, so other load on the machine does not count) and of wall time, with the
mean number of samples the answers report. Targets: discard p50 <= 20 ms and p99 <= 60 ms,
draw p50 <= 5 ms.

The probe then runs the largest accepted settings (discard ``samples`` = ``MAX_SAMPLES``; draw
``samples`` = ``MAX_STOCK_SAMPLES`` with the smallest useful ``precision``) on round-11 hands
from two decks, cold, and prints the slowest request and the most samples used. A real draw
stops sampling once its choice is clear, so the probe also forces the most work a draw can do:
the take's evaluation and stock cards until ``MAX_STOCK_SAMPLES`` or the work cap.
The bound is 1 s of CPU time (wall time is printed too; on a shared machine it includes other
work).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.advice.t13.discard import (
    _discard,
    t13_discard_advice,
)
from engine.advice.t13.draw import (
    _after_draw,
    _bases,
    _stock_value,
    t13_draw_advice,
)
from engine.advice.t13.params import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    MAX_SAMPLES,
    MAX_STOCK_SAMPLES,
)
from engine.advice.t13.situation import (
    T13Situation,
    unseen_for,
)
from engine.advice.t13.value import clear_caches

TARGETS = {"discard": (20.0, 60.0), "draw": (5.0, None)}
PROBE_MS = 1000.0


def situations(n: int, seed: int, decks: int, size: int) -> list[T13Situation]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(range(52)) * decks
        rng.shuffle(deck)
        hand = tuple(deck[:size])
        pile = tuple(deck[size : size + 4])
        known = (tuple(deck[size + 4 : size + 5]),)
        players = 2 if decks == 1 else 3
        out.append(
            T13Situation(hand, 11, players=players, decks=decks, discard_pile=pile, known=known)
        )
    return out


def forced_worst_draw(s: T13Situation) -> int:
    """The most work a draw request can do at the largest settings: the take's evaluation and
    the stock's sampling run until ``MAX_STOCK_SAMPLES`` cards or the work cap
    (``DRAW_WORK_CAP``; ``_stock_value`` with no take value to stop at, which a real request
    reaches only when the choice stays open). Returns the stock cards valued."""
    unseen = unseen_for(s)
    bases = _bases(s, unseen)
    top = s.discard_pile[0]
    _discard(_after_draw(s, top, from_pile=True), DEFAULT_SEED, DEFAULT_SAMPLES, False, bases, top)
    got = _stock_value(
        s, unseen, DEFAULT_SEED, DEFAULT_SAMPLES, MAX_STOCK_SAMPLES, 1e-9, None, bases
    )
    return got[5]


def timed(
    call: Callable[[T13Situation], int], items: list[T13Situation]
) -> tuple[list[float], list[float], list[int]]:
    """CPU and wall milliseconds of each call with a cold memo, and the samples reported."""
    cpu, wall, used = [], [], []
    for s in items:
        clear_caches()
        t0 = time.perf_counter()
        c0 = time.process_time()
        used.append(call(s))
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    return cpu, wall, used


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(name: str, result: tuple[list[float], list[float], list[int]]) -> tuple[float, float]:
    cpu, wall, used = result
    for label, values in (("cpu", cpu), ("wall", wall)):
        print(
            f"  {name:<26} {label:<4} p50 {statistics.median(values):7.1f}  p90 "
            f"{quantile(values, 0.9):7.1f}  p99 {quantile(values, 0.99):7.1f}  max "
            f"{max(values):7.1f} ms  ({len(values)} hands, mean samples "
            f"{statistics.fmean(used):.1f})"
        )
    return statistics.median(cpu), quantile(cpu, 0.99)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--decks", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--no-probe", action="store_true")
    args = parser.parse_args()
    ok = True
    for decks in args.decks:
        print(f"== round 11, {decks} deck(s), default settings, cold memo per call ==")
        discard = timed(
            lambda s: t13_discard_advice(s).samples,
            situations(args.hands, args.seed, decks, 14),
        )
        draw = timed(
            lambda s: t13_draw_advice(s).samples,
            situations(args.hands, args.seed, decks, 13),
        )
        for name, res in (("discard", discard), ("draw", draw)):
            p50, p99 = report(f"{name} advice, {14 if name == 'discard' else 13} cards", res)
            want50, want99 = TARGETS[name]
            met = p50 <= want50 and (want99 is None or p99 <= want99)
            line = f"p50 {p50:.1f} <= {want50:.0f} ms"
            if want99 is not None:
                line += f", p99 {p99:.1f} <= {want99:.0f} ms"
            print(f"  target {name} (cpu) {line}: {'MET' if met else 'MISSED'}")
            ok = ok and met
    if not args.no_probe:
        n = max(10, args.hands // 5)
        print(
            f"== probe: largest accepted settings, round 11, two decks, {n} hands, cold "
            f"(discard samples={MAX_SAMPLES}; draw samples={MAX_STOCK_SAMPLES}, "
            "precision=0.001) =="
        )
        discard = timed(
            lambda s: t13_discard_advice(s, samples=MAX_SAMPLES).samples,
            situations(n, args.seed + 1, 2, 14),
        )
        draw = timed(
            lambda s: t13_draw_advice(s, samples=MAX_STOCK_SAMPLES, precision=0.001).samples,
            situations(n, args.seed + 1, 2, 13),
        )
        forced = timed(forced_worst_draw, situations(n, args.seed + 1, 2, 13))
        for name, res in (
            ("discard", discard),
            ("draw", draw),
            ("draw, forced to the cap", forced),
        ):
            worst = max(res[0])
            print(
                f"  {name:<24} slowest {worst:7.1f} ms cpu ({max(res[1]):.1f} wall): "
                f"{'within' if worst <= PROBE_MS else 'OVER'} the {PROBE_MS:.0f} ms bound"
                f"  (most samples {max(res[2])})"
            )
            ok = ok and worst <= PROBE_MS
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
