"""``POST /v1/games/{game}/melds``: legal melds, best arrangement, ties, lay-offs, going out.

The view is parse -> engine -> dump: the schema hands over a :class:`MeldsQuery` of engine values,
``analyse_*`` calls the engine and builds a plain dict of ints, the game's response schema prints
the cards back, and ``cached_json`` serves it keyed by the canonical query.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, partial
from itertools import islice
from typing import Any

from flask_smorest import Blueprint

from api.resources._helpers import add_cached_post
from api.resources.examples import MELDS_EXAMPLES
from api.schemas.melds import MELDS_REQUESTS, MELDS_RESPONSES, MeldsQuery
from engine.core.cards import POINTS as STD_POINTS
from engine.core.cards import RANK_NAMES, SUIT_LETTERS
from engine.core.deck import STANDARD, TRIPLE_TOPPER
from engine.core.options import GAME_FLIP_FLOP, THREE_THIRTEEN, TRIPLE_TUNK, ThreeThirteenRules
from engine.core.topper import POINTS as TOPPER_POINTS
from engine.core.types import Arrangement, BestResult, Layoff
from engine.games.gff.play import GffGoingOut, gff_going_out, gff_layoffs
from engine.games.t13.play import going_out_options
from engine.games.tt.arrange import best_tt_arrangement
from engine.games.tt.melds import TTMeld, iter_tt_melds
from engine.games.tt.play import tt_layoffs, tt_tunk_out
from engine.games.tt.settle import multiplier
from engine.standard.arrange import best_arrangement
from engine.standard.melds import (
    StdContext,
    StdMeld,
    describe_meld,
    gff_context,
    legal_meld_tuples,
    t13_context,
)
from engine.teach.layoff_plan import layoff_plan

# --- presenters: engine values -> dicts of ints (the response schema prints the cards) ---------


def std_meld(meld: StdMeld) -> dict[str, Any]:
    """A set or run with its rank/suit and wild assignments (GFF-2, T13-4)."""
    is_run = meld.kind == "run" and meld.rank is not None
    return {
        "cards": list(meld.cards),
        "kind": meld.kind,
        "rank": RANK_NAMES[meld.rank % 13] if not is_run and meld.rank is not None else None,
        "suit": SUIT_LETTERS[meld.suit] if is_run and meld.suit is not None else None,
        # a run's rank is its lowest; position 13 is the high ace (T13-3 house rule)
        "low": RANK_NAMES[meld.rank % 13] if is_run and meld.rank is not None else None,
        "high": RANK_NAMES[(meld.rank + len(meld.cards) - 1) % 13]
        if is_run and meld.rank is not None
        else None,
        "wilds": [{"card": wild, "stands_for": real} for wild, real in meld.wilds],
    }


def tt_meld(meld: TTMeld) -> dict[str, Any]:
    """A Triple Tunk meld with what matches (TT-3/TT-4), sequence (TT-5) and special (TT-7)."""
    return {
        "cards": list(meld.cards),
        "matches": {"colour": meld.colour, "shape": meld.shape, "number": meld.number},
        "sequence": meld.sequence,
        "special": meld.special,
    }


def arrangement(arr: Arrangement[Any], present: Any) -> dict[str, Any]:
    """C-2 arrangement: melds, deadwood and its points, and the TT-14 special bonus (the
    response schema lists it only in Triple Tunk, where it is a rule)."""
    out: dict[str, Any] = {
        "melds": [present(m) for m in arr.melds],
        "deadwood": list(arr.deadwood),
        "deadwood_points": arr.deadwood_points,
        "melded_count": arr.melded_count,
        "special_bonus": arr.special_bonus,
    }
    return out


def layoff(lo: Layoff) -> dict[str, Any]:
    """A lay-off: card, target meld index, cards that must go first."""
    return {"card": lo.card, "meld_index": lo.meld_index, "requires": list(lo.requires)}


def _plan(q: MeldsQuery, deadwood: Iterable[int], keep: int) -> list[dict[str, Any]]:
    """The best lay-off plan of the deadwood (``engine.teach.layoff_plan``), keeping ``keep`` hand
    cards (the arrangement's melds count as kept)."""
    dead = list(deadwood)
    left = max(0, keep - (len(q.hand) - len(dead)))
    plan = layoff_plan(q.game, dead, q.table, q.seat, keep=left)
    return [{"card": lo.card, "meld_index": lo.meld_index} for lo in plan]


def listed(melds: Iterable[Any], limit: int, offset: int, present: Any) -> dict[str, Any]:
    """One page of legal melds: ``limit`` from ``offset`` (count and truncation flag always given).

    ``legal_melds_truncated`` is true when melds follow the page.
    """
    every = list(melds)
    shown = list(islice(every, offset, offset + limit))
    return {
        "legal_melds": [present(m) for m in shown],
        "legal_melds_count": len(every),
        "legal_melds_truncated": offset + len(shown) < len(every),
    }


def listed_std(hand: Sequence[int], ctx: StdContext, limit: int, offset: int) -> dict[str, Any]:
    """:func:`listed` for standard decks, describing only the melds on the page.

    ``iter_legal_melds`` describes every meld of ``legal_meld_tuples`` in that order; counting
    the tuples and describing the page's slice gives the same answer for a fraction of the work
    when a hand holds hundreds of melds.
    """
    every = legal_meld_tuples(hand, ctx)
    page = every[offset : offset + limit]
    shown = []
    for cards in page:
        meld = describe_meld(cards, ctx)
        assert meld is not None  # every legal tuple describes (as in iter_legal_melds)
        shown.append(std_meld(meld))
    return {
        "legal_melds": shown,
        "legal_melds_count": len(every),
        "legal_melds_truncated": offset + len(page) < len(every),
    }


def ranked(search: Callable[[int], BestResult[Any]], max_ties: int) -> BestResult[Any]:
    """The search's answer with at least one tie asked for, so that "more exist" is known even
    for ``max_ties`` 0 (the standard engine skips the tie search entirely at 0). Its ``best`` is
    the C-2 best whatever the tie count (the lay-off plan reuses it)."""
    return search(max(max_ties, 1))


def best_and_ties(result: BestResult[Any], max_ties: int, present: Any) -> dict[str, Any]:
    """The best arrangement and up to ``max_ties`` ties of :func:`ranked`'s ``result``;
    ``ties_truncated`` if more exist."""
    shown = result.ties[:max_ties]
    return {
        "best": arrangement(result.best, present),
        "ties": [arrangement(t, present) for t in shown],
        "ties_truncated": result.ties_truncated or len(result.ties) > len(shown),
    }


# --- per game ----------------------------------------------------------------------------------


def _gff_going_out(plan: GffGoingOut, ctx: StdContext) -> dict[str, Any]:
    spreads = []
    for cards in plan.spreads:
        meld = describe_meld(cards, ctx)
        spreads.append(std_meld(meld) if meld is not None else {"cards": list(cards)})
    if plan.kind == "tunk_out":
        rule, extra = "GFF-9", 1
        pays = (
            "Tunk out (GFF-9): every other player adds one extra stake to the game pot and you "
            "take it - the game pot doubled."
        )
    elif plan.kind == "go_out":
        rule, extra = "GFF-10", 0
        pays = "Going out (GFF-10): you take the game pot."
    else:
        rule, extra = None, 0
        pays = "Nothing yet: the hand cannot be emptied this turn."
    return {
        "possible": plan.can_end,
        "rule": rule,
        "kind": plan.kind,
        "spreads": spreads,
        "layoffs": [layoff(lo) for lo in plan.layoffs],
        "discard": plan.discard,
        "extra_stakes_per_opponent": extra,
        "pays": pays,
    }


_GFF_CONTEXT = gff_context()
"""GFF-2's meld rules, built once (a ``StdContext`` is frozen: every request may share it)."""
_t13_context = lru_cache(maxsize=64)(t13_context)
"""T13-1/T13-3 meld rules per (round, rules), built once each (frozen, hashable arguments)."""


def analyse_gff(q: MeldsQuery) -> dict[str, Any]:
    """GFF-2 spreads, C-2 best arrangement, GFF-3 lay-offs, GFF-9/GFF-10 going out."""
    ctx = _GFF_CONTEXT
    result = ranked(partial(best_arrangement, q.hand, ctx), q.max_ties)
    return {
        "game": q.game,
        "hand": list(q.hand),
        "hand_points": sum(STD_POINTS[c] for c in q.hand),
        **listed_std(q.hand, ctx, q.limit, q.offset),
        **best_and_ties(result, q.max_ties, std_meld),
        "layoffs": [layoff(lo) for lo in gff_layoffs(q.hand, q.table)],
        "going_out": _gff_going_out(gff_going_out(q.hand, q.table, q.seat), ctx),
        "layoff_plan": _plan(q, result.best.deadwood, keep=0),
    }


def _tt_going_out(q: MeldsQuery) -> dict[str, Any]:
    plan = tt_tunk_out(q.hand, q.table, q.seat)
    if plan is None:
        return {
            "possible": False,
            "rule": None,
            "shape": None,
            "melds": [],
            "layoffs": [],
            "discard": None,
            "multiplier": 1,
            "special_bonus": 1,
            "pays": "Nothing yet: no TT-11 tunk-out shape disposes of this hand now.",
        }
    mult = multiplier(q.early_tunk_claimed, plan.special_bonus, tunk_out=True)  # TT-14
    return {
        "possible": True,
        "rule": "TT-11",
        "shape": plan.shape,
        "melds": [tt_meld(m) for m in plan.melds],
        "layoffs": [layoff(lo) for lo in plan.layoffs],
        "discard": plan.discard,
        "multiplier": mult,
        "special_bonus": plan.special_bonus,
        "pays": f"Tunk out (TT-11): you win at once; every other player pays one unit x{mult} "
        "(TT-14: x2 tunk out, x2 early tunk if claimed, x the special bonus).",
    }


def analyse_tt(q: MeldsQuery) -> dict[str, Any]:
    """TT-6 melds, C-2 best arrangement with TT-14 bonus, TT-8 lay-offs, TT-11 tunk out."""
    result = ranked(partial(best_tt_arrangement, q.hand), q.max_ties)
    return {
        "game": q.game,
        "hand": list(q.hand),
        "hand_points": sum(TOPPER_POINTS[c] for c in q.hand),
        **listed(iter_tt_melds(q.hand), q.limit, q.offset, tt_meld),
        **best_and_ties(result, q.max_ties, tt_meld),
        "layoffs": [layoff(lo) for lo in tt_layoffs(q.hand, q.table, q.seat)],
        "going_out": _tt_going_out(q),
        "layoff_plan": _plan(q, result.best.deadwood, keep=2),
    }


def _t13_going_out(q: MeldsQuery, round_number: int, deadwood: int) -> dict[str, Any]:
    deal = round_number + 2
    if len(q.hand) == deal + 1:
        assert isinstance(q.rules, ThreeThirteenRules)
        options = going_out_options(q.hand, round_number, q.rules)
        shown = [
            {"discard": o.discard, "arrangement": arrangement(o.arrangement, std_meld)}
            for o in options
        ]
        return {
            "possible": bool(shown),
            "rule": "T13-5",
            "options": shown,
            "ready": False,
            "pays": "Going out (T13-5): discard the listed card; you score 0 this round and the "
            "others get one more turn (T13-6)."
            if shown
            else "Not yet: no single discard leaves every other card combined.",
        }
    return {
        "possible": False,
        "rule": "T13-5",
        "options": [],
        "ready": deadwood == 0,
        "pays": f"Draw first: going out needs {deal + 1} cards in hand (T13-5)."
        + (" Every card is already combined: any draw lets you go out." if deadwood == 0 else ""),
    }


def _ctx_points(ctx: StdContext, cards: Sequence[int]) -> int:
    return sum(ctx.points(c) for c in cards)


def analyse_t13(q: MeldsQuery) -> dict[str, Any]:
    """T13-4 combinations with the round's wilds, C-2 best, T13-5 going out; no lay-offs (T13-7)."""
    assert q.round is not None and isinstance(q.rules, ThreeThirteenRules)
    ctx = _t13_context(q.round, q.rules)
    best = best_and_ties(
        ranked(partial(best_arrangement, q.hand, ctx), q.max_ties), q.max_ties, std_meld
    )
    return {
        "game": q.game,
        "round": q.round,
        "wild_rank": RANK_NAMES[q.round + 1],  # T13-1: the rank equal to the deal size
        "hand": list(q.hand),
        "hand_points": _ctx_points(ctx, q.hand),
        **listed_std(q.hand, ctx, q.limit, q.offset),
        **best,
        "layoffs": [],  # T13-7: cards are never added to another player's combinations
        "layoff_plan": [],
        "going_out": _t13_going_out(q, q.round, best["best"]["deadwood_points"]),
    }


MELD_PRESENTERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    STANDARD.kind: std_meld,
    TRIPLE_TOPPER.kind: tt_meld,
}
"""How a meld of each deck is presented, by ``Deck.kind``."""

