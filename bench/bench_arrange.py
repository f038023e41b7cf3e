"""Benchmark of the standard-deck arrangement search: prints median / p99 / max µs per scenario.

Run: ``python -m bench.bench_arrange [--hands N] [--cold]`` from the repo root. Seeded, one
process; ``--cold`` empties the small lru caches before every call (the default keeps them warm,
as a long-running server or simulation would).
Targets (brief): T13 round 11 two decks 14 cards median <= 150 µs, max of 10,000 <= 20 ms;
adversarial hand <= 50 ms; GFF 6-card full analysis (melds + best) median <= 50 µs.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable, Sequence

from engine.core.cards import parse_cards
from engine.core.options import ThreeThirteenRules
from engine.standard import melds as std_melds
from engine.standard import search as std_search
from engine.standard.arrange import best_arrangement
from engine.standard.deadwood import min_deadwood
from engine.standard.melds import StdContext, gff_context, iter_legal_melds, t13_context

Hand = list[int]
_COLD = False  # --cold: every call starts with empty caches (describe, sub-multisets, set combos)


def _clear_caches() -> None:
    std_melds._describe_sorted.cache_clear()
    std_melds.sub_multisets.cache_clear()
    std_melds._subs_by_size.cache_clear()
    std_search._set_combos.cache_clear()


Timing = tuple[list[float], list[float]]


def _time_each(hands: Sequence[Hand], fn: Callable[[Hand], object]) -> Timing:
    """Microseconds per call of ``fn`` on each hand: (wall clock, this thread's CPU time).

    CPU time is the fair figure on a shared machine: wall time also counts the moments other
    processes hold the core.
    """
    wall, cpu = [], []
    clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
    for hand in hands:
        if _COLD:
            _clear_caches()
        c0 = cpu_clock()
        t0 = clock()
        fn(hand)
        t1 = clock()
        c1 = cpu_clock()
        wall.append((t1 - t0) / 1e3)
        cpu.append((c1 - c0) / 1e3)
    return wall, cpu


def _figures(micros: list[float]) -> str:
    ordered = sorted(micros)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    rate = len(micros) / (sum(micros) / 1e6)
    return (
        f"median {statistics.median(micros):7.1f}  p99 {p99:8.1f}  max {ordered[-1]:8.1f} µs"
        f"  {rate:7.0f}/s"
    )


def _report(name: str, timing: Timing) -> None:
    wall, cpu = timing
    print(f"{name} (n={len(wall)})")
    print(f"    cpu   {_figures(cpu)}")
    print(f"    wall  {_figures(wall)}")


def _t13_hands(rng: random.Random, count: int) -> list[Hand]:
    deck = list(range(52)) * 2
    return [rng.sample(deck, 14) for _ in range(count)]


def _gff_hands(rng: random.Random, count: int) -> list[Hand]:
    return [rng.sample(range(52), 6) for _ in range(count)]


ADVERSARIAL = {
    "12 spades + KS KH (2 decks)": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS KH",
    "10 spades + 4 kings": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S KS KH KD KC",
    "9 spades + 5 kings": "AS 3S 4S 5S 7S 8S 9S 10S QS KS KS KH KD KC",
    "8 spades + 6 kings": "AS 2S 4S 5S 7S 8S 10S JS KS KS KH KH KD KC",
    "spades+hearts gaps + 4 kings": "AS 3S 5S 7S 9S JS 2H 4H 6H 8H KS KH KD KC",
    "pairs everywhere + 3 kings": "AS AH 3S 3D 5S 5C 7H 7D 9S 9C JH KS KH KD",
    # The slowest of 3,000 suit-heavy hands found by a random search (wild is the lowest card).
    "KH KH + 2 decks of clubs": "KH KH AC AC 2C 2C 4C 5C 6C 7C 8C 9C 10C QC",
    "KS KS KC KC + diamonds": "KS KS AD 2D 3D 4D 5D 6D 7D 8D 9D JD KC KC",
}


def _best_with(ctx: StdContext) -> Callable[[Hand], object]:
    return lambda hand: best_arrangement(hand, ctx)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument(
        "--cold", action="store_true", help="clear the engine's small caches before every call"
    )
    args = parser.parse_args()
    global _COLD
    _COLD = args.cold
    rng = random.Random(20261129)
    gc.collect()
    gc.freeze()  # long-lived setup objects stay out of the collector's way, as in a server
    t13 = t13_context(11, ThreeThirteenRules())
    t13_high = t13_context(11, ThreeThirteenRules(aces="high_or_low"))
    gff = gff_context()

    hands = _t13_hands(rng, args.hands)
    _report(
        "T13 r11 2 decks 14 cards best_arrangement",
        _time_each(hands, lambda h: best_arrangement(h, t13)),
    )
    _report(
        "T13 r11 2 decks 14 cards min_deadwood", _time_each(hands, lambda h: min_deadwood(h, t13))
    )
    _report(
        "T13 r11 aces high_or_low best_arrangement",
        _time_each(hands, lambda h: best_arrangement(h, t13_high)),
    )
    many = [
        h[:10] + [rng.randrange(4) * 13 + 12 for _ in range(4)] for h in hands[: args.hands // 5]
    ]
    _report(
        "T13 r11 14 cards with 4 kings best_arrangement",
        _time_each(many, lambda h: best_arrangement(h, t13)),
    )

    gffs = _gff_hands(rng, args.hands)

    def gff_full(hand: Hand, ctx: StdContext = gff) -> None:
        list(iter_legal_melds(hand, ctx))
        best_arrangement(hand, ctx)

    _report("GFF 6 cards iter_legal_melds + best", _time_each(gffs, gff_full))
    _report("GFF 6 cards min_deadwood", _time_each(gffs, lambda h: min_deadwood(h, gff)))

    for name, text in ADVERSARIAL.items():
        hand = list(parse_cards(text.split()))
        for label, ctx in (("low", t13), ("high", t13_high)):
            _report(f"adversarial {name} [{label}]", _time_each([hand] * 5, _best_with(ctx)))


if __name__ == "__main__":
    main()
