"""Opponent profiles across deals: which card-play hypothesis each opponent follows, learned
from the hands it shows when a deal ends.

Within one deal the opponent model (:func:`engine.advice.tunk.styles.behaviour`) weighs three
playing hypotheses (baseline-like, hoarder, random) by what the opponent did, starting from a
prior. A deal carries little evidence (a Triple Tunk deal often ends on the first or second
turn), and the default prior is one guess for every player: a good player who keeps pairs and
runs is read as holding less than it does, a player who throws its highest card as holding
more. Across deals the shown hands settle it. At a knock (TT-13) or a drop (GFF-8) every hand
is shown; for each opponent that had played and did not end the deal (a knocker's own total is
low because it chose to knock, which no hypothesis models), the likelihood of its shown hand
under each hypothesis alone is read off :data:`PROFILE_DRAWS` hands drawn from the sampler of
the asking player's last view of the deal, that opponent's hand alone: a drawn hand counts when
its total is within :data:`TOTAL_BAND` points and it holds a meld exactly when the shown hand
does. A meld shown at a knock or drop was held, not laid (GFF-8 / TT-13 count it), which a
player who lays at once never does, and a hand shown without one is less likely from a player
who holds its melds.
The profile estimates the mixture weights, not which one hypothesis is true (no single
hypothesis fits a real player, so a posterior over them would settle on one and overshoot): after
each deal every weight moves, at :data:`PROFILE_RATE`, towards that hypothesis's share of the
deal's evidence (its weight times its likelihood, normalised), an online expectation-maximisation
that follows a player who changes style; :data:`PROFILE_FLOOR` of the default prior is mixed back
so that no hypothesis is ruled out.

A deal an opponent ends by emptying its hand (TT-11 tunk out, GFF-9 / GFF-10) shows no other
hand, but it shows every card that opponent held after its draw (:func:`out_likelihoods`): from
the asking player's view at the start of that turn, a hand drawn under a hypothesis matches when
its total is within :data:`TOTAL_BAND` of the hand the opponent held and it too empties with the
card drawn. Asking the drawn hand to go out as well matters: the hands that go out are a chosen
sample (a player who holds a meld goes out more often), and a likelihood of the total alone
would read that choice as evidence. Against a player that holds its melds, most Triple Tunk
deals end this way (69% heads-up), so without it the profile would learn from its worst hands
only. An out from one or two cards (:data:`SMALL_OUT`: the card drawn melds with what little is
left) is not read: every way of playing goes out from such a hand about as often, and what
differs is the model's error, not evidence. Against a player that throws its highest card and
lays at once, those outs kept its weight of random play between 0.07 and 0.33 over 400
heads-up Triple Tunk deals, where the shown hands alone take it to 0.04.

The profile goes back in as ``Observation.profiles`` (the API's per-opponent ``profile``), the
prior the in-deal evidence then updates.

The same shown hands teach each opponent's drop timing (:func:`drop_timing_likelihoods`), a
mixture of five styles: "drops when likely lowest" (``engine.advice.tunk.styles``) and the
fixed-total styles (never, at 5, at 10, at random), all weighted per opponent. The seat that
ended the deal dropped (knocked) on its total; every other opponent that had played passed up
its last turn start holding about the total it shows. "Drops when likely lowest" reads either
against the chance that such a player stops on that total, read from that player's own view
of the others holding the hand it shows (:func:`engine.advice.tunk.knock.stop_chances`, from
the asking player's last view of the deal); a fixed-total style reads a drop by its
limit, and a pass on a total at or under its limit as the chance that the player held more at
its turn start and came down since (:func:`pass_under_limit`). The five weights move together
the same way as the card-play weights (:func:`updated_drop_timing`), so "drops when likely
lowest" is weighed against what this opponent was seen to be, not against the fixed styles'
prior: a player that never drops, passing on low totals, settles on "never" rather than on
"likely lowest". They go back in as ``Observation.drop_styles`` and ``Observation.drop_totals``
(the API's ``profile.drops_when_lowest`` and ``profile.drop_totals``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.advice.situation import Observation
from engine.advice.tunk.common import HandSampler
from engine.advice.tunk.knock import ends_play, opponent_sampler, stop_chances
from engine.advice.tunk.models import model_for
from engine.advice.tunk.styles import (
    BEHAVIOUR_PRIOR,
    DEFAULT_DROP_TOTALS,
    DROP_STYLE_PRIOR,
    FIXED_STYLES,
    KEEPS_FLOOR,
    KEEPS_PRIOR,
    KNOCK_LIMITS,
    DropTotals,
    chance_at,
    keeps_posterior,
    keeps_prior,
    style_knocks,
)

Profile = tuple[float, float, float]  # weights of (baseline, hoarder, random), summing to 1

PROFILE_DRAWS = 400  # hands drawn per hypothesis to read one shown hand's likelihood
TOTAL_BAND = 2  # a drawn total within this many points of the shown one counts as a match
PROFILE_RATE = 0.3  # weight of one deal's evidence in the profile (about the last three deals)
PROFILE_FLOOR = 0.02  # share of the default prior mixed back after every deal
# A tunk out from a hand of at most this many cards before the draw is not read (module docstring).
SMALL_OUT = 2
# A pass shown at a total far under a fixed-total style's limit keeps at least this likelihood
# under that style (a meld laid can take a whole hand under any limit in one turn).
PASS_FLOOR = 0.05
DEFAULT_PROFILE: Profile = (
    BEHAVIOUR_PRIOR.baseline,
    BEHAVIOUR_PRIOR.hoarder,
    BEHAVIOUR_PRIOR.random,
)


def _seat_draws(obs: Observation, seat: int) -> tuple[int, HandSampler] | None:
    """Where ``seat`` sits among the sampled opponents and the sampler that draws its hand
    alone; None when its hand says nothing of how it plays (it had not played, holds no hidden
    card, or is not an opponent)."""
    if not (seat < len(obs.turns) and obs.turns[seat] > 0):
        return None
    opponents, sampler = opponent_sampler(obs, only=seat)
    if seat not in opponents:
        return None
    index = opponents.index(seat)
    if not sampler.counts[index]:
        return None
    return index, sampler


def _likelihoods(
    sampler: HandSampler,
    index: int,
    match: Callable[[tuple[int, ...]], float],
    rng: random.Random,
) -> Profile:
    """Per playing hypothesis alone, how well :data:`PROFILE_DRAWS` hands of opponent ``index``
    drawn under it ``match`` what was seen (each 0 to 1), as a likelihood that is never zero."""
    out = []
    for hypothesis in range(3):
        draw = sampler.with_hypothesis(index, hypothesis).sample
        hits = sum(match(draw(rng)[index]) for _ in range(PROFILE_DRAWS))
        out.append((hits + 0.5) / (PROFILE_DRAWS + 1))
    return out[0], out[1], out[2]


def shown_likelihoods(
    obs: Observation, seat: int, shown: Sequence[int], rng: random.Random
) -> Profile | None:
    """Relative likelihood of the hand ``seat`` showed, under each playing hypothesis alone,
    given ``obs`` (the asking player's view when the deal ended): a drawn hand matches when its
    total is within :data:`TOTAL_BAND` and it holds a meld exactly when the shown hand does (a
    meld shown at a knock or drop was held, not laid: GFF-8 / TT-13 count it). None when it says
    nothing (:func:`_seat_draws`)."""
    found = _seat_draws(obs, seat)
    if found is None:
        return None
    index, sampler = found
    model = model_for(obs.game)
    pts = model.points
    target = sum(pts[c] for c in shown)
    held = model.has_meld(shown)
    has_meld = model.has_meld

    def match(hand: tuple[int, ...]) -> float:
        if abs(sum(pts[c] for c in hand) - target) > TOTAL_BAND:
            return 0.0
        return 1.0 if has_meld(hand) == held else 0.0

    return _likelihoods(sampler, index, match, rng)


def out_likelihoods(
    obs: Observation,
    seat: int,
    revealed: Sequence[int],
    picked: int | None,
    rng: random.Random,
) -> Profile | None:
    """Relative likelihood, under each playing hypothesis alone, that ``seat`` emptied its hand
    with the cards ``revealed`` (every card it held after its draw), given ``obs``, the asking
    player's view at the start of that turn (module docstring); ``picked`` is the top discard
    it took (None: a stock draw, so each revealed card is equally likely the one drawn). None
    when it says nothing (:func:`_seat_draws`)."""
    found = _seat_draws(obs, seat)
    if found is None:
        return None
    index, sampler = found
    pts = model_for(obs.game).points
    whole = sum(pts[c] for c in revealed)
    drawn = (picked,) if picked is not None else tuple(sorted(set(revealed)))
    targets = [(c, whole - pts[c]) for c in drawn]
    table, game = obs.table, obs.game

    def match(hand: tuple[int, ...]) -> float:
        total = sum(pts[c] for c in hand)
        return sum(
            1.0
            for card, target in targets
            if abs(total - target) <= TOTAL_BAND
            and card not in hand
            and ends_play(game, (*hand, card), table, seat)
        ) / len(targets)

    return _likelihoods(sampler, index, match, rng)


def out_pass_likelihoods(
    obs: Observation, seat: int, revealed: Sequence[int], picked: int | None
) -> tuple[None, DropTotals] | None:
    """A player that went out passed up the start of that turn (C-5) holding every card it
    revealed but the one it drew: the likelihood of that pass under each fixed-total style
    (:data:`engine.advice.tunk.styles.FIXED_STYLES`), ``obs`` the asking player's view at that
    turn start; after a stock draw (``picked`` None) each revealed card is equally likely the
    one drawn, and the likelihoods are averaged over them. Neutral (None) for "drops when likely
    lowest": a hand about to go out is one a player stopping so plays on with more often than
    its total says (it went out because its cards were close), so the pass is a chosen sample.
    None when that turn start offered no knock (TT-12 waiting) or no card was revealed."""
    if seat < len(obs.waiting) and obs.waiting[seat] > 0:
        return None
    if not revealed:
        return None
    pts = model_for(obs.game).points
    whole = sum(pts[c] for c in revealed)
    drawn = (picked,) if picked is not None else tuple(revealed)
    k = len(drawn)
    fixed = [
        sum(1.0 - style_knocks(style, whole - pts[c]) for c in drawn) / k for style in FIXED_STYLES
    ]
    return None, (fixed[0], fixed[1], fixed[2], fixed[3])


def updated_profile(prior: Profile | None, likelihoods: Profile | None) -> Profile:
    """The profile after one deal: each hypothesis's share of this deal's evidence (``prior``,
    None: the default, times the ``likelihoods``, normalised) moved into the weights at
    :data:`PROFILE_RATE`, with :data:`PROFILE_FLOOR` of the default prior mixed back."""
    base = prior if prior is not None else DEFAULT_PROFILE
    if likelihoods is not None:
        weights = [b * lk for b, lk in zip(base, likelihoods, strict=True)]
        total = sum(weights)
        if total > 0:
            r = PROFILE_RATE
            moved = [(1 - r) * b + r * w / total for b, w in zip(base, weights, strict=True)]
            base = (moved[0], moved[1], moved[2])
    f = PROFILE_FLOOR
    mixed = [(1 - f) * b + f * d for b, d in zip(base, DEFAULT_PROFILE, strict=True)]
    total = sum(mixed)
    return mixed[0] / total, mixed[1] / total, mixed[2] / total


def pass_under_limit(game: str, total: int, limit: int) -> float:
    """Likelihood that a player who stops on any total up to ``limit`` passed up its last turn
    start and now shows ``total``: 1 above the limit; at or under it, the chance it held more at
    that turn start and came down since (drew a lower card than it threw, or laid a meld),
    taken as falling linearly by one card's worth of points (the game's highest card value)
    for each point under the limit, never below :data:`PASS_FLOOR`."""
    if total > limit:
        return 1.0
    span = max(model_for(game).points) + 1
    return max(PASS_FLOOR, 1.0 - (limit - total + 1) / span)


def drop_timing_likelihoods(
    game: str, total: int, dropped: bool, chances: Sequence[float]
) -> tuple[float, DropTotals]:
    """Likelihood of a drop (``dropped``: on ``total`` exactly) or of a pass shown by the total
    at the deal's end under "drops when likely lowest" (its chance per total, ``chances``) and
    under each fixed-total style (:data:`engine.advice.tunk.styles.FIXED_STYLES` order)."""
    lowest = chance_at(chances, total)
    if dropped:
        k = [style_knocks(s, total) for s in FIXED_STYLES]
        return lowest, (k[0], k[1], k[2], k[3])
    k = [
        pass_under_limit(game, total, KNOCK_LIMITS[s])
        if s in KNOCK_LIMITS
        else 1.0 - style_knocks(s, total)
        for s in FIXED_STYLES
    ]
    return 1.0 - lowest, (k[0], k[1], k[2], k[3])


def updated_drop_timing(
    prior: float | None,
    totals: DropTotals | None,
    likelihoods: tuple[float | None, DropTotals] | None,
) -> tuple[float, DropTotals]:
    """The "drops when likely lowest" weight and the fixed-total styles' weights after one deal:
    the five styles' mixture (``prior`` for the first, ``(1 - prior) * totals`` for the others;
    None: the defaults) moved like the card-play profile (:func:`updated_profile`: each style's
    share of this deal's evidence at :data:`PROFILE_RATE`, with :data:`PROFILE_FLOOR` of the
    default mixed back). A likelihood of None for "likely lowest" says nothing of it: the
    fixed styles' shares move among themselves and its weight stays as it was."""
    r = DROP_STYLE_PRIOR if prior is None else prior
    fixed = DEFAULT_DROP_TOTALS if totals is None else totals
    if likelihoods is not None and likelihoods[0] is None:
        _, among_fixed = updated_drop_timing(0.0, fixed, (0.0, likelihoods[1]))
        return r, among_fixed
    weights = [r, *((1.0 - r) * w for w in fixed)]
    if likelihoods is not None:
        read, per_style = likelihoods
        lowest = 0.0 if read is None else read
        evidence = [w * lk for w, lk in zip(weights, (lowest, *per_style), strict=True)]
        total = sum(evidence)
        if total > 0:
            rate = PROFILE_RATE
            moved = zip(weights, evidence, strict=True)
            weights = [(1 - rate) * w + rate * e / total for w, e in moved]
    default = [DROP_STYLE_PRIOR, *((1.0 - DROP_STYLE_PRIOR) * w for w in DEFAULT_DROP_TOTALS)]
    f = PROFILE_FLOOR
    mixed = [(1 - f) * w + f * d for w, d in zip(weights, default, strict=True)]
    rest = sum(mixed[1:])
    shares = [w / rest for w in mixed[1:]]
    return mixed[0] / sum(mixed), (shares[0], shares[1], shares[2], shares[3])


