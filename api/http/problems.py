"""The kinds of problem this service answers with: one stable ``code`` and ``type`` URI each.

A client branches on ``code`` (``invalid_card``, ``rate_limited``, ...) rather than on the status
or the wording of ``detail``; ``type`` is the relative URI ``/problems/<code with hyphens>``, a
page the service itself serves (``GET /problems/invalid-card``) explaining the kind and what to
do about it. This module is the one list of kinds: the problem builder (``api.http.errors``),
the OpenAPI document (an ``enum`` on ``Problem.code``), the served pages and docs/problems.md all
read it.

How a problem gets its code (:func:`classify`): a producer may name it; otherwise the status
decides (429 ``rate_limited``, 415 ``unsupported_media_type``, ...), and a 404 or 422 looks at
its first ``errors`` entry, the one ``detail`` describes: which field it names (``game``,
``endpoint``, ``rule_id``) or which kind of message the engine or the schemas wrote there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

PROBLEMS_PATH: Final = "/problems"
"""Where the explanation pages are served: ``/problems/<slug>`` (and the list at ``/problems``)."""


@dataclass(frozen=True)
class ProblemKind:
    """One kind of problem: its code, HTTP status, title and a paragraph on what to do."""

    code: str
    status: int
    title: str
    explanation: str

    @property
    def slug(self) -> str:
        """The code with hyphens (``invalid-card``): the last segment of ``type``."""
        return self.code.replace("_", "-")

    @property
    def type_uri(self) -> str:
        """``/problems/<slug>``: relative, served by the app itself."""
        return f"{PROBLEMS_PATH}/{self.slug}"


KINDS: Final[tuple[ProblemKind, ...]] = (
    ProblemKind(
        "invalid_json",
        400,
        "The body is not valid JSON",
        "The request body could not be parsed as JSON (a syntax error, invalid UTF-8, NaN or "
        "Infinity, or nesting deeper than 32 levels). Fix the JSON text; `detail` says where "
        "parsing stopped.",
    ),
    ProblemKind(
        "bad_request",
        400,
        "The HTTP request is malformed",
        "The request could not be read as HTTP (for example a bad header or query string). "
        "Check the request your client builds.",
    ),
    ProblemKind(
        "not_found",
        404,
        "No such resource",
        "Nothing is served at this path. `GET /` lists the service's entry points and "
        "`GET /v1/games` every game with its endpoints.",
    ),
    ProblemKind(
        "unknown_game",
        404,
        "No such game",
        "The path names a game this service does not analyse. `errors.game` lists the valid "
        "slugs (`game-flip-flop`, `triple-tunk`, `three-thirteen`); `detail` suggests the "
        "closest one.",
    ),
    ProblemKind(
        "unknown_endpoint",
        404,
        "No such endpoint for this game",
        "The game exists but has no endpoint of this name. `errors.endpoint` lists the "
        "game's endpoints.",
    ),
    ProblemKind(
        "unknown_rule",
        404,
        "No such rule id",
        "No rule has this id. `errors.rule_id` lists the valid ids; `GET /v1/rules` lists them "
        "with their text.",
    ),
    ProblemKind(
        "method_not_allowed",
        405,
        "Method not allowed",
        "The path exists but not for this HTTP method; the `Allow` header lists the methods "
        "it takes (analysis endpoints take `POST` with a JSON body).",
    ),
    ProblemKind(
        "payload_too_large",
        413,
        "The body is too large",
        "The request body is over the service's limit (`MAX_BODY_BYTES`); `detail` names it. "
        "Real requests are a few hundred bytes: send less.",
    ),
    ProblemKind(
        "uri_too_long",
        414,
        "The request line is too long",
        "The request line is longer than the server reads (gunicorn's `limit_request_line`). "
        "Send the data in a JSON body instead of the URL.",
    ),
    ProblemKind(
        "headers_too_large",
        431,
        "Too many or too large header fields",
        "The request has more header fields, or a larger one, than the server reads "
        "(gunicorn's `limit_request_fields` and `limit_request_field_size`). Send fewer.",
    ),
    ProblemKind(
        "unsupported_media_type",
        415,
        "The body must be JSON",
        "Analysis endpoints read only JSON: send the body with `Content-Type: application/json`.",
    ),
    ProblemKind(
        "validation_error",
        422,
        "The request is invalid",
        "A field is missing, unknown, of the wrong type or out of range. `errors` maps each "
        "field path (`hand[0]`, `table[1].cards[2]`, `rules.aces`, `body`) to its messages.",
    ),
    ProblemKind(
        "invalid_card",
        422,
        "Not a card of this game's deck",
        "A card's text could not be read for the game's deck (standard: `AS`, `10H`, `QD`; "
        "Triple Topper: `RH3`, `kb?`). The `errors` path points at the card.",
    ),
    ProblemKind(
        "duplicate_card",
        422,
        "A card is shown more often than the deck holds it",
        "The same card appears more times than the decks in play contain. The `errors` path "
        "points at the repeated card and the message names where it first appeared.",
    ),
    ProblemKind(
        "hand_too_large",
        422,
        "The hand holds too many cards",
        "The hand has more cards than the game (or the round) allows; the message names the limit.",
    ),
    ProblemKind(
        "wrong_hand_size",
        422,
        "The hand has the wrong number of cards",
        "The hand has fewer cards than the game needs, or not the number the round deals "
        "(Three Thirteen); the message names the number wanted.",
    ),
    ProblemKind(
        "invalid_rule_option",
        422,
        "Unknown house-rule option or value",
        "`rules` names an option the game does not have, or gives an option a value it does "
        "not allow; the message lists the choices (`GET /v1/games` lists them too).",
    ),
    ProblemKind(
        "not_batchable",
        422,
        "This item cannot be batched",
        "A `POST /v1/batch` item names a path that is not a batchable endpoint of a known game; "
        "`detail` lists the endpoints a batch takes. The other items are answered as usual.",
    ),
    ProblemKind(
        "work_cap",
        422,
        "More work than the table allows",
        "The request asks for more Monte Carlo samples (or stock cards) than the work cap for "
        "this table; the message names the maximum. Ask for fewer, or use `precision`.",
    ),
    ProblemKind(
        "rate_limited",
        429,
        "Too many requests",
        "This address sent more requests than the limit allows in the current window. Wait "
        "the number of seconds in `Retry-After`, then send again.",
    ),
    ProblemKind(
        "internal_error",
        500,
        "Unexpected server error",
        "The server failed on this request; the traceback is logged under the request's "
        "`request_id`. Report that id.",
    ),
    ProblemKind(
        "not_implemented",
        501,
        "Not implemented",
        "The request uses an HTTP feature the server does not support (for example an unknown "
        "`Transfer-Encoding`). Send a plain request with `Content-Length`.",
    ),
    ProblemKind(
        "batch_budget_spent",
        503,
        "The batch ran out of time before this item",
        "A `POST /v1/batch` spent its time budget before reaching this item, which was not "
        "computed. Send it again (in a smaller batch) after `Retry-After` seconds.",
    ),
    ProblemKind(
        "batch_answer_too_large",
        413,
        "This item does not fit the batch's answer size",
        "A `POST /v1/batch` answer holds item bodies up to its answer-size budget; this item's "
        "answer would pass it, so it was not sent (and no later item was computed). Send the "
        "item alone or in a smaller batch.",
    ),
    ProblemKind(
        "request_timeout",
        408,
        "The request did not arrive in time",
        "The server closes a connection whose request (head and body) has not fully arrived "
        "within `REQUEST_READ_TIMEOUT_SECONDS`, so slow clients cannot hold its workers. Send "
        "the whole request at once.",
    ),
    ProblemKind(
        "deadline_exceeded",
        503,
        "The request ran out of time",
        "The request did not finish within the service's deadline and was stopped. Ask for "
        "less work (fewer samples, a smaller limit) or retry after `Retry-After` seconds.",
    ),
)

BY_CODE: Final[dict[str, ProblemKind]] = {kind.code: kind for kind in KINDS}
BY_SLUG: Final[dict[str, ProblemKind]] = {kind.slug: kind for kind in KINDS}
CODES: Final[tuple[str, ...]] = tuple(kind.code for kind in KINDS)

_BY_STATUS: Final[dict[int, str]] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "rate_limited",
    431: "headers_too_large",
    500: "internal_error",
    501: "not_implemented",
    503: "deadline_exceeded",
}
# A 404's first errors field -> its code (the guiding 404s of api.docs.front and the rules).
_NOT_FOUND_FIELDS: Final[dict[str, str]] = {
    "game": "unknown_game",
    "endpoint": "unknown_endpoint",
    "rule_id": "unknown_rule",
}
# A 422 message -> its code, first match wins. The patterns follow the engine's and the schemas'
# own wording (engine.core.cards/topper, engine.games.base, engine.core.options, the advice work
# caps); tests/api/test_problem_codes.py produces every code from a real request, so a rewording
# that loses one fails there.
_MESSAGE_KINDS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (code, re.compile(pattern))
    for code, pattern in (
        ("work_cap", r"the work cap"),
        (
            "invalid_card",
            r"is not a (?:Triple Topper )?card|a card must be a string|; this game uses \w",
        ),
        ("duplicate_card", r"(?:shown|appears) \d+ times|more often than the deck holds"),
        ("hand_too_large", r"\d+ cards is too many"),
        ("wrong_hand_size", r"a hand needs at least \d+ card|needs \d+ cards"),
        ("invalid_rule_option", r"house-rule option"),
    )
)


def code_for_message(message: str) -> str | None:
    """The specific 422 code a validation message names, or None for a generic one."""
    for code, pattern in _MESSAGE_KINDS:
        if pattern.search(message):
            return code
    return None


def classify(status: int, errors: dict[str, list[str]] | None) -> str:
    """The code of a problem no producer named: from its first ``errors`` entry, else status."""
    first = next(iter(errors.items()), None) if errors else None
    if first is not None:
        path, messages = first
        if status == 404 and path in _NOT_FOUND_FIELDS:
            return _NOT_FOUND_FIELDS[path]
        if status == 422:
            if path == "rules" or path.startswith("rules."):
                return "invalid_rule_option"
            for message in messages:
                code = code_for_message(message)
                if code is not None:
                    return code
    default = _BY_STATUS.get(status)
    if default is not None:
        return default
    return "internal_error" if status >= 500 else "bad_request"


def type_uri(code: str) -> str:
    """The ``type`` URI of ``code`` (``/problems/invalid-card``)."""
    return BY_CODE[code].type_uri
