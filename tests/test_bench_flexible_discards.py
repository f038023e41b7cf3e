"""bench.flexible_discards: it counts every discard of the panel seats, and its shares are
shares."""

from __future__ import annotations

from bench.flexible_discards import flexible_shares


def test_a_points_thrower_throws_flexible_cards_and_its_shares_are_shares() -> None:
    n, thrown, held = flexible_shares("triple-tunk", 3, "never", 40, 3)
    assert n > 20
    assert 0.0 < thrown < 1.0  # 61 of the 125 cards are flexible (TT-3, TT-4)
    assert 0.0 < held < 1.0
    again = flexible_shares("triple-tunk", 3, "never", 40, 3)
    assert again == (n, thrown, held)  # seeded: the same deals give the same figures