def _learned_so_far(
    obs: Observation, seat: int
) -> tuple[Profile | None, float | None, DropTotals | None]:
    """``seat``'s card-play profile, "drops when likely lowest" weight and fixed-total styles'
    weights as the request sent them (None: none)."""
    profile = obs.profiles[seat] if seat < len(obs.profiles) else None
    style = obs.drop_styles[seat] if seat < len(obs.drop_styles) else None
    totals = obs.drop_totals[seat] if seat < len(obs.drop_totals) else None
    return profile, style, totals


@dataclass(frozen=True, slots=True)
class ProfileUpdate:
    """One seat's profile after a deal: the ``profile`` for the next deal (None: the default
    prior), the total it showed (None: it showed nothing, or went out) and the ``likelihoods``
    it was read with (None: not learned from, and ``reason`` says why); ``drop_style``, the
    weight of "drops when likely lowest" for the next deal, and ``drop_totals``, the weights of
    the fixed-total styles (None: the default prior); ``held_meld``, whether the shown hand held
    a meld (None: no hand was read); ``keeps_flexible``, the chance that it keeps the flexible
    cards whatever their points, after this deal's discards (None: the game has none)."""

    seat: int
    profile: Profile | None
    shown_total: int | None
    likelihoods: Profile | None
    reason: str
    drop_style: float | None = None
    drop_totals: DropTotals | None = None
    held_meld: bool | None = None
    keeps_flexible: float | None = None


