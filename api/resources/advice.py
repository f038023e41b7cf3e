"""``POST /v1/games/{game}/discard | draw | knock``: what should the player do now?

The view is parse -> engine -> dump, like the analysis endpoints: the request schema hands over a
query of engine values (an ``Observation`` or a ``T13Situation``), ``*_answer`` calls the advice
engine (``engine.advice``) and builds a plain dict of ints and floats, the response schema prints
the cards back in canonical notation, and ``cached_json`` serves it keyed by the canonical query
(the `seed` makes sampled answers reproducible, hence cacheable).

Floats are rounded to 4 decimals: the engine's figures are estimates or means, and rounding keeps
the JSON short without changing any decision.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from flask_smorest import Blueprint

from api.resources._helpers import add_cached_post
from api.resources.examples import ADVICE_EXAMPLES
from api.schemas.advice import (
    ADVICE_SCHEMAS,
    DEPRECATED_DRAW_ALIASES,
    DISCARD,
    DRAW,
    KNOCK,
    PROFILE,
    TUNK_WORDS,
    T13AdviceQuery,
    TunkAdviceQuery,
    request_schema,
    response_schema,
)
from api.schemas.advice.opponents import DROP_TOTAL_NAMES
from engine.advice.t13 import t13_discard_advice, t13_draw_advice
from engine.advice.tunk.discard import discard_advice
from engine.advice.tunk.draw import DEFAULT_DRAW_PRECISION, draw_advice
from engine.advice.tunk.knock import DEFAULT_PRECISION, knock_advice
from engine.advice.tunk.profile import (
    DEFAULT_PROFILE,
    PROFILE_DRAWS,
    ProfileUpdate,
    out_updates,
    profile_explanation,
    profile_updates,
)
from engine.advice.tunk.styles import DEFAULT_DROP_TOTALS, DROP_STYLE_PRIOR
from engine.core.cards import RANK_NAMES
from engine.core.options import GAME_FLIP_FLOP, THREE_THIRTEEN, TRIPLE_TUNK

DIGITS = 4


def _r(value: float | None) -> float | None:
    """Round a figure for the response (None stays None)."""
    return None if value is None else round(float(value), DIGITS)


def _bound(value: float) -> float | None:
    """An interval bound for the response: None when there is none (JSON has no infinity)."""
    return _r(value) if math.isfinite(value) else None


# --- answers: engine advice -> dicts of ints (the response schema prints the cards) ------------


def tunk_discard_answer(q: TunkAdviceQuery) -> dict[str, Any]:
    """GFF/TT discard advice: every distinct card ranked; going/tunking out now wins outright."""
    advice = discard_advice(q.obs)
    lay = advice.lay
    return {
        "game": q.game,
        "hand": list(q.obs.hand),
        "discard": advice.discard,
        "ends": advice.ends,
        "lay_melds": advice.ends is None and lay is not None and lay.lay_melds,
        "melds_to_lay": [list(m) for m in lay.melds] if lay is not None else [],
        "layoffs": [{"card": c, "meld_index": i} for c, i in lay.layoffs] if lay else [],
        "knock_threat": _r(lay.threat) if lay is not None else 0.0,
        "value": _r(advice.value),
        "explanation": advice.explanation,
        "options": [
            {
                "card": o.card,
                "deadwood": o.deadwood,
                "outs": o.outs,
                "expected_deadwood": _r(o.expected_deadwood),
                "danger": _r(o.danger),
                "out_chance": _r(o.out_chance),
                "score": _r(o.score),
                "keep_value": _r(o.keep_value),
            }
            for o in advice.options
        ],
    }


def tunk_draw_answer(q: TunkAdviceQuery) -> dict[str, Any]:
    """GFF/TT draw advice: the certain result of the top discard against the stock's mean."""
    precision = DEFAULT_DRAW_PRECISION if q.precision is None else q.precision
    advice = draw_advice(q.obs, seed=q.seed, cap=q.samples, precision=precision)
    half = advice.stock_half_width
    return {
        "game": q.game,
        "hand": list(q.obs.hand),
        "choice": "discard_pile" if advice.take_discard else "stock",
        "take_discard": advice.take_discard,
        "top_discard": advice.discard_top,
        "discard_after_take": advice.discard_after_take,
        "throw_back": advice.throw_back,
        "deadwood_now": advice.deadwood_now,
        "deadwood_if_take": _r(advice.deadwood_if_take),
        "expected_deadwood_if_stock": _r(advice.expected_deadwood_if_stock),
        "value_if_take": _r(advice.value_if_take),
        "value_if_stock": _r(advice.value_if_stock),
        "stock_interval": {
            "low": _r(advice.value_if_stock - half),
            "high": _r(advice.value_if_stock + half),
        },
        "explanation": advice.explanation,
        "seed": q.seed,
        "samples": advice.stock_cards,
        "hand_value": _r(advice.hand_value),
    }


