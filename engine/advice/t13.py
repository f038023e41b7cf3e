"""Three Thirteen advice: which card to discard (and whether to go out), and where to draw from.

The model (issue 4, "state the model in the docs"):

* **Unseen cards** are every copy of the ``decks`` decks (T13-2) that is not in the player's hand,
  not in the discard pile and not known to be in an opponent's hand (cards an opponent picked up
  from the discard pile and has not thrown back). Cards known to be elsewhere are never imagined
  in an opponent's hand or drawn from the stock.
* **Deadwood** is C-2's best-arrangement deadwood under T13-3/T13-4 (wild rank of the round,
  aces rule), computed by the fast memoised search :func:`t13_deadwood` below (cross-checked
  against ``engine.std_arrange.min_deadwood`` in the tests).
* **Expected deadwood after the next draw** of a discard option: the mean over the unseen cards
  (each copy equally likely to be the next stock card; an exact enumeration, not a sample) of
  the best deadwood after drawing it and discarding optimally. This is also exactly what the
  player scores when an opponent goes out before their next turn (T13-5: the last turn is a
  draw and a discard), so it is the right measure both late and early in a round.
* **Outs** of an option: unseen cards (copies counted) that would lower its deadwood next turn;
  ``go_out_chance`` the share of unseen cards with which the player could go out next turn.
* **Danger**: the next player (seat to the left) takes a discard when it lowers their best
  deadwood (the club player's rule, which the baseline policy plays). Their hand is sampled
  ``samples`` times (seeded) from the unseen cards, always containing the cards they are known to
  hold; ``danger`` is the share of samples in which the discard helps them and
  ``danger_points`` the mean deadwood it saves them. No danger on a last turn when the next
  player has no turn left.
* **Score** (lower is better): ``expected_deadwood + 0.1 * danger_points - 6 * go_out_chance``
  (:data:`DANGER_WEIGHT`, :data:`GO_OUT_WEIGHT`); on a last turn (T13-5) the deadwood left now
  replaces the expectation. Options that go out rank first, with score
  ``0.1 * danger_points``.
* **Going out** (T13-5): when a discard leaves the other r+2 cards fully melded, going out is
  always recommended (the least dangerous such discard). Holding is never better: the player's
  round score cannot go below 0, and every opponent's best deadwood can only fall while play
  goes on (a drawn card can always be thrown back), so waiting gives them chances, not risks.
* **Draw**: the top discard is worth the deadwood left after taking it and throwing the best
  card (certain); the stock its expectation over the unseen cards; each less
  ``6 * chance of going out now``. The lower wins; ties go to the stock.

Everything is deterministic for a given request, ``seed`` and ``samples``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.advice.common import unseen_cards
from engine.cards import POINTS, RANK_OF, SUIT_OF, card_name
from engine.errors import EngineError, HandError
from engine.hands import validate_distinct_across, validate_hand
from engine.rules import THREE_THIRTEEN, ThreeThirteenRules

INF = 1 << 30
MAX_ROUND = 11
DEFAULT_SEED = 13
DEFAULT_SAMPLES = 16
MAX_SAMPLES = 400

# --------------------------------------------------------------------------- deadwood search


def wild_rank(round_number: int) -> int:
    """T13-1: the wild rank index of round r (3s in round 1 ... kings in round 11) is r + 1."""
    return round_number + 1


def card_points(card: int, aces_high: bool) -> int:
    """T13-3: A = 1 (15 under ``aces: high_or_low``), 2-10 face value, J/Q/K = 10."""
    if aces_high and RANK_OF[card] == 0:
        return 15
    return POINTS[card]


def _order(card: int) -> int:
    # Rank-major order: the lowest natural of a hand is always processed first, so a run through
    # it has it as its lowest natural and every set of its rank is still whole.
    return RANK_OF[card] * 4 + SUIT_OF[card]


def _make_solver(aces_high: bool) -> Callable[[tuple[int, ...], int, int, bool, bool], int]:
    """A memoised C-2 deadwood search for one aces rule.

    ``best(naturals, wilds, wild_points, melded, free)`` is the fewest deadwood points of the
    naturals (non-wild cards, in rank-major order) plus ``wilds`` wild cards worth ``wild_points``
    each (T13-3: unmelded wilds count their own value). ``melded`` tells that a combination exists
    already (a spare wild can join it: sets have no length limit, T13-4). ``free`` asks for exactly
    one card to be thrown away first (the discard after a draw, T13-5).
    """
    points = tuple(card_points(c, aces_high) for c in range(52))

    @lru_cache(maxsize=1 << 17)  # ~10 cold round-11 requests; bounded memory in the service
    def best(nat: tuple[int, ...], w: int, wp: int, melded: bool, free: bool) -> int:
        if not nat:
            if free:
                if w == 0:
                    return INF
                w -= 1
            if w == 0 or melded or w >= 3:
                return 0
            return w * wp
        x = nat[0]
        rest = nat[1:]
        r = RANK_OF[x]
        s = SUIT_OF[x]
        # x is deadwood (or, with ``free``, the card thrown away).
        result = points[x] + best(rest, w, wp, melded, free)
        if free:
            result = min(result, best(rest, w, wp, melded, False))
            if result == 0:
                return 0
        # Sets of rank r through x (T13-4; two copies of one card may share a set). Rank-major
        # order puts the other naturals of rank r at the front of ``rest``.
        m = 0
        while m < len(rest) and RANK_OF[rest[m]] == r:
            m += 1
        if m or w >= 2:
            block = rest[:m]
            tail = rest[m:]
            for keep in _set_leftovers(block):
                need = max(0, 2 - (m - len(keep)))
                if need > w:
                    continue
                value = best(keep + tail, w - need, wp, True, free)
                if value < result:
                    result = value
                    if result == 0:
                        return 0
        # Runs of suit s with x as their lowest natural (one copy of each rank).
        above: dict[int, int] = {}
        for i, c in enumerate(rest):
            if SUIT_OF[c] == s and RANK_OF[c] > r and RANK_OF[c] not in above:
                above[RANK_OF[c]] = i
        ranks = sorted(above)
        if ranks or w >= 2:
            value = _runs(best, rest, ranks, above, r, r, 1, 0, (), w, wp, free)
            if value < result:
                result = value
                if result == 0:
                    return 0
        if aces_high and r == 0:
            # T13-3 house rule: Q-K-A, the ace on top (position 13), no wrap-around.
            below = {
                RANK_OF[c]: i for i, c in enumerate(rest) if SUIT_OF[c] == s and RANK_OF[c] > 0
            }
            franks = sorted(below, reverse=True)
            value = _runs(best, rest, franks, below, 13, 13, 1, 0, (), w, wp, free, True)
            if value < result:
                result = value
        return result

    return best


@lru_cache(maxsize=4096)
def _set_leftovers(block: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct sub-multiset of ``block`` left out of a set (kept in rank-major order)."""
    out: set[tuple[int, ...]] = set()
    for mask in range(1 << len(block)):
        out.add(tuple(c for i, c in enumerate(block) if not mask >> i & 1))
    return tuple(sorted(out, key=len))


