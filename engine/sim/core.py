"""Simulator core shared by every game: the policy protocol, deal results and statistics helpers.

A policy sees an :class:`engine.advice.situation.Observation` (defined below the advice, which
reads it
too): only what a real player at the table sees (their own hand, the table, the discard pile,
cards opponents are known to hold, hand sizes, turn counts, the flip card, waiting counters and
early-tunk claims). Simulators never hand a policy the stock or
another player's hidden cards. Randomness always comes from a seeded ``random.Random`` passed in.

The statistics helpers (Wilson / normal 95% intervals, mean with interval, calibration by decile)
are used by ``bench/tournament.py`` and by the Three Thirteen simulator.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.advice.situation import Observation
from engine.core.stats import Z95, mean_interval, normal_interval, wilson_interval


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


def calibration_noise(rows: Sequence[CalibrationRow], min_count: int = 1) -> float:
    """The mean absolute gap a perfectly calibrated predictor would still show on these deciles
    (sampling noise alone): ``sqrt(2 / pi) * sqrt(p (1 - p) / n)`` per decile, averaged like
    :func:`calibration_gap`."""
    used = [r for r in rows if r.count >= min_count]
    if not used:
        return 0.0
    k = math.sqrt(2 / math.pi)
    return math.fsum(k * math.sqrt(r.predicted * (1 - r.predicted) / r.count) for r in used) / len(
        used
    )


def weighted_calibration_gap(rows: Sequence[CalibrationRow]) -> float:
    """Gap weighted by decile counts (the expected gap of one random decision)."""
    total = sum(r.count for r in rows)
    if not total:
        return 0.0
    return math.fsum(r.count * abs(r.predicted - r.observed) for r in rows) / total


def weighted_calibration_noise(rows: Sequence[CalibrationRow]) -> float:
    """The ECE (:func:`weighted_calibration_gap`) a perfectly calibrated predictor would still
    show on these deciles from sampling noise alone: each decile's mean absolute binomial error
    ``sqrt(2 / pi) * sqrt(p (1 - p) / n)``, weighted by its count. A cell's ECE near this figure
    says nothing about its calibration; only more decisions can."""
    total = sum(r.count for r in rows)
    if not total:
        return 0.0
    k = math.sqrt(2 / math.pi)
    return math.fsum(k * math.sqrt(r.count * r.predicted * (1 - r.predicted)) for r in rows) / total


def brier_score(predicted: Sequence[float], observed: Sequence[bool]) -> float:
    """Mean squared error of the predictions against the 0/1 outcomes (0: perfect; 0.25: a
    constant 1/2)."""
    if not predicted:
        return 0.0
    return math.fsum((p - float(o)) ** 2 for p, o in zip(predicted, observed, strict=True)) / len(
        predicted
    )


__all__ = [
    "CalibrationRow",
    "DealResult",
    "KnockRecord",
    "Observation",
    "Policy",
    "Z95",
    "brier_score",
    "calibration_gap",
    "calibration_noise",
    "calibration_table",
    "mean_interval",
    "normal_interval",
    "weighted_calibration_gap",
    "weighted_calibration_noise",
    "wilson_interval",
]
