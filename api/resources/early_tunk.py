"""``POST /v1/games/{game}/early-tunk``: may this dealt hand claim before play, and for what.

Game Flip Flop: 49 or 50 (GFF-4). Triple Tunk: the house-rule totals, x2 if the claimant wins
(TT-9, TT-14). Three Thirteen has no early claim, so it has no such route (404).
"""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from api.resources._helpers import add_cached_post
from api.resources.examples import EARLY_TUNK_EXAMPLES
from api.schemas.early_tunk import EARLY_TUNK_REQUESTS, EARLY_TUNK_RESPONSES, EarlyTunkQuery
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK, TripleTunkRules
from engine.games.gff.play import early_win, hand_total
from engine.games.gff.settle import EarlyWin, settle_gff
from engine.games.tt.play import early_tunk


def _sole_declarer_net(value: int, players: int, stake: int) -> int:
    """Units a lone 49/50 declarer nets on the game pot, priced by the engine's settlement."""
    bankrolls = [stake * 4] * players  # enough for every seat to stake (GFF-6)
    result = settle_gff(bankrolls, stake, players - 1, EarlyWin(((0, value),)))
    return result.net[0]


def analyse_gff(q: EarlyTunkQuery) -> dict[str, Any]:
    """GFF-4: a dealt hand of exactly 49 or 50 may be declared."""
    value = early_win(q.hand)
    net = None
    if value is not None and q.players is not None and q.stake is not None:
        net = _sole_declarer_net(value, q.players, q.stake)
    if value == 50:
        pays = "50 (GFF-4): wins the game pot and every other player pays you one extra stake."
    elif value == 49:
        pays = "49 (GFF-4): wins the game pot."
    else:
        pays = "Nothing: only a dealt hand of exactly 49 or 50 may be declared (GFF-4)."
    return {
        "game": q.game,
        "hand": list(q.hand),
        "total": hand_total(q.hand),
        "eligible": value is not None,
        "rule": "GFF-4",
        "declares": value,
        "wins_game_pot": value is not None,
        "extra_stake_from_each_player": value == 50,
        "net_if_sole_declarer": net,
        "pays": pays,
    }


def analyse_tt(q: EarlyTunkQuery) -> dict[str, Any]:
    """TT-9: five dealt cards totalling one of the early-tunk totals may claim (x2 if they win)."""
    assert isinstance(q.rules, TripleTunkRules)
    result = early_tunk(q.hand, q.rules)
    totals = sorted(q.rules.early_tunk_totals)
    return {
        "game": q.game,
        "hand": list(q.hand),
        "total": result.total,
        "eligible": result.eligible,
        "rule": "TT-9",
        "totals": totals,
        "multiplier": result.multiplier,
        "pays": "Claim an early tunk (TT-9): play goes on, and if you win the hand your payment "
        "unit is doubled (TT-14)."
        if result.eligible
        else f"Nothing: the dealt total {result.total} is not one of {totals} (TT-9).",
    }


_DESCRIPTIONS = {
    GAME_FLIP_FLOP: "GFF-4: a dealt hand of exactly 49 or 50 points may be declared before play. "
    "49 wins the game pot; 50 also collects one extra stake from every other player. Give "
    "`players` and `stake` to get what a lone declarer nets. Several declarers: see `settle`.",
    "triple-tunk": "TT-9: five dealt cards totalling one of the house-rule totals "
    "(`rules.early_tunk_totals`, default 20, 24, 25) may claim an early tunk; play goes on and a "
    "claimant who wins the hand gets the x2 multiplier (TT-14).",
}


ANALYSERS = {GAME_FLIP_FLOP: analyse_gff, TRIPLE_TUNK: analyse_tt}
"""Each early-win game's analysis (GFF-4 49/50, TT-9 early tunk)."""


def add_routes(blp: Blueprint, game: str) -> None:
    """Register ``POST /early-tunk`` for ``game`` (Game Flip Flop and Triple Tunk only)."""
    add_cached_post(
        blp,
        "/early-tunk",
        endpoint="early_tunk",
        cache_name="early-tunk",
        game=game,
        request_schema=EARLY_TUNK_REQUESTS[game],
        response_schema=EARLY_TUNK_RESPONSES[game],
        answer=ANALYSERS[game],
        response_description="Eligibility, total and value.",
        summary="Can the dealt hand claim before play (49/50, early tunk) and what it is worth",
        description=_DESCRIPTIONS[game],
        example=EARLY_TUNK_EXAMPLES[game],
    )
