"""The calibration noise floor of the tournament panel (engine.sim.core.calibration_noise)."""

from __future__ import annotations

import math
import random

from engine.sim.core import calibration_gap, calibration_noise, calibration_table


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
