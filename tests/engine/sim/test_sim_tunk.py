"""Simulators for the Tunk games: invariants, rules in play, statistics helpers."""

from __future__ import annotations

import math
import random

import pytest

from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK, TripleTunkRules
from engine.sim.core import (
    Observation,
    calibration_gap,
    calibration_table,
    mean_interval,
    normal_interval,
    wilson_interval,
)
from engine.sim.gff import STAKE, deal_gff, play_gff_deal
from engine.sim.policies import (
    HELD_OUT_STYLES,
    AdvisorPolicy,
    BaselinePolicy,
    StrongPolicy,
    StylePolicy,
    knock_limit,
    panel_policy,
)
from engine.sim.tt import deal_tt, play_tt_deal, recycle


class Spy(BaselinePolicy):
    """A baseline that checks it is only shown what a player sees."""

    def __init__(self, game: str, threshold: int | None = None) -> None:
        super().__init__(game, threshold)
        self.seen: list[Observation] = []

    def knock(self, obs: Observation) -> bool:
        self.seen.append(obs)
        assert obs.known[obs.seat] == ()
        assert len(obs.hand) == obs.hand_sizes[obs.seat]
        return super().knock(obs)


@pytest.mark.rule("C-3")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_gff_cards_conserved_and_settlements_balance(players: int) -> None:
    rng = random.Random(players)
    flip = flop = 0
    for d in range(40):
        policies = [BaselinePolicy(GAME_FLIP_FLOP, t) for t in (0, 4, 8, 12)[:players]]
        result, flip_out, flop_out = play_gff_deal(
            policies, d % players, rng, check=True, flip_carry=flip, flop_carry=flop
        )
        assert sum(result.game_net) == 0  # C-3
        assert sum(result.net) + (flip_out + flop_out) - (flip + flop) == 0  # C-3, GFF-5 carry
        assert all(v % 1 == 0 for v in result.net)
        flip, flop = flip_out, flop_out


@pytest.mark.rule("C-3")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tt_cards_conserved_and_settlements_balance(players: int) -> None:
    rng = random.Random(10 + players)
    ends = set()
    for d in range(40):
        policies = [BaselinePolicy(TRIPLE_TUNK, t) for t in (0, 3, 6, 9)[:players]]
        result = play_tt_deal(policies, d % players, rng, check=True)
        assert sum(result.net) == 0  # C-3 / TT-13
        ends.add(result.end)
    assert ends <= {"knock", "tunk_out", "abandoned"}


def test_advisor_plays_legal_deals_in_both_games() -> None:
    rng = random.Random(5)
    for d in range(6):
        advisor = AdvisorPolicy(GAME_FLIP_FLOP, random.Random(d), samples=40)
        result, _, _ = play_gff_deal(
            [advisor, BaselinePolicy(GAME_FLIP_FLOP)], d % 2, rng, check=True
        )
        assert sum(result.game_net) == 0
        advisor = AdvisorPolicy(TRIPLE_TUNK, random.Random(d), samples=40)
        tt = play_tt_deal(
            [advisor, BaselinePolicy(TRIPLE_TUNK), BaselinePolicy(TRIPLE_TUNK)],
            d % 3,
            rng,
            check=True,
        )
        assert sum(tt.net) == 0


def test_same_seed_same_deal() -> None:
    def run(seed: int) -> object:
        rng = random.Random(seed)
        policies = [BaselinePolicy(GAME_FLIP_FLOP, 6), BaselinePolicy(GAME_FLIP_FLOP, 9)]
        return [play_gff_deal(policies, d % 2, rng)[0].net for d in range(10)]

    assert run(3) == run(3)


@pytest.mark.rule("C-4", "GFF-5")
def test_gff_deal_order_and_flip_card() -> None:
    # C-4: one card at a time clockwise from the dealer's left, dealer last; GFF-5 flip card.
    rng = random.Random(1)
    deck = list(range(52))
    random.Random(1).shuffle(deck)
    deal = deal_gff(3, 2, rng)
    order = [0, 1, 2]
    expected: list[list[int]] = [[], [], []]
    for _ in range(5):
        for seat in order:
            expected[seat].append(deck.pop())
    assert deal.hands == expected
    assert deal.flip_card == expected[2][-1]
    assert deal.known[2] == {deal.flip_card}