def tunk_knock_answer(q: TunkAdviceQuery) -> dict[str, Any]:
    """GFF drop / TT knock advice: win probability, its interval, payouts, play-on value."""
    precision = DEFAULT_PRECISION if q.precision is None else q.precision
    # An explicit precision is honoured to the end; by default sampling also stops once the
    # advice is the same at both ends of the interval.
    advice = knock_advice(
        q.obs, samples=q.samples, seed=q.seed, precision=precision, settle=q.precision is None
    )
    low, high = advice.interval
    hand = advice.hand
    words = TUNK_WORDS[q.game]
    out: dict[str, Any] = {
        "game": q.game,
        "hand": list(q.obs.hand),
        "hand_total": advice.hand_total,
        "knock": advice.knock,
        "allowed": advice.allowed,
        "win_probability": _r(advice.win_probability),
        "interval": {"low": _r(low), "high": _r(high)},
        "expected_payout": _r(advice.expected_payout),
        "expected_payout_money": _r(advice.expected_payout * q.stake)
        if q.stake is not None
        else None,
        "payout_if_win": _r(advice.payout_if_win),
        "value_of_playing_on": _r(advice.value_of_playing_on),
        "unit": words.unit,
        "explanation": advice.explanation,
        "seed": q.seed,
        "samples": advice.samples,
        "hand_value": _r(advice.hand_value),
        "hand_evaluation": None
        if hand is None
        else {
            "value": _r(hand.value),
            "deadwood": hand.deadwood,
            "outs": hand.outs,
            "expected_deadwood": _r(hand.expected_deadwood),
            "out_chance": _r(hand.out_chance),
        },
    }
    if words.caught_figures:
        out["payout_if_caught"] = _r(advice.payout_if_caught)
        out["all_in"] = advice.all_in
    return out


def t13_discard_answer(q: T13AdviceQuery) -> dict[str, Any]:
    """T13 discard advice: go out now (T13-5) when a discard allows it, keep every card on a
    last turn when that scores lower, else the best-valued discard."""
    s = q.situation
    advice = t13_discard_advice(s, seed=q.seed, samples=q.samples)
    return {
        "game": THREE_THIRTEEN,
        "round": s.round_number,
        "wild_rank": RANK_NAMES[s.round_number + 1],  # T13-1: the rank equal to the deal size
        "hand": list(s.hand),
        "discard": advice.discard,
        "go_out": advice.go_out,
        "last_turn": s.out is not None,
        "value": _r(advice.value),
        "keep_deadwood": advice.keep_deadwood,
        "risk": _r(advice.risk),
        "explanation": advice.explanation,
        "options": [
            {
                "card": o.card,
                "deadwood": o.deadwood,
                "outs": o.outs,
                "expected_deadwood": _r(o.expected_deadwood),
                "go_out_chance": _r(o.go_out_chance),
                "danger": _r(o.danger),
                "danger_points": _r(o.danger_points),
                "score": _r(o.score),
                "goes_out": o.goes_out,
            }
            for o in advice.options
        ],
        "unseen": advice.unseen,
        "seed": advice.seed,
        "samples": advice.samples,
    }


