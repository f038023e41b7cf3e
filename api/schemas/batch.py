"""``POST /v1/batch``: several analysis requests in one call, answered in order."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

MAX_BATCH_ITEMS = 50
"""Most items in one batch (the body is also bounded by ``MAX_BODY_BYTES``)."""


class BatchItemIn(Schema):
    """One request of the batch."""

    method = fields.String(
        required=True,
        validate=validate.OneOf(("POST",)),
        metadata={"description": "Always `POST` (the analysis endpoints)."},
    )
    path = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={
            "description": "An analysis endpoint: `/v1/games/{game}/melds`, `early-tunk`, "
            "`side-pots`, `settle` or `arrangement`. Advice endpoints (Monte Carlo work) and "
            "`/v1/batch` itself are not accepted."
        },
    )
    body = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={"description": "The JSON body that endpoint takes."},
    )


class BatchRequest(Schema):
    """Up to ``MAX_BATCH_ITEMS`` requests."""

    requests = fields.List(
        fields.Nested(BatchItemIn),
        required=True,
        validate=validate.Length(
            min=1,
            max=MAX_BATCH_ITEMS,
            error=f"send 1 to {MAX_BATCH_ITEMS} requests in one batch",
        ),
        metadata={"description": f"1 to {MAX_BATCH_ITEMS} requests, answered in this order."},
    )


class BatchItemOut(Schema):
    """One answer: what the endpoint would have answered on its own."""

    status = fields.Integer(metadata={"description": "HTTP status of this item."})
    cache = fields.String(
        allow_none=True,
        validate=validate.OneOf(("HIT", "MISS", "BYPASS")),
        metadata={"description": "The item's `X-Cache` (null for errors)."},
    )
    body = fields.Dict(
        keys=fields.String(),
        metadata={"description": "The answer, or an `application/problem+json` object."},
    )


class BatchResponse(Schema):
    """The answers, in request order."""

    responses = fields.List(fields.Nested(BatchItemOut))
