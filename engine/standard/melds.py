"""Standard-deck melds for Game Flip Flop (GFF-2) and Three Thirteen (T13-4): predicate,
canonical description and enumeration.

Cards are ``engine.core.cards`` ints. A card of the round's wild rank (T13-1) is a *wild*: it may
stand for any card (T13-4), itself included, so for legality every wild-rank card is treated as
a joker. Run positions are ranks 0..12 (A..K) plus position 13 for a high ace when
``aces_high`` (T13-3 ``high_or_low``); a run never holds both ace positions (no wrap-around).

Canonical description (``describe_meld``) picks, among every reading of the cards, the one with
the fewest wilds standing for another card (a wild in its own natural place counts as natural);
ties go to a set before a run, then to an ace-low run, then to the run placed highest. In a set,
each substituting wild (in card order) stands for the set's rank in the suit with the fewest
cards so far, lowest suit first. In a run, substituting wilds (in card order) fill the empty
positions from low to high.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Literal

from engine.core.cards import RANK_OF, RANK_POINTS, SUIT_OF, Card
from engine.core.options import ThreeThirteenRules

MeldKind = Literal["set", "run"]
TOP_RANKS = 13  # positions 0..12 (A..K); 13 = high ace
MAX_RUN = 13  # T13-4: a run never exceeds the 13 ranks


@dataclass(frozen=True, slots=True)
class StdContext:
    """Meld rules for one standard-deck game/round: wild rank, ace rule and set size limit.

    ``point_table`` (card -> deadwood value) is filled in from the first three fields.
    """

    wild_rank: int | None
    aces_high: bool
    max_set: int | None
    point_table: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.wild_rank is not None and self.max_set is not None:
            # engine.standard.search relies on any number of extra wilds fitting into a set (T13-4).
            raise ValueError("a context with wild cards cannot limit the size of sets")
        if not self.point_table:
            # T13-3: an unmelded ace counts 15 when aces may be high; otherwise RANK_POINTS.
            values = tuple(
                15 if (self.aces_high and RANK_OF[c] == 0) else RANK_POINTS[RANK_OF[c]]
                for c in range(52)
            )
            object.__setattr__(self, "point_table", values)

    def points(self, card: Card) -> int:
        """Deadwood value of ``card`` (GFF-1, T13-3; a wild left unmelded counts its own value)."""
        return self.point_table[card]

    def is_wild(self, card: Card) -> bool:
        """True when ``card`` has this round's wild rank (T13-1)."""
        return RANK_OF[card] == self.wild_rank


def gff_context() -> StdContext:
    """GFF-2: no wilds, aces low only, sets of 3 or 4."""
    return StdContext(wild_rank=None, aces_high=False, max_set=4)


def t13_context(round_number: int, rules: ThreeThirteenRules) -> StdContext:
    """T13-1/T13-3/T13-4: wild rank index round + 1 (3s in round 1 .. kings in round 11)."""
    if not 1 <= round_number <= 11:
        raise ValueError(f"round_number must be 1..11, got {round_number}")
    return StdContext(
        wild_rank=round_number + 1, aces_high=rules.aces == "high_or_low", max_set=None
    )


@dataclass(frozen=True, slots=True)
class StdMeld:
    """A set or run: sorted ``cards``; a set's ``rank`` or a run's ``suit`` and lowest ``rank``.

    ``wilds`` pairs each wild standing for another card with that card, ``(wild, stands_for)``.
    """

    cards: tuple[int, ...]
    kind: MeldKind
    rank: int | None
    suit: int | None
    wilds: tuple[tuple[int, int], ...] = ()


def _split(cards: Sequence[Card], wild: int | None) -> tuple[list[Card], list[Card]]:
    """(natural cards, wild-rank cards), each in the given order."""
    nat = [c for c in cards if RANK_OF[c] != wild]
    wil = [c for c in cards if RANK_OF[c] == wild]
    return nat, wil


def _set_ok(nat: Sequence[Card], n: int, ctx: StdContext) -> bool:
    """``n`` cards whose naturals share one rank make a set (GFF-2: at most ``max_set``)."""
    if n < 3 or (ctx.max_set is not None and n > ctx.max_set):
        return False
    return len({RANK_OF[c] for c in nat}) <= 1


def _run_positions(nat: Sequence[Card], ctx: StdContext) -> list[list[int]] | None:
    """Candidate position lists (one per ace choice) for naturals of one suit, distinct ranks."""
    if not nat or len({SUIT_OF[c] for c in nat}) != 1:
        return None
    ranks = sorted(RANK_OF[c] for c in nat)
    if len(set(ranks)) != len(ranks):
        return None
    options = [ranks]
    if ctx.aces_high and ranks[0] == 0:
        options.append(ranks[1:] + [TOP_RANKS])
    return options


def _run_ok(nat: Sequence[Card], n: int, ctx: StdContext) -> bool:
    """``n`` cards make a run when the naturals fit a window of ``n`` positions (wilds fill)."""
    if n < 3 or n > MAX_RUN:
        return False
    options = _run_positions(nat, ctx)
    if options is None:
        return False
    return any(pos[-1] - pos[0] + 1 <= n for pos in options)