def t13_draw_answer(q: T13AdviceQuery) -> dict[str, Any]:
    """T13 draw advice: the value of the hand with the top discard against the stock's mean.

    ``value_if_take`` / ``value_if_stock`` are the engine's ``take_value`` / ``stock_value``,
    named as in every game's draw answer; the old names follow as deprecated aliases.
    """
    s = q.situation
    advice = t13_draw_advice(s, seed=q.seed, samples=q.samples, precision=q.precision)
    low, high = advice.stock_interval
    out: dict[str, Any] = {
        "game": THREE_THIRTEEN,
        "round": s.round_number,
        "hand": list(s.hand),
        "choice": "discard_pile" if advice.take_discard else "stock",
        "take_discard": advice.take_discard,
        "top_discard": advice.top,
        "value_if_take": _r(advice.take_value),
        "value_if_stock": _r(advice.stock_value),
        "stock_interval": {"low": _bound(low), "high": _bound(high)},
        "deadwood_if_take": _r(advice.take_deadwood),
        "discard_after_take": advice.discard_after_take,
        "expected_deadwood_if_stock": _r(advice.stock_expected),
        "go_out_chance_if_stock": _r(advice.stock_go_out_chance),
        "risk": _r(advice.risk),
        "explanation": advice.explanation,
        "unseen": advice.unseen,
        "seed": q.seed,
        "samples": advice.samples,
        "exact": advice.exact,
    }
    for old, new in DEPRECATED_DRAW_ALIASES.items():
        out[old] = out[new]
    return out


# --- documentation -----------------------------------------------------------------------------

TUNK_MODEL = (
    "Opponent model: cards known to be elsewhere (hand, table, discard pile, known pickups, the "
    "GFF-5 flip card in the dealer's hand until it shows up elsewhere) are never imagined in an "
    "opponent's hand; opponents' hidden cards are drawn from the unseen cards. An opponent who "
    "has played a turn (`turns`) is a mixture of three ways of playing, weighted by how well each "
    "explains what it did (its `discarded` cards, the `declined` discards it left, its known "
    "pickups and its own melds on the `table`): it throws its highest deadwood card and lays "
    "melds at once (it then holds no meld, no card it could lay off, GFF-7 / TT-10, and no card "
    "above the lowest it discarded or left lying); it throws its highest deadwood card but holds "
    "its melds (a meld plus such cards); it throws at random (uniform cards). An opponent who has "
    "not played yet is unconstrained. Each opponent knocks as a mixture of styles (cautious, "
    "knocks at 5, at 10, random: its `profile.drop_totals`, learned by `profile`, else a prior), "
    "weighted by the totals it was seen to pass with (`passes`), "
    "or drops when its total is likely the lowest (its `profile.drops_when_lowest`, learned by "
    "`profile`): then an opponent that has played on past a turn start is read as not likely "
    "lowest, and `win_probability` weighs down the draws that give it such a total; one "
    "whose TT-12 counter (`waiting`) is positive cannot knock at its next turn; a GFF seat with "
    "`hand_size` 0, or whose bankroll in `bankrolls` cannot stake at `stake`, was not dealt in "
    "(GFF-6)."
)
T13_MODEL = (
    "One value function serves both endpoints: the value of a hand after the draw is the score "
    "of its best discard (lower is better), and `draw` compares the value with the top discard "
    "(exactly the `discard` answer's `value` on that hand) against its mean over a stock card. "
    "Model: unseen cards are every copy of the `decks` decks (T13-2) not in the hand, the "
    "discard pile, the shown combinations or an opponent's known pickups; cards known to be "
    "elsewhere are never imagined in a hand or drawn from the stock. The next player's hand is "
    "sampled from the unseen cards, always holding its known pickups, cards near its own "
    "`discarded` cards less often (Three Thirteen has no laying down before going out, so no "
    "meld constraint applies); they take a discard that lowers their best deadwood. `scores` "
    "make a player far ahead weigh the deadwood it holds now more (`risk`)."
)

