"""Request ids, JSON logs and Prometheus metrics for every request.

- **Request id.** ``X-Request-ID`` is taken from the request when it is a sane token (letters,
  digits and ``._:-``, at most 128 characters), else the trace id of a W3C ``traceparent``,
  else a new random hex id. It is echoed in the response and attached to every log record.
- **JSON logs.** The ``api`` loggers write one JSON object per line (``ts``, ``level``,
  ``logger``, ``message``, ``request_id``, extra fields). ``api.access`` logs each request with
  its method, path, route, status, duration and cache result.
- **Metrics.** ``GET /metrics`` in the Prometheus text format: requests and latency per route and
  status, cache results per route, the Redis circuit breaker's state and Monte Carlo advice
  samples. Under gunicorn, ``PROMETHEUS_MULTIPROC_DIR`` (set by ``api.server.hooks``) makes
  every worker write its figures there and ``/metrics`` sums them across workers.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response, current_app, g, has_request_context, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as prom_multiprocess

REQUEST_ID_HEADER = "X-Request-ID"
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")
_TRACEPARENT = re.compile(r"^[0-9a-f]{2}-(?P<trace>[0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$")
UNMATCHED_ROUTE = "<unmatched>"
"""Route label of requests that matched no route (keeps label values bounded)."""
ADVICE_ENDPOINTS = frozenset({"discard", "draw", "knock"})

REQUESTS = Counter(
    "tunk_http_requests_total", "HTTP requests answered.", ("method", "route", "status")
)
LATENCY = Histogram(
    "tunk_http_request_duration_seconds",
    "Time from the request reaching the app to its response, in seconds.",
    ("method", "route", "status"),
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
CACHE_RESULTS = Counter(
    "tunk_cache_results_total", "Answers by cache result (HIT, MISS, BYPASS).", ("route", "result")
)
BREAKER_STATE = Gauge(
    "tunk_cache_breaker_state",
    "Redis circuit breaker: 0 closed (or no Redis), 1 half-open, 2 open; the worst live worker.",
    multiprocess_mode="livemax",
)
ADVICE_SAMPLES = Counter(
    "tunk_advice_samples_total",
    "Monte Carlo samples requested by computed (not cached) advice answers.",
    ("game", "endpoint"),
)
_BREAKER_VALUES = {"closed": 0, "half-open": 1, "open": 2}

access_logger = logging.getLogger("api.access")


def current_request_id() -> str | None:
    """The id of the request being handled, or None outside a request."""
    if not has_request_context():
        return None
    rid: str | None = g.get("request_id")
    return rid


class JsonFormatter(logging.Formatter):
    """One JSON object per record: timestamp, level, logger, message, request id, extras.

    Extra fields come from ``logger.info("...", extra={"fields": {...}})``.
    """

    def format(self, record: logging.LogRecord) -> str:
        """Serialise ``record``; tracebacks go in ``exc_info`` as text."""
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or current_request_id()
        if rid is not None:
            out["request_id"] = rid
        extra = getattr(record, "fields", None)
        if isinstance(extra, dict):
            out.update(extra)
        if record.exc_info:
            out["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def use_json_logs(logger: logging.Logger) -> None:
    """Give every handler of ``logger`` the JSON formatter."""
    for handler in logger.handlers:
        handler.setFormatter(JsonFormatter())


def choose_request_id(header: str | None, traceparent: str | None) -> str:
    """The request's id: a sane ``X-Request-ID``, else the traceparent's trace id, else new."""
    if header is not None and _REQUEST_ID.match(header):
        return header
    if traceparent is not None:
        match = _TRACEPARENT.match(traceparent.strip().lower())
        if match and match.group("trace") != "0" * 32:
            return match.group("trace")
    return uuid.uuid4().hex


def _start() -> None:
    """``before_request`` (first of all): the clock and the request id."""
    g.request_started = time.perf_counter()
    g.request_id = choose_request_id(
        request.headers.get(REQUEST_ID_HEADER), request.headers.get("traceparent")
    )


def _breaker_state() -> str | None:
    cache = current_app.extensions.get("tunk.cache")
    breaker = getattr(getattr(cache, "backend", None), "breaker", None)
    return None if breaker is None else str(breaker.state)


_CHILDREN: dict[tuple[str, str, str], tuple[Any, Any]] = {}


def _request_metrics(method: str, route: str, status: str) -> tuple[Any, Any]:
    """The counter and histogram children of one label set (looked up once, then reused)."""
    key = (method, route, status)
    children = _CHILDREN.get(key)
    if children is None:
        children = (REQUESTS.labels(*key), LATENCY.labels(*key))
        _CHILDREN[key] = children
    return children


_CACHE_CHILDREN: dict[tuple[str, str], Any] = {}


def _cache_result(route: str, result: str) -> Any:
    """The cache-results counter child of one route and result (looked up once, then reused)."""
    key = (route, result)
    child = _CACHE_CHILDREN.get(key)
    if child is None:
        child = _CACHE_CHILDREN[key] = CACHE_RESULTS.labels(route, result)
    return child


def _finish(response: Response) -> Response:
    """``after_request`` (last of all): echo the id, count, time and log the request."""
    req = request._get_current_object()  # type: ignore[attr-defined]  # one proxy lookup
    ctx = g._get_current_object()  # type: ignore[attr-defined]
    rid = getattr(ctx, "request_id", None) or uuid.uuid4().hex
    response.headers[REQUEST_ID_HEADER] = rid
    started = getattr(ctx, "request_started", None)
    seconds = time.perf_counter() - started if started is not None else 0.0
    rule = req.url_rule
    route = rule.rule if rule is not None else UNMATCHED_ROUTE
    status = response.status_code
    counter, histogram = _request_metrics(req.method, route, str(status))
    counter.inc()
    histogram.observe(seconds)
    cache = response.headers.get("X-Cache")
    if cache is not None:
        _cache_result(route, cache).inc()
        _count_advice_samples(route, response, cache)
    state = _breaker_state()
    if state is not None:
        BREAKER_STATE.set(_BREAKER_VALUES.get(state, 0))
    if access_logger.isEnabledFor(logging.INFO):
        access_logger.info(
            "%s %s %s",
            req.method,
            req.path,
            status,
            extra={
                "fields": {
                    "event": "access",
                    "method": req.method,
                    "path": req.path,
                    "route": route,
                    "status": status,
                    "duration_ms": round(seconds * 1000, 3),
                    "cache": cache,
                    "bytes": response.calculate_content_length(),
                    "remote": req.remote_addr,
                }
            },
        )
    return response


def _count_advice_samples(route: str, response: Response, cache: str) -> None:
    """Add a computed advice answer's ``samples`` to ``tunk_advice_samples_total``."""
    if response.status_code != 200 or cache == "HIT":
        return
    parts = route.strip("/").split("/")  # v1 games <game> <endpoint>
    if len(parts) != 4 or parts[3] not in ADVICE_ENDPOINTS:
        return
    body = g.get("json_body") or {}
    samples = body.get("samples") if isinstance(body, dict) else None
    if isinstance(samples, int) and not isinstance(samples, bool) and samples > 0:
        ADVICE_SAMPLES.labels(parts[2], parts[3]).inc(samples)


def metrics_text() -> bytes:
    """The exposition text: summed over workers in multiprocess mode, else this process."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        prom_multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def _metrics() -> Response:
    return current_app.response_class(metrics_text(), mimetype=CONTENT_TYPE_LATEST.split(";")[0])


def init_observability(app: Flask) -> None:
    """Install the request-id/timing hooks, JSON logs and ``GET /metrics`` on ``app``.

    Call before any other hook is registered: ``_start`` must run first and ``_finish`` last
    (Flask runs ``after_request`` functions in reverse order of registration).
    """
    app.before_request_funcs.setdefault(None, []).insert(0, _start)
    app.after_request(_finish)
    for name in ("api", "api.access"):
        logger = logging.getLogger(name)
        if name == "api.access":
            logger.setLevel(logging.INFO)
        use_json_logs(logger)
    app.add_url_rule("/metrics", "metrics", _metrics, methods=["GET"])