def is_meld(cards: Sequence[Card], ctx: StdContext) -> bool:
    """True when ``cards`` form a set or run under GFF-2 / T13-4 (wilds may stand for anything)."""
    n = len(cards)
    if n < 3:
        return False
    nat, _ = _split(cards, ctx.wild_rank)
    return _set_ok(nat, n, ctx) or _run_ok(nat, n, ctx)


def _describe_set(
    cards: tuple[int, ...], nat: list[Card], wil: list[Card], ctx: StdContext
) -> StdMeld:
    """The set reading: each wild takes the set's rank in the least used suit (module doc)."""
    rank = RANK_OF[nat[0]] if nat else ctx.wild_rank
    assert rank is not None
    if not nat:  # every card is of the wild rank: a natural set of that rank
        return StdMeld(cards, "set", rank, None)
    per_suit = [0, 0, 0, 0]
    for c in nat:
        per_suit[SUIT_OF[c]] += 1
    subs: list[tuple[int, int]] = []
    for w in wil:
        suit = min(range(4), key=lambda s: (per_suit[s], s))
        per_suit[suit] += 1
        subs.append((w, suit * 13 + rank))
    return StdMeld(cards, "set", rank, None, tuple(subs))


def _describe_run(
    cards: tuple[int, ...], nat: list[Card], wil: list[Card], ctx: StdContext
) -> tuple[int, StdMeld] | None:
    """The best run reading with its substitution count, or None (see the module doc)."""
    n = len(cards)
    if n < 3 or n > MAX_RUN:
        return None
    options = _run_positions(nat, ctx)
    if options is None:
        return None
    suit = SUIT_OF[nat[0]]
    top = TOP_RANKS if ctx.aces_high else TOP_RANKS - 1
    wr = ctx.wild_rank
    self_wild = suit * 13 + wr if wr is not None else -1
    best: tuple[tuple[int, int, int], list[int], int] | None = None
    for high_ace, pos in enumerate(options):
        lo, hi = pos[0], pos[-1]
        for start in range(max(0, hi - n + 1), min(lo, top - n + 1) + 1):
            taken = set(pos)
            plays_self = (
                self_wild in wil and wr is not None and start <= wr < start + n and wr not in taken
            )
            key = (len(wil) - int(plays_self), high_ace, -start)
            if best is None or key < best[0]:
                best = (key, pos, start)
    if best is None:
        return None
    (subs_count, _, _), pos, start = best
    taken = set(pos)
    rest = list(wil)
    if wr is not None and self_wild in rest and start <= wr < start + n and wr not in taken:
        rest.remove(self_wild)
        taken.add(wr)
    free = [p for p in range(start, start + n) if p not in taken]
    subs = tuple((w, suit * 13 + p % 13) for w, p in zip(rest, free, strict=True))
    return subs_count, StdMeld(cards, "run", start, suit, subs)


def describe_meld(cards: Iterable[Card], ctx: StdContext) -> StdMeld | None:
    """The canonical description of ``cards`` as a meld (see module doc), or None if not a meld."""
    return _describe_sorted(tuple(sorted(cards)), ctx)


@lru_cache(maxsize=16384)
def _describe_sorted(ordered: tuple[int, ...], ctx: StdContext) -> StdMeld | None:
    """``describe_meld`` of sorted cards; cached, as the same melds recur across hands."""
    n = len(ordered)
    if n < 3:
        return None
    nat, wil = _split(ordered, ctx.wild_rank)
    run = _describe_run(ordered, nat, wil, ctx) if nat else None
    if _set_ok(nat, n, ctx):
        set_meld = _describe_set(ordered, nat, wil, ctx)
        if run is None or len(set_meld.wilds) <= run[0]:
            return set_meld
    return run[1] if run is not None else None


