"""Builds the ``next`` and ``session`` members of settle answers (see ``api.schemas.session``).

``next`` holds exactly the request fields the next ``settle`` takes for the same session, so a
scorekeeping app can chain deals by adding the next outcome and sending it back.
"""

from __future__ import annotations

from typing import Any

from api.schemas.settle import GffSettleQuery, T13SettleQuery, TtSettleQuery
from engine.core.options import canonical_rules
from engine.games.session import Standing, gff_next_deal, standings, t13_next_round


def _standings(rows: tuple[Standing, ...]) -> list[dict[str, int]]:
    return [{"seat": r.seat, "value": r.value, "place": r.place} for r in rows]


def gff_chain(
    q: GffSettleQuery, bankrolls_after: list[int], flip: int, flop: int
) -> dict[str, Any]:
    """``next`` (or null when fewer than two seats can play, GFF-6) and ``session``."""
    state = gff_next_deal(bankrolls_after, q.stake, q.dealer, flip, flop)
    nxt = None
    if not state.game_over:
        nxt = {
            "bankrolls": list(state.bankrolls),
            "stake": q.stake,
            "dealer": state.dealer,
            "flip_carry_in": state.flip_carry_in,
            "flop_carry_in": state.flop_carry_in,
            "rules": canonical_rules(q.rules),
        }
    return {
        "next": nxt,
        "session": {
            "can_deal_in": list(state.can_deal_in),
            "cannot_deal_in": list(state.cannot_deal_in),
            "game_over": state.game_over,
            "standings": _standings(state.standings),
        },
    }


def tt_chain(q: TtSettleQuery, net: list[int]) -> dict[str, Any]:
    """Running money totals after the hand; the deal passes to the dealer's left (C-4)."""
    totals = [before + change for before, change in zip(q.running_totals, net, strict=True)]
    return {
        "next": {
            "players": q.players,
            "unit": q.unit,
            "dealer": (q.dealer + 1) % q.players,
            "running_totals": totals,
        },
        "session": {
            "running_totals": totals,
            "game_over": False,
            "standings": _standings(standings(totals, lower_is_better=False)),
        },
    }


def t13_chain(q: T13SettleQuery, totals: list[int]) -> dict[str, Any]:
    """The next round (null after round 11, T13-1) and the standings, lowest first (T13-6)."""
    following = t13_next_round(q.round)
    nxt = None
    if following is not None:
        nxt = {
            "round": following,
            "dealer": (q.dealer + 1) % len(totals),
            "previous_totals": totals,
            "decks": q.decks,
            "stake_per_point": q.stake_per_point,
            "rules": canonical_rules(q.rules),
        }
    return {
        "next": nxt,
        "session": {
            "totals": totals,
            "game_over": following is None,
            "standings": _standings(standings(totals, lower_is_better=True)),
        },
    }