def updated_keeps(obs: Observation, seat: int) -> float | None:
    """``seat``'s chance of keeping the flexible cards whatever their points for the next deal:
    what was learned so far updated by its discards this deal
    (:func:`engine.advice.tunk.styles.keeps_posterior`), with
    :data:`engine.advice.tunk.styles.KEEPS_FLOOR` of the prior mixed back; None in a game
    without flexible cards."""
    model = model_for(obs.game)
    if not model.flexible:
        return None
    history = obs.discard_history[seat] if seat < len(obs.discard_history) else ()
    read = keeps_posterior(keeps_prior(obs, seat), history, model)
    return (1.0 - KEEPS_FLOOR) * read + KEEPS_FLOOR * KEEPS_PRIOR


def _with_keeps(obs: Observation, updates: list[ProfileUpdate]) -> tuple[ProfileUpdate, ...]:
    """``updates`` with each seat's :func:`updated_keeps`."""
    return tuple(replace(u, keeps_flexible=updated_keeps(obs, u.seat)) for u in updates)


Timing = tuple[float | None, DropTotals | None]  # "likely lowest" weight, fixed styles' weights


def _read(
    seat: int,
    prior: Profile | None,
    total: int | None,
    likelihoods: Profile | None,
    timing: Timing,
    why_not: str,
) -> ProfileUpdate:
    """``seat``'s update: its profile moved by the ``likelihoods``, or kept when there are none
    (and ``why_not`` says why)."""
    if likelihoods is None:
        return ProfileUpdate(seat, prior, total, None, why_not, *timing)
    profile = updated_profile(prior, likelihoods)
    return ProfileUpdate(seat, profile, total, likelihoods, "", *timing)


