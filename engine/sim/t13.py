"""Three Thirteen full-game simulator (docs/rules.md T13-1..T13-8) with pluggable policies.

A game is 11 rounds (T13-1): round r deals r+2 cards one at a time clockwise from the dealer's
left (C-4), the round's wild rank is r+1 (3s ... kings), and the deal passes to the left after
every round. Decks follow T13-2 (``default_decks``: one for two players, two for three or four).
The top stock card starts the discard pile. On a turn the player draws the top of the stock or of
the discard pile, then discards; after the draw a player whose other r+2 cards are fully melded
may go out (T13-5): everyone else then has one more turn (draw, discard) and the round is scored
(T13-6) by ``engine.games.t13.settle.score_t13_round`` (the teammates' C-2 search). When a player
must
draw from an empty stock, the discard pile except its top card is shuffled with the game's seeded
``random.Random`` into a new stock (T13-8).

A policy sees a :class:`T13View`: its own hand, the discard pile, cards each seat is known to hold
(picked up from the discard pile and not thrown back), hand sizes, the stock size, who went out,
the running totals. It never sees the stock or another player's hidden cards.

On the last turn (after someone went out) the player draws and optionally discards (T13-5): a
policy returns None as its discard to keep every card, and that hand of r+3 cards is scored. A
round that runs past :data:`TURN_CAP` turns (a guard against
policies that never go out, not a rule) is scored with nobody out.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.core.options import ThreeThirteenRules
from engine.games.t13.game import GAME as THREE_THIRTEEN_GAME
from engine.games.t13.play import going_out_options
from engine.games.t13.settle import default_decks, score_t13_round
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo

assert THREE_THIRTEEN_GAME.rounds is not None  # T13-1: a game of rounds
ROUNDS: int = THREE_THIRTEEN_GAME.rounds
TURN_CAP = 600


@dataclass(frozen=True, slots=True)
class T13View:
    """What seat ``seat`` sees at a decision (before its draw, or after it before the discard).

    ``known[s]``: cards seat ``s`` picked up from the pile and still holds; ``thrown[s]``: the
    cards seat ``s`` discarded this round; ``totals``: the running totals before this round.
    """

    seat: int
    dealer: int
    n_players: int
    round_number: int
    decks: int
    hand: tuple[int, ...]
    discards: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    out_seat: int | None
    totals: tuple[int, ...]
    turn_number: int
    rules: ThreeThirteenRules = ThreeThirteenRules()
    thrown: tuple[tuple[int, ...], ...] = ()

    def opponents(self) -> tuple[int, ...]:
        """Every other seat, clockwise from this seat's left (the next player first)."""
        return tuple((self.seat + i) % self.n_players for i in range(1, self.n_players))


class T13Policy(Protocol):
    """A Three Thirteen player.

    ``take_discard`` is asked before each draw when the discard pile is not empty (True = take its
    top card); ``discard`` after the draw returns the card to throw and whether to go out with it
    (T13-5; ignored on a last turn after someone else went out, when the card may be None: keep
    every card).
    """

    def take_discard(self, view: T13View) -> bool: ...

    def discard(self, view: T13View) -> tuple[int | None, bool]: ...


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every card's place after a step (for invariant checks): hands, stock, discard pile."""

    round_number: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    discards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round: who went out (None when capped), the round scores, final hands, turns."""

    round_number: int
    dealer: int
    went_out: int | None
    round_scores: tuple[int, ...]
    totals: tuple[int, ...]
    final_hands: tuple[tuple[int, ...], ...]
    turns: int
    reshuffles: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """A whole game: the 11 rounds, final totals and the tied-lowest winners (T13-6)."""

    rounds: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def round_scores(self, seat: int) -> tuple[int, ...]:
        """Seat ``seat``'s score in each round."""
        return tuple(r.round_scores[seat] for r in self.rounds)

    def nets(self) -> tuple[float, ...]:
        """Each seat's net: the other seats' mean total minus its own (positive = better than
        the table). The nets of a game add up to zero."""
        n = len(self.totals)
        total = sum(self.totals)
        return tuple((total - t) / (n - 1) - t for t in self.totals)


@dataclass(slots=True)
class RoundState:
    """A round in play: every card's place, who went out, the turns played (the simulator's
    state; :func:`sample_world` builds one from what a seat sees)."""

    round_number: int
    dealer: int
    n: int
    decks: int
    rules: ThreeThirteenRules
    totals: tuple[int, ...]
    hands: list[list[int]]
    stock: list[int]  # top is the last element
    discards: list[int]  # top is the last element
    known: list[list[int]] = field(default_factory=list)
    thrown: list[list[int]] = field(default_factory=list)
    out_seat: int | None = None
    turn: int = 0

    def view(self, seat: int) -> T13View:
        return T13View(
            seat=seat,
            dealer=self.dealer,
            n_players=self.n,
            round_number=self.round_number,
            decks=self.decks,
            hand=tuple(self.hands[seat]),
            discards=tuple(reversed(self.discards)),
            known=tuple(tuple(k) for k in self.known),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            out_seat=self.out_seat,
            totals=self.totals,
            turn_number=self.turn,
            rules=self.rules,
            thrown=tuple(tuple(t) for t in self.thrown),
        )

    def throw(self, seat: int, card: int) -> None:
        """Seat ``seat`` discards ``card`` (it holds it): on the pile, no longer a known pickup."""
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)
        self.discards.append(card)
        self.thrown[seat].append(card)

    def snapshot(self) -> Snapshot:
        return Snapshot(
            self.round_number,
            tuple(tuple(h) for h in self.hands),
            tuple(self.stock),
            tuple(reversed(self.discards)),
        )


