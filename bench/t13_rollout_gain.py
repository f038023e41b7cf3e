"""How many points a Three Thirteen discard leaves to a search that plays each round out.

    python -m bench.t13_rollout_gain --games 16 --worlds 150 --seed 1 --jobs 2

Positions: the advisor's discard decisions in heads-up games against ``strong`` (every
``--every``-th one that neither goes out nor is a last turn, T13-5). At each the candidates are
the advisor's ``--candidates`` best discards and ``strong``'s choice. Every candidate is played
to the end of the round in ``2 x --worlds`` worlds drawn from what the seat sees
(``engine.sim.t13.sample_world``: the same worlds for every candidate), all seats then played by
``strong``, and valued by the round-score difference (the seat's score less the mean of the
others', T13-6: lower is better).

The first half of the worlds picks a discard (with its first 16, 48 and all ``--worlds``); the
second half values every pick, so each gain printed is held out, not the winner's curse.
``--picker greedy`` plays the picking worlds out with a cheaper player (the valuing half is
always played by ``strong``): whether a cheaper search picks as well. Per
group of rounds: the mean points a decision that each pick saves over the advisor's own
discard (positive: better than the advice), with a 95% interval, how often it differs from the
advice, and at the end what one rollout cost here (the work a search of that size would take).

``--play N`` instead plays N whole heads-up games against ``strong`` twice, from the
tournament's seeds (``bench.tournament_t13.play_one``): once as the advice plays them, once
with the search choosing the discard from round ``--from-round`` on (the advice's
``--candidates`` best, ``--worlds`` worlds played out by ``--picker``). Every earlier round is
the same in both, so the paired differences of share and net are far less noisy than two
tournaments.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from bench.tournament_t13 import play_one
from engine.advice.t13 import DEFAULT_SAMPLES, t13_discard_advice
from engine.sim.core import mean_interval
from engine.sim.t13 import T13Policy, T13View, play_game, play_on, round_scores, sample_world
from engine.sim.t13_policies import PANEL, AdvisorT13Policy, situation_from_view
from engine.sim.t13_strong import StrongT13Policy

PICK_WORLDS = (16, 48)  # smaller searches, each read off the first worlds of the picking half
ROUND_GROUPS = ((1, 3), (4, 8), (9, 11))  # 3-5, 6-10 and 11-13 cards dealt (T13-1)


@dataclass(frozen=True, slots=True)
class Position:
    """One recorded decision: what the seat saw, the advice's ranked discards and its pick."""

    view: T13View
    ranked: tuple[int, ...]
    advised: int


class RecordingAdvisor(AdvisorT13Policy):
    """The advisor, keeping every ``every``-th discard decision it makes off a last turn that
    does not go out."""

    def __init__(self, seed: int, every: int, positions: list[Position]) -> None:
        super().__init__(samples=DEFAULT_SAMPLES, seed=seed)
        self.every = every
        self.positions = positions
        self.asked = 0

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        advice = t13_discard_advice(
            situation_from_view(view), seed=self.decision_seed(view), samples=self.samples
        )
        if view.out_seat is None and not advice.go_out and advice.discard is not None:
            self.asked += 1
            if self.asked % self.every == 0:
                ranked = tuple(o.card for o in advice.options)
                self.positions.append(Position(view, ranked, advice.discard))
        return advice.discard, advice.go_out


def rollout_value(view: T13View, card: int, world_seed: int, player: str = "strong") -> float:
    """Discard ``card`` and play the round out in world ``world_seed``, the panel style
    ``player`` in every seat: the seat's round score less the others' mean (T13-6)."""
    rng = random.Random(world_seed)
    state = sample_world(view, rng)
    seat, n = view.seat, view.n_players
    state.throw(seat, card)
    policy = PANEL[player](random.Random(world_seed))
    play_on(state, (seat + 1) % n, [policy] * n, rng)
    scores = round_scores(state)
    return scores[seat] - (sum(scores) - scores[seat]) / (n - 1)


@dataclass(frozen=True, slots=True)
class Measured:
    """One position's held-out gains over the advice (points) and the picks that differ."""

    round_number: int
    gains: dict[str, float]
    differs: dict[str, bool]
    rollouts: int  # in the picking half
    seconds: float  # the picking half's