def profile_updates(
    obs: Observation,
    shown: Mapping[int, Sequence[int]],
    ender: int | None,
    seed: int = 0,
) -> tuple[ProfileUpdate, ...]:
    """Every opponent's profile after a deal that ended with the hands ``shown`` (seat ->
    cards), clockwise from the asking seat's left: ``obs.profiles`` updated by each opponent's
    shown total, except the seat ``ender`` that knocked or dropped; ``obs.drop_styles`` and
    ``obs.drop_totals`` updated by the ender's drop and the others' passes (module docstring)."""
    rng = random.Random(seed)
    model = model_for(obs.game)
    pts = model.points
    out: list[ProfileUpdate] = []
    for seat in obs.opponents():
        prior, style, totals = _learned_so_far(obs, seat)
        timing: Timing = (style, totals)
        cards = shown.get(seat)
        if cards is None:
            out.append(ProfileUpdate(seat, prior, None, None, "its hand was not shown", *timing))
            continue
        total = sum(pts[c] for c in cards)
        played = seat < len(obs.turns) and obs.turns[seat] > 0
        if seat == ender or played:
            chances = stop_chances(obs, seat, cards, random.Random(seed + 1 + seat))
            read = drop_timing_likelihoods(obs.game, total, seat == ender, chances)
            timing = updated_drop_timing(style, totals, read)
        if seat == ender:
            reason = "it ended the deal, so its total is low by its own choice"
            out.append(ProfileUpdate(seat, prior, total, None, reason, *timing))
            continue
        likelihoods = shown_likelihoods(obs, seat, cards, rng)
        why_not = "it had not played a turn, so nothing it did constrains its hand"
        update = _read(seat, prior, total, likelihoods, timing, why_not)
        if likelihoods is not None:
            update = replace(update, held_meld=model.has_meld(cards))
        out.append(update)
    return _with_keeps(obs, out)


