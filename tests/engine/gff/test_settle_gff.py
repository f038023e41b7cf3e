"""Game Flip Flop settlement: the seed's worked examples (GFF-4, GFF-8) and hand-computed goldens
for every way a deal ends, stakes and reserve (GFF-6), side pots (GFF-5) and C-3 splits."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.core.cards import parse_card, parse_cards
from engine.core.errors import OutcomeError
from engine.core.money import seat_order_from_left, split_pot
from engine.core.options import GameFlipFlopRules
from engine.games.gff.settle import (
    Drop,
    EarlyWin,
    GffOutcome,
    GffSettlement,
    GoOut,
    SideWinners,
    StockExhausted,
    TunkOut,
    settle_gff,
    stakes_for,
)

RICH5 = (1000,) * 5


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


def pot(result: GffSettlement, name: str) -> tuple[int, tuple[tuple[int, int], ...], bool]:
    (p,) = [p for p in result.pots if p.name == name]
    return p.amount, p.shares, p.carried_over


# --- the seed's worked examples (game pot only) --------------------------------------------


@pytest.mark.rule("GFF-4")
def test_gff4_seed_example_49_and_50() -> None:
    """Seed: stake 100, 5 players, A=49, B=50 -> A +50, B +550, the other three -200 each."""
    got = settle_gff(RICH5, 100, 4, EarlyWin(((0, 49), (1, 50))))
    assert got.net == (50, 550, -200, -200, -200)
    assert pot(got, "game") == (500, ((0, 250), (1, 250)), False)
    assert pot(got, "fifty") == (400, ((1, 400),), False)
    assert [(e.seat, e.amount, e.reason) for e in got.extra_payments] == [
        (0, 100, "fifty"),
        (2, 100, "fifty"),
        (3, 100, "fifty"),
        (4, 100, "fifty"),
    ]
    assert got.side is None and got.carry_out == got.carry_in == 0


@pytest.mark.rule("GFF-8")
def test_gff8_seed_example_dropper_caught() -> None:
    """Seed: A drops, A, C and D tie lowest -> A -200, C +200, D +200, B and E -100 each."""
    got = settle_gff(RICH5, 100, 4, Drop(0, (5, 9, 5, 5, 7)))
    assert got.net == (-200, -100, 200, 200, -100)
    assert pot(got, "game") == (600, ((2, 300), (3, 300)), False)
    assert got.game_winners == (2, 3)


# --- GFF-4 / GFF-8 / GFF-9 / GFF-10 / GFF-11 hand-computed goldens -------------------------


@pytest.mark.rule("GFF-4")
def test_gff4_single_50_is_double_the_game_pot() -> None:
    got = settle_gff((100,) * 4, 10, 0, EarlyWin(((2, 50),)))
    assert got.net == (-20, -20, 60, -20)


@pytest.mark.rule("GFF-4")
def test_gff4_single_49_takes_the_game_pot_only() -> None:
    got = settle_gff((100,) * 4, 10, 0, EarlyWin(((3, 49),)))
    assert got.net == (-10, -10, -10, 30) and got.extra_payments == ()


@pytest.mark.rule("GFF-4", "C-3")
def test_gff4_two_50s_and_a_49_with_c3_leftover() -> None:
    # game 40 / 3 = 13 r 1: the unit goes to seat 1 (dealer 0's left); fifty pot 20 -> 10 each
    got = settle_gff((100,) * 4, 10, 0, EarlyWin(((1, 50), (2, 50), (3, 49))))
    assert pot(got, "game") == (40, ((1, 14), (2, 13), (3, 13)), False)
    assert pot(got, "fifty") == (20, ((1, 10), (2, 10)), False)
    assert got.net == (-20, 14, 13, -7)


@pytest.mark.rule("GFF-4")
def test_gff4_declared_50_must_match_the_dealt_hand() -> None:
    hands = (cs("KS QH JD 10C 9S"), cs("2H 3H 4H 5C 6C"), cs("7H 8C 9C 10D AS"))
    with pytest.raises(OutcomeError) as err:
        settle_gff(
            (100,) * 3, 10, 2, EarlyWin(((0, 50),)), dealt_hands=hands, flip_card=hands[2][4]
        )
    assert err.value.field == "outcome.declarations[0]"
    ok = settle_gff(
        (100,) * 3, 10, 2, EarlyWin(((0, 49),)), dealt_hands=hands, flip_card=hands[2][4]
    )
    assert ok.game_winners == (0,)


@pytest.mark.rule("GFF-8")
def test_gff8_dropper_strictly_lowest_takes_the_game_pot() -> None:
    got = settle_gff((100,) * 3, 10, 0, Drop(1, (8, 7, 9)))
    assert got.net == (-10, 20, -10) and not got.extra_payments


@pytest.mark.rule("GFF-8")
def test_gff8_caught_pot_split_odd_remainder() -> None:
    # 4 players stake 5: pot 20 + 5 = 25 split by seats 1 and 2: 13 (dealer 0's left) and 12
    got = settle_gff((100,) * 4, 5, 0, Drop(3, (9, 4, 4, 4)))
    assert pot(got, "game") == (25, ((1, 13), (2, 12)), False)
    assert got.net == (-5, 8, 7, -10)


@pytest.mark.rule("GFF-9")
def test_gff9_tunk_out_every_other_player_adds_a_stake() -> None:
    got = settle_gff((100,) * 4, 10, 3, TunkOut(2))
    assert pot(got, "game") == (70, ((2, 70),), False)
    assert got.net == (-20, -20, 60, -20)


@pytest.mark.rule("GFF-10")
def test_gff10_go_out_takes_the_game_pot() -> None:
    got = settle_gff((100,) * 4, 10, 3, GoOut(1))
    assert got.net == (-10, 30, -10, -10)


@pytest.mark.rule("GFF-11")
def test_gff11_stock_exhausted_three_way_split_with_remainder() -> None:
    # 5 players stake 7: pot 35 = 3 x 11 + 2; dealer 2 -> order 3, 4, 0, 1: seats 4 and 0 get 12
    got = settle_gff((100,) * 5, 7, 2, StockExhausted((3, 3, 10, 8, 3)))
    assert pot(got, "game") == (35, ((0, 12), (1, 11), (4, 12)), False)
    assert got.net == (5, 4, -7, -7, 5)


# --- GFF-6 stakes, reserve, all in, sitting out ---------------------------------------------


@pytest.mark.rule("GFF-6")
@pytest.mark.parametrize(
    ("bankroll", "k"), [(0, 0), (19, 0), (20, 1), (29, 1), (30, 2), (40, 3), (10_000, 3)]
)
def test_gff6_stakes_keep_one_in_reserve(bankroll: int, k: int) -> None:
    assert stakes_for(bankroll, 10) == k


@pytest.mark.rule("GFF-6")
def test_gff6_all_in_eliminated_unless_winning_the_game_pot() -> None:
    got = settle_gff((20, 25, 100, 100), 10, 3, GoOut(0), side_winners=SideWinners(2, 3))
    assert got.stakes_in == (1, 1, 3, 3)
    assert got.all_in == (0, 1) and got.eliminated == (1,)
    assert pot(got, "flip") == (20, ((2, 20),), False)
    assert pot(got, "flop") == (20, ((3, 20),), False)
    assert got.net == (30, -10, -10, -10)
    assert got.bankrolls_after == (50, 15, 90, 90)


@pytest.mark.rule("GFF-6")
def test_gff6_all_in_sharing_the_game_pot_survives() -> None:
    got = settle_gff((20, 100, 100), 10, 0, StockExhausted((4, 4, 9)))
    assert got.all_in == (0,) and got.eliminated == () and got.game_winners == (0, 1)


@pytest.mark.rule("GFF-6")
def test_gff6_all_in_cannot_win_a_side_pot() -> None:
    with pytest.raises(OutcomeError) as err:
        settle_gff((20, 100, 100), 10, 0, GoOut(1), side_winners=SideWinners(0, None))
    assert err.value.field == "side_winners.flip"
    with pytest.raises(OutcomeError) as err:
        settle_gff((30, 100, 100), 10, 0, GoOut(1), side_winners=SideWinners(0, 0))
    assert err.value.field == "side_winners.flop"


@pytest.mark.rule("GFF-6")
def test_gff6_player_who_cannot_be_dealt_in_plays_no_part() -> None:
    got = settle_gff((15, 100, 100, 100), 10, 1, Drop(2, (None, 6, 5, 9)))
    assert got.sitting_out == (0,) and got.stakes_in == (0, 3, 3, 3)
    assert got.net == (0, -10, 20, -10)
    with pytest.raises(OutcomeError) as err:
        settle_gff((15, 100, 100, 100), 10, 1, Drop(0, (None, 6, 5, 9)))
    assert err.value.field == "outcome.dropper"
    with pytest.raises(OutcomeError):
        settle_gff((15, 100, 100, 100), 10, 1, GoOut(0))


@pytest.mark.rule("GFF-6")
def test_gff6_a_deal_needs_two_players_dealt_in() -> None:
    with pytest.raises(OutcomeError) as err:
        settle_gff((15, 100, 10), 10, 1, GoOut(1))
    assert err.value.field == "bankrolls"


# --- GFF-5 / GFF-6 side pots from dealt hands ----------------------------------------------

HANDS = (
    cs("2H 9S 4C KD QC"),  # seat 0
    cs("5H 3S 8C 7D JC"),  # seat 1
    cs("AS 6H 2D 9D 10C"),  # seat 2
    cs("7H 5S 4D KH 6C"),  # seat 3 (dealer): flip card 7H, flop suit diamonds
)
FLIP = parse_card("7H")


@pytest.mark.rule("GFF-5")
def test_gff5_side_pots_everyone_staked() -> None:
    got = settle_gff((100,) * 4, 10, 3, GoOut(1), dealt_hands=HANDS, flip_card=FLIP)
    assert pot(got, "flip") == (40, ((0, 40),), False)
    assert pot(got, "flop") == (40, ((2, 40),), False)
    assert got.net == (10, 10, 10, -30)  # seat 0 flip, seat 1 game, seat 2 flop


@pytest.mark.rule("GFF-6")
def test_gff6_side_pot_fallback_next_lowest() -> None:
    # stakes (1, 3, 2, 3): 2H's holder (seat 0) and 2D's holder (seat 2 for the flop) did not stake
    got = settle_gff(
        (20, 40, 30, 40), 10, 3, GoOut(2), dealt_hands=HANDS, flip_card=FLIP,
        rules=GameFlipFlopRules("next_lowest"),
    )  # fmt: skip
    assert got.stakes_in == (1, 3, 2, 3)
    assert pot(got, "flip") == (30, ((1, 30),), False)  # 5H
    assert pot(got, "flop") == (20, ((3, 20),), False)  # 4D
    assert got.net == (-10, 0, 20, -10) and got.eliminated == (0,)
    assert got.side is not None and got.side.flip.fallback


@pytest.mark.rule("GFF-6")
def test_gff6_side_pot_fallback_carry_over() -> None:
    got = settle_gff(
        (20, 40, 30, 40), 10, 3, GoOut(2), dealt_hands=HANDS, flip_card=FLIP,
        rules=GameFlipFlopRules("carry_over"),
    )  # fmt: skip
    assert pot(got, "flip") == (30, (), True)
    assert pot(got, "flop") == (20, (), True)
    assert got.net == (-10, -30, 20, -30)
    assert (got.flip_carry_out, got.flop_carry_out, got.carry_out) == (30, 20, 50)
    assert sum(got.net) + got.carry_net == 0


@pytest.mark.rule("GFF-5")
def test_gff5_flop_carry_over_then_won_next_deal() -> None:
    no_diamonds = (cs("2H 9S 4C KS QC"), cs("5H 3S 8C 7S JC"), cs("AS 6H 2S 9C 7H"))
    first = settle_gff((100,) * 3, 10, 2, GoOut(0), dealt_hands=no_diamonds, flip_card=FLIP)
    assert pot(first, "flop") == (30, (), True)
    assert first.flop_carry_out == 30 and first.net == (30, -30, -30)  # seat 0: game + flip
    assert sum(first.net) + first.carry_out - first.carry_in == 0
    # next deal: the carried 30 plus three new stakes; seat 1 holds the lowest diamond
    hands = (cs("2H 9S 4C KS QC"), cs("5H 3S 8C 7S AD"), cs("AS 6H 2S 9C 8H"))
    second = settle_gff(
        first.bankrolls_after, 10, 0, GoOut(2), dealt_hands=hands, flip_card=hands[0][0],
        flop_carry_in=first.flop_carry_out,
    )  # fmt: skip
    assert pot(second, "flop") == (60, ((1, 60),), False)
    assert second.carry_in == 30 and second.carry_out == 0
    assert second.net == (0, 30, 0)  # seat 0 wins the flip: 30 - 30
    assert sum(second.net) + second.carry_net == 0


# --- input errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"stake": -10}, "stake"),
        ({"stake": 0}, "stake"),
        ({"bankrolls": (100, -1, 100)}, "bankrolls[1]"),
        ({"bankrolls": (100,)}, "bankrolls"),
        ({"dealer": 3}, "dealer"),
        ({"outcome": GoOut(5)}, "outcome.seat"),
        ({"outcome": Drop(0, (1, 2))}, "outcome.totals"),
        ({"outcome": StockExhausted((1, None, 2))}, "outcome.totals[1]"),
        ({"outcome": EarlyWin(((0, 48),))}, "outcome.declarations[0]"),
        ({"outcome": EarlyWin(((0, 49), (0, 49)))}, "outcome.declarations[1]"),
        ({"outcome": EarlyWin(())}, "outcome.declarations"),
        ({"flop_carry_in": 10}, "flop_carry_in"),
        ({"flip_carry_in": -1}, "flip_carry_in"),
        ({"side_winners": SideWinners(7, None)}, "side_winners.flip"),
    ],
)
def test_gff_impossible_outcomes_raise(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {
        "bankrolls": (100, 100, 100),
        "stake": 10,
        "dealer": 0,
        "outcome": GoOut(1),
    }
    args.update(kwargs)
    with pytest.raises(OutcomeError) as err:
        settle_gff(**args)  # type: ignore[arg-type]
    assert err.value.field == field


# --- properties -----------------------------------------------------------------------------


@st.composite
def deals(draw: st.DrawFn) -> tuple[tuple[int, ...], int, int, GffOutcome, dict[str, object]]:
    n = draw(st.integers(2, 8))
    stake = draw(st.integers(1, 25))
    bankrolls = tuple(draw(st.lists(st.integers(0, 6 * stake), min_size=n, max_size=n)))
    stakes = [stakes_for(b, stake) for b in bankrolls]
    dealt = [i for i, k in enumerate(stakes) if k]
    assume(len(dealt) >= 2)
    dealer = draw(st.integers(0, n - 1))
    totals = tuple(draw(st.integers(0, 50)) if k else None for k in stakes)
    kind = draw(st.sampled_from(["early", "drop", "tunk", "go", "stock"]))
    outcome: GffOutcome
    if kind == "early":
        seats = draw(st.lists(st.sampled_from(dealt), min_size=1, unique=True))
        outcome = EarlyWin(tuple((s, draw(st.sampled_from([49, 50]))) for s in seats))
    elif kind == "drop":
        outcome = Drop(draw(st.sampled_from(dealt)), totals)
    elif kind == "tunk":
        outcome = TunkOut(draw(st.sampled_from(dealt)))
    elif kind == "go":
        outcome = GoOut(draw(st.sampled_from(dealt)))
    else:
        outcome = StockExhausted(totals)
    extra: dict[str, object] = {}
    mode = draw(st.sampled_from(["none", "winners", "hands"]))
    if mode != "none":
        extra["flip_carry_in"] = draw(st.integers(0, 50))
        extra["flop_carry_in"] = draw(st.integers(0, 50))
    if mode == "winners":
        flip = [None] + [i for i in dealt if stakes[i] >= 2]
        flop = [None] + [i for i in dealt if stakes[i] >= 3]
        extra["side_winners"] = SideWinners(
            draw(st.sampled_from(flip)), draw(st.sampled_from(flop))
        )
    elif mode == "hands":
        tens = draw(st.permutations([r + 13 * su for r in range(9, 13) for su in range(4)]))
        nines = [8, 21, 34, 47]
        if isinstance(outcome, EarlyWin):  # give each declarer a real 49 / 50 (GFF-4)
            outcome = EarlyWin(outcome.declarations[:3])
        wanted = dict(outcome.declarations) if isinstance(outcome, EarlyWin) else {}
        hands: list[tuple[int, ...]] = []
        pos = 0
        for seat in range(n):
            if seat in wanted:
                hand = tens[pos : pos + 4] + (
                    [tens[pos + 4]] if wanted[seat] == 50 else [nines.pop()]
                )
                pos += 5 if wanted[seat] == 50 else 4
                hands.append(tuple(hand))
            else:
                hands.append(())
        used = {card for hand in hands for card in hand}
        rest = draw(st.permutations([x for x in range(52) if x not in used]))
        rest_pos = 0
        for seat, k in enumerate(stakes):
            if k and seat not in wanted:
                hands[seat] = tuple(rest[rest_pos : rest_pos + 5])
                rest_pos += 5
        if dealer not in dealt:
            dealer = dealt[-1]
        extra["dealt_hands"] = tuple(hands)
        extra["flip_card"] = hands[dealer][-1]
        extra["rules"] = GameFlipFlopRules(draw(st.sampled_from(["next_lowest", "carry_over"])))
    return bankrolls, stake, dealer, outcome, extra


@pytest.mark.rule("C-3")
@settings(max_examples=300, deadline=None)
@given(deals())
def test_c3_every_gff_settlement_sums_to_zero_and_only_stakers_win(
    case: tuple[tuple[int, ...], int, int, GffOutcome, dict[str, object]],
) -> None:
    bankrolls, stake, dealer, outcome, extra = case
    got = settle_gff(bankrolls, stake, dealer, outcome, **extra)  # type: ignore[arg-type]
    n = len(bankrolls)
    assert sum(got.net) + got.carry_out - got.carry_in == 0
    assert sum(got.net) + got.carry_net == 0
    need = {"game": 1, "flip": 2, "flop": 3, "fifty": 1}
    for p in got.pots:
        assert sum(units for _, units in p.shares) == (0 if p.carried_over else p.amount)
        for seat, _ in p.shares:  # GFF-6: nobody wins a pot they did not stake in
            assert got.stakes_in[seat] >= need[p.name]
        if p.shares:
            values = [units for _, units in p.shares]
            assert max(values) - min(values) <= 1
    for seat in got.sitting_out:
        assert got.net[seat] == 0 and got.paid[seat] == 0
    assert set(got.eliminated) <= set(got.all_in)
    assert not set(got.eliminated) & set(got.game_winners)
    assert all(b >= 0 for b in got.bankrolls_after)  # the reserve always covers an extra stake
    assert len(got.net) == n


@pytest.mark.rule("C-3")
@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 1000),
    st.integers(1, 8),
    st.data(),
)
def test_c3_split_differs_by_one_and_leftovers_go_from_dealers_left(
    amount: int, n: int, data: st.DataObject
) -> None:
    dealer = data.draw(st.integers(0, n - 1))
    winners = data.draw(st.lists(st.integers(0, n - 1), min_size=1, unique=True))
    shares = split_pot(amount, winners, dealer, n)
    assert sum(shares.values()) == amount and set(shares) == set(winners)
    order = [s for s in seat_order_from_left(dealer, n) if s in shares]
    values = [shares[s] for s in order]
    assert values == sorted(values, reverse=True)  # the bigger shares come first from the left
    assert max(values) - min(values) <= 1
