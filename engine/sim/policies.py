"""Policies for the Tunk simulators: the club-player baseline and the advisor.

The baseline takes the top discard when that lowers its best deadwood, else draws from
the stock; discards the card whose removal leaves the lowest deadwood (ties: the higher card);
lays every meld and lay-off it can (the simulators do this for every policy); and knocks/drops at
a fixed hand-total threshold, chosen per game by a sweep (:data:`BASELINE_THRESHOLDS`).
"""

from __future__ import annotations

import random

from engine.advice.situation import Observation
from engine.advice.tunk.common import GameModel, best_after_draw, model_for
from engine.advice.tunk.discard import discard_options, lay_melds_advice
from engine.advice.tunk.draw import draw_advice
from engine.advice.tunk.knock import DEFAULT_SAMPLES, knock_advice
from engine.advice.tunk.profile import NOTHING_LEARNED, Learned
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import Policy

# Baseline knock/drop thresholds (hand total <= threshold: knock/drop), one per game for every
# player count. Measured with bench/tournament.py --sweep: every threshold in the range played a
# round robin of heads-up matches against the others, and the one with the best mean game-pot
# (GFF) / knock and tunk-out (TT) settlement per deal was kept.
#
# GFF (bench/tournament.py --sweep --sweep-range 0 8 --deals 1000 --jobs 2 --seed 3), mean game
# pot per deal in stakes over the round robin: 0: +0.250, 1: +0.168, 2: +0.045, 3: -0.029,
# 4: -0.070, 5: -0.090, 6: -0.072, 7: -0.079, 8: -0.122; threshold 0 (never drop: a hand always
# totals at least 1) beats every other threshold head-to-head (+0.07 vs 1, +0.20 vs 2, +0.21
# vs 3, +0.37 vs 4 stakes per deal). Dropping on a fixed total is a losing bet heads-up: a
# caught dropper pays 2 stakes to win 1, and a two-card hand goes out or tunks out quickly.
#
# TT (--game triple-tunk --sweep --sweep-range 0 12 --deals 1000 --jobs 1 --seed 3, units per
# deal): 0: +0.167, 1: +0.156, 2: +0.086, 3: +0.039, 4: -0.011, 5: -0.006, 6: -0.025,
# 7: -0.065, 8: -0.062, 9: -0.065, 10: -0.055, 11: -0.054, 12: -0.103. Threshold 0 (never knock;
# 1 knocks only on a lone 1, nearly the same policy) is best: a caught knocker pays, and a
# two-melds hand tunks out for double within a few turns.
BASELINE_THRESHOLDS: dict[str, int] = {GAME_FLIP_FLOP: 0, TRIPLE_TUNK: 0}


def baseline_discard(model: GameModel, hand: tuple[int, ...]) -> int:
    """The card whose removal leaves the lowest deadwood; ties go to the higher card (more
    points, then higher rank: ``GameModel.order``)."""
    best: tuple[int, int, int] | None = None
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        key = (model.deadwood(rest), -model.order[card], card)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[2]


class BaselinePolicy:
    """The fixed-threshold club player (see the module docstring)."""

    def __init__(self, game: str, threshold: int | None = None) -> None:
        self.game = game
        self.model = model_for(game)
        self.threshold = BASELINE_THRESHOLDS[game] if threshold is None else threshold
        self.last_win_probability: float | None = None

    def knock(self, obs: Observation) -> bool:
        return self.model.total(obs.hand) <= self.threshold

    def take_discard(self, obs: Observation) -> bool:
        top = obs.discards[0]
        return best_after_draw(self.model, obs.hand, top) < self.model.deadwood(obs.hand)

    def discard(self, obs: Observation) -> int:
        return baseline_discard(self.model, obs.hand)

    def lay_melds(self, obs: Observation) -> bool:
        return True


class AdvisorPolicy:
    """Follows the service's own advice: knock/drop, draw and discard advice (engine.advice).

    Each knock decision uses a fresh seed from ``rng`` and ``samples`` Monte Carlo draws; the
    last predicted win probability is kept in ``last_win_probability`` for calibration.
    """

    def __init__(
        self, game: str, rng: random.Random, samples: int = DEFAULT_SAMPLES, explore: float = 0.0
    ) -> None:
        self.game = game
        self.rng = rng
        self.samples = samples
        self.explore = explore  # chance of playing on against the advice (to measure its value)
        self.last_win_probability: float | None = None
        self.last_hand_value: float | None = None  # the one hand evaluation at that decision
        self.last_total = 0
        # per seat, the card-play profile and drop timing learned over earlier deals
        # (engine.advice.tunk.profile)
        self.learned: Learned = NOTHING_LEARNED

    def learn(self, learned: Learned) -> None:
        """Take what was learned of every seat over earlier deals into every later decision."""
        self.learned = learned

    def _with_profiles(self, obs: Observation) -> Observation:
        return self.learned.applied_to(obs)

    def knock(self, obs: Observation) -> bool:
        obs = self._with_profiles(obs)
        self.last_total = model_for(self.game).total(obs.hand)
        advice = knock_advice(obs, samples=self.samples, seed=self.rng.getrandbits(32))
        self.last_win_probability = advice.win_probability
        self.last_hand_value = advice.hand_value
        if advice.knock and self.explore and self.rng.random() < self.explore:
            return False
        return advice.knock

    def take_discard(self, obs: Observation) -> bool:
        return draw_advice(self._with_profiles(obs), seed=self.rng.getrandbits(32)).take_discard

    def discard(self, obs: Observation) -> int:
        return discard_options(self._with_profiles(obs))[0].card

    def lay_melds(self, obs: Observation) -> bool:
        return lay_melds_advice(self._with_profiles(obs))