def _runs(
    best: Callable[[tuple[int, ...], int, int, bool, bool], int],
    rest: tuple[int, ...],
    ranks: list[int],
    at: dict[int, int],
    start: int,
    end: int,
    count: int,
    gaps: int,
    chosen: tuple[int, ...],
    w: int,
    wp: int,
    free: bool,
    down: bool = False,
) -> int:
    """Best value over runs from ``start`` (their lowest natural) whose highest natural so far is
    ``end``; with ``down``, runs with the ace on top (``start`` 13) going down through ``end``.
    ``ranks`` lists the suit's other naturals in the direction of travel."""
    span = abs(end - start) + 1
    need = gaps + max(0, 3 - span)
    result = INF
    # Going down, a lone ace with wilds is already covered by the low-ace runs and sets.
    if need <= w and (count >= 2 or not down):
        left = tuple(c for i, c in enumerate(rest) if i not in chosen)
        result = best(left, w - need, wp, True, free)
        if result == 0:
            return 0
    for t in ranks:
        if (t >= end) if down else (t <= end):
            continue
        g = gaps + abs(t - end) - 1
        if g > w:
            break
        value = _runs(
            best, rest, ranks, at, start, t, count + 1, g, (*chosen, at[t]), w, wp, free, down
        )
        if value < result:
            result = value
            if result == 0:
                return 0
    return result


_SOLVERS = {False: _make_solver(False), True: _make_solver(True)}


