"""Request bodies several test modules send."""

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