_SUMMARY = {
    DISCARD: "Which card to discard: every distinct card ranked, with deadwood, outs and danger",
    DRAW: "Take the top discard or draw from the stock, with the expected deadwood of each",
    KNOCK: "{Knock} now or play on: win probability with its 95% interval and payouts",
    PROFILE: "Learn each opponent's way of playing from the hands shown when a deal ends, or "
    "from the cards of an opponent that went out",
}

_T13_DESCRIPTIONS = {
    DISCARD: (
        "For a hand after the draw (round+3 cards): going out now vs holding (T13-5). Every "
        "distinct card is ranked by `score` (lower is better): deadwood left (C-2 with the "
        "round's wilds, T13-1/T13-4), outs, expected deadwood after the next draw (also the "
        "score if someone else goes out first), chance of going out next turn, and danger "
        "to the next player. A discard that leaves every other card combined is always "
        "recommended with `go_out: true` (you score 0, T13-6). On a last turn (`out` set) the "
        "discard is optional: `discard` is null when keeping every card scores lower. " + T13_MODEL
    ),
    DRAW: (
        "For a hand before the draw (round+2 cards): the value of the hand with the top "
        "discard (`value_if_take`) against the mean value over a stock card (`value_if_stock`, "
        "sampled without replacement until `precision` or `samples`, with its 95% "
        "interval; the sample estimates only the value less the deadwood after the card and "
        "the best discard, whose mean is exact). Taking a card only to throw it back is "
        "never advised. `take_value` and `stock_value` repeat the two values under their "
        "0.1 names (deprecated). " + T13_MODEL
    ),
}


def _t13_description(game: str, endpoint: str) -> str:
    """A Three Thirteen advice endpoint's description."""
    return _T13_DESCRIPTIONS[endpoint]


