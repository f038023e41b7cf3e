"""Three Thirteen advice: the next player's imagined hands (the danger model) and the work a
draw's hands share (:class:`_DrawBases`).

The next player's hand is sampled ``samples`` times (seeded keys on the physical cards: the
unseen cards with the highest keys) from the unseen cards, always holding their known pickups;
cards of the rank, and of the same suit within two ranks, of a card they discarded are
``DISCARDED_NEAR_WEIGHT`` times as likely (a player who throws a card does not collect around it).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import islice

from engine.advice.t13.params import DEFAULT_SAMPLES, DEFAULT_SEED, DISCARDED_NEAR_WEIGHT
from engine.advice.t13.situation import T13Situation, unseen_for
from engine.core.cards import RANK_OF, SUIT_OF
from engine.games.t13.game import GAME
from engine.standard.memo import DeadwoodMemo, Profile

_DECK_SIZE = GAME.deck.size  # a physical card is ``card + _DECK_SIZE * copy`` (T13-2)


def _near(card: int) -> set[int]:
    """Cards of ``card``'s rank and of its suit within two ranks (its meld neighbourhood)."""
    r, s = RANK_OF[card], SUIT_OF[card]
    out = {t * 13 + r for t in range(4)}
    out.update(s * 13 + q for q in range(max(0, r - 2), min(12, r + 2) + 1))
    return out


_KEYS: dict[tuple[int, int, int], tuple[tuple[float, ...], ...]] = {}
_KEYS_LIMIT = 256


def _card_keys(seed: int, samples: int, decks: int) -> tuple[tuple[float, ...], ...]:
    """Per imagined hand, a seeded uniform key for every physical card (``card + 52 * copy``,
    52 cards a deck):
    the hand is the unseen cards with the highest keys, so it depends only on its seed and on
    which cards are unseen (memoised: every hand a draw values shares them)."""
    got = _KEYS.get((seed, samples, decks))
    if got is None:
        rng = random.Random(seed)
        size = _DECK_SIZE * decks
        got = tuple(tuple(rng.random() for _ in range(size)) for _ in range(samples))
        if len(_KEYS) >= _KEYS_LIMIT:
            _KEYS.clear()
        _KEYS[(seed, samples, decks)] = got
    return got


def _next_player_hands(
    situation: T13Situation,
    unseen: Sequence[int],
    seed: int,
    samples: int,
    ranked: Sequence[Sequence[int]] | None = None,
) -> list[tuple[int, ...]]:
    """``samples`` draws of the next player's hand: their known cards plus unseen cards.

    T13 has no laying down before going out (T13-5, T13-7), so no meld constraint applies.
    Unseen cards near a card they discarded are ``DISCARDED_NEAR_WEIGHT`` times as likely
    (Efraimidis-Spirakis: the cards with the highest keys ``u ** (1 / weight)`` are drawn, a
    uniform draw when every weight is 1). The keys belong to physical cards (the k-th unseen
    copy of a card is copy k), so a situation with one unseen card fewer - a hand a draw values
    holds the drawn card - imagines the same hands except those that held that card.
    ``ranked`` (from :func:`_ranked_slots`, for these very unseen cards) skips the sorting.
    """
    known, hidden = _next_known_hidden(situation, unseen)
    if ranked is None:
        ranked = _ranked_slots(situation, _slots(unseen), seed, samples)
    deck = _DECK_SIZE
    return [(*known, *sorted(x % deck for x in order[:hidden])) for order in ranked]


def _next_known_hidden(
    situation: T13Situation, unseen: Sequence[int]
) -> tuple[tuple[int, ...], int]:
    """The next player's known cards and how many of its cards are hidden (its hand size, by
    default the round's deal, T13-1, less the known cards; no more than the unseen cards)."""
    known = situation.known[0] if situation.known else ()
    if situation.hand_sizes:
        size = situation.hand_sizes[0]
    else:
        size = GAME.deal_size(situation.round_number)
    return known, max(0, min(size - len(known), len(unseen)))


def _slots(unseen: Sequence[int]) -> list[int]:
    """The physical cards of ``unseen`` (sorted by card): copy k of card c is ``c + 52 * k``."""
    slots: list[int] = []
    copies: Counter[int] = Counter()
    deck = _DECK_SIZE
    for c in unseen:
        slots.append(c + deck * copies[c])
        copies[c] += 1
    return slots


def _ranked_slots(
    situation: T13Situation, slots: Sequence[int], seed: int, samples: int
) -> list[list[int]]:
    """Per imagined next-player hand, ``slots`` by decreasing key (its hand is a prefix)."""
    thrown = situation.discarded[0] if situation.discarded else ()
    near: set[int] = set()
    for c in thrown:
        near |= _near(c)
    power = 1.0 / DISCARDED_NEAR_WEIGHT
    deck = _DECK_SIZE
    out = []
    for keys in _card_keys(seed, samples, situation.decks):
        if near:
            out.append(
                sorted(
                    slots,
                    key=lambda x: keys[x] ** power if x % deck in near else keys[x],
                    reverse=True,
                )
            )
        else:
            out.append(sorted(slots, key=keys.__getitem__, reverse=True))
    return out


def sample_next_hands(
    situation: T13Situation, *, seed: int = DEFAULT_SEED, samples: int = DEFAULT_SAMPLES
) -> list[tuple[int, ...]]:
    """The next player's hands the advice imagines (known cards + unseen cards), for tests/docs."""
    return _next_player_hands(situation, unseen_for(situation), seed, samples)


