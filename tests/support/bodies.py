"""Request bodies several test modules send, and answer fragments several expect."""

from __future__ import annotations

from typing import Any

# The Triple Tunk knock request once reported to hold a worker for 30 s: six players, 20 000 samples
# and five constrained opponents. It is now over the table's work cap (a 422 naming the maximum).
MAXIMAL_KNOCK: dict[str, Any] = {
    "hand": ["RH1", "YC2", "GT2", "BS3", "RC1"],
    "players": 6,
    "samples": 20000,
    "opponents": [
        {"seat": k, "turns": 50, "discarded": [card]}
        for k, card in enumerate(["RC4", "YC4", "GC4", "BC4", "RT4"], start=1)
    ],
}

# The heaviest requests the advice schemas accept, as (path, body): the Triple Tunk knock above at
# its work cap with the tightest precision, and a two-deck round-11 Three Thirteen draw with the
# most stock cards and the tightest precision (20-50 ms of CPU each on a quiet machine, measured
# with `python bench/bench_advice.py` and `python bench/bench_advice_t13.py`).
MAXIMAL_ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("/v1/games/triple-tunk/knock", {**MAXIMAL_KNOCK, "samples": 986, "precision": 0.001}),
    (
        "/v1/games/three-thirteen/draw",
        {
            "hand": ["AS", "3S", "5H", "7H", "9D", "JD", "KC", "2C", "4H", "6S", "8D", "10C", "QH"],
            "round": 11,
            "players": 3,
            "decks": 2,
            "discard_pile": ["QS"],
            "samples": 16,
            "precision": 0.01,
        },
    ),
]

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
