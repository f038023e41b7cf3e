"""Which drop timing the advised seat learns for each opponent, deal after deal.

    python -m bench.drop_timing --game game-flip-flop --players 3 \\
        --styles self,strong,never,random --deals 200 --seed 1

Plays the advisor (seat 0) against each panel style as ``python -m bench.tournament --panel``
does (the same deals for the same seed), learning its opponents' profiles at the end of every
deal (``engine.advice.tunk.profile``: the hands shown at a knock or drop, or the cards of a
player that went out), and prints every ``--every`` deals each opponent's weight of
"drops when likely lowest" (``engine.advice.tunk.styles.drop_style``) and, in brackets, its
weights of the fixed-total styles (never, at 5, at 10, at random). A player that drops on a
fixed total should settle low on the first and high on its own total, one that drops when it
reads itself as lowest high on the first.
"""

from __future__ import annotations

import argparse
import random

from bench.tournament import (
    Memory,
    deal_seed,
    opponents,
    out_learner,
    play_deal,
    profile_learner,
)
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import Policy
from engine.sim.policies import STYLES, AdvisorPolicy

Weights = tuple[float | None, tuple[float, float, float, float] | None]


def learned_weights(
    game: str, players: int, style: str, deals: int, seed: int, every: int
) -> list[tuple[Weights, ...]]:
    """The opponents' learned drop timing (seats 1..): the weight of "drops when likely
    lowest" and the fixed-total styles' weights, after every ``every`` deals against ``style``."""
    memory = Memory()
    out: list[tuple[Weights, ...]] = []
    for d in range(deals):
        rng = random.Random(deal_seed(seed, d, style))
        advisor = AdvisorPolicy(game, random.Random(rng.getrandbits(64)))
        advisor.learn(memory.learned)
        policies: list[Policy] = [advisor, *opponents(game, players, style, None, rng)]
        learn, learn_out = profile_learner(memory, d), out_learner(memory, d)
        play_deal(game, policies, d % players, rng, None, [0, 0], learn, learn_out)
        if (d + 1) % every == 0:
            known = memory.learned
            out.append(
                tuple(
                    (
                        known.drop_styles[s] if s < len(known.drop_styles) else None,
                        known.drop_totals[s] if s < len(known.drop_totals) else None,
                    )
                    for s in range(1, players)
                )
            )
    return out


def shown(weights: Weights) -> str:
    """One seat's learned timing: "likely lowest" weight, then the fixed styles' in brackets."""
    lowest, totals = weights
    if lowest is None:
        return "-"
    if totals is None:
        return f"{lowest:.2f}"
    return f"{lowest:.2f} [" + " ".join(f"{w:.2f}" for w in totals) + "]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=(GAME_FLIP_FLOP, TRIPLE_TUNK), default=GAME_FLIP_FLOP)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--styles", default="self,strong,never,random")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=20, help="print the weights every N deals")
    ns = ap.parse_args()
    print(
        f"{ns.game}, {ns.players} players, seed {ns.seed}: each opponent's learned weight of "
        f'"drops when likely lowest" [never, at 5, at 10, at random] every {ns.every} deals '
        f"(seats 1..{ns.players - 1})"
    )
    for style in ns.styles.split(","):
        if style not in STYLES:
            raise SystemExit(f"unknown style {style!r}; choose from {', '.join(STYLES)}")
        rows = learned_weights(ns.game, ns.players, style, ns.deals, ns.seed, ns.every)
        text = " | ".join(" ".join(shown(w) for w in seats) for seats in rows)
        print(f"  {style:9s} {text}", flush=True)


if __name__ == "__main__":
    main()