def deal_round(
    round_number: int, n_players: int, dealer: int, decks: int, rng: random.Random
) -> tuple[list[list[int]], list[int], list[int]]:
    """T13-1/T13-2/C-4: shuffle ``decks`` decks, deal r+2 cards one at a time from the dealer's
    left, turn the top stock card up. Returns (hands, stock, discard pile), piles top last."""
    deck = list(range(THREE_THIRTEEN_GAME.deck.size)) * decks
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n_players)]
    for _ in range(THREE_THIRTEEN_GAME.deal_size(round_number)):
        for i in range(n_players):
            hands[(dealer + 1 + i) % n_players].append(deck.pop())
    discards = [deck.pop()]
    return hands, deck, discards


def play_round(
    round_number: int,
    policies: Sequence[T13Policy],
    rng: random.Random,
    *,
    dealer: int,
    decks: int,
    rules: ThreeThirteenRules,
    totals: Sequence[int],
    on_step: Callable[[Snapshot], None] | None = None,
) -> RoundResult:
    """Play one round (T13-1..T13-8) and score it (T13-6).

    :raises ValueError: a policy discarded a card it does not hold or went out illegally.
    """
    n = len(policies)
    hands, stock, discards = deal_round(round_number, n, dealer, decks, rng)
    state = RoundState(round_number, dealer, n, decks, rules, tuple(totals), hands, stock, discards)
    state.known = [[] for _ in range(n)]
    state.thrown = [[] for _ in range(n)]
    if on_step is not None:
        on_step(state.snapshot())
    reshuffles = play_on(state, (dealer + 1) % n, policies, rng, on_step=on_step)
    final = tuple(tuple(h) for h in state.hands)
    scores, new_totals = _score(round_number, rules, state.out_seat, final, totals, decks, dealer)
    return RoundResult(
        round_number, dealer, state.out_seat, scores, new_totals, final, state.turn, reshuffles
    )


def play_on(
    state: RoundState,
    seat: int,
    policies: Sequence[T13Policy],
    rng: random.Random,
    *,
    last_turns_left: int = 0,
    on_step: Callable[[Snapshot], None] | None = None,
) -> int:
    """Play ``state`` on from ``seat``'s turn to the round's end (T13-5, T13-8), in place.

    ``last_turns_left``: when someone already went out, the last turns still to play (their
    seats from ``seat`` on). Returns how many times the stock was rebuilt from the discards.

    :raises ValueError: a policy discarded a card it does not hold or went out illegally.
    """
    n = state.n
    round_number, rules = state.round_number, state.rules
    reshuffles = 0
    if state.out_seat is not None and last_turns_left == 0:
        return 0
    while state.turn < TURN_CAP:
        state.turn += 1
        policy = policies[seat]
        take = False
        if state.discards:
            # Only the top discard and no stock: nothing to reshuffle, the player must take it.
            forced = not state.stock and len(state.discards) == 1
            take = forced or bool(policy.take_discard(state.view(seat)))
        if take:
            card = state.discards.pop()
            state.known[seat].append(card)
        else:
            if not state.stock:
                if len(state.discards) <= 1:  # no card to draw (impossible with T13-2 decks)
                    break
                # T13-8: drawing from an empty stock: the discard pile except its top card,
                # shuffled with the game's rng, becomes the new stock.
                top = state.discards.pop()
                state.stock = state.discards
                rng.shuffle(state.stock)
                state.discards = [top]
                reshuffles += 1
                if on_step is not None:
                    on_step(state.snapshot())
            card = state.stock.pop()
        state.hands[seat].append(card)
        if on_step is not None:
            on_step(state.snapshot())
        throw, go_out = policy.discard(state.view(seat))
        hand = state.hands[seat]
        if throw is None:
            if state.out_seat is None:
                raise ValueError(f"seat {seat} must discard: only a last turn may keep (T13-5)")
            last_turns_left -= 1
            if last_turns_left == 0:
                break
            seat = (seat + 1) % n
            continue
        if throw not in hand:
            raise ValueError(f"seat {seat} discarded a card it does not hold: {throw}")
        if go_out and state.out_seat is None:
            # T13-5, checked with the teammates' going_out_options (C-2 search).
            legal = {o.discard for o in going_out_options(hand, round_number, rules)}
            if throw not in legal:
                raise ValueError(f"seat {seat} cannot go out: its cards are not all melded")
        state.throw(seat, throw)
        if on_step is not None:
            on_step(state.snapshot())
        if state.out_seat is None:
            if go_out:
                state.out_seat = seat  # T13-5: everyone else gets one more turn
                last_turns_left = n - 1
        else:
            last_turns_left -= 1
            if last_turns_left == 0:
                break
        seat = (seat + 1) % n
    return reshuffles


