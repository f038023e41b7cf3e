"""gunicorn hooks: Prometheus multiprocess metrics and JSON logs (imported by ``gunicorn.conf.py``).

Importing this module in the gunicorn master points ``PROMETHEUS_MULTIPROC_DIR`` at a fresh
directory when it is not set, before any worker imports ``prometheus_client``; ``on_starting``
empties it and ``child_exit`` drops a dead worker's live gauges. ``LOGCONFIG`` makes gunicorn's
own log (start-up, workers, errors) JSON lines like the app's. Nothing heavy is imported at the
top, so loading the gunicorn config stays cheap.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

if not os.environ.get(MULTIPROC_ENV):
    os.environ[MULTIPROC_ENV] = tempfile.mkdtemp(prefix="tunk-metrics-")


def on_starting(server: Any) -> None:
    """Empty the metrics directory: figures of an earlier run must not be summed in."""
    directory = Path(os.environ[MULTIPROC_ENV])
    directory.mkdir(parents=True, exist_ok=True)
    for path in directory.glob("*.db"):
        path.unlink(missing_ok=True)


def child_exit(server: Any, worker: Any) -> None:
    """A worker died: remove its live gauge files (counters and histograms keep counting)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


class JsonLineFormatter(logging.Formatter):
    """gunicorn's records as JSON lines: ``ts``, ``level``, ``logger``, ``pid``, ``message``."""

    def format(self, record: logging.LogRecord) -> str:
        """Serialise ``record`` (tracebacks in ``exc_info``)."""
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "pid": record.process,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


LOGCONFIG: dict[str, Any] = {
    "formatters": {"generic": {"()": "api.server.hooks.JsonLineFormatter"}},
    "loggers": {  # gunicorn's defaults, without the propagation that printed each line twice
        "gunicorn.error": {"level": "INFO", "handlers": ["error_console"], "propagate": False},
        # The app writes the one access line per request (api.access, JSON, with the request
        # id); gunicorn's own access log, which setting logconfig_dict turns on, stays silent.
        "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
    },
}
"""``logconfig_dict`` for gunicorn: its default handlers, with the JSON formatter, and no access
log of its own (``api.http.observability`` logs each request once)."""
