"""The frozen queries an advice request loads into, and the endpoints they are asked at.

A query holds engine values only (an ``Observation`` for the Tunk games, a ``T13Situation`` for
Three Thirteen) plus the request options; its ``canonical()`` form is the cache key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from api.schemas.common import canonical_table
from engine.advice.situation import Observation
from engine.advice.t13 import DEFAULT_PRECISION, T13Situation
from engine.advice.tunk import knock as tunk_knock
from engine.core.options import THREE_THIRTEEN, Rules, canonical_rules
from engine.core.types import TableMeld

DISCARD = "discard"
DRAW = "draw"
KNOCK = "knock"
PROFILE = "profile"


@dataclass(frozen=True, slots=True)
class TunkAdviceQuery:
    """A validated Game Flip Flop / Triple Tunk advice request: the engine's ``Observation`` plus
    the request options. ``stake`` (GFF) / ``unit`` (TT) only prices the knock payout."""

    game: str
    endpoint: str
    obs: Observation
    rules: Rules
    seed: int
    samples: int | None
    stake: int | None = None
    precision: float | None = None
    # ``profile`` only: (seat, cards) of every hand shown when the deal ended, and who ended it;
    # or (seat, cards, card taken from the discard pile or None) of the opponent that went out
    final_hands: tuple[tuple[int, tuple[int, ...]], ...] = ()
    ended_by: int | None = None
    went_out: tuple[int, tuple[int, ...], int | None] | None = None

    @property
    def sampled(self) -> bool:
        """Whether the answer depends on ``seed`` and ``samples``: the Tunk discard figures are
        exact enumerations; draw and knock sample."""
        return self.endpoint != DISCARD

    def canonical(self) -> dict[str, Any]:
        """Order- and notation-independent JSON form (the cache key's request part).

        The hand is sorted and each seat's known cards too; the discard pile keeps its order
        (top first matters), as do each opponent's discards (most recent first).
        """
        o = self.obs
        out: dict[str, Any] = {
            "hand": list(o.hand),
            "table": canonical_table(o.table),
            "discard_pile": list(o.discards),
            "seat": o.seat,
            "players": o.n_players,
            "dealer": o.dealer,
            "known": [list(k) for k in o.known],
            "hand_sizes": list(o.hand_sizes),
            "turns": list(o.turns),
            "discarded": [list(h) for h in o.discard_history],
            "declined": [list(h) for h in o.declined],
            "flip_card": o.flip_card,
            "waiting": list(o.waiting),
            "passes": [list(p) for p in o.passes],
            "early": list(o.early),
            "rules": canonical_rules(self.rules),
            "stake": self.stake,
            # What the money means for the answer: who is dealt in (``hand_sizes``) and whether
            # the asking seat is all in (GFF-6); the drop payout depends on nothing else.
            "all_in": tunk_knock.is_all_in(o),
            "profiles": [list(p) if p is not None else None for p in o.profiles],
            "drop_styles": list(o.drop_styles),
            "drop_totals": [list(t) if t is not None else None for t in o.drop_totals],
            "keeps_flexible": list(o.keeps_flexible),
        }
        if self.endpoint == PROFILE:
            out["final_hands"] = [[s, sorted(cards)] for s, cards in sorted(self.final_hands)]
            out["ended_by"] = self.ended_by
            out["went_out"] = None if self.went_out is None else list(self.went_out)
        if self.sampled:
            out["seed"] = self.seed
            out["samples"] = self.samples
            out["precision"] = self.precision
        return out


@dataclass(frozen=True, slots=True)
class T13AdviceQuery:
    """A validated Three Thirteen advice request: the engine's ``T13Situation`` plus options.

    ``opponent_seats`` lists the opponents' seats clockwise from the player's left, which is the
    order of ``situation.known`` / ``situation.hand_sizes``. ``table`` (combinations already
    shown) is kept for the cache key; the engine sees those cards as seen cards (see
    :func:`api.schemas.advice.t13.t13_situation`).
    """

    endpoint: str
    situation: T13Situation
    seat: int
    opponent_seats: tuple[int, ...]
    table: tuple[TableMeld, ...]
    seed: int
    samples: int
    precision: float = DEFAULT_PRECISION

    game = THREE_THIRTEEN

    @property
    def sampled(self) -> bool:
        """Whether the answer depends on ``seed`` and ``samples``: always (both endpoints sample
        the next player's hands, and the draw the stock)."""
        return True

    def canonical(self) -> dict[str, Any]:
        """Cache-key form: sorted hand and known cards, pile order kept, canonical rules."""
        s = self.situation
        out: dict[str, Any] = {
            "hand": list(s.hand),
            "round": s.round_number,
            "players": s.players,
            "decks": s.decks,
            "seat": self.seat,
            "table": canonical_table(self.table),
            "discard_pile": list(s.discard_pile),
            "known": [list(k) for k in s.known],
            "hand_sizes": list(s.hand_sizes),
            "out": s.out,
            "rules": canonical_rules(s.rules),
            "scores": list(s.scores),
            "discarded": [list(d) for d in s.discarded],
            "seed": self.seed,
            "samples": self.samples,
        }
        if self.endpoint == DRAW:
            out["precision"] = self.precision
        return out


__all__ = ["DISCARD", "DRAW", "KNOCK", "PROFILE", "T13AdviceQuery", "TunkAdviceQuery"]
