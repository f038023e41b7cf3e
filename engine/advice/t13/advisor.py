"""Three Thirteen advice: which card to discard (or none on a last turn), whether to go out, and
where to draw from, all valued by one function of the hand.

The model (what a player at the table knows: :class:`T13Situation`):

* **Unseen cards** are every copy of the ``decks`` decks (T13-2) that is not in the player's hand,
  not in the discard pile and not known to be in an opponent's hand (cards an opponent picked up
  from the discard pile and has not thrown back). The next stock card is any unseen copy, each
  equally likely. Cards known to be elsewhere are never imagined in a hand or drawn.
* **Deadwood** is C-2's best-arrangement deadwood under T13-3/T13-4 (the round's wild rank, the
  aces rule), from ``engine.standard.arrange`` (``min_deadwood`` and
  ``min_deadwood_after_discard``).

**The value of a hand after the draw** (r+3 cards; lower is better) is the score of its best
discard, and every figure the endpoints report is a part of it:

* A kept hand ``R`` (r+2 cards, the discard made) is worth
  ``F(R) = (1 - risk) * E(R) + risk * deadwood(R) - (1 - risk) * GO_OUT_WEIGHT * go_out_chance(R)``.
  ``E(R)`` is the expected deadwood after the next stock draw and best discard (an exact
  enumeration over the unseen cards, a drawn card may be thrown back), which is also what the
  player scores when someone goes out before that draw (T13-5); ``go_out_chance`` is the share of
  unseen cards that let the player go out then. ``risk`` (0..``MAX_RISK``) grows with the
  player's lead in the running ``scores`` (T13-6) and the rounds left: a player far ahead weighs
  the deadwood it holds now (what it pays if caught) above the chance of going out.
* Discarding ``X`` scores ``F(R) + DANGER_WEIGHT * danger_points(X)``: the mean deadwood the card
  saves the next player (they take a discard that lowers their best deadwood). Their hand is
  sampled ``samples`` times (seeded keys on the physical cards: the unseen cards with the
  highest keys) from the unseen cards, always holding their known pickups;
  cards of the rank, and of the same suit within two ranks, of a card they discarded are
  ``DISCARDED_NEAR_WEIGHT`` times as likely (a player who throws a card does not collect around
  it). No danger when the next player has no turn left.
* A discard that goes out now (T13-5: the other r+2 cards all combined) scores
  ``OUT_NOW + DANGER_WEIGHT * danger_points``: below every other option (``F >= -GO_OUT_WEIGHT``),
  so going out is always advised. Holding is never better: the round score cannot go below 0.
* On a **last turn** (someone went out, T13-5) the player draws and *optionally* discards: a
  discard scores the deadwood left (plus the danger to a next player still to play), and keeping
  every card scores its deadwood (``discard`` None). The lowest wins.

**Draw** values both choices with that same function: taking the top discard ``T`` is worth the
value of the hand with ``T`` (exactly the best ``discard`` answer on that hand: same unseen cards,
same seed, same samples), and the stock the mean of the value over the stock card. On a last turn
(no lookahead) the mean is exact; otherwise stock cards are drawn in a seeded order without
replacement until the 95% interval of the mean is narrower than ``precision``, excludes the
value of taking, covers every unseen card, reaches ``samples`` cards or the work cap
(``DRAW_WORK_CAP`` deadwood figures); before ``MIN_STOCK_SAMPLES`` cards it stops only when
Student's interval for so few cards (``T_975``, the interval then reported) already excludes
the value of taking, or, after one card (no interval: reported as infinite), when that card's
estimate is more than ``CLEAR_MARGIN`` points from it (:func:`stock_settled`). The mean is a
control-variate estimate: the deadwood after drawing each unseen card and throwing the best one
(read off the hand before the draw, exact over every unseen card) plus the sampled mean of value
minus that deadwood, which varies far less than the value itself
(``tests/engine/advice/test_t13_stock_estimate.py``). Taking a card only to throw it back is never
advised: when the best discard after taking ``T`` is ``T``
itself, the stock is drawn (and, the choice being clear, its mean comes from
``MIN_STOCK_SAMPLES`` cards).

Everything is deterministic for a given request, ``seed``, ``samples`` and ``precision``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import islice

from engine.core.cards import RANK_OF, SUIT_OF, card_name
from engine.core.errors import EngineError, HandError
from engine.core.options import ThreeThirteenRules
from engine.games.t13.game import GAME
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo, Profile

MAX_ROUND = GAME.rounds or 11
DEFAULT_SEED = 13
DEFAULT_SAMPLES = 16  # discard: next player's hands sampled for danger
DEFAULT_STOCK_SAMPLES = 12  # draw: most stock cards evaluated (the mean's work cap)
DEFAULT_PRECISION = 1.0  # draw: 95% half-width (points) at which the stock mean stops
MIN_STOCK_SAMPLES = 4  # stock cards before the normal interval decides (see T_975)
# Student's t 97.5% quantiles by degrees of freedom: before MIN_STOCK_SAMPLES cards the stock's
# sampling stops only if the choice is already clear with the wider interval of so few cards.
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}
# Draw: after one stock card the choice is clear when its estimate of the stock mean is more than
# this many points from the take's value. A card's value less its control variate varies with a
# standard deviation of about 1.5 points (2.3-2.6 at the 90th percentile) over random situations
# of rounds 3-11. With this margin the stopping rule values 18-21% fewer stock cards and loses
# 0.0003-0.0033 points more per draw than without it (bench/t13_stock_margin.py, seeds 3-5).
CLEAR_MARGIN = 5.0
MAX_PRECISION = 50.0

# Work caps (bounded requests, measured with bench/bench_advice_t13.py --probe on this machine:
# the largest accepted settings finish well under a second). ``samples`` above the cap is a 422.
MAX_SAMPLES = 64  # discard: next player's hands
MAX_STOCK_SAMPLES = 16  # draw: stock cards, each one full evaluation of a hand after the draw
# Draw: stock sampling also stops once this many deadwood figures were asked for (the work unit:
# one kept hand with one next card, or one imagined next-player hand with one discard). A round-11
# evaluation asks about 600, so a draw does about five there and many more in the
# short early rounds; deterministic, unlike a clock.
DRAW_WORK_CAP = 3000

# Score weights (bench/tournament_t13.py): the next player's likely gain is a tie-breaker, not a
# cost in points, since what a discard gives them is mostly what they would soon draw anyway; a
# certain go-out next turn is worth six points beyond the zero it adds to the expectation.
DANGER_WEIGHT = 0.1
GO_OUT_WEIGHT = 6.0
OUT_NOW = -(GO_OUT_WEIGHT + 1.0)  # going out now: below every kept hand's value
MAX_RISK = 0.5
RISK_LEAD_PER_ROUND = 20.0  # lead (points) per round left (this one included) for MAX_RISK x 2
DISCARDED_NEAR_WEIGHT = 0.25


def clear_caches() -> None:
    """Forget every memoised deadwood figure (benchmarks time cold requests with this)."""
    DeadwoodMemo.clear_all()


def risk_of(scores: Sequence[int], round_number: int) -> float:
    """Risk aversion 0..``MAX_RISK`` from the running totals (T13-6: lowest total wins).

    ``scores[0]`` is the player's total, the rest the opponents'. The lead over the best
    opponent, per round still to play (this one included), sets it: a lead of
    ``RISK_LEAD_PER_ROUND`` points a round or more gives the most. No scores, level or behind: 0.
    """
    if len(scores) < 2:
        return 0.0
    lead = min(scores[1:]) - scores[0]
    if lead <= 0:
        return 0.0
    rounds_left = MAX_ROUND - round_number + 1
    return min(MAX_RISK, MAX_RISK * 2 * lead / (RISK_LEAD_PER_ROUND * rounds_left))


# --------------------------------------------------------------------------- requests and answers


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
        raise EngineError(f"round {r!r} is not one of 1..11 (T13-1)", field="round_number")
    if not 1 <= situation.decks <= 8:
        raise EngineError("decks must be a whole number 1..8 (T13-2)", field="decks")
    opponents = situation.players - 1
    if not 2 <= situation.players <= 8 or len(situation.known) > opponents:
        raise EngineError("players must be 2..8 with one entry per opponent", field="players")
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
    left = Counter({c: situation.decks for c in range(52)})
    left.subtract(situation.hand)
    left.subtract(situation.discard_pile)
    for group in situation.known:
        left.subtract(group)
    return tuple(c for c in range(52) for _ in range(max(0, left[c])))


def _near(card: int) -> set[int]:
    """Cards of ``card``'s rank and of its suit within two ranks (its meld neighbourhood)."""
    r, s = RANK_OF[card], SUIT_OF[card]
    out = {t * 13 + r for t in range(4)}
    out.update(s * 13 + q for q in range(max(0, r - 2), min(12, r + 2) + 1))
    return out


