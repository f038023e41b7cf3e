"""Triple Tunk play: lay-offs (TT-8), tunking out (TT-11), early tunk (TT-9), multipliers (TT-14).

Table melds are ``engine.core.types.TableMeld`` values; a player's contribution to the table is the
own cards of the melds they own plus the cards they laid "sideways" on opponents' melds (the
``added`` entries carrying their seat). Hands are assumed validated (distinct cards, TT-1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product

from engine.core.errors import TableError
from engine.core.options import TripleTunkRules
from engine.core.topper import DECK, POINTS, topper_card_name
from engine.core.types import Layoff, TableMeld
from engine.games.tt.game import GAME, TUNK_SHAPES, TunkShape
from engine.games.tt.melds import (
    MAX_ANALYSED,
    MAX_MELD,
    MIN_MELD,
    TTMeld,
    _bonus_for_sizes,
    describe_tt_meld,
    extension_cards,
    meld_masks,
    special_bonus,
)

# fits(card, others): the card fits a table meld, possibly after some of ``others`` (TT-8).
FitsFn = Callable[[int, Sequence[int]], bool]
# legal(index, cards, by_owner): ``cards`` can be laid on table meld ``index`` in some order.
LegalFn = Callable[[int, tuple[int, ...], bool], bool]

_SHAPE_ORDER: dict[TunkShape, int] = {name: i for i, name in enumerate(TUNK_SHAPES)}
MAX_MULTIPLIER = 16  # TT-14: 2 x 2 x 4


# --------------------------------------------------------------------------- TT-8 lay-offs


def can_extend(meld_cards: Sequence[int], card: int, by_owner: bool) -> bool:
    """TT-8: may ``card`` be added to the table meld ``meld_cards``?

    The result must still be a meld of at most 5 cards; a player other than the owner may add
    to a special meld only if it stays special (the owner may break it into a regular meld).
    A meld's special status is judged on its current cards.
    """
    if len(meld_cards) >= MAX_MELD or card in meld_cards:
        return False
    after = describe_tt_meld((*meld_cards, card))
    if after is None:
        return False
    if by_owner or after.special:
        return True
    before = describe_tt_meld(meld_cards)
    return before is None or not before.special


def extenders(meld_cards: Sequence[int], by_owner: bool) -> tuple[int, ...]:
    """TT-8: every card :func:`can_extend` accepts for ``meld_cards``, found from the meld
    masks in one pass over the deck."""
    before = describe_tt_meld(meld_cards)
    keep_special = not by_owner and before is not None and before.special
    return extension_cards(meld_cards, keep_special)


def can_extend_in_order(meld_cards: Sequence[int], cards: Sequence[int], by_owner: bool) -> bool:
    """TT-8 applied card by card: every prefix of ``cards`` added in this order is legal."""
    current = tuple(meld_cards)
    for card in cards:
        if not can_extend(current, card, by_owner):
            return False
        current = (*current, card)
    return True


def _first_legal_order(
    meld_cards: Sequence[int], cards: Sequence[int], by_owner: bool
) -> tuple[int, ...] | None:
    """The first order (lexicographic on sorted cards) in which all ``cards`` can be added."""
    for order in permutations(sorted(cards)):
        if can_extend_in_order(meld_cards, order, by_owner):
            return order
    return None


def _shortest_requirement(
    meld_cards: tuple[int, ...], card: int, others: Sequence[int], by_owner: bool
) -> tuple[int, ...] | None:
    """Fewest other hand cards to lay first (in order) so that ``card`` then fits (TT-8)."""
    room = MAX_MELD - len(meld_cards)
    for depth in range(room):
        for before in permutations(others, depth):  # lexicographic: smallest cards first
            if can_extend_in_order(meld_cards, (*before, card), by_owner):
                return before
    return None


def tt_layoffs(hand: Iterable[int], table: Sequence[TableMeld], seat: int) -> tuple[Layoff, ...]:
    """Every (hand card, table meld) lay-off the player at ``seat`` could make this turn (TT-8).

    A direct lay-off has ``requires == ()``; a chained one lists the hand cards to lay on that
    meld first, in order. Each (card, meld) appears once, with the shortest requirement and,
    among equally short ones, the lexicographically smallest. Sorted by meld index, then card.
    """
    cards = sorted(set(hand))
    out: list[Layoff] = []
    for index, meld in enumerate(table):
        by_owner = meld.owner == seat
        for card in cards:
            others = [c for c in cards if c != card]
            req = _shortest_requirement(meld.cards, card, others, by_owner)
            if req is not None:
                out.append(Layoff(card, index, req))
    return tuple(out)


# --------------------------------------------------------------------------- TT-14 bonus


def _owned_special_sizes(melds: Iterable[tuple[tuple[int, ...], tuple[int, ...]]]) -> list[int]:
    """Own-card sizes of the owned melds that earn a special bonus, from (all cards, own cards).

    A meld counts when the whole table meld is special (an owner who broke it into a regular
    meld cancelled its bonus, TT-8) and its own cards by themselves form a special meld (TT-14).
    """
    sizes: list[int] = []
    for cards, own in melds:
        whole = describe_tt_meld(cards)
        if whole is None or not whole.special:
            continue
        mine = describe_tt_meld(own)
        if mine is not None and mine.special:
            sizes.append(len(own))
    return sizes


def owned_special_bonus(table: Sequence[TableMeld], seat: int) -> int:
    """TT-14 special bonus the player at ``seat`` owns on the table (1 when none)."""
    return _bonus_for_sizes(
        _owned_special_sizes((m.cards, m.own_cards()) for m in table if m.owner == seat)
    )


# --------------------------------------------------------------------------- TT-11 tunk out


@dataclass(frozen=True, slots=True)
class TTTunkOut:
    """One way to tunk out now (TT-11): the melds to lay, the lay-offs, the discard, the bonus.

    ``layoffs`` go onto existing table melds (the player's own melds to extend them, opponents'
    melds sideways), grouped by meld index and in play order; ``requires`` lists the cards of
    this plan laid on the same meld before. ``special_bonus`` is what the player then owns.
    """

    shape: TunkShape
    melds: tuple[TTMeld, ...]
    layoffs: tuple[Layoff, ...]
    discard: int | None
    special_bonus: int


def _sideways_count(table: Sequence[TableMeld], seat: int) -> int:
    """Cards ``seat`` has laid on opponents' melds on earlier turns."""
    return sum(1 for m in table if m.owner != seat for _card, who in m.added if who == seat)


