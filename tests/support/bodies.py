"""Request bodies several test modules send, and answer fragments several expect."""

from __future__ import annotations

from typing import Any

# The heaviest Triple Tunk knock request the schema accepts: six players, 20 000 samples and five
# opponents with discards; it runs into the request deadline rather than answering at once.
MAXIMAL_KNOCK: dict[str, Any] = {
    "hand": ["RH1", "YC2", "GT2", "BS3", "RC1"],
    "players": 6,
    "samples": 20000,
    "opponents": [
        {"seat": k, "turns": 50, "discarded": [card]}
        for k, card in enumerate(["RC4", "YC4", "GC4", "BC4", "RT4"], start=1)
    ],
}

# The ``cache`` object ``/readyz`` reports (at least these items) for a healthy Redis Cluster with
# every one of its 16384 slots served.
CLUSTER_CACHE_UP: dict[str, Any] = {
    "backend": "redis",
    "state": "up",
    "mode": "cluster",
    "slots_covered": True,
    "slots_ok": 16384,
    "cluster_state": "ok",
}
