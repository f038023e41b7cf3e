"""bench.drop_curve: the measured stopping curve is a non-decreasing share per tenth."""

from __future__ import annotations

import pytest

from bench.drop_curve import BINS, curve, stops


def test_a_falling_pair_of_tenths_is_pooled() -> None:
    # 10% then 5% stops: pooled to 15 of 200; the third tenth stays on its own
    assert curve([[100, 10], [100, 5], [100, 30]]) == pytest.approx([0.075, 0.075, 0.3])


def test_a_sparse_tenth_joins_its_neighbour() -> None:
    # 5 of 5 stops in the middle: too few to stand alone, pooled with the next tenth (25 of 105)
    assert curve([[100, 10], [5, 5], [100, 20]]) == pytest.approx([0.1, 25 / 105, 25 / 105])
    # and a sparse last tenth joins the one before it
    assert curve([[100, 10], [100, 20], [5, 5]]) == pytest.approx([0.1, 25 / 105, 25 / 105])


def test_the_curve_never_falls() -> None:
    shares = curve([[50, 40], [50, 10], [50, 30], [50, 5], [50, 45]])
    assert all(a <= b for a, b in zip(shares, shares[1:], strict=False))
    assert sum(shares) * 50 == pytest.approx(40 + 10 + 30 + 5 + 45)  # every stop counted once


def test_a_short_run_counts_turn_starts_per_tenth() -> None:
    counts = stops("triple-tunk", 2, 30, 5)
    assert len(counts) == BINS
    assert sum(seen for seen, _ in counts) > 0
    assert all(0 <= stopped <= seen for seen, stopped in counts)
