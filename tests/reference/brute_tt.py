"""Brute-force Triple Tunk reference for tests only: rule text as plain set comparisons.

Nothing here imports the engine's tables: cards are decoded with divmod, predicates compare sets,
arrangements come from every set partition of the hand, tunk-outs from simulating every turn.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

BLACK = BLOB = QUESTION = 4
SHAPES = {
    "five_meld": ((5,), 0, True),
    "two_three_melds": ((3, 3), 0, False),
    "three_meld_two_layoffs": ((3,), 2, True),
    "four_meld_one_layoff": ((4,), 1, True),
}


def colour(card: int) -> int:
    return card // 25


def shape(card: int) -> int:
    return card // 5 % 5


def number(card: int) -> int:
    return card % 5


def points(card: int) -> int:
    """TT-2: 1..4 face value, ? = 5."""
    return number(card) + 1


def match_colour(cards: Sequence[int]) -> bool:
    """TT-3: the non-black colours form a set of at most one colour."""
    return len({colour(c) for c in cards if colour(c) != BLACK}) <= 1


def match_shape(cards: Sequence[int]) -> bool:
    """TT-3: the non-blob shapes form a set of at most one shape."""
    return len({shape(c) for c in cards if shape(c) != BLOB}) <= 1


def match_number(cards: Sequence[int]) -> bool:
    """TT-4: non-? numbers all equal, and at least two non-? or at least two ?."""
    plain = [number(c) for c in cards if number(c) != QUESTION]
    questions = len(cards) - len(plain)
    return len(set(plain)) <= 1 and (len(plain) >= 2 or questions >= 2)


def in_sequence(cards: Sequence[int]) -> bool:
    """TT-5: values (? = 5) distinct and consecutive."""
    values = sorted(number(c) + 1 for c in cards)
    return len(values) > 0 and values == list(range(values[0], values[0] + len(values)))


def is_meld(cards: Sequence[int]) -> bool:
    """TT-6."""
    if not 3 <= len(cards) <= 5 or len(set(cards)) != len(cards):
        return False
    matches = [match_colour(cards), match_shape(cards), match_number(cards)]
    if sum(matches) >= 2:
        return True
    return in_sequence(cards) and (matches[0] or matches[1])


def is_special(cards: Sequence[int]) -> bool:
    """TT-7."""
    if not is_meld(cards):
        return False
    both = match_colour(cards) and match_shape(cards)
    return both and (in_sequence(cards) or match_number(cards))


def melds_in(hand: Sequence[int]) -> list[tuple[int, ...]]:
    """Every meld inside the hand: size 3, 4, 5, then lexicographic."""
    cards = sorted(hand)
    return [g for k in (3, 4, 5) for g in combinations(cards, k) if is_meld(g)]


def bonus(own_melds: Sequence[Sequence[int]]) -> int:
    """TT-14 read from the text: x2 3-card special, x3 4-card, x4 5-card or two specials."""
    specials = [len(m) for m in own_melds if is_special(m)]
    candidates = [1]
    if 3 in specials:
        candidates.append(2)
    if 4 in specials:
        candidates.append(3)
    if 5 in specials:
        candidates.append(4)
    if len(specials) >= 2:  # "two 3-card specials", read as any two specials
        candidates.append(4)
    return max(candidates)


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every set partition of ``items``."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]


def arrangements(hand: Sequence[int]) -> set[frozenset[tuple[int, ...]]]:
    """Every set of disjoint melds: any meld blocks of any set partition of the hand."""
    out: set[frozenset[tuple[int, ...]]] = set()
    for part in partitions(sorted(hand)):
        blocks = [tuple(sorted(b)) for b in part if is_meld(b)]
        for r in range(len(blocks) + 1):
            for chosen in combinations(blocks, r):
                out.add(frozenset(chosen))
    return out


ArrKey = tuple[int, int, int, tuple[tuple[int, ...], ...]]


def arrangement_key(hand: Sequence[int], melds: frozenset[tuple[int, ...]]) -> ArrKey:
    """C-2 order: deadwood points, more melded, higher bonus, smallest sorted meld tuples."""
    used = {c for m in melds for c in m}
    dead = sum(points(c) for c in hand if c not in used)
    return dead, -len(used), -bonus(list(melds)), tuple(sorted(melds))


def ranked_arrangements(hand: Sequence[int]) -> list[ArrKey]:
    """Every arrangement's key, best first."""
    return sorted(arrangement_key(hand, a) for a in arrangements(hand))


# ------------------------------------------------------------------ TT-8 / TT-11 simulation

Table = tuple[tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]], ...]


def can_add(owner: int, cards: tuple[int, ...], card: int, seat: int) -> bool:
    """TT-8 from the text."""
    new = (*cards, card)
    if len(new) > 5 or not is_meld(new):
        return False
    return not (owner != seat and is_special(cards) and not is_special(new))


def _own(cards: tuple[int, ...], added: tuple[tuple[int, int], ...]) -> list[int]:
    rest = list(cards)
    for card, _who in added:
        rest.remove(card)
    return rest


def shape_of(table: Table, seat: int, discarded: bool) -> str | None:
    """The TT-11 shape the seat's table cards form with or without the final discard."""
    own = sorted(len(_own(c, a)) for o, c, a in table if o == seat)
    side = sum(1 for o, _c, a in table if o != seat for _card, who in a if who == seat)
    for name, (sizes, sideways, discard) in SHAPES.items():
        if tuple(own) == sizes and side == sideways and discard == discarded:
            return name
    return None


def owned_bonus(table: Table, seat: int) -> int:
    """TT-14 on own cards; a meld whose whole is no longer special earns nothing (TT-8)."""
    owned = []
    for o, cards, added in table:
        if o == seat and is_special(cards):
            owned.append(_own(cards, added))
    return bonus(owned)


def tunk_outs(hand: Sequence[int], table: Table, seat: int) -> set[tuple[str, int]]:
    """Every (shape, bonus) reachable by any sequence of TT-8 plays this turn (TT-11)."""

    @cache
    def search(cards: frozenset[int], tab: Table) -> frozenset[tuple[str, int]]:
        found: set[tuple[str, int]] = set()
        if not cards:
            name = shape_of(tab, seat, discarded=False)
            if name:
                found.add((name, owned_bonus(tab, seat)))
            return frozenset(found)
        if len(cards) == 1:
            name = shape_of(tab, seat, discarded=True)
            if name:
                found.add((name, owned_bonus(tab, seat)))
        for k in (3, 4, 5):
            for group in combinations(sorted(cards), k):
                if is_meld(group):
                    found |= search(cards - set(group), (*tab, (seat, group, ())))
        for i, (owner, mcards, added) in enumerate(tab):
            for card in cards:
                if can_add(owner, mcards, card, seat):
                    extra = () if owner == seat else ((card, seat),)
                    new = (owner, (*mcards, card), added + extra)
                    found |= search(cards - {card}, (*tab[:i], new, *tab[i + 1 :]))
        return frozenset(found)

    return set(search(frozenset(hand), table))
