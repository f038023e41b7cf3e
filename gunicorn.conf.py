"""gunicorn settings shared by ``scripts/serve`` and the Docker image.

    gunicorn -c gunicorn.conf.py 'api:create_app()'

Environment: ``PORT`` (default 8000), ``BIND_HOST`` (default 0.0.0.0), ``WEB_CONCURRENCY``
(worker processes, default 2 x CPUs + 1, at most 9), ``GUNICORN_THREADS`` (threads per worker,
default 1), ``GUNICORN_TIMEOUT`` (seconds, default 30). The analysis is CPU-bound pure Python,
so processes (not threads) are what scale it; the cache client is created per worker.
"""

from __future__ import annotations

import multiprocessing
import os


def _int_env(name: str, default: int, minimum: int = 1) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be an integer, got {raw!r}") from None
    if value < minimum:
        raise SystemExit(f"{name} must be at least {minimum}, got {value}")
    return value


MAX_DEFAULT_WORKERS = 9

bind = f"{os.environ.get('BIND_HOST', '0.0.0.0')}:{_int_env('PORT', 8000)}"
workers = _int_env("WEB_CONCURRENCY", min(2 * multiprocessing.cpu_count() + 1, MAX_DEFAULT_WORKERS))
threads = _int_env("GUNICORN_THREADS", 1)
worker_class = "gthread" if threads > 1 else "sync"
timeout = _int_env("GUNICORN_TIMEOUT", 30)
graceful_timeout = 20
keepalive = 5
# Worker heartbeat files on tmpfs: on a container's overlay filesystem they can stall workers.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# Recycle workers now and then so a slow leak can never take the service down.
max_requests = 10_000
max_requests_jitter = 1_000

accesslog = "-"  # stdout
errorlog = "-"  # stderr
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms cache=%({x-cache}o)s'
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# Prometheus metrics summed over workers (PROMETHEUS_MULTIPROC_DIR) and JSON access logs written
# by the app itself (api.observability), so gunicorn's plain-text access log is off.
from api.gunicorn_hooks import LOGCONFIG, child_exit, on_starting  # noqa: E402,F401

accesslog = None
logconfig_dict = LOGCONFIG
