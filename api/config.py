"""Service settings, read once from the environment when the app is built.

Every knob an operator may turn lives here with its default, so the README's configuration table,
the app factory and the tests agree on one source. ``create_app(config)`` lets tests override any
setting by its environment-variable name without touching ``os.environ``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot use; raised at start-up."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Validated service configuration (see README "Configuration").

    Timeouts are in seconds (floats) so they can be handed straight to redis-py.
    """

    redis_url: str | None = None
    cache_ttl_seconds: int = 3600
    cache_max_entries: int = 10_000
    max_body_bytes: int = 64 * 1024
    redis_connect_timeout: float = 0.05
    redis_socket_timeout: float = 0.1
    breaker_failure_threshold: int = 3
    breaker_cooldown_seconds: float = 5.0
    log_level: str = "INFO"
    cache_max_value_bytes: int = 256 * 1024
    hot_cache_entries: int = 2048
    hot_cache_ttl_seconds: float = 5.0
    hot_alias_entries: int = 10_000
    request_deadline_seconds: float = 20.0
    request_read_timeout_seconds: float = 10.0
    rate_limit_per_window: int = 0
    rate_limit_window_seconds: int = 60
    state_dir: str | None = None


# Environment variable name -> (Settings attribute, parser, minimum allowed value).
_INT_VARS: dict[str, tuple[str, int]] = {
    "CACHE_TTL_SECONDS": ("cache_ttl_seconds", 1),
    "CACHE_MAX_ENTRIES": ("cache_max_entries", 1),
    "MAX_BODY_BYTES": ("max_body_bytes", 1024),
    "BREAKER_FAILURE_THRESHOLD": ("breaker_failure_threshold", 1),
    "CACHE_MAX_VALUE_BYTES": ("cache_max_value_bytes", 1024),
    "HOT_CACHE_ENTRIES": ("hot_cache_entries", 0),
    "HOT_ALIAS_ENTRIES": ("hot_alias_entries", 0),
    "RATE_LIMIT_REQUESTS": ("rate_limit_per_window", 0),
    "RATE_LIMIT_WINDOW_SECONDS": ("rate_limit_window_seconds", 1),
}
_FLOAT_VARS: dict[str, str] = {
    "BREAKER_COOLDOWN_SECONDS": "breaker_cooldown_seconds",
    "HOT_CACHE_TTL_SECONDS": "hot_cache_ttl_seconds",
    "REQUEST_DEADLINE_SECONDS": "request_deadline_seconds",
    "REQUEST_READ_TIMEOUT_SECONDS": "request_read_timeout_seconds",
}
_MS_VARS: dict[str, str] = {
    "REDIS_CONNECT_TIMEOUT_MS": "redis_connect_timeout",
    "REDIS_SOCKET_TIMEOUT_MS": "redis_socket_timeout",
}
ENV_VARS: tuple[str, ...] = (
    "REDIS_URL",
    *_INT_VARS,
    *_MS_VARS,
    *_FLOAT_VARS,
    "LOG_LEVEL",
    "STATE_DIR",
)
"""Every variable ``load_settings`` reads; other keys in ``overrides`` are left to Flask."""


def _as_int(name: str, raw: Any, minimum: int) -> int:
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise SettingsError(f"{name} must be an integer, got {raw!r}") from None
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum}, got {value}")
    return value


def _as_positive_float(name: str, raw: Any) -> float:
    try:
        value = float(str(raw).strip())
    except ValueError:
        raise SettingsError(f"{name} must be a number, got {raw!r}") from None
    if not 0 < value < float("inf"):
        raise SettingsError(f"{name} must be greater than 0, got {raw!r}")
    return value


def load_settings(
    overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> Settings:
    """Build ``Settings`` from ``environ`` (default ``os.environ``), then ``overrides`` on top.

    An empty ``REDIS_URL`` means "no Redis" (in-process cache), so ``REDIS_URL=`` on the command
    line or ``{"REDIS_URL": None}`` in a test disables Redis explicitly.

    :raises SettingsError: a value is not a number or is out of range.
    """
    source: dict[str, Any] = {k: v for k, v in (environ or os.environ).items() if k in ENV_VARS}
    for key, value in (overrides or {}).items():
        if key in ENV_VARS:
            source[key] = value
    values: dict[str, Any] = {}
    redis_url = source.get("REDIS_URL")
    values["redis_url"] = str(redis_url).strip() or None if redis_url is not None else None
    for name, (attr, minimum) in _INT_VARS.items():
        if name in source:
            values[attr] = _as_int(name, source[name], minimum)
    for name, attr in _MS_VARS.items():
        if name in source:
            values[attr] = _as_positive_float(name, source[name]) / 1000.0
    for name, attr in _FLOAT_VARS.items():
        if name in source:
            values[attr] = _as_positive_float(name, source[name])
    if source.get("STATE_DIR"):
        values["state_dir"] = str(source["STATE_DIR"]).strip() or None
    if "LOG_LEVEL" in source:
        values["log_level"] = str(source["LOG_LEVEL"]).strip().upper() or "INFO"
    return Settings(**values)