def _tunk_description(game: str, endpoint: str) -> str:
    """A Tunk game's advice endpoint's description, in that game's words."""
    words = TUNK_WORDS[game]
    rules = words.play_rules
    if endpoint == DISCARD:
        return (
            f"For a hand after the draw ({rules}). Every distinct card is ranked by `score` "
            "(lower is better), the one hand evaluation the `draw` advice uses too: "
            "(deadwood + expected_deadwood) / 2 + 4 x danger - out weight x out_chance, with the "
            "deadwood left (C-2), the expected deadwood after the next stock draw (exact, every "
            "unseen card equally likely), the chance to empty the hand after it, and danger "
            "(the chance the card helps the next player). `value` is the hand's value: what "
            "`draw` reports for it. The plan says what to lay down first (`melds_to_lay`, "
            f"`layoffs`, with the reason in the explanation). {words.ends_now} " + TUNK_MODEL
        )
    if endpoint == DRAW:
        return (
            f"For a hand before the draw ({rules}; C-5 allows throwing the taken card back). "
            "Both choices are valued with the discard advice's own evaluation: taking the top "
            "discard is worth exactly the `value` `discard` answers for the hand with it "
            "(`value_if_take`, `discard_after_take`); the stock is worth the mean of the same "
            "value over the unseen cards (`value_if_stock`, with its 95% interval; `samples` "
            "stock cards evaluated, which estimate only the value less the deadwood each card "
            "leaves after the best discard, known exactly for every card). The lower wins. "
            "When the best discard after taking the card is that card, the advice says so "
            "(`throw_back`, a pass) with the reason. " + TUNK_MODEL
        )
    if endpoint == PROFILE:
        return (
            f"At the end of a deal the hands are shown ({words.knock_rule}): send the situation "
            "as it stood then (your hand, the table, the discard pile, what each opponent did, "
            "with each opponent's `profile` from the last deal) and the hands shown "
            "(`final_hands`). For each opponent that had played and did not end the deal "
            f"(`ended_by`), its shown total is read against {PROFILE_DRAWS} hands drawn under "
            "each of the opponent model's three ways of playing alone (throws its highest "
            "card and lays melds at once, throws its highest card and holds its melds, throws "
            "any card); a drawn hand matches when its total is within 2 points and it holds "
            "a meld exactly when the shown hand does (a meld shown was held, not laid). Its "
            "profile moves 0.3 of the way "
            "to each way's share of that evidence, with a little of the default prior mixed "
            "back, so a player who changes style is followed. Send each `profile` back as that "
            "opponent's `profile` in the next deal's requests: the opponent model then starts "
            "from it, and `win_probability` fits that player better (docs/strength.md). "
            "The same hands teach each opponent's drop timing (`drops_when_lowest` and "
            "`drop_totals`): the seat that ended the deal dropped on its total, every other "
            "seat that had played passed up its last turn start on about the total it shows. "
            "Each is read against the chance that a player stopping as this advice does drops "
            "on that total, and against each fixed-total style (never, at 5, at 10, at random), "
            "which reads a drop by its limit and a pass on a total under its limit as the "
            "chance that the player held more at its turn start; the five weights move 0.3 of "
            "the way to their shares of that evidence, so a player that never drops is not "
            "read as one that drops when likely lowest. When an opponent ends "
            "the deal by emptying its hand, no other hand is shown: send the situation as it "
            "stood at the start of that opponent's turn and its cards (`went_out`, with the top "
            "discard it took, if any) instead of `final_hands`. Its profile is read the same "
            "way, a drawn hand matching when its total is within 2 points of the hand it held "
            "and it too empties with the card drawn, unless it went out from one or two cards "
            "(any way of playing does that about as often, so it is not read). Its "
            "`drop_totals` read the turn start it passed up, holding those cards but the one "
            "drawn (C-5; `drops_when_lowest` is left as it was: a hand about to go out is "
            "played on more often than its total says). The other opponents keep theirs. "
            + TUNK_MODEL
        )
    return (
        "`win_probability` is the chance that your hand total is strictly the lowest now, by Monte "
        "Carlo over `samples` draws of the opponents' hands, with a 95% Wilson interval. "
        f"{_KNOCK_PAY[game]} The expected payout averages over the same draws; the advice says "
        f"{words.knock} (`knock: true`) when it beats the value of playing on, which is read "
        "from the hand's value in the one hand evaluation `discard` and `draw` use "
        "(`hand_value`: (deadwood + expected deadwood after the next draw) / 2 - out weight x "
        "chance to empty the hand) and the win probability, by a fit to simulated tournaments. "
        + TUNK_MODEL
    )


_KNOCK_PAY = {
    GAME_FLIP_FLOP: (
        "GFF-8 drop at the start of a turn: a strictly lowest dropper takes the game pot "
        "(players dealt in - 1 stakes net), a caught dropper pays its stake plus one extra "
        "stake (-2); both settled by the settlement itself, with `bankrolls` and `stake` "
        "deciding who is dealt in and whether you are all in (GFF-6). The flip/flop pots "
        "and their carry-over do not depend on the drop (GFF-5)."
    ),
    TRIPLE_TUNK: (
        "TT-13 knock before drawing: a strictly lowest knocker gets one unit times its "
        "multipliers from every other player (TT-14: x2 early tunk, special bonus of its own "
        "table melds); a caught knocker pays every player who tied or beat it that player's "
        "multiplier. TT-12: a positive `waiting` counter forbids knocking (`allowed: false`)."
    ),
}
"""What a won and a caught knock pay in each Tunk game."""


def _weights(w: tuple[float, float, float] | None) -> dict[str, float] | None:
    return None if w is None else {"baseline": _r(w[0]), "hoarder": _r(w[1]), "random": _r(w[2])}


