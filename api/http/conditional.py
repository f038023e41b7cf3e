"""HTTP caching of the static GET documents (ETag, ``Cache-Control``, 304) and gzip.

The GET documents (``/``, ``/v1/games``, ``/v1/rules``, ``/v1/rules/{id}``, ``/openapi.yaml``)
change only with a release, so each answer carries a strong ETag (a hash of its body) and
``Cache-Control: public, max-age=300``; a request whose ``If-None-Match`` names the current tag
gets ``304 Not Modified`` without a body.

Answers of at least ``GZIP_MIN_BYTES`` are gzip-compressed when the client sends
``Accept-Encoding: gzip``. The compressed representation's tag is the identity tag with a
``-gzip`` suffix (both spellings are accepted in ``If-None-Match``).
"""

from __future__ import annotations

import gzip
import hashlib

from flask import Flask, Response, request

CACHED_GET_PATHS = ("/", "/v1/games", "/v1/rules", "/openapi.yaml")
CACHE_CONTROL = "public, max-age=300"
GZIP_MIN_BYTES = 2048
"""Smaller answers fit a few packets anyway; compressing them costs more than it saves."""
GZIP_LEVEL = 5
_COMPRESSIBLE = ("application/json", "application/problem+json", "application/yaml", "text/")


def _is_cached_get() -> bool:
    return request.method in ("GET", "HEAD") and (
        request.path in CACHED_GET_PATHS or request.path.startswith("/v1/rules/")
    )


def _etag_and_304(response: Response) -> Response:
    """Tag a 200 static document; answer 304 when the client already holds it."""
    if response.status_code != 200 or response.direct_passthrough:
        return response
    tag = hashlib.sha256(response.get_data()).hexdigest()[:32]
    response.set_etag(tag)
    response.headers["Cache-Control"] = CACHE_CONTROL
    sent = request.if_none_match
    if sent and (tag in sent or f"{tag}-gzip" in sent or sent.star_tag):
        not_modified = Response(status=304)
        for name in ("ETag", "Cache-Control", "Vary"):
            if name in response.headers:
                not_modified.headers[name] = response.headers[name]
        if request.accept_encodings["gzip"] and len(response.get_data()) >= GZIP_MIN_BYTES:
            not_modified.set_etag(f"{tag}-gzip")
            not_modified.vary.add("Accept-Encoding")
        return not_modified
    return response


def _gzip(response: Response) -> Response:
    """Compress a large answer for a client that accepts gzip."""
    if (
        response.status_code < 200
        or response.status_code in (204, 304)
        or response.direct_passthrough
        or "Content-Encoding" in response.headers
        or not (response.mimetype or "").startswith(_COMPRESSIBLE)
    ):
        return response
    data = response.get_data()
    if len(data) < GZIP_MIN_BYTES:
        return response
    response.vary.add("Accept-Encoding")
    if not request.accept_encodings["gzip"]:
        return response
    response.set_data(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    tag, weak = response.get_etag()
    if tag is not None:
        response.set_etag(f"{tag}-gzip", weak=weak)
    return response


def _finish(response: Response) -> Response:
    if _is_cached_get():
        response = _etag_and_304(response)
    return _gzip(response)


def init_conditional(app: Flask) -> None:
    """Install the ETag/304 and gzip step (runs after the views, before the access log)."""
    app.after_request(_finish)
