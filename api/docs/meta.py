"""Operational endpoints: liveness, readiness, the OpenAPI document and the interactive docs.

``/healthz`` and ``/readyz`` are documented in the spec (flask-smorest blueprint);
``/openapi.yaml`` (and the same document as ``/openapi.json``) and ``/docs`` serve the spec
itself and Swagger UI from the ``swagger-ui-bundle`` package (no CDN, works offline), and
``/problems/<kind>`` the page each problem's ``type`` URI names; they are left out of the spec.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import marshmallow as ma
import yaml
from flask import Blueprint as FlaskBlueprint
from flask import Flask, Response, abort, current_app, request, send_from_directory, url_for
from flask_smorest import Api, Blueprint
from swagger_ui_bundle import swagger_ui_path

from api.cache.store import readiness_report
from api.docs.spec import render_spec_yaml
from api.http.problems import BY_SLUG, KINDS, PROBLEMS_PATH, ProblemKind
from engine import ENGINE_VERSION

blp = Blueprint("meta", __name__, description="Liveness and readiness probes for load balancers.")
docs_bp = FlaskBlueprint("docs", __name__)

SWAGGER_UI_DIR = Path(str(swagger_ui_path))


class HealthSchema(ma.Schema):
    """Liveness answer."""

    status = ma.fields.String(metadata={"description": "Always `ok` when the process answers."})
    engine_version = ma.fields.String(metadata={"description": "Rules engine version."})


class WorkerStateSchema(ma.Schema):
    """One live worker process's view of Redis, as it last published it."""

    pid = ma.fields.Integer()
    breaker = ma.fields.String(metadata={"description": "`closed`, `open` or `half-open`."})
    failures = ma.fields.Integer(metadata={"description": "Consecutive failed Redis calls."})
    age_seconds = ma.fields.Float(metadata={"description": "Seconds since it published it."})


class CacheStateSchema(ma.Schema):
    """Which cache backend this worker uses and whether it works."""

    backend = ma.fields.String(metadata={"description": "`redis` or `memory`."})
    state = ma.fields.String(
        metadata={
            "description": "`up`, `down` (the write/read round trip failed: Redis unreachable, "
            "slow or refusing writes), or `open-circuit` (Redis skipped during the breaker "
            "cool-down; answers carry `X-Cache: BYPASS`)."
        }
    )
    namespace = ma.fields.String(
        metadata={
            "description": "Cache namespace: the fingerprint of this build's code, so builds "
            "whose engine or API source differs never share an answer (Redis only)."
        }
    )
    write = ma.fields.Boolean(
        allow_none=True,
        metadata={"description": "A SET of a probe key worked (null: not tried, circuit open)."},
    )
    read = ma.fields.Boolean(
        allow_none=True, metadata={"description": "GET returned the value just written."}
    )
    breaker = ma.fields.String(metadata={"description": "This worker's circuit breaker state."})
    failures = ma.fields.Integer(metadata={"description": "This worker's consecutive failures."})
    error = ma.fields.String(metadata={"description": "Why the round trip failed."})
    entries = ma.fields.Integer(metadata={"description": "Entries in the in-process cache."})
    workers = ma.fields.List(
        ma.fields.Nested(WorkerStateSchema),
        metadata={
            "description": "Every live worker's breaker as it last published it (Redis only; "
            "shared through files in /dev/shm)."
        },
    )

    mode = ma.fields.String(
        metadata={"description": "Redis only: `standalone`, `cluster` or `sentinel` (`REDIS_URL`)."}
    )
    slots_covered = ma.fields.Boolean(
        metadata={
            "description": "Cluster only: every one of the 16,384 hash slots is served by a "
            "master that no node considers failed."
        }
    )
    slots_ok = ma.fields.Integer(metadata={"description": "Cluster only: slots served now."})
    cluster_state = ma.fields.String(
        metadata={
            "description": "Cluster only: `ok` or `fail` as a node reports it, or `unreachable`."
        }
    )
    service = ma.fields.String(metadata={"description": "Sentinel only: the monitored service."})
    master = ma.fields.String(
        allow_none=True,
        metadata={
            "description": "Sentinel only: the current master (`host:port`) as the Sentinels "
            "report it, or null when none answers."
        },
    )


class ReadySchema(ma.Schema):
    """Readiness answer; 200 even when Redis is down, because requests are still served."""

    status = ma.fields.String(metadata={"description": "Always `ready`."})
    cache = ma.fields.Nested(CacheStateSchema)


@blp.route("/healthz")
@blp.response(200, HealthSchema, example={"status": "ok", "engine_version": ENGINE_VERSION})
def healthz() -> dict[str, Any]:
    """Process is alive.

    Cheap and dependency-free: use it for liveness probes.
    """
    return {"status": "ok", "engine_version": ENGINE_VERSION}


@blp.route("/readyz")
@blp.response(
    200,
    ReadySchema,
    example={
        "status": "ready",
        "cache": {
            "backend": "redis",
            "mode": "cluster",
            "slots_covered": True,
            "slots_ok": 16384,
            "cluster_state": "ok",
            "namespace": "3f1c0e2a9b7d4c51",
            "state": "up",
            "write": True,
            "read": True,
            "breaker": "closed",
            "failures": 0,
            "workers": [{"pid": 41, "breaker": "closed", "failures": 0, "age_seconds": 0.5}],
        },
    },
)
def readyz() -> dict[str, Any]:
    """Ready to serve, with the cache backend's state.

    With Redis, checks a write/read round trip (unless this worker's circuit is open) and lists
    every live worker's breaker. Never fails because of Redis: without it answers are computed
    and marked `X-Cache: BYPASS`.
    """
    return {"status": "ready", "cache": readiness_report()}


