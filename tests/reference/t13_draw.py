"""Three Thirteen discard and draw advice as the engine computed them before the draw's
hands shared more work: a copy of ``engine.advice.t13``'s evaluator and discard function
and of
``DeadwoodMemo.after_adding`` / ``adding_bound`` as they were, with the engine's unchanged draw,
stock and discard entry points run on them, so tests can assert that today's code gives exactly
the same answers (``test_t13_draw_shared_work``)."""

from __future__ import annotations

import math
import types
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from engine.advice.t13 import discard as engine_discard
from engine.advice.t13 import draw as engine_draw
from engine.advice.t13.discard import _discard_sentence
from engine.advice.t13.opponents import _DrawBases, _next_player_hands
from engine.advice.t13.params import DANGER_WEIGHT, GO_OUT_WEIGHT, OUT_NOW
from engine.advice.t13.situation import T13DiscardAdvice, T13DiscardOption, T13Situation, unseen_for
from engine.advice.t13.value import _Kept, risk_of
from engine.core.cards import RANK_OF
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo, Profile

Card = int


def old_after_adding(self: DeadwoodMemo, prof: Profile, card: Card) -> int:
    """Least deadwood after adding ``card`` to the profiled hand and throwing one card.

    Without a search of hand + card: the card is thrown (the hand's deadwood), kept as
    deadwood (its points + the hand's after-discard deadwood; never better when no card of
    the hand is worth more, since throwing a card ``y`` saves at most its points), or in one
    group with cards of the hand (sets of its rank, runs through it; as the search's
    groups), the rest of the hand then giving up one card with a meld already made. A wild
    is one more joker. Only the searches of the hand less each group's cards remain, and
    they are shared by every card (and every hand) that leaves the same cards.
    """
    got = prof.values.get(card)
    if got is not None:
        return got
    solve = self._solver.solve
    state, j = prof.state, prof.wilds
    if RANK_OF[card] == self._wild:
        return prof.with_wild
    best = prof.deadwood
    pts = self._pt[card]
    if pts < prof.top_points:
        kept = pts + prof.after_discard
        if kept < best:
            best = kept
    if best:
        for vec, need in self._options_with(prof, card):
            if need > j:
                break
            val = solve(state - vec, j - need, True, True)
            if val < best:
                best = val
                if not val:
                    break
    prof.values[card] = best
    return best


def old_adding_bound(self: DeadwoodMemo, prof: Profile, card: Card) -> int:
    """A lower bound of :meth:`after_adding` without its group searches (exact for a wild or
    a card that fits no group of the hand): a card in a meld can be replaced by a wild, so
    nothing beats the hand plus one more wild (:attr:`Profile.with_wild`)."""
    if RANK_OF[card] == self._wild:
        return prof.with_wild
    best = prof.deadwood
    pts = self._pt[card]
    if pts < prof.top_points:
        kept = pts + prof.after_discard
        if kept < best:
            best = kept
    if best and self._options_with(prof, card):
        wild = prof.with_wild
        if wild < best:
            best = wild
    else:
        prof.values[card] = best  # exact: no group holds the card
    return best


