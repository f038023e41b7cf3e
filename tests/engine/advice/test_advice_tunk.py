"""Advice for the Tunk games: discard, draw and knock/drop, with RULES.md ids."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.advice.tunk.common import (
    GFF_MODEL,
    TT_MODEL,
    check_observation,
    expected_deadwood_after_draw,
    sample_hidden,
    unseen_cards,
)
from engine.advice.tunk.discard import discard_advice
from engine.advice.tunk.draw import draw_advice
from engine.advice.tunk.knock import MAX_SAMPLES, knock_advice, win_probability
from engine.core.cards import POINTS, parse_cards
from engine.core.errors import EngineError
from engine.core.topper import parse_topper_cards
from engine.core.types import TableMeld
from tests.support.observations import gff_observation, tt_observation

gff_obs = gff_observation
tt_obs = tt_observation


# ------------------------------------------------------------------ one clearly right answer


@pytest.mark.rule("GFF-10")
def test_gff_discard_that_goes_out_is_recommended() -> None:
    # GFF-10: a five-card run plus a king: discard the king and go out.
    advice = discard_advice(gff_obs("AS 2S 3S 4S 5S KH", hand_sizes=(5, 6)))
    assert advice.ends == "go_out"
    assert advice.discard == parse_cards(["KH"])[0]


@pytest.mark.rule("GFF-9")
def test_gff_two_spreads_of_three_tunk_out_without_discard() -> None:
    # GFF-9: two spreads of three and no discard is a tunk out.
    advice = discard_advice(gff_obs("3S 4S 5S 9H 9D 9C", hand_sizes=(5, 6)))
    assert advice.ends == "tunk_out"
    assert advice.discard is None


@pytest.mark.rule("GFF-3", "GFF-10")
def test_gff_go_out_through_lay_offs() -> None:
    # GFF-3/GFF-10: a set, two lay-offs on an opponent's run, then the last card is thrown.
    table = (TableMeld(0, parse_cards(["7H", "8H", "9H"])),)
    hand = "2C 2D 2S 10H 6H KS"
    advice = discard_advice(gff_obs(hand, table=table, hand_sizes=(2, 6)))
    assert advice.ends == "go_out"
    assert advice.discard == parse_cards(["KS"])[0]


@pytest.mark.rule("TT-11")
def test_tt_discard_that_tunks_out_is_recommended() -> None:
    # TT-11: one 5-card meld (red hearts 1-2-3-4-?) plus the discard of the odd card.
    advice = discard_advice(tt_obs("RH1 RH2 RH3 RH4 RH? YC4"))
    assert advice.ends == "tunk_out"
    assert advice.discard == parse_topper_cards(["YC4"])[0]


@pytest.mark.rule("GFF-7")
def test_take_the_discard_that_completes_a_spread() -> None:
    # GFF-7: 7S 8S wait for 9S or 6S; taking the 9S lays a spread at once.
    obs = gff_obs("7S 8S KD QC JH", discards=parse_cards(["9S"]), turns=(1, 0), hand_sizes=(5, 5))
    advice = draw_advice(obs)
    assert advice.take_discard
    assert advice.deadwood_if_take is not None
    assert advice.deadwood_if_take < advice.expected_deadwood_if_stock


def test_discard_keeps_the_pair_and_throws_the_high_loner() -> None:
    obs = gff_obs("5H 5D 6C KS QH 2C", hand_sizes=(5, 6), turns=(1, 0))
    assert discard_advice(obs).discard in parse_cards(["KS", "QH"])


@pytest.mark.rule("TT-12")
def test_tt_waiting_forbids_knocking() -> None:
    # TT-12: a positive waiting counter offers no knock, whatever the odds.
    obs = tt_obs("RC1 YH1", hand_sizes=(2, 5, 5), waiting=(2, 0, 0))
    advice = knock_advice(obs, samples=50)
    assert not advice.allowed and not advice.knock


# ------------------------------------------------------------------ probabilities


def _exact_first_turn(hand: tuple[int, ...], flip: int) -> float:
    """P(the dealer's 5 cards total strictly more than ``hand``): the flip card plus 4 unknown
    cards uniform over the 46 others, counted exactly with a points polynomial."""
    mine = sum(POINTS[c] for c in hand)
    rest = [c for c in range(52) if c not in hand and c != flip]
    # ways[k][s]: number of k-card subsets of rest with points s
    ways = [[0] * 60 for _ in range(5)]
    ways[0][0] = 1
    for c in rest:
        p = POINTS[c]
        for k in range(4, 0, -1):
            for s in range(59 - p, -1, -1):
                if ways[k - 1][s]:
                    ways[k][s + p] += ways[k - 1][s]
    total = sum(ways[4])
    beat = sum(n for s, n in enumerate(ways[4]) if s + POINTS[flip] > mine)
    return beat / total


@pytest.mark.rule("C-5", "GFF-8")
def test_first_turn_drop_matches_exact_enumeration() -> None:
    # GFF-8/C-5: first player to act, only the hand and the flip card (GFF-5) known.
    hand = parse_cards(["AS", "2H", "3D", "9C", "QS"])
    flip = parse_cards(["4H"])[0]
    exact = _exact_first_turn(hand, flip)
    obs = gff_obs("AS 2H 3D 9C QS", flip_card=flip)
    p, (lo, hi) = win_probability(obs, samples=20_000, seed=7)
    assert abs(p - exact) <= 0.01
    assert lo <= exact <= hi
    assert len(list(combinations(range(46), 4))) == 163_185  # the enumeration's size


def test_same_inputs_and_seed_same_answer() -> None:
    obs = gff_obs("AS 2H 3D 9C QS", flip_card=parse_cards(["4H"])[0])
    assert knock_advice(obs, samples=300, seed=3) == knock_advice(obs, samples=300, seed=3)
    obs6 = gff_obs("5H 5D 6C KS QH 2C", hand_sizes=(5, 6), turns=(1, 0))
    assert discard_advice(obs6) == discard_advice(obs6)


def test_interval_narrows_as_samples_grow() -> None:
    obs = gff_obs("AS 2H 3D 9C QS", flip_card=parse_cards(["4H"])[0])
    widths = []
    for samples in (100, 1000, 10_000):
        _p, (lo, hi) = win_probability(obs, samples=samples, seed=1)
        widths.append(hi - lo)
    assert widths[0] > widths[1] > widths[2]


def test_expected_deadwood_is_a_mean_over_unseen_draws() -> None:
    hand = parse_cards(["7S", "8S", "KD", "QC"])
    unseen = parse_cards(["9S", "2H"])
    # 9S: throw a ten, 7-8-9 melded leaves 10; 2H: throw a ten, K/Q + 7 + 8 + 2 -> 27.
    assert expected_deadwood_after_draw(GFF_MODEL, hand, unseen) == (10 + 27) / 2


# ------------------------------------------------------------------ known cards stay put


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_known=st.integers(0, 3),
    constrained=st.booleans(),
    tt=st.booleans(),
)
def test_known_cards_never_appear_in_sampled_hands(
    seed: int, n_known: int, constrained: bool, tt: bool
) -> None:
    model = TT_MODEL if tt else GFF_MODEL
    rng = random.Random(seed)
    deck = list(model.deck)
    rng.shuffle(deck)
    hand, table_cards, pile = deck[:5], deck[5:8], deck[8:14]
    known = [deck[14 : 14 + n_known], deck[20:21]]
    table = (TableMeld(0, tuple(table_cards)),)
    seen = set(hand) | set(table_cards) | set(pile)
    unseen = unseen_cards(model.deck, hand, table, pile, known)
    assert not seen & set(unseen) and not set(known[0] + known[1]) & set(unseen)
    counts = [5 - len(known[0]), 4]
    caps = [tuple(model.order[c] for c in pile[:2]), ()]
    hands = sample_hidden(rng, unseen, counts, known, [constrained, constrained], model, caps)
    for j, h in enumerate(hands):
        assert len(h) == len(known[j]) + counts[j]
        assert set(known[j]) <= set(h)
        hidden = set(h) - set(known[j])
        assert not hidden & seen
        other = set(known[1 - j])
        assert not hidden & other
    assert not set(hands[0]) & set(hands[1])


def test_samples_above_the_cap_are_refused() -> None:
    obs = gff_obs("AS 2H 3D 9C QS")
    with pytest.raises(EngineError) as err:
        knock_advice(obs, samples=MAX_SAMPLES + 1)
    assert err.value.field == "samples"


def test_check_observation_rejects_a_card_in_two_places() -> None:
    obs = gff_obs("AS 2H 3D 9C QS", discards=parse_cards(["AS"]))
    with pytest.raises(EngineError):
        check_observation(obs, GFF_MODEL)
    check_observation(gff_obs("AS 2H 3D 9C QS"), GFF_MODEL)


@pytest.mark.rule("GFF-3")
def test_a_card_that_lays_off_on_the_table_is_dangerous() -> None:
    # GFF-3: the next player can take a 10H and add it to the 7-8-9 of hearts at once.
    table = (TableMeld(0, parse_cards(["7H", "8H", "9H"])),)
    obs = gff_obs("10H KS 4C 2D 5S AC", table=table, hand_sizes=(2, 6), turns=(1, 0))
    by_card = {o.card: o for o in discard_advice(obs).options}
    assert by_card[parse_cards(["10H"])[0]].danger == 1.0
    assert by_card[parse_cards(["KS"])[0]].danger < 0.5


@pytest.mark.rule("GFF-7")
def test_draw_from_the_stock_when_the_pile_is_empty() -> None:
    # GFF-7: the first player must draw from the stock.
    advice = draw_advice(gff_obs("AS 2H 3D 9C QS"))
    assert not advice.take_discard and advice.discard_top is None


# ------------------------------------------------------------------ money (GFF-6, GFF-8)


@pytest.mark.rule("GFF-8", "GFF-6")
@settings(max_examples=60, deadline=None)
@given(
    bankrolls=st.lists(st.integers(0, 700), min_size=3, max_size=5),
    stake=st.sampled_from([50, 100]),
    seat=st.integers(0, 4),
)
def test_drop_payouts_are_the_settlement(bankrolls: list[int], stake: int, seat: int) -> None:
    # GFF-8 via settle_gff: a strictly lowest dropper takes the game pot of the seats GFF-6
    # deals in, a caught one pays its stake and one extra; in stakes, whatever the bankrolls.
    from engine.advice.tunk.knock import drop_payouts, is_all_in
    from engine.games.gff.settle import stakes_for

    n = len(bankrolls)
    seat %= n
    dealt = [s for s in range(n) if stakes_for(bankrolls[s], stake) > 0]
    if seat not in dealt or len(dealt) < 2:
        return
    obs = gff_obs(
        "AS 2H 3D",
        seat=seat,
        dealer=dealt[0],
        n_players=n,
        known=((),) * n,
        hand_sizes=tuple(3 if s == seat else 5 if s in dealt else 0 for s in range(n)),
        turns=(0,) * n,
        stake=stake,
        bankrolls=tuple(bankrolls),
    )
    others = [s for s in obs.opponents() if s in dealt]
    assert drop_payouts(obs, others) == (len(dealt) - 1, -2.0)
    assert is_all_in(obs) == (stakes_for(bankrolls[seat], stake) == 1)
    advice = knock_advice(obs, samples=60, precision=None)
    assert (advice.payout_if_win, advice.payout_if_caught) == (len(dealt) - 1, -2.0)


@pytest.mark.rule("GFF-6")
def test_bankrolls_that_deal_other_seats_than_the_hands_are_refused() -> None:
    from engine.advice.tunk.knock import drop_payouts

    obs = gff_obs("AS 2H 3D", stake=100, bankrolls=(1000, 150))  # seat 0 cannot stake (GFF-6)
    with pytest.raises(EngineError) as err:
        drop_payouts(obs, (0,))
    assert err.value.field == "bankrolls"


@pytest.mark.rule("GFF-6")
def test_an_all_in_player_is_told_what_is_at_stake() -> None:
    # GFF-6: 250 units at a stake of 100 stakes the game pot only (k = 1): all in.
    obs = gff_obs("AS 2H 3D 4C 9H", stake=100, bankrolls=(1000, 250))
    advice = knock_advice(obs)
    assert advice.all_in and "eliminated" in advice.explanation
    assert not knock_advice(gff_obs("AS 2H 3D 4C 9H", stake=100, bankrolls=(1000, 1000))).all_in