def tt_tunk_shape(table: Sequence[TableMeld], seat: int) -> TunkShape | None:
    """The TT-11 shape the player's table contribution forms, ignoring the discard, or None."""
    own = sorted(len(m.own_cards()) for m in table if m.owner == seat)
    side = _sideways_count(table, seat)
    for name, (sizes, sideways, _discard) in TUNK_SHAPES.items():
        if tuple(own) == sizes and side == sideways:
            return name
    return None


def _sideways_plans(
    table: Sequence[TableMeld], targets: Sequence[int], cards: tuple[int, ...]
) -> Iterator[dict[int, tuple[int, ...]]]:
    """Ways to lay ``cards`` on opponents' melds: {meld index: cards in a legal play order}."""
    for assignment in product(targets, repeat=len(cards)):
        groups: dict[int, list[int]] = {}
        for card, index in zip(cards, assignment, strict=True):
            groups.setdefault(index, []).append(card)
        plan: dict[int, tuple[int, ...]] = {}
        for index, group in groups.items():
            order = _first_legal_order(table[index].cards, group, by_owner=False)
            if order is None:
                break
            plan[index] = order
        else:
            yield plan


def _layoffs_of(plan: dict[int, tuple[int, ...]]) -> tuple[Layoff, ...]:
    """Layoff values of a {meld index: ordered cards} plan, each requiring the earlier ones."""
    return tuple(
        Layoff(card, index, order[:pos])
        for index, order in sorted(plan.items())
        for pos, card in enumerate(order)
    )


