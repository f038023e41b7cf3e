"""Lay-off plans (engine.teach.layoff_plan) and the Triple Tunk lay-down advice
(engine.advice.tunk.layout).

- TT-8: a meld holds at most five cards, so of RS1, GS1 and BB1 (each fits the 4-card meld
  BS2 GB4 GB? KS3 on its own) only one can go; GFF-3: chains (8 then 9) and one 4th card on a set.
- Property: replaying a plan card by card on random tables is legal at every step and never
  fills a meld beyond five cards (TT) or makes a non-spread (GFF), and keeps ``keep`` cards.
- Lay-down advice follows the situation: with every opponent waiting (TT-12, no knock possible
  before the player's next turn) melds are held; with opponents holding two cards and free to
  knock, they are laid (a held meld counts at a knock, TT-13).
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.advice.situation import Observation
from engine.advice.tunk.discard import discard_advice
from engine.advice.tunk.layout import LAY_THREAT, knock_threat, total_distribution
from engine.core.cards import parse_cards
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.topper import parse_topper_cards
from engine.core.types import TableMeld
from engine.games.gff.play import is_gff_spread
from engine.games.tt.melds import is_tt_meld
from engine.games.tt.play import can_extend
from engine.teach.layoff_plan import layoff_plan


@pytest.mark.rule("TT-8")
def test_tt_five_card_cap_lets_only_one_of_three_go() -> None:
    hand = parse_topper_cards(["BB1", "BB2", "BS3", "GS1", "KH3", "RS1"])
    table = (TableMeld(0, parse_topper_cards(["BS2", "GB4", "GB?", "KS3"])),)
    plan = layoff_plan(TRIPLE_TUNK, hand, table, 1)
    assert len(plan) == 1
    assert plan[0].meld_index == 0
    assert plan[0].card in parse_topper_cards(["RS1", "GS1", "BB1"])


@pytest.mark.rule("GFF-3")
def test_gff_chain_and_one_fourth_card_on_a_set() -> None:
    # GFF-3: 10H and JH extend 7-8-9 of hearts in order; only one 5 can complete the set of 5s
    # (there is only one left), and 2C fits nothing.
    table = (
        TableMeld(1, parse_cards(["7H", "8H", "9H"])),
        TableMeld(1, parse_cards(["5S", "5D", "5C"])),
    )
    plan = layoff_plan(GAME_FLIP_FLOP, parse_cards(["JH", "10H", "5H", "2C"]), table, 0)
    laid = [(lo.card, lo.meld_index) for lo in plan]
    # 25 points laid (10 + 10 + 5); ties broken by (meld index, card) order: 10H before JH.
    assert laid == [
        (c, i) for c, i in zip(parse_cards(["10H", "JH", "5H"]), (0, 0, 1), strict=True)
    ]


def _random_table(rng: random.Random, game: str) -> tuple[list[int], list[TableMeld]]:
    n = 52 if game == GAME_FLIP_FLOP else 125
    deck = list(range(n))
    rng.shuffle(deck)
    pred = is_gff_spread if game == GAME_FLIP_FLOP else is_tt_meld
    table: list[TableMeld] = []
    used: set[int] = set()
    pool = deck[:40]
    for size in (3, 4, 3, 4):
        for group in combinations(pool, size):
            if not used & set(group) and pred(group):
                table.append(TableMeld(rng.randrange(3), tuple(group)))
                used |= set(group)
                break
    rest = [c for c in deck if c not in used]
    # a hand biased towards cards that fit the table
    fitting = [c for c in rest if any(pred((*m.cards, c)) for m in table)]
    hand = rng.sample(fitting, min(len(fitting), rng.randrange(2, 5)))
    hand += [c for c in rest if c not in hand][: 6 - len(hand)]
    return hand, table


@pytest.mark.rule("TT-6", "TT-8")
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tt=st.booleans(), keep=st.integers(0, 2))
def test_plans_are_legal_in_order_and_never_overfill(seed: int, tt: bool, keep: int) -> None:
    game = TRIPLE_TUNK if tt else GAME_FLIP_FLOP
    hand, table = _random_table(random.Random(seed), game)
    seat = 1
    plan = layoff_plan(game, hand, table, seat, keep=keep)
    melds = [list(m.cards) for m in table]
    left = list(hand)
    for lo in plan:
        meld = melds[lo.meld_index]
        if tt:
            assert can_extend(meld, lo.card, table[lo.meld_index].owner == seat)
        else:
            assert is_gff_spread((*meld, lo.card))
        meld.append(lo.card)
        left.remove(lo.card)
        assert len(meld) <= 5 or not tt  # TT-6/TT-8: never more than five cards
    assert len(left) >= min(keep, len(hand))
    # Nothing more fits: the plan is maximal.
    if len(left) > keep:
        for c in left:
            for i, meld in enumerate(melds):
                if tt:
                    assert not can_extend(meld, c, table[i].owner == seat) or (
                        table[i].owner == seat
                    )
                else:
                    assert not is_gff_spread((*meld, c))


def _tt_obs(waiting: tuple[int, ...], sizes: tuple[int, ...]) -> Observation:
    # Seat 0 holds a 3-card meld (red hearts 1-2-3, special) plus deadwood, after the draw.
    hand = parse_topper_cards(["RH1", "RH2", "RH3", "YC4", "GT?", "BS4"])
    return Observation(
        game=TRIPLE_TUNK,
        seat=0,
        dealer=2,
        n_players=3,
        hand=hand,
        table=(),
        discards=parse_topper_cards(["YB?"]),
        known=((), (), ()),
        hand_sizes=(6, *sizes),
        turns=(6, 6, 6),
        stock_size=80,
        waiting=(0, *waiting),
        early=(False, False, False),
    )


@pytest.mark.rule("TT-12")
def test_a_waiting_opponent_cannot_knock_so_melds_are_held() -> None:
    # TT-12: both opponents wait; nobody can knock before our next turn: hold the meld.
    waiting = _tt_obs((3, 3), (2, 2))
    assert knock_threat(waiting) == 0.0
    advice = discard_advice(waiting)
    assert advice.lay is not None and not advice.lay.lay_melds and advice.lay.melds == ()
    assert "Hold" in advice.explanation


@pytest.mark.rule("TT-13")
def test_opponents_close_to_knocking_make_us_lay_the_meld() -> None:
    # The same hand with both opponents free to knock on two cards: lay the meld down (TT-13).
    free = _tt_obs((0, 0), (2, 2))
    assert knock_threat(free) >= LAY_THREAT
    advice = discard_advice(free)
    assert advice.lay is not None and advice.lay.lay_melds
    assert advice.lay.melds == (tuple(sorted(parse_topper_cards(["RH1", "RH2", "RH3"]))),)
    assert "Lay down" in advice.explanation


def test_total_distribution_is_exact() -> None:
    # Two of {1, 2, 3}: sums 3, 4, 5 once each; two of {1, 1, 5}: 2 once, 6 twice.
    assert total_distribution([1, 2, 3], 2) == [0, 0, 0, 1 / 3, 1 / 3, 1 / 3, 0]
    dist = total_distribution([1, 1, 5], 2)
    assert dist[2] == 1 / 3 and dist[6] == 2 / 3 and abs(sum(dist) - 1) < 1e-12


def test_total_distribution_pools_sums_above_the_limit() -> None:
    # Two of {1, 2, 3, 4} (6 pairs): sums 3, 4, 5, 5, 6, 7; with limit 4, sums 5+ pool in [5].
    assert total_distribution([1, 2, 3, 4], 2, 4) == [0, 0, 0, 1 / 6, 1 / 6, 4 / 6]
    rng = random.Random(3)
    for _ in range(50):
        points = [rng.randint(1, 10) for _ in range(rng.randint(0, 12))]
        k, limit = rng.randint(0, 5), rng.randint(0, 20)
        full = total_distribution(points, k)
        pooled = total_distribution(points, k, limit)
        assert pooled[: limit + 1] == pytest.approx(full[: limit + 1])
        assert sum(pooled) == pytest.approx(1.0)
