"""The engine's compiled parts (``engine/core/accelerators.py``) against their pure-Python twins.

``scripts/test`` sets ``TUNK_REQUIRE_ACCELERATOR`` where a C compiler is present: every compiled
part must then be built. The compiled least deadwood (``engine.standard._deadwood``) must equal
``min_deadwood_py`` on any hand it takes (distinct cards without a wild: random and meld-rich,
every ace rule and set limit) and decline the others; the compiled search of ``_CardSolver``
(``engine.standard._solver``) must give the Python closure's figure for any naturals (copies from
several decks included), jokers, ``melded`` and ``free``, in every Three Thirteen context. The
kept-hand tables are checked in ``tests/engine/advice/test_keep_table.py``.
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import accelerators
from engine.core.options import ThreeThirteenRules
from engine.standard import deadwood as std_deadwood
from engine.standard import solver as std_solver
from engine.standard.deadwood import min_deadwood, min_deadwood_py
from engine.standard.melds import StdContext, t13_context
from engine.standard.memo import DeadwoodMemo

CONTEXTS = (
    StdContext(wild_rank=None, aces_high=False, max_set=4),  # Game Flip Flop (GFF-2)
    StdContext(wild_rank=None, aces_high=True, max_set=None),
    StdContext(wild_rank=None, aces_high=False, max_set=3),
    StdContext(wild_rank=4, aces_high=False, max_set=None),  # Three Thirteen, fives wild
    StdContext(wild_rank=12, aces_high=True, max_set=None),  # kings wild, aces high (T13-3)
)

needs_compiled = pytest.mark.skipif(
    std_deadwood._ACCEL is None,
    reason="engine.standard._deadwood not built (no C compiler at install, or TUNK_PURE_PYTHON)",
)


def test_every_compiled_part_is_built_where_required() -> None:
    if not os.environ.get("TUNK_REQUIRE_ACCELERATOR") or os.environ.get("TUNK_PURE_PYTHON"):
        pytest.skip("not required here (TUNK_REQUIRE_ACCELERATOR unset, or TUNK_PURE_PYTHON set)")
    assert accelerators.loaded() == {name: True for name in accelerators.COMPILED}


def test_pure_python_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUNK_PURE_PYTHON", "1")
    assert accelerators.loaded() == {name: False for name in accelerators.COMPILED}


def _meld_rich(rng: random.Random, size: int) -> list[int]:
    """Distinct cards from four or five neighbouring ranks of every suit, with the aces and the
    kings (runs, sets and Q-K-A overlap)."""
    low = rng.randrange(9)
    pool = sorted(
        {s * 13 + r for s in range(4) for r in range(low, low + rng.choice((4, 5)))}
        | {s * 13 for s in range(4)}
        | {s * 13 + 12 for s in range(4)}
    )
    return rng.sample(pool, min(size, len(pool)))


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(st.randoms(), st.integers(0, 14), st.sampled_from(CONTEXTS), st.booleans())
def test_compiled_min_deadwood_matches_python(
    rng: random.Random, size: int, ctx: StdContext, rich: bool
) -> None:
    hand = _meld_rich(rng, size) if rich else rng.sample(range(52), size)
    assert min_deadwood(hand, ctx) == min_deadwood_py(hand, ctx)


@needs_compiled
def test_compiled_min_deadwood_on_many_hands() -> None:
    """20,000 seeded hands of 3..14 cards, both hand sets, every context."""
    rng = random.Random(20261204)
    melded = 0
    for k in range(20_000):
        ctx = CONTEXTS[k % len(CONTEXTS)]
        size = rng.randint(3, 14)
        hand = _meld_rich(rng, size) if k % 2 else rng.sample(range(52), size)
        got = min_deadwood(hand, ctx)
        assert got == min_deadwood_py(hand, ctx), (sorted(hand), ctx)
        melded += got < sum(ctx.point_table[c] for c in hand)
    assert melded > 8_000  # the meld-rich half mostly melds


@needs_compiled
def test_compiled_min_deadwood_declines_copies_and_wilds() -> None:
    accel = std_deadwood._ACCEL
    assert accel is not None
    pt = CONTEXTS[0].point_table
    assert accel.min_deadwood([0, 1, 2], pt, -1, False, 4) == 0  # A-2-3 of spades
    assert accel.min_deadwood([0, 1, 2, 2], pt, -1, False, 4) == -1  # a copy
    assert accel.min_deadwood([0, 1, 4], pt, 4, False, 4) == -1  # a five, fives wild
    assert accel.min_deadwood([0, 13, 26, 12], pt, -1, False, 4) == 10  # three aces + a king
    assert accel.min_deadwood([0, 13, 26, 39], pt, -1, False, 3) == 1  # a set of 3 at most
    high = CONTEXTS[1].point_table  # aces high: Q-K-A of spades melds, a lone ace counts 15
    assert accel.min_deadwood([11, 12, 0], high, -1, True, 4) == 0
    assert accel.min_deadwood([11, 12, 0], pt, -1, False, 4) == 21  # aces low: no run


needs_card_solver = pytest.mark.skipif(
    std_solver._CARD_ACCEL is None,
    reason="engine.standard._solver not built (no C compiler at install, or TUNK_PURE_PYTHON)",
)

T13_CONTEXTS = tuple(
    t13_context(r, ThreeThirteenRules(aces=aces))
    for r in (1, 4, 11)  # threes, sixes and kings wild (T13-1)
    for aces in ("low", "high_or_low")
) + (CONTEXTS[0], CONTEXTS[2])


def _context_id(ctx: StdContext) -> str:
    return f"wild{ctx.wild_rank}-high{ctx.aces_high}-cap{ctx.max_set}"


def _random_hand(rng: random.Random, k: int) -> list[int]:
    """0..16 naturals from 1..3 decks, every other one meld-rich (four adjacent ranks, A, K)."""
    decks = rng.choice((1, 2, 3))
    if k % 2:
        low = rng.randrange(10)
        ranks = [*range(low, low + 4), 0, 12]
        pool = [s * 13 + r for s in range(4) for r in ranks] * decks
    else:
        pool = list(range(52)) * decks
    return rng.sample(pool, rng.randint(0, 16))


@needs_card_solver
@pytest.mark.parametrize("ctx", T13_CONTEXTS, ids=_context_id)
def test_compiled_card_search_matches_python(ctx: StdContext) -> None:
    """3,000 seeded multisets of 0..16 naturals from 1..3 decks (half meld-rich), 0..3 extra
    jokers: the compiled solver and the Python closure agree on every flag combination."""
    solver = std_solver._CardSolver(ctx)
    python = solver._make_solve()
    rng = random.Random(hash((ctx.wild_rank, ctx.aces_high, ctx.max_set)) & 0xFFFF)
    found = set()
    for k in range(3000):
        hand = _random_hand(rng, k)
        state, jokers = solver.split(hand)
        jokers += rng.choice((0, 0, 1, 2, 3))
        for melded in (False, True):
            for free in (False, True):
                got = solver.solve(state, jokers, melded, free)
                assert got == python(state, jokers, melded, free), (sorted(hand), jokers)
                found.add(got == 0)
    assert found == {True, False}  # some hands meld completely, some do not


def _memo_pair(
    monkeypatch: pytest.MonkeyPatch, ctx: StdContext
) -> tuple[DeadwoodMemo, DeadwoodMemo]:
    """A compiled ``DeadwoodMemo`` and a pure-Python one of the same context."""
    compiled = DeadwoodMemo(ctx)
    with monkeypatch.context() as m:
        m.setattr(std_solver, "_CARD_ACCEL", None)
        python = DeadwoodMemo(ctx)
    assert compiled._compiled is not None and python._compiled is None
    return compiled, python


def _hand_and_unseen(rng: random.Random, decks: int) -> tuple[list[int], list[tuple[int, int]]]:
    """3..14 cards from ``decks`` decks, and the other cards as sorted (card, copies) pairs."""
    pool = list(range(52)) * decks
    hand = rng.sample(pool, rng.randint(3, 14))
    left = Counter(pool)
    left.subtract(hand)
    return hand, sorted((c, n) for c, n in left.items() if n)


@needs_card_solver
@pytest.mark.parametrize(
    "ctx", T13_CONTEXTS[:4], ids=lambda c: f"wild{c.wild_rank}-high{c.aces_high}"
)
def test_compiled_per_card_loops_match_python(
    monkeypatch: pytest.MonkeyPatch, ctx: StdContext
) -> None:
    """``after_adding``, ``adding_bounds``, ``adding_sums`` and ``gain_of_adding`` (the loops the
    compiled solver runs for Three Thirteen advice) on 400 seeded hands of 3..14 cards from one
    or two decks, each against every card: the same figures, and the same values memoised."""
    compiled, python = _memo_pair(monkeypatch, ctx)
    rng = random.Random(ctx.wild_rank or 0)
    for k in range(400):
        hand, counts = _hand_and_unseen(rng, 1 + k % 2)
        a, b = compiled.profile(hand), python.profile(hand)
        assert a.deadwood == b.deadwood and a.after_discard == b.after_discard
        assert a.with_wild == b.with_wild
        if k % 3 == 0:  # the bounds first (they store the exact values they meet)
            assert compiled.adding_bounds(a, counts) == python.adding_bounds(b, counts)
            assert a.values == b.values
        assert compiled.adding_sums(a, counts) == python.adding_sums(b, counts)
        assert a.values == b.values
        plus_a = compiled.profile_plus(a, counts[0][0])
        plus_b = python.profile_plus(b, counts[0][0])
        for card, _ in counts[::5]:
            assert compiled.after_adding(plus_a, card) == python.after_adding(plus_b, card)
            assert compiled.gain_of_adding(a, card) == python.gain_of_adding(b, card)


@needs_card_solver
@pytest.mark.parametrize("ctx", T13_CONTEXTS, ids=_context_id)
def test_compiled_fewest_jokers_matches_python(
    monkeypatch: pytest.MonkeyPatch, ctx: StdContext
) -> None:
    """The fewest jokers a group holding a drawn card needs, counted per window by the compiled
    solver, against the Python enumeration of those groups (``_options_with``): 1,500 seeded
    hands, every natural card, 0..5 jokers; some cards fit no group (-1), some need none."""
    compiled, python = _memo_pair(monkeypatch, ctx)
    rng = random.Random(7 + (ctx.wild_rank or 0))
    seen = set()
    for k in range(1500):
        hand = _random_hand(rng, k)
        a, b = compiled.profile(hand), python.profile(hand)
        for card in range(52):
            if card % 13 == ctx.wild_rank:
                continue
            for j in (0, 1, 2, 3, 5):
                a.wilds = b.wilds = j
                got = compiled._fewest_jokers(a, card)
                options = python._options_with(b, card, j)
                want = options[0][1] if options else -1
                assert got == want, (sorted(hand), card, j)
                seen.add(got)
    assert {-1, 0, 1, 2} <= seen


@needs_card_solver
@pytest.mark.parametrize(
    "ctx", T13_CONTEXTS[:4], ids=lambda c: f"wild{c.wild_rank}-high{c.aces_high}"
)
def test_compiled_raised_bound_and_gain_match_python(
    monkeypatch: pytest.MonkeyPatch, ctx: StdContext
) -> None:
    """``raised_bound`` (the tightened bound of a kept hand's value) and ``gain_of_adding`` on
    fresh profiles (deadwood not yet searched), 300 seeded hands from one or two decks: the
    same value or None at several thresholds and risks, the same gains, the same values
    memoised on the way."""
    compiled, python = _memo_pair(monkeypatch, ctx)
    rng = random.Random(31 + (ctx.wild_rank or 0))
    outcomes = set()
    for k in range(300):
        hand, counts = _hand_and_unseen(rng, 1 + k % 2)
        a, b = compiled.profile(hand), python.profile(hand)
        for card, _ in counts[::4]:  # gains first: the profiles' deadwood is not known yet
            assert compiled.gain_of_adding(a, card) == python.gain_of_adding(b, card)
        assert a.values == b.values
        acc, zero, loose = compiled.adding_bounds(a, counts)
        assert (acc, zero, loose) == python.adding_bounds(b, counts)
        total = sum(n for _, n in counts)
        base = (1 - 0.2) * (acc / total) + 0.2 * a.deadwood
        for best in (base - 1.0, base + 0.5, base + 3.0, math.inf):
            for risk in (0.0, 0.2):
                got = compiled.raised_bound(a, loose, acc, zero, best, risk, total, 6.0)
                want = python.raised_bound(b, loose, acc, zero, best, risk, total, 6.0)
                assert got == want, (sorted(hand), best, risk)
                outcomes.add(got is None)
        assert a.values == b.values
    assert outcomes == {True, False}


@needs_card_solver
def test_three_thirteen_advice_is_the_same_without_the_compiled_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Draw and discard advice on 60 seeded round-11 situations (one and two decks): the same
    answers, figures included, with every memo emptied between the two runs."""
    from engine.advice.t13.discard import t13_discard_advice
    from engine.advice.t13.draw import t13_draw_advice
    from engine.advice.t13.situation import T13Situation
    from engine.advice.t13.value import clear_caches

    rng = random.Random(11)
    situations = []
    for k in range(60):
        decks = 1 + k % 2
        deck = list(range(52)) * decks
        rng.shuffle(deck)
        size = 13 + k % 2  # before the draw (draw advice) or after it (discard advice)
        situations.append(
            T13Situation(
                tuple(deck[:size]),
                11,
                players=2 if decks == 1 else 3,
                decks=decks,
                discard_pile=tuple(deck[size : size + 4]),
                known=(tuple(deck[size + 4 : size + 5]),),
            )
        )

    def answers() -> list[str]:
        clear_caches()
        return [
            repr(t13_draw_advice(s) if len(s.hand) == 13 else t13_discard_advice(s))
            for s in situations
        ]

    compiled = answers()
    monkeypatch.setattr(std_solver, "_CARD_ACCEL", None)
    assert answers() == compiled
    clear_caches()
