"""``POST /v1/games/{game}/settle``: the whole settlement of a finished hand or round.

Money is integer units with C-3 splits; every ``net`` sums to zero (Game Flip Flop: apart from
money moving into or out of carried-over side pots, reported as ``carry_in``/``carry_out``).
"""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from api.resources._helpers import add_cached_post
from api.resources.examples import SETTLE_EXAMPLES
from api.resources.session import gff_chain, t13_chain, tt_chain
from api.schemas.settle import (
    SETTLE_REQUESTS,
    SETTLE_RESPONSES,
    GffSettleQuery,
    T13SettleQuery,
    TtSettleQuery,
)
from engine.core.errors import EngineError
from engine.core.options import (
    GAME_FLIP_FLOP,
    THREE_THIRTEEN,
    TRIPLE_TUNK,
    GameFlipFlopRules,
    ThreeThirteenRules,
)
from engine.games.gff.settle import settle_gff
from engine.games.t13.settle import score_t13_round, settle_t13_scores
from engine.games.tt.settle import TTTunkOut, multiplier, settle_tt

# Engine parameter names that the request spells differently.
_RENAMED = {"n_seats": "players", "round_number": "round"}


def _engine_call(func: Any, *args: Any, **kwargs: Any) -> Any:
    """Call the engine, re-pointing an error's field to the request's own name for it."""
    try:
        return func(*args, **kwargs)
    except EngineError as exc:
        if exc.field:
            head, sep, rest = exc.field.partition("[")
            exc.field = _RENAMED.get(head, head) + sep + rest
        raise


def settle_gff_query(q: GffSettleQuery) -> dict[str, Any]:
    """GFF-4/GFF-8..GFF-11 game pot, GFF-5/GFF-6 side pots and eliminations."""
    assert isinstance(q.rules, GameFlipFlopRules)
    s = _engine_call(
        settle_gff,
        q.bankrolls,
        q.stake,
        q.dealer,
        q.outcome,
        dealt_hands=q.dealt_hands,
        flip_card=q.flip_card,
        side_winners=q.side_winners,
        flip_carry_in=q.flip_carry_in,
        flop_carry_in=q.flop_carry_in,
        rules=q.rules,
    )
    return {
        "game": GAME_FLIP_FLOP,
        "outcome": s.outcome_kind,
        "stake": s.stake,
        "dealer": s.dealer,
        "stakes_in": list(s.stakes_in),
        "sitting_out": list(s.sitting_out),
        "all_in": list(s.all_in),
        "eliminated": list(s.eliminated),
        "game_winners": list(s.game_winners),
        "pots": [
            {
                "name": p.name,
                "amount": p.amount,
                "winners": list(p.winners),
                "shares": [{"seat": seat, "amount": units} for seat, units in p.shares],
                "carried_over": p.carried_over,
                "carry_in": p.carry_in,
            }
            for p in s.pots
        ],
        "extra_payments": [
            {"seat": e.seat, "amount": e.amount, "pot": e.pot, "reason": e.reason}
            for e in s.extra_payments
        ],
        "paid": list(s.paid),
        "won": list(s.won),
        "net": list(s.net),
        "carry_in": s.carry_in,
        "carry_out": s.carry_out,
        "flip_carry_out": s.flip_carry_out,
        "flop_carry_out": s.flop_carry_out,
        "bankrolls_after": list(s.bankrolls_after),
        **gff_chain(q, list(s.bankrolls_after), s.flip_carry_out, s.flop_carry_out),
    }


def settle_tt_query(q: TtSettleQuery) -> dict[str, Any]:
    """TT-13 knock or TT-11 tunk out, paid with TT-14 multipliers."""
    s = _engine_call(settle_tt, q.players, q.unit, q.dealer, q.outcome)
    early = list(q.outcome.early_tunk) or [False] * q.players
    bonus = list(q.outcome.special_bonus) or [1] * q.players
    tunker = q.outcome.seat if isinstance(q.outcome, TTTunkOut) else None
    return {
        "game": TRIPLE_TUNK,
        "outcome": s.outcome_kind,
        "winners": list(s.winners),
        "knocker_caught": s.knocker_caught,
        "multipliers": [
            multiplier(early[seat], bonus[seat], tunk_out=seat == tunker)
            for seat in range(q.players)
        ],
        "special_bonus": bonus,
        "early_tunk": early,
        "payments": [
            {"payer": p.payer, "payee": p.payee, "multiplier": p.multiplier, "amount": p.amount}
            for p in s.payments
        ],
        "net": list(s.net),
        **tt_chain(q, list(s.net)),
    }


