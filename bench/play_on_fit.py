"""Fit the Tunk advantage of playing on over knocking / dropping now (``knock.PLAY_ON_ADVANTAGE``).

    python -m bench.play_on_fit --game triple-tunk --players 2,3,4 --deals 10000 --seed 33 --jobs 2

For each table size the advisor (seat 0) plays ``--deals`` deals against each style of
``--mix`` in turn, on the tournament's deals (``bench.tournament.deal_seed``). At each knock
(TT-13) or drop (GFF-8) question it records:

- the terms of ``knock.play_on_features``, from the question's own win chance, knocking's
  expected payout and ``knock.play_on_state``: what the engine reads the advantage from;
- what a knock or drop made right then would have netted by the real hands (the simulators' own
  settlement: ``engine.sim.tt.knock_outcome`` and ``settle_deal``; ``settle_gff`` of a
  ``Drop``, the game pot only);
- what the deal actually gave seat 0 (the game pot only in Game Flip Flop).

Where the advice would knock, it plays on instead with chance ``--explore`` (default 0.5), so
the fit sees playing on there too; those questions weigh ``1 / explore``. The advantage is fitted
by weighted least squares to (the deal's net - the knock-now net) over the questions played on.

Prints per table size the questions, R^2, the coefficients ready for ``PLAY_ON_ADVANTAGE``, and a
cross-fitted check: fitted on one half of the deals (whole turns of the deal round the table,
so each half has every seat dealing), deciding the other half's questions by the
fit (knock when the advantage is below zero) instead of as the advice did, the one-step gain per
deal in units and in top-place share, with 95% intervals. Only questions whose outcome both ways
is known count: a switch to knocking uses the knock-now settlement; a switch to playing on uses
the explored questions, weighted ``1 / explore``. ``--save FILE`` keeps the questions (JSON
lines) and ``--load FILE`` refits them without playing.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import asdict, dataclass
from typing import Any

from bench.knock_oracle import DealWatcher, in_chunks, knock_now, play_one_deal
from bench.tournament import deal_seed, least_squares, opponents, top_share
from engine.advice.tunk.knock import knock_advice, play_on_features, play_on_state
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.stats import mean_interval
from engine.sim.core import Policy
from engine.sim.policies import STYLES

DEFAULT_MIX = "strong,strong0,knock5,knock10,hoarder,self"


@dataclass(frozen=True)
class Asked:
    """One knock question: the advantage's terms, the advice, what was done, the knock-now net
    and share, and the deal's net and share for seat 0 (stakes or units)."""

    game: str
    players: int
    deal: int
    style: str
    terms: tuple[float, ...]
    advised: bool
    knocked: bool
    explored: bool
    knock_net: float
    knock_share: float
    net: float = 0.0
    share: float = 0.0


class Recorder(DealWatcher):
    """The advisor, recording every knock question it may knock at (TT-12 waiting aside), and
    playing on with chance ``explore`` where the advice knocks."""

    asked: list[dict[str, Any]]

    def knock(self, obs: Any) -> bool:
        obs = self._with_profiles(obs)
        advice = knock_advice(obs, samples=self.samples, seed=self.rng.getrandbits(32))
        self.last_win_probability = advice.win_probability
        self.last_hand_value = advice.hand_value
        if not advice.allowed or advice.hand_value is None:
            return False
        explored = advice.knock and self.rng.random() < self.explore
        net = knock_now(obs.game, self.deal, obs.seat)
        state = play_on_state(obs, advice.hand_value)
        p, payout = advice.win_probability, advice.expected_payout
        self.asked.append(
            {
                "terms": play_on_features(obs.game, p, payout, state),
                "advised": advice.knock,
                "knocked": advice.knock and not explored,
                "explored": explored,
                "knock_net": net[obs.seat],
                "knock_share": top_share(net, obs.seat) or 0.0,
            }
        )
        return advice.knock and not explored


def record_chunk(args: tuple[str, int, str, int, float, int, int]) -> list[Asked]:
    game, players, style, seed, explore, start, stop = args
    out: list[Asked] = []
    for d in range(start, stop):
        rng = random.Random(deal_seed(seed, d, style))
        hero = Recorder(game, random.Random(rng.getrandbits(64)), explore=explore)
        hero.asked = []
        policies: list[Policy] = [hero, *opponents(game, players, style, None, rng)]
        result, unit = play_one_deal(game, policies, d % players, rng)
        net = result.game_net[0] / unit
        share = top_share(result.game_net, 0) or 0.0
        for q in hero.asked:
            q["knock_net"] /= unit
            out.append(Asked(game, players, d, style, net=net, share=share, **q))
    return out


