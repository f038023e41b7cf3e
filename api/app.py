"""HTTP service over the rules engine: ``create_app`` builds the Flask app gunicorn serves.

``gunicorn -c gunicorn.conf.py 'api.app:create_app()'`` is the one entry point, shared by
``scripts/serve`` and the Docker image. The app is stateless apart from its response cache.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from typing import Any

from flask import Flask

from api.about import (
    API_DESCRIPTION,
    API_EXTENSION_KEY,
    API_TITLE,
    OPENAPI_VERSION,
    SETTINGS_EXTENSION_KEY,
    __version__,
)
from api.cache.store import init_cache
from api.config import ENV_VARS, Settings, load_settings
from api.docs.meta import register_meta
from api.http.deadline import install_deadline
from api.http.errors import ProblemApi, register_error_handling
from api.http.headers import register_security_headers
from api.http.layer import register_http_layer
from api.http.ratelimit import install_rate_limit
from api.learn import register_learn
from api.resources import register_blueprints


def _configure_logging(settings: Settings) -> None:
    """Send the ``api`` loggers to stderr once per process (gunicorn owns its own loggers)."""
    logger = logging.getLogger("api")
    logger.setLevel(settings.log_level)
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the application.

    :param config: overrides. Keys named like the environment variables in ``api.config``
        (``REDIS_URL``, ``CACHE_TTL_SECONDS``, ...) override the environment; any other key
        (``TESTING``, ...) goes to ``app.config``.
    :raises api.config.SettingsError: an environment variable has an unusable value.
    """
    settings = load_settings(config)
    _configure_logging(settings)

    app = Flask(__name__, static_folder=None)  # no /static route: nothing to serve
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION=__version__,
        OPENAPI_VERSION=OPENAPI_VERSION,
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}},
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
    )
    app.config.update({k: v for k, v in (config or {}).items() if k not in ENV_VARS})
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep schema field order

    api = ProblemApi(app)
    app.extensions[API_EXTENSION_KEY] = api
    app.extensions[SETTINGS_EXTENSION_KEY] = settings
    register_error_handling(app)  # before init_cache: the body guard must run first
    init_cache(app, settings)
    register_meta(app, api)
    register_security_headers(app)
    install_deadline(app, settings.request_deadline_seconds)
    install_rate_limit(app, settings.rate_limit_per_window, settings.rate_limit_window_seconds)
    register_http_layer(app, api)  # CORS, request ids, logs, metrics, ETag/gzip, front door

    register_blueprints(api)
    register_learn(app)  # the /learn teaching page, on the public API only
    return app


__all__ = [
    "API_DESCRIPTION",
    "API_EXTENSION_KEY",
    "API_TITLE",
    "OPENAPI_VERSION",
    "SETTINGS_EXTENSION_KEY",
    "__version__",
    "create_app",
]
