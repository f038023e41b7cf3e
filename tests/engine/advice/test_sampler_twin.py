"""The compiled hidden-hand draw (``engine/advice/tunk/_sampler.c``) against its Python twin
(``HandSampler.sample_py``): for the same generator state both give the same hands (and the same
hand totals, ``HandSampler.totals``) and leave the generator in the same state, on any sampler
the advice can build. Small pools and narrow caps drive the rare paths (a capped list that runs
dry falls back on ``rng.sample``; a hoarder's meld is not found in its tries)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.advice.tunk import common
from engine.advice.tunk.common import Behaviour, HandSampler
from engine.advice.tunk.models import GFF_MODEL, TT_MODEL, GameModel

needs_compiled = pytest.mark.skipif(
    common._ACCEL is None,
    reason="engine.advice.tunk._sampler not built (no C compiler at install, or TUNK_PURE_PYTHON)",
)


def _sampler(rng: random.Random, model: GameModel, pool_size: int, seats: int) -> HandSampler:
    """A random sampler of ``seats`` opponents over ``pool_size`` unseen cards: known cards,
    caps, lay-off bans and behaviour mixtures drawn at random (some opponents unplayed)."""
    deck = list(model.deck)
    rng.shuffle(deck)
    known_cards = deck[pool_size : pool_size + 3 * seats]
    unseen = deck[:pool_size]
    counts, known, constrained, caps, layoffs, behaviours = [], [], [], [], [], []
    free = pool_size
    for j in range(seats):
        k = known_cards[3 * j : 3 * j + rng.randint(0, 3)]
        need = rng.randint(0, min(7, free))
        free -= need
        counts.append(need)
        known.append(k)
        constrained.append(rng.random() < 0.8)
        orders = sorted(model.order[c] for c in unseen)
        caps.append(rng.sample(orders, min(len(orders), rng.randint(0, 2))))
        layoffs.append(frozenset(rng.sample(unseen, min(len(unseen), rng.randint(0, 6)))))
        weights = [rng.random() for _ in range(3)]
        cap = rng.choice([None, None, *orders[:8]]) if orders else None
        behaviours.append(
            Behaviour(*weights, meld=rng.random(), cap=cap, keeps=rng.choice([0.0, rng.random()]))
        )
    return HandSampler(unseen, counts, known, constrained, model, caps, 0.98, layoffs, behaviours)


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from((GFF_MODEL, TT_MODEL)),
    st.integers(0, 40),
    st.integers(1, 7),
    st.integers(0, 2**32),
)
def test_compiled_draws_equal_python(
    rng: random.Random, model: GameModel, pool_size: int, seats: int, seed: int
) -> None:
    if model is TT_MODEL:
        seats = min(seats, 5)
    sampler = _sampler(rng, model, pool_size, seats)
    compiled, python = random.Random(seed), random.Random(seed)
    for _ in range(30):
        assert sampler.sample(compiled) == sampler.sample_py(python)
    assert compiled.getstate() == python.getstate()
    points = model.points
    summed = [sum(points[c] for c in h) for _ in range(10) for h in sampler.sample_py(python)]
    assert sampler.totals(compiled, 10) == summed
    assert compiled.getstate() == python.getstate()


@needs_compiled
@pytest.mark.parametrize("model", (GFF_MODEL, TT_MODEL), ids=("game-flip-flop", "triple-tunk"))
def test_each_hypothesis_alone_draws_the_same(model: GameModel) -> None:
    """``with_hypothesis`` copies must not reuse the original's packed tables."""
    sampler = _sampler(random.Random(4), model, 60, 3)
    for index in range(3):
        for hypothesis in range(3):
            one = sampler.with_hypothesis(index, hypothesis)
            compiled, python = random.Random(hypothesis), random.Random(hypothesis)
            draws = [one.sample(compiled) for _ in range(200)]
            assert draws == [one.sample_py(python) for _ in range(200)]


@needs_compiled
def test_a_dry_capped_list_falls_back_on_the_whole_pool() -> None:
    """One opponent capped below every unseen card but two, holding five hidden cards: the
    baseline draw takes the two and three more of the pool, the same three either way."""
    model = GFF_MODEL
    unseen = sorted(model.deck, key=lambda c: model.order[c])[:12]
    cap = model.order[unseen[2]]
    sampler = HandSampler(
        unseen, [5], [()], [True], model, behaviours=[Behaviour(1.0, 0.0, 0.0, cap=cap)]
    )
    for seed in range(50):
        hand = sampler.sample(random.Random(seed))
        assert hand == sampler.sample_py(random.Random(seed))
        assert set(unseen[:2]) <= set(hand[0]) and len(set(hand[0])) == 5