def _split_melds(cards: tuple[int, ...], sizes: tuple[int, ...]) -> Iterator[tuple[TTMeld, ...]]:
    """Ways to split ``cards`` (sorted) into new melds of the given sizes (sizes 3 or 5 or 3+3)."""
    if not sizes:
        if not cards:
            yield ()
        return
    size, more = sizes[0], sizes[1:]
    if len(cards) != sum(sizes):
        return
    # The meld holding the smallest card comes first: each split is produced once.
    head, tail = cards[0], cards[1:]
    for rest in combinations(tail, size - 1):
        meld = describe_tt_meld((head, *rest))
        if meld is None:
            continue
        left = tuple(c for c in tail if c not in rest)
        for others in _split_melds(left, more):
            yield (meld, *others)


def _fits_table(card: int, others: Sequence[int], table: Sequence[TableMeld], seat: int) -> bool:
    """TT-8: ``card`` can go on some table meld, possibly after other hand cards laid first."""
    return any(
        _shortest_requirement(m.cards, card, others, m.owner == seat) is not None for m in table
    )


def _dead_cards(
    cards: tuple[int, ...], fits: FitsFn, without: int | None = None
) -> tuple[int, ...]:
    """Cards no tunk-out can place: in no meld (TT-6) and on no table meld (TT-8).

    Every option lays each card except the discard in a new meld (a meld within the hand) or on
    a table meld after the plan's earlier cards on it (which ``_shortest_requirement`` finds), so
    such a card must be the discard. With ``without``, the question is asked of the other cards
    (the hand once ``without`` is discarded): its melds are the hand's melds without it.
    """
    if len(cards) > MAX_ANALYSED:
        return ()  # beyond the subset tables: no pruning (TT-1 hands hold at most 6 cards)
    masks, _feats = meld_masks(cards)
    skip = 0 if without is None else 1 << cards.index(without)
    covered = 0
    for mask in masks:
        if not mask & skip:
            covered |= mask
    dead = []
    for pos, card in enumerate(cards):
        if covered >> pos & 1 or card == without:
            continue
        others = [c for c in cards if c != card and c != without]
        if not fits(card, others):
            dead.append(card)
    return tuple(dead)


def _table_fits(table: Sequence[TableMeld], seat: int) -> FitsFn:
    """``fits(card, others)``: :func:`_fits_table` for this table and seat."""

    def fits(card: int, others: Sequence[int]) -> bool:
        return _fits_table(card, others, table, seat)

    return fits


def _hopeless_without(
    discard: int, cards: tuple[int, ...], fits: FitsFn, memo: dict[int, bool]
) -> bool:
    """True when, after discarding ``discard``, some remaining card fits nowhere (memoised)."""
    got = memo.get(discard)
    if got is None:
        got = memo[discard] = bool(_dead_cards(cards, fits, without=discard))
    return got


TunkFrame = tuple[
    TunkShape, dict[int, int], tuple[int, ...], int | None, tuple[int, ...], tuple[int, ...]
]


def _tunk_frames(
    cards: tuple[int, ...], table: Sequence[TableMeld], seat: int, fits: FitsFn
) -> Iterator[TunkFrame]:
    """Every frame a TT-11 option of ``cards`` can take: (shape, cards each own meld needs,
    sizes of the new melds, discard, sideways cards, cards left for extensions and new melds).

    The player's own melds (own cards) and sideways cards already on the table count toward
    the shape. Work is proportional to the hand: a card that fits nowhere can only be the
    discard, so with two such cards nothing disposes of the hand and with one only its discard
    is searched.
    """
    own_idx = [i for i, m in enumerate(table) if m.owner == seat]
    has_opp = any(m.owner != seat for m in table)
    own_len = {i: len(table[i].own_cards()) for i in own_idx}
    side0 = _sideways_count(table, seat)
    dead = _dead_cards(cards, fits)
    if len(dead) > 1:
        return
    dead_after: dict[int, bool] = {}  # discard -> some other card then fits nowhere
    for shape, (sizes, sideways, discards) in TUNK_SHAPES.items():
        need_side = sideways - side0
        if need_side < 0 or len(own_idx) > len(sizes) or (need_side and not has_opp):
            continue  # no opponent meld takes a sideways card (TT-8)
        if dead and not discards:
            continue
        for slots in set(permutations(range(len(sizes)), len(own_idx))):
            ext_need = {i: sizes[s] - own_len[i] for i, s in zip(own_idx, slots, strict=True)}
            if any(n < 0 for n in ext_need.values()):
                continue
            new_sizes = tuple(sizes[s] for s in range(len(sizes)) if s not in slots)
            total = sum(ext_need.values()) + sum(new_sizes) + need_side + (1 if discards else 0)
            if total != len(cards):
                continue
            for discard in (dead or cards) if discards else (None,):
                if discard is not None and _hopeless_without(discard, cards, fits, dead_after):
                    continue
                rest = tuple(c for c in cards if c != discard)
                for side in combinations(rest, need_side):
                    after_side = tuple(c for c in rest if c not in side)
                    yield shape, ext_need, new_sizes, discard, side, after_side


