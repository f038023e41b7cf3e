"""Three Thirteen tournament: the advisor against the baseline over whole 11-round games (issue 4).

    python bench/tournament_t13.py --players 2 --games 400 --seed 1 --jobs 2

One seat plays :class:`engine.sim.t13_policies.AdvisorT13Policy` (the service's own advice),
every other seat :class:`engine.sim.t13_policies.BaselineT13Policy`. The advisor's seat rotates
with the game number and the first dealer is drawn from the game's seed, so neither seat nor
deal order favours it. Every game has its own ``random.Random(seed * 1_000_003 + game)``, so the
figures do not depend on ``--jobs``.

Printed: the advisor's win rate in decisive games (games with a single lowest total, T13-6) with
a 95% Wilson interval, its share of all games (ties counted as shared), the mean total-points
margin per game (average baseline total minus the advisor's; positive = advisor better) with a
95% normal interval, mean points per round for both sides, how often each side went out, and
the seconds taken. ``--deals`` is accepted as another name for ``--games`` (the Tunk
tournament's flag).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.advice.t13 import DEFAULT_SAMPLES  # noqa: E402 (after the sys.path line)
from engine.sim.core import mean_interval, wilson_interval  # noqa: E402
from engine.sim.t13 import T13Policy, play_game  # noqa: E402
from engine.sim.t13_policies import AdvisorT13Policy, BaselineT13Policy  # noqa: E402


@dataclass
class Chunk:
    """Per-game figures of a slice of the games."""

    sole_wins: int = 0
    decisive: int = 0
    share: float = 0.0
    margins: list[float] = field(default_factory=list)
    advisor_points: int = 0
    baseline_points: int = 0
    rounds: int = 0
    advisor_out: int = 0
    baseline_out: int = 0
    games: int = 0


def run_chunk(args: tuple[int, int, int, int, int]) -> Chunk:
    """Play games ``start`` .. ``stop - 1``."""
    players, start, stop, seed, samples = args
    out = Chunk()
    for g in range(start, stop):
        rng = random.Random(seed * 1_000_003 + g)
        seat = g % players
        policies: list[T13Policy] = [BaselineT13Policy() for _ in range(players)]
        policies[seat] = AdvisorT13Policy(samples=samples, seed=seed * 7919 + g)
        result = play_game(policies, rng)
        out.games += 1
        if len(result.winners) == 1:
            out.decisive += 1
            out.sole_wins += result.winners[0] == seat
        if seat in result.winners:
            out.share += 1 / len(result.winners)
        others = [t for i, t in enumerate(result.totals) if i != seat]
        out.margins.append(sum(others) / len(others) - result.totals[seat])
        for r in result.rounds:
            out.rounds += 1
            out.advisor_points += r.round_scores[seat]
            out.baseline_points += sum(s for i, s in enumerate(r.round_scores) if i != seat)
            if r.went_out == seat:
                out.advisor_out += 1
            elif r.went_out is not None:
                out.baseline_out += 1
    return out


def merge(chunks: list[Chunk]) -> Chunk:
    out = Chunk()
    for c in chunks:
        out.sole_wins += c.sole_wins
        out.decisive += c.decisive
        out.share += c.share
        out.margins += c.margins
        out.advisor_points += c.advisor_points
        out.baseline_points += c.baseline_points
        out.rounds += c.rounds
        out.advisor_out += c.advisor_out
        out.baseline_out += c.baseline_out
        out.games += c.games
    return out


def tournament(players: int, games: int, seed: int, samples: int, jobs: int) -> Chunk:
    """Play the games over ``jobs`` processes and merge the figures."""
    bounds = [games * i // jobs for i in range(jobs + 1)]
    tasks = [(players, bounds[i], bounds[i + 1], seed, samples) for i in range(jobs)]
    if jobs == 1:
        return run_chunk(tasks[0])
    with ProcessPoolExecutor(jobs) as pool:
        return merge(list(pool.map(run_chunk, tasks)))


def report(res: Chunk, players: int, seed: int, samples: int, seconds: float) -> str:
    lo, hi = wilson_interval(res.sole_wins, res.decisive)
    rate = res.sole_wins / res.decisive if res.decisive else 0.0
    m, mlo, mhi = mean_interval(res.margins)
    baselines = players - 1
    lines = [
        f"three-thirteen: advisor vs {baselines} baseline(s), {res.games} games of 11 rounds, "
        f"seed {seed}, samples {samples}, {seconds:.0f} s",
        f"  win rate in decisive games: {rate:.3f} (95% CI {lo:.3f}-{hi:.3f}), "
        f"{res.sole_wins} won of {res.decisive} decisive (fair share {1 / players:.3f})",
        f"  share of all games (ties shared): {res.share / max(res.games, 1):.3f}",
        f"  mean margin per game (baseline total - advisor total): {m:+.2f} points "
        f"(95% CI {mlo:+.2f} to {mhi:+.2f})",
        f"  mean points per round: advisor {res.advisor_points / max(res.rounds, 1):.2f}, "
        f"baseline {res.baseline_points / max(res.rounds * baselines, 1):.2f}",
        f"  rounds gone out first: advisor {res.advisor_out / max(res.rounds, 1):.3f}, "
        f"baselines {res.baseline_out / max(res.rounds, 1):.3f}",
    ]
    target = "MET" if players == 2 and rate >= 0.58 and lo > 0.5 and res.games >= 400 else "-"
    if players == 2:
        lines.append(
            f"  target (heads-up, >= 400 games, win rate >= 0.58, lower bound > 0.50): {target}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", "--deals", dest="games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--jobs", type=int, default=1)
    ns = ap.parse_args(argv)
    t0 = time.time()
    res = tournament(ns.players, ns.games, ns.seed, ns.samples, max(1, ns.jobs))
    print(report(res, ns.players, ns.seed, ns.samples, time.time() - t0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
