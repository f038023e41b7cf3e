"""How much knock / drop timing can be worth: a seat that sees every hand when it decides.

    python -m bench.knock_oracle --game triple-tunk --players 2,3,4 --styles strong \\
        --deals 4000 --seed 1 --jobs 2

Against the panel's ``strong`` player the advisor plays the same cards (``StrongPolicy`` is
the advisor's card play with a fixed knock total), so the only edge it can have is when it
knocks (TT-13) or drops (GFF-8). This bench bounds that edge from above. On the same deals
(``bench.tournament.deal_seed``) seat 0 is played three ways, each with the advisor's draws,
discards and lay-downs:

- ``advice``: the service's knock / drop advice, as in the tournament;
- ``oracle``: knocks or drops exactly when its total is strictly the lowest at the table *by
  the real hands*, the truth the calibration figures are scored against; no honest player can
  know this, so its share is what perfect knock timing with this card play reaches;
- ``never``: never knocks or drops (the panel's ``strong0`` in seat 0).

For each it prints the top-place share of decisive deals with its Wilson 95% interval and the
ratio to the fair share (``bench.tournament.top_share``), and the mean net per deal. If the
oracle's share falls short of a target, no knock timing reaches it with this card play.
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench.tournament import deal_seed, opponents, top_share
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.stats import mean_interval, wilson_interval
from engine.sim.core import Policy
from engine.sim.policies import AdvisorPolicy
from engine.sim.tunk import strictly_lowest

HEROES = ("advice", "oracle", "never")


class OracleKnocker(AdvisorPolicy):
    """The advisor's card play, knocking / dropping exactly when its total is strictly the
    lowest by the real hands (``deal`` is set to the deal in play before each deal starts)."""

    deal: Any = None

    def knock(self, obs: Any) -> bool:
        self.last_win_probability = None
        return strictly_lowest(self.deal.totals(), obs.seat)


class NeverKnocker(AdvisorPolicy):
    """The advisor's card play, never knocking or dropping."""

    def knock(self, obs: Any) -> bool:
        self.last_win_probability = None
        return False


def hero_policy(hero: str, game: str, rng: random.Random) -> AdvisorPolicy:
    """Seat 0 played as ``hero`` (one of :data:`HEROES`)."""
    if hero == "advice":
        return AdvisorPolicy(game, rng)
    if hero == "oracle":
        return OracleKnocker(game, rng)
    if hero == "never":
        return NeverKnocker(game, rng)
    raise ValueError(f"unknown hero {hero!r}")


def play_one_deal(game: str, policies: list[Policy], dealer: int, rng: random.Random) -> Any:
    """Deal and play one deal, letting an :class:`OracleKnocker` see it; returns the
    ``DealResult`` and the money unit. Dealing here draws the same cards as the simulators'
    own deal from the same ``rng``."""
    n = len(policies)
    if game == GAME_FLIP_FLOP:
        from engine.sim.gff import STAKE, deal_gff, play_gff_deal

        gff = deal_gff(n, dealer, rng)
        for p in policies:
            if isinstance(p, OracleKnocker):
                p.deal = gff
        result, _flip, _flop = play_gff_deal(policies, dealer, rng, start=gff)
        return result, STAKE
    from engine.core.options import TripleTunkRules
    from engine.sim.tt import UNIT, deal_tt, play_tt_deal

    rules = TripleTunkRules()
    tt = deal_tt(n, dealer, rng, rules)
    for p in policies:
        if isinstance(p, OracleKnocker):
            p.deal = tt
    return play_tt_deal(policies, dealer, rng, rules=rules, start=tt), UNIT


@dataclass
class Cell:
    shares: list[float] = field(default_factory=list)
    nets: list[float] = field(default_factory=list)


def run_chunk(args: tuple[str, int, str, str, int, int, int]) -> Cell:
    game, players, style, hero, seed, start, stop = args
    out = Cell()
    for d in range(start, stop):
        rng = random.Random(deal_seed(seed, d, style))
        first = hero_policy(hero, game, random.Random(rng.getrandbits(64)))
        policies: list[Policy] = [first, *opponents(game, players, style, None, rng)]
        result, unit = play_one_deal(game, policies, d % players, rng)
        share = top_share(result.game_net, 0)
        if share is not None:
            out.shares.append(share)
        out.nets.append(result.game_net[0] / unit)
    return out


def measure(
    game: str, players: int, style: str, hero: str, deals: int, seed: int, jobs: int
) -> Cell:
    """``deals`` deals of one cell, split over ``jobs`` processes; the deals do not depend on
    the split."""
    step = -(-deals // max(jobs, 1))
    parts = [
        (game, players, style, hero, seed, lo, min(lo + step, deals))
        for lo in range(0, deals, step)
    ]
    cell = Cell()
    if jobs <= 1:
        chunks = [run_chunk(p) for p in parts]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            chunks = list(pool.map(run_chunk, parts))
    for c in chunks:
        cell.shares += c.shares
        cell.nets += c.nets
    return cell


def row(hero: str, cell: Cell, players: int) -> str:
    fair = 1 / players
    share = sum(cell.shares) / len(cell.shares)
    lo, hi = wilson_interval(sum(cell.shares), len(cell.shares))
    net, net_lo, net_hi = mean_interval(cell.nets)
    return (
        f"  {hero:<7} share {share:.3f} [{lo:.3f}, {hi:.3f}] {share / fair:.2f}x "
        f"(lower bound {lo / fair:.2f}x)  net {net:+.3f} [{net_lo:+.3f}, {net_hi:+.3f}]"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=(GAME_FLIP_FLOP, TRIPLE_TUNK), default=TRIPLE_TUNK)
    ap.add_argument("--players", default="2,3,4", help="comma-separated table sizes")
    ap.add_argument("--styles", default="strong", help="comma-separated panel styles")
    ap.add_argument(
        "--heroes", default=",".join(HEROES), help="comma-separated: " + ", ".join(HEROES)
    )
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ns = ap.parse_args()
    for players in (int(p) for p in ns.players.split(",")):
        for style in ns.styles.split(","):
            print(f"{ns.game} {players} players against {style}, {ns.deals} deals, seed {ns.seed}")
            for hero in ns.heroes.split(","):
                cell = measure(ns.game, players, style, hero, ns.deals, ns.seed, ns.jobs)
                print(row(hero, cell, players), flush=True)


if __name__ == "__main__":
    main()
