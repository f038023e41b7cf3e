"""A bounded load generator for the fault tests, run as a separate process on loopback.

    python tests/integration/loadgen.py PORT OUT_FILE STOP_FILE [THREADS]

``THREADS`` client threads send Game Flip Flop ``melds`` requests (a fresh connection each, so a
killed worker only fails the requests it was serving) until ``STOP_FILE`` exists (or 120 s pass):
half the requests repeat one of eight hands (cache HITs), half are random hands (MISS). Each
result is one JSON line in ``OUT_FILE``: start and end (``time.time()``), status (or the error),
and ``X-Cache``.
"""

from __future__ import annotations

import json
import os
import random
import sys
import threading
import time
from http.client import HTTPConnection

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "SHDC" for rank in RANKS]
PATH = "/v1/games/game-flip-flop/melds"
MAX_SECONDS = 120.0


def one(port: int, body: bytes) -> dict[str, object]:
    start = time.time()
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", PATH, body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return {
            "start": start,
            "end": time.time(),
            "status": response.status,
            "cache": response.getheader("X-Cache"),
        }
    except Exception as exc:  # a connection reset by a killed worker, a timeout, ...
        return {"start": start, "end": time.time(), "status": None, "error": repr(exc)}
    finally:
        connection.close()


def main() -> int:
    port, out_path, stop_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    hot = [json.dumps({"hand": random.Random(n).sample(DECK, 6)}).encode() for n in range(8)]
    lock = threading.Lock()
    deadline = time.monotonic() + MAX_SECONDS
    with open(out_path, "w", encoding="utf-8") as out:

        def worker(seed: int) -> None:
            rng = random.Random(seed)
            while not os.path.exists(stop_path) and time.monotonic() < deadline:
                if rng.random() < 0.5:
                    body = rng.choice(hot)
                else:
                    body = json.dumps({"hand": rng.sample(DECK, 6)}).encode()
                result = one(port, body)
                with lock:
                    out.write(json.dumps(result) + "\n")
                    out.flush()

        pool = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
        for thread in pool:
            thread.start()
        for thread in pool:
            thread.join()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
