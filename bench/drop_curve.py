"""The stopping curve of the "drops when likely lowest" opponent style, measured on the advice.

    python -m bench.drop_curve --game game-flip-flop --players 2,3,4 --deals 1500 --seed 5

The advice in every seat plays deals (``python -m bench.tournament --mix self``). At every turn
start where a seat may drop (GFF-8) or knock (TT-13), this reads how likely lowest that seat's
total is from its own view of the others, as the opponent model rebuilds it
(``engine.advice.tunk.knock.seen_by``: the same table, nothing learned across deals;
:data:`engine.advice.tunk.knock.VIEW_DRAWS` draws of the other hands,
``q = S(t) ** (players - 1)``, ``engine.advice.tunk.styles.likely_lowest``), and counts whether
the seat stopped. Prints the share that stopped per tenth of ``q`` and, per table, the Python
tuple kept in ``engine.advice.tunk.styles.DROP_CURVE``.

Read from the stopping player's own view, the curve is close to a step: the advice plays on
below a q of about 0.7 and stops on most turn starts above 0.9. Read from another player's
view (its opponents' totals as that player draws them, as this measured before) it rose
smoothly, because that view does not hold what the stopping player sees of the asking player.
"""

from __future__ import annotations

import argparse
import random
import sys

from bench.tournament import deal_seed, play_deal
from engine.advice.situation import Observation
from engine.advice.tunk.knock import VIEW_DRAWS, others_totals, seen_by
from engine.advice.tunk.models import model_for
from engine.advice.tunk.styles import likely_lowest
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import Policy
from engine.sim.policies import AdvisorPolicy

BINS = 10
MIN_COUNT = 30  # a tenth seen fewer times takes its neighbour's share


class Stopper(AdvisorPolicy):
    """The advice, counting its own stops per tenth of how likely lowest it reads its total
    (into ``counts``, shared by every seat)."""

    def __init__(self, game: str, rng: random.Random, counts: list[list[int]]) -> None:
        super().__init__(game, rng)
        self.counts = counts

    def knock(self, obs: Observation) -> bool:
        draw = random.Random(hash((obs.turn_number, obs.seat, *obs.hand)))
        players, totals = others_totals(seen_by(obs, obs.seat, obs.hand), draw, VIEW_DRAWS)
        stopped = super().knock(obs)
        if totals:
            q = likely_lowest(totals, model_for(obs.game).total(obs.hand), players)
            row = self.counts[min(BINS - 1, int(q * BINS))]
            row[0] += 1
            row[1] += stopped
        return stopped


def stops(game: str, players: int, deals: int, seed: int) -> list[list[int]]:
    """Per tenth of ``q``: [turn starts seen, stops], over every seat's turn starts."""
    counts = [[0, 0] for _ in range(BINS)]
    for d in range(deals):
        rng = random.Random(deal_seed(seed, d, "self"))
        # seeded as the tournament seeds self-play: one draw from the deal's rng per seat
        policies: list[Policy] = [
            Stopper(game, random.Random(rng.getrandbits(64)), counts) for _ in range(players)
        ]
        play_deal(game, policies, d % players, rng, lambda *_: None, [0, 0])
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
    ap.add_argument("--deals", type=int, default=1500, help="deals per table size")
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