@dataclass(frozen=True, slots=True)
class T13Scorer:
    """Deadwood functions for one round and aces rule (T13-1 wild rank, T13-3 values)."""

    round_number: int
    aces_high: bool = False
    wild: int = field(init=False)
    wild_points: int = field(init=False)

    def __post_init__(self) -> None:
        wild = wild_rank(self.round_number)
        object.__setattr__(self, "wild", wild)
        # The spade of the wild rank has card int == rank (suit 0); every wild is worth the same.
        object.__setattr__(self, "wild_points", card_points(wild, False))

    @classmethod
    def for_rules(cls, round_number: int, rules: ThreeThirteenRules | None = None) -> T13Scorer:
        """The scorer of ``round_number`` under ``rules`` (default: aces low)."""
        return cls(round_number, (rules or ThreeThirteenRules()).aces == "high_or_low")

    def _split(self, hand: Sequence[int]) -> tuple[tuple[int, ...], int]:
        wild = self.wild
        nat = sorted((c for c in hand if RANK_OF[c] != wild), key=_order)
        return tuple(nat), len(hand) - len(nat)

    def is_wild(self, card: int) -> bool:
        """True when ``card`` is of the round's wild rank (T13-1)."""
        return RANK_OF[card] == self.wild

    def points(self, card: int) -> int:
        """Deadwood value of ``card`` (T13-3)."""
        return card_points(card, self.aces_high)

    def deadwood(self, hand: Sequence[int]) -> int:
        """C-2 best-arrangement deadwood points of ``hand``."""
        nat, w = self._split(hand)
        return _SOLVERS[self.aces_high](nat, w, self.wild_points, False, False)

    def after_discard(self, hand: Sequence[int]) -> int:
        """Fewest deadwood points left after throwing away the best single card of ``hand``."""
        nat, w = self._split(hand)
        return _SOLVERS[self.aces_high](nat, w, self.wild_points, False, True)


def clear_caches() -> None:
    """Forget every memoised deadwood value (benchmarks time cold requests with this)."""
    for solver in _SOLVERS.values():
        solver.cache_clear()  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class _Profile:
    """A hand with its deadwood, best-discard deadwood and the facts that tell whether an added
    card can ever be melded (see :func:`after_adding`)."""

    hand: tuple[int, ...]
    deadwood: int
    after_discard: int
    wilds: int
    ranks: frozenset[int]
    near: frozenset[tuple[int, int]]


def profile(scorer: T13Scorer, hand: Sequence[int]) -> _Profile:
    """Precompute what :func:`after_adding` needs for ``hand``."""
    ranks: set[int] = set()
    near: set[tuple[int, int]] = set()
    wilds = 0
    for c in hand:
        r = RANK_OF[c]
        if r == scorer.wild:
            wilds += 1
            continue
        ranks.add(r)
        s = SUIT_OF[c]
        positions = (r, 13) if scorer.aces_high and r == 0 else (r,)
        for pos in positions:
            for d in (-2, -1, 1, 2):
                near.add((s, pos + d))
    return _Profile(
        tuple(hand),
        scorer.deadwood(hand),
        scorer.after_discard(hand),
        wilds,
        frozenset(ranks),
        frozenset(near),
    )


def after_adding(scorer: T13Scorer, prof: _Profile, card: int) -> int:
    """Best deadwood after adding ``card`` to the profiled hand and discarding one card.

    Shortcut (exact): with at most one wild in the hand, a natural card that shares no rank with
    a natural of the hand and lies more than two ranks from every natural of its suit can be in
    no combination (T13-4: a combination needs three cards, at most one of them wild). Then it
    is either thrown back (the hand's deadwood) or kept as deadwood while the best other card
    goes (its points plus the hand's best-discard deadwood).
    """
    r = RANK_OF[card]
    if prof.wilds <= 1 and r != scorer.wild and r not in prof.ranks:
        s = SUIT_OF[card]
        if (s, r) not in prof.near and not (scorer.aces_high and r == 0 and (s, 13) in prof.near):
            return min(prof.deadwood, scorer.points(card) + prof.after_discard)
    return scorer.after_discard((*prof.hand, card))


def t13_deadwood(
    hand: Sequence[int], round_number: int, rules: ThreeThirteenRules | None = None
) -> int:
    """C-2 deadwood points of a Three Thirteen hand in ``round_number`` (T13-1, T13-3, T13-4)."""
    return T13Scorer.for_rules(round_number, rules).deadwood(hand)