_KEYS: dict[tuple[int, int, int], tuple[tuple[float, ...], ...]] = {}
_KEYS_LIMIT = 256


def _card_keys(seed: int, samples: int, decks: int) -> tuple[tuple[float, ...], ...]:
    """Per imagined hand, a seeded uniform key for every physical card (``card + 52 * copy``):
    the hand is the unseen cards with the highest keys, so it depends only on the seed and on
    which cards are unseen (memoised: every hand a draw values shares them)."""
    got = _KEYS.get((seed, samples, decks))
    if got is None:
        rng = random.Random(seed)
        size = 52 * decks
        got = tuple(tuple(rng.random() for _ in range(size)) for _ in range(samples))
        if len(_KEYS) >= _KEYS_LIMIT:
            _KEYS.clear()
        _KEYS[(seed, samples, decks)] = got
    return got


def _next_player_hands(
    situation: T13Situation,
    unseen: Sequence[int],
    seed: int,
    samples: int,
    ranked: Sequence[Sequence[int]] | None = None,
) -> list[tuple[int, ...]]:
    """``samples`` draws of the next player's hand: their known cards plus unseen cards.

    T13 has no laying down before going out (T13-5, T13-7), so no meld constraint applies.
    Unseen cards near a card they discarded are ``DISCARDED_NEAR_WEIGHT`` times as likely
    (Efraimidis-Spirakis: the cards with the highest keys ``u ** (1 / weight)`` are drawn, a
    uniform draw when every weight is 1). The keys belong to physical cards (the k-th unseen
    copy of a card is copy k), so a situation with one unseen card fewer - a hand a draw values
    holds the drawn card - imagines the same hands except those that held that card.
    ``ranked`` (from :func:`_ranked_slots`, for these very unseen cards) skips the sorting.
    """
    known = situation.known[0] if situation.known else ()
    size = situation.hand_sizes[0] if situation.hand_sizes else situation.round_number + 2
    hidden = max(0, min(size - len(known), len(unseen)))
    if ranked is None:
        ranked = _ranked_slots(situation, _slots(unseen), seed, samples)
    return [(*known, *sorted(x % 52 for x in order[:hidden])) for order in ranked]


