"""Custom marshmallow fields: card text <-> engine ints, and ``rules`` objects -> engine rules.

The engine never sees strings past these fields (STYLE.md): a request's cards are parsed here,
once, with ``engine.core.cards.parse_card`` / ``engine.core.topper.parse_topper_card``, and every
card in a
response is printed back in the game's canonical notation. A card of the other deck (a Triple
Topper card in a standard game or the reverse) gets its own message naming the mix-up, so a client
that posted to the wrong game learns why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import ValidationError, fields, validate

from engine.core.cards import card_name, parse_card
from engine.core.deck import STANDARD, TRIPLE_TOPPER
from engine.core.errors import CardError, RuleError
from engine.core.options import (
    EARLY_TUNK_RANGE,
    OPTION_CHOICES,
    RULES_CLASSES,
    Rules,
    canonical_rules,
    default_rules,
    parse_rules,
)
from engine.core.topper import parse_topper_card, topper_card_name
from engine.games import find_game

MAX_MONEY = 10**12
"""Largest amount of money a request may carry (stake, unit, bankroll, carry-in, price per
point): 10^12 units. Answers multiply it by at most a few hundred, so every result stays an exact
integer a JSON client (and a float, for expected values) can hold."""
MAX_TOTAL = 10**6
"""Largest points total a request may carry (hand totals, round scores, running totals)."""
MAX_SEAT_NUMBER = 63
"""Largest seat number read at all; the table's size (at most 8 seats) then decides."""


class StrictBoolean(fields.Boolean):
    """JSON ``true`` or ``false`` only: ``0``, ``1``, ``"yes"``, ``"on"`` are rejected.

    marshmallow's Boolean accepts a dozen truthy spellings (and ``1 == True`` in a set), which a
    typo'd client would never notice; a flag that changes the money must be said plainly.
    """

    default_error_messages = {"invalid": "must be true or false (a JSON boolean)."}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid")


def at_most(maximum: int) -> validate.Range:
    """The upper bound of a number, added beside its existing lower-bound check and message."""
    return validate.Range(max=maximum, error=f"must be at most {maximum}")


def strict_boolean(**kwargs: Any) -> StrictBoolean:
    """A :class:`StrictBoolean` field (one line where a schema declares a flag)."""
    return StrictBoolean(**kwargs)


def bounded_money(minimum: int = 1, **kwargs: Any) -> fields.Integer:
    """Whole units of money from ``minimum`` to ``MAX_MONEY`` (C-3), strict JSON integer."""
    return fields.Integer(
        strict=True,
        validate=[
            validate.Range(min=minimum, error=f"must be a whole number of units >= {minimum}"),
            at_most(MAX_MONEY),
        ],
        **kwargs,
    )


def path_error(path: str, message: str | list[str]) -> ValidationError:
    """A ValidationError whose messages nest along ``path`` (``"table[1].cards[0]"``).

    Marshmallow reports list items under int keys and nested fields under names; building the same
    shape here means a cross-field check reports exactly like a field check, and the problem+json
    flattening prints it back as the same path.
    """
    messages: Any = [message] if isinstance(message, str) else message
    for part in reversed(_split_path(path)):
        messages = {part: messages}
    return ValidationError(messages)


def _split_path(path: str) -> list[str | int]:
    parts: list[str | int] = []
    for chunk in path.split("."):
        name, _, rest = chunk.partition("[")
        if name:
            parts.append(name)
        while rest:
            index, _, rest = rest.partition("]")
            parts.append(int(index))
            rest = rest.removeprefix("[")
    return parts


MEMO_TEXT_LENGTH = 3
"""Card texts up to this long are remembered once parsed (every short notation; a spelled-out
name with free spacing is not, so the memo stays a few hundred entries per field)."""