_HandsKey = tuple[tuple[int, ...], int]  # (the next player's known cards, its hidden cards)
_Hands = list[tuple[tuple[int, ...], set[int]]]  # per imagined hand: its cards, its slots


class _Opponents:
    """Imagined next-player hands (profiled once, each by its index) and what a discard saves
    each of them, memoised (``DeadwoodMemo.gain_of_adding``)."""

    __slots__ = ("memo", "profiles", "_index", "_gains")

    def __init__(self, memo: DeadwoodMemo) -> None:
        self.memo = memo
        self.profiles: list[Profile] = []
        self._index: dict[tuple[int, ...], int] = {}
        self._gains: dict[int, int] = {}  # index * 64 + card -> gain

    def index(self, hand: tuple[int, ...]) -> int:
        """The index of ``hand`` (profiled when first seen)."""
        got = self._index.get(hand)
        if got is None:
            got = self._index[hand] = len(self.profiles)
            self.profiles.append(self.memo.profile(hand))
        return got

    def gain(self, index: int, card: int) -> int:
        """Deadwood the hand ``index`` saves by taking ``card``."""
        key = index << 6 | card
        got = self._gains.get(key)
        if got is None:
            got = self._gains[key] = self.memo.gain_of_adding(self.profiles[index], card)
        return got


class _DrawBases:
    """Profiles of the hand before the draw, whole and less each card, shared by every hand a
    draw values: a kept hand is that hand less a card plus the drawn card, and its figures are
    searched through the drawn card (``DeadwoodMemo.profile_plus``), sharing their searches."""

    __slots__ = (
        "memo",
        "hand",
        "whole",
        "_minus",
        "opponents",
        "unseen",
        "_base_counts",
        "_ranked",
    )

    def __init__(self, memo: DeadwoodMemo, hand: Sequence[int], unseen: Sequence[int] = ()) -> None:
        self.memo = memo
        self.hand = tuple(hand)
        self.whole = memo.profile(self.hand)
        self._minus: dict[int, Profile] = {}
        # Imagined next-player hands and what a discard saves them, shared by the hands a draw
        # values (most of them imagine the same next-player hands: see _next_player_hands).
        self.opponents = _Opponents(memo)
        self.unseen = tuple(unseen)  # before the draw: every hand a draw values has a subset
        self._base_counts = Counter(self.unseen)
        # per (seed, samples): the ranked slots, and by (known cards, hidden cards) each imagined
        # hand with the slots it holds
        self._ranked: dict[tuple[int, int], tuple[list[list[int]], dict[_HandsKey, _Hands]]] = {}

    def next_hands(
        self, situation: T13Situation, unseen: Sequence[int], seed: int, samples: int
    ) -> list[tuple[int, ...]]:
        """:func:`_next_player_hands` of a hand the draw values: the unseen cards before the draw
        are ranked once per (seed, samples), and a hand's unseen cards (those less the card it
        drew) read that order without the slots they lack (the same order as sorting them), so
        an imagined hand changes only where it held such a slot."""
        gone = self._gone(unseen)
        if gone is None:  # not a subset: rank these cards afresh
            return _next_player_hands(situation, unseen, seed, samples)
        got = self._ranked.get((seed, samples))
        if got is None:
            ranked = _ranked_slots(situation, _slots(self.unseen), seed, samples)
            got = self._ranked[(seed, samples)] = (ranked, {})
        ranked, whole = got
        known, hidden = _next_known_hidden(situation, unseen)
        deck = _DECK_SIZE
        prefixes = whole.get((known, hidden))
        if prefixes is None:  # each imagined hand, and the slots it holds
            prefixes = whole[(known, hidden)] = [
                ((*known, *sorted(x % deck for x in order[:hidden])), set(order[:hidden]))
                for order in ranked
            ]
        out = []
        for order, (hand, held) in zip(ranked, prefixes, strict=True):
            if not gone or held.isdisjoint(gone):
                out.append(hand)
            else:
                kept = islice((x % deck for x in order if x not in gone), hidden)
                out.append((*known, *sorted(kept)))
        return out

    def _gone(self, unseen: Sequence[int]) -> list[int] | None:
        """The slots of the unseen cards before the draw that ``unseen`` lacks (a hand's drawn
        stock card: the last copy), or None when ``unseen`` holds a card they do not."""
        mine = self.unseen
        if len(unseen) == len(mine) - 1:  # the usual case, one card drawn: find it
            pairs = enumerate(zip(unseen, mine, strict=False))
            i = next((i for i, (a, b) in pairs if a != b), len(unseen))
            if unseen[i:] == mine[i + 1 :]:
                c = mine[i]
                return [c + _DECK_SIZE * (self._base_counts[c] - 1)]
        if tuple(unseen) == mine:
            return []
        have = Counter(unseen)
        base = self._base_counts
        if have - base:
            return None
        deck = _DECK_SIZE
        return [c + deck * k for c, n in (base - have).items() for k in range(have[c], have[c] + n)]

    def kept(self, removed: int, drawn: int) -> Profile:
        """The profile of the hand + ``drawn`` - ``removed``."""
        if removed == drawn:
            return self.whole
        base = self._minus.get(removed)
        if base is None:
            rest = list(self.hand)
            rest.remove(removed)
            base = self._minus[removed] = self.memo.profile(rest)
        return self.memo.profile_plus(base, drawn)


__all__ = [
    "sample_next_hands",
]
