"""Three Thirteen advice search: close discards played out to the end of the round over imagined
deals (T13-5, T13-6): reproducible with a seed, legal play, the work cap, the game's stakes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.advice.t13.discard import t13_discard_advice
from engine.advice.t13.params import SEARCH_HORIZON, SEARCH_ROLLOUTS, SEARCH_WORK_CAP
from engine.advice.t13.search import (
    _best_throw,
    _loosest,
    _sample_deal,
    rollout,
    search_discards,
    win_chance,
)
from engine.advice.t13.situation import T13Situation, unseen_for
from engine.core.options import ThreeThirteenRules
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo

HIGH = ThreeThirteenRules(aces="high_or_low")


def memo_of(round_number: int, rules: ThreeThirteenRules | None = None) -> DeadwoodMemo:
    return DeadwoodMemo.for_context(t13_context(round_number, rules or ThreeThirteenRules()))


def random_situation(rng: random.Random, r: int, players: int = 2, decks: int = 1) -> T13Situation:
    deck = list(range(52)) * decks
    rng.shuffle(deck)
    hand = tuple(deck[: r + 3])
    pile = tuple(deck[r + 3 : r + 3 + rng.randint(1, 4)])
    scores = tuple(rng.randint(0, 90) for _ in range(players))
    return T13Situation(hand, r, players=players, decks=decks, discard_pile=pile, scores=scores)


def searched_situations(count: int, seed: int) -> list[T13Situation]:
    """Random situations whose best discards are close enough to be searched."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = random_situation(rng, rng.randint(1, 11), *rng.choice(((2, 1), (3, 2), (4, 2))))
        if t13_discard_advice(s, seed=1, samples=8, figures=False, search=True).searched:
            out.append(s)
    return out


def test_the_same_request_and_seed_give_the_same_searched_answer() -> None:
    for s in searched_situations(12, 3):
        a = t13_discard_advice(s, seed=1, samples=8, search=True)
        b = t13_discard_advice(s, seed=1, samples=8, search=True)
        assert a == b
        assert a.searched > 0
        assert "imagined deals" in a.explanation


def test_the_searched_discard_is_one_of_the_close_options_and_held() -> None:
    for s in searched_situations(12, 4):
        plain = t13_discard_advice(s, seed=1, samples=8, search=False)
        advice = t13_discard_advice(s, seed=1, samples=8, search=True)
        assert advice.discard in s.hand
        assert not advice.go_out
        scores = {o.card: o.score for o in plain.options}
        assert scores[advice.discard] <= plain.value + 1.0 + 1e-9
        assert advice.options[0].card == advice.discard
        assert sorted(o.card for o in advice.options) == sorted(set(s.hand))


def test_clear_answers_are_not_searched() -> None:
    # T13-5: a discard that goes out is always advised, without a search; a last turn neither.
    s = T13Situation((0, 1, 2, 51), 1, discard_pile=(30,))  # A-2-3 of clubs, K of spades
    advice = t13_discard_advice(s, search=True)
    assert advice.go_out and advice.searched == 0
    last = T13Situation((0, 13, 40, 51), 1, discard_pile=(30,), out=0)
    assert t13_discard_advice(last, search=True).searched == 0


@pytest.mark.parametrize("players,decks", [(2, 1), (3, 2), (4, 2)])
def test_rollouts_play_legal_rounds_and_keep_every_card(players: int, decks: int) -> None:
    rng = random.Random(players)
    for r in (1, 5, 11):
        memo = memo_of(r)
        s = random_situation(rng, r, players, decks)
        opponents, stock = _sample_deal(s, unseen_for(s), rng)
        mine = list(s.hand)
        throw = mine.pop()
        hands = [mine, *opponents]
        pile = [*reversed(s.discard_pile), throw]
        before = Counter(c for h in hands for c in h) + Counter(stock) + Counter(pile)
        assert before == Counter(list(range(52)) * decks)  # every card once per deck (T13-2)
        scores, turns = rollout(memo, hands, stock, pile, 1 % players, SEARCH_HORIZON)
        after = Counter(c for h in hands for c in h) + Counter(stock) + Counter(pile)
        assert after == before
        assert 1 <= turns <= SEARCH_HORIZON * players
        assert all(r + 2 <= len(h) <= r + 3 for h in hands)
        assert scores == [
            0 if sc == 0 else memo.deadwood(h) for sc, h in zip(scores, hands, strict=True)
        ]