@lru_cache(maxsize=8192)
def sub_multisets(cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every sub-multiset of the sorted ``cards`` as a sorted tuple (the empty one first)."""
    items = sorted(Counter(cards).items())
    out: list[tuple[int, ...]] = []
    for picks in product(*(range(k + 1) for _, k in items)):
        sub: list[int] = []
        for (card, _), k in zip(items, picks, strict=True):
            sub.extend([card] * k)
        out.append(tuple(sub))
    return tuple(out)


@lru_cache(maxsize=1024)
def _subs_by_size(cards: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Sub-multisets of the sorted ``cards`` grouped by size (index = size)."""
    out: list[list[tuple[int, ...]]] = [[] for _ in range(len(cards) + 1)]
    for sub in sub_multisets(cards):
        out[len(sub)].append(sub)
    return tuple(tuple(x) for x in out)


def run_naturals(
    cards: list[Card], budget: int, ctx: StdContext
) -> Iterator[tuple[list[Card], int]]:
    """Subsets of one suit's distinct natural cards that fit a run with at most ``budget`` gaps.

    Yields (cards, span); ``cards`` are in run-position order (a high ace last).
    """
    by_pos: list[tuple[int, Card]] = [(RANK_OF[c], c) for c in cards]
    if ctx.aces_high:
        by_pos += [(TOP_RANKS, c) for c in cards if RANK_OF[c] == 0]
    by_pos.sort()
    if budget == 0:  # no wilds: every window of 3+ inside a consecutive stretch
        stretch: list[tuple[int, Card]] = []
        for item in by_pos + [(99, -1)]:
            if stretch and item[0] != stretch[-1][0] + 1:
                for lo in range(len(stretch) - 2):
                    for hi in range(lo + 3, min(len(stretch), lo + MAX_RUN) + 1):
                        yield [c for _, c in stretch[lo:hi]], hi - lo
                stretch = []
            stretch.append(item)
        return

    def extend(
        chosen: list[tuple[int, Card]], start_idx: int, gaps: int
    ) -> Iterator[tuple[list[Card], int]]:
        first, last = chosen[0][0], chosen[-1][0]
        yield [c for _, c in chosen], last - first + 1
        for k in range(start_idx, len(by_pos)):
            p, c = by_pos[k]
            extra = p - last - 1
            if p - first + 1 > MAX_RUN or gaps + extra > budget:
                break
            if c == chosen[0][1]:
                continue  # the same ace low and high
            chosen.append((p, c))
            yield from extend(chosen, k + 1, gaps + extra)
            chosen.pop()

    for i, (p, c) in enumerate(by_pos):
        if p != TOP_RANKS:  # a high ace never starts a run
            yield from extend([(p, c)], i + 1, 0)


_LAST_TUPLES = threading.local()  # per thread: (hand, ctx, must, melds) of the last enumeration


def legal_meld_tuples(
    hand: Sequence[Card], ctx: StdContext, must: Card | None = None
) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of ``hand`` that is a meld (and holds ``must``), sorted.

    A melds request enumerates the same hand twice (the arrangement search's tie scan and the
    listing): the last answer of each thread is kept for the very same hand tuple and context
    objects (both immutable), and a fresh list is returned every time.
    """
    if type(hand) is tuple:
        last = getattr(_LAST_TUPLES, "entry", None)
        if last is not None and last[0] is hand and last[1] is ctx and last[2] == must:
            return list(last[3])
    found = _legal_meld_tuples(hand, ctx, must)
    if type(hand) is tuple:
        _LAST_TUPLES.entry = (hand, ctx, must, tuple(found))
    return found


def _legal_meld_tuples(
    hand: Sequence[Card], ctx: StdContext, must: Card | None
) -> list[tuple[int, ...]]:
    wr = ctx.wild_rank
    nat: list[Card] = []
    wil: list[Card] = []
    for c in hand:
        (wil if RANK_OF[c] == wr else nat).append(c)
    w = len(wil)
    by_size = _subs_by_size(tuple(sorted(wil)))
    found: set[tuple[int, ...]] = set()
    limit = ctx.max_set if ctx.max_set is not None else len(hand)
    need_nat = must is not None and RANK_OF[must] != wr
    # Sets (GFF-2, T13-4): naturals of one rank (copies allowed) plus any wilds; wild-only sets.
    if not need_nat:
        for size in range(3, min(w, limit) + 1):
            found.update(by_size[size])
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, set[Card]] = {}
    for c in nat:
        if not need_nat or RANK_OF[c] == RANK_OF[must]:  # type: ignore[index]
            by_rank.setdefault(RANK_OF[c], []).append(c)
        if not need_nat or SUIT_OF[c] == SUIT_OF[must]:  # type: ignore[index]
            by_suit.setdefault(SUIT_OF[c], set()).add(c)
    for group in by_rank.values():
        if len(group) + w < 3:
            continue
        for nsub in sub_multisets(tuple(sorted(group)))[1:]:
            if need_nat and must not in nsub:
                continue
            for k in range(max(0, 3 - len(nsub)), min(w, limit - len(nsub)) + 1):
                for wsub in by_size[k]:
                    found.add(tuple(sorted(nsub + wsub)) if wsub else nsub)
    # Runs (GFF-2, T13-4): one suit, distinct ranks, gaps and ends filled by wilds.
    for suited in by_suit.values():
        if len(suited) + w < 3:
            continue
        for chosen, span in run_naturals(sorted(suited), w, ctx):
            if need_nat and must not in chosen:
                continue
            low = max(3, span) - len(chosen)
            for k in range(max(0, low), min(w, MAX_RUN - len(chosen)) + 1):
                for wsub in by_size[k]:
                    found.add(tuple(sorted(chosen + list(wsub))))
    if must is not None and not need_nat:
        return sorted(m for m in found if must in m)
    return sorted(found)


def iter_legal_melds(hand: Sequence[Card], ctx: StdContext) -> Iterator[StdMeld]:
    """Each distinct card multiset of ``hand`` that is a legal meld, once, in sorted-tuple order."""
    for cards in legal_meld_tuples(hand, ctx):
        meld = describe_meld(cards, ctx)
        assert meld is not None
        yield meld
