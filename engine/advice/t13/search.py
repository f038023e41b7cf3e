"""Three Thirteen advice: rollouts to the end of the round over the hidden cards, for close
discards.

The value function (:mod:`engine.advice.t13.value`) looks one draw ahead. When its best discards
are within ``SEARCH_MARGIN`` points of each other, the top ``SEARCH_TOP`` of them are replayed to
the end of the round (T13-5, T13-6) over imagined deals, and the one with the best mean outcome
is advised:

* **A deal** gives every opponent its known pickups plus hidden cards drawn from the unseen
  cards (the next player's cards near one it threw ``DISCARDED_NEAR_WEIGHT`` times as likely, as
  in the danger model); the other unseen cards, shuffled, are the stock. Every candidate is
  played on the same deals (common random numbers: the comparison, not each figure, matters).
* **The rest of the round** is played by every seat, the advised player included, with a cheap
  greedy policy: take the top discard when it lowers the deadwood after the best discard, else
  the stock; throw the card that leaves the least deadwood (ties: the higher card); go out as
  soon as possible (T13-5) and, on a last turn, keep every card when that scores lower. A round
  still going after ``SEARCH_HORIZON`` turns per seat, or with an empty stock, is scored as it
  stands (every hand's deadwood).
* **The outcome** is the chance of winning the game (T13-6: lowest total wins) read off the
  running ``scores``: the lead over the best opponent after the round, divided by the spread of
  the rounds still to play (``ROUND_SPREAD`` points a round); after the last round (T13-1) it is
  a win, a shared win or a loss. So a player far behind prefers the discards that may go out
  and a player ahead the ones that are safe, by the game's own stakes; without scores, every
  total is 0.

Work is capped (``SEARCH_WORK_CAP`` turns played per request) and everything is deterministic
for a given request and seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.advice.t13.opponents import _near
from engine.advice.t13.params import (
    DISCARDED_NEAR_WEIGHT,
    MAX_ROUND,
    ROUND_SPREAD,
    SEARCH_HORIZON,
    SEARCH_ROLLOUTS,
    SEARCH_WORK_CAP,
)
from engine.advice.t13.situation import T13Situation
from engine.core.cards import RANK_OF, SUIT_OF
from engine.games.t13.game import GAME
from engine.standard.memo import DeadwoodMemo


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Mean outcome (win chance, higher is better) per candidate discard, in the candidates'
    order, the deals played per candidate and the turns played in all."""

    means: tuple[float, ...]
    deals: int
    work: int


