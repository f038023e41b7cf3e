"""Three Thirteen advice as one evaluation: the last turn's optional discard (T13-5), draw and
discard agreeing on the value of a hand (no advised pass), the running scores (T13-6) and the
opponents' discards changing the advice where they should."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.advice.t13.discard import t13_discard_advice
from engine.advice.t13.draw import t13_draw_advice
from engine.advice.t13.opponents import sample_next_hands
from engine.advice.t13.params import MAX_RISK
from engine.advice.t13.situation import T13Situation
from engine.advice.t13.value import _Evaluator, risk_of
from engine.core.cards import RANK_OF, SUIT_OF, parse_cards


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


# --------------------------------------------------------------------------- last turn (T13-5)


@pytest.mark.rule("T13-5")
def test_last_turn_keeps_every_card_when_that_scores_lower() -> None:
    # Round 3 (fives wild), the opponent went out. A-A-A and 2-3-4 of clubs combine all six
    # cards: keeping scores 0, while the best discard (AS) leaves AD AH = 2 points.
    situation = T13Situation(
        cs("AD AH AS 2C 3C 4C"), 3, players=2, out=0, discard_pile=cs("2D 8S 7C")
    )
    advice = t13_discard_advice(situation)
    assert advice.discard is None and not advice.go_out
    assert advice.keep_deadwood == 0 and advice.value == 0.0
    assert advice.options[0].deadwood == 2
    assert "Keep all your cards" in advice.explanation and "T13-5" in advice.explanation


def test_last_turn_discards_when_that_scores_lower() -> None:
    # Round 2 (fours wild): keeping all five leaves 9 + 10 = 19; throwing KD leaves 9.
    advice = t13_discard_advice(T13Situation(cs("AS 2S 3S 9D KD"), 2, out=0))
    assert advice.discard == cs("KD")[0] and advice.keep_deadwood == 19 and advice.value == 9.0


def test_last_turn_draw_values_the_optional_discard() -> None:
    # Round 3, last turn, before the draw: the AS on the pile completes A-A-A beside 2-3-4 of
    # clubs; with it every card combines (keep all: 0). The stock's mean is exact (no lookahead).
    situation = T13Situation(cs("AD AH 2C 3C 4C"), 3, out=0, discard_pile=cs("AS 8S"))
    advice = t13_draw_advice(situation)
    assert advice.take_discard and advice.take_value == 0.0 and advice.discard_after_take is None
    assert advice.exact and advice.samples == 52 - 7


# --------------------------------------------------------------------------- one evaluation


@st.composite
def draw_situations(draw: st.DrawFn) -> T13Situation:
    round_number = draw(st.integers(1, 8))
    players = draw(st.integers(2, 3))
    decks = 1 if players == 2 else 2
    deck = list(range(52)) * decks
    order = draw(st.permutations(deck))
    size = round_number + 2
    hand = tuple(order[:size])
    pile = tuple(order[size : size + draw(st.integers(1, 6))])
    out = draw(st.sampled_from([None, None, 0])) if players == 2 else None
    return T13Situation(
        hand, round_number, players=players, decks=decks, discard_pile=pile, out=out
    )


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(draw_situations(), st.integers(0, 1000))
def test_draw_take_value_is_the_discard_answer_and_never_a_pass(
    situation: T13Situation, seed: int
) -> None:
    draw = t13_draw_advice(situation, seed=seed, samples=4, precision=5.0)
    top = situation.discard_pile[0]
    follow = t13_discard_advice(
        replace(situation, hand=(*situation.hand, top), discard_pile=situation.discard_pile[1:]),
        seed=seed,
    )
    assert draw.take_value == follow.value
    assert draw.discard_after_take == follow.discard
    if draw.take_discard:
        assert follow.discard != top  # never "take X, throw X back"
        assert draw.take_value < draw.stock_value
    elif follow.discard == top:
        assert "itself" in draw.explanation


def test_the_stock_value_is_the_mean_of_the_same_function() -> None:
    # Round 1, last turn: exact over every unseen card. Each stock card's value is the discard
    # answer's value on the hand with it.
    situation = T13Situation(cs("5S 6S QH"), 1, out=0, discard_pile=cs("KC"))
    draw = t13_draw_advice(situation)
    values = []
    for card in range(52):
        if card in situation.hand or card in situation.discard_pile:
            continue
        after = replace(situation, hand=(*situation.hand, card))
        values.append(t13_discard_advice(after).value)
    assert draw.exact and abs(draw.stock_value - sum(values) / len(values)) < 1e-9


# --------------------------------------------------------------------------- situation fields


def test_risk_grows_with_the_lead_per_round_left() -> None:
    assert risk_of((), 5) == 0.0
    assert risk_of((30, 10), 11) == 0.0  # behind
    assert risk_of((10, 30), 11) == MAX_RISK  # 20 ahead, one round left
    assert 0 < risk_of((10, 30), 1) < risk_of((10, 30), 6) < MAX_RISK


def test_a_player_far_ahead_keeps_deadwood_low_instead_of_chasing_outs() -> None:
    # Round 4 (sixes wild: 6H, 6D), 7 cards after the draw. Level on the scores the advice throws
    # the 7C (15 points left, 39% chance to go out next turn); 390 points ahead it throws the
    # 10S instead (12 points left, what it pays if someone goes out first, 30% chance).
    hand = cs("5S 10S KS 6H KH 6D 7C")
    level = T13Situation(hand, 4, discard_pile=cs("7D"), scores=(50, 50))
    ahead = replace(level, scores=(10, 400))
    a = t13_discard_advice(level)
    b = t13_discard_advice(ahead)
    assert (a.risk, b.risk) == (0.0, MAX_RISK)
    assert a.discard == cs("7C")[0] and b.discard == cs("10S")[0]
    by_card = {o.card: o for o in a.options}
    chase, safe = by_card[cs("7C")[0]], by_card[cs("10S")[0]]
    assert (chase.deadwood, safe.deadwood) == (15, 12)
    assert chase.go_out_chance > safe.go_out_chance
    assert "ahead on the scores" in b.explanation


def test_opponent_discards_make_their_neighbourhood_rarer_in_imagined_hands() -> None:
    # The next player threw the 8H: hearts 6-10 and the other eights are a quarter as likely.
    base = T13Situation(cs("AS 2S 3S 4D 5D 6D JC 9C"), 5)
    thrown = replace(base, discarded=(cs("8H"),))
    near = {c for c in range(52) if RANK_OF[c] == 7 or (SUIT_OF[c] == 1 and 5 <= RANK_OF[c] <= 9)}
    near -= set(cs("8H"))

    def share(s: T13Situation) -> float:
        hands = sample_next_hands(s, seed=2, samples=300)
        return sum(len(near & set(h)) for h in hands) / sum(len(h) for h in hands)

    assert share(thrown) < 0.6 * share(base)


def test_opponent_discards_change_the_danger_of_a_card() -> None:
    # Round 5 (sevens wild). The next player threw the 9D and the 10H (both on the pile): they
    # do not collect nines, tens or hearts around the ten, so the 9H saves them far less.
    hand = cs("AS 2S 3S 4D 5D 6D 9H KC")
    base = T13Situation(hand, 5, discard_pile=cs("2C 10H 9D"))
    thrown = replace(base, discarded=(cs("10H 9D"),))
    nine = cs("9H")[0]
    _, d0 = _Evaluator(base, 3, 400).danger(nine)
    _, d1 = _Evaluator(thrown, 3, 400).danger(nine)
    assert d1 < 0.8 * d0