def measure(
    position: Position, worlds: int, candidates: int, seed: int, picker: str = "strong"
) -> Measured:
    """Value the candidates in ``2 * worlds`` shared worlds; pick on the first half (played out
    by ``picker``), value the picks on the second (played out by ``strong``)."""
    view = position.view
    cands = list(dict.fromkeys(position.ranked[:candidates]))
    strong_pick = StrongT13Policy().discard(view)[0]
    assert strong_pick is not None
    if strong_pick not in cands:
        cands.append(strong_pick)
    t0 = time.perf_counter()
    values = {
        c: [rollout_value(view, c, seed * 1_000_003 + w, picker) for w in range(worlds)]
        for c in cands
    }
    seconds = time.perf_counter() - t0  # the search's own work: the picking half
    for c in cands:
        values[c] += [
            rollout_value(view, c, seed * 1_000_003 + w) for w in range(worlds, 2 * worlds)
        ]
    held = {c: sum(v[worlds:]) / worlds for c, v in values.items()}
    picks = {"strong": strong_pick}
    for size in (*[s for s in PICK_WORLDS if s < worlds], worlds):
        picks[f"search {size}"] = min(cands, key=lambda c: (sum(values[c][:size]), c))
    base = held[position.advised]
    return Measured(
        view.round_number,
        {name: base - held[c] for name, c in picks.items()},
        {name: c != position.advised for name, c in picks.items()},
        len(cands) * worlds,
        seconds,
    )


class SearchingAdvisor:
    """The advisor, whose discards from round ``from_round`` on are searched (module
    docstring; on a last turn and when going out the advice stands); it draws as advised."""

    def __init__(
        self, advisor: T13Policy, from_round: int, worlds: int, candidates: int, picker: str
    ) -> None:
        assert isinstance(advisor, AdvisorT13Policy), "searches the advisor's own discards"
        self.advisor = advisor
        self.from_round = from_round
        self.worlds = worlds
        self.candidates = candidates
        self.picker = picker

    def take_discard(self, view: T13View) -> bool:
        return self.advisor.take_discard(view)

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        if view.round_number < self.from_round or view.out_seat is not None:
            return self.advisor.discard(view)
        advice = t13_discard_advice(
            situation_from_view(view),
            seed=self.advisor.decision_seed(view),
            samples=self.advisor.samples,
        )
        if advice.go_out or advice.discard is None:
            return advice.discard, advice.go_out
        cands = list(dict.fromkeys(o.card for o in advice.options[: self.candidates]))
        base = view.round_number * 1_000_003 + view.turn_number * 1009
        totals = {
            c: sum(rollout_value(view, c, base + w, self.picker) for w in range(self.worlds))
            for c in cands
        }
        return min(cands, key=lambda c: (totals[c], cands.index(c))), False


def play_pair(
    args: tuple[int, list[int], int, int, int, str],
) -> list[tuple[float, float, float, float]]:
    """Games ``games`` against ``strong``: (share, net) as advised, then with the search."""
    seed, games, from_round, worlds, candidates, picker = args
    out = []
    for g in games:
        plain, net, _ = play_one(2, "strong", seed, g, DEFAULT_SAMPLES)
        wrap = partial(  # the hero's seat holds the advisor
            SearchingAdvisor,
            from_round=from_round,
            worlds=worlds,
            candidates=candidates,
            picker=picker,
        )
        searched, net2, _ = play_one(2, "strong", seed, g, DEFAULT_SAMPLES, wrap_hero=wrap)
        out.append((plain, net, searched, net2))
        print(
            f"  game {g}: share {plain:.1f} -> {searched:.1f}, net {net:+.1f} -> {net2:+.1f}",
            flush=True,
        )
    return out


