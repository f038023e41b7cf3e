"""Simulator core shared by every game: observations, the policy protocol and statistics helpers.

A policy sees an :class:`Observation`: only what a real player at the table sees (their own hand,
the table, the discard pile, cards opponents are known to hold, hand sizes, turn counts, the
flip card, waiting counters and early-tunk claims). Simulators never hand a policy the stock or
another player's hidden cards. Randomness always comes from a seeded ``random.Random`` passed in.

The statistics helpers (Wilson / normal 95% intervals, mean with interval, calibration by decile)
are used by ``bench/tournament.py`` and by the Three Thirteen simulator.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.types import TableMeld

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True, slots=True)
class Observation:
    """What seat ``seat`` sees at a decision point (GFF and TT; T13 reuses the same fields).

    ``known`` holds, per seat, the cards that seat is known to hold: cards it picked up from the
    discard pile and still holds, and (GFF-5) the dealer's flip card. ``turns`` counts the turns
    each seat has completed (an opponent who has played a turn had the chance to lay its melds).
    ``discards`` is the discard pile, top first. ``waiting`` is the TT-12 counter per seat and
    ``early`` the TT-9 claims (both empty/zero for GFF). ``discard_history`` lists, per seat, the
    cards that seat discarded this deal, most recent first; ``declined`` the top discards it
    left lying when it drew from the stock instead.
    """

    game: str
    seat: int
    dealer: int
    n_players: int
    hand: tuple[int, ...]
    table: tuple[TableMeld, ...]
    discards: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    turns: tuple[int, ...]
    stock_size: int
    flip_card: int | None = None
    waiting: tuple[int, ...] = ()
    early: tuple[bool, ...] = ()
    discard_history: tuple[tuple[int, ...], ...] = ()
    declined: tuple[tuple[int, ...], ...] = ()
    last_stock_turn: bool = False
    turn_number: int = 0

    def opponents(self) -> tuple[int, ...]:
        """Every other seat, clockwise from this seat's left."""
        return tuple((self.seat + i) % self.n_players for i in range(1, self.n_players))


class Policy(Protocol):
    """A pluggable player for the Tunk simulators (GFF and TT).

    ``knock`` is asked at the start of each turn where knocking/dropping is allowed (C-5, TT-12);
    ``take_discard`` whether to take the top discard instead of drawing from the stock (only asked
    when both are possible); ``discard`` which card to throw after the simulator has laid every
    meld and lay-off of the hand (``obs.hand`` is the hand left after those plays);
    ``lay_melds`` (Triple Tunk) whether to lay new melds this turn or hold them in hand (tunking
    out, TT-11, is always taken).
    """

    def knock(self, obs: Observation) -> bool: ...

    def take_discard(self, obs: Observation) -> bool: ...

    def discard(self, obs: Observation) -> int: ...

    def lay_melds(self, obs: Observation) -> bool: ...


@dataclass(slots=True)
class KnockRecord:
    """One knock/drop decision: the policy's predicted win probability and what was true then."""

    predicted: float
    strictly_lowest: bool
    knocked: bool


@dataclass(slots=True)
class DealResult:
    """The outcome of one simulated deal.

    ``net`` is each seat's money change in units (sums to zero, C-3); ``game_net`` only the game
    pot (GFF) / the knock or tunk-out payments (TT). ``winners`` are the seats that took the game
    pot or were paid; ``end`` names how the deal ended.
    """

    net: tuple[int, ...]
    game_net: tuple[int, ...]
    winners: tuple[int, ...]
    end: str
    turns: int
    knocks: list[tuple[int, KnockRecord]] = field(default_factory=list)


# --------------------------------------------------------------------------- statistics


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Normal-approximation (Wald) interval for a proportion, clipped to [0, 1]."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    half = z * math.sqrt(p * (1 - p) / trials)
    return (max(0.0, p - half), min(1.0, p + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean of ``values`` with a normal 95% interval: (mean, low, high)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class CalibrationRow:
    """One decile of predictions: bounds, count, mean prediction and observed frequency."""

    low: float
    high: float
    count: int
    predicted: float
    observed: float


def calibration_table(
    predicted: Sequence[float], observed: Sequence[bool], bins: int = 10
) -> tuple[CalibrationRow, ...]:
    """Group predictions into ``bins`` equal-width bins of [0, 1] (deciles by default)."""
    sums = [0.0] * bins
    hits = [0] * bins
    counts = [0] * bins
    for p, o in zip(predicted, observed, strict=True):
        b = min(bins - 1, max(0, int(p * bins)))
        sums[b] += p
        hits[b] += int(o)
        counts[b] += 1
    rows = []
    for b in range(bins):
        if counts[b]:
            rows.append(
                CalibrationRow(
                    b / bins, (b + 1) / bins, counts[b], sums[b] / counts[b], hits[b] / counts[b]
                )
            )
    return tuple(rows)


def calibration_gap(rows: Sequence[CalibrationRow], min_count: int = 1) -> float:
    """Mean absolute gap |predicted - observed| over the deciles holding ``min_count`` or more."""
    used = [r for r in rows if r.count >= min_count]
    if not used:
        return 0.0
    return math.fsum(abs(r.predicted - r.observed) for r in used) / len(used)


def weighted_calibration_gap(rows: Sequence[CalibrationRow]) -> float:
    """Gap weighted by decile counts (the expected gap of one random decision)."""
    total = sum(r.count for r in rows)
    if not total:
        return 0.0
    return math.fsum(r.count * abs(r.predicted - r.observed) for r in rows) / total


__all__ = [
    "CalibrationRow",
    "DealResult",
    "KnockRecord",
    "Observation",
    "Policy",
    "Z95",
    "calibration_gap",
    "calibration_table",
    "mean_interval",
    "normal_interval",
    "weighted_calibration_gap",
    "wilson_interval",
]
