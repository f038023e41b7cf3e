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

``--questions`` (Triple Tunk) looks at the advice's knock questions one by one instead. At each
it settles a knock made right then from the real hands (``engine.sim.tt.knock_outcome``), and
prints, per tenth of the predicted win chance and band of the hand value
(``KnockAdvice.hand_value``), what knocking then would have won (share, units) against what the
deal actually gave after the advice's choice:

    python -m bench.knock_oracle --game triple-tunk --players 3 --questions --deals 6000 --seed 7
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bench.tournament import deal_seed, opponents, top_share
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.stats import mean_interval, wilson_interval
from engine.sim.core import Policy
from engine.sim.policies import AdvisorPolicy
from engine.sim.tunk import strictly_lowest

HEROES = ("advice", "oracle", "never")
T = TypeVar("T")


class DealWatcher(AdvisorPolicy):
    """The advisor, shown the deal in play (``deal``, set by :func:`play_one_deal` before the
    deal starts): what no seat at a real table sees."""

    deal: Any = None


class OracleKnocker(DealWatcher):
    """The advisor's card play, knocking / dropping exactly when its total is strictly the
    lowest by the real hands."""

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
    """Deal and play one deal, letting each :class:`DealWatcher` see it; returns the
    ``DealResult`` and the money unit. Dealing here draws the same cards as the simulators'
    own deal from the same ``rng``."""
    n = len(policies)
    if game == GAME_FLIP_FLOP:
        from engine.sim.gff import STAKE, deal_gff, play_gff_deal

        gff = deal_gff(n, dealer, rng)
        for p in policies:
            if isinstance(p, DealWatcher):
                p.deal = gff
        result, _flip, _flop = play_gff_deal(policies, dealer, rng, start=gff)
        return result, STAKE
    from engine.core.options import TripleTunkRules
    from engine.sim.tt import UNIT, deal_tt, play_tt_deal

    rules = TripleTunkRules()
    tt = deal_tt(n, dealer, rng, rules)
    for p in policies:
        if isinstance(p, DealWatcher):
            p.deal = tt
    return play_tt_deal(policies, dealer, rng, rules=rules, start=tt), UNIT


@dataclass
class Cell:
    shares: list[float] = field(default_factory=list)
    nets: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Question:
    """One knock question of the advice: its predicted win chance and hand value, whether it
    knocked, what knocking right then would have netted (units, top share), and what the deal
    actually gave seat 0."""

    chance: float
    hand_value: float
    knocked: bool
    knock_net: float
    knock_share: float
    net: float
    share: float


def knock_now(game: str, deal: Any, seat: int) -> tuple[int, ...]:
    """Every seat's net (game pot; Triple Tunk units of the simulator) if ``seat`` knocked or
    dropped now, by the real hands."""
    if game == TRIPLE_TUNK:
        from engine.sim.tt import knock_outcome, settle_deal

        return tuple(settle_deal(deal, knock_outcome(deal, seat))[0])
    from engine.games.gff.settle import Drop, settle_gff
    from engine.sim.gff import BANKROLL, STAKE

    outcome = Drop(seat, tuple(deal.totals()))
    return tuple(settle_gff([BANKROLL] * deal.n, STAKE, deal.dealer, outcome).net)


class QuestionRecorder(DealWatcher):
    """The advice (its knocks are the service's), noting at each knock question the settlement
    of a knock made right then by the real hands (Triple Tunk)."""

    asked: list[tuple[float, float, bool, float, float]]

    def knock(self, obs: Any) -> bool:
        answer = super().knock(obs)
        if self.last_win_probability is not None:
            net = knock_now(TRIPLE_TUNK, self.deal, obs.seat)
            share = top_share(net, obs.seat) or 0.0
            value = self.last_hand_value if self.last_hand_value is not None else 0.0
            self.asked.append((self.last_win_probability, value, answer, net[obs.seat], share))
        return answer


