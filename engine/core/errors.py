"""Engine error types: every rejection of an input is one of these, with an actionable message."""


class EngineError(ValueError):
    """Base of every error the engine raises for bad input.

    ``field`` optionally names where the bad value sits (``"hand[2]"``, ``"outcome.totals"``)
    so the HTTP layer can report it without parsing the message.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class CardError(EngineError):
    """A card's text could not be parsed for the game's deck."""


class HandError(EngineError):
    """A hand breaks the game's limits: size, repeated cards, too many copies."""


class RuleError(EngineError):
    """A house-rule option is unknown or has a value the option does not allow."""


class TableError(EngineError):
    """The melds on the table are inconsistent (not a meld, a card shown twice, bad owner)."""


class OutcomeError(EngineError):
    """A finished hand's outcome is impossible (bad seat, missing totals, contradictory claims)."""
