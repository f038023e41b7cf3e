"""How often each panel style throws a flexible card: the evidence the opponent model reads for
"keeps the flexible cards whatever their points".

    python -m bench.flexible_discards --players 2 --deals 800 --seed 1

Plays the advisor (seat 0) against each panel style, as ``python -m bench.tournament --panel``
does (the same deals for the same seed), and counts every discard of the other seats: the share
that is a flexible card (``GameModel.flexible``: Triple Tunk's black and blob, TT-3, and ``?``,
TT-4) against the share of flexible cards in the hand it threw from. The advice's own card play
(``self``, ``strong``) keeps them; the styles that throw their highest card throw them about as
often as their points say. ``engine.advice.tunk.styles.KEEPER_THROWS_FLEXIBLE`` and
``POINTS_THROWS_FLEXIBLE`` are read off this table.
"""

from __future__ import annotations

import argparse
import random

from bench.opponent_model import KeptHand
from bench.tournament import deal_seed, opponents, play_deal
from engine.advice.situation import Observation
from engine.advice.tunk.common import model_for
from engine.core.options import TRIPLE_TUNK
from engine.sim.core import Policy
from engine.sim.policies import PANEL_STYLES, AdvisorPolicy


class CountingThrower(KeptHand):
    """A panel policy that counts its discards, the flexible ones among them and the flexible
    share of the hands it threw from (into ``counts``)."""

    def __init__(self, policy: Policy, flexible: frozenset[int], counts: list[float]) -> None:
        super().__init__(policy)
        self._flexible = flexible
        self._counts = counts

    def discard(self, obs: Observation) -> int:
        card = super().discard(obs)
        flexible = self._flexible
        self._counts[0] += 1
        self._counts[1] += card in flexible
        self._counts[2] += sum(c in flexible for c in obs.hand) / len(obs.hand)
        return card


def flexible_shares(
    game: str, players: int, style: str, deals: int, seed: int
) -> tuple[int, float, float]:
    """(discards counted, share of them that were flexible cards, mean flexible share of the
    hands they were thrown from) for the seats of ``style`` beside the advisor."""
    flexible = model_for(game).flexible
    counts = [0.0, 0.0, 0.0]
    for d in range(deals):
        rng = random.Random(deal_seed(seed, d, style))
        advisor = AdvisorPolicy(game, random.Random(rng.getrandbits(64)))
        others = opponents(game, players, style, None, rng)
        policies: list[Policy] = [advisor, *(CountingThrower(p, flexible, counts) for p in others)]
        play_deal(game, policies, d % players, rng, lambda *_: None)
    n = int(counts[0])
    return n, counts[1] / max(n, 1), counts[2] / max(n, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--styles", default=",".join(PANEL_STYLES))
    ap.add_argument("--deals", type=int, default=800)
    ap.add_argument("--seed", type=int, default=1)
    ns = ap.parse_args()
    print(f"{TRIPLE_TUNK}, {ns.players} players, {ns.deals} deals per style, seed {ns.seed}")
    print("  style      discards  flexible thrown  flexible in hand")
    for style in ns.styles.split(","):
        n, thrown, held = flexible_shares(TRIPLE_TUNK, ns.players, style, ns.deals, ns.seed)
        print(f"  {style:9s} {n:9d}  {thrown:15.3f}  {held:16.3f}")


if __name__ == "__main__":
    main()