def test_gff_observation_hides_other_hands() -> None:
    spies = [Spy(GAME_FLIP_FLOP, 0), Spy(GAME_FLIP_FLOP, 0)]
    rng = random.Random(8)
    for d in range(5):
        play_gff_deal(spies, d % 2, rng)
    obs = spies[0].seen[0]
    assert not hasattr(obs, "stock") and not hasattr(obs, "hands")


@pytest.mark.rule("GFF-11")
def test_gff_stock_exhaustion_ends_the_hand() -> None:
    # GFF-11: the player who draws the last stock card ends the hand after that turn.
    rng = random.Random(2)
    deal = deal_gff(2, 0, rng)
    extra = deal.stock[:-1]
    deal.stock = deal.stock[-1:]
    deal.discards = extra  # park the rest face up so that the stock holds a single card

    class StockOnly(BaselinePolicy):
        def take_discard(self, obs: Observation) -> bool:
            return False

    policies = [StockOnly(GAME_FLIP_FLOP, 0), StockOnly(GAME_FLIP_FLOP, 0)]
    result, _, _ = play_gff_deal(policies, 0, rng, start=deal, check=True)
    assert result.end in {"stock_exhausted", "go_out", "tunk_out"}
    assert result.turns <= 1


@pytest.mark.rule("TT-15")
def test_tt_recycles_the_discard_pile_unshuffled() -> None:
    # TT-15: the pile except its top card is turned over as the new stock.
    deal = deal_tt(3, 0, random.Random(3), TripleTunkRules())
    pile = deal.stock[:5]
    deal.stock = []
    deal.discards = list(pile)  # pile[0] oldest ... pile[-1] top
    assert recycle(deal)
    assert deal.discards == [pile[-1]]
    assert deal.stock[-1] == pile[0]  # the oldest discard is now the top of the stock
    assert deal.stock == pile[-2::-1]
    assert not recycle(deal)


@pytest.mark.rule("TT-15")
def test_tt_long_deals_recycle_and_keep_conservation() -> None:
    # Never-knocking players on a 2-seat table reach TT-15 often.
    rng = random.Random(4)
    policies = [BaselinePolicy(TRIPLE_TUNK, 0), BaselinePolicy(TRIPLE_TUNK, 0)]
    turns = [play_tt_deal(policies, d % 2, rng, check=True).turns for d in range(30)]
    assert max(turns) > 0


@pytest.mark.rule("TT-9")
def test_tt_early_tunk_claims() -> None:
    # TT-9: five dealt cards totalling 20, 24 or 25 claim an early tunk.
    rng = random.Random(0)
    for _ in range(200):
        deal = deal_tt(3, 0, rng, TripleTunkRules())
        for hand, claimed in zip(deal.hands, deal.early, strict=True):
            total = sum(c % 5 + 1 for c in hand)
            assert claimed == (total in (20, 24, 25))


