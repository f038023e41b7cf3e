"""Everything the service does around the views, installed in one call from ``create_app``.

Order matters: ``before_request`` hooks inserted at the front run first, ``after_request`` hooks
run in reverse order of registration. The result per request is: request id and clock
(observability) -> CORS preflight -> JSON body guard -> cache alias -> view; then ETag/304 and
gzip -> metrics and access log -> CORS headers.
"""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api

from api.docs.front import register_front
from api.http.conditional import init_conditional
from api.http.cors import init_cors
from api.http.observability import init_observability
from api.schemas.field_hints import init_field_hints


def register_http_layer(app: Flask, api: Api) -> None:
    """Install CORS, observability, conditional GETs/gzip and the front door on ``app``."""
    init_cors(app)
    init_observability(app)  # inserted after CORS, so its before_request runs first
    init_conditional(app)
    init_field_hints(app)  # registered after: runs before the ETag/gzip step
    register_front(app, api)
