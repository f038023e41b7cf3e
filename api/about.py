"""What the service calls itself: title, version and description of the HTTP API.

A leaf module (it imports nothing from ``api``), so the app factory, the front door and the
OpenAPI generator all read these names without importing one another.
"""

from __future__ import annotations

__version__ = "0.2.0"
"""Version of the HTTP API (``info.version`` in openapi.yaml)."""

API_TITLE = "Tunk Hand Analysis"
OPENAPI_VERSION = "3.0.3"  # the bundled Swagger UI (4.x) renders 3.0 documents
API_EXTENSION_KEY = "tunk.api"
"""Where ``create_app`` keeps its flask-smorest Api in ``app.extensions``."""
SETTINGS_EXTENSION_KEY = "tunk.settings"
"""Where ``create_app`` keeps its :class:`api.config.Settings` in ``app.extensions``."""

API_DESCRIPTION = "\n\n".join(
    (
        "Hand analysis for three rummy-family games - Game Flip Flop, Triple Tunk and Three "
        "Thirteen: legal melds, best arrangement and deadwood, lay-offs, going out, early tunk, "
        "side pots and settlement, citing rule ids (GFF-n, TT-n, T13-n, C-n) from the rules sheet.",
        "Analysis endpoints take and return JSON (snake_case fields, integer money) and carry "
        "`X-Cache: HIT | MISS | BYPASS`. Every error is `application/problem+json` (RFC 9457) "
        "whose `errors` object maps field paths such as `hand[0]` or `table[1].cards[2]` to "
        "messages.",
    )
)

__all__ = [
    "API_DESCRIPTION",
    "API_EXTENSION_KEY",
    "API_TITLE",
    "OPENAPI_VERSION",
    "SETTINGS_EXTENSION_KEY",
    "__version__",
]