def _melds_alone_can_tunk(cards: tuple[int, ...]) -> bool:
    """TT-11 with an empty table: whether the hand's own melds can form a shape that needs no
    table meld (sizes of the new melds, plus the discard), i.e. split the hand into melds of
    those sizes and at most the discard. Exactly the search's answer there, from the meld bit
    masks alone; a hand beyond the subset tables is left to the search."""
    if len(cards) > MAX_ANALYSED:
        return True
    masks, _ = meld_masks(cards)
    for sizes, sideways, discards in TUNK_SHAPES.values():
        if sideways or sum(sizes) + discards != len(cards):
            continue
        if len(sizes) == 1 and any(m.bit_count() == sizes[0] for m in masks):
            return True
        if len(sizes) == 2:
            first = [m for m in masks if m.bit_count() == sizes[0]]
            second = {m for m in masks if m.bit_count() == sizes[1]}
            if any(not a & b for a in first for b in second):  # disjoint: they cover the rest
                return True
        if len(sizes) > 2:  # no such TT-11 shape; should one appear, search it
            return True
    return False


def tt_tunk_out_options(
    hand: Iterable[int], table: Sequence[TableMeld], seat: int
) -> tuple[TTTunkOut, ...]:
    """Every way the player at ``seat`` can tunk out now with ``hand`` (after the draw), TT-11.

    The player's own melds (own cards) and sideways cards already on the table count toward
    the shape. Sorted best first: highest special bonus, then shape order (five_meld,
    two_three_melds, three_meld_two_layoffs, four_meld_one_layoff), then the canonical order
    of melds, lay-offs and discard. An empty hand has nothing to dispose of: no option.
    """
    cards = tuple(sorted(set(hand)))
    if not cards or (not table and not _melds_alone_can_tunk(cards)):
        return ()
    own_idx = [i for i, m in enumerate(table) if m.owner == seat]
    opp_idx = [i for i, m in enumerate(table) if m.owner != seat]
    own_cards = {i: table[i].own_cards() for i in own_idx}
    found: dict[tuple[object, ...], TTTunkOut] = {}
    frames = _tunk_frames(cards, table, seat, _table_fits(table, seat))
    for shape, ext_need, new_sizes, discard, side, after_side in frames:
        for side_plan in _sideways_plans(table, opp_idx, side):
            for ext_plan, left in _extension_plans(table, own_idx, ext_need, after_side):
                for melds in _split_melds(left, new_sizes):
                    option = _option(shape, table, own_cards, melds, ext_plan, side_plan, discard)
                    found.setdefault(_option_key(option), option)
    return tuple(found[k] for k in sorted(found))


def _extension_plans(
    table: Sequence[TableMeld],
    own_idx: Sequence[int],
    ext_need: dict[int, int],
    cards: tuple[int, ...],
) -> Iterator[tuple[dict[int, tuple[int, ...]], tuple[int, ...]]]:
    """Ways to extend the player's own melds by ``ext_need`` cards each (owner rules, TT-8)."""
    if not own_idx:
        yield {}, cards
        return
    index, more = own_idx[0], own_idx[1:]
    need = ext_need[index]
    for chosen in combinations(cards, need):
        order = _first_legal_order(table[index].cards, chosen, by_owner=True) if need else ()
        if order is None:
            continue
        left = tuple(c for c in cards if c not in chosen)
        for plan, rest in _extension_plans(table, more, ext_need, left):
            yield ({index: order, **plan} if need else plan), rest


