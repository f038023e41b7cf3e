"""Triple Tunk settlement: knocks (TT-13), tunk outs (TT-11) and multipliers (TT-14)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import OutcomeError
from engine.games.tt.settle import TTKnock, TTOutcome, TTTunkOut, multiplier, settle_tt


@pytest.mark.rule("TT-13")
def test_tt13_knocker_strictly_lowest_wins_a_unit_from_everyone() -> None:
    got = settle_tt(4, 5, 0, TTKnock(1, (9, 3, 7, 8)))
    assert got.net == (-5, 15, -5, -5)
    assert got.winners == (1,) and not got.knocker_caught


@pytest.mark.rule("TT-14")
def test_tt14_knocker_multipliers_early_and_special() -> None:
    out = TTKnock(1, (9, 3, 7, 8), (False, True, False, False), (1, 3, 1, 1))
    got = settle_tt(4, 5, 0, out)  # 5 x 2 x 3 = 30 from each
    assert got.net == (-30, 90, -30, -30)
    assert {p.multiplier for p in got.payments} == {6}


@pytest.mark.rule("TT-14")
def test_tt14_tunk_out_doubles() -> None:
    got = settle_tt(3, 10, 2, TTTunkOut(0))
    assert got.net == (40, -20, -20)


@pytest.mark.rule("TT-14")
def test_tt14_sixteen_times_maximum() -> None:
    out = TTTunkOut(2, (False, False, True, False), (1, 1, 4, 1))
    got = settle_tt(4, 1, 0, out)  # x2 early x2 tunk out x4 special
    assert got.net == (-16, -16, 48, -16)
    assert multiplier(True, 4, True) == 16


@pytest.mark.rule("TT-13")
def test_tt13_knocker_caught_pays_each_tie_or_better_at_their_multipliers() -> None:
    out = TTKnock(0, (5, 5, 3, 9), (False, True, False, False), (1, 1, 3, 4))
    got = settle_tt(4, 10, 3, out)  # seat 1 ties (x2 early), seat 2 beats (x3 special)
    assert got.knocker_caught and got.winners == (1, 2)
    assert [(p.payer, p.payee, p.amount) for p in got.payments] == [(0, 1, 20), (0, 2, 30)]
    assert got.net == (-50, 20, 30, 0)  # seat 3's special plays no part: it did not win


@pytest.mark.rule("TT-13")
def test_tt13_caught_by_a_maximal_hand_has_no_tunk_out_factor() -> None:
    out = TTKnock(0, (4, 2, 9), (False, True, False), (1, 4, 1))
    assert settle_tt(3, 1, 0, out).net == (-8, 8, 0)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((2, 1, 0, TTTunkOut(0)), "n_seats"),
        ((7, 1, 0, TTTunkOut(0)), "n_seats"),
        ((3, 0, 0, TTTunkOut(0)), "unit"),
        ((3, 1, 3, TTTunkOut(0)), "dealer"),
        ((3, 1, 0, TTTunkOut(3)), "outcome.seat"),
        ((3, 1, 0, TTKnock(-1, (1, 2, 3))), "outcome.knocker"),
        ((3, 1, 0, TTKnock(0, (1, 2))), "outcome.totals"),
        ((3, 1, 0, TTKnock(0, (1, -2, 3))), "outcome.totals[1]"),
        ((3, 1, 0, TTTunkOut(0, (True, False))), "outcome.early_tunk"),
        ((3, 1, 0, TTTunkOut(0, (), (1, 5, 1))), "outcome.special_bonus[1]"),
    ],
)
def test_tt_impossible_outcomes_raise(args: tuple[int, int, int, TTOutcome], field: str) -> None:
    with pytest.raises(OutcomeError) as err:
        settle_tt(*args)
    assert err.value.field == field


@st.composite
def tt_outcomes(draw: st.DrawFn) -> tuple[int, int, TTOutcome]:
    n = draw(st.integers(3, 6))
    unit = draw(st.integers(1, 100))
    early = tuple(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    special = tuple(draw(st.lists(st.sampled_from([1, 2, 3, 4]), min_size=n, max_size=n)))
    seat = draw(st.integers(0, n - 1))
    if draw(st.booleans()):
        return n, unit, TTTunkOut(seat, early, special)
    totals = tuple(draw(st.lists(st.integers(0, 30), min_size=n, max_size=n)))
    return n, unit, TTKnock(seat, totals, early, special)


@pytest.mark.rule("C-3")
@settings(max_examples=300, deadline=None)
@given(tt_outcomes())
def test_c3_every_tt_settlement_sums_to_zero(case: tuple[int, int, TTOutcome]) -> None:
    n, unit, outcome = case
    got = settle_tt(n, unit, 0, outcome)
    assert sum(got.net) == 0
    for p in got.payments:
        assert p.amount == unit * p.multiplier and 1 <= p.multiplier <= 16
        assert p.payee in got.winners
    if isinstance(outcome, TTKnock) and not got.knocker_caught:
        assert all(
            outcome.totals[outcome.knocker] < t
            for i, t in enumerate(outcome.totals)
            if i != outcome.knocker
        )