# The strong panel player knocks (TT-13) / drops (GFF-8) at a total of at most STRONG_LIMIT
# heads-up, one less for every opponent beyond the first (more opponents, more chances one of
# them is lower), never below MIN_LIMIT.
STRONG_LIMIT = 5
MIN_LIMIT = 3


def knock_limit(limit: int, players: int) -> int:
    """The total at or below which :class:`StrongPolicy` knocks / drops at a table of
    ``players`` (``limit`` 0: never)."""
    if limit <= 0:
        return 0
    return max(MIN_LIMIT, limit - (players - 2))


class StrongPolicy(AdvisorPolicy):
    """The strongest fixed heuristic player of the bench panel: the advisor's own card play
    (draw, discard and when to lay melds: the one-step evaluation of
    :mod:`engine.advice.tunk.value`, which beat every simpler card player the bench tried) with
    a fixed knock / drop total, :func:`knock_limit` (``limit=0`` never knocks or drops). Against
    it the advisor's only edge is its knock / drop judgement. A positive TT-12 waiting counter
    forbids knocking; the simulator enforces it."""

    def __init__(self, game: str, rng: random.Random, limit: int = STRONG_LIMIT) -> None:
        super().__init__(game, rng)
        self.limit = limit

    def knock(self, obs: Observation) -> bool:
        self.last_win_probability = None
        return model_for(self.game).total(obs.hand) <= knock_limit(self.limit, obs.n_players)


class StylePolicy(BaselinePolicy):
    """A panel opponent: the baseline's draws and discards with its own knock/drop threshold
    and laying habit (``lay``: lays every meld at once; False: holds melds until it can go or
    tunk out)."""

    def __init__(self, game: str, threshold: int, lay: bool = True) -> None:
        super().__init__(game, threshold)
        self.lay = lay

    def lay_melds(self, obs: Observation) -> bool:
        return self.lay


class RandomPolicy:
    """A panel opponent playing random legal moves: knocks/drops at 5% of its turns, takes the
    top discard half the time, throws a random card, lays its melds half the time."""

    def __init__(self, game: str, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.last_win_probability: float | None = None

    def knock(self, obs: Observation) -> bool:
        return self.rng.random() < 0.05

    def take_discard(self, obs: Observation) -> bool:
        return self.rng.random() < 0.5

    def discard(self, obs: Observation) -> int:
        return obs.hand[self.rng.randrange(len(obs.hand))]

    def lay_melds(self, obs: Observation) -> bool:
        return self.rng.random() < 0.5


def panel_policy(style: str, game: str, rng: random.Random) -> Policy:
    """One opponent of the bench by name (see :data:`PANEL_STYLES` and
    :data:`HELD_OUT_STYLES`)."""
    if style == "never":
        return StylePolicy(game, 0)
    if style == "knock5":
        return StylePolicy(game, 5)
    if style == "knock10":
        return StylePolicy(game, 10)
    if style == "melder":
        return StylePolicy(game, 3, lay=True)
    if style == "hoarder":
        return StylePolicy(game, 0, lay=False)
    if style == "random":
        return RandomPolicy(game, rng)
    if style == "strong":
        return StrongPolicy(game, rng)
    if style == "strong0":
        return StrongPolicy(game, rng, limit=0)
    if style == "self":
        return AdvisorPolicy(game, rng)
    if style == "knock7":
        return StylePolicy(game, 7)
    if style == "hoard5":
        return StylePolicy(game, 5, lay=False)
    if style == "strong3":
        return StrongPolicy(game, rng, limit=3)
    if style == "strong8":
        return StrongPolicy(game, rng, limit=8)
    raise ValueError(f"unknown panel style {style!r}")


PANEL_STYLES: tuple[str, ...] = (
    "never",  # never knocks/drops, lays every meld at once
    "knock5",  # knocks/drops at a total of 5 or less
    "knock10",  # knocks/drops at 10 or less
    "melder",  # lays every meld at once, knocks at 3 or less
    "hoarder",  # holds melds until it can go or tunk out, never knocks
    "random",  # random legal moves
    "strong",  # StrongPolicy: the advisor's card play, knocks / drops at a fixed total
    "strong0",  # the same player that never knocks / drops
    "self",  # the advisor itself (self-play: the seats net to zero)
)

# Styles kept out of the panel the advice is measured and fitted against: a read of whether
# what the panel shows holds for players it was not built on (docs/strength.md, "Players
# outside the panel").
HELD_OUT_STYLES: tuple[str, ...] = (
    "knock7",  # the never / knock5 / knock10 card play, knocks/drops at 7 or less
    "hoard5",  # holds melds like the hoarder, knocks/drops at 5 or less
    "strong3",  # StrongPolicy with a knock / drop limit of 3 heads-up
    "strong8",  # StrongPolicy with a limit of 8 heads-up
)

# Every style :func:`panel_policy` plays; the panel's come first, so adding a held-out style
# changes no panel style's deals (``bench.tournament.deal_seed`` numbers them in this order).
STYLES: tuple[str, ...] = PANEL_STYLES + HELD_OUT_STYLES


__all__ = [
    "AdvisorPolicy",
    "BASELINE_THRESHOLDS",
    "HELD_OUT_STYLES",
    "BaselinePolicy",
    "MIN_LIMIT",
    "STRONG_LIMIT",
    "StrongPolicy",
    "PANEL_STYLES",
    "RandomPolicy",
    "STYLES",
    "StylePolicy",
    "baseline_discard",
    "knock_limit",
    "panel_policy",
]
