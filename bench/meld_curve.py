"""The "lays at once" curve of the opponent model: how often a player who lays every meld at once
has still laid none after ``t`` turns of a deal that is still going.

    python -m bench.meld_curve --deals 4000 --seed 5

Baseline players (engine.sim.policies.BaselinePolicy: lay every meld and lay-off at once) play
Game Flip Flop (2, 3 and 4 players) and Triple Tunk (3 and 4 players); at every turn start the
seat's completed turns ``t`` and whether it owns a meld on the table are counted. Prints, per
game, the share of seats with no meld of their own by ``t`` (t = 1..MAX_T) as the Python tuple
kept in engine.advice.tunk.styles.NO_MELD_YET (the likelihood that an opponent who lays at once
shows
no meld after ``t`` turns; a hoarder shows none whatever it holds).
"""

from __future__ import annotations

import argparse
import random
import sys

from engine.advice.situation import Observation
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.gff import play_gff_deal
from engine.sim.policies import BaselinePolicy
from engine.sim.tt import play_tt_deal

MAX_T = 24
MIN_COUNT = 500  # turn counts seen fewer times end the table


class Counter(BaselinePolicy):
    """The baseline, counting (turns played, owns a table meld) at each of its turn starts."""

    def __init__(self, game: str, seen: dict[int, list[int]]) -> None:
        super().__init__(game)
        self.seen = seen

    def knock(self, obs: Observation) -> bool:
        t = obs.turns[obs.seat]
        if 1 <= t <= MAX_T:
            laid = any(m.owner == obs.seat for m in obs.table)
            row = self.seen.setdefault(t, [0, 0])
            row[0] += 1
            row[1] += 0 if laid else 1
        return super().knock(obs)


def curve(game: str, tables: tuple[int, ...], deals: int, seed: int) -> list[float]:
    seen: dict[int, list[int]] = {}
    rng = random.Random(seed)
    for n in tables:
        for d in range(deals):
            pols = [Counter(game, seen) for _ in range(n)]
            if game == GAME_FLIP_FLOP:
                play_gff_deal(pols, d % n, rng)
            else:
                play_tt_deal(pols, d % n, rng)
    out: list[float] = []
    for t in range(1, MAX_T + 1):
        total, none = seen.get(t, [0, 0])
        share = none / max(total, 1)
        print(f"  {game} t={t:2d} n={total:6d} no meld yet {share:.3f}", file=sys.stderr)
        if total < MIN_COUNT:  # too few deals still going: the last value holds
            break
        # Never having laid is a running minimum (the tail's noise must not raise it again).
        out.append(min(none / total, out[-1] if out else 1.0))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=4000, help="deals per table size")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--game", choices=(GAME_FLIP_FLOP, TRIPLE_TUNK), default=None)
    ns = ap.parse_args()
    for game, tables in ((GAME_FLIP_FLOP, (2, 3, 4)), (TRIPLE_TUNK, (3, 4))):
        if ns.game not in (None, game):
            continue
        values = curve(game, tables, ns.deals, ns.seed)
        print(f"{game}: (" + ", ".join(f"{v:.3f}" for v in values) + ")")


if __name__ == "__main__":
    main()