def settle_t13_query(q: T13SettleQuery) -> dict[str, Any]:
    """T13-6 round scores (from the final hands' best arrangements, or given), totals, winners."""
    assert isinstance(q.rules, ThreeThirteenRules)
    if q.final_hands is not None:
        r = _engine_call(
            score_t13_round,
            q.round,
            q.rules,
            q.went_out,
            q.final_hands,
            q.previous_totals,
            decks=q.decks,
            dealer=q.dealer,
            stake_per_point=q.stake_per_point,
        )
    else:
        assert q.round_scores is not None
        r = _engine_call(
            settle_t13_scores,
            q.round,
            q.went_out,
            q.round_scores,
            q.previous_totals,
            dealer=q.dealer,
            stake_per_point=q.stake_per_point,
        )
    return {
        "game": THREE_THIRTEEN,
        "round": r.round_number,
        "went_out": r.went_out,
        "round_scores": list(r.round_scores),
        "totals": list(r.totals),
        "final": r.final,
        "winners": list(r.winners),
        "net": list(r.net),
        "stake_per_point": r.stake_per_point,
        **t13_chain(q, list(r.totals)),
    }


SETTLERS: dict[str, Any] = {
    GAME_FLIP_FLOP: settle_gff_query,
    TRIPLE_TUNK: settle_tt_query,
    THREE_THIRTEEN: settle_t13_query,
}

_DESCRIPTIONS = {
    GAME_FLIP_FLOP: "Settles one deal in integer units. Stakes follow GFF-6 from the bankrolls "
    "(one stake per pot in the order game, flip, flop, keeping one in reserve; a seat staking "
    "only the game pot is all in and eliminated unless it wins it). The game pot goes by the "
    "outcome: 49/50 declarations (GFF-4), a drop (GFF-8: strictly lowest wins, else caught: one "
    "extra stake, the lowest others split), a tunk out (GFF-9: every other player adds one "
    "extra stake), going out (GFF-10) or an exhausted stock (GFF-11). Side pots settle from "
    "`dealt_hands` + `flip_card` (GFF-5) or `side_winners`; without either only the game pot "
    "is settled. Splits give leftover units from the dealer's left "
    "(C-3).",
    TRIPLE_TUNK: "Knock (TT-13): a knocker strictly lowest collects one unit times their "
    "multiplier from every other player; otherwise the knocker pays each player who tied or "
    "beat them one unit times that player's multiplier. Tunk out (TT-11): every other player "
    "pays one unit x the tunker's multiplier including the x2. Multipliers (TT-14): x2 early "
    "tunk, x2 tunk out, x the special bonus (1-4, from `outcome.special_bonus` or the specials "
    "each seat owns in `table`).",
    THREE_THIRTEEN: "T13-6: the player who went out scores 0; everyone else scores the deadwood "
    "of the best arrangement of their final hand (C-2, wilds and T13-3 values), or give "
    "`round_scores`. Totals add up over rounds (`previous_totals`); after round 11 the lowest "
    "total wins, ties share. Optional `stake_per_point` settles money after round 11.",
}


def add_routes(blp: Blueprint, game: str) -> None:
    """Register ``POST /settle`` for ``game``."""
    add_cached_post(
        blp,
        "/settle",
        endpoint="settle",
        cache_name="settle",
        game=game,
        request_schema=SETTLE_REQUESTS[game],
        response_schema=SETTLE_RESPONSES[game],
        answer=SETTLERS[game],
        response_description="The settlement.",
        summary="Settle a finished hand or round from its outcome",
        description=_DESCRIPTIONS[game],
        examples=SETTLE_EXAMPLES[game],
    )