def test_imagined_deals_give_opponents_their_pickups_and_sizes() -> None:
    s = T13Situation(
        tuple(range(7)),
        4,
        players=3,
        decks=2,
        discard_pile=(20,),
        known=((30,), ()),
        hand_sizes=(6, 5),
        discarded=((40,), ()),
    )
    rng = random.Random(1)
    for _ in range(20):
        hands, stock = _sample_deal(s, unseen_for(s), rng)
        assert 30 in hands[0] and [len(h) for h in hands] == [6, 5]
        assert Counter(c for h in hands for c in h) + Counter(stock) == Counter(
            unseen_for(s)
        ) + Counter((30,))


def test_the_greedy_throw_reaches_the_least_deadwood() -> None:
    rng = random.Random(9)
    for k in range(300):
        r = rng.randint(1, 11)
        rules = HIGH if k % 4 == 0 else ThreeThirteenRules()
        memo = memo_of(r, rules)
        cards = rng.sample(list(range(52)) * 2, r + 3)
        hand, drawn = cards[:-1], cards[-1]
        value = memo.after_discard(cards)
        throw = _best_throw(memo, hand, drawn, value, memo.deadwood(hand))
        rest = list(cards)
        rest.remove(throw)
        assert memo.deadwood(rest) == value
        loose = _loosest(memo, cards)
        if loose >= 0:  # in no combination: throwing it saves exactly its points
            rest = list(cards)
            rest.remove(loose)
            assert memo.deadwood(rest) == memo.deadwood(cards) - memo.points(loose)


def test_the_work_cap_and_the_deal_count_bound_the_search() -> None:
    rng = random.Random(2)
    s = random_situation(rng, 11)
    memo = memo_of(11)
    cands = sorted(set(s.hand))[:3]
    small = search_discards(s, cands, unseen_for(s), memo, 1, rollouts=SEARCH_ROLLOUTS, work_cap=30)
    assert 1 <= small.deals < SEARCH_ROLLOUTS
    assert small.work < 30 + len(cands) * SEARCH_HORIZON * 2
    few = search_discards(s, cands, unseen_for(s), memo, 1, rollouts=3, work_cap=10**6)
    assert few.deals == 3
    full = search_discards(s, cands, unseen_for(s), memo, 1)
    assert full.deals <= SEARCH_ROLLOUTS and full.work < SEARCH_WORK_CAP + 3 * SEARCH_HORIZON * 2
    assert all(0.0 <= m <= 1.0 for m in full.means)
    assert search_discards(s, cands, unseen_for(s), memo, 1) == full  # seeded


def test_win_chance_reads_the_game_stakes() -> None:
    # T13-6: after the last round the lowest total wins, ties share.
    assert win_chance((10, 20), (5, 0), 0) == 1.0
    assert win_chance((10, 20), (15, 0), 0) == 0.0
    assert win_chance((10, 20), (10, 0), 0) == 0.5
    assert win_chance((10, 20, 20), (10, 0, 0), 0) == pytest.approx(1 / 3)
    # before it, a normal chance growing with the lead, flatter with more rounds to play
    assert win_chance((0, 0), (0, 0), 5) == pytest.approx(0.5)
    ahead = win_chance((0, 20), (0, 0), 2)
    assert 0.5 < win_chance((0, 20), (0, 0), 8) < ahead < 1.0