def _option(
    shape: TunkShape,
    table: Sequence[TableMeld],
    own_cards: dict[int, tuple[int, ...]],
    melds: tuple[TTMeld, ...],
    ext_plan: dict[int, tuple[int, ...]],
    side_plan: dict[int, tuple[int, ...]],
    discard: int | None,
) -> TTTunkOut:
    """Assemble one TTTunkOut and the special bonus the player would then own (TT-14)."""
    owned = [
        (table[i].cards + ext_plan.get(i, ()), own + ext_plan.get(i, ()))
        for i, own in own_cards.items()
    ]
    owned += [(m.cards, m.cards) for m in melds]
    return TTTunkOut(
        shape=shape,
        melds=tuple(sorted(melds, key=lambda m: m.cards)),
        layoffs=_layoffs_of({**ext_plan, **side_plan}),
        discard=discard,
        special_bonus=_bonus_for_sizes(_owned_special_sizes(owned)),
    )


def _option_key(option: TTTunkOut) -> tuple[object, ...]:
    """Sort key: highest bonus, shape order, then canonical melds, lay-offs, discard."""
    return (
        -option.special_bonus,
        _SHAPE_ORDER[option.shape],
        tuple(m.cards for m in option.melds),
        tuple((lo.meld_index, lo.requires, lo.card) for lo in option.layoffs),
        -1 if option.discard is None else option.discard,
    )


def tt_tunk_out(hand: Iterable[int], table: Sequence[TableMeld], seat: int) -> TTTunkOut | None:
    """The preferred way to tunk out now (TT-11): highest special bonus, then canonical; or None."""
    options = tt_tunk_out_options(hand, table, seat)
    return options[0] if options else None


def tt_can_empty_hand(hand: Iterable[int], table: Sequence[TableMeld], seat: int) -> bool:
    """TT-11: a hand may be emptied only by tunking out in one of the four shapes."""
    return bool(tt_tunk_out_options(hand, table, seat))


# --------------------------------------------------------------------------- TT-9, TT-14


@dataclass(frozen=True, slots=True)
class EarlyTunk:
    """TT-9: whether the five dealt cards may claim an early tunk, their total, the multiplier."""

    eligible: bool
    total: int
    multiplier: int


def early_tunk(hand: Sequence[int], rules: TripleTunkRules) -> EarlyTunk:
    """TT-9: exactly the dealt cards (five, TT-1) whose points (TT-2) total one of the early-tunk
    totals."""
    total = sum(POINTS[c] for c in hand)
    eligible = len(hand) == GAME.deal_size() and total in rules.early_tunk_totals
    return EarlyTunk(eligible=eligible, total=total, multiplier=2 if eligible else 1)


@dataclass(frozen=True, slots=True)
class TTMultipliers:
    """TT-14: the three multipliers of a winner's unit and their product (at most 16)."""

    early: int
    tunk_out: int
    special: int
    total: int


def tt_multipliers(
    early_tunk_claimed: bool, tunked_out: bool, own_melds: Sequence[tuple[int, ...]]
) -> TTMultipliers:
    """TT-14: x2 early tunk, x2 tunk out, and the largest special bonus of the own melds."""
    early = 2 if early_tunk_claimed else 1
    tunk = 2 if tunked_out else 1
    special = special_bonus(own_melds)
    return TTMultipliers(early=early, tunk_out=tunk, special=special, total=early * tunk * special)


# --------------------------------------------------------------------------- validation


def validate_tt_table(table: Sequence[TableMeld], players: int | None = None) -> None:
    """Raise TableError unless every table meld is a legal Triple Tunk meld (TT-6, TT-8).

    Checks: cards are Triple Topper cards shown once across the table; each meld has 3..5
    cards and is a meld; ``added`` cards are in the meld, laid by a seat other than the owner,
    leaving the owner at least 3 own cards; seats lie in 0..players-1 when ``players`` is given.

    :raises TableError: naming the meld (``table[i]``) at fault.
    """
    seen: set[int] = set()
    for i, meld in enumerate(table):
        field = f"table[{i}]"
        seats = [meld.owner, *(who for _c, who in meld.added)]
        if any(s < 0 or (players is not None and s >= players) for s in seats):
            raise TableError("a seat on this meld is not at the table", field=field)
        for card in meld.cards:
            if card not in range(len(DECK)):
                raise TableError(f"{card!r} is not a Triple Topper card", field=field)
            if card in seen:
                raise TableError(f"{topper_card_name(card)} is shown twice", field=field)
            seen.add(card)
        if not MIN_MELD <= len(meld.cards) <= MAX_MELD or describe_tt_meld(meld.cards) is None:
            raise TableError("these cards are not a Triple Tunk meld (TT-6)", field=field)
        rest = list(meld.cards)
        for card, who in meld.added:
            if who == meld.owner:
                raise TableError("an added card must come from a seat other than the owner", field)
            if card not in rest:
                raise TableError(f"added card {card!r} is not in the meld", field=field)
            rest.remove(card)
        if len(rest) < MIN_MELD:
            raise TableError("the owner must have laid at least 3 of the meld's cards", field)


