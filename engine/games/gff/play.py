"""Game Flip Flop play: spreads (GFF-2), lay-offs (GFF-3), tunk out / going out (GFF-9, GFF-10),
hand totals (GFF-8), 49/50 (GFF-4) and the flip and flop side pots (GFF-5, GFF-6).

Hands hold at most six cards, so the going-out search simply tries every split of the hand into
new spreads and lay-offs. Table melds are checked by :func:`validate_gff_table`, which every
public function taking a table calls first (raising TableError with field ``table[i]``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from engine.core.cards import PARTNER_SUIT, POINTS, RANK_OF, SUIT_OF, card_name
from engine.core.errors import OutcomeError, TableError
from engine.core.options import GameFlipFlopRules
from engine.core.types import Layoff, TableMeld
from engine.games.gff.game import EARLY_WIN_TOTALS, GAME
from engine.standard.masks import meldable_mask

SpreadKind = Literal["set", "run"]
GoingOutKind = Literal["tunk_out", "go_out"]

DEALT = GAME.deal_size()  # GFF-1: five cards each
MIN_PLAYERS, MAX_PLAYERS = GAME.players  # GFF-1
# GFF-6: pots a player stakes in, in order: 1 = game, 2 = game + flip, 3 = game + flip + flop.
GAME_ONLY, WITH_FLIP, WITH_FLOP = 1, 2, 3


def _names(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def spread_kind(cards: Sequence[int]) -> SpreadKind | None:
    """GFF-2: ``"set"`` (3-4 of a rank), ``"run"`` (3+ consecutive of a suit, ace low) or None."""
    n = len(cards)
    if n < 3 or len(set(cards)) != n or any(not 0 <= c < 52 for c in cards):
        return None
    ranks = {RANK_OF[c] for c in cards}
    if len(ranks) == 1:
        return "set" if n <= 4 else None
    if (
        len({SUIT_OF[c] for c in cards}) == 1
        and len(ranks) == n
        and max(ranks) - min(ranks) == n - 1
    ):
        return "run"  # rank 0 is the ace and nothing follows the king: no Q-K-A, no wrap
    return None


def is_gff_spread(cards: Sequence[int]) -> bool:
    """GFF-2: whether ``cards`` is a legal spread."""
    return spread_kind(cards) is not None


def validate_gff_table(table: Sequence[TableMeld]) -> None:
    """Check every table meld is a legal GFF-2 spread and no card lies on the table twice.

    Also checks that ``added`` cards are in the meld, were added by a seat other than the owner,
    and that the owner's own cards still make at least three (the spread they laid).

    :raises TableError: with field ``table[i]`` naming the first bad meld.
    """
    seen: set[int] = set()
    for i, meld in enumerate(table):
        field = f"table[{i}]"
        if meld.owner < 0:
            raise TableError(f"table meld {i} has owner seat {meld.owner}", field=field)
        if spread_kind(meld.cards) is None:
            raise TableError(
                f"table meld {i} ({_names(meld.cards)}) is not a spread: a spread is 3-4 cards of "
                "one rank or 3+ consecutive cards of one suit, aces low (GFF-2)",
                field=field,
            )
        for card, seat in meld.added:
            if card not in meld.cards:
                raise TableError(
                    f"table meld {i}: added card {card_name(card)} is not in it", field
                )
            if seat == meld.owner or seat < 0:
                raise TableError(
                    f"table meld {i}: added card {card_name(card)} must name another seat", field
                )
        if len({card for card, _ in meld.added}) != len(meld.added):
            raise TableError(f"table meld {i} lists an added card twice", field=field)
        if len(meld.cards) - len(meld.added) < 3:
            raise TableError(
                f"table meld {i}: its owner must have laid at least three of its cards", field=field
            )
        for card in meld.cards:
            if card in seen:
                raise TableError(f"{card_name(card)} lies on the table twice", field=field)
            seen.add(card)


def _check_hand_and_table(hand: Sequence[int], table: Sequence[TableMeld]) -> None:
    GAME.validate_hand(hand)
    validate_gff_table(table)
    groups = [("hand", hand)] + [(f"table[{i}]", m.cards) for i, m in enumerate(table)]
    GAME.validate_distinct_across(groups)


def _extension_layoffs(meld_cards: Sequence[int], extra: Sequence[int], index: int) -> list[Layoff]:
    """Lay-offs putting ``extra`` on a meld so that meld + extra is a spread, in laying order.

    For a run each card requires the hand cards between it and the meld (GFF-3 chains).
    Returns [] when ``extra`` cannot all go there.
    """
    if not extra:
        return []
    kind = spread_kind(tuple(meld_cards) + tuple(extra))
    if kind is None or spread_kind(meld_cards) != kind:
        return []
    if kind == "set":
        return [Layoff(c, index) for c in extra]  # only the 4th card of a set of 3 fits
    low = min(RANK_OF[c] for c in meld_cards)
    high = max(RANK_OF[c] for c in meld_cards)
    below = sorted((c for c in extra if RANK_OF[c] < low), reverse=True)
    above = sorted(c for c in extra if RANK_OF[c] > high)
    out: list[Layoff] = []
    for side in (below, above):
        for j, card in enumerate(side):
            out.append(Layoff(card, index, tuple(side[:j])))
    return out


def gff_layoffs(hand: Sequence[int], table: Sequence[TableMeld]) -> tuple[Layoff, ...]:
    """GFF-3: every hand card that can be added to a table spread, with chained lay-offs.

    A run grows at either end (aces low, no wrap); a set of 3 takes its 4th card. A card that fits
    only after other hand cards (the 9 after the 8) lists them in ``requires``, nearest first.
    Sorted by meld index, then laying order.

    :raises TableError: a table meld is not a spread (field ``table[i]``).
    :raises HandError: bad hand, or a card both in hand and on the table.
    """
    _check_hand_and_table(hand, table)
    held = set(hand)
    out: list[Layoff] = []
    for i, meld in enumerate(table):
        if spread_kind(meld.cards) == "set":
            if len(meld.cards) == 3:
                rank = RANK_OF[meld.cards[0]]
                out.extend(Layoff(c, i) for c in sorted(held) if RANK_OF[c] == rank)
            continue
        suit = SUIT_OF[meld.cards[0]]
        ranks = sorted(RANK_OF[c] for c in meld.cards)
        for step, start in ((-1, ranks[0] - 1), (1, ranks[-1] + 1)):
            chain: list[int] = []
            rank = start
            while 0 <= rank <= 12 and suit * 13 + rank in held:
                card = suit * 13 + rank
                out.append(Layoff(card, i, tuple(chain)))
                chain.append(card)
                rank += step
    return tuple(out)


@dataclass(frozen=True, slots=True)
class GffGoingOut:
    """How a hand after the draw can end the play this turn (GFF-9 / GFF-10), or ``kind`` None.

    ``spreads`` are new spreads to lay, ``layoffs`` are cards to add to table melds (in laying
    order, ``meld_index`` into the given table), ``discard`` is the last card thrown or None.
    """

    kind: GoingOutKind | None
    spreads: tuple[tuple[int, ...], ...] = ()
    layoffs: tuple[Layoff, ...] = ()
    discard: int | None = None

    @property
    def can_end(self) -> bool:
        """Whether the hand can be emptied this turn (tunk out or go out)."""
        return self.kind is not None


@dataclass(frozen=True, slots=True)
class _Plan:
    spreads: tuple[tuple[int, ...], ...]
    layoffs: tuple[Layoff, ...]


_PlanKey = tuple[int, bool, int, tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]


def _fits_somewhere(card: int, meld_cards: tuple[int, ...], reach: int) -> bool:
    """Cheap pre-check: ``card`` could join the meld with at most ``reach`` hand cards."""
    kind = spread_kind(meld_cards)
    if kind == "set":
        return len(meld_cards) == 3 and RANK_OF[card] == RANK_OF[meld_cards[0]]
    if SUIT_OF[card] != SUIT_OF[meld_cards[0]]:
        return False
    ranks = [RANK_OF[c] for c in meld_cards]
    rank = RANK_OF[card]
    return min(ranks) - reach <= rank <= max(ranks) + reach


def _disposals(cards: tuple[int, ...], table: Sequence[TableMeld]) -> Iterator[_Plan]:
    """Every way to get rid of all ``cards`` by laying new spreads and adding to table melds."""
    assigned: list[list[int]] = [[] for _ in table]
    spreads: list[tuple[int, ...]] = []

    def walk(rest: tuple[int, ...]) -> Iterator[_Plan]:
        if not rest:
            layoffs: list[Layoff] = []
            for i, extra in enumerate(assigned):
                if extra:
                    got = _extension_layoffs(table[i].cards, extra, i)
                    if not got:
                        return
                    layoffs.extend(got)
            yield _Plan(tuple(spreads), tuple(layoffs))
            return
        first, others = rest[0], rest[1:]
        # ``first`` starts a new spread with some of the other cards ...
        for size in range(2, len(others) + 1):
            for mates in combinations(others, size):
                spread = (first, *mates)
                if spread_kind(spread) is not None:
                    spreads.append(spread)
                    yield from walk(tuple(c for c in others if c not in mates))
                    spreads.pop()
        # ... or is added to a table meld (legality checked once all cards are placed).
        for i, meld in enumerate(table):
            if _fits_somewhere(first, meld.cards, len(cards)):
                assigned[i].append(first)
                yield from walk(others)
                assigned[i].pop()

    yield from walk(tuple(sorted(cards)))


def _dead_cards(cards: tuple[int, ...], table: Sequence[TableMeld]) -> frozenset[int]:
    """Cards no disposal can place: in no spread of the hand and fitting no table meld.

    ``_disposals`` of any subset of the hand holding such a card yields nothing (the card can
    neither start a spread with the others nor pass ``_fits_somewhere``), so the search skips
    those subsets outright; the plans it finds are the same.
    """
    held = 0
    for card in cards:
        held |= 1 << card
    in_spread = meldable_mask(held)  # GFF-2: sets of 3-4, runs of 3+, aces low
    dead = [card for card in cards if not in_spread >> card & 1]
    if table and dead:
        reach = len(cards)
        dead = [c for c in dead if not any(_fits_somewhere(c, m.cards, reach) for m in table)]
    return frozenset(dead)


def gff_going_out(hand: Sequence[int], table: Sequence[TableMeld], seat: int) -> GffGoingOut:
    """Best way for ``seat`` to end the play with ``hand`` (after the draw) and ``table``.

    Tunk out (GFF-9) is preferred as it pays double: the hand is emptied by laying a spread of 3,
    the player's second own 3-card spread (both laid now from a 6-card hand, or one laid now with
    their only earlier table meld holding exactly 3 own cards), with no discard and no lay-offs.
    Otherwise going out (GFF-10): lay spreads and add to spreads so that nothing is left, or one
    card is left to discard. Among go-out plans the fewest lay-offs, then no discard, wins.

    :raises TableError | HandError: bad table or hand.
    :raises OutcomeError: a negative seat.
    """
    _check_hand_and_table(hand, table)
    if seat < 0:
        raise OutcomeError(f"seat {seat} is not a seat", field="seat")
    cards = tuple(sorted(hand))
    own = [m for m in table if m.owner == seat]
    tunk_ready = (not own and len(cards) == GAME.max_hand_size()) or (
        len(own) == 1 and len(own[0].own_cards()) == 3 and len(cards) == 3
    )
    # Work proportional to the hand: a card that fits nowhere must be the discard, so with two
    # such cards nothing can be emptied and with one only its discard is searched.
    dead = _dead_cards(cards, table)
    if tunk_ready and not _dead_cards(cards, ()):
        for plan in _disposals(cards, ()):
            if all(len(s) == 3 for s in plan.spreads):
                return GffGoingOut("tunk_out", plan.spreads)
    best: tuple[_PlanKey, GffGoingOut] | None = None
    if len(dead) > 1:
        return GffGoingOut(None)
    discards: tuple[int | None, ...] = tuple(dead) if dead else (None, *cards)
    for discard in discards:
        rest = cards if discard is None else tuple(c for c in cards if c != discard)
        if discard is not None and _dead_cards(rest, table):
            continue  # a card that only fitted with the discard: nothing empties ``rest``
        for plan in _disposals(rest, table):
            key: _PlanKey = (
                len(plan.layoffs),
                discard is not None,
                -1 if discard is None else discard,
                plan.spreads,
                tuple((lo.meld_index, lo.card) for lo in plan.layoffs),
            )
            if best is None or key < best[0]:
                best = (key, GffGoingOut("go_out", plan.spreads, plan.layoffs, discard))
    return best[1] if best is not None else GffGoingOut(None)


def hand_total(hand: Sequence[int]) -> int:
    """GFF-8: the points of every card still in hand (A = 1, J/Q/K = 10), melded or not."""
    return sum(POINTS[c] for c in hand)


def early_win(hand: Sequence[int]) -> int | None:
    """GFF-4: 49 or 50 when the dealt five-card hand totals exactly that, else None.

    Only a dealt hand may declare, so any other hand size gives None.
    """
    if len(hand) != DEALT:
        return None
    total = hand_total(hand)
    return total if total in EARLY_WIN_TOTALS else None


@dataclass(frozen=True, slots=True)
class SidePotResult:
    """One side pot's outcome (GFF-5/GFF-6).

    ``lowest_card``/``lowest_holder`` is the lowest dealt card of ``suit`` (None when none was
    dealt); ``winner``/``winning_card`` is who takes the pot after the staking rule (None when it
    carries over, then ``carried_over`` is True). ``fallback`` is True when the pot went to a
    lower-ranked staker because the holder of the lowest card did not stake in it.
    """

    pot: Literal["flip", "flop"]
    suit: int
    lowest_card: int | None
    lowest_holder: int | None
    winner: int | None
    winning_card: int | None
    carried_over: bool
    fallback: bool = False


@dataclass(frozen=True, slots=True)
class SidePots:
    """Both side pots of a deal: ``flip`` (flip card's suit) and ``flop`` (partner suit)."""

    flip_card: int
    flip: SidePotResult
    flop: SidePotResult


def _side_pot(
    pot: Literal["flip", "flop"],
    suit: int,
    hands: Sequence[Sequence[int]],
    staked: Sequence[bool],
    rules: GameFlipFlopRules,
) -> SidePotResult:
    holders = sorted(
        (RANK_OF[c], c, seat) for seat, hand in enumerate(hands) for c in hand if SUIT_OF[c] == suit
    )
    if not holders:  # GFF-5: no card of the suit dealt, the pot carries over
        return SidePotResult(pot, suit, None, None, None, None, True)
    _, low_card, low_seat = holders[0]
    if staked[low_seat]:
        return SidePotResult(pot, suit, low_card, low_seat, low_seat, low_card, False)
    if rules.side_pot_fallback == "next_lowest":  # GFF-6 house rule default
        for _, card, seat in holders:
            if staked[seat]:
                return SidePotResult(pot, suit, low_card, low_seat, seat, card, False, True)
    # carry_over, or no staker holds the suit at all: the pot waits for the next deal.
    return SidePotResult(pot, suit, low_card, low_seat, None, None, True)


def side_pots(
    dealt_hands: Sequence[Sequence[int]],
    dealer: int,
    flip_card: int,
    stakes_in: Sequence[int] | None = None,
    rules: GameFlipFlopRules | None = None,
) -> SidePots:
    """GFF-5/GFF-6: who wins the flip and flop pots from the five dealt cards of each seat.

    ``stakes_in[i]`` is how many pots seat i staked in (0 = not dealt in, its hand must be empty;
    1 game; 2 game + flip; 3 all); None means every seat staked in all three. A holder who did not
    stake cannot win: ``side_pot_fallback`` "next_lowest" gives the pot to the lowest card of the
    suit among stakers, "carry_over" carries it; when no staker holds the suit it carries over.

    :raises OutcomeError: wrong hand sizes, bad dealer, a flip card not in the dealer's hand.
    :raises HandError: a card dealt twice.
    """
    rules = rules or GameFlipFlopRules()
    n = len(dealt_hands)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise OutcomeError(f"{n} hands: Game Flip Flop seats 2 to 8 players", field="dealt_hands")
    stakes = tuple(stakes_in) if stakes_in is not None else (WITH_FLOP,) * n
    if len(stakes) != n:
        raise OutcomeError(f"stakes_in has {len(stakes)} entries for {n} seats", field="stakes_in")
    for i, k in enumerate(stakes):
        if not 0 <= k <= WITH_FLOP:
            raise OutcomeError(f"seat {i} stakes in {k} pots; 0 to 3", field=f"stakes_in[{i}]")
    if not 0 <= dealer < n:
        raise OutcomeError(f"dealer seat {dealer} is not one of 0..{n - 1}", field="dealer")
    for i, hand in enumerate(dealt_hands):
        want = DEALT if stakes[i] > 0 else 0
        if len(hand) != want:
            why = f"is dealt {DEALT} cards" if want else "is not dealt in and holds no cards"
            raise OutcomeError(f"seat {i} {why}, got {len(hand)}", field=f"dealt_hands[{i}]")
    GAME.validate_distinct_across([(f"dealt_hands[{i}]", h) for i, h in enumerate(dealt_hands)])
    if not 0 <= flip_card < 52 or flip_card not in dealt_hands[dealer]:
        raise OutcomeError(
            "the flip card (dealer's last dealt card) must be in the dealer's hand (GFF-5)",
            field="flip_card",
        )
    flip_suit = SUIT_OF[flip_card]
    flip = _side_pot("flip", flip_suit, dealt_hands, [k >= WITH_FLIP for k in stakes], rules)
    flop_suit = PARTNER_SUIT[flip_suit]
    flop = _side_pot("flop", flop_suit, dealt_hands, [k >= WITH_FLOP for k in stakes], rules)
    return SidePots(flip_card, flip, flop)


__all__ = [
    "GffGoingOut",
    "SidePotResult",
    "SidePots",
    "early_win",
    "gff_going_out",
    "gff_layoffs",
    "hand_total",
    "is_gff_spread",
    "side_pots",
    "spread_kind",
    "validate_gff_table",
]