def _slots(unseen: Sequence[int]) -> list[int]:
    """The physical cards of ``unseen`` (sorted by card): copy k of card c is ``c + 52 * k``."""
    slots: list[int] = []
    copies: Counter[int] = Counter()
    for c in unseen:
        slots.append(c + 52 * copies[c])
        copies[c] += 1
    return slots


def _ranked_slots(
    situation: T13Situation, slots: Sequence[int], seed: int, samples: int
) -> list[list[int]]:
    """Per imagined next-player hand, ``slots`` by decreasing key (its hand is a prefix)."""
    thrown = situation.discarded[0] if situation.discarded else ()
    near: set[int] = set()
    for c in thrown:
        near |= _near(c)
    power = 1.0 / DISCARDED_NEAR_WEIGHT
    out = []
    for keys in _card_keys(seed, samples, situation.decks):
        if near:
            out.append(
                sorted(
                    slots,
                    key=lambda x: keys[x] ** power if x % 52 in near else keys[x],
                    reverse=True,
                )
            )
        else:
            out.append(sorted(slots, key=keys.__getitem__, reverse=True))
    return out


def sample_next_hands(
    situation: T13Situation, *, seed: int = DEFAULT_SEED, samples: int = DEFAULT_SAMPLES
) -> list[tuple[int, ...]]:
    """The next player's hands the advice imagines (known cards + unseen cards), for tests/docs."""
    return _next_player_hands(situation, unseen_for(situation), seed, samples)


@dataclass(slots=True)
class _Kept:
    """Figures of a kept hand (after the discard): see :func:`_Evaluator.kept`."""

    deadwood: int
    expected: float
    outs: int
    chance: float
    value: float


_HandsKey = tuple[tuple[int, ...], int]  # (the next player's known cards, its hidden cards)
_Hands = list[tuple[tuple[int, ...], set[int]]]  # per imagined hand: its cards, its slots


class _Opponents:
    """Imagined next-player hands (profiled once, each by its index) and what a discard saves
    each of them, memoised (``DeadwoodMemo.gain_of_adding``)."""

    __slots__ = ("memo", "profiles", "_index", "_gains")

    def __init__(self, memo: DeadwoodMemo) -> None:
        self.memo = memo
        self.profiles: list[Profile] = []
        self._index: dict[tuple[int, ...], int] = {}
        self._gains: dict[int, int] = {}  # index * 64 + card -> gain

    def index(self, hand: tuple[int, ...]) -> int:
        """The index of ``hand`` (profiled when first seen)."""
        got = self._index.get(hand)
        if got is None:
            got = self._index[hand] = len(self.profiles)
            self.profiles.append(self.memo.profile(hand))
        return got

    def gain(self, index: int, card: int) -> int:
        """Deadwood the hand ``index`` saves by taking ``card``."""
        key = index << 6 | card
        got = self._gains.get(key)
        if got is None:
            got = self._gains[key] = self.memo.gain_of_adding(self.profiles[index], card)
        return got


