"""Three Thirteen advice: the deadwood figures it uses, discard / go-out / last-turn advice, draw
advice, the sampling of the next player's hand, reproducibility and input checks (T13-1..T13-6,
C-2)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.advice.t13.discard import t13_discard_advice
from engine.advice.t13.draw import t13_draw_advice
from engine.advice.t13.opponents import sample_next_hands
from engine.advice.t13.params import MAX_SAMPLES, MAX_STOCK_SAMPLES
from engine.advice.t13.situation import T13Situation, unseen_for
from engine.core.cards import parse_cards
from engine.core.errors import EngineError, HandError
from engine.core.options import ThreeThirteenRules
from engine.games.t13.play import going_out_options
from engine.standard.deadwood import min_deadwood
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo

HIGH = ThreeThirteenRules(aces="high_or_low")


def scorer(round_number: int, rules: ThreeThirteenRules | None = None) -> DeadwoodMemo:
    return DeadwoodMemo.for_context(t13_context(round_number, rules or ThreeThirteenRules()))


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


# --------------------------------------------------------------------------- deadwood search


@pytest.mark.rule("C-2")
@pytest.mark.parametrize("rules", [ThreeThirteenRules(), HIGH], ids=["aces-low", "high-or-low"])
def test_c2_search_matches_the_teammates_min_deadwood(rules: ThreeThirteenRules) -> None:
    # T13-3/T13-4: wilds, two decks (duplicate cards), both ace rules, every round.
    rng = random.Random(2026)
    for _ in range(400):
        round_number = rng.randint(1, 11)
        decks = rng.choice((1, 2))
        hand = rng.sample(list(range(52)) * decks, rng.randint(3, round_number + 3))
        memo = scorer(round_number, rules)
        assert memo.deadwood(hand) == min_deadwood(hand, t13_context(round_number, rules))


def test_after_discard_is_the_best_single_discard() -> None:
    rng = random.Random(7)
    for _ in range(120):
        round_number = rng.randint(1, 11)
        hand = rng.sample(list(range(52)) * 2, round_number + 3)
        ctx = t13_context(round_number, ThreeThirteenRules())
        want = min(min_deadwood(hand[:i] + hand[i + 1 :], ctx) for i in range(len(hand)))
        assert scorer(round_number).after_discard(hand) == want


@pytest.mark.rule("T13-3")
def test_t13_3_wilds_and_high_aces() -> None:
    # Round 11: kings wild (T13-1). Two kings and a lone 9 make a set; the ace is left over.
    assert scorer(11).deadwood(cs("KS KH 9D AC")) == 1
    # Q-K-A is a run only under high_or_low, where a lone ace counts 15 (T13-3).
    assert scorer(1).deadwood(cs("QS KS AS")) == 21
    assert scorer(1, HIGH).deadwood(cs("QS KS AS")) == 0
    assert scorer(1, HIGH).deadwood(cs("AS 9H")) == 24
    # A wild left alone counts its own value (round 1: 3s wild).
    assert scorer(1).deadwood(cs("3S 9H KD")) == 22


# --------------------------------------------------------------------------- discard advice


@pytest.mark.rule("T13-5")
def test_t13_5_a_discard_that_goes_out_is_recommended() -> None:
    # Round 4 (6 wild): 7 cards after the draw; dropping KD leaves 5S-6H(wild)-7S and 9 9 9.
    hand = cs("5S 6H 7S 9C 9D 9H KD")
    advice = t13_discard_advice(T13Situation(hand, 4, discard_pile=cs("2C")), samples=8)
    assert advice.go_out and advice.discard == parse_cards(["KD"])[0]
    assert advice.options[0].goes_out and advice.options[0].deadwood == 0
    assert "go out" in advice.explanation
    assert {o.discard for o in going_out_options(hand, 4, ThreeThirteenRules())} == {advice.discard}


@pytest.mark.rule("T13-5")
def test_t13_5_going_out_in_round_11_with_a_wild() -> None:
    # Round 11 (kings wild), 14 cards: A-4S, 5 5 5, 7-9D, and J J + KH (wild) or 10H-JH-KH.
    hand = cs("AS 2S 3S 4S 5H 5D 5C 7D 8D 9D JC JH KH 10H")
    advice = t13_discard_advice(T13Situation(hand, 11), samples=4)
    outs = {o.discard for o in going_out_options(hand, 11, ThreeThirteenRules())}
    assert advice.go_out and advice.discard in outs and len(outs) >= 2
    assert {o.card for o in advice.options if o.goes_out} == outs
    assert cs("KH")[0] not in outs  # never throw the wild


def test_every_distinct_card_is_ranked_once_with_consistent_figures() -> None:
    hand = cs("AS 2S 4S 7H 7D QC KC KD 9H")  # round 6 (8s wild), 9 cards
    advice = t13_discard_advice(T13Situation(hand, 6, discard_pile=cs("5C 2D")), samples=8)
    assert sorted(o.card for o in advice.options) == sorted(set(hand))
    memo = scorer(6)
    for o in advice.options:
        rest = list(hand)
        rest.remove(o.card)
        assert o.deadwood == memo.deadwood(rest)
        assert 0 <= o.expected_deadwood <= o.deadwood  # drawing never hurts (throw it back)
        assert o.danger is None or 0 <= o.danger <= 1
        assert 0 <= o.go_out_chance <= 1
    assert [o.score for o in advice.options] == sorted(o.score for o in advice.options)
    assert advice.discard == advice.options[0].card and not advice.go_out


def test_outs_count_unseen_copies_that_lower_the_deadwood() -> None:
    # Round 1 (3s wild), after discarding KD: 5S 6S + QH. Unseen: 52 - 4 in hand - 1 on the pile.
    hand = cs("5S 6S QH KD")
    situation = T13Situation(hand, 1, discard_pile=cs("9C"))
    option = {o.card: o for o in t13_discard_advice(situation, samples=4).options}[cs("KD")[0]]
    memo = scorer(1)
    rest = cs("5S 6S QH")
    unseen = unseen_for(situation)
    want = sum(1 for c in unseen if memo.after_discard((*rest, c)) < memo.deadwood(rest))
    # 4S, 7S, the four 3s (wild), and every card below the queen's 10 points... counted by copies
    assert option.outs == want
    assert want >= 6


def test_danger_flags_a_card_that_completes_the_next_players_pickups() -> None:
    # The next player picked up 9H and 10H; JH (or 8H) completes their run, JC does not.
    hand = cs("AS 2S 3S 4D 5D 6D JH JC")  # round 5 (7s wild): 8 cards after the draw
    situation = T13Situation(hand, 5, known=(cs("9H 10H"),), discard_pile=cs("2C"))
    options = {o.card: o for o in t13_discard_advice(situation, samples=24).options}
    assert options[cs("JH")[0]].danger > 0.9
    assert options[cs("JC")[0]].danger < 0.5
    advice = t13_discard_advice(situation, samples=24)
    assert advice.discard == cs("JC")[0]


def test_same_request_and_seed_give_the_same_answer() -> None:
    hand = cs("AS 2S 4S 7H 7D QC KC KD 9H 3D 3C JD")  # round 9 (jacks wild): 12 cards
    situation = T13Situation(hand, 9, discard_pile=cs("5C"), known=(cs("8C"),))
    a = t13_discard_advice(situation, seed=5, samples=16)
    b = t13_discard_advice(situation, seed=5, samples=16)
    assert a == b
    draw = T13Situation(hand[:-1], 9, discard_pile=cs("5C"))
    assert t13_draw_advice(draw, seed=5) == t13_draw_advice(draw, seed=5)


@pytest.mark.rule("T13-5")
def test_last_turn_after_someone_went_out_minimises_deadwood_now() -> None:
    # T13-5: the next player went out; only the points left matter.
    hand = cs("AS 2S 3S 9D KD")  # round 2 (4s wild)
    advice = t13_discard_advice(T13Situation(hand, 2, out=0), samples=4)
    assert advice.discard == cs("KD")[0] and not advice.go_out
    assert advice.options[0].deadwood == 9


# --------------------------------------------------------------------------- sampling


def test_known_cards_are_never_placed_in_imagined_hands() -> None:
    # One deck: the player's hand, the discard pile and the other opponent's pickups are seen;
    # the next player's own pickups are always in its sampled hand.
    hand = cs("AS 2S 3S 4D 5D 6D JH JC")
    situation = T13Situation(
        hand,
        5,
        players=3,
        discard_pile=cs("2C 9S"),
        known=(cs("9H 10H"), cs("QD KD")),
    )
    seen = set(hand) | set(cs("2C 9S QD KD"))
    for sample in sample_next_hands(situation, seed=3, samples=200):
        assert len(sample) == 7
        assert set(cs("9H 10H")) <= set(sample)
        assert not seen & set(sample)
        assert max(Counter(sample).values()) == 1


@pytest.mark.rule("T13-2")
def test_two_decks_respect_the_copies_left() -> None:
    # T13-2: with two decks, the player holding both 7H leaves none to imagine elsewhere.
    hand = cs("7H 7H 2S 3S 4S KC")
    situation = T13Situation(hand, 3, players=3, decks=2, discard_pile=cs("KC"))
    for sample in sample_next_hands(situation, seed=1, samples=200):
        assert cs("7H")[0] not in sample
        assert cs("KC")[0] not in sample  # both copies seen (hand + pile)


def test_imagined_hands_are_uniform_over_the_unseen_cards() -> None:
    # Round 3, one deck, nothing known: 5 of the 47 unseen cards per hand, so each unseen card is
    # in about 5/47 of 4000 hands (425); 4 standard deviations (about 78) bound every count.
    situation = T13Situation(cs("AS 2S 3S 4D 5D"), 3, discard_pile=cs("9C"))
    counts = Counter(c for h in sample_next_hands(situation, seed=5, samples=4000) for c in h)
    assert set(counts) == set(unseen_for(situation))
    assert all(abs(n - 4000 * 5 / 47) < 80 for n in counts.values())


@pytest.mark.parametrize("decks", [1, 2])
def test_one_card_fewer_unseen_changes_only_the_hands_that_held_it(decks: int) -> None:
    # The hands a draw values hold one more card (the one drawn): they imagine the next
    # player's hands the same, except the ones that held that card (shared danger work).
    rng = random.Random(decks)
    for _ in range(20):
        deck = list(range(52)) * decks
        rng.shuffle(deck)
        before = T13Situation(tuple(deck[:10]), 8, decks=decks, discard_pile=tuple(deck[10:12]))
        drawn = deck[12]
        after = replace(before, hand=(*before.hand, drawn))
        old = sample_next_hands(before, seed=9, samples=16)
        new = sample_next_hands(after, seed=9, samples=16)
        kept = 0
        for h_old, h_new in zip(old, new, strict=True):
            if drawn not in h_old:
                assert h_new == h_old
                kept += 1
            assert h_new.count(drawn) <= unseen_for(after).count(drawn)
        assert kept >= 4  # 10 of the 39 (78) unseen cards in a hand: most hands lack it


def test_unseen_cards_exclude_everything_known() -> None:
    situation = T13Situation(cs("AS 2S 3S"), 1, discard_pile=cs("4S"), known=(cs("5S"),))
    unseen = unseen_for(situation)
    assert len(unseen) == 52 - 5 and not set(cs("AS 2S 3S 4S 5S")) & set(unseen)


# --------------------------------------------------------------------------- draw advice


def test_draw_takes_a_discard_that_lets_the_player_go_out() -> None:
    hand = cs("5S 6S 9C 9D KH KD")  # round 4 (6s wild): 6 cards before the draw
    advice = t13_draw_advice(T13Situation(hand, 4, discard_pile=cs("9H 2C")))
    assert advice.take_discard and advice.take_deadwood == 0
    assert advice.discard_after_take == cs("5S")[0]  # 9 9 9 and K K + 6S (wild)
    assert "go out" in advice.explanation


def test_draw_from_the_stock_when_the_discard_is_useless() -> None:
    hand = cs("AS 2S 3S 5D")  # round 2 (4s wild): a 4-card hand; KC does nothing
    advice = t13_draw_advice(T13Situation(hand, 2, discard_pile=cs("KC")))
    assert not advice.take_discard
    assert advice.take_value is not None and advice.stock_value < advice.take_value


def test_draw_with_an_empty_discard_pile() -> None:
    advice = t13_draw_advice(T13Situation(cs("AS 2S 9D"), 1))
    assert not advice.take_discard and advice.top is None


# --------------------------------------------------------------------------- input checks


def test_samples_above_the_cap_are_rejected() -> None:
    situation = T13Situation(cs("AS 2S 3S 9D"), 1)
    with pytest.raises(EngineError) as err:
        t13_discard_advice(situation, samples=MAX_SAMPLES + 1)
    assert err.value.field == "samples"
    with pytest.raises(EngineError) as err:
        t13_draw_advice(T13Situation(cs("AS 2S 3S"), 1), samples=MAX_STOCK_SAMPLES + 1)
    assert err.value.field == "samples"


def test_hand_size_must_match_the_round() -> None:
    with pytest.raises(HandError):
        t13_discard_advice(T13Situation(cs("AS 2S 3S"), 1))  # needs 4 after the draw
    with pytest.raises(HandError):
        t13_draw_advice(T13Situation(cs("AS 2S 3S 4S"), 1))  # needs 3 before the draw


def test_a_card_shown_more_often_than_the_decks_hold_is_rejected() -> None:
    with pytest.raises(HandError):
        t13_discard_advice(T13Situation(cs("AS 2S 3S 9D"), 1, discard_pile=cs("AS")))


def test_out_must_name_an_opponent() -> None:
    with pytest.raises(EngineError) as err:
        t13_discard_advice(T13Situation(cs("AS 2S 3S 9D"), 1, out=1))  # heads-up: only 0
    assert err.value.field == "out"


def test_without_figures_the_advice_value_and_work_are_the_same() -> None:
    # figures=False skips the options whose lower bound exceeds the best score (simulations and
    # the hands draw values): the answer, its value, its work and samples never change, every
    # skipped option's score is at most its real one, and deadwood figures stay exact.
    rng = random.Random(11)
    for k in range(60):
        r = rng.randint(1, 11)
        players, decks = rng.choice(((2, 1), (3, 2), (4, 1)))
        deck = list(range(52)) * decks
        rng.shuffle(deck)
        hand = tuple(deck[: r + 3])
        situation = T13Situation(
            hand,
            r,
            players=players,
            decks=decks,
            discard_pile=tuple(deck[r + 3 : r + 3 + rng.randint(0, 4)]),
            rules=HIGH if k % 3 == 0 else ThreeThirteenRules(),
            scores=tuple(rng.randint(0, 120) for _ in range(players)) if k % 4 == 0 else (),
            out=0 if k % 7 == 0 else None,
        )
        full = t13_discard_advice(situation, seed=k, samples=8)
        lean = t13_discard_advice(situation, seed=k, samples=8, figures=False)
        assert (lean.discard, lean.go_out, lean.value, lean.work, lean.samples) == (
            full.discard,
            full.go_out,
            full.value,
            full.work,
            full.samples,
        )
        real = {o.card: o for o in full.options}
        for o in lean.options:
            assert o.deadwood == real[o.card].deadwood
            assert o.score <= real[o.card].score
