"""Time the Triple Tunk hand analysis (iter_tt_melds + best_tt_arrangement) on random 6-card hands.

Run: ``python -m bench.bench_tt [hands] [seed]``; prints median / p90 / mean in microseconds.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from engine.core.topper import DECK
from engine.games.tt.arrange import best_tt_arrangement, tt_min_deadwood
from engine.games.tt.melds import iter_tt_melds


def _time_each(hands: list[list[int]], fn: object, repeat: int = 5) -> list[float]:
    """Best-of-``repeat`` time per hand in microseconds."""
    out: list[float] = []
    clock = time.perf_counter
    for hand in hands:
        best = float("inf")
        for _ in range(repeat):
            t0 = clock()
            fn(hand)  # type: ignore[operator]
            best = min(best, clock() - t0)
        out.append(best * 1e6)
    return out


def _full(hand: list[int]) -> None:
    list(iter_tt_melds(hand))
    best_tt_arrangement(hand)


def _report(name: str, times: list[float]) -> None:
    times = sorted(times)
    p90 = times[int(len(times) * 0.9)]
    print(
        f"{name:<40} median {statistics.median(times):6.1f} us   p90 {p90:6.1f} us   "
        f"max {times[-1]:7.1f} us   mean {statistics.fmean(times):6.1f} us"
    )


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 20261129)
    hands = [rng.sample(DECK, 6) for _ in range(count)]
    # Meld-rich hands: six cards sharing colour and shape (every subset melds).
    rich = [
        [c * 25 + s * 5 + n for n in range(5)] + [c * 25 + 4 * 5]
        for c in range(4)
        for s in range(4)
    ]
    print(f"{count} random 6-card hands, seed-fixed; times are best of 5 runs per hand")
    _report("iter_tt_melds + best_tt_arrangement", _time_each(hands, _full))
    _report("  same, single run per hand", _time_each(hands, _full, repeat=1))
    _report(
        "best_tt_arrangement(max_ties=5)", _time_each(hands, lambda h: best_tt_arrangement(h, 5))
    )
    _report("tt_min_deadwood", _time_each(hands, tt_min_deadwood))
    _report("full analysis, meld-rich hands", _time_each(rich * 50, _full))


if __name__ == "__main__":
    main()
