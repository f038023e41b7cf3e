"""Paired Triple Tunk deals: the advisor with the look-ahead against the advisor without it.

    python -m bench.search_pairs --players 3 --styles strong,never --deals 1200 --seed 2

Every deal is played twice from the same seeds (the tournament's ``deal_seed``): once with the
one-step card play, once with :mod:`engine.advice.tunk.search` on the discard (``--draw``: also
on the draw; ``--no-discard``: the draw alone). Only the decisions the search changes make the
two plays differ, so the paired difference in net per deal and in top-place share is far less
noisy than two separate tournaments. Prints one line per style: deals whose outcome changed,
the mean net and share with and without, the paired differences with 95% intervals, and the
CPU milliseconds (p50 / p99 / max) of the searched decisions.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from bench.tournament import deal_seed, top_share
from engine.advice.situation import Observation
from engine.advice.tunk.search import DEFAULT_SEARCH, SearchBudget
from engine.core.options import TRIPLE_TUNK
from engine.sim.policies import AdvisorPolicy, panel_policy
from engine.sim.tt import play_tt_deal

OFF = SearchBudget(candidates=1)  # asks for a seed like the search, never searches


class _Timed(AdvisorPolicy):
    """The advisor recording the CPU milliseconds of its draws and discards."""

    times: dict[str, list[float]]

    def take_discard(self, obs: Observation) -> bool:
        t0 = time.process_time()
        answer = super().take_discard(obs)
        self.times["draw"].append((time.process_time() - t0) * 1000)
        return answer

    def discard(self, obs: Observation) -> int:
        t0 = time.process_time()
        answer = super().discard(obs)
        self.times["discard"].append((time.process_time() - t0) * 1000)
        return answer


def _interval(xs: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width."""
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
    return m, 1.96 * math.sqrt(var / len(xs))


def _speed(xs: list[float]) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    return f"{xs[len(xs) // 2]:.2f}/{xs[min(len(xs) - 1, int(len(xs) * 0.99))]:.1f}/{xs[-1]:.0f}"


def run(ns: argparse.Namespace) -> None:
    budget = SearchBudget(
        candidates=ns.candidates, margin=ns.margin, samples=ns.samples, z=ns.z, horizon=ns.horizon
    )
    n = ns.players
    for style in ns.styles.split(","):
        times: dict[str, list[float]] = {"draw": [], "discard": []}
        diffs: list[float] = []
        share_diffs: list[float] = []
        nets: list[list[float]] = [[], []]
        shares: list[list[float]] = [[], []]
        changed = 0
        for d in range(ns.deals):
            outcome = []
            for on in (False, True):
                rng = random.Random(deal_seed(ns.seed, d, style))
                disc = budget if on and ns.discard else OFF
                draw = budget if on and ns.draw else None
                cls = _Timed if on else AdvisorPolicy
                hero = cls(TRIPLE_TUNK, random.Random(rng.getrandbits(64)), search=disc)
                hero.draw_search = draw
                if on:
                    hero.times = times  # type: ignore[attr-defined]
                seats = [hero] + [
                    panel_policy(style, TRIPLE_TUNK, random.Random(rng.getrandbits(64)))
                    for _ in range(n - 1)
                ]
                net = play_tt_deal(seats, d % n, rng).game_net
                outcome.append(net)
                nets[on].append(net[0])
                share = top_share(net, 0)
                if share is not None:
                    shares[on].append(share)
            changed += outcome[0] != outcome[1]
            diffs.append(outcome[1][0] - outcome[0][0])
            a, b = top_share(outcome[1], 0), top_share(outcome[0], 0)
            share_diffs.append((a or 0.0) - (b or 0.0))
        dm, dh = _interval(diffs)
        sm, sh = _interval(share_diffs)
        net_off, net_on = sum(nets[0]) / ns.deals, sum(nets[1]) / ns.deals
        share_off = sum(shares[0]) / len(shares[0])
        share_on = sum(shares[1]) / len(shares[1])
        print(
            f"{style:8s} {n}p deals {ns.deals} changed {changed}: "
            f"net {net_off:+.3f} -> {net_on:+.3f} (diff {dm:+.4f} +-{dh:.4f}); "
            f"share {share_off:.3f} -> {share_on:.3f} (diff {sm:+.4f} +-{sh:.4f}); "
            f"CPU ms p50/p99/max discard {_speed(times['discard'])}, draw {_speed(times['draw'])}",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--styles", default="strong")
    ap.add_argument("--deals", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--candidates", type=int, default=DEFAULT_SEARCH.candidates)
    ap.add_argument("--margin", type=float, default=DEFAULT_SEARCH.margin)
    ap.add_argument("--samples", type=int, default=DEFAULT_SEARCH.samples)
    ap.add_argument("--z", type=float, default=DEFAULT_SEARCH.z)
    ap.add_argument("--horizon", type=int, default=DEFAULT_SEARCH.horizon)
    ap.add_argument("--draw", action="store_true", help="search the draw too")
    ap.add_argument("--no-discard", dest="discard", action="store_false")
    run(ap.parse_args())


if __name__ == "__main__":
    main()