class _DrawBases:
    """Profiles of the hand before the draw, whole and less each card, shared by every hand a
    draw values: a kept hand is that hand less a card plus the drawn card, and its figures are
    searched through the drawn card (``DeadwoodMemo.profile_plus``), sharing their searches."""

    __slots__ = (
        "memo",
        "hand",
        "whole",
        "_minus",
        "opponents",
        "unseen",
        "_base_counts",
        "_ranked",
    )

    def __init__(self, memo: DeadwoodMemo, hand: Sequence[int], unseen: Sequence[int] = ()) -> None:
        self.memo = memo
        self.hand = tuple(hand)
        self.whole = memo.profile(self.hand)
        self._minus: dict[int, Profile] = {}
        # Imagined next-player hands and what a discard saves them, shared by the hands a draw
        # values (most of them imagine the same next-player hands: see _next_player_hands).
        self.opponents = _Opponents(memo)
        self.unseen = tuple(unseen)  # before the draw: every hand a draw values has a subset
        self._base_counts = Counter(self.unseen)
        # per (seed, samples): the ranked slots, and by (known cards, hidden cards) each imagined
        # hand with the slots it holds
        self._ranked: dict[tuple[int, int], tuple[list[list[int]], dict[_HandsKey, _Hands]]] = {}

    def next_hands(
        self, situation: T13Situation, unseen: Sequence[int], seed: int, samples: int
    ) -> list[tuple[int, ...]]:
        """:func:`_next_player_hands` of a hand the draw values: the unseen cards before the draw
        are ranked once per (seed, samples), and a hand's unseen cards (those less the card it
        drew) read that order without the slots they lack (the same order as sorting them), so
        an imagined hand changes only where it held such a slot."""
        gone = self._gone(unseen)
        if gone is None:  # not a subset: rank these cards afresh
            return _next_player_hands(situation, unseen, seed, samples)
        got = self._ranked.get((seed, samples))
        if got is None:
            ranked = _ranked_slots(situation, _slots(self.unseen), seed, samples)
            got = self._ranked[(seed, samples)] = (ranked, {})
        ranked, whole = got
        known = situation.known[0] if situation.known else ()
        size = situation.hand_sizes[0] if situation.hand_sizes else situation.round_number + 2
        hidden = max(0, min(size - len(known), len(unseen)))
        prefixes = whole.get((known, hidden))
        if prefixes is None:  # each imagined hand, and the slots it holds
            prefixes = whole[(known, hidden)] = [
                ((*known, *sorted(x % 52 for x in order[:hidden])), set(order[:hidden]))
                for order in ranked
            ]
        out = []
        for order, (hand, held) in zip(ranked, prefixes, strict=True):
            if not gone or held.isdisjoint(gone):
                out.append(hand)
            else:
                kept = islice((x % 52 for x in order if x not in gone), hidden)
                out.append((*known, *sorted(kept)))
        return out

    def _gone(self, unseen: Sequence[int]) -> list[int] | None:
        """The slots of the unseen cards before the draw that ``unseen`` lacks (a hand's drawn
        stock card: the last copy), or None when ``unseen`` holds a card they do not."""
        mine = self.unseen
        if len(unseen) == len(mine) - 1:  # the usual case, one card drawn: find it
            pairs = enumerate(zip(unseen, mine, strict=False))
            i = next((i for i, (a, b) in pairs if a != b), len(unseen))
            if unseen[i:] == mine[i + 1 :]:
                c = mine[i]
                return [c + 52 * (self._base_counts[c] - 1)]
        if tuple(unseen) == mine:
            return []
        have = Counter(unseen)
        base = self._base_counts
        if have - base:
            return None
        return [c + 52 * k for c, n in (base - have).items() for k in range(have[c], have[c] + n)]

    def kept(self, removed: int, drawn: int) -> Profile:
        """The profile of the hand + ``drawn`` - ``removed``."""
        if removed == drawn:
            return self.whole
        base = self._minus.get(removed)
        if base is None:
            rest = list(self.hand)
            rest.remove(removed)
            base = self._minus[removed] = self.memo.profile(rest)
        return self.memo.profile_plus(base, drawn)