def _sample_deal(
    situation: T13Situation, unseen: Sequence[int], rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """Imagined opponents' hands (clockwise from the next player) and stock (top last)."""
    pool = list(unseen)
    rng.shuffle(pool)
    hands: list[list[int]] = []
    opponents = situation.players - 1
    deal = GAME.deal_size(situation.round_number)
    for j in range(opponents):
        known = list(situation.known[j]) if j < len(situation.known) else []
        size = situation.hand_sizes[j] if j < len(situation.hand_sizes) else deal
        hidden = max(0, min(size - len(known), len(pool)))
        thrown = situation.discarded[j] if j < len(situation.discarded) else ()
        if thrown and hidden:
            near: set[int] = set()
            for c in thrown:
                near |= _near(c)
            power = 1.0 / DISCARDED_NEAR_WEIGHT
            keyed = sorted(
                range(len(pool)),
                key=lambda i: rng.random() ** power if pool[i] in near else rng.random(),
                reverse=True,
            )
            take = set(keyed[:hidden])
            hands.append(known + [pool[i] for i in sorted(take)])
            pool = [c for i, c in enumerate(pool) if i not in take]
        else:
            hands.append(known + pool[:hidden])
            pool = pool[hidden:]
    return hands, pool


def _best_throw(memo: DeadwoodMemo, hand: list[int], drawn: int, value: int, dw: int) -> int:
    """The card of ``hand`` + ``drawn`` whose removal leaves ``value`` (the least deadwood
    after a discard), ties the higher card: the drawn card when it is no better than the hand's
    deadwood ``dw``; else the highest card that fits no combination when throwing it reaches
    ``value`` (no search: it is deadwood in every arrangement), else the first card, highest
    first, whose removal is searched to reach it."""
    points = memo.points
    full = [*hand, drawn]
    if value == dw:
        best, best_pts = drawn, points(drawn)
    else:
        best, best_pts = -1, -1
        loose = _loosest(memo, full)
        if loose >= 0 and memo.deadwood(full) - points(loose) == value:
            return loose
    for i in sorted(range(len(hand)), key=lambda i: -points(hand[i])):
        c = hand[i]
        if points(c) <= best_pts:
            break
        if memo.deadwood(full[:i] + full[i + 1 :]) == value:
            return c
    return best if best >= 0 else _fallback(memo, full, value)


def _loosest(memo: DeadwoodMemo, cards: list[int]) -> int:
    """The highest natural card of ``cards`` that shares its rank with no other natural card
    and has none of its suit within two ranks, while the hand holds at most one wild (-1: none,
    or aces may be high). Such a card is in no combination of any arrangement (T13-4: a
    combination needs three cards, and one wild adds only one), so throwing it saves exactly
    its points."""
    ctx = memo.ctx
    if ctx.aces_high:
        return -1
    wild = -1 if ctx.wild_rank is None else ctx.wild_rank
    ranks = [RANK_OF[c] for c in cards]
    if ranks.count(wild) > 1:
        return -1
    suits = [SUIT_OF[c] for c in cards]
    best, best_pts = -1, -1
    n = len(cards)
    for i, c in enumerate(cards):
        r, s = ranks[i], suits[i]
        pts = memo.points(c)
        if pts <= best_pts or r == wild:
            continue
        for k in range(n):
            q = ranks[k]
            if k != i and q != wild and (q == r or (suits[k] == s and abs(q - r) <= 2)):
                break
        else:
            best, best_pts = c, pts
    return best


def _fallback(memo: DeadwoodMemo, full: list[int], value: int) -> int:
    """The first card of ``full`` whose removal leaves ``value`` (always one: ``value`` is the
    least deadwood after a discard)."""
    for i, c in enumerate(full):
        if memo.deadwood(full[:i] + full[i + 1 :]) == value:
            return c
    return full[-1]  # pragma: no cover - value is always reached


def rollout(
    memo: DeadwoodMemo,
    hands: list[list[int]],
    stock: list[int],
    pile: list[int],
    seat: int,
    horizon: int,
) -> tuple[list[int], int]:
    """Play the round on from ``seat``'s draw with the greedy policy for every seat (see the
    module docstring); ``pile`` is the discard pile, top last. Returns (round scores, turns).
    The lists are played on in place."""
    n = len(hands)
    out: int | None = None
    last_left = 0
    turns = 0
    cap = horizon * n
    while turns < cap:
        turns += 1
        hand = hands[seat]
        prof = memo.profile(hand)
        dw = prof.deadwood
        card = -1
        value = 0
        if pile:
            top = pile[-1]
            value = memo.after_adding(prof, top)
            if value < dw:
                card = pile.pop()
        if card < 0:
            if not stock:
                break  # T13-8 would reshuffle: the rollout stops here and scores as it stands
            card = stock.pop()
            value = memo.after_adding(prof, card)
        if out is not None:  # a last turn (T13-5): keep every card when that scores lower
            hand.append(card)
            if value < memo.deadwood(hand):
                throw = _best_throw(memo, hand[:-1], card, value, dw)
                hand.remove(throw)
                pile.append(throw)
            last_left -= 1
            if last_left == 0:
                break
        else:
            throw = _best_throw(memo, hand, card, value, dw)
            hand.append(card)
            hand.remove(throw)
            pile.append(throw)
            if value == 0:  # T13-5: goes out, everyone else has one last turn
                out = seat
                last_left = n - 1
        seat = (seat + 1) % n
    scores = [0 if s == out else memo.deadwood(h) for s, h in enumerate(hands)]
    return scores, turns


def win_chance(totals: Sequence[int], round_scores: Sequence[int], rounds_after: int) -> float:
    """The advised player's (index 0) chance of winning the game (T13-6) once the round is
    scored: after the last round a win (1), a shared win (1 / tied players) or a loss (0);
    before it, the normal chance that its lead over the best opponent holds over
    ``rounds_after`` rounds of ``ROUND_SPREAD`` points spread each."""
    after = [t + s for t, s in zip(totals, round_scores, strict=True)]
    lead = min(after[1:]) - after[0]
    if rounds_after <= 0:
        if lead > 0:
            return 1.0
        if lead < 0:
            return 0.0
        return 1.0 / (1 + sum(1 for a in after[1:] if a == after[0]))
    z = lead / (ROUND_SPREAD * math.sqrt(rounds_after))
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def search_discards(
    situation: T13Situation,
    candidates: Sequence[int],
    unseen: Sequence[int],
    memo: DeadwoodMemo,
    seed: int,
    rollouts: int = SEARCH_ROLLOUTS,
    work_cap: int = SEARCH_WORK_CAP,
) -> SearchResult:
    """Mean win chance of each candidate discard of a hand after the draw (r+3 cards, not a
    last turn), over the same imagined deals, ``rollouts`` of them at most, stopping once
    ``work_cap`` turns were played (after a whole deal: every candidate sees the same deals)."""
    rng = random.Random(seed * 2_654_435_761 + 0x7313)
    players = situation.players
    totals = list(situation.scores) if situation.scores else [0] * players
    rounds_after = MAX_ROUND - situation.round_number
    pile0 = list(reversed(situation.discard_pile))  # top last
    sums = [0.0] * len(candidates)
    work = 0
    deals = 0
    while deals < rollouts and work < work_cap:
        opponents, stock = _sample_deal(situation, unseen, rng)
        for k, card in enumerate(candidates):
            mine = list(situation.hand)
            mine.remove(card)
            hands = [mine, *(list(h) for h in opponents)]
            scores, turns = rollout(
                memo, hands, list(stock), [*pile0, card], 1 % players, SEARCH_HORIZON
            )
            work += turns
            sums[k] += win_chance(totals, scores, rounds_after)
        deals += 1
    means = tuple(s / deals for s in sums) if deals else tuple(0.0 for _ in candidates)
    return SearchResult(means, deals, work)


__all__ = [
    "SearchResult",
    "rollout",
    "search_discards",
    "win_chance",
]
