"""Full-deal Triple Tunk simulator (docs/rules.md TT-1..TT-15, C-3..C-5).

- Deal five cards each, one at a time clockwise from the dealer's left, dealer last (C-4); the
  next stock card is turned face up to start the discard pile (seed rule 1).
- TT-9: every player whose dealt cards total an early-tunk total claims it (a claim costs
  nothing and doubles a win, so every sensible player claims).
- Each turn: TT-12 first (a positive waiting counter offers no knock, then drops by one); the
  policy may knock (TT-13, C-5); otherwise it draws from the stock or takes the top discard
  (TT-10), recycling the discard pile except its top card, unshuffled, when the stock is empty
  (TT-15); the simulator tunks out when a TT-11 shape is available (``tt_tunk_out``), else lays
  the melds of the best arrangement and every lay-off it can (TT-8; an owner never breaks its own
  special meld), always keeping at least two cards (TT-11: no other play may empty the hand, and
  a card must be discarded); every card laid on an opponent's meld adds 3 to its owner's waiting
  counter (TT-12); then the policy picks the discard.
- Settlement through :func:`engine.games.tt.settle.settle_tt` (TT-13/TT-14 multipliers). TT-1 seats
3
  to 6 players; two seats (the heads-up tournament) are settled by the same TT-13 formula
  here, since ``settle_tt`` accepts only legal tables.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.options import TRIPLE_TUNK, TripleTunkRules
from engine.core.topper import POINTS
from engine.core.types import TableMeld
from engine.games.tt.arrange import best_tt_arrangement
from engine.games.tt.game import GAME as TRIPLE_TUNK_GAME
from engine.games.tt.melds import describe_tt_meld
from engine.games.tt.play import can_extend, early_tunk, owned_special_bonus, tt_tunk_out
from engine.games.tt.settle import TTKnock, TTTunkOut, multiplier, settle_tt
from engine.sim.core import DealResult, Observation, Policy
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

UNIT = 1
DEALT = TRIPLE_TUNK_GAME.deal_size()  # TT-1
HIT_WAIT = 3  # TT-12: turns per card laid on a player's meld
MAX_TURNS = 400  # a deal nobody ends by then is abandoned (no money changes hands)


@dataclass(slots=True)
class TTDeal(TunkDeal):
    """Mutable state of one Triple Tunk deal (the simulator's own)."""

    waiting: list[int]
    early: list[bool]

    def observation(self, seat: int, turn_number: int) -> Observation:
        """What ``seat`` sees now."""
        return observe(
            self,
            TRIPLE_TUNK,
            seat,
            turn_number,
            waiting=tuple(self.waiting),
            early=tuple(self.early),
        )

    def totals(self) -> tuple[int, ...]:
        """TT-13: points of the cards each seat still holds."""
        return tuple(sum(POINTS[c] for c in h) for h in self.hands)

    def check_conservation(self) -> None:
        """Every one of the 125 cards is in exactly one place."""
        check_conservation(self, TRIPLE_TUNK_GAME.deck.size)


def deal_tt(n: int, dealer: int, rng: random.Random, rules: TripleTunkRules) -> TTDeal:
    """Shuffle, deal (C-4), turn the first discard, record TT-9 early-tunk claims."""
    deck, hands = deal_hands(TRIPLE_TUNK_GAME.deck.size, n, dealer, rng, DEALT)
    discards = [deck.pop() for _ in range(TRIPLE_TUNK_GAME.turned_up)]
    early = [early_tunk(h, rules).eligible for h in hands]
    return TTDeal(
        n=n,
        dealer=dealer,
        hands=hands,
        stock=deck,
        discards=discards,
        table=[],
        known=[set() for _ in range(n)],
        turns=[0] * n,
        waiting=[0] * n,
        early=early,
        history=[[] for _ in range(n)],
        declined=[[] for _ in range(n)],
    )


def recycle(deal: TTDeal) -> bool:
    """TT-15: with the stock empty, the discard pile except its top card is turned over,
    unshuffled, as the new stock (its oldest card becomes the top). Returns whether it did."""
    if deal.stock or len(deal.discards) < 2:
        return False
    top = deal.discards.pop()
    deal.stock = deal.discards[::-1]
    deal.discards = [top]
    return True


def _add(deal: TTDeal, index: int, card: int, seat: int) -> None:
    meld = deal.table[index]
    if seat == meld.owner:
        deal.table[index] = TableMeld(meld.owner, (*meld.cards, card), meld.added)
    else:
        deal.table[index] = TableMeld(meld.owner, (*meld.cards, card), (*meld.added, (card, seat)))
        deal.waiting[meld.owner] += HIT_WAIT  # TT-12


def _breaks_own_special(meld: TableMeld, card: int) -> bool:
    before = describe_tt_meld(meld.cards)
    after = describe_tt_meld((*meld.cards, card))
    return before is not None and before.special and (after is None or not after.special)


def lay_everything(deal: TTDeal, seat: int, melds: bool = True) -> None:
    """Lay the best arrangement's melds and every lay-off, keeping two cards (TT-8, TT-11).

    With ``melds`` False the policy holds its melds: they are neither laid nor broken up for
    lay-offs (only the other cards are laid off).
    """
    hand = deal.hands[seat]
    best = best_tt_arrangement(hand).best.melds
    keep: set[int] = set()
    for new in best:
        if not melds:
            keep.update(new.cards)
            continue
        if len(hand) - len(new.cards) < 2:
            continue
        for c in new.cards:
            hand.remove(c)
        deal.table.append(TableMeld(seat, tuple(new.cards)))
        deal.known[seat].difference_update(new.cards)
    changed = True
    while changed and len(hand) > 2:
        changed = False
        for card in sorted(hand, key=lambda c: (-POINTS[c], c)):
            if card in keep:
                continue
            for i, meld in enumerate(deal.table):
                own = meld.owner == seat
                if can_extend(meld.cards, card, own) and not (
                    own and _breaks_own_special(meld, card)
                ):
                    _add(deal, i, card, seat)
                    hand.remove(card)
                    deal.known[seat].discard(card)
                    changed = True
                    break
            if changed:
                break


def _tunk_out(deal: TTDeal, seat: int) -> int | None:
    """Apply a TT-11 tunk out if one exists; returns its special bonus (None: no tunk out)."""
    option = tt_tunk_out(deal.hands[seat], deal.table, seat)
    if option is None:
        return None
    hand = deal.hands[seat]
    for lay in option.layoffs:
        meld = deal.table[lay.meld_index]
        added = meld.added if meld.owner == seat else (*meld.added, (lay.card, seat))
        deal.table[lay.meld_index] = TableMeld(meld.owner, (*meld.cards, lay.card), added)
        hand.remove(lay.card)
    for meld_ in option.melds:
        for c in meld_.cards:
            hand.remove(c)
        deal.table.append(TableMeld(seat, tuple(meld_.cards)))
    if option.discard is not None:
        hand.remove(option.discard)
        deal.discards.append(option.discard)
    if hand:
        raise AssertionError("tunk out left cards in hand")
    deal.known[seat].clear()
    return option.special_bonus


def _net_two(outcome: TTKnock | TTTunkOut, early: Sequence[bool]) -> tuple[int, ...]:
    """TT-13/TT-14 for two seats (outside TT-1's 3-6; the heads-up tournament only)."""
    bonus = outcome.special_bonus
    if isinstance(outcome, TTTunkOut):
        w = outcome.seat
        amount = UNIT * multiplier(early[w], bonus[w], True)
        return tuple(amount if s == w else -amount for s in range(2))
    k = outcome.knocker
    other = 1 - k
    if outcome.totals[k] < outcome.totals[other]:
        amount = UNIT * multiplier(early[k], bonus[k], False)
        return tuple(amount if s == k else -amount for s in range(2))
    amount = UNIT * multiplier(early[other], bonus[other], False)
    return tuple(-amount if s == k else amount for s in range(2))


def knock_outcome(deal: TTDeal, seat: int) -> TTKnock:
    """What ``seat`` knocking now would end the deal with (TT-13): every total as it stands and
    each seat's own-table special bonus."""
    bonus = tuple(owned_special_bonus(deal.table, s) for s in range(deal.n))
    return TTKnock(seat, deal.totals(), tuple(deal.early), bonus)


def settle_deal(
    deal: TTDeal, outcome: TTKnock | TTTunkOut
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(net per seat, the seats paid) of a deal ending with ``outcome``: TT-13 / TT-14 at 3 or
    more seats, the two-seat reading of :func:`_net_two` heads-up."""
    if deal.n >= 3:
        settlement = settle_tt(deal.n, UNIT, deal.dealer, outcome)
        return settlement.net, settlement.winners
    net = _net_two(outcome, deal.early)
    return net, tuple(s for s in range(deal.n) if net[s] > 0)


def play_tt_deal(
    policies: Sequence[Policy],
    dealer: int,
    rng: random.Random,
    *,
    rules: TripleTunkRules | None = None,
    on_knock: KnockHook | None = None,
    on_end: EndHook | None = None,
    on_out: OutHook | None = None,
    check: bool = False,
    start: TTDeal | None = None,
) -> DealResult:
    """Play and settle one Triple Tunk deal (see the module docstring); ``start`` plays on from
    a prepared deal (tests). ``on_end`` sees a deal a knock ended, every hand shown; ``on_out``
    a deal a tunk out ended, as it stood at the start of that turn, with the tunker's cards."""
    rules = rules or TripleTunkRules()
    n = len(policies)
    deal = start if start is not None else deal_tt(n, dealer, rng, rules)
    if check:
        deal.check_conservation()
    seat = (dealer + 1) % n
    turn = 0
    outcome: TTKnock | TTTunkOut | None = None
    while turn < MAX_TURNS:
        may_knock = deal.waiting[seat] == 0  # TT-12: a positive counter offers no knock
        if not may_knock:
            deal.waiting[seat] -= 1
        else:
            obs = deal.observation(seat, turn)
            knocked = policies[seat].knock(obs)  # TT-13 / C-5
            if on_knock is not None:
                on_knock(seat, tuple(deal.totals()), knocked)
            if knocked:
                if on_end is not None:
                    on_end(deal, seat, turn)
                outcome = knock_outcome(deal, seat)
                break
        obs = deal.observation(seat, turn)
        recycle(deal)
        take = not deal.stock or (bool(deal.discards) and policies[seat].take_discard(obs))
        if take and not deal.discards:
            break  # nothing left to draw anywhere: abandon the deal
        before = copy.deepcopy(deal) if on_out is not None else None
        card = draw_card(deal, seat, take)
        revealed = tuple(deal.hands[seat]) if on_out is not None else ()
        bonus_out = _tunk_out(deal, seat)  # TT-11
        if bonus_out is not None:
            if on_out is not None:
                on_out(before, seat, turn, revealed, card if take else None)
            bonus = tuple(
                bonus_out if s == seat else owned_special_bonus(deal.table, s) for s in range(n)
            )
            outcome = TTTunkOut(seat, tuple(deal.early), bonus)
            break
        lay = policies[seat].lay_melds(deal.observation(seat, turn))  # after the draw
        lay_everything(deal, seat, lay)
        if check:
            deal.check_conservation()
        throw = policies[seat].discard(deal.observation(seat, turn))
        hand = deal.hands[seat]
        if throw not in hand or len(hand) < 2:
            raise ValueError(f"seat {seat} made an illegal discard")
        discard_card(deal, seat, throw)
        if check:
            deal.check_conservation()
        turn += 1
        seat = (seat + 1) % n
    if outcome is None:
        zero = (0,) * n
        return DealResult(zero, zero, (), "abandoned", turn)
    net, winners = settle_deal(deal, outcome)
    return DealResult(net, net, winners, outcome.kind, turn)


__all__ = [
    "TTDeal",
    "UNIT",
    "deal_tt",
    "knock_outcome",
    "lay_everything",
    "play_tt_deal",
    "recycle",
    "settle_deal",
]