@dataclass(slots=True)
class _Evaluator:
    """The value function for one situation after the draw (see the module docstring)."""

    situation: T13Situation
    seed: int
    samples: int
    bases: _DrawBases | None = None
    drawn: int = -1
    lean: bool = False  # only the advice is reported (a draw's hands): see ``options``
    unseen: tuple[int, ...] | None = None  # ``unseen_for(situation)`` when the caller has it
    scorer: DeadwoodMemo = field(init=False)
    counts: list[tuple[int, int]] = field(init=False)
    total: int = field(init=False)
    last_turn: bool = field(init=False)
    risk: float = field(init=False)
    _unseen: tuple[int, ...] = field(init=False)
    _opp: list[int] | None = field(init=False, default=None)  # in ``opponents``
    opponents: _Opponents = field(init=False)
    _kept: dict[tuple[int, ...], _Kept] = field(init=False, default_factory=dict)
    _danger: dict[int, tuple[float, float]] = field(init=False, default_factory=dict)
    _profiles: dict[tuple[int, ...], Profile] = field(init=False, default_factory=dict)
    _removed: dict[tuple[int, ...], int] = field(init=False, default_factory=dict)
    _loose: dict[tuple[int, ...], tuple[int, int, list[tuple[int, int, int, int, int]]]] = field(
        init=False, default_factory=dict
    )
    work: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        s = self.situation
        self.scorer = DeadwoodMemo.for_context(t13_context(s.round_number, s.rules))
        self._unseen = unseen_for(s) if self.unseen is None else self.unseen
        self.counts = sorted(Counter(self._unseen).items())
        self.total = len(self._unseen)
        self.last_turn = s.out is not None
        self.risk = risk_of(s.scores, s.round_number)
        # a draw's hands share theirs
        self.opponents = _Opponents(self.scorer) if self.bases is None else self.bases.opponents

    @property
    def next_plays(self) -> bool:
        """Whether the next player still has a turn (not if they are the one who went out)."""
        return self.situation.out != 0

    def kept(self, rest: Sequence[int]) -> _Kept:
        """``F`` of a kept hand: deadwood now, expected deadwood after the next draw, outs,
        go-out chance and the value (memoised per request)."""
        key = tuple(sorted(rest))
        got = self._kept.get(key)
        if got is not None:
            return got
        sc = self.scorer
        prof = self._profile(key)
        dw = prof.deadwood
        if self.last_turn or not self.total:
            got = _Kept(dw, float(dw), 0, 0.0, float(dw))
        else:
            self.work += len(self.counts)
            acc, outs, zero = sc.adding_sums(prof, self.counts)
            got = _Kept(dw, acc / self.total, outs, zero / self.total, self._value(acc, zero, dw))
        self._kept[key] = got
        return got

    def danger(self, card: int) -> tuple[float, float]:
        """(share of sampled next-player hands ``card`` helps, mean deadwood it saves them)."""
        got = self._danger.get(card)
        if got is not None:
            return got
        opponents = self.opponents
        if self._opp is None:
            if self.bases is not None:
                hands = self.bases.next_hands(self.situation, self._unseen, self.seed, self.samples)
            else:
                hands = _next_player_hands(self.situation, self._unseen, self.seed, self.samples)
            self._opp = [opponents.index(h) for h in hands]
        helped = gain = 0
        self.work += len(self._opp)
        gain_of = opponents.gain
        for i in self._opp:
            g = gain_of(i, card)
            if g > 0:
                helped += 1
                gain += g
        n = len(self._opp)
        got = (helped / n, gain / n) if n else (0.0, 0.0)
        self._danger[card] = got
        return got

    def _profile(self, key: tuple[int, ...]) -> Profile:
        got = self._profiles.get(key)
        if got is None:
            removed = self._removed.get(key)
            if self.bases is not None and removed is not None:
                got = self.bases.kept(removed, self.drawn)
            else:
                got = self.scorer.profile(key)
            self._profiles[key] = got
        return got

    def _value(self, acc: int, zero: int, dw: int) -> float:
        """``F`` from the sum over unseen cards of the deadwood after them (``acc``), how many
        of them let the player go out (``zero``) and the deadwood now: one expression, so a
        bound and the exact figure compare as the same function (each step is monotone)."""
        b = self.risk
        expected = acc / self.total
        chance = zero / self.total
        return (1 - b) * expected + b * dw - (1 - b) * GO_OUT_WEIGHT * chance

    def bound(self, key: tuple[int, ...]) -> tuple[int, float]:
        """(deadwood, a lower bound of ``F``) of a kept hand, without its searches of the hand
        less each group (see ``DeadwoodMemo.adding_bounds``)."""
        prof = self._profile(key)
        dw = prof.deadwood
        acc, zero, loose = self.scorer.adding_bounds(prof, self.counts)
        self._loose[key] = (acc, zero, loose)
        return dw, self._value(acc, zero, dw)

    def _raised_bound(self, key: tuple[int, ...], best: float) -> float | None:
        """Tighten a kept hand's bound of ``F`` with the exact figure of each loosely bounded
        card (the likeliest to raise it most first: those whose groups need the most wilds, the
        bound's spare wild helping them most, then the widest range) and stop once it exceeds
        ``best``: that bound (the hand cannot be advised), or None when ``F`` is exact and at
        most ``best``."""
        acc, zero, loose = self._loose[key]
        return self.scorer.raised_bound(
            self._profile(key), loose, acc, zero, best, self.risk, self.total, GO_OUT_WEIGHT
        )

    def _option(self, card: int, rest: Sequence[int]) -> tuple[float, int, T13DiscardOption]:
        k = self.kept(rest)
        goes_out = k.deadwood == 0 and not self.last_turn
        lower = OUT_NOW if goes_out else k.value
        opt = T13DiscardOption(
            card, k.deadwood, k.outs, k.expected, k.chance, None, None, lower, goes_out
        )
        return lower, -self.scorer.points(card), opt

    def _select(
        self, base: list[tuple[float, int, T13DiscardOption]], keep: int | None
    ) -> tuple[list[T13DiscardOption], list[T13DiscardOption]]:
        """The options given their ``F`` (``lower``), best first: in order of ``F``, each one
        below the best score so far gets its danger (lazily computed); the others (their score
        is ``F``: no danger can make them best) are returned apart."""
        base.sort(key=lambda t: (t[0], t[1], t[2].card))
        best = math.inf if keep is None else float(keep)
        done: list[T13DiscardOption] = []
        rest_opts: list[T13DiscardOption] = []
        use_danger = self.next_plays and self.samples > 0
        for lower, _, opt in base:
            if lower >= best and done:
                rest_opts.append(opt)
                continue
            if use_danger:
                d, dp = self.danger(opt.card)
            else:
                d, dp = 0.0, 0.0
            opt = T13DiscardOption(
                opt.card,
                opt.deadwood,
                opt.outs,
                opt.expected_deadwood,
                opt.go_out_chance,
                d,
                dp,
                lower + DANGER_WEIGHT * dp,
                opt.goes_out,
            )
            done.append(opt)
            best = min(best, opt.score)
        done.sort(key=self._rank)
        return done, rest_opts

    def _rank(self, option: T13DiscardOption) -> tuple[float, int, int]:
        """Order of the ranked options: score, then the higher card, then the card."""
        return option.score, -self.scorer.points(option.card), option.card

    def options(self, figures: bool = True) -> tuple[list[T13DiscardOption], int | None]:
        """Every distinct discard ranked best first (with the lazily computed danger), and the
        deadwood of keeping every card on a last turn (else None).

        With ``figures`` False only the options that can be advised get their figures: the
        others keep a lower bound of ``F`` as their score and NaN figures (the advice, its value
        and ``work`` are the same: an option is skipped only when its bound exceeds the best
        score among the evaluated ones, so it would not have been evaluated for danger either).
        ``lean`` (the hands a draw values) also drops a kept hand part way through its cards
        once its tightened bound exceeds that score (:meth:`_raised_bound`).
        """
        hand = self.situation.hand
        ordered = tuple(sorted(hand))
        rests: list[tuple[int, tuple[int, ...]]] = []
        for i, card in enumerate(ordered):
            if i and ordered[i - 1] == card:
                continue  # one option per distinct card
            key = ordered[:i] + ordered[i + 1 :]  # the hand less that card, sorted
            self._removed[key] = card
            rests.append((card, key))
        keep = self.scorer.deadwood(hand) if self.last_turn else None
        if figures or self.last_turn or not self.total:
            done, rest_opts = self._select([self._option(c, r) for c, r in rests], keep)
            return done[:1] + sorted(done[1:] + rest_opts, key=self._rank), keep
        base: list[tuple[float, int, T13DiscardOption]] = []
        pending: list[tuple[float, int, int, tuple[int, ...]]] = []
        for card, rest in rests:
            dw, lower = self.bound(rest)
            if dw == 0:  # goes out now: its score is exact without the lookahead
                nan = math.nan
                opt = T13DiscardOption(card, 0, 0, nan, nan, None, None, OUT_NOW, True)
                base.append((OUT_NOW, -self.scorer.points(card), opt))
            else:
                pending.append((lower, dw, card, rest))
        pending.sort()
        raised: list[tuple[float, int, int, tuple[int, ...]]] = []
        done, rest_opts = self._select(list(base), keep)
        while pending:
            best = done[0].score if done else math.inf
            if pending[0][0] > best:
                break
            lower, dw, card, rest = pending.pop(0)
            if self.lean and done:
                higher = self._raised_bound(rest, best)
                if higher is not None:  # above the best score: neither advised nor in danger
                    raised.append((higher, dw, card, rest))
                    continue
            base.append(self._option(card, rest))
            done, rest_opts = self._select(list(base), keep)
        self.work = len(self.counts) * len(rests) + (len(self._opp or ()) * len(done))
        skipped = [
            T13DiscardOption(c, dw, 0, math.nan, math.nan, None, None, lower, False)
            for lower, dw, c, _ in pending + raised
        ]
        return done + rest_opts + skipped, keep