def out_updates(
    obs: Observation,
    seat: int,
    revealed: Sequence[int],
    picked: int | None,
    seed: int = 0,
) -> tuple[ProfileUpdate, ...]:
    """Every opponent's profile after a deal that ``seat`` ended by emptying its hand (TT-11,
    GFF-9 / GFF-10), ``obs`` the asking player's view at the start of that turn: ``seat``'s
    card-play profile moves by :func:`out_likelihoods` unless it went out from at most
    :data:`SMALL_OUT` cards, and its drop timing by the turn start it passed up
    (:func:`out_pass_likelihoods`); the others showed nothing, so they keep theirs."""
    rng = random.Random(seed)
    out: list[ProfileUpdate] = []
    for s in obs.opponents():
        prior, style, totals = _learned_so_far(obs, s)
        timing: Timing = (style, totals)
        if s != seat:
            reason = "another player went out, so its hand was not shown"
            out.append(ProfileUpdate(s, prior, None, None, reason, *timing))
            continue
        passed = out_pass_likelihoods(obs, s, revealed, picked)
        if passed is not None:
            timing = updated_drop_timing(style, totals, passed)
        held = len(revealed) - 1
        if held <= SMALL_OUT:
            reason = (
                f"it went out from {held} card{'' if held == 1 else 's'}, which any way of "
                "playing does about as often"
            )
            out.append(ProfileUpdate(s, prior, None, None, reason, *timing))
            continue
        likelihoods = out_likelihoods(obs, s, revealed, picked, rng)
        why_not = "it had not played a turn before going out, so nothing constrains its hand"
        out.append(_read(s, prior, None, likelihoods, timing, why_not))
    return _with_keeps(obs, out)


