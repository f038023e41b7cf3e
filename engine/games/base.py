"""What every game is: a :class:`Game` holds one game's rule facts and its differing hooks.

The registry (:mod:`engine.games`) holds one ``Game`` per slug, the way python-chess holds one
variant class per name. Code that needs a rule fact (how many cards are dealt, how many a hand
may hold, which deck, which house-rule options) asks the ``Game`` instead of comparing slugs, so
each fact is written once. Hot loops stay specialised: they pick their evaluator once, from the
``Game``, not per card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.deck import Deck
from engine.core.errors import HandError
from engine.core.options import OPTION_CHOICES, Rules, RulesClass, canonical_rules, parse_rules


@dataclass(frozen=True, slots=True)
class Game:
    """One game's rule facts (ids in the field docs) and capabilities."""

    slug: str
    """The ``{game}`` path segment and the name in every answer (``game-flip-flop``)."""
    title: str
    schema_prefix: str
    """Prefix of the game's API schema names (``Gff``, ``Tt``, ``T13``)."""
    deck: Deck
    players: tuple[int, int]
    """Seats at the table, lowest and highest (GFF-1 2-8, TT-1 3-6, Three Thirteen 2-8)."""
    rules_class: RulesClass
    """The frozen house-rule options class (:mod:`engine.core.options`)."""
    dealt: int | None
    """Cards dealt to each seat (GFF-1, TT-1: five); None when it depends on the round (T13-1)."""
    rounds: int | None = None
    """Rounds of a game (T13-1: eleven); None for a game of independent deals."""
    early_win: bool = False
    """A dealt hand may claim an early win (GFF-4 49/50, TT-9 early tunk)."""
    knock: bool = False
    """A player may end the deal by dropping (GFF-8) or knocking (TT-12) on a low total."""
    side_pots: bool = False
    """The deal has flip and flop pots (GFF-5)."""
    turned_up: int = 0
    """Cards turned up from the rest of the deck after the deal to start the discard pile
    (Triple Tunk's deal: one; Game Flip Flop's pile starts empty)."""
    meld_rule: str = field(kw_only=True)
    """The rule that says what a meld is (GFF-2, TT-6, T13-4), cited in answers."""
    layoff_rule: str | None = None
    """The rule for laying cards off on table melds (GFF-3, TT-8); None: the game has no
    lay-offs (T13-7)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Further game-specific facts, read by that game's own modules."""

    # --- hand sizes ------------------------------------------------------------------------

    def deal_size(self, round_number: int | None = None) -> int:
        """Cards dealt to a seat: the fixed deal, or in Three Thirteen round r's r + 2 (T13-1)."""
        if self.dealt is not None:
            return self.dealt
        return (round_number or self.rounds or 1) + 2

    def max_hand_size(self, round_number: int | None = None) -> int:
        """Most cards a hand holds: the deal plus the drawn card (GFF-7, TT-10, T13-5).

        With no round given, Three Thirteen's largest (round 11's).
        """
        return self.deal_size(round_number) + 1

    def stock_after_deal(self, players: int, round_number: int | None = None) -> int:
        """Cards left to draw once ``players`` seats are dealt and the pile is started."""
        return self.deck.size - players * self.deal_size(round_number) - self.turned_up

    def copies(self, decks: int = 1) -> int:
        """How many copies of one card the shuffled decks hold (C-1; T13-2 several decks)."""
        return decks if self.deck.max_decks > 1 else 1

    # --- house rules -----------------------------------------------------------------------

    def default_rules(self) -> Rules:
        """The house-rule options a table gets when it says nothing (``docs/rules.md``)."""
        return self.rules_class()

    def parse_rules(self, options: Mapping[str, Any] | None) -> Rules:
        """This game's rules from a client mapping; bad options or values raise RuleError."""
        return parse_rules(self.slug, options)

    def option_choices(self) -> dict[str, tuple[str, ...]]:
        """Allowed values of this game's enumerated options."""
        return {
            name: OPTION_CHOICES[name]
            for name in canonical_rules(self.default_rules())
            if name in OPTION_CHOICES
        }

    # --- validation ------------------------------------------------------------------------

    def validate_hand(
        self,
        cards: Sequence[int],
        *,
        round_number: int | None = None,
        decks: int = 1,
        field: str = "hand",
        min_size: int = 1,
    ) -> None:
        """Raise HandError when ``cards`` is too small or large or repeats a card too often.

        :raises HandError: naming ``field`` and the offending card or size.
        """
        limit = self.max_hand_size(round_number)
        if len(cards) < min_size:
            raise HandError(f"a hand needs at least {min_size} card(s)", field=field)
        if len(cards) > limit:
            where = f"in round {round_number}" if self.rounds else f"in {self.slug}"
            raise HandError(
                f"{len(cards)} cards is too many: a hand holds at most {limit} {where}",
                field=field,
            )
        copies = self.copies(decks)
        for card, count in Counter(cards).items():
            if count > copies:
                if copies == 1:
                    raise HandError(
                        f"{self.deck.name(card)} appears {count} times; the deck has one",
                        field=field,
                    )
                raise HandError(
                    f"{self.deck.name(card)} appears {count} times; {copies} decks hold "
                    f"{copies} copies",
                    field=field,
                )

    def validate_distinct_across(
        self, groups: Sequence[tuple[str, Sequence[int]]], decks: int = 1
    ) -> None:
        """Raise HandError when a card shows up across hand, table and piles too often (C-1)."""
        copies = self.copies(decks)
        seen: Counter[int] = Counter()
        for where, cards in groups:
            for card in cards:
                seen[card] += 1
                if seen[card] > copies:
                    raise HandError(
                        f"{self.deck.name(card)} is shown more often than the deck holds it",
                        field=where,
                    )