def t13_discard_advice(
    situation: T13Situation,
    *,
    seed: int = DEFAULT_SEED,
    samples: int = DEFAULT_SAMPLES,
    figures: bool = True,
) -> T13DiscardAdvice:
    """Rank every distinct discard of a hand after the draw (r+3 cards), say whether to go out,
    and on a last turn whether to discard at all (T13-5).

    With ``figures`` False (simulations, and the hands ``draw`` values) options that cannot be
    advised are not evaluated: they carry a lower bound as ``score`` and NaN figures; the
    advice, ``value`` and ``work`` are the same.

    :raises EngineError: invalid situation or ``samples`` above the work cap.
    """
    _check(situation, (situation.round_number + 3,))
    _check_budget(samples, MAX_SAMPLES)
    return _discard(situation, seed, samples, figures)


def _discard(
    situation: T13Situation,
    seed: int,
    samples: int,
    figures: bool = True,
    bases: _DrawBases | None = None,
    drawn: int = -1,
    unseen: tuple[int, ...] | None = None,
) -> T13DiscardAdvice:
    # The hands a draw values report only the advice: their skipped options may keep any bound.
    ev = _Evaluator(situation, seed, samples, bases, drawn, lean=bases is not None, unseen=unseen)
    options, keep = ev.options(figures)
    best = options[0]
    if keep is not None and keep <= best.score:
        discard, value, go_out = None, float(keep), False
    else:
        discard, value, go_out = best.card, best.score, best.goes_out
    used = samples if ev.next_plays and ev._opp is not None else 0
    return T13DiscardAdvice(
        tuple(options),
        discard,
        go_out,
        value,
        keep,
        _discard_sentence(best, options, keep, ev),
        ev.total,
        used,
        seed,
        ev.risk,
        ev.work,
    )


def _discard_sentence(
    best: T13DiscardOption,
    options: Sequence[T13DiscardOption],
    keep: int | None,
    ev: _Evaluator,
) -> str:
    name = card_name(best.card)
    if best.goes_out:
        return (
            f"Discard {name} and go out: the other cards are all in combinations, so you score 0 "
            "and the round ends after everyone's last turn (T13-5)."
        )
    if keep is not None:
        if keep <= best.score:
            return (
                f"Keep all your cards and do not discard: this is your last turn (T13-5), keeping "
                f"them leaves {keep} deadwood points, and discarding {name} would leave "
                f"{best.deadwood}."
            )
        return (
            f"Discard {name}: this is your last turn (T13-5); it leaves {best.deadwood} deadwood "
            f"points, the fewest you can keep (keeping every card: {keep})."
        )
    lowest = min(o.deadwood for o in options)
    parts = [
        f"Discard {name}: it leaves {best.deadwood} deadwood points and about "
        f"{best.expected_deadwood:.1f} after your next draw, with {best.outs} unseen cards "
        "that help"
    ]
    if best.deadwood > lowest:
        parts.append(f", better than the lowest-deadwood discard ({lowest} points) for its outs")
    elif ev.risk > 0 and any(o.expected_deadwood < best.expected_deadwood for o in options):
        parts.append(
            ", the safest hand to be caught with: you are ahead on the scores, so keeping "
            "deadwood low now matters more than the chance of going out"
        )
    if best.danger is not None and best.danger > 0.3:
        parts.append(f"; it may help the next player ({best.danger:.0%} of their likely hands)")
    elif any(
        o.danger is not None and o.danger > 0.3 and o.deadwood <= best.deadwood for o in options
    ):
        parts.append(", and it is safer to throw than cards the next player likely wants")
    return "".join(parts) + "."


