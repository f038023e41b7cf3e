"""How well the Tunk opponent model predicts each opponent's total at the advisor's decisions.

    python -m bench.opponent_model --game triple-tunk --players 4 \\
        --styles never,random,hoarder,self --deals 1200 --seed 11

Plays the advisor (seat 0) against each panel style, as ``python -m bench.tournament --panel`` does
(same deals for the same seed), and at every knock / drop decision whose ``win_probability`` is
between 0.05 and 0.95 draws ``--samples`` hands of the opponents from the sampler the win
probability uses (``engine.advice.tunk.knock.opponent_sampler``; unweighted: the win probability
also weighs down draws by each opponent's drop timing, ``engine.advice.tunk.styles.drop_style``,
which this leaves out, so it shows the card-play model alone). Printed per style, and per
opponent that has played or not yet (an opponent that has not played is dealt uniform cards):

- ``P(above)``: the model's mean chance that the opponent's total is above the advisor's,
  against how often it really was;
- ``mean total``: the model's mean total of that opponent against its real one;
- per style, the model's chance that every opponent is above (what ``win_probability``
  estimates), the product of the per-opponent chances (the model's joint draw less its
  dependence), and how often the advisor really was strictly lowest;
- with ``--hypotheses``, per style, for the opponents that have played: the mean posterior
  weights of the three playing hypotheses (``engine.advice.tunk.styles.behaviour``: baseline,
  hoarder, random) and ``P(above)`` under each hypothesis alone. It tells a wrong hypothesis
  (its own ``P(above)`` far from the real one) from a right hypothesis weighed too little.

- with ``--keeps K``, every opponent is read as if ``K`` were its learned chance of keeping
  the flexible cards (``Observation.keeps_flexible``), as a session that has learned it sends.

- with ``--hidden``, per style, for the opponents that have played: the real points of the
  cards the advisor cannot see (the opponent's hand less its known cards, recorded at its last
  discard) against their mean under "throws its highest card" alone (uniform over the unseen
  cards below its cap, :attr:`HandSampler.low`), by the opponent's turns played and by whether
  it holds a known card (a pickup or the GFF-5 flip card). For a player that throws its highest
  card, a gap says the hypothesis's posterior is not what that player's play leaves.

A calibration gap in ``tournament.py`` shows *that* the win probability is off; this shows
*which* opponents the model misreads, and whether their marginals or their dependence are wrong.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from dataclasses import replace
from typing import Any

from bench.tournament import deal_seed, opponents, play_deal
from engine.advice.situation import Observation
from engine.advice.tunk.common import Behaviour, HandSampler, model_for
from engine.advice.tunk.knock import discard_caps, opponent_sampler
from engine.advice.tunk.styles import behaviour
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import Policy
from engine.sim.policies import STYLES, AdvisorPolicy
from engine.sim.tunk import strictly_lowest


class RecordingAdvisor(AdvisorPolicy):
    """The advisor, remembering the observation of its last knock / drop decision."""

    last_obs: Observation | None = None

    def knock(self, obs: Observation) -> bool:
        self.last_obs = obs
        return super().knock(obs)


class KeptHand:
    """A panel policy that remembers the hand it kept at its last discard (what it holds until
    its next turn: it lays before it discards)."""

    def __init__(self, policy: Policy) -> None:
        self._policy = policy
        self.kept: tuple[int, ...] | None = None

    def discard(self, obs: Observation) -> int:
        card = self._policy.discard(obs)
        rest = list(obs.hand)
        rest.remove(card)
        self.kept = tuple(rest)
        return card

    def __getattr__(self, name: str) -> Any:
        return getattr(self._policy, name)


Decision = tuple[Observation, tuple[int, ...], tuple[tuple[int, ...] | None, ...]]


def decisions(game: str, players: int, style: str, deals: int, seed: int) -> list[Decision]:
    """(observation, every seat's real total, every seat's real hand: None for the advisor and
    for a seat that has not discarded yet) at the advisor's undecided knock decisions."""
    out: list[Decision] = []
    for d in range(deals):
        rng = random.Random(deal_seed(seed, d, style))
        advisor = RecordingAdvisor(game, random.Random(rng.getrandbits(64)))
        others = [KeptHand(p) for p in opponents(game, players, style, None, rng)]
        policies: list[Policy] = [advisor, *others]

        def hook(
            seat: int,
            totals: tuple[int, ...],
            knocked: bool,
            _a: RecordingAdvisor = advisor,
            _o: list[KeptHand] = others,
        ) -> None:
            p = _a.last_win_probability
            if seat == 0 and p is not None and 0.05 < p < 0.95 and _a.last_obs:
                out.append((_a.last_obs, totals, (None, *(o.kept for o in _o))))

        play_deal(game, policies, d % players, rng, hook)
    return out


