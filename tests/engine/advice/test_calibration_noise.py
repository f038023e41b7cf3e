"""The calibration noise floor of the tournament panel (engine.sim.core.calibration_noise)."""

from __future__ import annotations

import math
import random

from engine.sim.core import (
    calibration_gap,
    calibration_noise,
    calibration_table,
    weighted_calibration_gap,
    weighted_calibration_noise,
)


def test_noise_of_one_decile_is_the_mean_absolute_binomial_error() -> None:
    rows = calibration_table([0.55] * 100, [True] * 55 + [False] * 45)
    expected = math.sqrt(2 / math.pi) * math.sqrt(0.55 * 0.45 / 100)
    assert math.isclose(calibration_noise(rows, 30), expected)
    assert calibration_noise(rows, 101) == 0.0


def test_a_calibrated_predictor_shows_about_the_noise() -> None:
    rng = random.Random(5)
    gaps = []
    noises = []
    for _ in range(40):
        pred = [rng.random() for _ in range(600)]
        truth = [rng.random() < p for p in pred]
        rows = calibration_table(pred, truth)
        gaps.append(calibration_gap(rows, 30))
        noises.append(calibration_noise(rows, 30))
    mean_gap = sum(gaps) / len(gaps)
    mean_noise = sum(noises) / len(noises)
    assert 0.7 * mean_noise < mean_gap < 1.3 * mean_noise


def test_weighted_noise_weighs_each_decile_by_its_count() -> None:
    pred = [0.05] * 300 + [0.55] * 100
    truth = [False] * 300 + [True] * 55 + [False] * 45
    rows = calibration_table(pred, truth)
    k = math.sqrt(2 / math.pi)
    expected = (
        300 * k * math.sqrt(0.05 * 0.95 / 300) + 100 * k * math.sqrt(0.55 * 0.45 / 100)
    ) / 400
    assert math.isclose(weighted_calibration_noise(rows), expected)
    assert weighted_calibration_noise(()) == 0.0


def test_a_calibrated_predictor_reads_about_its_weighted_noise_as_ece() -> None:
    """The ECE of a perfectly calibrated predictor is its noise floor on average, and a
    predictor off by 0.1 everywhere reads well above it."""
    rng = random.Random(7)
    eces, noises, biased = [], [], []
    for _ in range(40):
        pred = [rng.random() ** 2 for _ in range(600)]
        truth = [rng.random() < p for p in pred]
        rows = calibration_table(pred, truth)
        eces.append(weighted_calibration_gap(rows))
        noises.append(weighted_calibration_noise(rows))
        shifted = calibration_table([min(1.0, p + 0.1) for p in pred], truth)
        biased.append(weighted_calibration_gap(shifted))
    mean_noise = sum(noises) / len(noises)
    assert 0.7 * mean_noise < sum(eces) / len(eces) < 1.3 * mean_noise
    assert sum(biased) / len(biased) > 2 * mean_noise
