"""Frozen house-rule objects per game, defaults from docs/rules.md, and a canonical cache-key form.

Each game has one rules class; ``parse_rules(game, mapping)`` turns a client's ``rules`` object
into it (rejecting unknown options), and ``canonical()`` gives a stable, hashable description.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from engine.core.errors import RuleError

GAME_FLIP_FLOP = "game-flip-flop"
TRIPLE_TUNK = "triple-tunk"
THREE_THIRTEEN = "three-thirteen"
GAMES: tuple[str, ...] = (GAME_FLIP_FLOP, TRIPLE_TUNK, THREE_THIRTEEN)

SidePotFallback = Literal["next_lowest", "carry_over"]
AcesRule = Literal["low", "high_or_low"]


@dataclass(frozen=True, slots=True)
class GameFlipFlopRules:
    """GFF-6 house rule: where a flip/flop pot goes when its winning card's holder did not stake."""

    side_pot_fallback: SidePotFallback = "next_lowest"


@dataclass(frozen=True, slots=True)
class TripleTunkRules:
    """TT-9 house rule: the dealt five-card totals that may claim an early tunk."""

    early_tunk_totals: frozenset[int] = frozenset({20, 24, 25})


@dataclass(frozen=True, slots=True)
class ThreeThirteenRules:
    """T13-3 house rule: aces low only, or low or high (Q-K-A runs, unmelded ace counts 15)."""

    aces: AcesRule = "low"


Rules = GameFlipFlopRules | TripleTunkRules | ThreeThirteenRules

RulesClass = type[GameFlipFlopRules] | type[TripleTunkRules] | type[ThreeThirteenRules]
RULES_CLASSES: dict[str, RulesClass] = {
    GAME_FLIP_FLOP: GameFlipFlopRules,
    TRIPLE_TUNK: TripleTunkRules,
    THREE_THIRTEEN: ThreeThirteenRules,
}

# Allowed values of each enumerated option, used for validation and for GET /v1/games.
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "side_pot_fallback": ("next_lowest", "carry_over"),
    "aces": ("low", "high_or_low"),
}

# Early-tunk totals must be reachable by five dealt Triple Topper cards (each worth 1..5).
EARLY_TUNK_RANGE = range(5, 26)


def default_rules(game: str) -> Rules:
    """The docs/rules.md defaults for ``game``."""
    return RULES_CLASSES[game]()


def parse_rules(game: str, options: Mapping[str, Any] | None) -> Rules:
    """Build ``game``'s rules from a client mapping; bad options or values raise RuleError."""
    cls = RULES_CLASSES[game]
    options = dict(options or {})
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(options) - known)
    if unknown:
        allowed = ", ".join(sorted(known))
        raise RuleError(
            f"unknown house-rule option {unknown[0]!r} for {game}; options are: {allowed}",
            field=f"rules.{unknown[0]}",
        )
    values: dict[str, Any] = {}
    for name, value in options.items():
        if name in OPTION_CHOICES:
            if value not in OPTION_CHOICES[name]:
                choices = ", ".join(OPTION_CHOICES[name])
                raise RuleError(f"{name} must be one of: {choices}", field=f"rules.{name}")
            values[name] = value
        elif name == "early_tunk_totals":
            values[name] = _parse_totals(value)
    return cls(**values)


def _parse_totals(value: Any) -> frozenset[int]:
    if not isinstance(value, list | tuple | set | frozenset) or not value:
        raise RuleError(
            "early_tunk_totals must be a non-empty list of totals", "rules.early_tunk_totals"
        )
    totals: set[int] = set()
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or item not in EARLY_TUNK_RANGE:
            raise RuleError(
                f"early_tunk_totals holds {item!r}; each total must be a whole number from 5 to 25",
                "rules.early_tunk_totals",
            )
        totals.add(item)
    return frozenset(totals)


def canonical_rules(rules: Rules) -> dict[str, Any]:
    """A JSON-ready, order-independent form of ``rules`` (sets become sorted lists)."""
    out: dict[str, Any] = {}
    for f in fields(rules):
        value = getattr(rules, f.name)
        out[f.name] = sorted(value) if isinstance(value, frozenset) else value
    return out
