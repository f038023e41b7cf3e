"""What to lay down this turn (GFF-2/GFF-3, TT-6/TT-8): new melds and lay-offs as a plan.

Laying melds and lay-offs lowers the total that counts if someone drops or knocks (GFF-8,
TT-13: a meld held in hand counts). In Triple Tunk a laid meld also gives opponents lay-off
targets (their 3 + 2 and 4 + 1 tunk outs, TT-11) and every card they add makes the owner wait
(TT-12), so holding a meld is worth something as long as nobody is likely to knock.

The plan, for the hand after the draw and the advised discard:

- **lay-offs**: always the best set that can all be made together
  (:func:`engine.teach.layoff_plan.layoff_plan`): cards laid off only lower the total (and in Triple
  Tunk make the meld's owner wait, TT-12); Triple Tunk keeps two cards (TT-11);
- **new melds**: in Game Flip Flop always (a laid spread no longer counts at a drop, GFF-8, and
  tunking out needs spreads laid anyway); in Triple Tunk when the knock threat, the chance that
  some opponent knocks before the player's next turn (:func:`knock_threat`), reaches
  :data:`LAY_THREAT`, else they are held (and their cards are not laid off either).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from engine.advice.situation import Observation
from engine.advice.tunk.common import (
    DEFAULT_LAY_PROBABILITY,
    best_spreads,
    known_hands,
    model_for,
    unseen_cards,
)
from engine.advice.tunk.knock import discard_caps, layoff_cards
from engine.advice.tunk.styles import KNOCK_LIMIT, knock_curve
from engine.advice.tunk.value import Evaluator, card_text
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.types import TableMeld
from engine.games.tt.arrange import best_tt_arrangement
from engine.teach.layoff_plan import layoff_plan

# Knock threat from which Triple Tunk melds are laid rather than held. Paired deals against
# nine styles at 2, 3 and 4 players (``python -m bench.paired --game triple-tunk --players N
# --styles strong,strong0,never,knock5,knock10,melder,hoarder,random,self --set
# engine.advice.tunk.layout.LAY_THREAT=0.25 --deals 1200 --seed 1``) put 0.25 ahead of the
# earlier 0.12 in net in 22 of 27 cells (strong +0.02 / +0.05 / +0.02 units a deal, hoarder
# +0.08 to +0.14), level in one and behind by at most 0.007 units in four; seed 2 agrees.
# 0.35 loses to knock-at-10 players heads-up (-0.027 share); 0.06 or less loses everywhere.
LAY_THREAT = 0.25
TT_KEEP = 2  # TT-11: only a tunk out empties the hand; a card is kept besides the discard


@dataclass(frozen=True, slots=True)
class LayPlan:
    """Lay ``melds`` (new melds from the hand) then ``layoffs`` ((card, table meld index), in
    that order; indexes count the new melds after the table's) this turn; ``lay_melds`` is
    whether the hand's melds go down; ``threat`` the knock threat (Triple Tunk); ``reason``
    says why."""

    lay_melds: bool
    melds: tuple[tuple[int, ...], ...] = ()
    layoffs: tuple[tuple[int, int], ...] = ()
    threat: float = 0.0
    reason: str = ""


def total_distribution(points: Sequence[int], k: int, limit: int | None = None) -> list[float]:
    """P(sum = s) for ``k`` cards drawn without replacement from cards worth ``points`` (all
    positive); with ``limit``, every sum above it is pooled in one last entry (``limit + 1``),
    which keeps the table small when only low totals matter (a knock threshold)."""
    by: dict[int, int] = {}
    for p in points:
        by[p] = by.get(p, 0) + 1
    return list(_distribution(tuple(sorted(by.items())), k, limit))


@lru_cache(maxsize=1024)
def _distribution(
    counts: tuple[tuple[int, int], ...], k: int, limit: int | None
) -> tuple[float, ...]:
    """:func:`total_distribution` of the cards counted by point value, ``(points, count)``;
    kept, as several opponents usually draw from the same unseen cards."""
    total = comb(sum(n for _, n in counts), k)
    if not total:
        return (1.0,)
    top = k * max((p for p, _ in counts), default=0)
    if limit is not None:
        top = min(top, limit + 1)
    # ways[j][s]: the number of j-card subsets worth s (capped at top). One pass per distinct
    # value, rows in descending j so a row still holds its old counts when it is read.
    ways = [[0] * (top + 1) for _ in range(k + 1)]
    ways[0][0] = 1
    filled = 0
    for p, n in counts:
        ways_of = [comb(n, m) for m in range(k + 1)]
        for j in range(min(filled, k - 1), -1, -1):
            row = ways[j]
            most = min(n, k - j)
            for s in range(top + 1):
                w = row[s]
                if w:
                    for m in range(1, most + 1):
                        ways[j + m][min(s + m * p, top)] += w * ways_of[m]
        filled = min(k, filled + n)
    return tuple(w / total for w in ways[k])


def knock_threat(obs: Observation) -> float:
    """Chance that some opponent knocks (TT-13) before the player's next turn.

    Each opponent who may knock at its next turn (TT-12: a positive waiting counter offers no
    knock) holds its known cards plus hidden cards drawn from the unseen cards it could hold by
    the opponent model's discard caps (usually below its lowest discard, never a card it could
    lay off); its total's distribution is exact (a points polynomial, the model's "no meld"
    constraint left aside), and it knocks with the chance its style mixture gives that total
    (:func:`engine.advice.tunk.styles.knock_curve`). Opponents are taken as independent.
    """
    model = model_for(obs.game)
    known = known_hands(obs)
    opponents = tuple(
        j
        for j in obs.opponents()
        if obs.hand_sizes[j] > 0 and not (j < len(obs.waiting) and obs.waiting[j] > 0)
    )
    if not opponents:
        return 0.0
    unseen = unseen_cards(
        model.deck, obs.hand, obs.table, obs.discards, [known[j] for j in obs.opponents()]
    )
    caps = discard_caps(obs, model, opponents)
    pts = model.points
    order = model.order
    calm = 1.0
    for j, cap in zip(opponents, caps, strict=True):
        base = sum(pts[c] for c in known[j])
        k = max(0, obs.hand_sizes[j] - len(known[j]))
        banned = layoff_cards(obs, unseen, j)
        pool = [c for c in unseen if c not in banned]
        played = j < len(obs.turns) and obs.turns[j] > 0
        capped = [c for c in pool if order[c] < min(cap)] if played and cap else pool
        curve = knock_curve(obs, j)
        room = KNOCK_LIMIT - base  # hidden points up to this leave a total a style knocks on
        if room < 0:
            calm *= 1.0 - curve[-1]
            continue
        chance = 0.0
        for weight, cards in (
            (DEFAULT_LAY_PROBABILITY, capped),
            (1 - DEFAULT_LAY_PROBABILITY, pool),
        ):
            source = cards if len(cards) >= k else pool
            dist = total_distribution([pts[c] for c in source], k, room)
            chance += weight * sum(p * curve[base + s] for s, p in enumerate(dist) if p)
        calm *= 1.0 - chance
    return 1.0 - calm


def _tt_melds(hand: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The melds of the best TT-6 arrangement of ``hand``."""
    return tuple(tuple(m.cards) for m in best_tt_arrangement(hand).best.melds)


