"""What the HTTP layer (CORS, request id, JSON access log, metrics, ETag/gzip) costs per request.

Runs requests through the Flask test client of two apps, one built normally and one with
``register_http_layer`` replaced by a no-op, and prints the median time per request of each and
the difference. Also prints the gzip ratio of the largest documents.

    nice -n 10 .venv/bin/python -m bench.bench_http_layer [--requests 2000]
"""

from __future__ import annotations

import argparse
import gzip
import logging
import statistics
import time
from unittest import mock

from flask import Flask

import api
from api.app import create_app

MELDS = "/v1/games/game-flip-flop/melds"
BODY = {"hand": ["7H", "8H", "9H", "7S", "7D", "KC"]}


def _app(layer: bool) -> Flask:
    if layer:
        return create_app({"REDIS_URL": None})
    with mock.patch.object(api, "register_http_layer", lambda app, smorest_api: None):
        return create_app({"REDIS_URL": None})


def _medians_us(apps: list[Flask], method: str, path: str, n: int) -> list[float]:
    """Median time per request of each app, requests interleaved (fair on a busy machine)."""
    clients = [app.test_client() for app in apps]
    kwargs = {"json": BODY} if method == "POST" else {}
    times: list[list[float]] = [[] for _ in apps]
    for _ in range(n + 1):  # the first round warms the caches
        for client, bucket in zip(clients, times, strict=True):
            start = time.perf_counter()
            client.open(path, method=method, **kwargs)
            bucket.append(time.perf_counter() - start)
    return [statistics.median(bucket[1:]) * 1e6 for bucket in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    logging.getLogger("api.access").disabled = True  # measure the work, not the terminal
    with_layer, without = _app(True), _app(False)
    for method, path in (("GET", "/healthz"), ("POST", MELDS), ("GET", "/v1/games")):
        on, off = _medians_us([with_layer, without], method, path, args.requests)
        print(
            f"{method} {path}: {off:.0f} us without, {on:.0f} us with the layer "
            f"(+{on - off:.0f} us, x{on / off:.2f})"
        )
    client = with_layer.test_client()
    for path in ("/openapi.yaml", "/v1/games", "/v1/rules"):
        raw = client.get(path).data
        packed = gzip.compress(raw, compresslevel=5)
        print(f"gzip {path}: {len(raw)} -> {len(packed)} bytes (x{len(raw) / len(packed):.1f})")


if __name__ == "__main__":
    main()