def _spec_text() -> str:
    """The YAML document, generated once per process."""
    text: str | None = current_app.extensions.get("tunk.spec_yaml")
    if text is None:
        text = render_spec_yaml(current_app)
        current_app.extensions["tunk.spec_yaml"] = text
    return text


_ROOT_SERVER = "\nservers:\n- url: /\n"


def _under_prefix(text: str) -> str:
    """The YAML text with ``servers`` at the path prefix the service is mounted under, if any.

    The document's server is ``/``: the origin that served it. Behind a proxy that mounts the
    service under a prefix (``SCRIPT_NAME``, e.g. ``/tunk``), "Try it out" must call
    ``/tunk/v1/...``, so that one line names the prefix there.
    """
    prefix = request.script_root
    if not prefix or _ROOT_SERVER not in text:
        return text
    return text.replace(_ROOT_SERVER, f"\nservers:\n- url: {json.dumps(prefix)}\n", 1)


@docs_bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    """The OpenAPI document generated from this app (same text as the committed openapi.yaml)."""
    return current_app.response_class(_under_prefix(_spec_text()), mimetype="application/yaml")


@docs_bp.get("/openapi.json")
def openapi_json() -> Response:
    """The same document as ``/openapi.yaml``, as JSON (where flask-smorest users look)."""
    if request.script_root:
        document = yaml.safe_load(_under_prefix(_spec_text()))
        return current_app.response_class(
            json.dumps(document, ensure_ascii=False, indent=2) + "\n", mimetype="application/json"
        )
    text: str | None = current_app.extensions.get("tunk.spec_json")
    if text is None:
        text = json.dumps(yaml.safe_load(_spec_text()), ensure_ascii=False, indent=2) + "\n"
        current_app.extensions["tunk.spec_json"] = text
    return current_app.response_class(text, mimetype="application/json")


_PROBLEM_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{title}</title></head>
<body>
<h1>{title}</h1>
{body}
<p><a href="{index}">Every kind of problem</a> &middot; <a href="/docs">API docs</a></p>
</body>
</html>
"""


def _kind_json(kind: ProblemKind) -> dict[str, Any]:
    return {
        "type": kind.type_uri,
        "code": kind.code,
        "status": kind.status,
        "title": kind.title,
        "explanation": kind.explanation,
    }


def _wants_json() -> bool:
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


@docs_bp.get(PROBLEMS_PATH)
def problem_index() -> Response:
    """Every kind of problem: its ``type``, ``code``, status and what to do (HTML or JSON)."""
    if _wants_json():
        return current_app.json.response({"problems": [_kind_json(k) for k in KINDS]})
    rows = "\n".join(
        f'<li><a href="{html.escape(k.type_uri)}"><code>{k.code}</code></a> ({k.status}): '
        f"{html.escape(k.title)}</li>"
        for k in KINDS
    )
    page = _PROBLEM_PAGE.format(
        title="Problem types", body=f"<ul>\n{rows}\n</ul>", index=PROBLEMS_PATH
    )
    return current_app.response_class(page, mimetype="text/html")


@docs_bp.get(f"{PROBLEMS_PATH}/<slug>")
def problem_page(slug: str) -> Response:
    """The page a problem's ``type`` URI names: the kind's code, status and what to do."""
    kind = BY_SLUG.get(slug)
    if kind is None:
        abort(404)
    if _wants_json():
        return current_app.json.response(_kind_json(kind))
    body = (
        f"<p>code <code>{kind.code}</code>, HTTP {kind.status}</p>\n"
        f"<p>{html.escape(kind.explanation)}</p>"
    )
    page = _PROBLEM_PAGE.format(title=html.escape(kind.title), body=body, index=PROBLEMS_PATH)
    return current_app.response_class(page, mimetype="text/html")


_DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Tunk Hand Analysis - API docs</title>
  <link rel="stylesheet" href="{css}">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{bundle}"></script>
  <script src="{preset}"></script>
  <script src="{init}"></script>
</body>
</html>
"""

# A file, not an inline script, so the page's Content-Security-Policy allows only 'self'.
_DOCS_INIT = """window.onload = function () {{
  window.ui = SwaggerUIBundle({{
    url: {spec},
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "BaseLayout"
  }});
}};
"""


@docs_bp.get("/docs")
def docs() -> Response:
    """Swagger UI for ``/openapi.yaml``, assets served from the swagger-ui-bundle package."""

    def asset(name: str) -> str:
        return url_for("docs.docs_asset", filename=name)

    page = _DOCS_PAGE.format(
        css=asset("swagger-ui.css"),
        bundle=asset("swagger-ui-bundle.js"),
        preset=asset("swagger-ui-standalone-preset.js"),
        init=url_for("docs.docs_init"),
    )
    return current_app.response_class(page, mimetype="text/html")


@docs_bp.get("/docs/init.js")
def docs_init() -> Response:
    """The script that starts Swagger UI on ``/openapi.yaml``."""
    script = _DOCS_INIT.format(spec=json.dumps(url_for("docs.openapi_yaml")))
    return current_app.response_class(script, mimetype="text/javascript")


@docs_bp.get("/docs/static/<path:filename>")
def docs_asset(filename: str) -> Response:
    """A Swagger UI asset file (JS/CSS/PNG) from the installed package."""
    return send_from_directory(SWAGGER_UI_DIR, filename, max_age=86400)


def register_meta(app: Flask, api: Api) -> None:
    """Attach the probes (documented) and the docs endpoints (undocumented) to the app."""
    api.register_blueprint(blp)
    app.register_blueprint(docs_bp)