def fit(asked: list[Asked], explore: float) -> tuple[list[float], float]:
    """The least-squares advantage over the questions played on, and its weighted R^2."""
    rows = [(q.terms, q.net - q.knock_net, 1 / explore if q.explored else 1.0) for q in asked]
    rows = [r for r, q in zip(rows, asked, strict=True) if not q.knocked]
    coef = least_squares(
        [list(t) for t, _, _ in rows], [y for _, y, _ in rows], [w for *_, w in rows]
    )
    total = sum(w for *_, w in rows)
    mean = sum(y * w for _, y, w in rows) / total
    sse = sum(w * (y - _dot(coef, t)) ** 2 for t, y, w in rows)
    sst = sum(w * (y - mean) ** 2 for _, y, w in rows)
    return coef, 1 - sse / sst if sst else 0.0


def _half(q: Asked) -> int:
    """Which half of the cross-fit ``q`` is in: alternate rounds of the deal round the table
    (by parity alone, heads-up, one half would hold only the deals seat 0 dealt)."""
    return (q.deal // q.players) % 2


def _dot(coef: list[float], terms: tuple[float, ...]) -> float:
    return sum(c * x for c, x in zip(coef, terms, strict=True))


def one_step_gain(
    asked: list[Asked], explore: float
) -> tuple[tuple[float, float, float], tuple[float, float, float], int]:
    """Cross-fitted (the deals split by :func:`_half`) gain per deal of deciding by the fit:
    (mean, low, high) in units and in share, and how many questions the fit decides otherwise."""
    per_deal: dict[tuple[str, int], list[float]] = {}
    changed = 0
    for half in (0, 1):
        train = [q for q in asked if _half(q) != half]
        coef, _ = fit(train, explore)
        for q in asked:
            if _half(q) != half:
                continue
            gains = per_deal.setdefault((q.style, q.deal), [0.0, 0.0])
            knock = _dot(coef, q.terms) < 0
            if knock == q.advised:
                continue
            changed += 1
            diff = (q.net - q.knock_net, q.share - q.knock_share)
            if knock and not q.knocked:
                gains[0] -= diff[0]
                gains[1] -= diff[1]
            elif not knock and q.explored:
                gains[0] += diff[0] / explore
                gains[1] += diff[1] / explore
    money = mean_interval([g[0] for g in per_deal.values()])
    share = mean_interval([g[1] for g in per_deal.values()])
    return money, share, changed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=(GAME_FLIP_FLOP, TRIPLE_TUNK), default=TRIPLE_TUNK)
    ap.add_argument("--players", default="2,3,4", help="comma-separated table sizes")
    ap.add_argument("--mix", default=DEFAULT_MIX, help="comma-separated panel styles")
    ap.add_argument("--deals", type=int, default=2000, help="deals per table size and style")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--explore", type=float, default=0.5)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--save", help="write the questions here (JSON lines)")
    ap.add_argument("--load", help="refit the questions of this file instead of playing")
    ns = ap.parse_args()
    if not 0 < ns.explore <= 1:
        ap.error("--explore must be in (0, 1]")
    if ns.load:
        with open(ns.load) as f:
            asked = [Asked(**{**d, "terms": tuple(d["terms"])}) for d in map(json.loads, f)]
    else:
        asked = []
        for players in (int(p) for p in ns.players.split(",")):
            for style in ns.mix.split(","):
                if style not in STYLES:
                    ap.error(f"unknown style {style!r}; choose from {', '.join(STYLES)}")
                head = (ns.game, players, style, ns.seed, ns.explore)
                for part in in_chunks(record_chunk, head, ns.deals, ns.jobs):
                    asked += part
                print(f"  played {players} players against {style}", flush=True)
    if ns.save:
        with open(ns.save, "w") as f:
            for q in asked:
                f.write(json.dumps(asdict(q)) + "\n")
    for game, players in sorted({(q.game, q.players) for q in asked}):
        mine = [q for q in asked if (q.game, q.players) == (game, players)]
        coef, r2 = fit(mine, ns.explore)
        money, share, changed = one_step_gain(mine, ns.explore)
        played_on = sum(1 for q in mine if not q.knocked)
        print(
            f"{game} {players} players: {len(mine)} questions, {played_on} played on; R^2 {r2:.3f}"
        )
        name = "TRIPLE_TUNK" if game == TRIPLE_TUNK else "GAME_FLIP_FLOP"
        print(f"  ({name}, {players}): ({', '.join(f'{c:.4f}' for c in coef)}),")
        print(
            f"  cross-fitted one-step gain per deal, deciding {changed} questions otherwise: "
            f"{money[0]:+.4f} units [{money[1]:+.4f}, {money[2]:+.4f}], share "
            f"{share[0]:+.4f} [{share[1]:+.4f}, {share[2]:+.4f}]",
            flush=True,
        )


if __name__ == "__main__":
    main()