# --------------------------------------------------------------------------- requests and answers


@dataclass(frozen=True, slots=True)
class T13Situation:
    """What the advised player knows (engine ints throughout).

    ``hand``: the player's cards (r+3 after the draw for discard advice, r+2 before it for draw
    advice). Opponents are indexed clockwise from the player's left (index 0 is the next
    player). ``discard_pile`` is top first. ``known[j]`` are cards opponent ``j`` is known to hold
    (picked up from the discard pile and not thrown back); ``hand_sizes[j]`` how many cards it
    holds (default r+2). ``out`` is the index of the opponent who has gone out (T13-5: this is
    the player's last turn), or None. ``decks`` defaults to one (T13-2: two for 3-4 players).
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


@dataclass(frozen=True, slots=True)
class T13DiscardOption:
    """One distinct card to discard, with the figures of issue 4 (lower ``score`` is better)."""

    card: int
    deadwood: int
    outs: int
    expected_deadwood: float
    go_out_chance: float
    danger: float
    danger_points: float
    score: float
    goes_out: bool


@dataclass(frozen=True, slots=True)
class T13DiscardAdvice:
    """Every distinct discard ranked best first, the recommended ``discard``, and ``go_out``
    (T13-5: True when the discard leaves the other cards fully melded)."""

    options: tuple[T13DiscardOption, ...]
    discard: int
    go_out: bool
    explanation: str
    unseen: int
    samples: int
    seed: int


@dataclass(frozen=True, slots=True)
class T13DrawAdvice:
    """Take the top discard (``take_discard``) or draw from the stock, with the expected deadwood
    after this turn's discard for each choice (``take_expected`` is None with no discard; taking
    is certain, so it is the deadwood left after throwing ``discard_after_take``)."""

    take_discard: bool
    top: int | None
    take_expected: float | None
    discard_after_take: int | None
    stock_expected: float
    stock_go_out_chance: float
    explanation: str
    unseen: int


# Score weights, checked by bench/tournament_t13.py against the baseline (paired 120-game runs,
# mean margin per game: danger weight 1.0 -> +6.2, 0.5 -> +14.3, 0.25 -> +17.6, 0 -> +19.7
# points): the next player's likely gain is a tie-breaker, not a cost in points, because what a
# discard gives them is mostly what they would soon have drawn anyway. A certain go-out next
# turn is worth six points beyond the zero it already adds to the expected deadwood.
DANGER_WEIGHT = 0.1
GO_OUT_WEIGHT = 6.0


def _check(situation: T13Situation, samples: int, sizes: tuple[int, ...]) -> None:
    """Validate once at the entry point (T13-1, T13-2, C-1).

    :raises EngineError: bad round, decks, samples, hand size or too many copies of a card.
    """
    r = situation.round_number
    if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= MAX_ROUND:
        raise EngineError(f"round {r!r} is not one of 1..11 (T13-1)", field="round_number")
    if not 1 <= situation.decks <= 8:
        raise EngineError("decks must be a whole number 1..8 (T13-2)", field="decks")
    if not 2 <= situation.players <= 8 or len(situation.known) > situation.players - 1:
        raise EngineError("players must be 2..8 with one entry per opponent", field="players")
    if situation.out is not None and not 0 <= situation.out < situation.players - 1:
        raise EngineError("out must name an opponent (0 = the next player)", field="out")
    if len(situation.hand_sizes) > situation.players - 1 or any(
        size < 0 for size in situation.hand_sizes
    ):
        raise EngineError("hand_sizes needs one count >= 0 per opponent", field="hand_sizes")
    if not 1 <= samples <= MAX_SAMPLES:
        raise EngineError(f"samples must be 1..{MAX_SAMPLES}", field="samples")
    if len(situation.hand) not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise HandError(
            f"the hand holds {len(situation.hand)} cards; round {r} needs {want} here",
            field="hand",
        )
    validate_hand(THREE_THIRTEEN, situation.hand, round_number=r, decks=situation.decks)
    groups: list[tuple[str, Sequence[int]]] = [
        ("hand", situation.hand),
        ("discard_pile", situation.discard_pile),
    ]
    groups.extend((f"known[{j}]", k) for j, k in enumerate(situation.known))
    validate_distinct_across(THREE_THIRTEEN, groups, decks=situation.decks)


def unseen_for(situation: T13Situation) -> tuple[int, ...]:
    """Unseen copies (T13-2 decks) not in hand, discard pile or an opponent's known cards."""
    deck = tuple(range(52)) * situation.decks
    return unseen_cards(deck, situation.hand, (), situation.discard_pile, situation.known)