# --------------------------------------------------------------------------- quick tunk-out test


def tt_tunk_sizes(table: Sequence[TableMeld], seat: int) -> frozenset[int]:
    """The hand sizes (after the draw) with which ``seat`` could tunk out at this table: the
    TT-11 shapes' card counts once the player's own table melds (own cards) and earlier
    sideways cards are taken off, as the tunk-out search counts them. A necessary condition."""
    own = [len(m.own_cards()) for m in table if m.owner == seat]
    has_opp = any(m.owner != seat for m in table)
    side0 = sum(1 for m in table if m.owner != seat for _c, who in m.added if who == seat)
    out = set()
    for sizes, sideways, discards in TUNK_SHAPES.values():
        need_side = sideways - side0
        if need_side < 0 or len(own) > len(sizes) or (need_side and not has_opp):
            continue
        for slots in set(permutations(range(len(sizes)), len(own))):
            ext = [sizes[s] - k for s, k in zip(slots, own, strict=True)]
            if any(e < 0 for e in ext):
                continue
            new = sum(sizes[s] for s in range(len(sizes)) if s not in slots)
            out.add(sum(ext) + new + need_side + (1 if discards else 0))
    return frozenset(out)


def tt_can_tunk_out(
    hand: Sequence[int],
    table: Sequence[TableMeld],
    seat: int,
    fits: FitsFn | None = None,
    legal: LegalFn | None = None,
    sideways: dict[tuple[int, ...], bool] | None = None,
) -> bool:
    """Whether ``tt_tunk_out(hand, table, seat)`` finds an option (TT-11): the same search as
    ``tt_tunk_out_options``, stopped at the first option instead of building and ranking all
    of them (the stock line only needs to know that the play ends). ``fits(card, others)``
    answers ``engine.games.tt.play._fits_table`` for this table and seat, ``legal(index, cards,
    by_owner)`` whether ``cards`` can be laid on table meld ``index`` in some order, and
    ``sideways`` memoises per sideways cards whether some plan lays them (all three kept by the
    evaluator for one table and seat: the hands it asks about share most of their cards)."""
    cards = tuple(sorted(set(hand)))
    if not cards:
        return False
    if fits is None:
        fits = _table_fits(table, seat)

    if legal is None:

        def legal(index: int, group: tuple[int, ...], by_owner: bool) -> bool:
            return _first_legal_order(table[index].cards, group, by_owner) is not None

    if sideways is None:
        sideways = {}
    own_idx = [i for i, m in enumerate(table) if m.owner == seat]
    opp_idx = [i for i, m in enumerate(table) if m.owner != seat]
    if not own_idx and len(cards) <= MAX_ANALYSED:
        return _can_tunk_out_fresh(cards, table, seat, opp_idx, legal, sideways)
    for _shape, ext_need, new_sizes, _discard, side, after_side in _tunk_frames(
        cards, table, seat, fits
    ):
        # the extension and new-meld search does not depend on which sideways plan is
        # taken: one is enough (``_sideways_plans`` yields one per plan)
        plan = sideways.get(side)
        if plan is None:
            plan = sideways[side] = _any_sideways_plan(side, opp_idx, legal)
        if not plan:
            continue
        for left in _extension_lefts(own_idx, ext_need, after_side, legal):
            if _can_split(left, new_sizes):
                return True
    return False


