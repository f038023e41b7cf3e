"""How much reading the opponents' hands can be worth in Three Thirteen: the advice shown them.

    python -m bench.t13_seer --players 2 --style strong --games 600 --seed 11 --jobs 2

The advice samples the hidden hands it cannot see (``engine.advice.t13.opponents``: known
pickups plus unseen cards, weighted away from the neighbours of a player's discards). A search
over hidden information can at best learn those hands exactly. This bench plays whole games
(the tournament's seeds, ``bench.tournament_t13``) with the advised seat played two ways:

- ``advice``: as the service advises;
- ``seer``: the same advice, but every opponent's whole hand is given to it as known cards
  (``T13View.known``), so its danger model and its stock odds work on the real hands. It does
  not know the order of the stock.

The seer's margin over the advice bounds what any inference of the hidden hands can add to
this valuation: if the seer falls short of a target, better reading of the opponents does not
reach it.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from bench.tournament_t13 import ADVISOR, seat_policy
from engine.advice.t13.params import DEFAULT_SAMPLES
from engine.core.stats import mean_interval, wilson_interval
from engine.sim.t13 import Snapshot, T13Policy, T13View, play_game

MODES = ("advice", "seer")


class Seer:
    """Wraps a player so that each view it gets holds every opponent's whole hand as known
    cards; ``on_step`` must see every step of the round (``play_game(on_step=...)``)."""

    def __init__(self, inner: T13Policy) -> None:
        self.inner = inner
        self.hands: tuple[tuple[int, ...], ...] = ()

    def on_step(self, snapshot: Snapshot) -> None:
        self.hands = snapshot.hands

    def reveal(self, view: T13View) -> T13View:
        known = tuple(
            view.known[s] if s == view.seat else self.hands[s] for s in range(view.n_players)
        )
        return replace(view, known=known)

    def take_discard(self, view: T13View) -> bool:
        return self.inner.take_discard(self.reveal(view))

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        return self.inner.discard(self.reveal(view))


def play_one(players: int, style: str, seed: int, g: int, mode: str) -> tuple[float, float]:
    """Game ``g``: (the advised seat's share of the win, its net: the others' mean final total
    less its own). Seeds and seats as in ``bench.tournament_t13.play_one``."""
    rng = random.Random(seed * 1_000_003 + g)
    seat = g % players
    policies: list[T13Policy] = []
    seer: Seer | None = None
    for i in range(players):
        policy = seat_policy(ADVISOR if i == seat else style, seed, g, i, DEFAULT_SAMPLES)
        if i == seat and mode == "seer":
            seer = Seer(policy)
            policy = seer
        policies.append(policy)
    result = play_game(policies, rng, on_step=seer.on_step if seer is not None else None)
    share = 1 / len(result.winners) if seat in result.winners else 0.0
    return share, result.nets()[seat]


def run_games(args: tuple[int, str, int, str, int, int]) -> list[tuple[float, float]]:
    players, style, seed, mode, start, stop = args
    return [play_one(players, style, seed, g, mode) for g in range(start, stop)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--style", default="strong", help="the panel style in every other seat")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=1)
    ns = ap.parse_args()
    print(
        f"three-thirteen {ns.players} players against {ns.style}, {ns.games} games, seed {ns.seed}"
    )
    step = -(-ns.games // max(ns.jobs, 1))
    for mode in MODES:
        parts = [
            (ns.players, ns.style, ns.seed, mode, lo, min(lo + step, ns.games))
            for lo in range(0, ns.games, step)
        ]
        with ProcessPoolExecutor(max(ns.jobs, 1)) as pool:
            games = [g for part in pool.map(run_games, parts) for g in part]
        shares = [s for s, _ in games]
        lo, hi = wilson_interval(sum(shares), len(shares))
        net, net_lo, net_hi = mean_interval([n for _, n in games])
        print(
            f"  {mode:<7} share {sum(shares) / len(shares):.3f} [{lo:.3f}, {hi:.3f}]  "
            f"net {net:+.1f} [{net_lo:+.1f}, {net_hi:+.1f}] points a game",
            flush=True,
        )


if __name__ == "__main__":
    main()
