"""Triple Tunk play: lay-offs (TT-8), tunk out (TT-11), early tunk (TT-9), multipliers (TT-14)."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import TableError
from engine.core.options import TripleTunkRules
from engine.core.topper import DECK, parse_topper_card, parse_topper_cards
from engine.core.types import Layoff, TableMeld
from engine.games.tt.melds import describe_tt_meld
from engine.games.tt.play import (
    EarlyTunk,
    TTMultipliers,
    TTTunkOut,
    can_extend,
    early_tunk,
    extenders,
    owned_special_bonus,
    tt_can_empty_hand,
    tt_layoffs,
    tt_multipliers,
    tt_tunk_out,
    tt_tunk_out_options,
    tt_tunk_shape,
    validate_tt_table,
)

try:
    from tests.reference import brute_tt
except ImportError:  # pragma: no cover - pytest rootdir-less import mode
    import brute_tt  # type: ignore[no-redef]


def cards(text: str) -> tuple[int, ...]:
    return parse_topper_cards(text.split())


def card(text: str) -> int:
    return parse_topper_card(text)


def sorted_cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(cards(text)))


RED_HEART_123 = cards("RH1 RH2 RH3")  # special: 1-2-3 red hearts
GREEN_CIRCLE_123 = cards("GC1 GC2 GC3")  # special: 1-2-3 green circles


# ---------------------------------------------------------------- TT-8 lay-offs


@pytest.mark.rule("TT-8")
def test_tt8_opponent_cannot_break_a_special() -> None:
    table = [TableMeld(owner=1, cards=RED_HEART_123)]
    hand = cards("RH4 RC4 RH? YS2")
    assert tt_layoffs(hand, table, seat=0) == (
        Layoff(card("RH4"), 0, ()),  # 1-2-3-4 red hearts stays special
        Layoff(card("RH?"), 0, (card("RH4"),)),  # 1-2-3-? alone would be regular
    )
    assert not can_extend(RED_HEART_123, card("RC4"), by_owner=False)  # colour + seq only


@pytest.mark.rule("TT-8")
def test_tt8_owner_may_break_own_special() -> None:
    table = [TableMeld(owner=1, cards=RED_HEART_123)]
    hand = cards("RH4 RC4 RH? YS2")
    assert tt_layoffs(hand, table, seat=1) == (
        Layoff(card("RC4"), 0, ()),
        Layoff(card("RH4"), 0, ()),
        Layoff(card("RH?"), 0, ()),
    )


@pytest.mark.rule("TT-8")
def test_tt8_regular_meld_takes_any_card_that_keeps_a_meld() -> None:
    table = [TableMeld(owner=1, cards=cards("RC2 RH3 RT4"))]  # red 2-3-4, regular
    assert tt_layoffs(cards("RS1 RB? YC1"), table, seat=0) == (
        Layoff(card("RS1"), 0, ()),
        Layoff(card("RB?"), 0, ()),
    )


@pytest.mark.rule("TT-8")
def test_tt8_never_more_than_five_cards() -> None:
    full = cards("RH1 RH2 RH3 RH4 RH?")
    assert tt_layoffs(cards("KH1 RB2"), [TableMeld(0, full)], seat=0) == ()
    assert not can_extend(full, card("KH1"), by_owner=True)


@pytest.mark.rule("TT-8")
def test_tt8_chain_lists_shortest_requirement_once() -> None:
    table = [TableMeld(owner=2, cards=GREEN_CIRCLE_123)]
    layoffs = tt_layoffs(cards("GC? GC4 KC4"), table, seat=0)
    # GC? fits after GC4 or after KC4 (black wild): the smaller requirement card is listed.
    assert layoffs == (
        Layoff(card("GC4"), 0, ()),
        Layoff(card("GC?"), 0, (card("GC4"),)),
        Layoff(card("KC4"), 0, ()),
    )


# ---------------------------------------------------------------- TT-14 owned bonus on the table


@pytest.mark.rule("TT-14")
def test_tt14_sideways_cards_earn_nothing_for_either_player() -> None:
    meld = TableMeld(0, cards("RH1 RH2 RH3 RH4"), added=((card("RH4"), 1),))
    assert owned_special_bonus([meld], 0) == 2  # own cards: a 3-card special
    assert owned_special_bonus([meld], 1) == 1


@pytest.mark.rule("TT-8", "TT-14")
def test_tt8_tt14_owner_breaking_a_special_cancels_its_bonus() -> None:
    assert owned_special_bonus([TableMeld(0, RED_HEART_123)], 0) == 2
    assert owned_special_bonus([TableMeld(0, (*RED_HEART_123, card("RC4")))], 0) == 1
    # House reading: own cards RH1 RH2 RH3 KH4 are special, but the whole meld (with the
    # opponent's RH4, 1-2-3-4-4) is regular after the owner's KH4: the bonus is cancelled.
    broken = TableMeld(0, cards("RH1 RH2 RH3 RH4 KH4"), added=((card("RH4"), 1),))
    assert owned_special_bonus([broken], 0) == 1


# ---------------------------------------------------------------- TT-11 shapes


@pytest.mark.rule("TT-11", "TT-10")
def test_tt11_five_meld_plus_discard() -> None:
    five = describe_tt_meld(cards("RH1 RH2 RH3 RH4 RH?"))
    assert five is not None and five.special
    out = tt_tunk_out(cards("RH1 RH2 RH3 RH4 RH? YC1"), [], seat=0)
    assert out == TTTunkOut(
        shape="five_meld", melds=(five,), layoffs=(), discard=card("YC1"), special_bonus=4
    )


@pytest.mark.rule("TT-11", "TT-10")
def test_tt11_two_three_melds_no_discard() -> None:
    out = tt_tunk_out(cards("RH1 YB2 RH2 KT2 RH3 YT2"), [], seat=0)
    assert out is not None
    assert out.shape == "two_three_melds" and out.discard is None and out.layoffs == ()
    assert [m.cards for m in out.melds] == [RED_HEART_123, sorted_cards("YT2 KT2 YB2")]
    assert out.special_bonus == 4


@pytest.mark.rule("TT-11")
def test_tt11_three_meld_two_layoffs_plus_discard() -> None:
    table = [TableMeld(owner=1, cards=GREEN_CIRCLE_123)]
    options = tt_tunk_out_options(cards("RH1 RH2 RH3 GC4 GC? YS1"), table, seat=0)
    assert len(options) == 1
    out = options[0]
    assert out.shape == "three_meld_two_layoffs"
    assert [m.cards for m in out.melds] == [RED_HEART_123]
    assert out.layoffs == (Layoff(card("GC4"), 0, ()), Layoff(card("GC?"), 0, (card("GC4"),)))
    assert (out.discard, out.special_bonus) == (card("YS1"), 2)


@pytest.mark.rule("TT-11")
def test_tt11_four_meld_one_layoff_plus_discard() -> None:
    table = [TableMeld(owner=1, cards=GREEN_CIRCLE_123)]
    out = tt_tunk_out(cards("RH1 RH2 RH3 RH4 GC4 YS1"), table, seat=0)
    assert out is not None
    assert out.shape == "four_meld_one_layoff"
    assert [m.cards for m in out.melds] == [cards("RH1 RH2 RH3 RH4")]
    assert out.layoffs == (Layoff(card("GC4"), 0, ()),)
    assert (out.discard, out.special_bonus) == (card("YS1"), 3)


@pytest.mark.rule("TT-11")
def test_tt11_melds_laid_on_earlier_turns_count() -> None:
    table = [TableMeld(owner=0, cards=RED_HEART_123)]
    out = tt_tunk_out(cards("YT2 KT2 YB2"), table, seat=0)
    assert out is not None and out.shape == "two_three_melds" and out.special_bonus == 4
    # Extending the own meld to five now, then discarding.
    out = tt_tunk_out(cards("RH4 RH? YC1"), table, seat=0)
    assert out is not None and out.shape == "five_meld"
    assert out.melds == ()
    assert out.layoffs == (Layoff(card("RH4"), 0, ()), Layoff(card("RH?"), 0, (card("RH4"),)))
    assert (out.discard, out.special_bonus) == (card("YC1"), 4)


@pytest.mark.rule("TT-11")
def test_tt11_meld_size_counts_own_cards_not_opponents() -> None:
    mine = TableMeld(0, cards("RH1 RH2 RH3 RH4"), added=((card("RH4"), 1),))  # own size 3
    out = tt_tunk_out(cards("YT2 KT2 YB2"), [mine], seat=0)
    assert out is not None and out.shape == "two_three_melds" and out.special_bonus == 4


@pytest.mark.rule("TT-11")
def test_tt11_sideways_cards_from_earlier_turns_count() -> None:
    theirs = TableMeld(1, cards("GC1 GC2 GC3 GC4"), added=((card("GC4"), 0),))
    out = tt_tunk_out(cards("RH1 RH2 RH3 RH4 YS1"), [theirs], seat=0)
    assert out is not None
    assert out.shape == "four_meld_one_layoff" and out.layoffs == ()
    assert (out.discard, out.special_bonus) == (card("YS1"), 3)


@pytest.mark.rule("TT-11")
def test_tt11_non_shape_is_refused() -> None:
    # Three cards already laid sideways: a 3-card meld would empty the hand as "3 + 3 sideways",
    # which is no TT-11 shape, so the hand may not be emptied.
    table = [
        TableMeld(1, cards("GC1 GC2 GC3 GC4 GC?"), added=((card("GC4"), 0), (card("GC?"), 0))),
        TableMeld(2, cards("YT1 YT2 YT3 YT4"), added=((card("YT4"), 0),)),
    ]
    assert tt_tunk_out(RED_HEART_123, table, seat=0) is None
    assert not tt_can_empty_hand(RED_HEART_123, table, seat=0)
    after = [*table, TableMeld(0, RED_HEART_123)]
    assert tt_tunk_shape(after, seat=0) is None


@pytest.mark.rule("TT-11")
def test_tt11_hand_that_cannot_be_disposed_of() -> None:
    assert tt_tunk_out(cards("RH1 RH2 RH3 RH4 YS1 GT2"), [], seat=0) is None  # no opponent meld
    assert tt_tunk_out((), [], seat=0) is None


@pytest.mark.rule("TT-11")
def test_tt11_tunk_shape_of_final_tables() -> None:
    five = [TableMeld(0, cards("RH1 RH2 RH3 RH4 RH?"))]
    assert tt_tunk_shape(five, 0) == "five_meld"
    sideways = TableMeld(1, cards("GC1 GC2 GC3 GC4"), added=((card("GC4"), 0),))
    assert tt_tunk_shape([*five, sideways], 0) is None  # 5-card meld + lay-off: no shape
    assert tt_tunk_shape([TableMeld(0, cards("RH1 RH2 RH3 RH4")), sideways], 0) == (
        "four_meld_one_layoff"
    )


@pytest.mark.rule("TT-11")
def test_tt11_prefers_highest_special_bonus_over_shape_order() -> None:
    # five_meld RC3 RH? RB3 KC3 KH? (colour + number, regular) would be bonus 1; two 3-card
    # melds with RB3 KH? RH? (special, 3-?-?) + RC1 RC3 KC3 (regular) give bonus 2.
    hand = cards("RC3 RC1 RB3 KC3 RH? KH?")
    options = tt_tunk_out_options(hand, [], seat=0)
    assert options[0].shape == "two_three_melds" and options[0].special_bonus == 2
    assert [m.cards for m in options[0].melds] == [
        sorted_cards("RC1 RC3 KC3"),
        sorted_cards("RH? RB3 KH?"),
    ]
    assert any(o.shape == "five_meld" and o.special_bonus == 1 for o in options)
    assert tt_tunk_out(list(reversed(hand)), [], seat=0) == options[0]


# ---------------------------------------------------------------- TT-11 brute-force cross-check


def _scenario(rng: random.Random) -> tuple[list[int], list[TableMeld]] | None:
    """A random consistent position for seat 0: hand + own table cards = 6 (after the draw)."""
    dense = [c for c in DECK if c // 25 in (0, 4) and (c // 5) % 5 in (0, 1, 4)]
    pool = set(dense if rng.random() < 0.8 else DECK)
    table: list[TableMeld] = []
    for _ in range(rng.randint(0, 2)):
        found = brute_tt.melds_in(rng.sample(sorted(pool), min(len(pool), 7)))
        if not found:
            continue
        meld = list(rng.choice(found))
        pool -= set(meld)
        owner = rng.choice([0, 1, 2])
        added: list[tuple[int, int]] = []
        for _ in range(rng.randint(0, 2)):
            who = 1 if owner == 0 else 0
            fits = [c for c in sorted(pool) if brute_tt.can_add(owner, tuple(meld), c, who)]
            if fits and rng.random() < 0.6:
                extra = rng.choice(fits)
                meld.append(extra)
                added.append((extra, who))
                pool.discard(extra)
        table.append(TableMeld(owner, tuple(meld), tuple(added)))
    laid = sum(len(m.own_cards()) for m in table if m.owner == 0)
    laid += sum(1 for m in table if m.owner != 0 for _c, who in m.added if who == 0)
    size = 6 - laid
    if not 1 <= size <= len(pool):
        return None
    return rng.sample(sorted(pool), size), table


def _replay(option: TTTunkOut, hand: list[int], table: list[TableMeld]) -> tuple[str, int]:
    """Play an option with the brute-force TT-8 rules; return (shape, bonus) it reaches."""
    state = [(m.owner, m.cards, m.added) for m in table]
    left = set(hand)
    for meld in option.melds:
        assert brute_tt.is_meld(meld.cards) and set(meld.cards) <= left
        left -= set(meld.cards)
        state.append((0, meld.cards, ()))
    for lay in option.layoffs:
        owner, mcards, added = state[lay.meld_index]
        assert set(lay.requires) <= set(mcards)
        assert brute_tt.can_add(owner, mcards, lay.card, 0) and lay.card in left
        left.discard(lay.card)
        state[lay.meld_index] = (
            owner,
            (*mcards, lay.card),
            added + (((lay.card, 0),) if owner != 0 else ()),
        )
    if option.discard is not None:
        left.remove(option.discard)
    assert not left
    final = tuple(state)
    shape = brute_tt.shape_of(final, 0, discarded=option.discard is not None)
    assert shape == option.shape
    return shape, brute_tt.owned_bonus(final, 0)


@pytest.mark.rule("TT-11")
def test_tunk_out_matches_simulation_of_every_play() -> None:
    rng = random.Random(31)
    checked = with_tunk = 0
    while checked < 250:
        scenario = _scenario(rng)
        if scenario is None:
            continue
        hand, table = scenario
        checked += 1
        state = tuple((m.owner, m.cards, m.added) for m in table)
        reachable = brute_tt.tunk_outs(hand, state, 0)
        options = tt_tunk_out_options(hand, table, 0)
        assert {(o.shape, o.special_bonus) for o in options} == reachable, (hand, table)
        for option in options:
            assert _replay(option, hand, table) == (option.shape, option.special_bonus)
        if options:
            with_tunk += 1
            assert options[0].special_bonus == max(b for _s, b in reachable)
        assert tt_can_empty_hand(hand, table, 0) == bool(reachable)
    assert 20 < with_tunk < checked  # both outcomes are exercised


# ---------------------------------------------------------------- TT-9 early tunk


@pytest.mark.rule("TT-9")
@pytest.mark.parametrize(
    ("text", "eligible", "total"),
    [
        ("RC? RH? RT? RS4 RB1", True, 20),
        ("RC? RH? RT? RS? RB4", True, 24),
        ("RC? RH? RT? RS? RB?", True, 25),
        ("RC? RH? RT? RS4 RB2", False, 21),
        ("RC? RH? RT? RS2 RB2 YC1", False, 20),  # six cards: not a dealt five
        ("RC? RH? RT? RS4", False, 19),
    ],
)
def test_tt9_early_tunk_totals(text: str, eligible: bool, total: int) -> None:
    result = early_tunk(cards(text), TripleTunkRules())
    assert result == EarlyTunk(eligible=eligible, total=total, multiplier=2 if eligible else 1)


@pytest.mark.rule("TT-9")
def test_tt9_house_rule_totals() -> None:
    hand = cards("RC? RH? RT? RS4 RB2")
    assert early_tunk(hand, TripleTunkRules(early_tunk_totals=frozenset({21}))).eligible
    hand20 = cards("RC? RH? RT? RS4 RB1")
    assert not early_tunk(hand20, TripleTunkRules(early_tunk_totals=frozenset({21}))).eligible


# ---------------------------------------------------------------- TT-14 multipliers


@pytest.mark.rule("TT-14")
def test_tt14_maximum_is_two_times_two_times_four() -> None:
    five = [cards("RH1 RH2 RH3 RH4 RH?")]
    assert tt_multipliers(True, True, five) == TTMultipliers(2, 2, 4, 16)
    two = [RED_HEART_123, cards("YT2 KT2 YB2")]
    assert tt_multipliers(True, True, two).total == 16


@pytest.mark.rule("TT-14")
def test_tt14_multipliers_combine() -> None:
    assert tt_multipliers(False, False, []) == TTMultipliers(1, 1, 1, 1)
    assert tt_multipliers(True, False, [RED_HEART_123]) == TTMultipliers(2, 1, 2, 4)
    assert tt_multipliers(False, True, [cards("RH1 RH2 RH3 RH4")]) == TTMultipliers(1, 2, 3, 6)
    three = [RED_HEART_123, cards("YT2 KT2 YB2"), cards("GC1 GC2 GC3 GC4")]
    assert tt_multipliers(False, False, three).special == 4  # largest, not 2 * 2 * 3


# ---------------------------------------------------------------- table validation


def test_validate_tt_table_accepts_a_legal_table() -> None:
    validate_tt_table(
        [
            TableMeld(0, RED_HEART_123),
            TableMeld(1, cards("GC1 GC2 GC3 GC4"), added=((card("GC4"), 0),)),
        ],
        players=3,
    )


@pytest.mark.parametrize(
    "table",
    [
        [TableMeld(0, cards("RH1 RH2 YS4"))],  # not a meld
        [TableMeld(0, RED_HEART_123), TableMeld(1, cards("RH1 YH1 GH1"))],  # card twice
        [TableMeld(0, cards("RH1 RH2 RH3 RH4 RH? KH1"))],  # six cards
        [TableMeld(0, cards("RH1 RH2 RH3 RH4"), added=((card("RH4"), 0),))],  # owner "added"
        [TableMeld(0, cards("RH1 RH2 RH3 RH4"), added=((card("YC1"), 1),))],  # not in meld
        [TableMeld(0, RED_HEART_123, added=((card("RH1"), 1),))],  # owner keeps < 3 cards
        [TableMeld(5, RED_HEART_123)],  # no such seat
    ],
)
def test_validate_tt_table_rejects(table: list[TableMeld]) -> None:
    with pytest.raises(TableError) as info:
        validate_tt_table(table, players=3)
    assert info.value.field is not None and info.value.field.startswith("table[")


@pytest.mark.rule("TT-8")
def test_extenders_are_every_card_can_extend_accepts() -> None:
    # TT-8 from the meld masks against the card-by-card rule, on random melds of 3 to 5 cards
    # (specials included, so a stranger's special meld only takes cards that keep it special).
    rng = random.Random(8)
    checked = specials = 0
    while checked < 400:
        meld = tuple(rng.sample(range(len(DECK)), rng.choice((3, 3, 4, 5))))
        described = describe_tt_meld(meld)
        if described is None:
            continue
        specials += described.special
        for owner in (True, False):
            expected = {c for c in range(len(DECK)) if can_extend(meld, c, owner)}
            assert set(extenders(meld, owner)) == expected
        checked += 1
    assert specials > 0


@pytest.mark.rule("TT-7", "TT-8")
def test_extenders_of_a_special_meld_depend_on_the_owner() -> None:
    # RH1 RH2 RH3 is special (colour, shape, sequence, TT-7): its owner may add GH4 (a run in
    # shape only), nobody else may; RH4 keeps it special and is open to all.
    meld = cards("RH1 RH2 RH3")
    assert card("RH4") in extenders(meld, False) and card("RH4") in extenders(meld, True)
    assert card("GH4") in extenders(meld, True)
    assert card("GH4") not in extenders(meld, False)
    assert extenders(cards("RH1 RH2 RH3 RH4 RH?"), True) == ()