def _can_tunk_out_fresh(
    cards: tuple[int, ...],
    table: Sequence[TableMeld],
    seat: int,
    opp_idx: Sequence[int],
    legal: LegalFn,
    sideways: dict[tuple[int, ...], bool],
) -> bool:
    """:func:`tt_can_tunk_out` for a player with no meld of its own on the table: every TT-11
    shape is then new melds of its sizes from the hand (TT-6), ``need`` sideways cards on
    opponents' melds (TT-8) and the discard, if the shape has one. Searched on the position
    masks of the hand's melds (``meld_masks``) instead of the generic frames."""
    n = len(cards)
    full = (1 << n) - 1
    masks, _feats = meld_masks(cards)
    if not masks:
        return False
    side0 = _sideways_count(table, seat)
    has_opp = bool(opp_idx)
    for sizes, want_side, discards in TUNK_SHAPES.values():
        need = want_side - side0
        if need < 0 or (need and not has_opp):
            continue
        if sum(sizes) + need + (1 if discards else 0) != n:
            continue
        if len(sizes) == 2:  # two new melds of three, nothing else (TT-11)
            for m in masks:
                if m.bit_count() == 3 and full ^ m in masks:
                    return True
            continue
        size = sizes[0]
        for m in masks:
            if m.bit_count() != size:
                continue
            left = full ^ m
            if not need:
                return True  # the one card left is the discard
            # with a discard, any one card left may be it; the others go sideways
            outs = [left ^ (1 << i) for i in range(n) if left >> i & 1] if discards else [left]
            for side_mask in outs:
                side = tuple(cards[i] for i in range(n) if side_mask >> i & 1)
                ok = sideways.get(side)
                if ok is None:
                    ok = sideways[side] = _any_sideways_plan(side, opp_idx, legal)
                if ok:
                    return True
    return False


_SPLITS: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}
_SPLITS_LIMIT = 200_000


def _can_split(cards: tuple[int, ...], sizes: tuple[int, ...]) -> bool:
    """Whether :func:`_split_melds` yields a split of ``cards`` (sorted) into new melds of
    ``sizes`` (TT-6; memoised: it depends on the cards alone)."""
    key = (cards, sizes)
    got = _SPLITS.get(key)
    if got is None:
        got = next(_split_melds(cards, sizes), None) is not None
        if len(_SPLITS) >= _SPLITS_LIMIT:
            _SPLITS.clear()
        _SPLITS[key] = got
    return got


def _any_sideways_plan(side: tuple[int, ...], targets: Sequence[int], legal: LegalFn) -> bool:
    """Whether ``engine.games.tt.play._sideways_plans(table, targets, side)`` yields a plan: some
    assignment of the cards to opponents' melds where each meld's cards have a legal order."""
    for assignment in product(targets, repeat=len(side)):
        groups: dict[int, list[int]] = {}
        for card, index in zip(side, assignment, strict=True):
            groups.setdefault(index, []).append(card)
        if all(legal(index, tuple(sorted(g)), False) for index, g in groups.items()):
            return True
    return False


def _extension_lefts(
    own_idx: Sequence[int], ext_need: dict[int, int], cards: tuple[int, ...], legal: LegalFn
) -> Iterator[tuple[int, ...]]:
    """The cards left by each plan of ``engine.games.tt.play._extension_plans`` (the owner extends
    each own meld by ``ext_need`` cards, TT-8), in the same order."""
    if not own_idx:
        yield cards
        return
    index, more = own_idx[0], own_idx[1:]
    need = ext_need[index]
    for chosen in combinations(cards, need):
        if need and not legal(index, tuple(sorted(chosen)), True):
            continue
        left = tuple(c for c in cards if c not in chosen)
        yield from _extension_lefts(more, ext_need, left, legal)


__all__ = [
    "TUNK_SHAPES",
    "EarlyTunk",
    "TTMultipliers",
    "TTTunkOut",
    "TunkShape",
    "can_extend",
    "extenders",
    "early_tunk",
    "owned_special_bonus",
    "tt_can_empty_hand",
    "tt_can_tunk_out",
    "tt_layoffs",
    "tt_multipliers",
    "tt_tunk_out",
    "tt_tunk_out_options",
    "tt_tunk_sizes",
    "tt_tunk_shape",
    "validate_tt_table",
]
