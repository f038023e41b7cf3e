"""gunicorn settings shared by ``scripts/serve`` and the Docker image.

    gunicorn -c gunicorn.conf.py 'api.app:create_app()'

Environment: ``PORT`` (default 8000), ``BIND_HOST`` (default 0.0.0.0), ``WEB_CONCURRENCY``
(worker processes, default 2 x CPUs + 1, at most 9), ``GUNICORN_THREADS`` (threads per worker,
default 16), ``GUNICORN_TIMEOUT`` (seconds, default 30).

Worker model: ``api.server.worker.BufferedThreadWorker``, gunicorn's ``gthread`` (processes x
threads) with one change: a connection gets a thread only once its whole request (head and body)
has arrived, read without blocking in the worker's event loop. The analysis is CPU-bound pure
Python, so processes are what scale it; inside a process only one engine computation runs at a
time (``api.cache.store.engine_slot``), and the threads are there so that a worker busy with long
requests still has a free thread for ``/healthz``, ``/readyz`` and cache hits. The GIL is handed
over every 1 ms (``post_fork``), so a probe waits a few milliseconds for a computation, not for
all of it. Threads also keep connections open between requests (keep-alive).

Slow and idle clients: with plain ``gthread`` a thread reads the request with blocking reads and
no overall limit, so a few hundred clients sending a header byte every few seconds (or idle
connections, 5 s each) take every thread and ``/healthz`` stops answering. Here such a client
holds a file descriptor and a small buffer, never a thread; the whole request must arrive within
``REQUEST_READ_TIMEOUT_SECONDS`` (default 10) of its connection becoming readable, else ``408``
problem+json and the connection is closed (silently if it sent nothing); a kept-alive connection
is closed after ``keepalive`` (5 s) without a request. The same protection holds however the
service is started (``scripts/serve``, the image, compose, Kubernetes): it is in the worker, not
only in the proxy. nginx in front (``deploy/nginx``) buffers whole requests too, with its own
timeouts, so behind it the replicas only ever see complete requests.

A handler that overruns ``REQUEST_DEADLINE_SECONDS`` (20) is stopped inside its thread and
answered 503 (see ``api.http.deadline``); the worker's heartbeat runs in its main thread, so a
long request never gets the worker killed. ``GUNICORN_THREADS=1`` leaves one thread per worker
(then a probe waits for the request ahead of it).

Limits gunicorn enforces before the app sees a request, answered as problem+json
(``api.server.error_log``): request line ``limit_request_line`` bytes (414), header fields
``limit_request_fields`` (431) of at most ``limit_request_field_size`` bytes each (431).
"""

from __future__ import annotations

import multiprocessing
import os
import sys

from api.server.error_log import install as install_problem_errors
from api.server.hooks import LOGCONFIG, child_exit, on_starting  # noqa: F401  (gunicorn hooks)


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
threads = _int_env("GUNICORN_THREADS", 16)
# gthread's model with every request read in the event loop first (api/server/worker.py).
worker_class = "api.server.worker.BufferedThreadWorker"
timeout = _int_env("GUNICORN_TIMEOUT", 30)
graceful_timeout = 20
keepalive = 5
# No gunicornc control socket: its default path is shared by every gunicorn of the user.
control_socket_disable = True
# Worker heartbeat files on tmpfs: on a container's overlay filesystem they can stall workers.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# Recycle workers now and then so a slow leak can never take the service down. Not too often: a
# new worker costs about 0.2 s of CPU to build the app and warm up, i.e. 2 us per request at
# 100,000 (20 us at 10,000, several percent of a cache hit), and drops its keep-alive connections.
max_requests = 100_000
max_requests_jitter = 10_000

# Request limits (gunicorn's defaults, stated): the app's own body limit is MAX_BODY_BYTES.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

# Prometheus metrics summed over workers (PROMETHEUS_MULTIPROC_DIR) and JSON access logs written
# by the app itself (api.http.observability), so gunicorn's plain-text access log is off.
accesslog = None
logconfig_dict = LOGCONFIG
errorlog = "-"  # stderr
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

SWITCH_INTERVAL_SECONDS = 0.001


def post_fork(server: object, worker: object) -> None:
    """Hand the GIL over every 1 ms (CPython's default is 5 ms) so a probe or a cache hit on
    one thread is not held up by an engine computation on another."""
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)


install_problem_errors()  # gunicorn's 400/414/431 answers as problem+json, no Server version


def post_worker_init(worker: object) -> None:
    """Send each answer's headers and body in one write (``api/server/single_write.py``): a replica
    killed mid-answer then never leaves the load balancer a half-sent response it cannot retry.
    And fix glibc's mmap threshold, so a big batch's buffers never stay in the worker."""
    from api.server import memory, single_write

    single_write.install()
    memory.install()  # big buffers go back to the system when freed (api/server/memory.py)
