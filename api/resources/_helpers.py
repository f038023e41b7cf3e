"""Route registration shared by the POST analysis endpoints: validate, compute, dump, cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from flask import Response, g
from flask_smorest import Blueprint
from marshmallow import Schema
from webargs.flaskparser import abort

from api.cache.store import cached_json
from api.http.fastdump import compile_dumper

VALIDATION_STATUS = 422
"""What webargs answers a body that fails its schema (flask-smorest's documented 422)."""


def load_json_body(schema: Schema) -> Any:
    """``schema.load`` of the body the JSON guard parsed (``g.json_body``), failing exactly as
    webargs' ``use_args(schema, location="json")`` does: a 422 whose ``messages`` are the
    schema's under ``"json"`` (``api.http.errors`` drops that level and names each field).

    The guard (``api.http.errors``) has already refused a body that is not JSON, not UTF-8, too
    deep,
    too big or not an object, and parsed it with the same ``json.loads`` webargs would run again.
    """
    try:
        return schema.load(g.json_body)
    except ma.ValidationError as error:
        abort(VALIDATION_STATUS, exc=error, messages={"json": error.messages}, schema=schema)


def add_cached_post(
    blp: Blueprint,
    rule: str,
    *,
    endpoint: str,
    cache_name: str,
    game: str,
    request_schema: type[Schema],
    response_schema: type[Schema],
    answer: Callable[[Any], dict[str, Any]],
    response_description: str,
    summary: str,
    description: str,
    example: Any = None,
    examples: Any = None,
) -> None:
    """Register ``POST rule``: load ``request_schema``, dump ``answer(query)``, cache the JSON.

    Both schemas are instantiated once here, not per request, and the response schema is
    compiled into plain closures (``api.http.fastdump``): a marshmallow schema deep-copies its
    fields
    and builds its nested schemas when created, which cost more than the engine's answer for a
    small hand. Dumping is stateless, so one instance serves every thread.

    The OpenAPI operation is built by flask-smorest's decorators from the same schemas, but the
    function served is a lean one carrying that documentation: it loads the body the JSON guard
    already parsed (:func:`load_json_body`) and returns the cached JSON response, skipping the
    four wrapper layers (webargs' parse, which would read and parse the body a second time, and
    flask-smorest's argument, response and doc wrappers), whose work for a ``Response`` returned
    by the view is nothing but calls.
    """
    schema = request_schema()
    dump = compile_dumper(response_schema())

    def view() -> Response:
        query = load_json_body(schema)
        return cached_json(cache_name, game, query.canonical(), lambda: dump(answer(query)))

    documented = blp.doc(summary=summary, description=description)(
        blp.response(200, response_schema, description=response_description)(
            blp.arguments(schema, example=example, examples=examples)(view)
        )
    )
    view._apidoc = documented._apidoc  # type: ignore[attr-defined]  # read by flask-smorest
    blp.route(rule, methods=["POST"], endpoint=endpoint)(view)
