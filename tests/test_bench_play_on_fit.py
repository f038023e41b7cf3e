"""bench.play_on_fit: the questions it records are what the engine decides by, the knock-now
settlement is the simulator's, exploration only ever turns a knock into playing on, and the
weighted fit recovers a known model."""

from __future__ import annotations

import random

import pytest

from bench.play_on_fit import Asked, fit, one_step_gain, record_chunk
from bench.tournament import least_squares
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK


@pytest.mark.rule("TT-13")
def test_recorded_questions_follow_the_advice_except_where_explored() -> None:
    asked = record_chunk((TRIPLE_TUNK, 3, "strong", 4, 0.5, 0, 30))
    assert len(asked) > 20
    for q in asked:
        assert len(q.terms) == 12 and q.terms[0] == 1.0
        assert 0.0 <= q.terms[1] <= 1.0
        assert q.explored == (q.advised and not q.knocked)  # only a knock is ever overridden
        # a knock made right then is settled as a knock (TT-14): won, or caught by some seat
        assert q.knock_net != 0.0
        assert q.knock_share == (1.0 if q.knock_net > 0 else 0.0)
        if q.knocked:  # the deal ended on that knock: it gave exactly the knock-now settlement
            assert q.net == pytest.approx(q.knock_net)
    assert any(q.explored for q in asked) or not any(q.advised for q in asked)


def test_a_drop_made_then_is_settled_as_the_game_pot_would_be() -> None:
    """Game Flip Flop (GFF-8): a drop's knock-now net is +n-1 stakes won or -2 caught (one
    stake for the pot, one for the penalty), and a deal ended by the drop gave exactly that."""
    asked = record_chunk((GAME_FLIP_FLOP, 3, "strong", 4, 0.5, 0, 12))
    assert len(asked) > 20
    for q in asked:
        assert q.knock_net in (2.0, -2.0)
        if q.knocked:
            assert q.net == pytest.approx(q.knock_net)


def test_without_exploration_the_advice_is_followed() -> None:
    asked = record_chunk((TRIPLE_TUNK, 2, "knock10", 4, 1e-12, 0, 30))
    assert all(q.knocked == q.advised for q in asked)


def test_the_weighted_fit_recovers_a_known_advantage() -> None:
    rng = random.Random(3)
    truth = [0.5, -2.0, 1.0]
    asked = []
    for d in range(400):
        p, k = rng.random(), rng.uniform(-2, 2)
        terms = (1.0, p, k)
        knock_net = rng.uniform(-2, 2)
        advantage = sum(c * x for c, x in zip(truth, terms, strict=True))
        explored = rng.random() < 0.3
        asked.append(
            Asked(TRIPLE_TUNK, 3, d, "strong", terms, explored, False, explored, knock_net, 0.0,
                  net=knock_net + advantage, share=0.0)
        )  # fmt: skip
    coef, r2 = fit(asked, 0.5)
    assert coef == pytest.approx(truth, abs=1e-9)
    assert r2 == pytest.approx(1.0)
    money, share, changed = one_step_gain(asked, 0.5)
    # deciding by the true advantage where the questions say otherwise can only gain
    assert money[0] >= 0.0 and changed > 0 and share[0] == 0.0


def test_weights_count_a_row_that_many_times() -> None:
    xs = [[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]
    ys = [0.0, 1.0, 5.0]
    twice = least_squares(xs + [xs[2]], ys + [ys[2]])
    assert least_squares(xs, ys, [1.0, 1.0, 2.0]) == pytest.approx(twice)
