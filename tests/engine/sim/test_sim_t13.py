"""Three Thirteen simulator (T13-1..T13-8) and its policies: card conservation at every step,
deal sizes and rotating wilds/dealers, scoring by the teammates' C-2 search, reshuffles of the
discard pile, illegal plays rejected, reproducible games, 11 rounds per game."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import fields, replace

import pytest

from engine.core.cards import parse_cards
from engine.core.options import ThreeThirteenRules
from engine.games.t13.settle import default_decks
from engine.sim.t13 import (
    Snapshot,
    T13View,
    deal_round,
    play_game,
    play_on,
    play_round,
    round_scores,
    sample_world,
)
from engine.sim.t13_policies import AdvisorT13Policy, BaselineT13Policy, situation_from_view
from engine.standard.deadwood import min_deadwood
from engine.standard.melds import t13_context

RULES = ThreeThirteenRules()


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


def conservation_check(decks: int) -> tuple[list[Snapshot], Callable[[Snapshot], None]]:
    """An ``on_step`` hook asserting every card of the decks is in exactly one place."""
    full = Counter(list(range(52)) * decks)
    seen: list[Snapshot] = []

    def check(snap: Snapshot) -> None:
        where: Counter[int] = Counter(snap.stock) + Counter(snap.discards)
        for hand in snap.hands:
            where += Counter(hand)
        assert where == full
        seen.append(snap)

    return seen, check


@pytest.mark.rule("T13-1", "T13-2")
@pytest.mark.parametrize("players", [2, 3])
def test_t13_1_t13_2_deal_sizes_decks_and_first_discard(players: int) -> None:
    decks = default_decks(players)
    assert decks == (1 if players == 2 else 2)  # T13-2
    for round_number in range(1, 12):
        hands, stock, discards = deal_round(round_number, players, 0, decks, random.Random(9))
        assert [len(h) for h in hands] == [round_number + 2] * players  # T13-1
        assert len(discards) == 1
        assert len(stock) == 52 * decks - players * (round_number + 2) - 1


@pytest.mark.rule("T13-1", "T13-6")
def test_a_full_game_has_11_rounds_conserves_cards_and_scores_by_min_deadwood() -> None:
    snaps, check = conservation_check(1)
    game = play_game([BaselineT13Policy(), BaselineT13Policy()], random.Random(4), on_step=check)
    assert len(game.rounds) == 11
    assert len(snaps) > 11 * 3
    for seat in range(2):
        assert len(game.round_scores(seat)) == 11
        assert sum(game.round_scores(seat)) == game.totals[seat]
    dealers = [r.dealer for r in game.rounds]
    assert all((b - a) % 2 == 1 for a, b in zip(dealers, dealers[1:], strict=False))  # deal passes
    for r in game.rounds:
        ctx = t13_context(r.round_number, RULES)
        assert r.went_out is not None
        for seat, hand in enumerate(r.final_hands):
            if seat == r.went_out:
                assert r.round_scores[seat] == 0  # T13-6
                assert len(hand) == r.round_number + 2
            else:
                assert r.round_scores[seat] == min_deadwood(hand, ctx)
                assert len(hand) == r.round_number + 2
    assert game.winners == tuple(i for i, t in enumerate(game.totals) if t == min(game.totals))


def test_three_players_two_decks_conserve_cards() -> None:
    snaps, check = conservation_check(2)
    rng = random.Random(11)
    policies = [BaselineT13Policy() for _ in range(3)]
    game = play_game(policies, rng, rounds=(1, 6, 11), on_step=check)
    assert [r.round_number for r in game.rounds] == [1, 6, 11]
    assert snaps


class _Hoarder:
    """Never takes the discard, never goes out, throws the card it just drew."""

    def __init__(self) -> None:
        self.views: list[T13View] = []

    def take_discard(self, view: T13View) -> bool:
        self.views.append(view)
        return False

    def discard(self, view: T13View) -> tuple[int, bool]:
        self.views.append(view)
        return view.hand[-1], False


@pytest.mark.rule("T13-8")
def test_t13_8_empty_stock_reshuffles_the_discard_pile_except_its_top() -> None:
    snaps, check = conservation_check(1)
    players = [_Hoarder(), _Hoarder()]
    result = play_round(
        1,
        players,
        random.Random(5),
        dealer=0,
        decks=1,
        rules=RULES,
        totals=(0, 0),
        on_step=check,
    )
    assert result.reshuffles >= 1
    assert result.went_out is None  # the hoarders never go out: the turn guard ended it
    # Right after a reshuffle the discard pile holds only its old top card and the stock is
    # the rest of the old pile (T13-8).
    found = 0
    for before, after in zip(snaps, snaps[1:], strict=False):
        if not before.stock and after.stock:
            assert after.discards == before.discards[:1]
            assert Counter(after.stock) == Counter(before.discards[1:])
            found += 1
    assert found == result.reshuffles


def test_policies_see_only_their_own_hand() -> None:
    spy = _Hoarder()
    play_round(
        2,
        [spy, BaselineT13Policy()],
        random.Random(8),
        dealer=1,
        decks=1,
        rules=RULES,
        totals=(0, 0),
    )
    names = {f.name for f in fields(T13View)}
    assert "stock" not in names and "hands" not in names
    for view in spy.views:
        assert view.seat == 0 and len(view.hand) in (4, 5)
        assert view.hand_sizes[0] == len(view.hand)


class _Cheat(_Hoarder):
    def discard(self, view: T13View) -> tuple[int, bool]:
        return view.hand[0], True


@pytest.mark.rule("T13-5")
def test_t13_5_going_out_with_deadwood_is_rejected() -> None:
    with pytest.raises(ValueError, match="cannot go out"):
        for seed in range(20):  # some deal surely leaves the cheat unmelded
            play_round(
                3,
                [_Cheat(), _Cheat()],
                random.Random(seed),
                dealer=0,
                decks=1,
                rules=RULES,
                totals=(0, 0),
            )


@pytest.mark.rule("T13-5")
def test_t13_5_everyone_else_gets_one_more_turn() -> None:
    game = play_game(
        [BaselineT13Policy(), BaselineT13Policy(), BaselineT13Policy()],
        random.Random(2),
        rounds=(1, 2),
    )
    for r in game.rounds:
        assert r.went_out is not None
        # the final hands are all back to r+2 cards: each other player drew and discarded once
        assert all(len(h) == r.round_number + 2 for h in r.final_hands)


def test_same_seed_same_game() -> None:
    a = play_game([BaselineT13Policy(), BaselineT13Policy()], random.Random(21), rounds=(1, 2, 3))
    b = play_game([BaselineT13Policy(), BaselineT13Policy()], random.Random(21), rounds=(1, 2, 3))
    assert a == b


def test_baseline_policy_rules() -> None:
    # take the discard when it lowers the best deadwood; discard to the lowest deadwood, ties high
    base = BaselineT13Policy()
    view = T13View(
        seat=0,
        dealer=1,
        n_players=2,
        round_number=2,  # 4s wild
        decks=1,
        hand=cs("5S 6S 9D KC"),
        discards=parse_cards(["7S"]),
        known=((), ()),
        hand_sizes=(4, 4),
        stock_size=40,
        out_seat=None,
        totals=(0, 0),
        turn_number=1,
    )
    assert base.take_discard(view)
    after = replace(view, hand=cs("5S 6S 7S 9D KC"))
    assert base.discard(after) == (parse_cards(["KC"])[0], False)
    tie = replace(view, hand=cs("5S 6S 7S 10D KC"))
    assert base.discard(tie)[0] == parse_cards(["KC"])[0]  # 10 = K in points: the higher card


def test_advisor_plays_legal_games_and_sees_what_a_player_sees() -> None:
    snaps, check = conservation_check(1)
    advisor = AdvisorT13Policy(samples=4, seed=1)
    game = play_game(
        [advisor, BaselineT13Policy()],
        random.Random(3),
        rounds=(1, 2, 5),
        on_step=check,
    )
    assert len(game.rounds) == 3
    view = T13View(
        0, 1, 3, 4, 2, (1, 2, 3), (5, 6), ((), (7,), (8, 9)), (3, 6, 6), 20, 2, (0, 0, 0), 5
    )
    situation = situation_from_view(view)
    assert situation.known == ((7,), (8, 9)) and situation.out == 1  # seat 2 is the 2nd opponent


class _Recorder(BaselineT13Policy):
    """``greedy``, keeping the views of its decisions before the draw."""

    def __init__(self) -> None:
        self.views: list[T13View] = []

    def take_discard(self, view: T13View) -> bool:
        self.views.append(view)
        return super().take_discard(view)


def _mid_round_views(players: int, round_number: int, seed: int) -> list[T13View]:
    """Views before a draw, from a round of ``greedy`` players (one seat recording)."""
    spy = _Recorder()
    play_round(
        round_number,
        [spy, *[BaselineT13Policy() for _ in range(players - 1)]],
        random.Random(seed),
        dealer=players - 1,
        decks=default_decks(players),
        rules=RULES,
        totals=(0,) * players,
    )
    return spy.views


@pytest.mark.rule("T13-2")
@pytest.mark.parametrize("players", [2, 3])
def test_sample_world_holds_what_the_seat_sees_and_every_card_once(players: int) -> None:
    decks = default_decks(players)
    views = _mid_round_views(players, 6, 4)
    assert len(views) >= 2
    for i, view in enumerate(views):
        world = sample_world(view, random.Random(i))
        where: Counter[int] = Counter(world.stock) + Counter(world.discards)
        for hand in world.hands:
            where += Counter(hand)
        assert where == Counter(list(range(52)) * decks)  # T13-2: every copy in one place
        assert world.hands[view.seat] == list(view.hand)
        assert tuple(reversed(world.discards)) == view.discards
        for seat in view.opponents():
            assert len(world.hands[seat]) == view.hand_sizes[seat]
            assert not Counter(view.known[seat]) - Counter(world.hands[seat])
        assert len(world.stock) == view.stock_size
        assert world.view(view.seat) == view  # the seat cannot tell the world from the table


def test_sample_world_deals_each_unseen_card_to_a_hidden_hand_equally_often() -> None:
    view = _mid_round_views(2, 3, 9)[0]
    other = view.opponents()[0]
    hidden = view.hand_sizes[other] - len(view.known[other])
    unseen = 52 - len(view.hand) - len(view.discards) - len(view.known[other])
    counts: Counter[int] = Counter()
    draws = 4000
    for i in range(draws):
        counts.update(
            set(sample_world(view, random.Random(i)).hands[other]) - set(view.known[other])
        )
    expected = draws * hidden / unseen
    assert len(counts) == unseen
    # each card's share is binomial: 5 standard deviations either side
    sd = (draws * hidden / unseen * (1 - hidden / unseen)) ** 0.5
    assert all(abs(k - expected) < 5 * sd for k in counts.values())


@pytest.mark.rule("T13-5", "T13-6")
def test_play_on_finishes_a_sampled_round_and_scores_it() -> None:
    snaps, check = conservation_check(1)
    ended = 0
    for i, view in enumerate(_mid_round_views(2, 5, 12)):
        world = sample_world(view, random.Random(i))  # the seat is about to draw
        play_on(
            world,
            view.seat,
            [BaselineT13Policy(), BaselineT13Policy()],
            random.Random(i),
            on_step=check,
        )
        scores = round_scores(world)
        ctx = t13_context(5, RULES)
        for seat, hand in enumerate(world.hands):
            assert len(hand) == 7  # T13-5: every last turn ended with a discard or a keep
            expected = 0 if seat == world.out_seat else min_deadwood(hand, ctx)
            assert scores[seat] == expected  # T13-6
        ended += world.out_seat is not None
    assert ended >= 1 and snaps


def test_round_state_throw_forgets_a_known_pickup() -> None:
    view = _mid_round_views(2, 4, 3)[0]
    world = sample_world(view, random.Random(1))
    other = view.opponents()[0]
    card = world.hands[other][0]
    world.known[other].append(card)
    world.throw(other, card)
    assert card not in world.known[other] and world.discards[-1] == card
    assert world.thrown[other][-1] == card
