"""Three Thirteen tournament: the advisor against a panel of opponent styles, whole games.

    nice -n 10 python -m bench.tournament_t13 --players 2 3 4 --games 200 --seed 1 --jobs 1
    nice -n 10 python -m bench.tournament_t13 --players 2 --hero strong --styles greedy

For each table size and each panel style (``engine.sim.t13_policies.PANEL``: greedy, stock,
hoarder, waiter, random, strong) one seat plays :class:`engine.sim.t13_policies.AdvisorT13Policy`
(the service's own advice) and every other seat the style; ``self`` seats the advisor everywhere
(its seat 0 is reported; every seat's net adds up to zero). ``--hero STYLE`` puts a panel style
in the advisor's seat instead (``strong`` against ``greedy`` shows how strong the strong player
is). The hero's seat rotates with the game number and the first dealer is drawn from the game's
seed. Every game has its own ``random.Random(seed * 1_000_003 + game)``, so the figures do not
depend on ``--jobs``.

Printed per cell: games, the hero's win share of whole games (T13-6: lowest total wins, tied
lowest share the win) with a 95% interval, the fair share (1 / players) and the target line
(lower bound >= 1.25 x fair share, every style but ``self``), the mean net per game (the
opponents' mean total minus the hero's: positive = hero better) with a 95% interval, and
the seconds taken. At the end a summary table: players x style, share [95% interval], ratio to
the fair share, net, and whether the lower bound meets 1.25 x fair. ``--styles`` picks a subset;
``--deals`` is another name for ``--games``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.advice.t13.params import DEFAULT_SAMPLES
from engine.sim.core import mean_interval
from engine.sim.t13 import T13Policy, play_game
from engine.sim.t13_policies import PANEL, AdvisorT13Policy

STYLES = (*PANEL, "self")
ADVISOR = "advisor"
HEROES = (ADVISOR, *PANEL)
TARGET_FACTOR = 1.25


@dataclass
class Cell:
    """Per-game figures of one (players, style) cell."""

    shares: list[float] = field(default_factory=list)
    nets: list[float] = field(default_factory=list)
    seat_nets: list[list[float]] = field(default_factory=list)
    seconds: float = 0.0


def seat_policy(style: str, seed: int, g: int, i: int, samples: int) -> T13Policy:
    """Seat ``i``'s player in game ``g``: the advisor or a panel style, each seeded per seat."""
    if style == ADVISOR:
        return AdvisorT13Policy(samples=samples, seed=seed * 7919 + g * 31 + i)
    return PANEL[style](random.Random(seed * 104_729 + g * 31 + i))


def play_one(
    players: int,
    style: str,
    seed: int,
    g: int,
    samples: int,
    hero: str = "advisor",
    wrap_hero: Callable[[T13Policy], T13Policy] | None = None,
) -> tuple[float, float, list[float]]:
    """Game ``g`` of a cell: (the hero's share of the win, its net, every seat's net).
    ``wrap_hero`` replaces the hero's seat's player with what it returns (``bench.paired``)."""
    rng = random.Random(seed * 1_000_003 + g)
    seat = g % players
    policies: list[T13Policy] = []
    for i in range(players):
        who = hero if style == "self" or i == seat else style
        policy = seat_policy(who, seed, g, i, samples)
        policies.append(wrap_hero(policy) if wrap_hero is not None and i == seat else policy)
    result = play_game(policies, rng)
    share = 1 / len(result.winners) if seat in result.winners else 0.0
    nets = list(result.nets())
    return share, nets[seat], nets


def run_cell(args: tuple[int, str, int, int, int, int, int, str]) -> Cell:
    """Games ``start`` .. ``stop - 1`` of one cell; every ``progress`` games (0: never) the
    running figures are printed, so a long run can be read before it ends."""
    players, style, seed, start, stop, samples, progress, hero = args
    out = Cell()
    t0 = time.time()
    for g in range(start, stop):
        share, net, nets = play_one(players, style, seed, g, samples, hero)
        out.shares.append(share)
        out.nets.append(net)
        out.seat_nets.append(nets)
        out.seconds = time.time() - t0
        if progress and len(out.shares) % progress == 0 and g + 1 < stop:
            print("  (so far) " + report(players, style, out), flush=True)
    return out