TURN_BANDS = ((1, 2), (3, 4), (5, 6), (7, 99))


def turn_band(turns: int) -> str:
    """The printed band of :data:`TURN_BANDS` holding ``turns`` (at least 1)."""
    a, b = next((a, b) for a, b in TURN_BANDS if a <= turns <= b)
    return f"{a}-{b}" if b < 99 else f"{a}+"


def hidden_rows(decided: list[Decision]) -> dict[tuple[str, str], list[float]]:
    """Per (turns played band, "known card" or "none known"): [opponents, real points of their
    unseen cards, mean points under "throws its highest card" alone] summed over the played
    opponents of ``decided`` (see ``--hidden`` in the module docstring)."""
    rows: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for obs, _, hands in decided:
        model = model_for(obs.game)
        pts = model.points
        seats, sampler = opponent_sampler(obs)
        for i, seat in enumerate(seats):
            hand = hands[seat]
            turns = obs.turns[seat] if seat < len(obs.turns) else 0
            if hand is None or turns <= 0:
                continue
            known = sampler.known[i]
            hidden = list(hand)
            for c in known:
                hidden.remove(c)
            low = sampler.low[i]
            expected = len(hidden) * sum(pts[c] for c in low) / len(low) if low else 0.0
            real = sum(pts[c] for c in hidden)
            held = "known card" if known else "none known"
            for key in ((turn_band(turns), held), ("all", "all")):
                r = rows[key]
                r[0] += 1
                r[1] += real
                r[2] += expected
    return rows


HYPOTHESES: tuple[tuple[str, tuple[float, float, float]], ...] = (
    ("baseline", (1.0, 0.0, 0.0)),
    ("hoarder", (0.0, 1.0, 0.0)),
    ("random", (0.0, 0.0, 1.0)),
)


