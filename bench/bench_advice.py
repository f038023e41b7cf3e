"""Latency of the Tunk advice at the default budget (issue 4 speed targets).

    python bench/bench_advice.py [--situations 300] [--seed 1] [--cold]

Situations are real mid-deal observations captured from simulated deals (advisor vs baseline):
knock/drop advice at the start of a turn, draw advice before the draw, discard advice for a
six-card hand after the draw. Prints p50/p90/max in milliseconds per game and kind. ``--cold``
empties the deadwood memo tables before every call (a fresh process's first answers).
Targets: knock p50 <= 30 ms, discard/draw (6-card hand) p50 <= 30 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.advice.common import clear_caches  # noqa: E402
from engine.advice.discard import discard_advice  # noqa: E402
from engine.advice.draw import draw_advice  # noqa: E402
from engine.advice.knock import DEFAULT_SAMPLES, knock_advice  # noqa: E402
from engine.rules import GAME_FLIP_FLOP, TRIPLE_TUNK  # noqa: E402
from engine.sim.core import Observation  # noqa: E402
from engine.sim.gff import play_gff_deal  # noqa: E402
from engine.sim.policies import BaselinePolicy  # noqa: E402
from engine.sim.tt import play_tt_deal  # noqa: E402


class Recorder(BaselinePolicy):
    def __init__(self, game: str) -> None:
        super().__init__(game)
        self.knocks: list[Observation] = []
        self.draws: list[Observation] = []
        self.discards: list[Observation] = []

    def knock(self, obs: Observation) -> bool:
        self.knocks.append(obs)
        return super().knock(obs)

    def take_discard(self, obs: Observation) -> bool:
        self.draws.append(obs)
        return super().take_discard(obs)

    def discard(self, obs: Observation) -> int:
        if len(obs.hand) == 6:
            self.discards.append(obs)
        return super().discard(obs)


def collect(game: str, want: int, seed: int) -> Recorder:
    rng = random.Random(seed)
    rec = Recorder(game)
    d = 0
    while min(len(rec.knocks), len(rec.draws), len(rec.discards)) < want and d < 20 * want:
        if game == GAME_FLIP_FLOP:
            play_gff_deal([rec, BaselinePolicy(game)], d % 2, rng)
        else:
            play_tt_deal([rec, BaselinePolicy(game), BaselinePolicy(game)], d % 3, rng)
        d += 1
    return rec


def timed(fn, items: list[Observation], cold: bool = False) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for obs in items:
        if cold:
            clear_caches()
        t0 = time.perf_counter()
        fn(obs)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def report(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p50 = statistics.median(ms)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    print(
        f"  {name:28s} n={len(ms):4d}  p50 {p50:7.2f} ms  p90 {p90:7.2f} ms  max {ms[-1]:7.2f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--situations", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cold", action="store_true", help="empty the deadwood memo before each call")
    ns = ap.parse_args()
    state = "cold memo (emptied before each call)" if ns.cold else "warm memo"
    print(
        f"advice latency, default budget (knock samples = {DEFAULT_SAMPLES}), in process, {state}"
    )
    for game in (GAME_FLIP_FLOP, TRIPLE_TUNK):
        rec = collect(game, ns.situations, ns.seed)
        print(game)
        cold = ns.cold
        report("knock/drop", timed(knock_advice, rec.knocks[: ns.situations], cold))
        report("draw (5-card hand)", timed(draw_advice, rec.draws[: ns.situations], cold))
        report("discard (6-card hand)", timed(discard_advice, rec.discards[: ns.situations], cold))


if __name__ == "__main__":
    main()