@dataclass(slots=True)
class _Evaluator:
    """The value function for one situation after the draw (see the module docstring)."""

    situation: T13Situation
    seed: int
    samples: int
    bases: _DrawBases | None = None
    drawn: int = -1
    scorer: DeadwoodMemo = field(init=False)
    counts: list[tuple[int, int]] = field(init=False)
    total: int = field(init=False)
    last_turn: bool = field(init=False)
    risk: float = field(init=False)
    _unseen: tuple[int, ...] = field(init=False)
    _opp: list[Profile] | None = field(init=False, default=None)
    _kept: dict[tuple[int, ...], _Kept] = field(init=False, default_factory=dict)
    _danger: dict[int, tuple[float, float]] = field(init=False, default_factory=dict)
    _profiles: dict[tuple[int, ...], Profile] = field(init=False, default_factory=dict)
    _removed: dict[tuple[int, ...], int] = field(init=False, default_factory=dict)
    work: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        s = self.situation
        self.scorer = DeadwoodMemo.for_context(t13_context(s.round_number, s.rules))
        self._unseen = unseen_for(s)
        self.counts = sorted(Counter(self._unseen).items())
        self.total = len(self._unseen)
        self.last_turn = s.out is not None
        self.risk = risk_of(s.scores, s.round_number)

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
            acc = outs = zero = 0
            self.work += len(self.counts)
            after_adding = partial(old_after_adding, sc)
            for card, copies in self.counts:
                v = after_adding(prof, card)
                acc += v * copies
                if v < dw:
                    outs += copies
                if v == 0:
                    zero += copies
            expected = acc / self.total
            chance = zero / self.total
            b = self.risk
            value = (1 - b) * expected + b * dw - (1 - b) * GO_OUT_WEIGHT * chance
            got = _Kept(dw, expected, outs, chance, value)
        self._kept[key] = got
        return got

    def danger(self, card: int) -> tuple[float, float]:
        """(share of sampled next-player hands ``card`` helps, mean deadwood it saves them)."""
        got = self._danger.get(card)
        if got is not None:
            return got
        if self._opp is None:
            hands = _next_player_hands(self.situation, self._unseen, self.seed, self.samples)
            self._opp = [self.scorer.profile(h) for h in hands]
        helped = gain = 0
        self.work += len(self._opp)
        gain_of = self.scorer.gain_of_adding
        for prof in self._opp:
            g = gain_of(prof, card)
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

    def bound(self, key: tuple[int, ...]) -> tuple[int, float]:
        """(deadwood, a lower bound of ``F``) of a kept hand, without its searches of the hand
        less each group (see ``DeadwoodMemo.adding_bound``)."""
        prof = self._profile(key)
        dw = prof.deadwood
        acc = zero = 0
        adding_bound = partial(old_adding_bound, self.scorer)
        for card, copies in self.counts:
            v = adding_bound(prof, card)
            acc += v * copies
            if v == 0:
                zero += copies
        b = self.risk
        expected = acc / self.total
        chance = zero / self.total
        return dw, (1 - b) * expected + b * dw - (1 - b) * GO_OUT_WEIGHT * chance

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
        below the best score so far gets its danger (lazily computed); the others follow."""
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
            opt = replace(opt, danger=d, danger_points=dp, score=lower + DANGER_WEIGHT * dp)
            done.append(opt)
            best = min(best, opt.score)
        done.sort(key=self._rank)
        return done, rest_opts

    def _rank(self, option: T13DiscardOption) -> tuple[float, int, int]:
        return option.score, -self.scorer.points(option.card), option.card

    def options(self, figures: bool = True) -> tuple[list[T13DiscardOption], int | None]:
        """Every distinct discard ranked best first (with the lazily computed danger), and the
        deadwood of keeping every card on a last turn (else None).

        With ``figures`` False only the options that can be advised get their figures: the
        others keep a lower bound of ``F`` as their score and NaN figures (the advice, its value
        and ``work`` are the same: an option is skipped only when its bound exceeds the best
        score among the evaluated ones, so it would not have been evaluated for danger either).
        """
        hand = self.situation.hand
        rests: list[tuple[int, tuple[int, ...]]] = []
        for card in sorted(set(hand)):
            left = list(hand)
            left.remove(card)
            key = tuple(sorted(left))
            self._removed[key] = card
            rests.append((card, key))
        keep = self.scorer.deadwood(hand) if self.last_turn else None
        if figures or self.last_turn or not self.total:
            done, rest_opts = self._select([self._option(c, r) for c, r in rests], keep)
            rank = self._rank
            return done[:1] + sorted(done[1:] + rest_opts, key=rank), keep  # as the engine ranks
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
        while True:
            done, rest_opts = self._select(list(base), keep)
            best = done[0].score if done else math.inf
            if not pending or pending[0][0] > best:
                break
            _, _, card, rest = pending.pop(0)
            base.append(self._option(card, rest))
        self.work = len(self.counts) * len(rests) + (len(self._opp or ()) * len(done))
        skipped = [
            T13DiscardOption(c, dw, 0, math.nan, math.nan, None, None, lower, False)
            for lower, dw, c, _ in pending
        ]
        return done + rest_opts + skipped, keep


def _discard(
    situation: T13Situation,
    seed: int,
    samples: int,
    figures: bool = True,
    bases: _DrawBases | None = None,
    drawn: int = -1,
    unseen: tuple[int, ...] | None = None,  # the entry points pass it; this copy recomputes it
) -> T13DiscardAdvice:
    ev = _Evaluator(situation, seed, samples, bases, drawn)
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


def _with_old_discard(fn: Callable[..., Any], scope: dict[str, Any]) -> Callable[..., Any]:
    """The engine's own ``fn`` (unchanged code) reading its globals from ``scope``, where
    ``_discard`` is this module's copy: the draw and discard entry points as they were, run on
    the old evaluator, without copying them."""
    bound = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    bound.__kwdefaults__ = fn.__kwdefaults__
    bound.__doc__ = fn.__doc__
    return bound


_SCOPE: dict[str, Any] = {**vars(engine_draw), "_discard": _discard}
_stock_value = _SCOPE["_stock_value"] = _with_old_discard(engine_draw._stock_value, _SCOPE)
t13_draw_advice = _with_old_discard(engine_draw.t13_draw_advice, _SCOPE)
_DISCARD_SCOPE: dict[str, Any] = {**vars(engine_discard), "_discard": _discard}
t13_discard_advice = _with_old_discard(engine_discard.t13_discard_advice, _DISCARD_SCOPE)
