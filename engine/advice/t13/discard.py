"""Three Thirteen discard advice (T13-5): every distinct discard ranked by the value function
of :mod:`engine.advice.t13.value`, whether to go out, and on a last turn whether to discard."""

from __future__ import annotations

from collections.abc import Sequence

from engine.advice.t13.opponents import _DrawBases
from engine.advice.t13.params import DEFAULT_SAMPLES, DEFAULT_SEED, MAX_SAMPLES
from engine.advice.t13.situation import (
    T13DiscardAdvice,
    T13DiscardOption,
    T13Situation,
    _check,
    _check_budget,
)
from engine.advice.t13.value import _Evaluator
from engine.core.cards import card_name
from engine.games.t13.game import GAME


def t13_discard_advice(
    situation: T13Situation,
    *,
    seed: int = DEFAULT_SEED,
    samples: int = DEFAULT_SAMPLES,
    figures: bool = True,
) -> T13DiscardAdvice:
    """Rank every distinct discard of a hand after the draw (r+3 cards), say whether to go out,
    and on a last turn whether to discard at all (T13-5).

    With ``figures`` False (simulations, and the hands ``draw`` values) options that cannot be
    advised are not evaluated: they carry a lower bound as ``score`` and NaN figures; the
    advice, ``value`` and ``work`` are the same.

    :raises EngineError: invalid situation or ``samples`` above the work cap.
    """
    _check(situation, (GAME.max_hand_size(situation.round_number),))
    _check_budget(samples, MAX_SAMPLES)
    return _discard(situation, seed, samples, figures)


def _discard(
    situation: T13Situation,
    seed: int,
    samples: int,
    figures: bool = True,
    bases: _DrawBases | None = None,
    drawn: int = -1,
    unseen: tuple[int, ...] | None = None,
) -> T13DiscardAdvice:
    # The hands a draw values report only the advice: their skipped options may keep any bound.
    ev = _Evaluator(situation, seed, samples, bases, drawn, lean=bases is not None, unseen=unseen)
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


def _discard_sentence(
    best: T13DiscardOption,
    options: Sequence[T13DiscardOption],
    keep: int | None,
    ev: _Evaluator,
) -> str:
    name = card_name(best.card)
    if best.goes_out:
        return (
            f"Discard {name} and go out: the other cards are all in combinations, so you score 0 "
            "and the round ends after everyone's last turn (T13-5)."
        )
    if keep is not None:
        if keep <= best.score:
            return (
                f"Keep all your cards and do not discard: this is your last turn (T13-5), keeping "
                f"them leaves {keep} deadwood points, and discarding {name} would leave "
                f"{best.deadwood}."
            )
        return (
            f"Discard {name}: this is your last turn (T13-5); it leaves {best.deadwood} deadwood "
            f"points, the fewest you can keep (keeping every card: {keep})."
        )
    lowest = min(o.deadwood for o in options)
    parts = [
        f"Discard {name}: it leaves {best.deadwood} deadwood points and about "
        f"{best.expected_deadwood:.1f} after your next draw, with {best.outs} unseen cards "
        "that help"
    ]
    if best.deadwood > lowest:
        parts.append(f", better than the lowest-deadwood discard ({lowest} points) for its outs")
    elif ev.risk > 0 and any(o.expected_deadwood < best.expected_deadwood for o in options):
        parts.append(
            ", the safest hand to be caught with: you are ahead on the scores, so keeping "
            "deadwood low now matters more than the chance of going out"
        )
    if best.danger is not None and best.danger > 0.3:
        parts.append(f"; it may help the next player ({best.danger:.0%} of their likely hands)")
    elif any(
        o.danger is not None and o.danger > 0.3 and o.deadwood <= best.deadwood for o in options
    ):
        parts.append(", and it is safer to throw than cards the next player likely wants")
    return "".join(parts) + "."


__all__ = [
    "t13_discard_advice",
]
