"""Three Thirteen advice's one value function of a hand: which card to discard (or none on a
last turn), whether to go out, and where to draw from are all valued by it
(:mod:`engine.advice.t13.discard`, :mod:`engine.advice.t13.draw`).

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

Everything is deterministic for a given request, ``seed`` and ``samples``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.advice.t13.opponents import _DrawBases, _next_player_hands, _Opponents
from engine.advice.t13.params import (
    DANGER_WEIGHT,
    GO_OUT_WEIGHT,
    MAX_RISK,
    MAX_ROUND,
    OUT_NOW,
    RISK_LEAD_PER_ROUND,
)
from engine.advice.t13.situation import T13DiscardOption, T13Situation, unseen_for
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo, Profile


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


@dataclass(slots=True)
class _Kept:
    """Figures of a kept hand (after the discard): see :func:`_Evaluator.kept`."""

    deadwood: int
    expected: float
    outs: int
    chance: float
    value: float


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


__all__ = [
    "clear_caches",
    "risk_of",
]