def _profile(u: ProfileUpdate) -> dict[str, Any] | None:
    """A profile entry as sent back: the card-play weights and the drop timing, each the
    default prior where nothing is known of it."""
    learned = (u.profile, u.drop_style, u.drop_totals, u.keeps_flexible)
    if all(x is None for x in learned):
        return None
    b, h, r = u.profile if u.profile is not None else DEFAULT_PROFILE
    timing = u.drop_style if u.drop_style is not None else DROP_STYLE_PRIOR
    totals = u.drop_totals if u.drop_totals is not None else DEFAULT_DROP_TOTALS
    return {
        "baseline": _r(b),
        "hoarder": _r(h),
        "random": _r(r),
        "drops_when_lowest": _r(timing),
        "drop_totals": {name: _r(w) for name, w in zip(DROP_TOTAL_NAMES, totals, strict=True)},
        "keeps_flexible": None if u.keeps_flexible is None else _r(u.keeps_flexible),
    }


def tunk_profile_answer(q: TunkAdviceQuery) -> dict[str, Any]:
    """Each opponent's card-play profile and drop timing for the next deal, from the hands shown
    at its end or the cards of the opponent that went out."""
    if q.went_out is not None:
        seat, cards, picked = q.went_out
        updates = out_updates(q.obs, seat, cards, picked, q.seed)
    else:
        updates = profile_updates(q.obs, dict(q.final_hands), q.ended_by, q.seed)
    return {
        "game": q.game,
        "profiles": [
            {
                "seat": u.seat,
                "profile": _profile(u),
                "learned": u.likelihoods is not None,
                "shown_total": u.shown_total,
                "likelihoods": _weights(u.likelihoods),
                "reason": u.reason,
            }
            for u in updates
        ],
        "explanation": profile_explanation(updates),
        "seed": q.seed,
    }


# --- routes ------------------------------------------------------------------------------------

_TUNK_ANSWERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    DISCARD: tunk_discard_answer,
    DRAW: tunk_draw_answer,
    KNOCK: tunk_knock_answer,
    PROFILE: tunk_profile_answer,
}
_T13_ANSWERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    DISCARD: t13_discard_answer,
    DRAW: t13_draw_answer,
}
_Describe = Callable[[str, str], str]
ADVICE_ANSWERS: dict[str, tuple[dict[str, Callable[[Any], dict[str, Any]]], _Describe]] = {
    GAME_FLIP_FLOP: (_TUNK_ANSWERS, _tunk_description),
    TRIPLE_TUNK: (_TUNK_ANSWERS, _tunk_description),
    THREE_THIRTEEN: (_T13_ANSWERS, _t13_description),
}
"""Each game's advice answers (engine advice -> dict) and endpoint descriptions."""


def endpoints_for(game: str) -> tuple[str, ...]:
    """The advice endpoints ``game`` has: knock/drop only in the Tunk games."""
    return ADVICE_SCHEMAS[game].endpoints


def _add_route(blp: Blueprint, game: str, endpoint: str) -> None:
    """Register one advice route. Built per (game, endpoint) so each gets its own request and
    response schemas (the game's card notation) and its own documented examples; served by the
    lean view every cached POST uses (``_helpers.add_cached_post``)."""
    answers, describe = ADVICE_ANSWERS[game]
    words = TUNK_WORDS.get(game)
    knock = words.knock.capitalize() if words is not None else "Knock"
    add_cached_post(
        blp,
        f"/{endpoint}",
        endpoint=endpoint,
        cache_name=endpoint,
        game=game,
        request_schema=request_schema(game, endpoint),
        response_schema=response_schema(game, endpoint),
        answer=answers[endpoint],
        response_description="The advice.",
        summary=_SUMMARY[endpoint].format(Knock=knock),
        description=describe(game, endpoint),
        examples=ADVICE_EXAMPLES[game][endpoint],
    )


def add_routes(blp: Blueprint, game: str) -> None:
    """Register ``POST /discard``, ``/draw`` and (GFF, TT) ``/knock`` on ``game``'s blueprint."""
    for endpoint in endpoints_for(game):
        _add_route(blp, game, endpoint)


__all__ = ["ADVICE_ANSWERS", "add_routes", "endpoints_for"]
