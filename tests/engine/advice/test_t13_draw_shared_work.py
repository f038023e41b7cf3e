"""Three Thirteen draw and discard advice give exactly the answers of the code before the draw's
hands shared more work (``t13_draw_reference``, a copy of that code): same take/stock choice,
values, interval, samples, explanation and every discard option, on random situations (rounds
1..11, one or two decks, 2-4 players, pickups, opponents' discards, scores, last turns T13-5)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.advice.t13.discard import t13_discard_advice
from engine.advice.t13.draw import t13_draw_advice
from engine.advice.t13.opponents import _DrawBases, _next_player_hands
from engine.advice.t13.situation import T13Situation, unseen_for
from engine.advice.t13.value import clear_caches
from engine.core.options import ThreeThirteenRules
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo
from tests.reference import t13_draw as reference

HIGH = ThreeThirteenRules(aces="high_or_low")


def situation_from(rng: random.Random, after_draw: bool) -> T13Situation:
    """A random situation before the draw (r+2 cards) or after it (r+3)."""
    r = rng.randint(1, 11)
    players = rng.randint(2, 4)
    decks = rng.choice((1, 1, 2))
    deck = list(range(52)) * decks
    rng.shuffle(deck)
    size = r + 2 + after_draw
    hand, deck = tuple(deck[:size]), deck[size:]
    pile_size = rng.choice((0, 1, 1, 3, 6))
    pile, deck = tuple(deck[:pile_size]), deck[pile_size:]
    known: list[tuple[int, ...]] = []
    discarded: list[tuple[int, ...]] = []
    for _ in range(players - 1 if rng.random() < 0.6 else 0):
        take = rng.randint(0, 2)
        known.append(tuple(deck[:take]))
        deck = deck[take:]
        discarded.append(tuple(rng.sample(range(52), rng.randint(0, 3))))
    scores = tuple(rng.randint(0, 150) for _ in range(players)) if rng.random() < 0.4 else ()
    out = rng.randrange(players - 1) if rng.random() < 0.25 else None
    return T13Situation(
        hand,
        r,
        players=players,
        decks=decks,
        discard_pile=pile,
        known=tuple(known),
        out=out,
        rules=HIGH if rng.random() < 0.25 else ThreeThirteenRules(),
        scores=scores,
        discarded=tuple(discarded) if rng.random() < 0.7 else (),
    )


def same(a: object, b: object) -> bool:
    """Equal answers, floats bit for bit (``repr`` round-trips them and shows NaN alike)."""
    return repr(a) == repr(b)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_draw_advice_is_the_reference_answer(seed: int, figures: bool, cold: bool) -> None:
    rng = random.Random(seed)
    situation = situation_from(rng, after_draw=False)
    kwargs = {"seed": rng.randrange(1000), "samples": rng.choice((4, 12, 16))}
    kwargs["danger_samples"] = rng.choice((1, 8, 16))
    precision = rng.choice((0.001, 1.0, 5.0))
    if cold:
        clear_caches()
    want = reference.t13_draw_advice(situation, precision=precision, figures=figures, **kwargs)
    if cold:
        clear_caches()
    got = t13_draw_advice(situation, precision=precision, figures=figures, **kwargs)
    assert same(got, want)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_discard_advice_is_the_reference_answer(seed: int, figures: bool) -> None:
    rng = random.Random(seed)
    situation = situation_from(rng, after_draw=True)
    samples = rng.choice((1, 16, 64))
    want = reference.t13_discard_advice(situation, seed=seed % 97, samples=samples, figures=figures)
    got = t13_discard_advice(situation, seed=seed % 97, samples=samples, figures=figures)
    assert same(got, want)


@pytest.mark.parametrize("decks", [1, 2])
def test_round_eleven_draws_match_the_reference(decks: int) -> None:
    # The benchmark's hands (round 11, kings wild, four cards on the pile, one known pickup).
    rng = random.Random(20261129 + decks)
    for _ in range(12):
        deck = list(range(52)) * decks
        rng.shuffle(deck)
        situation = T13Situation(
            tuple(deck[:13]),
            11,
            players=2 if decks == 1 else 3,
            decks=decks,
            discard_pile=tuple(deck[13:17]),
            known=(tuple(deck[17:18]),),
        )
        clear_caches()
        want = reference.t13_draw_advice(situation)
        clear_caches()
        assert same(t13_draw_advice(situation), want)


def test_adding_bounds_are_the_per_card_bounds_and_below_the_values() -> None:
    # One pass over every unseen card: each bound is adding_bound's (or the known exact value),
    # never above after_adding, and the loose ones are exactly those below it or unproven.
    rng = random.Random(5)
    for _ in range(40):
        r = rng.randint(1, 11)
        memo = DeadwoodMemo(t13_context(r, HIGH if rng.random() < 0.3 else ThreeThirteenRules()))
        deck = list(range(52)) * rng.choice((1, 2))
        rng.shuffle(deck)
        hand = deck[: r + 2]
        counts = sorted({c: deck[r + 2 :].count(c) for c in deck[r + 2 :]}.items())
        prof, fresh = memo.profile(hand), memo.profile(hand)
        acc, zero, loose = memo.adding_bounds(prof, counts)
        per_card = {c: reference.old_adding_bound(memo, fresh, c) for c, _ in counts}
        assert acc == sum(per_card[c] * k for c, k in counts)
        assert zero == sum(k for c, k in counts if per_card[c] == 0)
        loose_cards = {c for c, _, _, _, _ in loose}
        for c, _ in counts:
            value = memo.after_adding(memo.profile(hand), c)
            assert per_card[c] <= value
            if c not in loose_cards:
                assert per_card[c] == value
        for c, k, low, ceiling, jokers in loose:
            assert low == per_card[c] < ceiling and dict(counts)[c] == k and 0 <= jokers <= 3


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_next_player_hands_read_off_the_draws_ranking(seed: int) -> None:
    # A draw ranks the unseen cards once; each hand it values (the top discard taken, or one
    # stock card drawn: one unseen copy fewer) reads the next player's imagined hands off that
    # ranking, and they are the hands sampled afresh for that hand's unseen cards.
    rng = random.Random(seed)
    situation = situation_from(rng, after_draw=False)
    unseen = unseen_for(situation)
    memo = DeadwoodMemo.for_context(t13_context(situation.round_number, situation.rules))
    bases = _DrawBases(memo, situation.hand, unseen)
    samples = rng.choice((1, 8, 16))
    draws = [(situation.discard_pile[0], unseen)] if situation.discard_pile else []
    for card in rng.sample(sorted(set(unseen)), min(4, len(set(unseen)))):
        i = unseen.index(card)
        draws.append((card, unseen[:i] + unseen[i + 1 :]))
    for card, left in draws:
        after = replace(situation, hand=(*situation.hand, card))
        want = _next_player_hands(after, left, seed % 100, samples)
        assert bases.next_hands(after, left, seed % 100, samples) == want
