"""Opponent styles: how likely an opponent is to knock or drop with a given hand total.

Real opponents do not all play like the simulator's baseline. The advice models each opponent as
a mixture of a few knocking styles and weighs them by what was observed of that opponent:

- ``cautious``: never knocks (or drops) on a total; waits to go or tunk out;
- ``knocks_at_5``: knocks as soon as its total is 5 or less;
- ``knocks_at_10``: knocks as soon as its total is 10 or less;
- ``random``: knocks now and then whatever it holds (:data:`RANDOM_KNOCK` of its turns).

Prior weights (:data:`PRIOR`, or the weights learned for that opponent over earlier deals,
``Observation.drop_totals``, :func:`drop_totals`) are updated by the evidence in the situation:
an opponent known to have passed up knocking (``Observation.passes``: turns it started holding a
total at or below 10 points, shown at the end or inferred, and did not knock) is less likely to
be an aggressive knocker; each pass multiplies a style's weight by the chance that style would
have passed.

Hidden hands (:func:`behaviour`): each opponent who has played is also a mixture of three
playing hypotheses, :class:`engine.advice.tunk.common.Behaviour` (baseline-like: throws its highest
deadwood card and lays melds at once; hoarder: throws its highest deadwood card and holds its
melds; random: throws any card), weighted by the likelihood of what it was seen to do:

- each discard worth ``v`` points thrown from ``h`` cards, at most its earlier discards: under
  "throws highest" its likelihood relative to a random throw is
  ``g * ((F(v) / g) ** h - (F(v-) / g) ** h) / (F(v) - F(v-))``, the chance that the highest of
  ``h`` cards worth at most the cap (its lowest discard before, ``g = F(cap)``) is worth ``v``
  (``F(v)``: the share of the cards it could have held worth at most ``v``; ``F(v-)``: less than
  ``v``; by points, as equal points leave the order among them to the player), mixed with a
  :data:`SLIP` chance of throwing another card (kept pairs, mistakes): a low card thrown early
  is strong evidence against "throws highest". A discard likelier a slip than the highest card
  (``(1 - SLIP) * ratio < SLIP``) caps nothing (:attr:`Behaviour.cap`): under a slip, what it
  kept is not bounded by the card it threw. A hoarder holding a meld (chance ``meld``)
  throws the highest of its ``h - 3`` other cards, so its discards run lower than a baseline
  player's. A discard above the cap is the card it drew,
  thrown at once under "throws highest": no evidence either way;
- each top discard it left lying worth less than its cap: under "throws highest" it keeps only
  cards worth at most that much, ``(F(v) / g) ** (h - 1)``, against a random player's 1/2
  (counted only as evidence against "throws highest");
- each card it is known to hold (a pickup, the GFF-5 flip card) ranking above a card it threw:
  a highest-card thrower holds one only by a slip, or (hoarder) inside a held meld;
- melds of its own on the table after ``t`` turns: a player who lays at once shows none with
  chance :data:`NO_MELD_YET` ``[t]`` (measured, ``bench/meld_curve.py``) and one otherwise; a
  hoarder shows one with chance :data:`HOARDER_LAYS`; a random player lays a meld it holds on
  half of its turns (taken as half the chance of a player who lays at once).

Flexible cards (:attr:`GameModel.flexible`, Triple Tunk's black, blob and ``?``): a player who
reads its melds keeps them whatever their points, so its discards cap only its other cards.
Whether an opponent does (:func:`keeps_posterior`) is its learned chance
(``Observation.keeps_flexible``, else :data:`KEEPS_PRIOR`) updated by how many of its discards
were flexible cards; under the first two hypotheses :data:`KEPT_HANDS` of a keeper's hands are
then drawn with the flexible cards above its cap allowed (``Behaviour.keeps``).

Drop timing (:func:`drop_chances`, :func:`drop_style`): a good player does not drop (GFF-8) or
knock (TT-13) at a fixed total but when its total is likely the strictly lowest, as the advice
itself does. Such a player, still in the deal after a turn start, told the table that its total
was not likely lowest then. The style "drops when likely lowest" stops at a turn start holding
``t`` with the chance :data:`DROP_CURVE` reads at ``q = S(t) ** (n - 1)`` (:func:`likely_lowest`),
how likely lowest that player reads its total: ``S`` is the share of the other hands' totals
above ``t`` as drawn from that player's own view (``engine.advice.tunk.knock.stop_chances``),
which sees the asking player's discards and pickups, not its hand. The curve is the advice's
own stopping, measured on that view (``bench/drop_curve.py``). Its weight per opponent starts at
:data:`DROP_STYLE_PRIOR` and is learned across deals from the totals each opponent dropped and
passed with (``engine.advice.tunk.profile``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from engine.advice.situation import Observation
from engine.advice.tunk.common import Behaviour, GameModel
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK

RANDOM_KNOCK = 0.05
KNOCK_LIMIT = 10  # no style knocks on a total above this but at random (``style_knocks``)
PRIOR: dict[str, float] = {
    "cautious": 0.4,
    "knocks_at_5": 0.25,
    "knocks_at_10": 0.2,
    "random": 0.15,
}
FIXED_STYLES: tuple[str, ...] = tuple(PRIOR)
# The fixed-total styles that knock on any total up to a limit (``style_knocks``).
KNOCK_LIMITS: dict[str, int] = {"knocks_at_5": 5, "knocks_at_10": 10}
# Weights of the fixed-total styles, in FIXED_STYLES order, summing to 1.
DropTotals = tuple[float, float, float, float]
_PRIOR_SHARES = [PRIOR[s] / sum(PRIOR.values()) for s in FIXED_STYLES]
DEFAULT_DROP_TOTALS: DropTotals = (
    _PRIOR_SHARES[0],
    _PRIOR_SHARES[1],
    _PRIOR_SHARES[2],
    _PRIOR_SHARES[3],
)


# Prior weights of the playing hypotheses of an opponent who has played (before any evidence).
BEHAVIOUR_PRIOR = Behaviour(0.7, 0.15, 0.15)
# Prior chance that an opponent keeps the flexible cards (GameModel.flexible) whatever their
# points, and the share of its discards that are flexible cards if it does and if it throws by
# points alone; measured over the Triple Tunk heads-up panel (python -m bench.flexible_discards
# --players 2 --deals 800 --seed 1): the advice's own card play throws one in 0.17-0.20 of its
# discards, the styles throwing their highest card 0.39-0.43, a random thrower 0.32.
KEEPS_PRIOR = 0.5
KEEPER_THROWS_FLEXIBLE = 0.18
POINTS_THROWS_FLEXIBLE = 0.41
# Share of a keeper's hands drawn with every flexible card above its cap allowed (the rest under
# the cap alone): a keeper holds some of its flexible cards, not a uniform draw over all of them.
# Read with a learned keeping chance of 1, the advice's own card play (`strong`) holds 13.92
# points by the model against 13.97 real; with every hand drawn that way 14.47 against 13.96, and
# with none 13.36 against 13.97 (python -m bench.opponent_model --game triple-tunk --players 2
# --styles strong --deals 1500 --seed 1 --keeps 1).
KEPT_HANDS = 0.5
# Share of KEEPS_PRIOR mixed back into the learned chance after every deal (engine.advice.tunk.
# profile.updated_keeps): a habit, and a deal shows one discard or two of it, so it is small.
KEEPS_FLOOR = 0.005
# Chance that a player who throws its highest deadwood card throws another one.
SLIP = 0.05
# Chance that a hoarder is seen with a meld of its own on the table (it lays only to go out).
HOARDER_LAYS = 0.02
# Share of players who lay every meld at once (the baseline) still showing no meld of their own
# after t = 1, 2, ... turns of a deal still going, measured by bench/meld_curve.py (GFF over 2-4
# players: --game game-flip-flop --deals 1500 --seed 5; TT over 3-4 players, whose deals are
# short: --game triple-tunk --deals 8000 --seed 5); a turn count seen fewer than 500 times ends a
# table, and past it the last value holds.
NO_MELD_YET: dict[str, tuple[float, ...]] = {
    GAME_FLIP_FLOP: (
        0.900,
        0.836,
        0.765,
        0.695,
        0.623,
        0.555,
        0.496,
        0.439,
        0.382,
        0.321,
        0.274,
        0.228,
        0.189,
        0.147,
        0.114,
        0.092,
        0.070,
        0.052,
        0.040,
        0.027,
        0.019,
        0.015,
    ),
    TRIPLE_TUNK: (0.237, 0.180, 0.171, 0.137, 0.137),
}


def no_meld_yet(game: str, turns: int) -> float:
    """P(a player who lays at once shows no meld of its own after ``turns`` turns)."""
    curve = NO_MELD_YET.get(game, ())
    if turns <= 0 or not curve:
        return 1.0
    return curve[min(turns, len(curve)) - 1]


_CEILINGS: dict[str, dict[int, int]] = {}


def _ceiling(model: GameModel) -> dict[int, int]:
    """Per point value: one more than the highest throwing order of a card worth that much."""
    out = _CEILINGS.get(model.name)
    if out is None:
        out = {}
        for c in model.deck:
            p = model.points[c]
            out[p] = max(out.get(p, 0), model.order[c] + 1)
        _CEILINGS[model.name] = out
    return out


def _highest_of(k: int, at_most: float, below: float, cap: float) -> float:
    """P(the highest of ``k`` uniform cards worth at most the cap is worth ``v``) relative to
    one uniform card: ``cap * ((F(v)/cap)**k - (F(v-)/cap)**k) / (F(v) - F(v-))``."""
    return cap * ((at_most / cap) ** k - (below / cap) ** k) / (at_most - below)


def behaviour(
    obs: Observation, seat: int, model: GameModel, unseen_points: Sequence[int]
) -> Behaviour:
    """Posterior :class:`Behaviour` of opponent ``seat`` from its discards, the cards it is known
    to hold and its melds on the table (module docstring); ``unseen_points`` are the sorted
    points (:attr:`GameModel.points`) of the unseen cards. ``meld`` is the chance that a hoarder
    holds a meld now: ``1 - no_meld_yet(turns)``."""
    turns = obs.turns[seat] if seat < len(obs.turns) else 0
    history = obs.discard_history[seat] if seat < len(obs.discard_history) else ()
    pts = model.points
    h = obs.hand_sizes[seat] + 1  # the hand it threw from: its cards plus the one drawn
    thrown = sorted(pts[c] for c in history)
    size = len(unseen_points) + len(thrown)
    none_yet = no_meld_yet(obs.game, turns)
    meld = 1.0 - none_yet
    highest = 1.0  # likelihood under the baseline (relative to a random player)
    hoarded = 1.0  # under the hoarder: with chance ``meld`` it throws from h - 3 loose cards
    order_cap = max(model.order) + 1  # throwing order its kept cards rank below (no bound)
    top: int | None = None  # points of its lowest discard read as its highest card
    if size and h > 1:
        cap = 1.0  # share of the cards worth at most its lowest discard so far (what it kept)
        for c in reversed(history):  # oldest first
            v = pts[c]
            at_most = (bisect_right(unseen_points, v) + bisect_right(thrown, v)) / size
            below = (bisect_left(unseen_points, v) + bisect_left(thrown, v)) / size
            if at_most <= cap and at_most > below:  # the highest of h cards under the cap
                ratio = _highest_of(h, at_most, below, cap)
                loose = _highest_of(h - 3, at_most, below, cap) if h > 3 else ratio
                mixed = (1.0 - meld) * ratio + meld * loose
                highest *= (1.0 - SLIP) * ratio + SLIP
                hoarded *= (1.0 - SLIP) * mixed + SLIP
                if (1.0 - SLIP) * max(ratio, mixed) >= SLIP:
                    # More likely its highest card than a slip: its other cards rank below it.
                    cap = at_most
                    top = v
                    order_cap = min(order_cap, model.order[c])
                # else more likely a slip (another card thrown): what it kept is not bounded by it
            # else: a card drawn above everything it kept and thrown at once: no evidence
        # A top discard it left lying: a highest-card thrower leaves a card only when all it
        # keeps is worth at most as much (else taking it and throwing the highest is better),
        # chance (F(v) / g) ** (h - 1) under its lowest cap g (an upper bound: its cap then was
        # no lower); a random player leaves half of them. Counted only as evidence against.
        # As for discards, a card left lying that is likelier a slip than all it kept being
        # worth at most as much bounds nothing; otherwise its kept cards rank below every card
        # worth as much (leaving a card says nothing on which of equal points it holds).
        declined = obs.declined[seat] if seat < len(obs.declined) else ()
        ceiling = _ceiling(model)
        for c in declined:
            v = pts[c]
            at_most = (bisect_right(unseen_points, v) + bisect_right(thrown, v)) / size
            if at_most < cap:
                fits = (1.0 - SLIP) * (at_most / cap) ** (h - 1)
                highest *= min(1.0, (fits + SLIP) / 0.5)
                hoarded *= min(1.0, (fits + SLIP) / 0.5)
                if fits < SLIP:
                    continue
            order_cap = min(order_cap, ceiling[v])
    if top is not None:
        # A card it is known to hold (a pickup, the GFF-5 flip card) ranking above a card it
        # threw as its highest: a highest-card thrower keeps such a card only in a meld (a
        # hoarder's held meld, about 3 of its h cards) or by a slip (a discard already read as
        # a slip is not counted twice).
        held = obs.known[seat] if seat < len(obs.known) else ()
        for c in held:
            if pts[c] > top:
                highest *= SLIP
                hoarded *= SLIP + (1.0 - SLIP) * meld * min(1.0, 3 / h)
    keeper = keeps_posterior(keeps_prior(obs, seat), history, model) if model.flexible else 0.0
    keeps = KEPT_HANDS * keeper
    if any(m.owner == seat for m in obs.table):
        shown = max(1.0 - none_yet, HOARDER_LAYS)
        lays, holds, random_lays = shown, HOARDER_LAYS, shown / 2
    else:
        lays, holds, random_lays = none_yet, 1.0, (1.0 + none_yet) / 2
    prior = profile_prior(obs, seat)
    w_base = prior.baseline * highest * lays
    w_hoard = prior.hoarder * hoarded * holds
    w_rand = prior.random * random_lays
    total = w_base + w_hoard + w_rand
    if total <= 0:
        return Behaviour(0.0, 0.0, 1.0, meld, order_cap, keeps)
    return Behaviour(w_base / total, w_hoard / total, w_rand / total, meld, order_cap, keeps)


def keeps_prior(obs: Observation, seat: int) -> float:
    """The chance that ``seat`` keeps the flexible cards whatever their points: learned over
    earlier deals (``Observation.keeps_flexible``), else :data:`KEEPS_PRIOR`."""
    got = obs.keeps_flexible[seat] if seat < len(obs.keeps_flexible) else None
    return KEEPS_PRIOR if got is None else got


def keeps_posterior(prior: float, discards: Sequence[int], model: GameModel) -> float:
    """The chance that a player keeps the flexible cards (:attr:`GameModel.flexible`) whatever
    their points, ``prior`` updated by its ``discards``: such a player throws one in
    :data:`KEEPER_THROWS_FLEXIBLE` of its discards, one throwing by points alone in
    :data:`POINTS_THROWS_FLEXIBLE`."""
    flexible = model.flexible
    if not flexible:
        return prior
    keeper, by_points = prior, 1.0 - prior
    for c in discards:
        if c in flexible:
            keeper *= KEEPER_THROWS_FLEXIBLE
            by_points *= POINTS_THROWS_FLEXIBLE
        else:
            keeper *= 1.0 - KEEPER_THROWS_FLEXIBLE
            by_points *= 1.0 - POINTS_THROWS_FLEXIBLE
    total = keeper + by_points
    return keeper / total if total > 0 else prior


def profile_prior(obs: Observation, seat: int) -> Behaviour:
    """The card-play prior of ``seat``: its profile learned over earlier deals
    (``Observation.profiles``), else :data:`BEHAVIOUR_PRIOR`."""
    got = obs.profiles[seat] if seat < len(obs.profiles) else None
    if got is None:
        return BEHAVIOUR_PRIOR
    return Behaviour(*got)


# Prior weight of "drops when likely lowest" for an opponent no deal has been learned from yet.
# Read from the player's own view, the passes of a player who stops on a fixed total are rarely
# on a total it reads as likely lowest, so they say little against this style and its weight
# stays near the prior; a player who does stop that way shows it within a few deals (GFF-8,
# TT-13; docs/strength.md, "A fixed-total player is read from a lower prior").
DROP_STYLE_PRIOR = 0.05


def drop_style(obs: Observation, seat: int) -> float:
    """The weight of "drops when likely lowest" for ``seat``: learned over earlier deals
    (``Observation.drop_styles``), else :data:`DROP_STYLE_PRIOR`."""
    got = obs.drop_styles[seat] if seat < len(obs.drop_styles) else None
    return DROP_STYLE_PRIOR if got is None else got


# Per game and table size: the share of turn starts on which the advice in every seat dropped
# (GFF-8) or knocked (TT-13), per tenth of q = S(t) ** (players - 1) read from that seat's own
# view (module docstring), made non-decreasing; measured by ``python -m bench.drop_curve --game G
# --players 2,3,4 --seed 5`` with --deals 1500 (Game Flip Flop) and 4000 (Triple Tunk). Game
# Flip Flop's is close to a step: the advice plays on below a q of about 0.7 and drops on most
# turn starts above 0.9; Triple Tunk's rises over the whole range, as a Triple Tunk player often
# plays on for a tunk out (TT-11) when likely lowest. A larger table reads the largest.
DROP_CURVE: dict[str, dict[int, tuple[float, ...]]] = {
    GAME_FLIP_FLOP: {
        2: (0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.015, 0.371, 0.960),
        3: (0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.066, 0.494, 0.904, 0.999),
        4: (0.000, 0.000, 0.000, 0.000, 0.000, 0.034, 0.383, 0.797, 0.975, 1.000),
    },
    TRIPLE_TUNK: {
        2: (0.001, 0.016, 0.091, 0.186, 0.281, 0.327, 0.452, 0.542, 0.619, 0.734),
        3: (0.001, 0.089, 0.217, 0.333, 0.400, 0.538, 0.593, 0.731, 0.748, 0.782),
        4: (0.008, 0.248, 0.345, 0.441, 0.508, 0.591, 0.681, 0.695, 0.784, 0.784),
    },
}


def drop_curve(game: str, players: int) -> tuple[float, ...]:
    """:data:`DROP_CURVE` of the table (the largest measured table beyond it)."""
    by_size = DROP_CURVE[game]
    return by_size.get(players) or by_size[max(by_size)]


def curve_at(curve: Sequence[float], q: float) -> float:
    """The curve read at ``q`` in [0, 1]: linear between the middles of its tenths."""
    x = q * len(curve) - 0.5
    if x <= 0.0:
        return curve[0]
    k = int(x)
    if k >= len(curve) - 1:
        return curve[-1]
    f = x - k
    return curve[k] * (1.0 - f) + curve[k + 1] * f


def likely_lowest(totals: Sequence[int], total: int, players: int) -> float:
    """How likely lowest a player reads its ``total``: ``S(total) ** (players - 1)``, with ``S``
    the share of the sorted ``totals`` (the other hands as that player reads them) above it."""
    return (1.0 - bisect_right(totals, total) / len(totals)) ** (players - 1)


def drop_chances(totals: Sequence[int], players: int, game: str) -> tuple[float, ...]:
    """Per total ``t`` from 0 to one past the highest of the sorted ``totals`` (the other hands'
    totals as the stopping player reads them, :func:`engine.advice.tunk.knock.others_totals`):
    the chance that a "drops when likely lowest" player stops holding ``t`` (:data:`DROP_CURVE`
    at :func:`likely_lowest`); a higher total reads the last entry. Empty when nothing was
    drawn."""
    if not totals or players < 2:
        return ()
    curve = drop_curve(game, players)
    return tuple(
        curve_at(curve, likely_lowest(totals, t, players)) for t in range(max(totals[-1], 0) + 2)
    )


def chance_at(chances: Sequence[float], total: int) -> float:
    """The entry of :func:`drop_chances` for ``total`` (0 when nothing was drawn)."""
    if not chances:
        return 0.0
    return chances[min(max(total, 0), len(chances) - 1)]


def drop_totals(obs: Observation, seat: int) -> DropTotals:
    """The weights of the fixed-total styles (:data:`FIXED_STYLES`) for ``seat``: learned over
    earlier deals (``Observation.drop_totals``), else :data:`DEFAULT_DROP_TOTALS`."""
    got = obs.drop_totals[seat] if seat < len(obs.drop_totals) else None
    return DEFAULT_DROP_TOTALS if got is None else got


def fixed_drop_chance(total: int, weights: DropTotals = DEFAULT_DROP_TOTALS) -> float:
    """P(an opponent of the fixed-total styles drops (knocks) at a turn start holding ``total``),
    over their ``weights`` (:data:`FIXED_STYLES` order; default: the prior, :data:`PRIOR`)."""
    return sum(w * style_knocks(s, total) for s, w in zip(FIXED_STYLES, weights, strict=True))


def drop_style_likelihoods(
    total: int,
    dropped: bool,
    chances: Sequence[float],
    weights: DropTotals = DEFAULT_DROP_TOTALS,
) -> tuple[float, float]:
    """Likelihood of dropping (``dropped``) or passing up a turn start on ``total`` under "drops
    when likely lowest" (its chance per total, :func:`drop_chances`) and under the fixed-total
    styles at their ``weights``."""
    lowest = chance_at(chances, total)
    fixed = fixed_drop_chance(total, weights)
    if dropped:
        return lowest, fixed
    return 1.0 - lowest, 1.0 - fixed


def passes_posterior(
    weight: float,
    passes: Sequence[int],
    chances: Sequence[float],
    weights: DropTotals = DEFAULT_DROP_TOTALS,
) -> float:
    """The weight of "drops when likely lowest" after the ``passes`` (totals an opponent was
    seen to play on with this deal, ``Observation.passes``) when it stops on each total with
    ``chances`` (:func:`drop_chances`), against the fixed-total styles at ``weights``: a pass on
    a likely lowest total is evidence against it."""
    if not passes or weight <= 0.0:
        return weight
    lowest = fixed = 1.0
    for t in passes:
        a, b = drop_style_likelihoods(t, False, chances, weights)
        lowest *= a
        fixed *= b
    total = weight * lowest + (1.0 - weight) * fixed
    return weight * lowest / total if total > 0 else weight


def style_knocks(style: str, total: int) -> float:
    """P(a player of ``style`` holding ``total`` points knocks at the start of its turn)."""
    limit = KNOCK_LIMITS.get(style)
    if limit is not None:
        return 1.0 if total <= limit else 0.0
    if style == "random":
        return RANDOM_KNOCK
    return 0.0


def style_weights(obs: Observation, seat: int) -> dict[str, float]:
    """Posterior style weights of ``seat``: its learned weights (:func:`drop_totals`, else the
    prior) times the likelihood of its passes (a pass holding ``t`` <= 10 points:
    ``1 - style_knocks(style, t)``), normalised."""
    passes = obs.passes[seat] if seat < len(obs.passes) else ()
    weights = dict(zip(FIXED_STYLES, drop_totals(obs, seat), strict=True))
    for t in passes:
        for s in weights:
            weights[s] *= 1.0 - style_knocks(s, t)
    total = sum(weights.values())
    if total <= 0:
        return {"cautious": 1.0}
    return {s: w / total for s, w in weights.items()}


def knock_curve(obs: Observation, seat: int) -> list[float]:
    """P(``seat`` knocks at its next turn start holding each total 0..:data:`KNOCK_LIMIT`,
    then (last entry) any total above it), over its styles: the weights are read once."""
    weights = style_weights(obs, seat).items()
    return [sum(w * style_knocks(s, total) for s, w in weights) for total in range(KNOCK_LIMIT + 2)]


__all__ = [
    "BEHAVIOUR_PRIOR",
    "DEFAULT_DROP_TOTALS",
    "DROP_CURVE",
    "DROP_STYLE_PRIOR",
    "DropTotals",
    "FIXED_STYLES",
    "HOARDER_LAYS",
    "KEEPER_THROWS_FLEXIBLE",
    "KEEPS_FLOOR",
    "KEEPS_PRIOR",
    "KEPT_HANDS",
    "KNOCK_LIMITS",
    "KNOCK_LIMIT",
    "NO_MELD_YET",
    "POINTS_THROWS_FLEXIBLE",
    "PRIOR",
    "RANDOM_KNOCK",
    "SLIP",
    "behaviour",
    "chance_at",
    "curve_at",
    "drop_chances",
    "drop_curve",
    "drop_style",
    "drop_style_likelihoods",
    "drop_totals",
    "fixed_drop_chance",
    "keeps_posterior",
    "keeps_prior",
    "knock_curve",
    "likely_lowest",
    "no_meld_yet",
    "passes_posterior",
    "profile_prior",
    "style_knocks",
    "style_weights",
]
