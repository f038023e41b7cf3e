"""The fast paths of the Tunk advice change no answer: draw, knock and discard advice with the
engine as it is against the same advice with the previous code of every part that was made
faster (kept below as the reference and patched in): the TT-11 quick test (generic frames,
no memo), the take line's ending check (``tt_tunk_out`` straight away), the opponent sampler's
meld tests and dealing loop, and the unseen cards counted over the deck. Hypothesis draws
random situations of both games, 2-6 players, with discards, pickups, opponents' discard
histories and table melds of every owner (GFF-2, TT-6), and compares the full answers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import combinations
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import engine.advice.tunk.common as common
import engine.advice.tunk.knock as knock
import engine.advice.tunk.value as value
from engine.advice.situation import Observation
from engine.advice.tunk.common import (
    GFF_MODEL,
    TT_MODEL,
    HandSampler,
    check_observation,
    clear_caches,
    meld3_list,
)
from engine.advice.tunk.discard import discard_advice
from engine.advice.tunk.draw import draw_advice
from engine.advice.tunk.knock import knock_advice
from engine.advice.tunk.value import Evaluator, clear_value_caches
from engine.core.errors import EngineError
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.types import TableMeld
from engine.games.tt.melds import is_tt_meld
from engine.games.tt.play import (
    FitsFn,
    LegalFn,
    _any_sideways_plan,
    _extension_lefts,
    _first_legal_order,
    _split_melds,
    _table_fits,
    _tunk_frames,
    tt_can_tunk_out,
    tt_tunk_out,
)

# --------------------------------------------------------------------------- the reference


def reference_can_tunk_out(
    hand: Sequence[int],
    table: Sequence[TableMeld],
    seat: int,
    fits: FitsFn | None = None,
    legal: LegalFn | None = None,
    sideways: object = None,
) -> bool:
    """``tt_can_tunk_out`` as it was: the generic frames for every player, no memo."""
    cards = tuple(sorted(set(hand)))
    if not cards:
        return False
    if fits is None:
        fits = _table_fits(table, seat)
    if legal is None:

        def legal(index: int, group: tuple[int, ...], by_owner: bool) -> bool:
            return _first_legal_order(table[index].cards, group, by_owner) is not None

    own_idx = [i for i, m in enumerate(table) if m.owner == seat]
    opp_idx = [i for i, m in enumerate(table) if m.owner != seat]
    for _shape, ext_need, new_sizes, _discard, side, after_side in _tunk_frames(
        cards, table, seat, fits
    ):
        if not _any_sideways_plan(side, opp_idx, legal):
            continue
        for left in _extension_lefts(own_idx, ext_need, after_side, legal):
            for _melds in _split_melds(left, new_sizes):
                return True
    return False


_ENDING = Evaluator.ending  # unchanged for Game Flip Flop


def reference_ending(
    self: Evaluator, hand: Sequence[int], quick: bool = True
) -> tuple[str, int | None] | None:
    """``Evaluator.ending`` as it was: Triple Tunk asks ``tt_tunk_out`` straight away."""
    obs = self.obs
    if quick and not self._may_end(hand):
        return None
    if self.game == GAME_FLIP_FLOP:
        return _ENDING(self, hand, quick)
    option = tt_tunk_out(tuple(hand), obs.table, obs.seat)
    return ("tunk_out", option.discard) if option is not None else None


def reference_has_meld(self: HandSampler, hand: Sequence[int]) -> bool:
    m3 = self.meld3
    return any(m3(a, b, c) for a, b, c in combinations(hand, 3))


def reference_meld(self: HandSampler, rng: random.Random, taken: int) -> tuple[int, ...]:
    rand = rng.random
    if self.pool_melds is not None:
        melds = self.pool_melds
        for _ in range(common._MELD_TRIES):
            if not melds:
                break
            t = melds[int(rand() * len(melds))]
            if not taken & common._mask(t):
                return t
        return ()
    pool = self.pool
    size = len(pool)
    m3 = self.meld3
    for _ in range(common._MELD_TRIES):
        a, b, c = pool[int(rand() * size)], pool[int(rand() * size)], pool[int(rand() * size)]
        m = (1 << a) | (1 << b) | (1 << c)
        if m.bit_count() == 3 and not taken & m and m3(a, b, c):
            return (a, b, c)
    return ()


def reference_deal(
    self: HandSampler, rng: random.Random, cards: Sequence[int], need: int, taken: int
) -> list[int]:
    rand = rng.random
    size = len(cards)
    out: list[int] = []
    tries = 4 * need + 4 if size else 0
    while len(out) < need and tries:
        tries -= 1
        c = cards[int(rand() * size)]
        bit = 1 << c
        if not taken & bit:
            taken |= bit
            out.append(c)
    if len(out) < need:
        free = [c for c in cards if not taken >> c & 1]
        if len(free) < need - len(out):
            out += free
            for c in free:
                taken |= 1 << c
            free = [c for c in self.pool if not taken >> c & 1]
        for c in rng.sample(free, need - len(out)):
            out.append(c)
    return out


def reference_unseen(
    deck: Sequence[int],
    hand: Iterable[int],
    table: Iterable[TableMeld],
    discards: Iterable[int],
    known_elsewhere: Iterable[Iterable[int]] = (),
) -> tuple[int, ...]:
    remaining: dict[int, int] = {}
    for c in deck:
        remaining[c] = remaining.get(c, 0) + 1
    seen: list[int] = list(hand)
    for meld in table:
        seen.extend(meld.cards)
    seen.extend(discards)
    for group in known_elsewhere:
        seen.extend(group)
    for c in seen:
        left = remaining.get(c, 0)
        if left > 0:
            remaining[c] = left - 1
    out: list[int] = []
    for c in sorted(remaining):
        out.extend([c] * remaining[c])
    return tuple(out)


def _clear() -> None:
    clear_caches()
    clear_value_caches()


@contextmanager
def reference_engine() -> Iterator[None]:
    """The advice with the reference parts patched in (memo tables emptied around it)."""
    _clear()
    with (
        mock.patch.object(value, "tt_can_tunk_out", reference_can_tunk_out),
        mock.patch.object(value.Evaluator, "ending", reference_ending),
        mock.patch.object(HandSampler, "_has_meld", reference_has_meld),
        mock.patch.object(HandSampler, "_meld", reference_meld),
        mock.patch.object(HandSampler, "_deal", reference_deal),
        mock.patch.object(value, "unseen_cards", reference_unseen),
        mock.patch.object(knock, "unseen_cards", reference_unseen),
    ):
        yield
    _clear()


# --------------------------------------------------------------------------- situations


def _table(rng: random.Random, game: str, free: list[int], n: int) -> list[TableMeld]:
    """Zero to three 3-card melds of free cards, each owned by a random seat."""
    melds: list[TableMeld] = []
    want = rng.choice((0, 0, 1, 2, 3))
    if game == GAME_FLIP_FLOP:
        triples = [t for t in meld3_list(GFF_MODEL) or () if set(t) <= set(free)]
        rng.shuffle(triples)
        for t in triples:
            if len(melds) >= want:
                break
            if not set(t) & {c for m in melds for c in m.cards}:
                melds.append(TableMeld(rng.randrange(n), t))
    else:
        pool = free[:45]
        for a, b, c in combinations(pool, 3):
            if len(melds) >= want:
                break
            if is_tt_meld((a, b, c)) and not {a, b, c} & {x for m in melds for x in m.cards}:
                melds.append(TableMeld(rng.randrange(n), (a, b, c)))
    for m in melds:
        for c in m.cards:
            free.remove(c)
    return melds


def situation(seed: int, game: str) -> Observation:
    """A random mid-deal situation of ``game`` (validated by ``check_observation``)."""
    rng = random.Random(seed)
    model = GFF_MODEL if game == GAME_FLIP_FLOP else TT_MODEL
    n = rng.randint(2, 6)
    seat, dealer = rng.randrange(n), rng.randrange(n)
    free = list(model.deck)
    rng.shuffle(free)
    table = _table(rng, game, free, n)
    own = any(m.owner == seat for m in table)
    size = rng.choice((2, 3, 5, 5)) if own else 5
    hand = tuple(free[:size])
    del free[:size]
    pile = tuple(free[: rng.randint(0, 6)])
    del free[: len(pile)]
    known: list[tuple[int, ...]] = [()] * n
    sizes = [5] * n
    sizes[seat] = len(hand)
    history: list[tuple[int, ...]] = [()] * n
    declined: list[tuple[int, ...]] = [()] * n
    turns = [0] * n
    for j in range(n):
        if j == seat:
            continue
        turns[j] = rng.randint(0, 4)
        if rng.random() < 0.3:
            known[j] = tuple(free[: rng.randint(1, 2)])
            del free[: len(known[j])]
        if turns[j] and pile:
            history[j] = tuple(rng.sample(pile, rng.randint(0, min(2, len(pile)))))
            declined[j] = tuple(rng.sample(pile, rng.randint(0, 1)))
    return Observation(
        game=game,
        seat=seat,
        dealer=dealer,
        n_players=n,
        hand=hand,
        table=tuple(table),
        discards=pile,
        known=tuple(known),
        hand_sizes=tuple(sizes),
        turns=tuple(turns),
        stock_size=max(0, len(free) - 5 * (n - 1)),
        discard_history=tuple(history),
        declined=tuple(declined),
    )


# --------------------------------------------------------------------------- the comparison


def _answers(obs: Observation, seed: int) -> tuple[object, ...]:
    return (
        draw_advice(obs, seed=seed),
        knock_advice(obs, seed=seed),
        discard_advice(obs) if len(obs.hand) > 1 else None,
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    game=st.sampled_from((GAME_FLIP_FLOP, TRIPLE_TUNK)),
    advice_seed=st.integers(0, 5),
)
def test_advice_matches_the_reference(seed: int, game: str, advice_seed: int) -> None:
    obs = situation(seed, game)
    try:
        check_observation(obs, GFF_MODEL if game == GAME_FLIP_FLOP else TT_MODEL)
    except EngineError:
        assume(False)
    with reference_engine():
        want = _answers(obs, advice_seed)
    got = _answers(obs, advice_seed)
    assert got == want


@pytest.mark.rule("TT-11")
@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_quick_tunk_out_matches_the_reference(seed: int) -> None:
    """The quick TT-11 test on hands of 3-6 cards against the generic frames and
    ``tt_tunk_out`` itself, with a meld-rich hand so that some of them end."""
    rng = random.Random(seed)
    free = list(range(125))
    rng.shuffle(free)
    n = rng.randint(2, 4)
    table = _table(rng, TRIPLE_TUNK, free, n)
    size = rng.choice((3, 4, 5, 6, 6))
    hand: list[int] = []
    for a, b, c in combinations(free[:30], 3):  # start from a meld when there is one
        if is_tt_meld((a, b, c)):
            hand = [a, b, c]
            break
    hand += [c for c in free[30:] if c not in hand][: size - len(hand)]
    seat = rng.randrange(n)
    want = tt_tunk_out(hand, table, seat) is not None
    assert reference_can_tunk_out(hand, table, seat) == want
    assert tt_can_tunk_out(hand, table, seat) == want


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from((GAME_FLIP_FLOP, TRIPLE_TUNK)))
def test_unseen_cards_match_the_reference(seed: int, game: str) -> None:
    obs = situation(seed, game)
    model = GFF_MODEL if game == GAME_FLIP_FLOP else TT_MODEL
    others = [obs.known[j] for j in obs.opponents()]
    args = (model.deck, obs.hand, obs.table, obs.discards, others)
    assert common.unseen_cards(*args) == reference_unseen(*args)
    odd = (0, 0, 1, 2, 2, 5)  # several copies, and a card that is no deck card
    assert common.unseen_cards(odd, (2, 9), (), (0,)) == reference_unseen(odd, (2, 9), (), (0,))
