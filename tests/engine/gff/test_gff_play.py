"""Game Flip Flop play: spreads (GFF-2), lay-offs (GFF-3), tunk out / go out (GFF-9, GFF-10),
totals (GFF-8), 49/50 (GFF-4) and side pots (GFF-5, GFF-6)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import RANK_OF, SUIT_OF, parse_card, parse_cards
from engine.core.errors import HandError, OutcomeError, TableError
from engine.core.options import GameFlipFlopRules
from engine.core.types import Layoff, TableMeld
from engine.games.gff.play import (
    early_win,
    gff_going_out,
    gff_layoffs,
    hand_total,
    is_gff_spread,
    side_pots,
    spread_kind,
    validate_gff_table,
)


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


def c(text: str) -> int:
    return parse_card(text)


def meld(owner: int, text: str, added: tuple[tuple[str, int], ...] = ()) -> TableMeld:
    return TableMeld(owner, cs(text), tuple((c(card), seat) for card, seat in added))


# --- GFF-2 spreads -------------------------------------------------------------------------


@pytest.mark.rule("GFF-2")
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("7S 7H 7D", "set"),
        ("7S 7H 7D 7C", "set"),
        ("AH 2H 3H", "run"),
        ("9C 10C JC QC KC", "run"),
        ("AS 2S 3S 4S 5S 6S", "run"),
        ("QH KH AH", None),  # GFF-2: aces low only
        ("KH AH 2H", None),  # no wrap-around
        ("8S 9S 10H", None),  # one suit
        ("8S 10S JS", None),  # consecutive
        ("7S 7H", None),  # three or more
        ("7S 7H 8H", None),
    ],
)
def test_gff2_spread_kind(text: str, kind: str | None) -> None:
    assert spread_kind(cs(text)) == kind
    assert is_gff_spread(cs(text)) == (kind is not None)


@pytest.mark.rule("GFF-2")
def test_gff2_repeated_card_is_not_a_spread() -> None:
    assert spread_kind((c("7S"), c("7S"), c("7H"))) is None


# --- table validation ----------------------------------------------------------------------


@pytest.mark.rule("GFF-2")
def test_gff2_table_meld_not_a_spread_names_its_index() -> None:
    with pytest.raises(TableError) as err:
        validate_gff_table([meld(0, "7S 7H 7D"), meld(1, "QH KH AH")])
    assert err.value.field == "table[1]"


@pytest.mark.rule("GFF-2")
def test_gff2_table_card_twice() -> None:
    with pytest.raises(TableError) as err:
        validate_gff_table([meld(0, "7S 7H 7D"), meld(1, "5H 6H 7H")])
    assert err.value.field == "table[1]"


@pytest.mark.rule("GFF-3")
def test_gff3_table_added_card_must_be_in_meld_and_by_another_seat() -> None:
    with pytest.raises(TableError):
        validate_gff_table([meld(0, "5H 6H 7H", (("8H", 1),))])
    with pytest.raises(TableError):
        validate_gff_table([meld(0, "5H 6H 7H 8H", (("8H", 0),))])
    with pytest.raises(TableError):  # the owner laid at least three of its cards
        validate_gff_table([meld(0, "5H 6H 7H 8H", (("8H", 1), ("5H", 2)))])
    validate_gff_table([meld(0, "5H 6H 7H 8H", (("8H", 1),))])


@pytest.mark.rule("GFF-3")
def test_gff3_hand_card_also_on_table_is_rejected() -> None:
    with pytest.raises(HandError):
        gff_layoffs(cs("7H 2C"), [meld(0, "5H 6H 7H")])


# --- GFF-3 lay-offs ------------------------------------------------------------------------


@pytest.mark.rule("GFF-3")
def test_gff3_run_extends_both_ends_with_chains() -> None:
    table = [meld(1, "5H 6H 7H")]
    got = gff_layoffs(cs("8H 9H 4H 3H KS"), table)
    assert got == (
        Layoff(c("4H"), 0),
        Layoff(c("3H"), 0, (c("4H"),)),
        Layoff(c("8H"), 0),
        Layoff(c("9H"), 0, (c("8H"),)),
    )


@pytest.mark.rule("GFF-3")
def test_gff3_chain_stops_at_a_gap() -> None:
    assert gff_layoffs(cs("9H 10H"), [meld(1, "5H 6H 7H")]) == ()


@pytest.mark.rule("GFF-3")
def test_gff3_set_of_three_takes_the_fourth_card_only() -> None:
    table = [meld(1, "7S 7H 7D"), meld(2, "QS QH QD QC")]
    assert gff_layoffs(cs("7C 8C"), table) == (Layoff(c("7C"), 0),)


@pytest.mark.rule("GFF-3")
def test_gff3_aces_low_no_wrap() -> None:
    table = [meld(0, "AS 2S 3S"), meld(1, "JH QH KH")]
    assert gff_layoffs(cs("KS AH 4S"), table) == (Layoff(c("4S"), 0),)


@pytest.mark.rule("GFF-3")
def test_gff3_a_card_may_fit_two_melds() -> None:
    table = [meld(0, "6H 7H 8H"), meld(1, "5S 5D 5C")]
    assert gff_layoffs(cs("5H"), table) == (Layoff(c("5H"), 0), Layoff(c("5H"), 1))


# --- GFF-9 tunk out / GFF-10 go out --------------------------------------------------------


@pytest.mark.rule("GFF-9")
def test_gff9_tunk_out_two_spreads_of_three_from_six_cards() -> None:
    got = gff_going_out(cs("8H 9H 10H 3S 3D 3C"), [], 0)
    assert got.kind == "tunk_out"
    assert sorted(map(sorted, got.spreads)) == sorted(
        [sorted(cs("3S 3D 3C")), sorted(cs("8H 9H 10H"))]
    )
    assert got.discard is None and got.layoffs == ()


@pytest.mark.rule("GFF-9")
def test_gff9_tunk_out_second_spread_on_a_later_turn() -> None:
    table = [meld(2, "5H 6H 7H"), meld(0, "AS 2S 3S 4S", (("4S", 1),))]  # 4S is not own
    got = gff_going_out(cs("3D 4D 5D"), table, 0)
    assert got.kind == "tunk_out" and got.spreads == (cs("3D 4D 5D"),)


@pytest.mark.rule("GFF-9")
def test_gff9_earlier_spread_with_four_own_cards_is_go_out() -> None:
    table = [meld(0, "AS 2S 3S 4S")]
    assert gff_going_out(cs("3D 4D 5D"), table, 0).kind == "go_out"


@pytest.mark.rule("GFF-9")
def test_gff9_three_spreads_is_go_out() -> None:
    table = [meld(0, "AS 2S 3S"), meld(0, "9C 9D 9H")]
    assert gff_going_out(cs("3D 4D 5D"), table, 0).kind == "go_out"


@pytest.mark.rule("GFF-9")
def test_gff9_emptied_by_discard_is_go_out_not_tunk() -> None:
    table = [meld(0, "AS 2S 3S")]
    got = gff_going_out(cs("3D 4D 5D KC"), table, 0)
    assert (got.kind, got.discard) == ("go_out", c("KC"))


@pytest.mark.rule("GFF-9")
def test_gff9_emptied_by_adding_is_go_out() -> None:
    table = [meld(0, "AS 2S 3S"), meld(1, "5H 6H 7H")]
    got = gff_going_out(cs("8H 9H 4S"), table, 0)
    assert (got.kind, got.spreads) == ("go_out", ())  # lay-offs (+ a discard) only
    assert len(got.layoffs) + (got.discard is not None) == 3


@pytest.mark.rule("GFF-9")
def test_gff9_laying_the_spread_beats_adding_it() -> None:
    table = [meld(0, "AS 2S 3S"), meld(1, "5H 6H 7H")]
    got = gff_going_out(cs("8H 9H 10H"), table, 0)
    assert got.kind == "tunk_out" and got.spreads == (cs("8H 9H 10H"),)


@pytest.mark.rule("GFF-10")
def test_gff10_go_out_by_lay_offs_and_discard() -> None:
    table = [meld(1, "5H 6H 7H")]
    got = gff_going_out(cs("8H 9H 4H KS"), table, 0)
    assert got.kind == "go_out"
    assert got.discard == c("KS")
    assert got.layoffs == (
        Layoff(c("4H"), 0),
        Layoff(c("8H"), 0),
        Layoff(c("9H"), 0, (c("8H"),)),
    )


@pytest.mark.rule("GFF-10")
def test_gff10_go_out_spread_of_four_plus_discard() -> None:
    got = gff_going_out(cs("9S 9H 9D 9C 2C"), [], 3)
    assert (got.kind, got.spreads, got.discard) == ("go_out", (cs("9S 9H 9D 9C"),), c("2C"))


@pytest.mark.rule("GFF-10")
def test_gff10_two_cards_add_one_discard_other() -> None:
    got = gff_going_out(cs("8H KC"), [meld(1, "5H 6H 7H")], 0)
    assert got.kind == "go_out" and got.discard == c("KC")


@pytest.mark.rule("GFF-10")
def test_gff10_six_cards_four_run_and_two_layoffs() -> None:
    table = [meld(1, "7S 7H 7D"), meld(2, "JD QD KD")]
    got = gff_going_out(cs("2C 3C 4C 5C 7C 10D"), table, 0)
    # fewest lay-offs wins: one card added, the other discarded (lowest card index: 10D)
    assert (got.kind, got.spreads, got.discard) == ("go_out", (cs("2C 3C 4C 5C"),), c("10D"))
    assert got.layoffs == (Layoff(c("7C"), 0),)


@pytest.mark.rule("GFF-10")
def test_gff10_cannot_go_out() -> None:
    got = gff_going_out(cs("2C 3C 5C 9D KS KH"), [], 0)
    assert got.kind is None and not got.can_end


@pytest.mark.rule("GFF-10")
def test_gff10_set_on_table_full_cannot_take_a_fifth() -> None:
    assert gff_going_out(cs("7C 2S"), [meld(1, "7S 7H 7D")], 0).kind == "go_out"
    assert gff_going_out(cs("7C 2S 9D"), [meld(1, "7S 7H 7D")], 0).kind is None


# --- GFF-8 totals / GFF-4 49 or 50 ---------------------------------------------------------


@pytest.mark.rule("GFF-8")
def test_gff8_hand_total_counts_every_card() -> None:
    assert hand_total(cs("AS KH QD JC 10S")) == 41
    assert hand_total(cs("3S 3H 3D")) == 9  # a spread still in hand counts


@pytest.mark.rule("GFF-4")
@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("KS QH JD 10C 9S", 49),
        ("KS QH JD 10C 10S", 50),
        ("KS QH JD 10C 8S", None),
        ("KS QH JD 10C", None),
        ("KS QH JD 10C 10S AH", None),  # only the dealt five cards count
    ],
)
def test_gff4_early_win(text: str, want: int | None) -> None:
    assert early_win(cs(text)) == want


# --- GFF-5 / GFF-6 side pots ---------------------------------------------------------------

HANDS = (
    cs("2H 9S 4C KD QC"),  # seat 0
    cs("5H 3S 8C 7D JC"),  # seat 1
    cs("AS 6H 2D 9D 10C"),  # seat 2
    cs("7H 5S 4D KH 6C"),  # seat 3 (dealer): flip card 7H
)


@pytest.mark.rule("GFF-5")
def test_gff5_flip_and_flop_lowest_cards() -> None:
    got = side_pots(HANDS, 3, c("7H"), None, GameFlipFlopRules())
    assert (got.flip.winner, got.flip.winning_card) == (0, c("2H"))
    assert (got.flop.winner, got.flop.winning_card) == (2, c("2D"))
    assert not got.flip.carried_over and not got.flop.carried_over


@pytest.mark.rule("GFF-5")
def test_gff5_flip_card_must_be_in_dealer_hand() -> None:
    with pytest.raises(OutcomeError) as err:
        side_pots(HANDS, 3, c("2H"), None, GameFlipFlopRules())
    assert err.value.field == "flip_card"


@pytest.mark.rule("GFF-5")
def test_gff5_flop_carries_over_when_no_card_of_the_suit() -> None:
    hands = (cs("2H 9S 4C KS QC"), cs("5H 3S 8C 7S JC"), cs("AS 6H 2S 9C 7H"))
    got = side_pots(hands, 2, c("7H"), None, GameFlipFlopRules())
    assert got.flop.carried_over and got.flop.winner is None and got.flop.lowest_card is None
    assert got.flip.winner == 0


@pytest.mark.rule("GFF-6")
def test_gff6_side_pot_fallback_next_lowest() -> None:
    stakes = (1, 3, 2, 3)  # seat 0 holds 2H but staked the game only; seat 2 holds 2D: no flop
    got = side_pots(HANDS, 3, c("7H"), stakes, GameFlipFlopRules("next_lowest"))
    assert (got.flip.winner, got.flip.winning_card, got.flip.fallback) == (1, c("5H"), True)
    assert (got.flop.winner, got.flop.winning_card) == (3, c("4D"))


@pytest.mark.rule("GFF-6")
def test_gff6_side_pot_fallback_carry_over() -> None:
    stakes = (1, 3, 2, 3)
    got = side_pots(HANDS, 3, c("7H"), stakes, GameFlipFlopRules("carry_over"))
    assert got.flip.carried_over and got.flip.winner is None
    assert got.flop.carried_over and got.flop.lowest_holder == 2


@pytest.mark.rule("GFF-6")
def test_gff6_no_staker_holds_the_suit_carries_over() -> None:
    stakes = (3, 3, 2, 3)
    hands = (
        cs("2H 9S 4C KS QC"),
        cs("5H 3S 8C 7S JC"),
        cs("AS 6H 2D 9C 10C"),
        cs("7H 5S 4S KH 6C"),
    )
    got = side_pots(hands, 3, c("7H"), stakes, GameFlipFlopRules("next_lowest"))
    assert got.flop.carried_over and got.flop.lowest_holder == 2


@pytest.mark.rule("GFF-6")
def test_gff6_side_pots_input_checks() -> None:
    rules = GameFlipFlopRules()
    with pytest.raises(OutcomeError):
        side_pots(HANDS[:1], 0, HANDS[0][0], None, rules)
    with pytest.raises(OutcomeError):
        side_pots(HANDS, 4, c("7H"), None, rules)
    with pytest.raises(OutcomeError):  # a seat not dealt in holds no cards
        side_pots(HANDS, 3, c("7H"), (0, 3, 3, 3), rules)
    with pytest.raises(OutcomeError):
        side_pots((*HANDS[:3], cs("7H 5S 4D KH")), 3, c("7H"), None, rules)
    with pytest.raises(HandError):
        side_pots((HANDS[0], HANDS[0], HANDS[2], HANDS[3]), 3, c("7H"), None, rules)


# --- properties ----------------------------------------------------------------------------


@st.composite
def hand_and_table(draw: st.DrawFn) -> tuple[tuple[int, ...], list[TableMeld], int]:
    """A random table of legal spreads and a disjoint hand of 2-6 cards."""
    used: set[int] = set()
    table: list[TableMeld] = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            rank = draw(st.integers(0, 12))
            cards = tuple(s * 13 + rank for s in range(4) if s * 13 + rank not in used)
            size = draw(st.integers(3, 4))
            if len(cards) < size:
                continue
            cards = cards[:size]
        else:
            suit, length = draw(st.integers(0, 3)), draw(st.integers(3, 5))
            start = draw(st.integers(0, 13 - length))
            cards = tuple(suit * 13 + r for r in range(start, start + length))
            if used & set(cards):
                continue
        used.update(cards)
        table.append(TableMeld(draw(st.integers(0, 3)), cards))
    free = [x for x in range(52) if x not in used]
    hand = draw(st.lists(st.sampled_from(free), min_size=2, max_size=6, unique=True))
    return tuple(hand), table, draw(st.integers(0, 3))


@pytest.mark.rule("GFF-9", "GFF-10")
@settings(max_examples=150, deadline=None)
@given(hand_and_table())
def test_gff9_gff10_plans_are_legal(case: tuple[tuple[int, ...], list[TableMeld], int]) -> None:
    hand, table, seat = case
    got = gff_going_out(hand, table, seat)
    if got.kind is None:
        return
    used = [card for spread in got.spreads for card in spread]
    used += [lo.card for lo in got.layoffs]
    if got.discard is not None:
        used.append(got.discard)
    assert sorted(used) == sorted(hand)  # every card disposed of exactly once
    assert all(is_gff_spread(s) for s in got.spreads)
    grown = {i: list(m.cards) for i, m in enumerate(table)}
    for lo in got.layoffs:  # GFF-3: each lay-off leaves a spread, in the given order
        assert all(r in grown[lo.meld_index] for r in lo.requires)
        grown[lo.meld_index].append(lo.card)
        assert is_gff_spread(grown[lo.meld_index])
    if got.kind == "tunk_out":
        assert got.discard is None and not got.layoffs
        assert all(len(s) == 3 for s in got.spreads)
        own = [m for m in table if m.owner == seat]
        assert len(got.spreads) + len(own) == 2


@pytest.mark.rule("GFF-3")
@settings(max_examples=150, deadline=None)
@given(hand_and_table())
def test_gff3_every_layoff_fits_after_its_requirements(
    case: tuple[tuple[int, ...], list[TableMeld], int],
) -> None:
    hand, table, _ = case
    for lo in gff_layoffs(hand, table):
        cards = list(table[lo.meld_index].cards) + list(lo.requires) + [lo.card]
        assert is_gff_spread(cards)
        assert lo.card in hand and set(lo.requires) <= set(hand)
        assert all(SUIT_OF[r] == SUIT_OF[lo.card] or RANK_OF[r] == RANK_OF[lo.card] for r in cards)


def _brute_can_end(hand: frozenset[int], melds: tuple[tuple[int, ...], ...]) -> bool:
    """Oracle: play cards one move at a time (lay any spread, add any one card, GFF-3/GFF-7)."""
    if len(hand) <= 1:  # empty, or discard the last card (GFF-10)
        return True
    for card in hand:
        for i, m in enumerate(melds):
            if is_gff_spread((*m, card)):
                grown = (*melds[:i], (*m, card), *melds[i + 1 :])
                if _brute_can_end(hand - {card}, grown):
                    return True
    cards = sorted(hand)
    for size in range(3, len(cards) + 1):
        for spread in combinations(cards, size):
            if is_gff_spread(spread) and _brute_can_end(hand - set(spread), (*melds, spread)):
                return True
    return False


@pytest.mark.rule("GFF-10")
@settings(max_examples=200, deadline=None)
@given(hand_and_table())
def test_gff10_going_out_search_matches_a_move_by_move_oracle(
    case: tuple[tuple[int, ...], list[TableMeld], int],
) -> None:
    hand, table, seat = case
    expected = _brute_can_end(frozenset(hand), tuple(m.cards for m in table))
    assert gff_going_out(hand, table, seat).can_end == expected
