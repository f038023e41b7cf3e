"""The stopping curve of the "drops when likely lowest" opponent style, measured on the advice.

    python -m bench.drop_curve --game game-flip-flop --players 2,3,4 --deals 2000 --seed 5

The advice in every seat plays deals (``python -m bench.tournament --mix self``). At each of
seat 0's knock / drop questions this draws :data:`DRAWS` hands of its opponents from the sampler
the win probability uses (``engine.advice.tunk.knock.opponent_sampler``); at every later turn
start of another seat in that deal it reads that seat's real total ``t`` against those draws,
``q = S(t) ** (players - 1)`` with ``S(t)`` the share of the drawn totals above ``t`` (how likely
lowest the opponent model reads that total), and counts whether the seat dropped (GFF-8) or
knocked (TT-13). Prints the share that stopped per tenth of ``q`` and, per table, the Python
tuple kept in ``engine.advice.tunk.styles.DROP_CURVE``.

A player that stops like the advice does not stop at one total: what it knows of the others'
hands differs from what the model reads of its own, so its stops rise smoothly with ``q``.
"""

from __future__ import annotations

import argparse
import random
import sys
from bisect import bisect_right

from bench.tournament import deal_seed, opponents, play_deal
from engine.advice.situation import Observation
from engine.advice.tunk.knock import opponent_sampler
from engine.advice.tunk.models import model_for
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import Policy
from engine.sim.policies import AdvisorPolicy

DRAWS = 200  # draws of the opponents' hands per seat-0 question
BINS = 10
MIN_COUNT = 30  # a tenth seen fewer times takes its neighbour's share


class Asker(AdvisorPolicy):
    """The advice in seat 0, keeping the opponents' drawn totals of its last question."""

    pooled: list[int] | None = None

    def knock(self, obs: Observation) -> bool:
        _, sampler = opponent_sampler(obs)
        pts = model_for(obs.game).points
        draw = random.Random(hash((obs.turn_number, *obs.hand)))
        self.pooled = sorted(
            sum(pts[c] for c in hand) for _ in range(DRAWS) for hand in sampler.sample(draw)
        )
        return super().knock(obs)


def stops(game: str, players: int, deals: int, seed: int) -> list[list[int]]:
    """Per tenth of ``q``: [turn starts seen, stops]."""
    counts = [[0, 0] for _ in range(BINS)]
    for d in range(deals):
        rng = random.Random(deal_seed(seed, d, "self"))
        asker = Asker(game, random.Random(rng.getrandbits(64)))
        policies: list[Policy] = [asker, *opponents(game, players, "self", None, rng)]

        def hook(seat: int, totals: tuple[int, ...], stopped: bool, _a: Asker = asker) -> None:
            pooled = _a.pooled
            if seat == 0 or not pooled:
                return
            share = 1.0 - bisect_right(pooled, totals[seat]) / len(pooled)
            row = counts[min(BINS - 1, int(share ** (players - 1) * BINS))]
            row[0] += 1
            row[1] += stopped

        play_deal(game, policies, d % players, rng, hook, [0, 0])
    return counts


def curve(counts: list[list[int]]) -> list[float]:
    """The stop share per tenth, made non-decreasing (a stop is no less likely at a likelier
    lowest total; the pool-adjacent-violators fit), sparse tenths pooled with their neighbour."""
    blocks: list[list[float]] = []  # [seen, stopped, tenths]
    for seen, stopped in counts:
        blocks.append([float(max(seen, 0)), float(stopped), 1.0])
        while len(blocks) > 1 and (
            blocks[-2][0] < MIN_COUNT
            or blocks[-2][1] * max(blocks[-1][0], 1) >= blocks[-1][1] * max(blocks[-2][0], 1)
        ):
            seen2, stopped2, k2 = blocks.pop()
            blocks[-1][0] += seen2
            blocks[-1][1] += stopped2
            blocks[-1][2] += k2
    if len(blocks) > 1 and blocks[-1][0] < MIN_COUNT:  # a sparse last tenth joins its neighbour
        seen2, stopped2, k2 = blocks.pop()
        blocks[-1][0] += seen2
        blocks[-1][1] += stopped2
        blocks[-1][2] += k2
    out: list[float] = []
    for seen, stopped, k in blocks:
        out += [stopped / seen if seen else 0.0] * int(k)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=(GAME_FLIP_FLOP, TRIPLE_TUNK), default=GAME_FLIP_FLOP)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--deals", type=int, default=2000, help="deals per table size")
    ap.add_argument("--seed", type=int, default=5)
    ns = ap.parse_args()
    for players in (int(p) for p in ns.players.split(",")):
        counts = stops(ns.game, players, ns.deals, ns.seed)
        for b, (seen, stopped) in enumerate(counts):
            share = stopped / seen if seen else 0.0
            print(
                f"  {ns.game} {players}p q {b / BINS:.1f}-{(b + 1) / BINS:.1f} "
                f"n={seen:6d} stopped {share:.3f}",
                file=sys.stderr,
            )
        values = ", ".join(f"{v:.3f}" for v in curve(counts))
        print(f"{ns.game} {players}: ({values})", flush=True)


if __name__ == "__main__":
    main()
