"""Opponent profiles across deals: which card-play hypothesis each opponent follows, learned
from the hands it shows when a deal ends.

Within one deal the opponent model (:func:`engine.advice.tunk.styles.behaviour`) weighs three
playing hypotheses (baseline-like, hoarder, random) by what the opponent did, starting from a
prior. A deal carries little evidence (a Triple Tunk deal often ends on the first or second
turn), and the default prior is one guess for every player: a good player who keeps pairs and
runs is read as holding less than it does, a player who throws its highest card as holding
more. Across deals the shown hands settle it. At a knock (TT-13) or a drop (GFF-8) every hand
is shown; for each opponent that had played and did not end the deal (a knocker's own total is
low because it chose to knock, which no hypothesis models), the likelihood of its shown total
under each hypothesis alone is read off :data:`PROFILE_DRAWS` hands drawn from the sampler of
the asking player's last view of the deal, that opponent's hand alone (a total within
:data:`TOTAL_BAND` points counts).
The profile estimates the mixture weights, not which one hypothesis is true (no single
hypothesis fits a real player, so a posterior over them would settle on one and overshoot): after
each deal every weight moves, at :data:`PROFILE_RATE`, towards that hypothesis's share of the
deal's evidence (its weight times its likelihood, normalised), an online expectation-maximisation
that follows a player who changes style; :data:`PROFILE_FLOOR` of the default prior is mixed back
so that no hypothesis is ruled out.

The profile goes back in as ``Observation.profiles`` (the API's per-opponent ``profile``), the
prior the in-deal evidence then updates.

The same shown hands teach each opponent's drop timing (:func:`drop_style_likelihoods`): the
weight of "drops when likely lowest" (``engine.advice.tunk.styles``) against the fixed-total
styles (never, at 5, at 10, at random, at their prior weights). The seat that ended the deal
dropped (knocked) on its total; every other opponent that had played passed up its last turn
start holding about the total it shows. Either is read against the total a "drops when likely
lowest" player drops on (:func:`engine.advice.tunk.styles.lowest_cutoff` over
:data:`CUTOFF_DRAWS` draws of the opponents' hands from the asking player's last view), and the
weight moves the same way as the card-play weights (:func:`updated_drop_style`). It goes back in
as ``Observation.drop_styles`` (the API's ``profile.drops_when_lowest``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.advice.situation import Observation
from engine.advice.tunk.knock import likely_lowest, opponent_sampler
from engine.advice.tunk.models import model_for
from engine.advice.tunk.styles import (
    BEHAVIOUR_PRIOR,
    DROP_STYLE_PRIOR,
    drop_style_likelihoods,
    lowest_cutoff,
)

Profile = tuple[float, float, float]  # weights of (baseline, hoarder, random), summing to 1

PROFILE_DRAWS = 400  # hands drawn per hypothesis to read one shown total's likelihood
TOTAL_BAND = 2  # a drawn total within this many points of the shown one counts as a match
PROFILE_RATE = 0.3  # weight of one deal's evidence in the profile (about the last three deals)
PROFILE_FLOOR = 0.02  # share of the default prior mixed back after every deal
CUTOFF_DRAWS = 200  # draws of every opponent's hand that place a likely lowest total
DEFAULT_PROFILE: Profile = (
    BEHAVIOUR_PRIOR.baseline,
    BEHAVIOUR_PRIOR.hoarder,
    BEHAVIOUR_PRIOR.random,
)


def shown_likelihoods(
    obs: Observation, seat: int, shown: Sequence[int], rng: random.Random
) -> Profile | None:
    """Relative likelihood of the total of the hand ``seat`` showed, under each playing
    hypothesis alone, given ``obs`` (the asking player's view when the deal ended); None when
    it says nothing (the seat had not played, holds no hidden card, or is not an opponent)."""
    if not (seat < len(obs.turns) and obs.turns[seat] > 0):
        return None
    opponents, sampler = opponent_sampler(obs, only=seat)
    if seat not in opponents:
        return None
    index = opponents.index(seat)
    if not sampler.counts[index]:
        return None
    pts = model_for(obs.game).points
    target = sum(pts[c] for c in shown)
    out = []
    for hypothesis in range(3):
        draw = sampler.with_hypothesis(index, hypothesis).sample
        hits = 0
        for _ in range(PROFILE_DRAWS):
            if abs(sum(pts[c] for c in draw(rng)[index]) - target) <= TOTAL_BAND:
                hits += 1
        out.append((hits + 0.5) / (PROFILE_DRAWS + 1))
    return out[0], out[1], out[2]


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


def updated_drop_style(prior: float | None, likelihoods: tuple[float, float] | None) -> float:
    """The "drops when likely lowest" weight after one deal, moved like the card-play profile
    (:func:`updated_profile`: its share of this deal's evidence at :data:`PROFILE_RATE`, with
    :data:`PROFILE_FLOOR` of the prior mixed back)."""
    r = DROP_STYLE_PRIOR if prior is None else prior
    if likelihoods is not None:
        lowest, fixed = likelihoods
        total = r * lowest + (1.0 - r) * fixed
        if total > 0:
            r = (1 - PROFILE_RATE) * r + PROFILE_RATE * r * lowest / total
    return (1 - PROFILE_FLOOR) * r + PROFILE_FLOOR * DROP_STYLE_PRIOR


def drop_cutoff(obs: Observation, rng: random.Random) -> int:
    """The highest total a "drops when likely lowest" player drops on in ``obs`` (its opponents'
    hands drawn :data:`CUTOFF_DRAWS` times from the opponent model)."""
    opponents, sampler = opponent_sampler(obs)
    pts = model_for(obs.game).points
    drawn = sorted(
        sum(pts[c] for c in hand) for _ in range(CUTOFF_DRAWS) for hand in sampler.sample(rng)
    )
    players = 1 + len(opponents)
    return lowest_cutoff(drawn, players, likely_lowest(obs.game, players))


@dataclass(frozen=True, slots=True)
class ProfileUpdate:
    """One seat's profile after a deal: the ``profile`` for the next deal (None: the default
    prior), the total it showed and the ``likelihoods`` it was read with (None: not learned
    from, and ``reason`` says why); ``drop_style``, the weight of "drops when likely lowest" for
    the next deal (None: the default prior)."""

    seat: int
    profile: Profile | None
    shown_total: int | None
    likelihoods: Profile | None
    reason: str
    drop_style: float | None = None


def profile_updates(
    obs: Observation,
    shown: Mapping[int, Sequence[int]],
    ender: int | None,
    seed: int = 0,
) -> tuple[ProfileUpdate, ...]:
    """Every opponent's profile after a deal that ended with the hands ``shown`` (seat ->
    cards), clockwise from the asking seat's left: ``obs.profiles`` updated by each opponent's
    shown total, except the seat ``ender`` that knocked or dropped; ``obs.drop_styles`` updated
    by the ender's drop and the others' passes (module docstring)."""
    rng = random.Random(seed)
    pts = model_for(obs.game).points
    cutoff = drop_cutoff(obs, random.Random(seed + 1))
    out: list[ProfileUpdate] = []
    for seat in obs.opponents():
        prior = obs.profiles[seat] if seat < len(obs.profiles) else None
        style = obs.drop_styles[seat] if seat < len(obs.drop_styles) else None
        cards = shown.get(seat)
        if cards is None:
            out.append(ProfileUpdate(seat, prior, None, None, "its hand was not shown", style))
            continue
        total = sum(pts[c] for c in cards)
        played = seat < len(obs.turns) and obs.turns[seat] > 0
        if seat == ender or played:
            style = updated_drop_style(style, drop_style_likelihoods(total, seat == ender, cutoff))
        if seat == ender:
            reason = "it ended the deal, so its total is low by its own choice"
            out.append(ProfileUpdate(seat, prior, total, None, reason, style))
            continue
        likelihoods = shown_likelihoods(obs, seat, cards, rng)
        if likelihoods is None:
            reason = "it had not played a turn, so nothing it did constrains its hand"
            out.append(ProfileUpdate(seat, prior, total, None, reason, style))
            continue
        profile = updated_profile(prior, likelihoods)
        out.append(ProfileUpdate(seat, profile, total, likelihoods, "", style))
    return tuple(out)


def learn_profiles(
    obs: Observation,
    shown: Mapping[int, Sequence[int]],
    ender: int | None,
    seed: int = 0,
) -> tuple[tuple[Profile | None, ...], tuple[float | None, ...]]:
    """Every seat's card-play profile and "drops when likely lowest" weight after a deal
    (:func:`profile_updates`), by seat; the asking seat's entries are kept as they were (None
    when none)."""
    updates = {u.seat: u for u in profile_updates(obs, shown, ender, seed)}
    seats = range(obs.n_players)
    profiles = tuple(
        updates[s].profile if s in updates else (obs.profiles[s] if s < len(obs.profiles) else None)
        for s in seats
    )
    styles = tuple(
        updates[s].drop_style
        if s in updates
        else (obs.drop_styles[s] if s < len(obs.drop_styles) else None)
        for s in seats
    )
    return profiles, styles


_NAMES = ("throws its highest card", "holds its melds", "throws any card")


def profile_explanation(updates: Sequence[ProfileUpdate]) -> str:
    """One sentence per opponent: what its shown hand says, its profile for the next deal and
    its weight of "drops when likely lowest"."""
    parts = []
    for u in updates:
        timing = (
            ""
            if u.drop_style is None
            else f" Its weight of dropping when likely lowest: {u.drop_style:.2f}."
        )
        likelihoods = u.likelihoods
        if likelihoods is None:
            parts.append(f"Seat {u.seat} is not learned from: {u.reason}.{timing}")
            continue
        assert u.profile is not None
        best = max(range(3), key=lambda k: likelihoods[k])
        b, h, r = u.profile
        parts.append(
            f"Seat {u.seat} showed {u.shown_total} points, likeliest for a player who "
            f"{_NAMES[best]}; its profile for the next deal: baseline {b:.2f}, hoarder {h:.2f}, "
            f"random {r:.2f}.{timing}"
        )
    parts.append("Send each profile back as that opponent's `profile` in the next deal.")
    return " ".join(parts)


__all__ = [
    "CUTOFF_DRAWS",
    "DEFAULT_PROFILE",
    "PROFILE_DRAWS",
    "PROFILE_FLOOR",
    "PROFILE_RATE",
    "TOTAL_BAND",
    "Profile",
    "ProfileUpdate",
    "drop_cutoff",
    "learn_profiles",
    "profile_explanation",
    "profile_updates",
    "shown_likelihoods",
    "updated_drop_style",
    "updated_profile",
]