def round_scores(state: RoundState) -> tuple[int, ...]:
    """Each seat's score of a finished round (T13-6): 0 for the player who went out, else the
    C-2 deadwood of its hand (everyone's when nobody went out)."""
    scorer = DeadwoodMemo.for_context(t13_context(state.round_number, state.rules))
    return tuple(
        0 if seat == state.out_seat else scorer.deadwood(hand)
        for seat, hand in enumerate(state.hands)
    )


def unseen_counts(view: T13View) -> list[tuple[int, int]]:
    """(card, copies) of every card ``view``'s seat has not seen: every copy of the decks
    (T13-2) not in its hand, the discard pile or an opponent's known pickups."""
    left = Counter({c: view.decks for c in range(THREE_THIRTEEN_GAME.deck.size)})
    left.subtract(view.hand)
    left.subtract(view.discards)
    for seat, cards in enumerate(view.known):
        if seat != view.seat:
            left.subtract(cards)
    return [(c, k) for c, k in sorted(left.items()) if k > 0]


def sample_world(view: T13View, rng: random.Random) -> RoundState:
    """One round state consistent with what ``view``'s seat sees: each other seat holds its
    known pickups plus unseen cards (:func:`unseen_counts`) drawn at random, the rest of the
    unseen cards is the stock in a random order. The hidden hands are equally likely; a
    policy's tells are not read."""
    unseen = [card for card, copies in unseen_counts(view) for _ in range(copies)]
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for seat in range(view.n_players):
        if seat == view.seat:
            hands.append(list(view.hand))
            continue
        need = view.hand_sizes[seat] - len(view.known[seat])
        hands.append([*view.known[seat], *unseen[:need]])
        del unseen[:need]
    state = RoundState(
        view.round_number,
        view.dealer,
        view.n_players,
        view.decks,
        view.rules,
        view.totals,
        hands,
        unseen,
        list(reversed(view.discards)),
    )
    state.known = [list(k) for k in view.known]
    state.thrown = [list(t) for t in view.thrown] or [[] for _ in range(view.n_players)]
    state.out_seat = view.out_seat
    state.turn = view.turn_number
    return state


def _score(
    round_number: int,
    rules: ThreeThirteenRules,
    went_out: int | None,
    final: tuple[tuple[int, ...], ...],
    totals: Sequence[int],
    decks: int,
    dealer: int,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """T13-6 via ``engine.games.t13.settle.score_t13_round``; a capped round (nobody out) scores
    every
    hand's C-2 deadwood."""
    if went_out is None:
        scorer = DeadwoodMemo.for_context(t13_context(round_number, rules))
        scores = tuple(scorer.deadwood(h) for h in final)
        return scores, tuple(t + s for t, s in zip(totals, scores, strict=True))

    result = score_t13_round(
        round_number, rules, went_out, final, totals, decks=decks, dealer=dealer
    )
    return result.round_scores, result.totals


def play_game(
    policies: Sequence[T13Policy],
    rng: random.Random,
    *,
    first_dealer: int | None = None,
    decks: int | None = None,
    rules: ThreeThirteenRules | None = None,
    rounds: Sequence[int] = tuple(range(1, ROUNDS + 1)),
    on_step: Callable[[Snapshot], None] | None = None,
) -> GameResult:
    """Play a whole game (11 rounds by default); the first dealer is drawn with ``rng`` when not
    given and the deal passes to the left each round. Lowest total wins; ties share (T13-6)."""
    n = len(policies)
    if n < 2:
        raise ValueError("Three Thirteen needs at least two players")
    n_decks = default_decks(n) if decks is None else decks
    rule_set = rules or ThreeThirteenRules()
    dealer = rng.randrange(n) if first_dealer is None else first_dealer
    totals: tuple[int, ...] = (0,) * n
    results: list[RoundResult] = []
    for round_number in rounds:
        res = play_round(
            round_number,
            policies,
            rng,
            dealer=dealer,
            decks=n_decks,
            rules=rule_set,
            totals=totals,
            on_step=on_step,
        )
        results.append(res)
        totals = res.totals
        dealer = (dealer + 1) % n
    best = min(totals)
    winners = tuple(i for i, t in enumerate(totals) if t == best)
    return GameResult(tuple(results), totals, winners)


__all__ = [
    "GameResult",
    "ROUNDS",
    "RoundResult",
    "RoundState",
    "Snapshot",
    "T13Policy",
    "T13View",
    "TURN_CAP",
    "deal_round",
    "play_game",
    "play_on",
    "play_round",
    "round_scores",
    "sample_world",
    "unseen_counts",
]