def questions_chunk(args: tuple[int, str, int, int, int]) -> list[Question]:
    players, style, seed, start, stop = args
    out: list[Question] = []
    for d in range(start, stop):
        rng = random.Random(deal_seed(seed, d, style))
        hero = QuestionRecorder(TRIPLE_TUNK, random.Random(rng.getrandbits(64)))
        hero.asked = []
        policies: list[Policy] = [hero, *opponents(TRIPLE_TUNK, players, style, None, rng)]
        result, unit = play_one_deal(TRIPLE_TUNK, policies, d % players, rng)
        share = top_share(result.game_net, 0) or 0.0
        net = result.game_net[0] / unit
        out += [Question(p, v, k, kn / unit, ks, net, share) for p, v, k, kn, ks in hero.asked]
    return out


HAND_VALUE_BANDS = ((2.0, "<= 2"), (6.0, "2-6"), (float("inf"), "> 6"))


def questions_table(questions: list[Question], min_count: int = 15) -> list[str]:
    """Lines of the per-(knocked, chance tenth, hand-value band) table of ``questions``; groups
    with fewer than ``min_count`` questions are left out."""
    groups: dict[tuple[bool, int, int], list[Question]] = {}
    for q in questions:
        band = next(i for i, (top, _) in enumerate(HAND_VALUE_BANDS) if q.hand_value <= top)
        groups.setdefault((q.knocked, min(9, int(q.chance * 10)), band), []).append(q)
    lines = ["  advice    chance  value   count  knock then: share  net    | as played: share  net"]
    for (knocked, tenth, band), group in sorted(groups.items()):
        if len(group) < min_count:
            continue
        n = len(group)
        knock_share = sum(q.knock_share for q in group) / n
        knock_net = sum(q.knock_net for q in group) / n
        lines.append(
            f"  {'knocked' if knocked else 'played on':<9} {tenth / 10:.1f}-{(tenth + 1) / 10:.1f}"
            f"  {HAND_VALUE_BANDS[band][1]:<6} {n:6d}"
            f"  {knock_share:17.3f} {knock_net:+6.2f}"
            f"  | {sum(q.share for q in group) / n:15.3f} {sum(q.net for q in group) / n:+6.2f}"
        )
    return lines


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


def in_chunks(run: Callable[[Any], T], head: tuple[Any, ...], deals: int, jobs: int) -> list[T]:
    """``run((*head, start, stop))`` over ``deals`` deals cut into ``jobs`` ranges, in order,
    in ``jobs`` processes (one: in this one); the deals do not depend on the split."""
    step = -(-deals // max(jobs, 1))
    parts = [(*head, lo, min(lo + step, deals)) for lo in range(0, deals, step)]
    if jobs <= 1:
        return [run(p) for p in parts]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(run, parts))


def measure(
    game: str, players: int, style: str, hero: str, deals: int, seed: int, jobs: int
) -> Cell:
    """``deals`` deals of one cell, split over ``jobs`` processes."""
    cell = Cell()
    for c in in_chunks(run_chunk, (game, players, style, hero, seed), deals, jobs):
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
    ap.add_argument(
        "--questions",
        action="store_true",
        help="Triple Tunk: the advice's knock questions, knocking then against as played",
    )
    ns = ap.parse_args()
    if ns.questions:
        if ns.game != TRIPLE_TUNK:
            ap.error("--questions settles Triple Tunk knocks only")
        for players in (int(p) for p in ns.players.split(",")):
            for style in ns.styles.split(","):
                head = (players, style, ns.seed)
                parts = in_chunks(questions_chunk, head, ns.deals, ns.jobs)
                asked = [q for part in parts for q in part]
                print(
                    f"{ns.game} {players} players against {style}, {ns.deals} deals, seed "
                    f"{ns.seed}: {len(asked)} knock questions"
                )
                print("\n".join(questions_table(asked)), flush=True)
        return
    for players in (int(p) for p in ns.players.split(",")):
        for style in ns.styles.split(","):
            print(f"{ns.game} {players} players against {style}, {ns.deals} deals, seed {ns.seed}")
            for hero in ns.heroes.split(","):
                cell = measure(ns.game, players, style, hero, ns.deals, ns.seed, ns.jobs)
                print(row(hero, cell, players), flush=True)


if __name__ == "__main__":
    main()