def _bases(situation: T13Situation, unseen: tuple[int, ...] | None = None) -> _DrawBases:
    """The shared profiles of the hand before the draw (the memo of its round and rules) and its
    unseen cards (``unseen_for(situation)``, passed when the caller has them)."""
    ctx = t13_context(situation.round_number, situation.rules)
    if unseen is None:
        unseen = unseen_for(situation)
    return _DrawBases(DeadwoodMemo.for_context(ctx), situation.hand, unseen)


def _after_draw(situation: T13Situation, card: int, *, from_pile: bool) -> T13Situation:
    """The situation once ``card`` is drawn (from the top of the pile or from the stock)."""
    pile = situation.discard_pile[1:] if from_pile else situation.discard_pile
    return replace(situation, hand=(*situation.hand, card), discard_pile=pile)


def t13_draw_advice(
    situation: T13Situation,
    *,
    seed: int = DEFAULT_SEED,
    samples: int = DEFAULT_STOCK_SAMPLES,
    precision: float = DEFAULT_PRECISION,
    danger_samples: int = DEFAULT_SAMPLES,
    figures: bool = True,
) -> T13DrawAdvice:
    """Take the top discard or draw from the stock, for a hand before the draw (r+2 cards).

    Both choices are the value of a hand after the draw (see the module docstring): taking is
    the best ``discard`` answer's value on the hand with the top card (``seed`` and
    ``danger_samples`` as in that request); the stock is its mean over the stock card, sampled
    up to ``samples`` cards or until ``precision``. With ``figures`` False (simulations) the
    stock is not sampled when the choice is already clear (no top card, or taking it would only
    throw it back); the advice is the same, the stock figures are then NaN.

    :raises EngineError: invalid situation, ``samples`` above the work cap or a bad precision.
    """
    _check(situation, (situation.round_number + 2,))
    _check_budget(samples, MAX_STOCK_SAMPLES)
    _check_budget(danger_samples, MAX_SAMPLES, "danger_samples")
    if not 0 < precision <= MAX_PRECISION:
        raise EngineError(f"precision must be > 0 and <= {MAX_PRECISION:g}", field="precision")
    unseen = unseen_for(situation)
    top = situation.discard_pile[0] if situation.discard_pile else None
    bases = _bases(situation, unseen)
    take: T13DiscardAdvice | None = None
    if top is not None:
        take = _discard(
            _after_draw(situation, top, from_pile=True),
            seed,
            danger_samples,
            False,
            bases,
            top,
            unseen,  # the top discard was seen
        )
    passing = take is not None and take.discard == top
    target = None if take is None or passing else take.value
    if target is None:  # the choice is the stock whatever its mean: a few cards for the figure
        samples = min(samples, MIN_STOCK_SAMPLES)
    if not figures and target is None:
        nan = math.nan
        mean, low, high, dw_mean, chance, used, exact = nan, nan, nan, nan, nan, 0, False
    else:
        mean, low, high, dw_mean, chance, used, exact = _stock_value(
            situation, unseen, seed, danger_samples, samples, precision, target, bases
        )
    take_it = take is not None and not passing and take.value < mean
    risk = risk_of(situation.scores, situation.round_number)
    text = _draw_sentence(situation, top, take, passing, take_it, mean, dw_mean)
    return T13DrawAdvice(
        take_it,
        top,
        None if take is None else take.value,
        None if take is None else _kept_deadwood(take),
        None if take is None else take.discard,
        mean,
        (low, high),
        dw_mean,
        chance,
        used,
        exact,
        text,
        len(unseen),
        risk,
    )


def _kept_deadwood(advice: T13DiscardAdvice) -> int:
    """Deadwood left when ``advice`` is followed."""
    if advice.discard is None:
        assert advice.keep_deadwood is not None
        return advice.keep_deadwood
    for o in advice.options:
        if o.card == advice.discard:
            return o.deadwood
    raise AssertionError("the advised discard is one of the options")