def _draw_stats(
    scorer: T13Scorer, hand: Sequence[int], unseen_counts: Sequence[tuple[int, int]], total: int
) -> tuple[float, int, float]:
    """(expected deadwood after drawing one unseen card and discarding the best, outs, chance of
    going out) for ``hand``; ``unseen_counts`` pairs each distinct unseen card with its copies."""
    prof = profile(scorer, hand)
    base = prof.deadwood
    if not total:
        return float(base), 0, 0.0
    acc = 0
    outs = 0
    zero = 0
    for card, copies in unseen_counts:
        v = after_adding(scorer, prof, card)
        acc += v * copies
        if v < base:
            outs += copies
        if v == 0:
            zero += copies
    return acc / total, outs, zero / total


def _next_player_hands(
    situation: T13Situation, unseen: Sequence[int], rng: random.Random, samples: int
) -> list[tuple[int, ...]]:
    """``samples`` draws of the next player's hand: their known cards plus uniform unseen cards.

    T13 has no laying down before going out (T13-5, T13-7), so no meld constraint applies: this
    is ``engine.advice.common.sample_hidden`` with ``lay_probability=0`` (a uniform draw without
    replacement from the unseen cards), inlined because it is one line.
    """
    if situation.players < 2:
        return []
    known = situation.known[0] if situation.known else ()
    size = situation.hand_sizes[0] if situation.hand_sizes else situation.round_number + 2
    hidden = max(0, min(size - len(known), len(unseen)))
    return [(*known, *rng.sample(unseen, hidden)) for _ in range(samples)]


def sample_next_hands(
    situation: T13Situation, *, seed: int = DEFAULT_SEED, samples: int = DEFAULT_SAMPLES
) -> list[tuple[int, ...]]:
    """The next player's hands the advice imagines (known cards + unseen cards), for tests/docs."""
    return _next_player_hands(situation, unseen_for(situation), random.Random(seed), samples)


def t13_discard_advice(
    situation: T13Situation, *, seed: int = DEFAULT_SEED, samples: int = DEFAULT_SAMPLES
) -> T13DiscardAdvice:
    """Rank every distinct discard of a hand after the draw (r+3 cards) and say whether to go out.

    :raises EngineError: invalid situation (see :func:`_check`).
    """
    r = situation.round_number
    _check(situation, samples, (r + 3,))
    scorer = T13Scorer.for_rules(r, situation.rules)
    hand = situation.hand
    unseen = unseen_for(situation)
    counts = sorted(Counter(unseen).items())
    total = len(unseen)
    last_turn = situation.out is not None
    next_plays = not last_turn or situation.out != 0
    rng = random.Random(seed)
    opp_hands = _next_player_hands(situation, unseen, rng, samples) if next_plays else []
    opp_profiles = [profile(scorer, h) for h in opp_hands]

    options: list[T13DiscardOption] = []
    for card in sorted(set(hand)):
        rest = list(hand)
        rest.remove(card)
        dw = scorer.deadwood(rest)
        if last_turn:
            expected, outs, chance = float(dw), 0, 0.0
        else:
            expected, outs, chance = _draw_stats(scorer, rest, counts, total)
        helped = 0
        gain = 0
        for prof in opp_profiles:
            g = prof.deadwood - after_adding(scorer, prof, card)
            if g > 0:
                helped += 1
                gain += g
        danger = helped / len(opp_profiles) if opp_profiles else 0.0
        danger_points = gain / len(opp_profiles) if opp_profiles else 0.0
        goes_out = dw == 0 and not last_turn
        if goes_out:  # T13-5: scores 0 for sure; only what it hands the next player matters
            score = DANGER_WEIGHT * danger_points
        else:
            score = expected + DANGER_WEIGHT * danger_points - GO_OUT_WEIGHT * chance
        options.append(
            T13DiscardOption(
                card, dw, outs, expected, chance, danger, danger_points, score, goes_out
            )
        )
    # Going out first (T13-5), then by score; ties: the higher card goes, then the card order.
    options.sort(key=lambda o: (not o.goes_out, o.score, -scorer.points(o.card), o.card))
    best = options[0]
    return T13DiscardAdvice(
        tuple(options),
        best.card,
        best.goes_out,
        _discard_sentence(best, options, scorer, last_turn),
        total,
        samples,
        seed,
    )


