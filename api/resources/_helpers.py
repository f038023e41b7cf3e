"""Route registration shared by the POST analysis endpoints: validate, compute, dump, cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response
from flask_smorest import Blueprint
from marshmallow import Schema

from api.cache import cached_json
from api.fastdump import compile_dumper


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

    Both schemas are instantiated once here, not per request (webargs would build the request
    schema from its class on every call), and the response schema is compiled into plain closures
    (``api.fastdump``): a marshmallow schema
    deep-copies its fields and builds its nested schemas when created, which cost more than the
    engine's answer for a small hand. Dumping is stateless, so one instance serves every thread.
    """
    dump = compile_dumper(response_schema())

    @blp.route(rule, methods=["POST"], endpoint=endpoint)
    @blp.arguments(request_schema(), example=example, examples=examples)
    @blp.response(200, response_schema, description=response_description)
    @blp.doc(summary=summary, description=description)
    def view(query: Any) -> Response:
        return cached_json(cache_name, game, query.canonical(), lambda: dump(answer(query)))
