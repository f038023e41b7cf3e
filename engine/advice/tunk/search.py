"""Look-ahead for the Triple Tunk discard: Monte Carlo over the opponents' hidden hands.

The one hand evaluation (:mod:`engine.advice.tunk.value`) looks one draw ahead and weighs the
next player alone. When its best discards are close, this search plays each of them out:

- it draws the opponents' hidden hands from the knock advice's opponent model
  (:func:`engine.advice.tunk.knock.opponent_sampler`: known pickups, discard caps, lay-off bans,
  behaviour mixtures) and shuffles the other unseen cards into the stock;
- from each such deal it plays every candidate discard to the end of the deal (or
  :attr:`SearchBudget.horizon` turns) with one cheap policy in every seat: knock at the start of
  a turn (TT-13; not while waiting, TT-12) on a total at most :func:`rollout_knock_limit` for
  the player, with each opponent's knocking chance at its total for the others
  (:func:`engine.advice.tunk.styles.knock_curve`, drawn once per deal for every branch), take
  the top discard when it tunks out or lowers the deadwood (TT-10), tunk out whenever a TT-11
  shape is there, lay the best arrangement's melds keeping two cards, throw the card leaving
  the least deadwood;
- each candidate scores the player's mean settlement in units (TT-13 knock, TT-11 tunk out,
  TT-14 multipliers; an unfinished rollout scores 0). Every candidate plays the same deals
  (common random numbers), so the differences are paired.

The draw (:func:`search_draw`) is searched the same way: both lines played out from the
player's own draw when their one-step values are within the margin.

The search keeps the one-step choice unless another candidate's paired mean is higher by more
than :attr:`SearchBudget.z` standard errors. It only runs when the candidates are within
:attr:`SearchBudget.margin` value points of the best; its work (rollout turns) is capped by
:attr:`SearchBudget.work`. It is deterministic given its seed.

Nothing uses it by default (``AdvisorPolicy(search=...)``, ``discard_choice(obs, search)``): in
play (``python -m bench.search_pairs``) it changed the outcome of about 2% of deals and moved
the advisor's share by less than the noise against every panel style.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.advice.situation import Observation
from engine.advice.tunk.common import TT_MODEL, model_for
from engine.advice.tunk.knock import opponent_sampler
from engine.advice.tunk.styles import knock_curve
from engine.advice.tunk.value import DiscardFigures
from engine.core.topper import POINTS
from engine.core.types import TableMeld
from engine.games.tt.arrange import best_tt_arrangement
from engine.games.tt.play import owned_special_bonus, tt_can_tunk_out, tt_tunk_out
from engine.games.tt.settle import multiplier


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much look-ahead one discard question may spend.

    ``candidates``: at most this many of the best one-step options are played out, those within
    ``margin`` value points of the best; ``samples``: deals drawn (each plays every candidate);
    ``horizon``: rollout turns per deal (all seats); ``work``: cap on rollout turns in all;
    ``z``: standard errors by which another candidate must beat the one-step choice.
    """

    candidates: int = 3
    margin: float = 1.5
    samples: int = 40
    horizon: int = 12
    work: int = 4000
    z: float = 1.0