@dataclass(frozen=True, slots=True)
class _Laying:
    """How a Tunk game lays its melds down: ``melds`` of the best arrangement of a hand;
    ``may_hold``: they may be held (Triple Tunk, TT-13/TT-12: laid only under a knock threat,
    keeping TT_KEEP cards), else every spread goes down at once (Game Flip Flop, GFF-8)."""

    melds: Callable[[Sequence[int]], tuple[tuple[int, ...], ...]]
    may_hold: bool


_LAYING: dict[str, _Laying] = {
    GAME_FLIP_FLOP: _Laying(best_spreads, False),
    TRIPLE_TUNK: _Laying(_tt_melds, True),
}


def lay_plan(obs: Observation, ev: Evaluator, discard: int | None) -> LayPlan:
    """The lay-down plan for ``obs.hand`` (after the draw) when ``discard`` is thrown."""
    hand = list(obs.hand)
    if discard is not None and discard in hand:
        hand.remove(discard)
    game = obs.game
    laying = _LAYING[game]
    melds = laying.melds(hand)
    why = ""
    if laying.may_hold:
        keep = TT_KEEP - (1 if discard is not None else 0)
        threat = knock_threat(obs) if melds else 0.0
        lay = threat >= LAY_THREAT
    else:
        threat, lay, keep = 0.0, True, 0
    laid: list[tuple[int, ...]] = []
    left = list(hand)
    if lay:
        for m in melds:
            if len(left) - len(m) >= keep:
                laid.append(m)
                for c in m:
                    left.remove(c)
    held = {c for m in melds for c in m} if not lay else set()
    table = list(obs.table) + [TableMeld(obs.seat, m) for m in laid]
    candidates = [c for c in left if c not in held]
    keep_now = max(0, keep - (len(left) - len(candidates)))
    plan = layoff_plan(game, candidates, table, obs.seat, keep=keep_now)
    layoffs = tuple((lo.card, lo.meld_index) for lo in plan)
    if laying.may_hold and melds:
        names = "; ".join(" ".join(card_text(game, c) for c in m) for m in melds)
        if lay:
            why = (
                f"Lay down {names}: some opponent may knock before your next turn (about "
                f"{threat:.0%}), and a meld held in hand counts in your total (TT-13)."
            )
        else:
            why = (
                f"Hold {names}: a knock before your next turn is unlikely (about {threat:.0%}), "
                "and a laid meld gives opponents lay-off targets (TT-8, TT-11) and makes you "
                "wait when they use it (TT-12)."
            )
    if layoffs:
        text = ", ".join(f"{card_text(game, c)} on meld {i}" for c, i in layoffs)
        why = f"{why} Lay off {text}.".strip()
    lay_melds = lay and bool(laid) if laying.may_hold else lay
    return LayPlan(lay_melds, tuple(laid), layoffs, threat, why)


__all__ = ["LAY_THREAT", "LayPlan", "knock_threat", "lay_plan", "total_distribution"]