@dataclass(frozen=True, slots=True)
class Learned:
    """What a player knows of every seat after a deal, by seat, ready to go back into the next
    deal's :class:`Observation` (``profiles``, ``drop_styles``, ``drop_totals``); the asking
    seat's entries are kept as they were (None when none)."""

    profiles: tuple[Profile | None, ...]
    drop_styles: tuple[float | None, ...]
    drop_totals: tuple[DropTotals | None, ...]
    keeps_flexible: tuple[float | None, ...] = ()

    def applied_to(self, obs: Observation) -> Observation:
        """``obs`` carrying what was learned (``obs`` itself when nothing was)."""
        if not (self.profiles or self.drop_styles or self.drop_totals or self.keeps_flexible):
            return obs
        return replace(
            obs,
            profiles=self.profiles,
            drop_styles=self.drop_styles,
            drop_totals=self.drop_totals,
            keeps_flexible=self.keeps_flexible,
        )


NOTHING_LEARNED = Learned((), (), ())


def learned_by_seat(obs: Observation, updates: Sequence[ProfileUpdate]) -> Learned:
    """Every seat's card-play profile and drop timing from the opponents' ``updates``."""
    by_seat = {u.seat: (u.profile, u.drop_style, u.drop_totals) for u in updates}
    learned = [by_seat.get(s) or _learned_so_far(obs, s) for s in range(obs.n_players)]
    so_far = obs.keeps_flexible + (None,) * (obs.n_players - len(obs.keeps_flexible))
    keeps = {u.seat: u.keeps_flexible for u in updates}
    return Learned(
        tuple(p for p, _, _ in learned),
        tuple(d for _, d, _ in learned),
        tuple(t for _, _, t in learned),
        tuple(keeps.get(s, so_far[s]) for s in range(obs.n_players)),
    )


