"""Three Thirteen advice questions and answers: what the player knows (:class:`T13Situation`),
the answers' records, and the one validation at the entry points (T13-1, T13-2, C-1).

The unseen cards (:func:`unseen_for`) are every copy of the ``decks`` decks (T13-2) that is not in
the player's hand, not in the discard pile and not known to be in an opponent's hand (cards an
opponent picked up from the discard pile and has not thrown back).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.advice.t13.params import MAX_ROUND
from engine.core.errors import EngineError, HandError
from engine.core.options import ThreeThirteenRules
from engine.games.t13.game import GAME

_DECK_SIZE = GAME.deck.size  # cards of one deck (C-1); several decks repeat them (T13-2)


@dataclass(frozen=True, slots=True)
class T13Situation:
    """What the advised player knows (engine ints throughout).

    ``hand``: the player's cards (r+3 after the draw for discard advice, r+2 before it for draw
    advice). Opponents are indexed clockwise from the player's left (index 0 is the next
    player). ``discard_pile`` is top first. ``known[j]`` are cards opponent ``j`` is known to hold
    (picked up from the discard pile and not thrown back); ``hand_sizes[j]`` how many cards it
    holds (default r+2); ``discarded[j]`` the cards it threw this round (the opponent model).
    ``out`` is the index of the opponent who has gone out (T13-5: this is the player's last
    turn), or None. ``scores`` are the running totals before this round, the player's first, then
    the opponents' in the same order (T13-6; empty: unknown). ``decks`` defaults to one (T13-2).
    """

    hand: tuple[int, ...]
    round_number: int
    players: int = 2
    decks: int = 1
    discard_pile: tuple[int, ...] = ()
    known: tuple[tuple[int, ...], ...] = ()
    hand_sizes: tuple[int, ...] = ()
    out: int | None = None
    rules: ThreeThirteenRules = ThreeThirteenRules()
    scores: tuple[int, ...] = ()
    discarded: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class T13DiscardOption:
    """One distinct card to discard with its figures (lower ``score`` is better).

    ``danger``/``danger_points`` are None when they were not needed: the option's score without
    them already exceeds the best option's (danger only adds), so ``score`` is then that lower
    bound and the option cannot be advised.
    """

    card: int
    deadwood: int
    outs: int
    expected_deadwood: float
    go_out_chance: float
    danger: float | None
    danger_points: float | None
    score: float
    goes_out: bool


@dataclass(frozen=True, slots=True)
class T13DiscardAdvice:
    """Every distinct discard ranked best first and the advice: ``discard`` (None: keep every
    card, only on a last turn), ``go_out`` (T13-5) and ``value``, the score of the advice (the
    value of the hand, what ``draw`` compares). ``keep_deadwood`` is the deadwood of keeping all
    cards on a last turn (None otherwise); ``risk`` the risk aversion used."""

    options: tuple[T13DiscardOption, ...]
    discard: int | None
    go_out: bool
    value: float
    keep_deadwood: int | None
    explanation: str
    unseen: int
    samples: int
    seed: int
    risk: float
    work: int = 0


@dataclass(frozen=True, slots=True)
class T13DrawAdvice:
    """Take the top discard or draw from the stock, both valued as a hand after the draw.

    ``take_value`` is the value of the hand with the top discard (the best ``discard`` answer's
    ``value`` on it; None with no discard) and ``discard_after_take`` that answer's card (None:
    keep all, last turn). ``stock_value`` is the mean value over the stock card with its 95%
    ``stock_interval``, from ``samples`` stock cards (``exact`` when every unseen card was
    evaluated). ``take_deadwood``/``stock_expected`` are the deadwood left after this turn (with
    the top discard; the mean over stock cards of the best discard's deadwood).
    """

    take_discard: bool
    top: int | None
    take_value: float | None
    take_deadwood: int | None
    discard_after_take: int | None
    stock_value: float
    stock_interval: tuple[float, float]
    stock_expected: float
    stock_go_out_chance: float
    samples: int
    exact: bool
    explanation: str
    unseen: int
    risk: float


def _check(situation: T13Situation, sizes: tuple[int, ...]) -> None:
    """Validate once at the entry point (T13-1, T13-2, C-1).

    :raises EngineError: bad round, decks, seats, hand size or too many copies of a card.
    """
    r = situation.round_number
    if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= MAX_ROUND:
        raise EngineError(f"round {r!r} is not one of 1..{MAX_ROUND} (T13-1)", field="round_number")
    most = GAME.deck.max_decks
    if not 1 <= situation.decks <= most:
        raise EngineError(f"decks must be a whole number 1..{most} (T13-2)", field="decks")
    opponents = situation.players - 1
    low, high = GAME.players
    if not low <= situation.players <= high or len(situation.known) > opponents:
        raise EngineError(
            f"players must be {low}..{high} with one entry per opponent", field="players"
        )
    if situation.out is not None and not 0 <= situation.out < opponents:
        raise EngineError("out must name an opponent (0 = the next player)", field="out")
    if len(situation.hand_sizes) > opponents or any(size < 0 for size in situation.hand_sizes):
        raise EngineError("hand_sizes needs one count >= 0 per opponent", field="hand_sizes")
    if situation.scores and len(situation.scores) != situation.players:
        raise EngineError("scores needs one total per player, the player's first", field="scores")
    if len(situation.discarded) > opponents:
        raise EngineError("discarded needs one list per opponent at most", field="discarded")
    if len(situation.hand) not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise HandError(
            f"the hand holds {len(situation.hand)} cards; round {r} needs {want} here",
            field="hand",
        )
    GAME.validate_hand(situation.hand, round_number=r, decks=situation.decks)
    groups: list[tuple[str, Sequence[int]]] = [
        ("hand", situation.hand),
        ("discard_pile", situation.discard_pile),
    ]
    groups.extend((f"known[{j}]", k) for j, k in enumerate(situation.known))
    GAME.validate_distinct_across(groups, decks=situation.decks)


def _check_budget(samples: int, cap: int, name: str = "samples") -> None:
    if isinstance(samples, bool) or not 1 <= samples <= cap:
        raise EngineError(f"{name} must be 1..{cap} (the work cap)", field=name)


def unseen_for(situation: T13Situation) -> tuple[int, ...]:
    """Unseen copies (T13-2 decks) not in hand, discard pile or an opponent's known cards."""
    left = Counter({c: situation.decks for c in range(_DECK_SIZE)})
    left.subtract(situation.hand)
    left.subtract(situation.discard_pile)
    for group in situation.known:
        left.subtract(group)
    return tuple(c for c in range(_DECK_SIZE) for _ in range(max(0, left[c])))


__all__ = [
    "T13DiscardAdvice",
    "T13DiscardOption",
    "T13DrawAdvice",
    "T13Situation",
    "unseen_for",
]