def hypothesis_rows(
    obs: Observation, sampler: HandSampler, index: int, samples: int, rng: random.Random
) -> tuple[tuple[float, float, float], list[float]]:
    """The posterior weights (baseline, hoarder, random) of the played opponent drawn at
    ``index`` by ``sampler`` (``opponent_sampler(obs)``) and, per hypothesis of
    :data:`HYPOTHESES` taken alone, the model's chance that its total is above the advisor's
    (from that opponent's own sampler: the other opponents' hands are left out)."""
    model = model_for(obs.game)
    seat = [j for j in obs.opponents() if obs.hand_sizes[j] > 0][index]
    posterior = behaviour(obs, seat, model, sorted(model.points[c] for c in sampler.pool))
    caps = discard_caps(obs, model, [seat])
    mine = model.total(obs.hand)
    chances = []
    for _, (base, hoard, rand) in HYPOTHESES:
        alone = HandSampler(
            sampler.pool,
            [sampler.counts[index]],
            [sampler.known[index]],
            [True],
            model,
            caps,
            layoffs=[sampler.layoffs[index]],
            behaviours=[
                Behaviour(base, hoard, rand, posterior.meld, posterior.cap, posterior.keeps)
            ],
        )
        above = sum(model.total(alone.sample(rng)[0]) > mine for _ in range(samples))
        chances.append(above / samples)
    return (posterior.baseline, posterior.hoarder, posterior.random), chances


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=(GAME_FLIP_FLOP, TRIPLE_TUNK), default=TRIPLE_TUNK)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--styles", default="never,random,hoarder,self")
    ap.add_argument("--deals", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument(
        "--hypotheses",
        action="store_true",
        help="also print, for played opponents, the posterior weights and each hypothesis alone",
    )
    ap.add_argument(
        "--hidden",
        action="store_true",
        help="also print the real points of played opponents' unseen cards against the "
        "highest-card thrower's posterior mean, by turns played and known cards",
    )
    ap.add_argument(
        "--keeps",
        type=float,
        default=None,
        help="read every opponent with this learned chance of keeping its flexible cards "
        "(Observation.keeps_flexible; default: none learned, the prior)",
    )
    ns = ap.parse_args()
    model = model_for(ns.game)
    pts = model.points
    print(
        f"{ns.game}, {ns.players} players, {ns.deals} deals per style, seed {ns.seed}, "
        f"{ns.samples} model draws per decision"
    )
    print("  style      opponent  n       P(above) model / real   mean total model / real")
    for style in ns.styles.split(","):
        if style not in STYLES:
            raise SystemExit(f"unknown style {style!r}; choose from {', '.join(STYLES)}")
        rows: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
        joint_n = 0
        joint = product = real = 0.0
        weights = [0.0, 0.0, 0.0]
        alone = [0.0] * len(HYPOTHESES)
        rng = random.Random(ns.seed)
        hypothesis_rng = random.Random(ns.seed + 1)  # the main figures stay as without the flag
        decided = decisions(ns.game, ns.players, style, ns.deals, ns.seed)
        for seen, totals, _ in decided:
            obs = seen
            if ns.keeps is not None:
                obs = replace(seen, keeps_flexible=(ns.keeps,) * seen.n_players)
            opponents, sampler = opponent_sampler(obs)
            mine = model.total(obs.hand)
            above = [0] * len(opponents)
            summed = [0] * len(opponents)
            every = 0
            for _ in range(ns.samples):
                hands = sampler.sample(rng)
                ok = True
                for i, hand in enumerate(hands):
                    t = sum(pts[c] for c in hand)
                    summed[i] += t
                    if t > mine:
                        above[i] += 1
                    else:
                        ok = False
                every += ok
            prod = 1.0
            for i, j in enumerate(opponents):
                played = j < len(obs.turns) and obs.turns[j] > 0
                r = rows["played" if played else "not yet"]
                r[0] += 1
                r[1] += above[i] / ns.samples
                r[2] += totals[j] > mine
                r[3] += summed[i] / ns.samples
                r[4] += totals[j]
                prod *= above[i] / ns.samples
                if played and ns.hypotheses:
                    posterior, chances = hypothesis_rows(
                        obs, sampler, i, ns.samples, hypothesis_rng
                    )
                    weights = [w + p for w, p in zip(weights, posterior, strict=True)]
                    alone = [a + c for a, c in zip(alone, chances, strict=True)]
            joint_n += 1
            joint += every / ns.samples
            product += prod
            real += strictly_lowest(totals, 0)
        for name in ("not yet", "played"):
            n, p_model, p_real, t_model, t_real = rows[name]
            if n:
                print(
                    f"  {style:9s}  {name:8s} {int(n):5d}   {p_model / n:.3f} / {p_real / n:.3f}"
                    f"            {t_model / n:5.2f} / {t_real / n:5.2f}"
                )
        if joint_n:
            print(
                f"  {style:9s}  all above: model {joint / joint_n:.3f}, product of the "
                f"opponents' {product / joint_n:.3f}, real {real / joint_n:.3f} "
                f"({joint_n} decisions)"
            )
        n_played = rows["played"][0]
        if ns.hypotheses and n_played:
            names = ", ".join(name for name, _ in HYPOTHESES)
            mean_weights = ", ".join(f"{w / n_played:.2f}" for w in weights)
            each = ", ".join(
                f"{name} {a / n_played:.3f}" for (name, _), a in zip(HYPOTHESES, alone, strict=True)
            )
            print(
                f"  {style:9s}  played: weights ({names}) {mean_weights}; "
                f"P(above) alone: {each} / real {rows['played'][2] / n_played:.3f}"
            )
        if ns.hidden:
            for (band, held), (n, real_points, expected) in sorted(hidden_rows(decided).items()):
                print(
                    f"  {style:9s}  unseen cards, turns {band:4s} {held:10s} {int(n):5d}: "
                    f"real {real_points / n:5.2f} points, highest-card thrower "
                    f"{expected / n:5.2f} ({(real_points - expected) / n:+.2f})"
                )


if __name__ == "__main__":
    main()