DEFAULT_SEARCH = SearchBudget()
MAX_WORK = 20_000  # no budget may ask for more rollout turns than this (about 300 ms)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What the search found: the chosen card, the candidates with their mean settlement per
    deal (units), the deals played and the rollout turns spent."""

    card: int
    means: tuple[tuple[int, float], ...]
    samples: int
    work: int


def rollout_knock_limit(players: int) -> int:
    """The total at or below which a rollout seat knocks (TT-13): 5 heads-up, one less per extra
    opponent, at least 3 (the bench's strong player)."""
    return max(3, 5 - (players - 2))


def _greedy_discard(hand: Sequence[int]) -> int:
    """The card whose removal leaves the least deadwood (ties: more points, then higher)."""
    dw = TT_MODEL.deadwood
    best: tuple[int, int, int] | None = None
    for i, card in enumerate(hand):
        key = (dw(tuple(hand[:i]) + tuple(hand[i + 1 :])), -POINTS[card], -card)
        if best is None or key < best:
            best = key
    assert best is not None
    return -best[2]


def _lay(hand: list[int], table: list[TableMeld], seat: int) -> None:
    """Lay the best arrangement's melds, keeping at least two cards (TT-8, TT-11)."""
    if len(hand) < 5:
        return
    for meld in best_tt_arrangement(hand).best.melds:
        if len(hand) - len(meld.cards) < 2:
            continue
        for c in meld.cards:
            hand.remove(c)
        table.append(TableMeld(seat, tuple(meld.cards)))


def _knocks(
    total: int,
    mine: bool,
    limit: int,
    curves: Sequence[Sequence[float]],
    seat: int,
    chances: Sequence[float],
    turn: int,
) -> bool:
    """Whether a rollout seat knocks at its turn start holding ``total`` (TT-13)."""
    if mine or not curves:
        return total <= limit
    curve = curves[seat]
    p = curve[min(total, len(curve) - 1)]
    return p > 0 and chances[turn] < p


def _knock_net(totals: Sequence[int], knocker: int, me: int, mult: Sequence[int]) -> int:
    """TT-13: the player's net when ``knocker`` knocks with these totals."""
    mine = totals[knocker]
    if all(mine < t for s, t in enumerate(totals) if s != knocker):
        return mult[knocker] * (len(totals) - 1) if me == knocker else -mult[knocker]
    if me == knocker:
        return -sum(mult[s] for s, t in enumerate(totals) if s != knocker and t <= mine)
    return mult[me] if totals[me] <= mine else 0


def _rollout(
    hands: list[list[int]],
    table: list[TableMeld],
    stock: list[int],
    discards: list[int],
    waiting: list[int],
    early: Sequence[bool],
    first: int,
    me: int,
    horizon: int,
    draw: bool | None = None,
    curves: Sequence[Sequence[float]] = (),
    chances: Sequence[float] = (),
) -> tuple[int, int]:
    """Play on from ``first``'s turn start with the cheap policy (module docstring); returns
    (the player's net in units, turns played). ``draw`` (True: the top discard, False: the
    stock) starts instead at ``first``'s draw, past its knock. ``curves[s]`` (when given) is
    the chance that opponent ``s`` knocks at each total
    (:func:`engine.advice.tunk.styles.knock_curve`), tried against ``chances[turn]``; the
    player knocks by :func:`rollout_knock_limit`."""
    n = len(hands)
    limit = rollout_knock_limit(n)
    dw = TT_MODEL.deadwood
    seat = first
    for turn in range(horizon):
        hand = hands[seat]
        forced = draw if turn == 0 else None
        if forced is not None:
            pass  # the decision under search: the knock question is already answered
        elif waiting[seat] > 0:  # TT-12
            waiting[seat] -= 1
        elif _knocks(sum(POINTS[c] for c in hand), seat == me, limit, curves, seat, chances, turn):
            totals = [sum(POINTS[c] for c in h) for h in hands]
            mult = [
                multiplier(bool(early[s]), owned_special_bonus(table, s), False) for s in range(n)
            ]
            return _knock_net(totals, seat, me, mult), turn
        if not stock:
            return 0, turn  # TT-15 recycling is left out: an unfinished deal
        top = discards[-1] if discards else None
        take = False
        if forced is not None:
            take = forced and top is not None
        elif top is not None:
            with_top = (*hand, top)
            take = tt_can_tunk_out(with_top, table, seat) or (
                TT_MODEL.best_discard is not None
                and TT_MODEL.best_discard(with_top) < dw(tuple(hand))
            )
        hand.append(discards.pop() if take else stock.pop())  # TT-10
        if tt_can_tunk_out(hand, table, seat):  # TT-11
            option = tt_tunk_out(hand, table, seat)
            bonus = option.special_bonus if option is not None else 1
            m = multiplier(bool(early[seat]), bonus, True)
            return (m * (n - 1) if seat == me else -m), turn + 1
        _lay(hand, table, seat)
        throw = _greedy_discard(hand)
        hand.remove(throw)
        discards.append(throw)
        seat = (seat + 1) % n
    return 0, horizon


def _plays(obs: Observation) -> bool:
    """Whether the rollouts know the game of ``obs``: they play Triple Tunk's rules."""
    return model_for(obs.game) is TT_MODEL


def candidates(options: Sequence[DiscardFigures], budget: SearchBudget) -> tuple[int, ...]:
    """The cards worth playing out: the best one-step options within the budget's margin."""
    if not options:
        return ()
    best = options[0].score
    out = [o.card for o in options if o.score - best <= budget.margin]
    return tuple(out[: budget.candidates])


@dataclass(frozen=True, slots=True)
class _Branch:
    """One choice played out: the player's hand and the discard pile (top last) right after
    it, and where play resumes (``draw``: at the player's own draw, forced that way)."""

    hand: tuple[int, ...]
    pile: tuple[int, ...]
    first: int
    draw: bool | None = None


def _play_out(
    obs: Observation, branches: Sequence[_Branch], budget: SearchBudget, seed: int
) -> tuple[int, tuple[float, ...], int, int] | None:
    """Play every branch out on the same sampled deals; returns (index of the chosen branch,
    mean net per branch, deals, rollout turns). Branch 0 is the one-step choice: another is
    chosen only when its paired mean gain beats ``budget.z`` standard errors. None without an
    opponent to sample."""
    opponents, sampler = opponent_sampler(obs)
    if not opponents:
        return None
    rng = random.Random(seed)
    n = obs.n_players
    me = obs.seat
    early = tuple(obs.early) if len(obs.early) == n else (False,) * n
    waiting0 = list(obs.waiting) if len(obs.waiting) == n else [0] * n
    work_cap = min(budget.work, MAX_WORK)
    pool = sampler.pool
    curves = [knock_curve(obs, s) if s != me else [0.0] for s in range(n)]
    k = len(branches)
    sums = [0.0] * k
    diffs = [[0.0, 0.0] for _ in range(k)]  # per branch: sum and sum of squares of (b - b0)
    work = 0
    done = 0
    for _ in range(budget.samples):
        if work >= work_cap:
            break
        dealt = sampler.sample(rng)
        held = 0
        for h in dealt:
            for c in h:
                held |= 1 << c
        rest = [c for c in pool if not held >> c & 1]
        rng.shuffle(rest)
        if 0 < obs.stock_size < len(rest):
            rest = rest[: obs.stock_size]
        chances = [rng.random() for _ in range(budget.horizon)]
        nets = []
        for b in branches:
            hands: list[list[int]] = [[] for _ in range(n)]
            hands[me] = list(b.hand)
            for j, h in zip(opponents, dealt, strict=True):
                hands[j] = list(h)
            net, turns = _rollout(
                hands,
                list(obs.table),
                list(rest),
                list(b.pile),
                list(waiting0),
                early,
                b.first,
                me,
                budget.horizon,
                b.draw,
                curves,
                chances,
            )
            work += max(1, turns)
            nets.append(float(net))
        done += 1
        for i, v in enumerate(nets):
            sums[i] += v
            d = v - nets[0]
            diffs[i][0] += d
            diffs[i][1] += d * d
    if not done:
        return 0, (), 0, work
    choice = 0
    best_gain = 0.0
    for i in range(1, k):
        s, s2 = diffs[i]
        mean = s / done
        var = max(0.0, (s2 - done * mean * mean) / (done - 1)) if done > 1 else 0.0
        if mean > best_gain and mean > budget.z * math.sqrt(var / done):
            best_gain, choice = mean, i
    return choice, tuple(x / done for x in sums), done, work


def search_discard(
    obs: Observation,
    options: Sequence[DiscardFigures],
    budget: SearchBudget = DEFAULT_SEARCH,
    seed: int = 0,
) -> SearchResult | None:
    """Play out the close discards of ``obs.hand`` (Triple Tunk, after the draw and the lay-down;
    ``options`` best first as :meth:`Evaluator.options` ranks them) and pick by the mean
    settlement (module docstring). None when there is nothing to search (another game, one
    candidate, or no opponent)."""
    if not _plays(obs) or len(obs.hand) < 2:
        return None
    cards = candidates(options, budget)
    if len(cards) < 2:
        return None
    pile = tuple(reversed(obs.discards))  # top last
    first = (obs.seat + 1) % obs.n_players
    branches = []
    for card in cards:
        hand = list(obs.hand)
        hand.remove(card)
        branches.append(_Branch(tuple(hand), (*pile, card), first))
    got = _play_out(obs, branches, budget, seed)
    if got is None:
        return None
    choice, means, done, work = got
    return SearchResult(cards[choice], tuple(zip(cards, means, strict=False)), done, work)


def search_draw(
    obs: Observation,
    take_value: float,
    stock_value: float,
    budget: SearchBudget = DEFAULT_SEARCH,
    seed: int = 0,
) -> bool | None:
    """Whether to take the top discard (TT-10), by playing both lines out when their one-step
    values (lower is better) are within ``budget.margin``; None when not searched (another
    game, not close, no discard to take, or no opponent). Starts from the one-step choice."""
    if not _plays(obs) or not obs.discards or abs(take_value - stock_value) > budget.margin:
        return None
    one_step = take_value < stock_value
    pile = tuple(reversed(obs.discards))
    hand = tuple(obs.hand)
    branches = [
        _Branch(hand, pile, obs.seat, one_step),
        _Branch(hand, pile, obs.seat, not one_step),
    ]
    got = _play_out(obs, branches, budget, seed)
    if got is None:
        return None
    return one_step if got[0] == 0 else not one_step


__all__ = [
    "DEFAULT_SEARCH",
    "MAX_WORK",
    "SearchBudget",
    "SearchResult",
    "candidates",
    "rollout_knock_limit",
    "search_discard",
    "search_draw",
]