def learn_profiles(
    obs: Observation,
    shown: Mapping[int, Sequence[int]],
    ender: int | None,
    seed: int = 0,
) -> Learned:
    """Every seat's card-play profile and drop timing after a deal a knock or drop ended
    (:func:`profile_updates`)."""
    return learned_by_seat(obs, profile_updates(obs, shown, ender, seed))


def learn_from_out(
    obs: Observation,
    seat: int,
    revealed: Sequence[int],
    picked: int | None,
    seed: int = 0,
) -> Learned:
    """Every seat's profile and drop timing after a deal ``seat`` ended by emptying its hand
    (:func:`out_updates`)."""
    return learned_by_seat(obs, out_updates(obs, seat, revealed, picked, seed))


_NAMES = ("throws its highest card", "holds its melds", "throws any card")
_TOTAL_NAMES = ("never", "at 5 or less", "at 10 or less", "at random")


def _timing_sentence(u: ProfileUpdate) -> str:
    """What ``u`` says of the seat's drop timing ("" when nothing was learned)."""
    if u.drop_style is None:
        return ""
    out = f" Its weight of dropping when likely lowest: {u.drop_style:.2f}."
    if u.drop_totals is not None:
        shares = ", ".join(
            f"{name} {w:.2f}" for name, w in zip(_TOTAL_NAMES, u.drop_totals, strict=True)
        )
        out += f" Otherwise it drops {shares}."
    return out


def profile_explanation(updates: Sequence[ProfileUpdate]) -> str:
    """One sentence per opponent: what its shown hand says, its profile for the next deal, its
    drop timing and (Triple Tunk) its chance of keeping the flexible cards."""
    parts = []
    for u in updates:
        timing = _timing_sentence(u)
        if u.keeps_flexible is not None:
            keeps = u.keeps_flexible
            timing += f" Its chance of keeping wild and ? cards whatever their worth: {keeps:.2f}."
        likelihoods = u.likelihoods
        if likelihoods is None:
            parts.append(f"Seat {u.seat} is not learned from: {u.reason}.{timing}")
            continue
        assert u.profile is not None
        best = max(range(3), key=lambda k: likelihoods[k])
        b, h, r = u.profile
        what = "went out" if u.shown_total is None else f"showed {u.shown_total} points"
        if u.held_meld is not None:
            what += " holding a meld" if u.held_meld else " and no meld"
        parts.append(
            f"Seat {u.seat} {what}, likeliest for a player who "
            f"{_NAMES[best]}; its profile for the next deal: baseline {b:.2f}, hoarder {h:.2f}, "
            f"random {r:.2f}.{timing}"
        )
    parts.append("Send each profile back as that opponent's `profile` in the next deal.")
    return " ".join(parts)


__all__ = [
    "DEFAULT_PROFILE",
    "PROFILE_DRAWS",
    "PROFILE_FLOOR",
    "PASS_FLOOR",
    "PROFILE_RATE",
    "SMALL_OUT",
    "TOTAL_BAND",
    "Learned",
    "NOTHING_LEARNED",
    "Profile",
    "ProfileUpdate",
    "learn_from_out",
    "learn_profiles",
    "learned_by_seat",
    "out_likelihoods",
    "out_pass_likelihoods",
    "out_updates",
    "pass_under_limit",
    "drop_timing_likelihoods",
    "profile_explanation",
    "profile_updates",
    "shown_likelihoods",
    "updated_drop_timing",
    "updated_keeps",
    "updated_profile",
]