class CardField(fields.String):
    """A card of one deck: text in, engine int out; int in, canonical text out (dump).

    Subclasses name their deck's parser and printer, and the other deck's parser so that a card
    of the wrong deck is reported as such rather than as gibberish.
    """

    deck_name = ""
    other_deck = ""
    notation = ""
    example = ""
    parse_text: Callable[[str], int] = staticmethod(parse_card)
    parse_other: Callable[[str], int] = staticmethod(parse_topper_card)
    print_card: Callable[[int], str] = staticmethod(card_name)

    pattern = ""
    """The deck's short notation as a regular expression (``engine.core.deck``): in the spec, so
    a generated client checks a card before sending it. Spelled-out Triple Topper cards ('red
    heart 3') are read here but are outside the pattern."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"description": self.notation, "example": self.example, "pattern": self.pattern}
        metadata.update(kwargs.pop("metadata", {}))
        super().__init__(metadata=metadata, **kwargs)
        # Short spellings parsed before (``RH3``, ``10h``): a pure function of the text, and a
        # bounded set (case variants of a deck's short names), so a plain dict is the memo.
        self._parsed: dict[str, int] = {}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, str):
            raise ValidationError(f"a card must be a string. {self.notation}")
        card = self._parsed.get(value)
        if card is not None:
            return card
        try:
            card = self.parse_text(value)
            if len(value) <= MEMO_TEXT_LENGTH:
                self._parsed[value] = card
            return card
        except CardError as exc:
            try:
                self.parse_other(value)
            except CardError:
                raise ValidationError(exc.message) from None
            raise ValidationError(
                f"{value!r} is a {self.other_deck} card; this game uses {self.deck_name} cards"
            ) from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        if value is None:
            return None
        return self.print_card(int(value))


class StdCard(CardField):
    """A standard 52-card deck card (Game Flip Flop, Three Thirteen), GFF-1 / T13-3."""

    deck_name = "standard 52-card deck"
    other_deck = "Triple Topper"
    notation = STANDARD.notation
    example = "10H"
    pattern = STANDARD.pattern
    parse_text = staticmethod(parse_card)
    parse_other = staticmethod(parse_topper_card)
    print_card = staticmethod(card_name)


class TopperCard(CardField):
    """A Triple Topper card (Triple Tunk), TT-1."""

    deck_name = "Triple Topper"
    other_deck = "standard-deck"
    notation = TRIPLE_TOPPER.notation
    example = "RH3"
    pattern = TRIPLE_TOPPER.pattern
    parse_text = staticmethod(parse_topper_card)
    parse_other = staticmethod(parse_card)
    print_card = staticmethod(topper_card_name)


def card_field_for(game: str, **kwargs: Any) -> CardField:
    """The card field of ``game``'s deck."""
    return CARD_FIELDS[find_game(game).deck.kind](**kwargs)


CARD_FIELDS: dict[str, type[CardField]] = {
    STANDARD.kind: StdCard,
    TRIPLE_TOPPER.kind: TopperCard,
}
"""The card field of each deck, by ``Deck.kind``."""


def rules_properties(game: str) -> dict[str, Any]:
    """OpenAPI properties of ``game``'s rules object, read from engine.core.options (no hand-kept
    copy)."""
    defaults = canonical_rules(default_rules(game))
    doc = (RULES_CLASSES[game].__doc__ or "").strip()
    props: dict[str, Any] = {}
    for name, default in defaults.items():
        if name in OPTION_CHOICES:
            props[name] = {
                "type": "string",
                "enum": list(OPTION_CHOICES[name]),
                "default": default,
                "description": doc,
            }
        elif name == "early_tunk_totals":
            props[name] = {
                "type": "array",
                "items": {
                    "type": "integer",
                    "minimum": EARLY_TUNK_RANGE.start,
                    "maximum": EARLY_TUNK_RANGE.stop - 1,
                },
                "minItems": 1,
                "default": default,
                "description": doc,
            }
    return props


class RulesField(fields.Field):
    """A game's ``rules`` object: parsed by ``engine.core.options.parse_rules`` into its frozen
    rules.

    Unknown options and bad values are reported at ``rules.<option>`` (the engine names it).
    Missing means the defaults of docs/rules.md; ``null`` is refused (422 at ``rules``), as the
    schema says ``object``: a client that sends null gets told, not silently defaulted.
    """

    default_error_messages = {  # noqa: RUF012 (marshmallow's own class attribute)
        "null": "rules must be an object of house-rule options; omit it for the defaults",
    }

    def __init__(self, game: str, **kwargs: Any) -> None:
        self.game = game
        metadata = {
            "type": "object",
            "properties": rules_properties(game),
            "additionalProperties": False,
            "description": "House-rule options (docs/rules.md); omitted options take their "
            "defaults.",
        }
        kwargs.setdefault("load_default", lambda: default_rules(game))
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Rules:
        if not isinstance(value, Mapping):
            raise ValidationError("rules must be an object of house-rule options")
        try:
            return parse_rules(self.game, value)
        except RuleError as exc:
            option = (exc.field or "rules").removeprefix("rules").lstrip(".")
            if option:
                raise ValidationError({option: [exc.message]}) from None
            raise ValidationError(exc.message) from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        if value is None:
            return None
        return canonical_rules(value)