def _stock_value(
    situation: T13Situation,
    unseen: tuple[int, ...],
    seed: int,
    danger_samples: int,
    cap: int,
    precision: float,
    target: float | None,
    bases: _DrawBases,
) -> tuple[float, float, float, float, float, int, bool]:
    """Mean value of the hand after a stock draw: (mean, 95% low, high, mean deadwood kept,
    chance of going out, stock cards evaluated, exact)."""
    n = len(unseen)
    if not n:
        return math.inf, math.inf, math.inf, math.inf, 0.0, 0, True
    order = list(unseen)
    random.Random(seed ^ 0x5EED).shuffle(order)
    last_turn = situation.out is not None
    if last_turn:  # no lookahead: cheap, so exact over every distinct card
        cap = n
    cache: dict[int, tuple[float, int, bool]] = {}
    work = 0
    # Control variate: the deadwood after drawing each card and throwing the best one (what the
    # hand before the draw reads directly, for every unseen card) tracks the value closely and
    # its mean over the unseen cards is exact, so only the difference is estimated by sampling.
    proxy: dict[int, float] = {}
    proxy_mean = 0.0
    if not last_turn:
        after = bases.memo.after_adding
        for card in set(order):
            proxy[card] = float(after(bases.whole, card))
        work += len(proxy)
        proxy_mean = sum(proxy[c] for c in order) / n
    diffs: list[float] = []
    dws: list[int] = []
    outs = 0
    for card in order:
        got = cache.get(card)
        if got is None:
            i = unseen.index(card)
            adv = _discard(
                _after_draw(situation, card, from_pile=False),
                seed,
                danger_samples,
                False,
                bases,
                card,
                (*unseen[:i], *unseen[i + 1 :]),  # one copy of the card fewer
            )
            got = (adv.value, _kept_deadwood(adv), adv.go_out)
            cache[card] = got
            work += adv.work
        diffs.append(got[0] - proxy.get(card, 0.0))
        dws.append(got[1])
        outs += got[2]
        k = len(diffs)
        if k == n:
            break
        if not last_turn and stock_settled(diffs, n, proxy_mean, target, cap, precision):
            break
        if not last_turn and work >= DRAW_WORK_CAP:
            break
    k = len(diffs)
    mean = proxy_mean + sum(diffs) / k
    half = _half_width(diffs, n, _quantile(k))
    return mean, mean - half, mean + half, sum(dws) / k, outs / k, k, k == n


def stock_settled(
    diffs: Sequence[float],
    population: int,
    proxy_mean: float,
    target: float | None,
    cap: int,
    precision: float,
    margin: float = CLEAR_MARGIN,
) -> bool:
    """Whether the stock's sampling stops after the stock cards whose value less control
    variate are ``diffs`` (of ``population`` unseen cards; ``target``: the take's value, None
    when there is no choice to make): at ``cap`` cards, once the 95% interval is within
    ``precision`` or excludes ``target`` from ``MIN_STOCK_SAMPLES`` cards on; before that only
    once Student's interval excludes ``target``, or after one card once its estimate is more
    than ``margin`` points from it (``bench/t13_stock_margin.py`` measures this rule)."""
    k = len(diffs)
    mean = proxy_mean + sum(diffs) / k
    if k >= min(cap, MIN_STOCK_SAMPLES):
        half = _half_width(diffs, population)
        return k >= cap or half <= precision or (target is not None and abs(mean - target) > half)
    if target is None:
        return False
    if k == 1:
        return abs(mean - target) > margin
    return abs(mean - target) > _half_width(diffs, population, _quantile(k))


def _quantile(cards: int) -> float:
    """The 97.5% quantile of the stock mean's interval from ``cards`` stock cards: Student's
    below ``MIN_STOCK_SAMPLES`` cards (so few that the normal one would be too narrow)."""
    if 2 <= cards < MIN_STOCK_SAMPLES:
        return T_975[cards - 1]
    return 1.96


def _half_width(values: Sequence[float], population: int, quantile: float = 1.96) -> float:
    """95% half-width of the mean of ``values`` drawn without replacement from ``population``
    (``quantile`` of the normal, or of Student's t for very few values)."""
    k = len(values)
    if k >= population:
        return 0.0
    if k < 2:
        return math.inf
    m = sum(values) / k
    var = sum((v - m) ** 2 for v in values) / (k - 1)
    fpc = (population - k) / (population - 1) if population > 1 else 0.0
    return quantile * math.sqrt(var / k * fpc)


def _draw_sentence(
    situation: T13Situation,
    top: int | None,
    take: T13DiscardAdvice | None,
    passing: bool,
    take_it: bool,
    mean: float,
    dw_mean: float,
) -> str:
    if top is None or take is None:
        return "Draw from the stock: the discard pile is empty."
    name = card_name(top)
    if take_it and take.go_out:
        assert take.discard is not None
        return (
            f"Take {name}: with it you can discard {card_name(take.discard)} and go out now "
            "(T13-5)."
        )
    if passing:
        return (
            f"Draw from the stock: with {name} your best discard would be {name} itself, so "
            "taking it gains nothing a stock card cannot give."
        )
    left = _kept_deadwood(take)
    after = "keep every card" if take.discard is None else f"discard {card_name(take.discard)}"
    if take_it:
        return (
            f"Take {name} and {after}: that hand is worth {take.value:.1f} (deadwood {left}, "
            f"lower is better) against {mean:.1f} on average from a stock card."
        )
    return (
        f"Draw from the stock: a stock card is worth {mean:.1f} on average (about {dw_mean:.1f} "
        f"deadwood points kept) against {take.value:.1f} with {name} ({after}, deadwood {left})."
    )


__all__ = [
    "DEFAULT_PRECISION",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_STOCK_SAMPLES",
    "MAX_SAMPLES",
    "MAX_STOCK_SAMPLES",
    "T13DiscardAdvice",
    "T13DiscardOption",
    "T13DrawAdvice",
    "T13Situation",
    "clear_caches",
    "risk_of",
    "sample_next_hands",
    "t13_discard_advice",
    "t13_draw_advice",
    "unseen_for",
]
