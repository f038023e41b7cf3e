"""Knock (Triple Tunk, TT-13) / drop (Game Flip Flop, GFF-8) advice.

``win_probability`` is the chance that the player's hand total is strictly the lowest right now,
estimated by Monte Carlo over opponents' hands sampled consistently with everything known
(:func:`engine.advice.tunk.common.sample_hidden`).

Opponent model (``engine.advice.tunk.common``, ``engine.advice.tunk.styles.behaviour``): an
opponent who
has played a turn is a mixture of three hypotheses weighted by the likelihood of what it did
(its discards, its melds on the table after its turns): baseline-like (holds no meld, no card it
could lay off, nothing above the lowest card it discarded or left on the pile), hoarder (holds a
meld, its other cards as the baseline's) and random (uniform hidden cards); an opponent who has
not played yet is unconstrained. Known pickups and the GFF-5 flip card (in the dealer's hand
until seen elsewhere) are always in the hands they are known to be in, never elsewhere.

The payout of knocking now is in stakes (GFF) or units (TT), averaged over the same samples:

- GFF-8: a strictly lowest dropper takes the game pot, ``n - 1`` stakes net; a caught dropper
  pays its stake plus one extra stake, ``-2``.
- TT-13/TT-14: a strictly lowest knocker gets its multiplier from every other player; a caught
  knocker pays every player who tied or beat it that player's multiplier (early tunk x2, special
  bonus of its own table melds). TT-12: a positive waiting counter forbids knocking.

GFF-8 payouts come from the settlement itself (:func:`drop_payouts`, ``engine.games.gff.settle``)
with
the situation's money when it is known (``Observation.bankrolls`` and ``stake``: GFF-6 decides
who is dealt in, hence the game pot), else one stake from every seat with cards.

The value of playing on is read from the one hand evaluation of :mod:`engine.advice.tunk.value`
(the value ``discard`` and ``draw`` give the same hand: ``Evaluator.keep(hand).value``, deadwood,
expected deadwood after the next draw and the chance to empty the hand), fitted from play:

- GFF: a plane in (win probability, hand value) in stakes (:data:`PLAY_ON_LINE`);
- TT: knocking's expected payout plus the advantage of playing on over knocking now
  (:data:`PLAY_ON_ADVANTAGE`), read also from that payout, the fewest cards an opponent holds and
  the cards drawn from the stock (:class:`PlayOnState`).

The advice knocks when the expected payout of knocking beats that value; the answer reports the
hand value it used (``hand_value``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from engine.advice.situation import Observation
from engine.advice.tunk.common import (
    GFF_MODEL,
    GameModel,
    HandSampler,
    known_hands,
    model_for,
    unseen_cards,
)
from engine.advice.tunk.styles import (
    behaviour,
    drop_chances,
    drop_style,
    drop_totals,
    passes_posterior,
)
from engine.advice.tunk.value import Evaluator, KeepFigures
from engine.core.errors import EngineError
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.stats import wilson_interval
from engine.core.types import TableMeld
from engine.games import find_game
from engine.games.gff.play import gff_going_out, spread_kind
from engine.games.gff.settle import Drop, settle_gff, stakes_for
from engine.games.tt.play import extenders, owned_special_bonus, tt_can_tunk_out
from engine.games.tt.settle import multiplier

DEFAULT_SAMPLES = 500  # ~5 ms per knock question, 95% interval half-width <= 0.044
MAX_SAMPLES = 20_000  # hard cap: more is refused (EngineError, field "samples")
DEFAULT_PRECISION = 0.02  # 95% half-width of the win probability where sampling stops
BATCH = 30
MIN_SAMPLES = 60
# A settled decision stops sampling only once the win probability is this precise: a cruder
# estimate would keep the advice but blur the reported probability (its calibration).
SETTLE_PRECISION = 0.05
# Work units one question may spend (one unit ~ one opponent card dealt in one sample); the
# largest table (6 players, every opponent constrained) gets WORK_BUDGET // 76 samples. Chosen
# so that the largest accepted request answers well under a second (bench/bench_advice.py).
WORK_BUDGET = 75_000
MIN_CAP = 500
DEFAULT_SEED = 0

# Game Flip Flop: the value of playing on, in stakes per deal, as a plane
# a + b * max(p, PLAY_ON_FLOOR) + c * v in the current win probability p and the hand value v
# (``Evaluator.keep(hand).value``, clamped to PLAY_ON_VALUE_RANGE), by players: the continuation
# value of the stopping decision "drop now or play on". Learned from play against a varied
# table, so that no one opponent's habits set it: ``python -m bench.tournament --game
# game-flip-flop --players N --mix strong,strong0,knock5,knock10,hoarder,self --deals 1200
# --seed 31 --record-play-on --explore 0.5`` (the advisor against each of those six styles in
# turn, playing on at random half of the times it would drop) records the final game-pot
# settlement after playing on against (p, v) and prints the least-squares fits over the
# decisions with p >= PLAY_ON_FLOOR. Other player counts use the nearest plane. Points (R^2):
# 2 players 18,336 (0.024), 3 players 9,104 (0.049), 4 players 5,146 (0.074); the hand value
# median is 14-19, most hands at the clamp of 20.
PLAY_ON_FLOOR = 0.3
PLAY_ON_VALUE_RANGE: dict[str, tuple[float, float]] = {GAME_FLIP_FLOP: (-20.0, 20.0)}
PLAY_ON_LINE: dict[tuple[str, int], tuple[float, float, float]] = {
    (GAME_FLIP_FLOP, 2): (0.438, 0.470, -0.0156),
    (GAME_FLIP_FLOP, 3): (0.476, 1.157, -0.0225),
    (GAME_FLIP_FLOP, 4): (0.749, 1.746, -0.0364),
}

# Triple Tunk: the value of playing on is knocking's payout now plus the advantage of playing
# on, a linear model (:func:`play_on_advantage`) in the win chance p, the hand value v, the
# payout of knocking now, the fewest cards an opponent holds and the cards drawn from the stock
# this deal. Fitted over every win chance (a line in v fitted only where p >= 0.3 once knocked
# hopeless hands into a catch), to what playing on actually gave minus what a knock right then
# would have paid by the real hands (``engine.sim.tt.knock_outcome``), at the knock questions
# where the advisor played on (and at random half of those where it would have knocked, weighted
# twice), against strong, strong0, knock5, knock10, hoarder and self in turn: ``python -m
# bench.play_on_fit --players 2,3,4 --deals 10000 --seed 33 --jobs 2`` (75,938 / 56,477 /
# 44,569 questions at 2 / 3 / 4 players; R^2 0.265 / 0.340 / 0.391), played with the first
# fit of the same model installed (seeds 31 and 32, 5,000 deals a style). Other player counts
# use the nearest table. Coefficients, in the order of :func:`play_on_features`:
# fmt: off
PLAY_ON_ADVANTAGE: dict[tuple[str, int], tuple[float, ...]] = {
    (TRIPLE_TUNK, 2): (2.1855, 0.6672, -7.2238, -0.1076, -0.0065, -0.0342,
                       0.0011, 0.0918, -0.1551, -0.8922, 0.1919, 4.2306),
    (TRIPLE_TUNK, 3): (2.2397, 2.0657, -6.5212, -0.1870, -0.0361, -0.1326,
                       0.0723, -0.0380, -0.4663, -1.8645, -0.8451, 2.5914),
    (TRIPLE_TUNK, 4): (1.4662, 9.7362, -7.4122, -0.2604, -0.0544, -0.2348,
                       0.0747, -0.1002, -1.5710, -1.7998, -1.4321, 1.8519),
}
# fmt: on
ADVANTAGE_VALUE_RANGE = (-20.0, 20.0)  # the hand values the advantage fits saw
CLOSEST_OUT_CAP = 4  # an opponent holding more cards than this is no nearer tunking out
# Stock draws past this read as this many: most Triple Tunk deals end sooner; a Game Flip Flop
# hand ends when the stock runs out (GFF-11), from 42 cards at 2 players.
DRAWN_CAP: dict[str, int] = {TRIPLE_TUNK: 20, GAME_FLIP_FLOP: 40}


@dataclass(frozen=True, slots=True)
class KnockAdvice:
    """Answer to "should I knock/drop now?".

    ``interval`` is the 95% Wilson interval of ``win_probability`` over ``samples`` draws;
    ``expected_payout``, ``payout_if_win``, ``payout_if_caught`` (GFF; TT: None, a caught
    knocker pays each winner's multiplier) and ``value_of_playing_on`` are in stakes (GFF) or
    units (TT); ``allowed`` is False when TT-12 waiting forbids knocking (then ``knock`` is
    False). ``hand`` holds the figures of the one hand evaluation the play-on value is computed
    from (its ``value`` is ``hand_value``); ``all_in`` (GFF-6) says losing the game pot
    eliminates the player.
    """

    knock: bool
    allowed: bool
    hand_total: int
    win_probability: float
    interval: tuple[float, float]
    samples: int
    expected_payout: float
    payout_if_win: float
    value_of_playing_on: float
    explanation: str
    hand: KeepFigures | None = None
    payout_if_caught: float | None = None
    all_in: bool = False

    @property
    def hand_value(self) -> float | None:
        """The hand's value in the one evaluation (lower is better), as discard/draw give it."""
        return None if self.hand is None else self.hand.value


def drop_payouts(obs: Observation, opponents: Sequence[int]) -> tuple[float, float]:
    """GFF-8: the dropper's net in stakes when it wins / is caught, from :func:`settle_gff`.

    With ``obs.bankrolls`` and ``obs.stake`` the real GFF-6 stakes decide who is dealt in (they
    must agree with the seats holding cards); otherwise every seat holding cards is dealt in
    with one stake. Only the game pot depends on the drop (the flip/flop pots and their
    carry-over are settled from the dealt cards, GFF-5, whichever way the deal ends), so the
    side pots are left out of both figures.

    :raises EngineError: (field ``bankrolls``) the bankrolls deal in other seats than those
        holding cards.
    """
    return _drop_payouts(
        obs.n_players, obs.seat, obs.dealer, frozenset(opponents), obs.stake, obs.bankrolls
    )


@lru_cache(maxsize=4096)
def _drop_payouts(
    n: int,
    seat: int,
    dealer: int,
    opponents: frozenset[int],
    stake: int,
    bankrolls: tuple[int, ...],
) -> tuple[float, float]:
    """:func:`drop_payouts` on hashable inputs (memoised: a settlement per question is slow)."""
    if not opponents:
        return 0.0, 0.0  # nobody to compare with: no game to win or lose
    dealt = {seat, *opponents}
    stake = stake if stake > 0 else 1
    if bankrolls:
        staking = {s for s, b in enumerate(bankrolls) if stakes_for(b, stake) > 0}
        if len(bankrolls) != n or staking != dealt:
            raise EngineError(
                "bankrolls deal in other seats than those holding cards (GFF-6)",
                field="bankrolls",
            )
    else:
        bankrolls = tuple(2 * stake if s in dealt else 0 for s in range(n))
    first_other = min(opponents, key=lambda s: (s - seat) % n)
    win = tuple(None if s not in dealt else (0 if s == seat else 1) for s in range(n))
    caught = tuple(None if s not in dealt else (0 if s == first_other else 1) for s in range(n))
    out = []
    for totals in (win, caught):
        result = settle_gff(bankrolls, stake, dealer, Drop(seat, totals))
        out.append(result.net[seat] / stake)
    return out[0], out[1]


def _gff_extenders(meld: tuple[int, ...], own: bool) -> frozenset[int]:
    """GFF-3: the cards that extend table spread ``meld`` (whoever owns it)."""
    return frozenset(c for c in GFF_MODEL.deck if spread_kind((*meld, c)) is not None)


def _tt_extenders(meld: tuple[int, ...], own: bool) -> frozenset[int]:
    """TT-8: the cards that extend table meld ``meld`` (``own``: the player's own)."""
    return frozenset(extenders(meld, own))


@dataclass(frozen=True, slots=True)
class _Knocking:
    """How a Tunk game ends a deal on a low total, chosen once per question by slug.

    ``word``/``doing``/``unit`` name it in the explanation; ``staked``: the deal is played for
    GFF-6 stakes and the payouts come from the GFF-8 settlement (a caught dropper pays a fixed
    penalty), else a caught TT-13 knocker pays each winner's TT-14 multiplier; ``extenders``
    the cards that lay off on a table meld (GFF-3 / TT-8); ``ends_play`` whether a seat can
    empty its hand after its draw (GFF-9 / GFF-10, TT-11).
    """

    word: str
    doing: str
    unit: str
    staked: bool
    extenders: Callable[[tuple[int, ...], bool], frozenset[int]]
    ends_play: Callable[[Sequence[int], Sequence[TableMeld], int], bool]


def _gff_ends_play(hand: Sequence[int], table: Sequence[TableMeld], seat: int) -> bool:
    return gff_going_out(hand, table, seat).can_end


_KNOCKING: dict[str, _Knocking] = {
    GAME_FLIP_FLOP: _Knocking("drop", "dropping", "stakes", True, _gff_extenders, _gff_ends_play),
    TRIPLE_TUNK: _Knocking("knock", "knocking", "units", False, _tt_extenders, tt_can_tunk_out),
}


def ends_play(game: str, hand: Sequence[int], table: Sequence[TableMeld], seat: int) -> bool:
    """Whether ``seat`` holding ``hand`` after its draw can empty it this turn (TT-11 tunk out;
    GFF-9 / GFF-10 tunk or go out)."""
    return _KNOCKING[game].ends_play(hand, table, seat)


def is_all_in(obs: Observation) -> bool:
    """GFF-6: the player stakes in the game pot only (k = 1) and is eliminated unless it wins
    the game pot (known only with ``bankrolls`` and ``stake``)."""
    knocking = _KNOCKING.get(obs.game)
    if knocking is None or not knocking.staked or not obs.bankrolls or obs.stake <= 0:
        return False
    return stakes_for(obs.bankrolls[obs.seat], obs.stake) == 1


def multipliers(obs: Observation) -> tuple[int, ...]:
    """TT-14 multiplier of each seat if it won by knock: early tunk x2 times its special bonus."""
    out = []
    for s in range(obs.n_players):
        early = bool(obs.early[s]) if s < len(obs.early) else False
        out.append(multiplier(early, owned_special_bonus(obs.table, s), False))
    return tuple(out)


@cache
def _points_ceiling(game: str) -> dict[int, int]:
    """Per point value: one more than the highest throwing order of a card worth that much."""
    model = model_for(game)
    out: dict[int, int] = {}
    for c in model.deck:
        p = model.points[c]
        out[p] = max(out.get(p, 0), model.order[c] + 1)
    return out


def discard_caps(
    obs: Observation, model: GameModel, opponents: Sequence[int] | None = None
) -> list[tuple[int, ...]]:
    """Per opponent (clockwise from the player's left): the throwing order of the cards it
    discarded or left on the discard pile (the caps of the opponent model: it would have taken
    a card lower than its highest and thrown that one)."""
    out: list[tuple[int, ...]] = []
    for j in obs.opponents() if opponents is None else opponents:
        history = obs.discard_history[j] if j < len(obs.discard_history) else ()
        passed = obs.declined[j] if j < len(obs.declined) else ()
        ceiling = _points_ceiling(obs.game)
        # Leaving a card of equal points is no information on which of them it holds.
        out.append(
            tuple(model.order[c] for c in history) + tuple(ceiling[model.points[c]] for c in passed)
        )
    return out


@lru_cache(maxsize=4096)
def _extenders(game: str, meld: tuple[int, ...], own: bool) -> frozenset[int]:
    """Every card of the deck that extends table meld ``meld`` (GFF-3 / TT-8; ``own``: the
    meld is the player's own). A table meld stays put for many turns, so this is kept."""
    return _KNOCKING[game].extenders(meld, own)


def layoff_cards(obs: Observation, cards: Sequence[int], seat: int) -> frozenset[int]:
    """The ``cards`` that ``seat`` could lay off on the table now (GFF-3 / TT-8)."""
    if not obs.table:
        return frozenset()
    fits: set[int] = set()
    for meld in obs.table:
        fits |= _extenders(obs.game, tuple(meld.cards), meld.owner == seat)
    return frozenset(fits.intersection(cards))


@dataclass(frozen=True, slots=True)
class _Estimate:
    """The Monte Carlo figures of one question: the win ``probability`` and its 95% ``interval``
    (over the effective number of draws when they are weighted), the draws made (``samples``),
    the mean ``payout`` of knocking now and the payout of a win."""

    probability: float
    interval: tuple[float, float]
    samples: int
    payout: float
    win_payout: float


def work_cap(obs: Observation) -> int:
    """The most samples one question may ask for: :data:`WORK_BUDGET` divided by the work of
    one sample (cards dealt to opponents, three times over for an opponent constrained by the
    opponent model, whose hands are redrawn when they hold a meld), at most MAX_SAMPLES."""
    units = 1
    for j in obs.opponents():
        size = obs.hand_sizes[j]
        played = j < len(obs.turns) and obs.turns[j] > 0
        units += size * (3 if played else 1)
    return max(MIN_CAP, min(MAX_SAMPLES, WORK_BUDGET // units))


def opponent_sampler(
    obs: Observation, only: int | None = None
) -> tuple[tuple[int, ...], HandSampler]:
    """The opponents dealt in (GFF-6) and the sampler of their hands that the win probability
    draws from: the opponent model (known cards, discard caps, lay-off bans, each opponent's
    behaviour mixture; see the module docstring). With ``only`` (a seat) only that opponent's
    hidden cards are drawn; the others hold just their known cards (a cheaper draw of one
    opponent's hand, ``engine.advice.tunk.profile``)."""
    model = model_for(obs.game)
    known = known_hands(obs)
    opponents = tuple(j for j in obs.opponents() if obs.hand_sizes[j] > 0)
    unseen = unseen_cards(
        model.deck, obs.hand, obs.table, obs.discards, [known[j] for j in opponents]
    )
    unseen_points = sorted(model.points[c] for c in unseen)
    sampler = HandSampler(
        unseen,
        [
            max(0, obs.hand_sizes[j] - len(known[j])) if only is None or j == only else 0
            for j in opponents
        ],
        [known[j] for j in opponents],
        [obs.turns[j] > 0 if j < len(obs.turns) else False for j in opponents],
        model,
        discard_caps(obs, model, opponents),
        layoffs=[layoff_cards(obs, unseen, j) for j in opponents],
        behaviours=[behaviour(obs, j, model, unseen_points) for j in opponents],
    )
    return opponents, sampler


# Draws of the other hands that one player's view of how likely lowest it is reads off
# (:func:`stop_chances`): per passing opponent, once per question.
VIEW_DRAWS = 100


def seen_by(obs: Observation, seat: int, hand: Sequence[int]) -> Observation:
    """The situation as ``seat`` sees it holding ``hand``: the same table, discards and counts,
    and nothing learned of the other players across deals (a view the asking player can
    rebuild for an opponent from what is public and one hand drawn for it)."""
    return replace(
        obs,
        seat=seat,
        hand=tuple(hand),
        profiles=(),
        drop_styles=(),
        drop_totals=(),
        keeps_flexible=(),
    )


def others_totals(obs: Observation, rng: random.Random, draws: int) -> tuple[int, list[int]]:
    """The players dealt in and the sorted totals of the other hands, drawn ``draws`` times
    from the opponent model of ``obs`` (what the player of ``obs`` reads of them)."""
    opponents, sampler = opponent_sampler(obs)
    return 1 + len(opponents), sorted(sampler.totals(rng, draws))


def stop_chances(
    obs: Observation, seat: int, hand: Sequence[int], rng: random.Random
) -> tuple[float, ...]:
    """Per total: the chance that ``seat``, playing "drops when likely lowest" and holding
    ``hand``'s cards but that total, stops at its turn start, read from its own view of the
    others (:func:`seen_by`, :data:`VIEW_DRAWS` draws; :func:`engine.advice.tunk.styles.
    drop_chances`). Its view, not the asking player's, is what it stops on: it sees the asking
    player's discards and not its hand."""
    players, totals = others_totals(seen_by(obs, seat, hand), rng, VIEW_DRAWS)
    return drop_chances(totals, players, obs.game)


def _drop_style_weights(obs: Observation, opponents: Sequence[int]) -> list[float]:
    """Per opponent: the weight of "drops when likely lowest" (``engine.advice.tunk.styles``) if
    it has passed up a turn start this deal (it has played a turn), else 0."""
    return [
        drop_style(obs, j) if j < len(obs.turns) and obs.turns[j] > 0 else 0.0 for j in opponents
    ]


def _estimate(
    obs: Observation,
    rng: random.Random,
    samples: int,
    precision: float | None = None,
    settle: bool = False,
    state: PlayOnState | None = None,
) -> _Estimate:
    """Monte Carlo over opponents' hands: ``samples`` draws, or, with ``precision``, batches
    of :data:`BATCH` until the Wilson 95% half-width of the win probability is at most
    ``precision`` (at least :data:`MIN_SAMPLES`, at most ``samples``); with ``settle`` also
    once the decision (knock or play on) is the same at both ends of the interval and its
    half-width is at most :data:`SETTLE_PRECISION` (the play-on value in ``state``).

    An opponent who has passed up a turn start is, with its "drops when likely lowest" weight
    ``r``, a player who stops on a total ``t`` with the chance ``c(t)`` of :func:`stop_chances`
    (read from its own view of the others, one hand drawn for it): a draw giving it ``t`` counts
    ``1 - r * c(t)`` times (``r`` after the totals it was seen to pass with, ``obs.passes``).
    The interval then uses the effective number of draws."""
    model = model_for(obs.game)
    opponents, sampler = opponent_sampler(obs)
    mine = model.total(obs.hand)
    n = 1 + len(opponents)
    caught_pay = -2.0
    if _KNOCKING[obs.game].staked:
        win_pay, caught_pay = drop_payouts(obs, opponents)  # GFF-8 via engine.games.gff.settle
        mult: tuple[int, ...] = ()
    else:
        mult = multipliers(obs)
        win_pay = float(mult[obs.seat] * (n - 1))

    lows = _drop_style_weights(obs, opponents)
    # Per weighed opponent (index into ``opponents``): its "likely lowest" weight after its
    # passes and its stop chance per total, the last entry read for any higher total.
    weighed: list[tuple[int, float, tuple[float, ...]]] = []
    if any(lows):
        drawn_hands = sampler.sample(rng)
        for i, (r, j) in enumerate(zip(lows, opponents, strict=True)):
            if r <= 0.0:
                continue
            chances = stop_chances(obs, j, drawn_hands[i], rng)
            passes = obs.passes[j] if j < len(obs.passes) else ()
            r = passes_posterior(r, passes, chances, drop_totals(obs, j))
            if chances and r > 0.0:
                weighed.append((i, r, chances))
    win_weight = pay = weight = squares = 0.0
    done = 0
    p = 0.0
    lo, hi = 0.0, 1.0
    while done < samples:
        batch = samples - done if precision is None else min(BATCH, samples - done)
        for _ in range(batch):
            drawn = sampler.totals(rng)
            w = 1.0
            for i, r, chances in weighed:
                t = drawn[i]
                w *= 1.0 - r * chances[t if t < len(chances) else -1]
            lose_to = 0
            for j, t in zip(opponents, drawn, strict=True):
                if t <= mine:
                    lose_to += mult[j] if mult else 1
            weight += w
            squares += w * w
            if lose_to == 0:
                win_weight += w
                pay += w * win_pay
            else:
                pay += w * (caught_pay if not mult else -lose_to)
        done += batch
        if weight <= 0.0:  # every draw ruled out: read them unweighted
            unweighted = replace(obs, drop_styles=(0.0,) * obs.n_players)
            return _estimate(unweighted, rng, samples, precision, settle, state)
        p = win_weight / weight
        effective = weight * weight / squares
        lo, hi = wilson_interval(p * effective, effective)
        if precision is not None and done >= MIN_SAMPLES:
            if (hi - lo) / 2 <= precision:
                break
            if settle and state is not None and (hi - lo) / 2 <= SETTLE_PRECISION:
                lost = weight - win_weight
                loss = (win_pay * win_weight - pay) / lost if lost > 0 else -caught_pay
                ends = set()
                for q in (lo, hi):
                    now = q * win_pay - (1 - q) * loss
                    ends.add(now > play_on_value(obs.game, n, q, state, now))
                if len(ends) == 1:
                    break
    return _Estimate(p, (lo, hi), done, pay / weight if weight else 0.0, win_pay)


def win_probability(
    obs: Observation, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED
) -> tuple[float, tuple[float, float]]:
    """P(the player's total is strictly lowest now) with its 95% interval (Monte Carlo,
    exactly ``samples`` draws)."""
    est = _estimate(obs, random.Random(seed), _check_samples(samples, MAX_SAMPLES))
    return est.probability, est.interval


def _check_samples(samples: int, cap: int) -> int:
    """:raises EngineError: (field ``samples``) outside 1..``cap`` (HTTP 422)."""
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= cap:
        raise EngineError(
            f"samples must be a whole number from 1 to {cap} (the work cap for this table)",
            field="samples",
        )
    return samples


@dataclass(frozen=True, slots=True)
class PlayOnState:
    """What a knock question's value of playing on is read from besides the win chance and
    knocking's payout: the hand value (``Evaluator.keep(hand).value``), the fewest cards an
    opponent dealt in holds, and the cards drawn from the stock so far this deal. The defaults
    are a fresh deal's: five cards each (GFF-1, TT-1), nothing drawn yet."""

    hand_value: float
    closest_out: int = 5
    drawn: int = 0


def play_on_state(obs: Observation, hand_value: float) -> PlayOnState:
    """The :class:`PlayOnState` of ``obs`` with the player's hand worth ``hand_value``; the
    cards drawn are read off the stock size (a stock rebuilt from the discards, TT-15, reads as
    :data:`DRAWN_CAP`)."""
    sizes = [obs.hand_sizes[j] for j in obs.opponents() if obs.hand_sizes[j] > 0]
    start = find_game(obs.game).stock_after_deal(obs.n_players)
    cap = DRAWN_CAP[obs.game]
    drawn = start - obs.stock_size if obs.stock_size <= start else cap
    return PlayOnState(hand_value, min(sizes, default=5), max(0, drawn))


def play_on_features(
    game: str, p: float, knock_payout: float, state: PlayOnState
) -> tuple[float, ...]:
    """The terms of the advantage of playing on, in :data:`PLAY_ON_ADVANTAGE`'s order: 1, p,
    p^2, v, p v, min(v, 0), p min(v, 0), c, p c, d / 10, k, p k, with v the hand value (clamped
    to :data:`ADVANTAGE_VALUE_RANGE`), c the fewest cards an opponent holds (at most
    :data:`CLOSEST_OUT_CAP`), d the cards drawn (at most the game's :data:`DRAWN_CAP`) and k
    knocking's payout."""
    lo, hi = ADVANTAGE_VALUE_RANGE
    v = min(hi, max(lo, state.hand_value))
    good = min(v, 0.0)
    close = float(min(state.closest_out, CLOSEST_OUT_CAP))
    drawn = min(state.drawn, DRAWN_CAP[game]) / 10
    k = knock_payout
    return (1.0, p, p * p, v, p * v, good, p * good, close, p * close, drawn, k, p * k)


def play_on_advantage(
    game: str, n_players: int, p: float, knock_payout: float, state: PlayOnState
) -> float | None:
    """Triple Tunk: what playing on is worth over knocking now (:data:`PLAY_ON_ADVANTAGE`, the
    nearest table), or None where the game has no advantage model."""
    counts = [n for g, n in PLAY_ON_ADVANTAGE if g == game]
    if not counts:
        return None
    nearest = min(counts, key=lambda n: (abs(n - n_players), n))
    coef = PLAY_ON_ADVANTAGE[(game, nearest)]
    terms = play_on_features(game, p, knock_payout, state)
    return sum(c * x for c, x in zip(coef, terms, strict=True))


def play_on_value(
    game: str, n_players: int, p: float, state: PlayOnState, knock_payout: float
) -> float:
    """The measured value of playing on at win probability ``p`` when knocking now pays
    ``knock_payout`` on average: Triple Tunk, that payout plus :func:`play_on_advantage`; Game
    Flip Flop, :data:`PLAY_ON_LINE` at the hand value."""
    advantage = play_on_advantage(game, n_players, p, knock_payout, state)
    if advantage is not None:
        return knock_payout + advantage
    counts = [n for g, n in PLAY_ON_LINE if g == game]
    if not counts:
        return 0.0
    nearest = min(counts, key=lambda n: (abs(n - n_players), n))
    a, b, c = PLAY_ON_LINE[(game, nearest)]
    lo, hi = PLAY_ON_VALUE_RANGE[game]
    return a + b * max(p, PLAY_ON_FLOOR) + c * min(hi, max(lo, state.hand_value))


def knock_advice(
    obs: Observation,
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    precision: float | None = DEFAULT_PRECISION,
    settle: bool = True,
) -> KnockAdvice:
    """Whether to knock (TT) / drop (GFF) now; see the module docstring for the model.

    ``samples`` is the most opponents' deals drawn (default: :data:`DEFAULT_SAMPLES`, or the
    work cap if lower); sampling stops once the win probability's 95% half-width reaches
    ``precision`` (None: exactly ``samples``) or, with ``settle``, once the advice is the same
    at both ends of its interval. ``KnockAdvice.samples`` says how many were used.

    :raises EngineError: (field ``samples``) more than :func:`work_cap` allows.
    """
    cap = work_cap(obs)
    samples = min(DEFAULT_SAMPLES, cap) if samples is None else _check_samples(samples, cap)
    model = model_for(obs.game)
    total = model.total(obs.hand)
    knocking = _KNOCKING[obs.game]
    word, doing, unit = knocking.word, knocking.doing, knocking.unit
    waiting = obs.waiting[obs.seat] if obs.seat < len(obs.waiting) else 0
    hand = Evaluator(obs).keep(obs.hand)  # the one hand evaluation (engine.advice.tunk.value)
    state = play_on_state(obs, hand.value)
    est = _estimate(obs, random.Random(seed), samples, precision, settle, state)
    samples = est.samples
    p = est.probability
    lo, hi = est.interval
    ev = est.payout
    dealt = tuple(j for j in obs.opponents() if obs.hand_sizes[j] > 0)  # GFF-6: dealt in
    caught = drop_payouts(obs, dealt)[1] if knocking.staked else None
    all_in = is_all_in(obs)
    play_on = play_on_value(obs.game, 1 + len(dealt), p, state, ev)
    figures = (
        f"your hand is worth {hand.value:.2f} ({hand.deadwood} deadwood points, about "
        f"{hand.expected_deadwood:.1f} after the next draw, {hand.out_chance:.0%} chance to "
        "empty it)"
    )

    def answer(knock: bool, allowed: bool, text: str) -> KnockAdvice:
        if all_in:
            text += " You are all in: unless you win the game pot you are eliminated (GFF-6)."
        return KnockAdvice(
            knock,
            allowed,
            total,
            p,
            (lo, hi),
            samples,
            ev,
            est.win_payout,
            play_on,
            text,
            hand,
            caught,
            all_in,
        )

    if waiting > 0:  # TT-12
        return answer(
            False,
            False,
            f"You may not knock for {waiting} more turn(s): opponents laid cards on your melds "
            "(TT-12).",
        )
    knock = ev > play_on
    points = "point" if total == 1 else "points"
    odds = f"your {total} {points} are strictly lowest in about {p:.0%} ({lo:.0%}-{hi:.0%})"
    if knock:
        text = (
            f"{word.capitalize()}: {odds} of the hands the others could hold, worth "
            f"{ev:+.2f} {unit} on average against {play_on:+.2f} for playing on, where "
            f"{figures}."
        )
    else:
        text = (
            f"Play on: {odds} of the hands the others could hold, so {doing} now is worth "
            f"{ev:+.2f} {unit} against {play_on:+.2f} for playing on, where {figures}."
        )
    return answer(knock, True, text)


__all__ = [
    "DEFAULT_PRECISION",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "KnockAdvice",
    "MAX_SAMPLES",
    "PLAY_ON_ADVANTAGE",
    "PLAY_ON_LINE",
    "PlayOnState",
    "drop_payouts",
    "ends_play",
    "is_all_in",
    "knock_advice",
    "known_hands",
    "model_for",
    "multipliers",
    "opponent_sampler",
    "others_totals",
    "play_on_advantage",
    "play_on_features",
    "play_on_state",
    "play_on_value",
    "seen_by",
    "stop_chances",
    "win_probability",
    "work_cap",
]