def _discard_sentence(
    best: T13DiscardOption,
    options: Sequence[T13DiscardOption],
    scorer: T13Scorer,
    last_turn: bool,
) -> str:
    name = card_name(best.card)
    if best.goes_out:
        return (
            f"Discard {name} and go out: the other cards are all in combinations, so you score 0 "
            "and the round ends after everyone's last turn (T13-5)."
        )
    if last_turn:
        return (
            f"Discard {name}: it leaves {best.deadwood} deadwood points, the fewest you can keep."
        )
    lowest = min(o.deadwood for o in options)
    parts = [
        f"Discard {name}: it leaves {best.deadwood} deadwood points and about "
        f"{best.expected_deadwood:.1f} after your next draw, with {best.outs} unseen cards "
        "that help"
    ]
    if best.deadwood > lowest:
        parts.append(f", better than the lowest-deadwood discard ({lowest} points) for its outs")
    if best.danger > 0.3:
        parts.append(f"; it may help the next player ({best.danger:.0%} of their likely hands)")
    elif any(o.danger > 0.3 and o.deadwood <= best.deadwood for o in options):
        parts.append(", and it is safer to throw than cards the next player likely wants")
    return "".join(parts) + "."


def t13_draw_advice(
    situation: T13Situation, *, seed: int = DEFAULT_SEED, samples: int = DEFAULT_SAMPLES
) -> T13DrawAdvice:
    """Take the top discard or draw from the stock, for a hand before the draw (r+2 cards).

    Both choices are valued by the expected deadwood left after this turn's best discard: the
    top discard is certain, a stock card is averaged over the unseen cards. Taking also wins when
    it lets the player go out now (T13-5). ``seed``/``samples`` are accepted for a uniform
    interface; the figures are exact enumerations.

    :raises EngineError: invalid situation (see :func:`_check`).
    """
    r = situation.round_number
    _check(situation, samples, (r + 2,))
    scorer = T13Scorer.for_rules(r, situation.rules)
    hand = situation.hand
    unseen = unseen_for(situation)
    counts = sorted(Counter(unseen).items())
    total = len(unseen)
    last_turn = situation.out is not None
    stock_expected, _outs, stock_chance = _draw_stats(scorer, hand, counts, total)
    top = situation.discard_pile[0] if situation.discard_pile else None
    if top is None:
        return T13DrawAdvice(
            False,
            None,
            None,
            None,
            stock_expected,
            stock_chance,
            "Draw from the stock: the discard pile is empty.",
            total,
        )
    take = scorer.after_discard((*hand, top))
    after_take = _best_discard(scorer, (*hand, top))
    weight = 0.0 if last_turn else GO_OUT_WEIGHT
    take_score = take - (weight if take == 0 else 0.0)
    stock_score = stock_expected - weight * stock_chance
    take_it = take_score < stock_score
    name = card_name(top)
    if take_it and take == 0 and not last_turn:
        text = f"Take {name}: with it you can go out now (T13-5)."
    elif take_it:
        text = (
            f"Take {name}: it leaves {take} deadwood points after your discard, against about "
            f"{stock_expected:.1f} expected from a stock card."
        )
    else:
        text = (
            f"Draw from the stock: about {stock_expected:.1f} deadwood points expected after your "
            f"discard, against {take} with {name}."
        )
    return T13DrawAdvice(
        take_it, top, float(take), after_take, stock_expected, stock_chance, text, total
    )


def _best_discard(scorer: T13Scorer, hand: Sequence[int]) -> int:
    """The greedy discard: fewest deadwood points left, ties the higher card, then card order."""
    best: tuple[int, int, int] | None = None
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        key = (scorer.deadwood(rest), -scorer.points(card), card)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[2]


__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "MAX_SAMPLES",
    "T13DiscardAdvice",
    "T13DiscardOption",
    "T13DrawAdvice",
    "T13Scorer",
    "T13Situation",
    "clear_caches",
    "sample_next_hands",
    "t13_deadwood",
    "t13_discard_advice",
    "t13_draw_advice",
    "unseen_for",
]