def verdict_of(players: int, style: str, cell: Cell) -> str:
    """MET / miss of the target line (lower bound >= 1.25 x fair, 200 games or more)."""
    _, lo, hi = mean_interval(cell.shares)
    if style == "self":  # every seat the hero: its share must come out fair
        return "fair" if lo <= 1 / players <= hi else "off fair"
    if len(cell.shares) < 200:
        return "few"
    return "MET" if lo >= TARGET_FACTOR / players else "miss"


def summary(cells: dict[tuple[int, str], Cell], hero: str) -> str:
    """One compact table of every cell: share [95% interval], ratio to fair, net, verdict."""
    lines = [
        f"summary: {hero} against each style (share of whole games, target lb >= "
        f"{TARGET_FACTOR} x fair)",
        f"{'players':>7}  {'style':<8} {'games':>5}  {'share [95% interval]':<22} "
        f"{'ratio':>6}  {'net [95% interval]':<24} verdict",
    ]
    for (players, style), cell in cells.items():
        share, lo, hi = mean_interval(cell.shares)
        lo, hi = max(0.0, lo), min(1.0, hi)
        net, nlo, nhi = mean_interval(cell.nets)
        lines.append(
            f"{players:>7}  {style:<8} {len(cell.shares):>5}  "
            f"{share:.3f} [{lo:.3f}, {hi:.3f}]   {share * players:5.2f}x  "
            f"{net:+6.2f} [{nlo:+6.2f}, {nhi:+6.2f}]  {verdict_of(players, style, cell)}"
        )
    return "\n".join(lines)


def report(players: int, style: str, cell: Cell) -> str:
    n = len(cell.shares)
    share, lo, hi = mean_interval(cell.shares)
    lo, hi = max(0.0, lo), min(1.0, hi)  # a share lies in [0, 1]
    net, nlo, nhi = mean_interval(cell.nets)
    fair = 1 / players
    if style == "self":
        total = max((abs(sum(s)) for s in cell.seat_nets), default=0.0)
        verdict = f"seats net to {total:.1e}"
    else:
        ok = lo >= TARGET_FACTOR * fair and n >= 200
        verdict = "MET" if ok else ("miss" if n >= 200 else f"too few games (<200), lb {lo:.3f}")
    return (
        f"{players}p {style:<8} games {n:4d}  win share {share:.3f} [{lo:.3f}, {hi:.3f}] "
        f"(fair {fair:.3f}, target lb >= {TARGET_FACTOR * fair:.3f})  net {net:+7.2f} "
        f"[{nlo:+.2f}, {nhi:+.2f}]  {cell.seconds:5.0f} s  {verdict}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3])
    ap.add_argument("--games", "--deals", dest="games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--styles", nargs="+", default=list(STYLES), choices=STYLES)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--progress", type=int, default=0, help="print running figures every N games")
    ap.add_argument(
        "--hero", default=ADVISOR, choices=HEROES, help="who takes the advisor's seat (default: it)"
    )
    ns = ap.parse_args(argv)
    jobs = max(1, ns.jobs)
    cells: dict[tuple[int, str], Cell] = {}
    for players in ns.players:
        for style in ns.styles:
            bounds = [ns.games * i // jobs for i in range(jobs + 1)]
            progress = ns.progress if jobs == 1 else 0
            tasks = [
                (players, style, ns.seed, bounds[i], bounds[i + 1], ns.samples, progress, ns.hero)
                for i in range(jobs)
            ]
            if jobs == 1:
                cell = run_cell(tasks[0])
            else:
                with ProcessPoolExecutor(jobs) as pool:
                    parts = list(pool.map(run_cell, tasks))
                cell = Cell()
                for p in parts:
                    cell.shares += p.shares
                    cell.nets += p.nets
                    cell.seat_nets += p.seat_nets
                    cell.seconds = max(cell.seconds, p.seconds)
            cells[(players, style)] = cell
            print(report(players, style, cell), flush=True)
    print(summary(cells, ns.hero), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