ANALYSERS = {GAME_FLIP_FLOP: analyse_gff, TRIPLE_TUNK: analyse_tt, THREE_THIRTEEN: analyse_t13}

_DESCRIPTIONS = {
    GAME_FLIP_FLOP: "Spreads are sets of 3-4 of a rank and runs of 3+ in a suit, aces low "
    "(GFF-2); deadwood counts A=1, 2-10 face, J/Q/K=10 (GFF-1, C-2). `layoffs` lists hand cards "
    "that extend table spreads, chained ones with `requires` (GFF-3). `going_out` says whether the "
    "hand (after the draw) can tunk out - two own 3-card spreads, no discard: every other player "
    "adds one extra stake (GFF-9) - or go out, taking the game pot (GFF-10).",
    TRIPLE_TUNK: "Melds are 3-5 Triple Topper cards matching in two of colour/shape/number, or in "
    "sequence and matching in colour or shape, with black and blob wild (TT-3 to TT-6); each "
    "meld says what matches, whether it is a sequence and whether it is special (TT-7). `best` "
    "includes the special bonus (TT-14). `layoffs` respects special protection (TT-8). "
    "`going_out` gives the TT-11 tunk-out shape and the TT-14 multiplier.",
    THREE_THIRTEEN: "Combinations are sets and runs of 3+ with the round's wild rank standing in "
    "for any card (T13-1, T13-4); with `decks` > 1 a hand may repeat a card (T13-2). `best` lists "
    "each wild's assignment. `layoffs` is always empty (T13-7: no lay-offs). `going_out` lists "
    "each discard that leaves round+2 cards fully combined when the hand holds round+3 (T13-5).",
}


def add_routes(blp: Blueprint, game: str) -> None:
    """Register ``POST /melds`` for ``game`` on its blueprint."""
    add_cached_post(
        blp,
        "/melds",
        endpoint="melds",
        cache_name="melds",
        game=game,
        request_schema=MELDS_REQUESTS[game],
        response_schema=MELDS_RESPONSES[game],
        answer=ANALYSERS[game],
        response_description="The analysis of the hand.",
        summary="Legal melds, best arrangement, ties, lay-offs and going out for a hand",
        description=_DESCRIPTIONS[game],
        example=MELDS_EXAMPLES[game],
    )
