"""The Triple Tunk look-ahead (engine.advice.tunk.search): deterministic given its seed, legal,
bounded by its work cap, and only used when asked for."""

from __future__ import annotations

import random

from engine.advice.situation import Observation
from engine.advice.tunk.discard import discard_choice
from engine.advice.tunk.search import (
    SearchBudget,
    candidates,
    search_discard,
    search_draw,
)
from engine.advice.tunk.value import Evaluator
from engine.core.options import TripleTunkRules
from engine.sim.policies import AdvisorPolicy, StrongPolicy
from engine.sim.tt import deal_tt
from engine.sim.tunk import draw_card

WIDE = SearchBudget(candidates=4, margin=50.0, samples=12)


def _after_draw(seed: int, players: int = 3) -> Observation:
    """Seat 0's view after drawing from the stock on the first turn of a seeded deal."""
    deal = deal_tt(players, players - 1, random.Random(seed), TripleTunkRules())
    draw_card(deal, 0, False)
    return deal.observation(0, 0)


def _searched() -> list[Observation]:
    """Situations with at least two candidates within the wide budget's margin."""
    out = []
    for seed in range(40):
        obs = _after_draw(seed)
        if len(candidates(Evaluator(obs).options(obs.hand), WIDE)) >= 2:
            out.append(obs)
    assert out
    return out


def test_search_is_deterministic_and_legal() -> None:
    for obs in _searched()[:6]:
        options = Evaluator(obs).options(obs.hand)
        a = search_discard(obs, options, WIDE, seed=7)
        b = search_discard(obs, options, WIDE, seed=7)
        assert a is not None and a == b
        assert a.card in obs.hand
        assert a.card in candidates(options, WIDE)
        assert [c for c, _ in a.means] == list(candidates(options, WIDE))
        assert a.samples == WIDE.samples


def test_search_respects_its_work_cap() -> None:
    obs = _searched()[0]
    options = Evaluator(obs).options(obs.hand)
    capped = search_discard(obs, options, SearchBudget(4, 50.0, samples=500, work=1), seed=1)
    assert capped is not None and capped.samples == 1  # one deal, then the cap stops it


def test_search_only_when_close_or_asked() -> None:
    obs = _searched()[0]
    options = Evaluator(obs).options(obs.hand)
    # one candidate (or no margin): nothing to search
    assert search_discard(obs, options, SearchBudget(candidates=1)) is None
    assert search_discard(obs, options, SearchBudget(margin=-1.0)) is None
    assert search_draw(obs, 0.0, 100.0, SearchBudget(margin=1.0)) is None
    # without a budget the choice is the one-step evaluation's
    assert discard_choice(obs, None) == options[0].card
    strong = StrongPolicy("triple-tunk", random.Random(1))
    assert strong.search is None and strong.draw_search is None
    assert AdvisorPolicy("triple-tunk", random.Random(1)).search is None


def test_draw_search_answers_a_choice() -> None:
    deal = deal_tt(3, 2, random.Random(3), TripleTunkRules())
    obs = deal.observation(0, 0)  # before the draw
    got = search_draw(obs, 1.0, 1.5, WIDE, seed=2)
    assert got in (True, False)
    assert got == search_draw(obs, 1.0, 1.5, WIDE, seed=2)