# ------------------------------------------------------------------ statistics


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-3) and math.isclose(hi, 0.5962, abs_tol=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = normal_interval(50, 100)
    assert math.isclose(hi - lo, 2 * 1.96 * 0.05, rel_tol=1e-3)


def test_mean_interval_and_calibration() -> None:
    m, lo, hi = mean_interval([1.0, -1.0] * 50)
    assert m == 0 and lo < 0 < hi
    rows = calibration_table([0.05, 0.05, 0.95, 0.95], [False, False, True, True])
    assert [r.count for r in rows] == [2, 2]
    assert math.isclose(calibration_gap(rows), 0.05)


def test_stake_unit() -> None:
    assert STAKE > 0


def test_tt_advisor_holds_melds_until_it_tunks_out() -> None:
    # discard.lay_melds_advice: Triple Tunk melds stay in hand (TT-11 "go down clean").
    rng = random.Random(9)
    for d in range(8):
        advisor = AdvisorPolicy(TRIPLE_TUNK, random.Random(d), samples=40)
        policies = [advisor, BaselinePolicy(TRIPLE_TUNK), BaselinePolicy(TRIPLE_TUNK)]
        result = play_tt_deal(policies, d % 3, rng, check=True)
        assert sum(result.net) == 0
    gff = Observation(GAME_FLIP_FLOP, 0, 1, 2, (0, 1, 2), (), (), ((), ()), (3, 5), (0, 0), 40)
    assert AdvisorPolicy(GAME_FLIP_FLOP, random.Random(0)).lay_melds(gff)
    tt = Observation(
        TRIPLE_TUNK, 0, 1, 3, (0, 1, 2), (), (), ((), (), ()), (3, 5, 5), (0, 0, 0), 90
    )
    assert not AdvisorPolicy(TRIPLE_TUNK, random.Random(0)).lay_melds(tt)
    assert BaselinePolicy(TRIPLE_TUNK).lay_melds(tt)


@pytest.mark.rule("C-3")
@pytest.mark.parametrize("game", [GAME_FLIP_FLOP, TRIPLE_TUNK])
def test_self_play_seats_net_to_zero(game: str) -> None:
    # C-3: with the advisor in every seat each deal's game settlement sums to zero, and over the
    # deals the seats' totals do too (self-play: nobody gains but by the cards).
    players = 3
    totals = [0] * players
    for d in range(3):
        rng = random.Random(100 + d)
        seats = [panel_policy("self", game, random.Random(rng.getrandbits(32))) for _ in range(3)]
        if game == GAME_FLIP_FLOP:
            result, _flip, _flop = play_gff_deal(seats, d % players, rng, check=True)
        else:
            result = play_tt_deal(seats, d % players, rng, check=True)
        assert sum(result.game_net) == 0
        totals = [t + v for t, v in zip(totals, result.game_net, strict=True)]
    assert sum(totals) == 0


@pytest.mark.parametrize(
    "style",
    ["never", "knock5", "knock10", "melder", "hoarder", "random", *HELD_OUT_STYLES],
)
def test_every_panel_style_plays_legal_deals(style: str) -> None:
    for game in (GAME_FLIP_FLOP, TRIPLE_TUNK):
        rng = random.Random(7)
        seats = [BaselinePolicy(game)] + [
            panel_policy(style, game, random.Random(s)) for s in range(2)
        ]
        if game == GAME_FLIP_FLOP:
            result, _flip, _flop = play_gff_deal(seats, 0, rng, check=True)
        else:
            result = play_tt_deal(seats, 0, rng, check=True)
        assert sum(result.game_net) == 0


@pytest.mark.rule("TT-11", "GFF-9", "GFF-10")
@pytest.mark.parametrize("game", [TRIPLE_TUNK, GAME_FLIP_FLOP])
def test_a_deal_that_goes_out_shows_the_turn_start_and_the_cards_that_went_out(game: str) -> None:
    """``on_out`` fires exactly on deals a tunk out or going out ended, with the deal as it stood
    before that turn's draw: the player's hand then plus the card it drew are the revealed
    cards, and a card taken from the discard pile was its top card."""
    rng = random.Random(7)
    seen: list[tuple[object, ...]] = []
    ended_out = 0

    def on_out(before, seat, turn, revealed, picked) -> None:  # type: ignore[no-untyped-def]
        seen.append((before, seat, turn, revealed, picked))

    for d in range(60):
        policies = [BaselinePolicy(game, 0) for _ in range(3)]
        if game == TRIPLE_TUNK:
            result = play_tt_deal(policies, d % 3, rng, on_out=on_out)
        else:
            result = play_gff_deal(policies, d % 3, rng, on_out=on_out)[0]
        ended_out += result.end in ("tunk_out", "go_out")
        assert len(seen) == ended_out
        if result.end not in ("tunk_out", "go_out"):
            continue
        before, seat, turn, revealed, picked = seen[-1]
        hand = before.hands[seat]  # type: ignore[attr-defined]
        assert len(revealed) == len(hand) + 1
        drawn = [c for c in revealed if c not in hand]
        assert len(drawn) == 1 and sorted(hand + drawn) == sorted(revealed)
        if picked is not None:
            assert drawn == [picked] == [before.discards[-1]]  # type: ignore[attr-defined]
        assert turn == result.turns
    assert ended_out >= 10


@pytest.mark.parametrize(
    ("style", "limit", "holds"),
    [("knock7", 7, False), ("hoard5", 5, True), ("strong3", 3, False), ("strong8", 8, False)],
)
def test_held_out_styles_stop_on_their_totals(style: str, limit: int, holds: bool) -> None:
    """Each held-out style knocks / drops heads-up exactly at its total or less (GFF-8, TT-13)
    and the hoarding one holds its melds."""
    for game in (GAME_FLIP_FLOP, TRIPLE_TUNK):
        policy = panel_policy(style, game, random.Random(1))
        if isinstance(policy, StrongPolicy):
            assert knock_limit(policy.limit, 2) == limit
        else:
            assert isinstance(policy, StylePolicy)
            assert policy.threshold == limit and policy.lay is not holds