def paired_report(rows: list[tuple[float, float, float, float]]) -> str:
    """The advice's share and net against ``strong``, with the search, and their paired
    differences with 95% intervals."""
    lines = []
    for name, i in (("share", 0), ("net", 1)):
        a = [r[i] for r in rows]
        b = [r[i + 2] for r in rows]
        d = mean_interval([y - x for x, y in zip(a, b, strict=True)])
        lines.append(
            f"{name:>5}: advice {sum(a) / len(a):+.3f}, with the search {sum(b) / len(b):+.3f}, "
            f"difference {d[0]:+.3f} [{d[1]:+.3f}, {d[2]:+.3f}]"
        )
    changed = sum(r[0] != r[2] for r in rows)
    lines.append(f"{len(rows)} games, {changed} with a different winner")
    return "\n".join(lines)


def run_games(args: tuple[int, list[int], int, int, int, str]) -> list[Measured]:
    """Play the given games (advisor in seat 0 against ``strong``) and measure their positions."""
    seed, games, every, worlds, candidates, picker = args
    out: list[Measured] = []
    for g in games:
        positions: list[Position] = []
        advisor = RecordingAdvisor(seed * 7919 + g, every, positions)
        play_game(
            [advisor, StrongT13Policy(random.Random(seed + g))], random.Random(seed * 1_000_003 + g)
        )
        for i, pos in enumerate(positions):
            out.append(measure(pos, worlds, candidates, seed * 10_007 + g * 101 + i, picker))
        print(f"  game {g}: {len(positions)} positions", flush=True)
    return out


def report(measured: list[Measured]) -> str:
    """Per round group and overall: each pick's mean held-out gain and how often it differs."""
    if not measured:
        return "no positions recorded (more --games, or a smaller --every)"
    names = list(measured[0].gains)
    lines = [f"{'rounds':>7}  {'n':>4}  " + "  ".join(f"{n:>26}" for n in names)]
    groups = [*ROUND_GROUPS, (1, 11)]
    for lo, hi in groups:
        part = [m for m in measured if lo <= m.round_number <= hi]
        if not part:
            continue
        cells = []
        for name in names:
            mean, low, high = mean_interval([m.gains[name] for m in part])
            half = (high - low) / 2
            differs = sum(m.differs[name] for m in part) / len(part)
            cells.append(f"{mean:+6.2f} +-{half:4.2f} ({differs:4.0%} differ)")
        label = f"{lo}-{hi}" if (lo, hi) != (1, 11) else "all"
        lines.append(f"{label:>7}  {len(part):>4}  " + "  ".join(f"{c:>26}" for c in cells))
    rollouts = sum(m.rollouts for m in measured)
    seconds = sum(m.seconds for m in measured)
    if rollouts:
        lines.append(
            f"one picking rollout (discard to the end of the round): "
            f"{seconds / rollouts * 1000:.2f} ms; a decision's search of every candidate in "
            f"the picking worlds: {seconds / len(measured):.2f} s on average"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--worlds", type=int, default=150, help="worlds in each half")
    ap.add_argument("--every", type=int, default=7, help="keep every N-th advisor discard")
    ap.add_argument("--candidates", type=int, default=5, help="the advice's best discards searched")
    ap.add_argument(
        "--picker", default="strong", choices=list(PANEL), help="who plays the picking worlds out"
    )
    ap.add_argument("--play", type=int, default=0, help="paired whole games instead (see above)")
    ap.add_argument("--from-round", type=int, default=9, help="with --play: search from this round")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ns = ap.parse_args(argv)
    jobs = max(1, ns.jobs)
    if ns.play:
        pair_tasks = [
            (
                ns.seed,
                list(range(j, ns.play, jobs)),
                ns.from_round,
                ns.worlds,
                ns.candidates,
                ns.picker,
            )
            for j in range(jobs)
        ]
        with ProcessPoolExecutor(jobs) as pool:
            rows = [r for part in pool.map(play_pair, pair_tasks) for r in part]
        print(paired_report(rows), flush=True)
        return 0
    tasks = [
        (ns.seed, list(range(j, ns.games, jobs)), ns.every, ns.worlds, ns.candidates, ns.picker)
        for j in range(jobs)
    ]
    if jobs == 1:
        measured = run_games(tasks[0])
    else:
        with ProcessPoolExecutor(jobs) as pool:
            measured = [m for part in pool.map(run_games, tasks) for m in part]
    print("held-out points a decision saved over the advice's discard (positive: better)")
    print(report(measured), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
