"""Full-deal Game Flip Flop simulator (docs/rules.md GFF-1..GFF-11, C-3..C-5).

One call plays one deal between pluggable policies and settles it with
:func:`engine.games.gff.settle.settle_gff`:

- deal five cards each, one at a time clockwise from the dealer's left, dealer last (C-4); the
  dealer's last card is the flip card, known to everyone and kept in the dealer's hand (GFF-5);
- 49/50 is always declared (GFF-4): it wins outright, so no sensible player keeps quiet;
- each turn: the policy may drop (GFF-8, C-5); otherwise it draws from the stock or takes the top
  discard (GFF-7: the first player must draw from the stock); the simulator then goes out or
  tunks out when the hand allows it (GFF-9/GFF-10 via :func:`engine.games.gff.play.gff_going_out`),
  else lays every spread of the best arrangement and every lay-off it can (GFF-2/GFF-3), and the
  policy picks the discard;
- the player who draws the last stock card ends the hand after that turn (GFF-11).

Policies only ever see an :class:`~engine.sim.core.Observation`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.advice.tunk.common import best_spreads, gff_spreads_in
from engine.core.cards import POINTS, RANK_OF, SUIT_OF
from engine.core.options import GAME_FLIP_FLOP
from engine.core.types import TableMeld
from engine.games.gff.game import GAME as GAME_FLIP_FLOP_GAME
from engine.games.gff.play import gff_going_out, spread_kind
from engine.games.gff.settle import (
    Drop,
    EarlyWin,
    GffOutcome,
    GoOut,
    StockExhausted,
    TunkOut,
    settle_gff,
)
from engine.sim.core import DealResult, KnockRecord, Observation, Policy
from engine.sim.tunk import (
    EndHook,
    KnockHook,
    OutHook,
    TunkDeal,
    check_conservation,
    deal_hands,
    discard_card,
    draw_card,
    observe,
)

STAKE = 100  # units per stake; results are reported in stakes (units / STAKE)
BANKROLL = 10**9  # deep enough that GFF-6's reserve never limits the stakes
DEALT = GAME_FLIP_FLOP_GAME.deal_size()  # GFF-1
MAX_TURNS = 2000  # safety net; the stock (GFF-11) always ends a deal long before


@dataclass(slots=True)
class GffDeal(TunkDeal):
    """Mutable state of one deal (the simulator's own; policies never see it)."""

    flip_card: int
    dealt: tuple[tuple[int, ...], ...]

    def observation(self, seat: int, turn_number: int, last_stock: bool = False) -> Observation:
        """What ``seat`` sees now."""
        return observe(
            self,
            GAME_FLIP_FLOP,
            seat,
            turn_number,
            flip_card=self.flip_card,
            last_stock_turn=last_stock,
        )

    def totals(self) -> tuple[int, ...]:
        """GFF-8: every seat's hand total."""
        return tuple(sum(POINTS[c] for c in h) for h in self.hands)

    def check_conservation(self) -> None:
        """Every one of the 52 cards is in exactly one place (hand, stock, discards, table)."""
        check_conservation(self, GAME_FLIP_FLOP_GAME.deck.size)


def deal_gff(n: int, dealer: int, rng: random.Random) -> GffDeal:
    """Shuffle and deal (C-4): one card at a time clockwise from the dealer's left, dealer last."""
    deck, hands = deal_hands(GAME_FLIP_FLOP_GAME.deck.size, n, dealer, rng, DEALT)
    flip = hands[dealer][-1]  # GFF-5: the dealer's last dealt card
    known: list[set[int]] = [set() for _ in range(n)]
    known[dealer].add(flip)
    return GffDeal(
        n=n,
        dealer=dealer,
        hands=hands,
        stock=deck,
        discards=[],
        table=[],
        known=known,
        turns=[0] * n,
        flip_card=flip,
        dealt=tuple(tuple(h) for h in hands),
        history=[[] for _ in range(n)],
        declined=[[] for _ in range(n)],
    )


def _add_to_meld(meld: TableMeld, card: int, seat: int) -> TableMeld:
    added = meld.added if seat == meld.owner else (*meld.added, (card, seat))
    return TableMeld(meld.owner, tuple(sorted((*meld.cards, card))), added)


def lay_everything(deal: GffDeal, seat: int, melds: bool = True) -> None:
    """Lay the best arrangement's spreads, then every lay-off that fits (GFF-2, GFF-3, chains).

    With ``melds`` False the policy holds its spreads (they count at a drop, GFF-8); the other
    cards are still laid off."""
    hand = deal.hands[seat]
    held = {c for s in best_spreads(hand) for c in s} if not melds else set()
    for spread in best_spreads(hand) if melds else ():
        for c in spread:
            hand.remove(c)
        deal.table.append(TableMeld(seat, spread))
        deal.known[seat].difference_update(spread)
    changed = True
    while changed and len(hand) > 1:
        changed = False
        for card in sorted(hand, key=lambda c: -POINTS[c]):
            if card in held:
                continue
            for i, meld in enumerate(deal.table):
                if spread_kind((*meld.cards, card)) is not None:
                    deal.table[i] = _add_to_meld(meld, card, seat)
                    hand.remove(card)
                    deal.known[seat].discard(card)
                    changed = True
                    break
            if changed or len(hand) <= 1:
                break


def _may_go_out(hand: Sequence[int], table: Sequence[TableMeld]) -> bool:
    """Cheap necessary condition for going out: at most one card fits no spread in the hand and
    no table meld (same suit as a run, or the rank of a set of three)."""
    in_spread = 0
    for m, _p in gff_spreads_in(hand):
        in_spread |= m
    loose = 0
    for c in hand:
        if in_spread >> c & 1:
            continue
        fits = False
        for meld in table:
            kind = spread_kind(meld.cards)
            if (
                kind == "run"
                and SUIT_OF[c] == SUIT_OF[meld.cards[0]]
                or kind == "set"
                and len(meld.cards) == 3
                and RANK_OF[c] == RANK_OF[meld.cards[0]]
            ):
                fits = True
            if fits:
                break
        if not fits:
            loose += 1
            if loose > 1:
                return False
    return True


def _apply_going_out(deal: GffDeal, seat: int) -> str | None:
    """End the play when the hand can be emptied now (GFF-9 tunk out, GFF-10 going out)."""
    if not _may_go_out(deal.hands[seat], deal.table):
        return None
    plan = gff_going_out(deal.hands[seat], deal.table, seat)
    if plan.kind is None:
        return None
    hand = deal.hands[seat]
    for lay in plan.layoffs:  # meld indexes refer to the table before the new spreads
        deal.table[lay.meld_index] = _add_to_meld(deal.table[lay.meld_index], lay.card, seat)
        hand.remove(lay.card)
    for spread in plan.spreads:
        for c in spread:
            hand.remove(c)
        deal.table.append(TableMeld(seat, tuple(sorted(spread))))
    if plan.discard is not None:
        hand.remove(plan.discard)
        deal.discards.append(plan.discard)
    deal.known[seat].clear()
    if hand:
        raise AssertionError("going out left cards in hand")
    return plan.kind


def play_gff_deal(
    policies: Sequence[Policy],
    dealer: int,
    rng: random.Random,
    *,
    stake: int = STAKE,
    flip_carry: int = 0,
    flop_carry: int = 0,
    on_knock: KnockHook | None = None,
    on_end: EndHook | None = None,
    on_out: OutHook | None = None,
    check: bool = False,
    start: GffDeal | None = None,
) -> tuple[DealResult, int, int]:
    """Play and settle one deal; returns the result and the flip/flop money carried onwards.

    ``on_knock`` sees every drop decision with every seat's total at that moment (calibration);
    ``on_end`` a deal a drop ended, every hand shown (opponent profiles); ``on_out`` a deal a
    tunk out or going out ended, as it stood at the start of that turn, with the player's cards.
    ``check`` asserts card conservation after every step (tests). ``start`` plays on from a
    prepared deal (tests) instead of dealing a new one.
    """
    n = len(policies)
    deal = start if start is not None else deal_gff(n, dealer, rng)
    if check:
        deal.check_conservation()
    outcome: GffOutcome
    declarations = tuple(
        (s, sum(POINTS[c] for c in deal.hands[s]))
        for s in range(n)
        if sum(POINTS[c] for c in deal.hands[s]) in (49, 50)
    )
    turn = 0
    knocks: list[tuple[int, KnockRecord]] = []
    if declarations:  # GFF-4
        outcome = EarlyWin(declarations)
    else:
        seat = (dealer + 1) % n
        outcome = StockExhausted(deal.totals())
        while turn < MAX_TURNS:
            obs = deal.observation(seat, turn)
            dropped = policies[seat].knock(obs)  # GFF-8 / C-5
            if on_knock is not None:
                on_knock(seat, tuple(deal.totals()), dropped)
            if dropped:
                if on_end is not None:
                    on_end(deal, seat, turn)
                outcome = Drop(seat, deal.totals())
                break
            take = bool(deal.discards) and policies[seat].take_discard(obs)  # GFF-7
            before = copy.deepcopy(deal) if on_out is not None else None
            card = draw_card(deal, seat, take)
            revealed = tuple(deal.hands[seat]) if on_out is not None else ()
            last_stock = not deal.stock  # GFF-11: this turn ends the hand
            kind = _apply_going_out(deal, seat)
            if check:
                deal.check_conservation()
            if kind is not None:
                if on_out is not None:
                    on_out(before, seat, turn, revealed, card if take else None)
                outcome = TunkOut(seat) if kind == "tunk_out" else GoOut(seat)
                break
            lay_everything(deal, seat, policies[seat].lay_melds(deal.observation(seat, turn)))
            hand = deal.hands[seat]
            if len(hand) == 1:  # gff_going_out would have found this; keep the rule anyway
                deal.discards.append(hand.pop())
                deal.known[seat].clear()
                outcome = GoOut(seat)
                break
            throw = policies[seat].discard(deal.observation(seat, turn, last_stock))
            if throw not in hand:
                raise ValueError(f"policy for seat {seat} discarded a card it does not hold")
            discard_card(deal, seat, throw)
            if check:
                deal.check_conservation()
            turn += 1
            if last_stock:
                outcome = StockExhausted(deal.totals())
                break
            seat = (seat + 1) % n
    bankrolls = [BANKROLL] * n
    game = settle_gff(bankrolls, stake, dealer, outcome)
    full = settle_gff(
        bankrolls,
        stake,
        dealer,
        outcome,
        dealt_hands=deal.dealt,
        flip_card=deal.flip_card,
        flip_carry_in=flip_carry,
        flop_carry_in=flop_carry,
    )
    result = DealResult(
        net=full.net,
        game_net=game.net,
        winners=game.game_winners,
        end=outcome.kind,
        turns=turn,
        knocks=knocks,
    )
    return result, full.flip_carry_out, full.flop_carry_out


__all__ = [
    "BANKROLL",
    "GffDeal",
    "STAKE",
    "best_spreads",
    "deal_gff",
    "lay_everything",
    "play_gff_deal",
]
