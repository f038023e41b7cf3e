"""Three Thirteen scoring (T13-6): round scores from final hands, running totals, winners after
round 11, and the stake-per-point money convention split by C-3."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import parse_cards
from engine.core.errors import HandError, OutcomeError
from engine.core.options import ThreeThirteenRules
from engine.games.t13.settle import default_decks, score_t13_round, settle_t13_scores


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


@pytest.mark.rule("T13-6")
def test_t13_6_running_totals_before_the_last_round() -> None:
    got = settle_t13_scores(3, 0, (0, 12, 5), (10, 4, 20))
    assert got.totals == (10, 16, 25) and not got.final and got.winners == ()
    assert got.net == (0, 0, 0)


@pytest.mark.rule("T13-6")
def test_t13_6_lowest_total_wins_after_round_11_ties_share() -> None:
    got = settle_t13_scores(11, 1, (7, 0, 10, 3), (23, 30, 20, 40))
    assert got.totals == (30, 30, 30, 43) and got.final and got.winners == (0, 1, 2)
    assert got.net == (0, 0, 0, 0)  # no stake_per_point: no money


@pytest.mark.rule("T13-6", "C-3")
def test_t13_6_money_by_points_difference_c3_leftover() -> None:
    # winners 0 and 2 on 30; seat 1 owes 15, seat 3 owes 32: pool 47 = 24 + 23,
    # the odd unit to seat 0 (dealer 3's left)
    got = settle_t13_scores(11, 0, (0, 5, 2, 2), (30, 40, 28, 60), dealer=3, stake_per_point=1)
    assert got.totals == (30, 45, 30, 62) and got.winners == (0, 2)
    assert got.net == (24, -15, 23, -32)


@pytest.mark.rule("T13-6")
def test_t13_6_single_winner_collects_differences_times_stake() -> None:
    got = settle_t13_scores(11, 2, (4, 9, 0), (50, 41, 47), stake_per_point=3)
    assert got.totals == (54, 50, 47) and got.winners == (2,)
    assert got.net == (-21, -9, 30)


@pytest.mark.parametrize(
    ("args", "kwargs", "field"),
    [
        ((0, 0, (0, 1)), {}, "round_number"),
        ((12, 0, (0, 1)), {}, "round_number"),
        ((1, 2, (0, 1)), {}, "went_out"),
        ((1, 0, (3, 1)), {}, "round_scores[0]"),
        ((1, 0, (0, -1)), {}, "round_scores[1]"),
        ((1, 0, (0,)), {}, "round_scores"),
        ((1, 0, (0, 1), (1, 2, 3)), {}, "previous_totals"),
        ((11, 0, (0, 1)), {"stake_per_point": -1}, "stake_per_point"),
        ((11, 0, (0, 1)), {"dealer": 2}, "dealer"),
    ],
)
def test_t13_impossible_inputs_raise(
    args: tuple[object, ...], kwargs: dict[str, object], field: str
) -> None:
    with pytest.raises(OutcomeError) as err:
        settle_t13_scores(*args, **kwargs)  # type: ignore[arg-type]
    assert err.value.field == field


@pytest.mark.rule("T13-2")
def test_t13_2_default_decks() -> None:
    assert [default_decks(n) for n in (2, 3, 4, 5, 8)] == [1, 2, 2, 2, 3]


@pytest.mark.rule("C-3")
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_c3_t13_money_sums_to_zero_and_splits_by_one(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 8))
    went_out = data.draw(st.integers(0, n - 1))
    scores = [data.draw(st.integers(0, 120)) for _ in range(n)]
    scores[went_out] = 0
    previous = [data.draw(st.integers(0, 400)) for _ in range(n)]
    dealer = data.draw(st.integers(0, n - 1))
    spp = data.draw(st.integers(0, 7))
    got = settle_t13_scores(11, went_out, scores, previous, dealer=dealer, stake_per_point=spp)
    assert sum(got.net) == 0
    best = min(got.totals)
    for seat in range(n):
        if seat not in got.winners:
            assert got.net[seat] == -(got.totals[seat] - best) * spp
    shares = [got.net[s] for s in got.winners]
    assert max(shares) - min(shares) <= 1


# --- from final hands: needs the teammate's engine.standard.deadwood (C-2 search) -----------------


@pytest.mark.rule("T13-6")
def test_t13_6_scores_from_final_hands_round_1() -> None:
    pytest.importorskip("engine.standard.deadwood")
    hands = (cs("7C 8C"), cs("5S 9H KD"), cs("3S 7H 7D"), cs("AS 2S 4S KC"))
    got = score_t13_round(1, ThreeThirteenRules(), 0, hands, (0, 0, 0, 0), decks=1)
    # seat 1 melds nothing; seat 2: 3S is wild (T13-1) -> 7-7-3 set; seat 3: A-2-_-4 no run
    assert got.round_scores == (0, 24, 0, 17)
    assert got.totals == (0, 24, 0, 17)


@pytest.mark.rule("T13-3")
def test_t13_3_aces_high_or_low_changes_scores() -> None:
    pytest.importorskip("engine.standard.deadwood")
    hands = (cs("QH KH AH 9C"), cs("AS 9D 8D 2H"), cs("5C 6C"))
    low = score_t13_round(2, ThreeThirteenRules("low"), 2, hands, decks=1)
    high = score_t13_round(2, ThreeThirteenRules("high_or_low"), 2, hands, decks=1)
    assert low.round_scores == (30, 20, 0)
    assert high.round_scores == (9, 34, 0)  # Q-K-A runs; an unmelded ace counts 15


@pytest.mark.rule("C-1", "T13-2")
def test_t13_final_hand_sizes_and_copies_are_checked() -> None:
    with pytest.raises(OutcomeError) as err:
        score_t13_round(3, ThreeThirteenRules(), 0, (cs("2C"), cs("5S 9H KD")), decks=1)
    assert err.value.field == "final_hands[1]"
    with pytest.raises(HandError):
        score_t13_round(1, ThreeThirteenRules(), 0, ((), cs("5S 9H KD"), cs("5S 9D KH")), decks=1)
