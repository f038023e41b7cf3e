"""Every bad input is a 4xx ``application/problem+json`` naming the field at fault, never a 500.

One table: (id, method, path, body, expected status, expected field path in ``errors``).
``body`` is a dict/list (sent as JSON), or ``Raw`` (bytes with a content type). A path of None
means the problem concerns no field (404, 405, 413, 415).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient

GFF = "/v1/games/game-flip-flop"
TT = "/v1/games/triple-tunk"
T13 = "/v1/games/three-thirteen"
PROBLEM = "application/problem+json"


@dataclass(frozen=True)
class Raw:
    """A body sent as-is."""

    data: bytes
    content_type: str = "application/json"


def _deep(levels: int) -> bytes:
    return b'{"hand": ' + b"[" * levels + b"]" * levels + b"}"


GFF_TABLE = [{"owner": 1, "cards": ["10H", "JH", "QH"]}]
SIDE = {
    "dealt_hands": [
        ["KS", "QS", "10C", "5H", "JD"],
        ["2H", "3C", "4S", "8D", "KC"],
        ["AD", "7S", "6C", "QH", "9C"],
    ],
    "dealer": 2,
    "flip_card": "QH",
}
SEED = {"bankrolls": [1000] * 5, "stake": 100, "dealer": 4}
T13_OK = {"round": 1, "hand": ["7H", "8H", "9H"]}
GFF_ADVICE = {"hand": ["7H", "8H", "9H", "KH", "QD", "2C"], "players": 3}  # after the draw
GFF_ADVICE_5 = {"hand": ["7H", "8H", "KH", "QD", "2C"], "players": 3}  # before the draw
TT_ADVICE = {"hand": ["RH1", "RH2", "RH3", "YT4", "GC?", "BS2"], "players": 3}
TT_ADVICE_5 = {"hand": ["RH1", "RH2", "YT4", "GC?", "BS2"], "players": 3}
T13_ADVICE = {"hand": ["6H", "7H", "9H", "KD", "2C", "2S"], "round": 3, "players": 2}

CASES: list[tuple[str, str, str, Any, int, str | None]] = [
    # --- the body itself
    ("malformed-json", "POST", f"{GFF}/melds", Raw(b'{"hand": ["AS",'), 400, "body"),
    ("nan-literal", "POST", f"{GFF}/melds", Raw(b'{"hand": NaN}'), 400, "body"),
    ("body-not-object", "POST", f"{GFF}/melds", ["AS", "2S"], 422, "body"),
    ("deep-nesting", "POST", f"{GFF}/melds", Raw(_deep(5000)), 400, "body"),
    ("huge-body", "POST", f"{GFF}/melds", Raw(b'{"hand": ["' + b"A" * 200_000 + b'"]}'), 413, None),
    (
        "wrong-content-type",
        "POST",
        f"{GFF}/melds",
        Raw(b'{"hand": ["AS"]}', "text/plain"),
        415,
        None,
    ),
    (
        "form-content-type",
        "POST",
        f"{GFF}/melds",
        Raw(b"hand=AS", "application/x-www-form-urlencoded"),
        415,
        None,
    ),
    ("unknown-field", "POST", f"{GFF}/melds", {"hand": ["AS"], "colour": "red"}, 422, "colour"),
    # --- routing
    ("unknown-game", "POST", "/v1/games/gin-rummy/melds", {"hand": ["AS"]}, 404, None),
    ("unknown-endpoint", "POST", f"{GFF}/advice-please", {"hand": ["AS"]}, 404, None),
    ("t13-has-no-early-tunk", "POST", f"{T13}/early-tunk", {"hand": ["AS"]}, 404, None),
    ("tt-has-no-side-pots", "POST", f"{TT}/side-pots", SIDE, 404, None),
    ("get-on-post-route", "GET", f"{GFF}/melds", None, 405, None),
    ("post-on-get-route", "POST", "/v1/games", {}, 405, None),
    # --- hands and cards
    ("hand-missing", "POST", f"{GFF}/melds", {"seat": 0}, 422, "hand"),
    ("hand-null", "POST", f"{GFF}/melds", {"hand": None}, 422, "hand"),
    ("hand-not-list", "POST", f"{GFF}/melds", {"hand": "AS 2S"}, 422, "hand"),
    ("card-not-string", "POST", f"{GFF}/melds", {"hand": [1, "2S"]}, 422, "hand[0]"),
    ("unknown-card", "POST", f"{GFF}/melds", {"hand": ["AS", "ZZ"]}, 422, "hand[1]"),
    ("rank-eleven", "POST", f"{GFF}/melds", {"hand": ["11S"]}, 422, "hand[0]"),
    ("duplicate-card", "POST", f"{GFF}/melds", {"hand": ["AS", "KD", "as"]}, 422, "hand[2]"),
    ("duplicate-ten-spellings", "POST", f"{GFF}/melds", {"hand": ["10H", "TH"]}, 422, "hand[1]"),
    (
        "oversized-hand",
        "POST",
        f"{GFF}/melds",
        {"hand": ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]},
        422,
        "hand",
    ),
    ("empty-hand", "POST", f"{GFF}/melds", {"hand": []}, 422, "hand"),
    ("topper-card-in-gff", "POST", f"{GFF}/melds", {"hand": ["AS", "RH3"]}, 422, "hand[1]"),
    (
        "topper-card-in-t13",
        "POST",
        f"{T13}/melds",
        {"round": 1, "hand": ["KB?", "2S", "3S"]},
        422,
        "hand[0]",
    ),
    ("standard-card-in-tt", "POST", f"{TT}/melds", {"hand": ["RH1", "10H"]}, 422, "hand[1]"),
    ("tt-duplicate", "POST", f"{TT}/melds", {"hand": ["RH1", "red heart 1"]}, 422, "hand[1]"),
    (
        "tt-oversized",
        "POST",
        f"{TT}/melds",
        {"hand": ["RC1", "RC2", "RC3", "RC4", "RC?", "YC1", "YC2"]},
        422,
        "hand",
    ),
    # --- seats
    (
        "seat-out-of-range",
        "POST",
        f"{GFF}/melds",
        {"hand": ["AS"], "seat": 4, "players": 4},
        422,
        "seat",
    ),
    ("seat-negative", "POST", f"{GFF}/melds", {"hand": ["AS"], "seat": -1}, 422, "seat"),
    ("seat-string", "POST", f"{GFF}/melds", {"hand": ["AS"], "seat": "0"}, 422, "seat"),
    ("seat-bool", "POST", f"{GFF}/melds", {"hand": ["AS"], "seat": True}, 422, "seat"),
    ("gff-nine-players", "POST", f"{GFF}/melds", {"hand": ["AS"], "players": 9}, 422, "players"),
    ("tt-two-players", "POST", f"{TT}/melds", {"hand": ["RH1"], "players": 2}, 422, "players"),
    # --- table
    (
        "card-in-hand-and-table",
        "POST",
        f"{GFF}/melds",
        {"hand": ["2C", "JH"], "table": GFF_TABLE},
        422,
        "table[0].cards[1]",
    ),
    (
        "table-not-a-spread",
        "POST",
        f"{GFF}/melds",
        {"hand": ["AS"], "table": [{"owner": 1, "cards": ["2C", "5H", "9D"]}]},
        422,
        "table[0].cards",
    ),
    (
        "table-owner-out-of-range",
        "POST",
        f"{GFF}/melds",
        {"hand": ["AS"], "players": 3, "table": [{"owner": 3, "cards": ["10H", "JH", "QH"]}]},
        422,
        "table[0].owner",
    ),
    (
        "table-added-not-in-meld",
        "POST",
        f"{GFF}/melds",
        {
            "hand": ["AS"],
            "table": [
                {"owner": 1, "cards": ["10H", "JH", "QH"], "added": [{"seat": 2, "card": "KH"}]}
            ],
        },
        422,
        "table[0].added[0].card",
    ),
    (
        "table-added-by-owner",
        "POST",
        f"{GFF}/melds",
        {
            "hand": ["AS"],
            "table": [
                {
                    "owner": 1,
                    "cards": ["10H", "JH", "QH", "KH"],
                    "added": [{"seat": 1, "card": "KH"}],
                }
            ],
        },
        422,
        "table[0].added[0].seat",
    ),
    (
        "table-card-twice",
        "POST",
        f"{GFF}/melds",
        {
            "hand": ["AS"],
            "table": [
                {"owner": 1, "cards": ["10H", "JH", "QH"]},
                {"owner": 2, "cards": ["QH", "QS", "QD"]},
            ],
        },
        422,
        "table[1].cards[0]",
    ),
    (
        "tt-table-not-a-meld",
        "POST",
        f"{TT}/melds",
        {"hand": ["RH1"], "table": [{"owner": 1, "cards": ["RC1", "YH2", "GT4"]}]},
        422,
        "table[0].cards",
    ),
    # --- rules
    (
        "unknown-rule-option",
        "POST",
        f"{GFF}/melds",
        {"hand": ["AS"], "rules": {"jokers": True}},
        422,
        "rules.jokers",
    ),
    (
        "bad-rule-value",
        "POST",
        f"{GFF}/melds",
        {"hand": ["AS"], "rules": {"side_pot_fallback": "dealer"}},
        422,
        "rules.side_pot_fallback",
    ),
    (
        "t13-bad-aces",
        "POST",
        f"{T13}/melds",
        {**T13_OK, "rules": {"aces": "high"}},
        422,
        "rules.aces",
    ),
    (
        "tt-bad-early-totals",
        "POST",
        f"{TT}/melds",
        {"hand": ["RH1"], "rules": {"early_tunk_totals": [30]}},
        422,
        "rules.early_tunk_totals",
    ),
    (
        "tt-option-in-gff",
        "POST",
        f"{GFF}/melds",
        {"hand": ["AS"], "rules": {"early_tunk_totals": [20]}},
        422,
        "rules.early_tunk_totals",
    ),
    ("rules-not-object", "POST", f"{GFF}/melds", {"hand": ["AS"], "rules": "house"}, 422, "rules"),
    # --- Three Thirteen rounds and decks
    ("round-zero", "POST", f"{T13}/melds", {**T13_OK, "round": 0}, 422, "round"),
    ("round-twelve", "POST", f"{T13}/melds", {**T13_OK, "round": 12}, 422, "round"),
    ("round-missing", "POST", f"{T13}/melds", {"hand": ["7H", "8H", "9H"]}, 422, "round"),
    (
        "round-hand-size-mismatch",
        "POST",
        f"{T13}/melds",
        {"round": 3, "hand": ["7H", "8H", "9H"]},
        422,
        "hand",
    ),
    (
        "too-many-copies-one-deck",
        "POST",
        f"{T13}/melds",
        {"round": 1, "hand": ["7H", "7H", "9H"]},
        422,
        "hand[1]",
    ),
    (
        "too-many-copies-two-decks",
        "POST",
        f"{T13}/melds",
        {"round": 1, "decks": 2, "hand": ["7H", "7H", "7h", "9H"]},
        422,
        "hand[2]",
    ),
    ("decks-zero", "POST", f"{T13}/melds", {**T13_OK, "decks": 0}, 422, "decks"),
    (
        "decks-too-few-for-players",
        "POST",
        f"{T13}/melds",
        {**T13_OK, "players": 5, "decks": 1},
        422,
        "decks",
    ),
    (
        "t13-card-in-hand-and-table",
        "POST",
        f"{T13}/melds",
        {**T13_OK, "table": [{"owner": 1, "cards": ["9H", "9S", "9D"]}]},
        422,
        "table[0].cards[0]",
    ),
    (
        "t13-table-not-a-combination",
        "POST",
        f"{T13}/melds",
        {**T13_OK, "table": [{"owner": 1, "cards": ["2C", "9S", "QD"]}]},
        422,
        "table[0].cards",
    ),
    # --- limits
    ("limit-zero", "POST", f"{GFF}/melds", {"hand": ["AS"], "limit": 0}, 422, "limit"),
    (
        "max-ties-huge",
        "POST",
        f"{GFF}/melds",
        {"hand": ["AS"], "max_ties": 100_000},
        422,
        "max_ties",
    ),
    # --- early tunk
    (
        "early-tunk-four-cards",
        "POST",
        f"{GFF}/early-tunk",
        {"hand": ["KS", "QS", "JS", "10S"]},
        422,
        "hand",
    ),
    (
        "early-tunk-negative-stake",
        "POST",
        f"{GFF}/early-tunk",
        {"hand": ["KS", "QS", "JS", "10S", "9S"], "players": 4, "stake": -100},
        422,
        "stake",
    ),
    (
        "tt-early-tunk-has-no-stake",
        "POST",
        f"{TT}/early-tunk",
        {"hand": ["RH1", "RH2", "RH3", "RH4", "RH?"], "stake": 5},
        422,
        "stake",
    ),
    # --- side pots
    (
        "flip-card-not-dealers",
        "POST",
        f"{GFF}/side-pots",
        {**SIDE, "flip_card": "KS"},
        422,
        "flip_card",
    ),
    (
        "card-dealt-twice",
        "POST",
        f"{GFF}/side-pots",
        {
            **SIDE,
            "dealt_hands": [
                SIDE["dealt_hands"][0],
                ["KS", "3C", "4S", "8D", "KC"],
                SIDE["dealt_hands"][2],
            ],
        },
        422,
        "dealt_hands[1][0]",
    ),
    ("dealer-out-of-range", "POST", f"{GFF}/side-pots", {**SIDE, "dealer": 3}, 422, "dealer"),
    (
        "dealt-hand-of-four",
        "POST",
        f"{GFF}/side-pots",
        {**SIDE, "dealt_hands": [SIDE["dealt_hands"][0][:4], *SIDE["dealt_hands"][1:]]},
        422,
        "dealt_hands[0]",
    ),
    (
        "stakes-in-wrong-length",
        "POST",
        f"{GFF}/side-pots",
        {**SIDE, "stakes_in": [3, 3]},
        422,
        "stakes_in",
    ),
    (
        "stakes-in-four",
        "POST",
        f"{GFF}/side-pots",
        {**SIDE, "stakes_in": [3, 4, 3]},
        422,
        "stakes_in[1]",
    ),
    # --- settle: money and impossible outcomes
    (
        "negative-stake",
        "POST",
        f"{GFF}/settle",
        {**SEED, "stake": -100, "outcome": {"kind": "go_out", "seat": 0}},
        422,
        "stake",
    ),
    (
        "negative-bankroll",
        "POST",
        f"{GFF}/settle",
        {**SEED, "bankrolls": [1000, -5, 1000], "outcome": {"kind": "go_out", "seat": 0}},
        422,
        "bankrolls[1]",
    ),
    (
        "negative-carry-in",
        "POST",
        f"{GFF}/settle",
        {**SEED, "flop_carry_in": -1, "outcome": {"kind": "go_out", "seat": 0}},
        422,
        "flop_carry_in",
    ),
    (
        "unknown-outcome-kind",
        "POST",
        f"{GFF}/settle",
        {**SEED, "outcome": {"kind": "knock"}},
        422,
        "outcome.kind",
    ),
    (
        "drop-without-totals",
        "POST",
        f"{GFF}/settle",
        {**SEED, "outcome": {"kind": "drop", "dropper": 0}},
        422,
        "outcome.totals",
    ),
    (
        "totals-wrong-length",
        "POST",
        f"{GFF}/settle",
        {**SEED, "outcome": {"kind": "drop", "dropper": 0, "totals": [1, 2, 3]}},
        422,
        "outcome.totals",
    ),
    (
        "negative-total",
        "POST",
        f"{GFF}/settle",
        {**SEED, "outcome": {"kind": "stock_exhausted", "totals": [1, -2, 3, 4, 5]}},
        422,
        "outcome.totals[1]",
    ),
    (
        "dropper-out-of-range",
        "POST",
        f"{GFF}/settle",
        {**SEED, "outcome": {"kind": "drop", "dropper": 5, "totals": [1, 2, 3, 4, 5]}},
        422,
        "outcome.dropper",
    ),
    (
        "declare-48",
        "POST",
        f"{GFF}/settle",
        {**SEED, "outcome": {"kind": "early_win", "declarations": [{"seat": 0, "total": 48}]}},
        422,
        "outcome.declarations[0].total",
    ),
    (
        "declare-twice",
        "POST",
        f"{GFF}/settle",
        {
            **SEED,
            "outcome": {
                "kind": "early_win",
                "declarations": [{"seat": 0, "total": 49}, {"seat": 0, "total": 50}],
            },
        },
        422,
        "outcome.declarations[1].seat",
    ),
    (
        "declarer-not-dealt-in",
        "POST",
        f"{GFF}/settle",
        {
            **SEED,
            "bankrolls": [100, 1000, 1000],
            "dealer": 2,
            "outcome": {"kind": "early_win", "declarations": [{"seat": 0, "total": 49}]},
        },
        422,
        "outcome.declarations[0]",
    ),
    (
        "winner-did-not-stake-flop",
        "POST",
        f"{GFF}/settle",
        {
            **SEED,
            "bankrolls": [300, 1000, 1000],
            "dealer": 2,
            "side_winners": {"flip": 1, "flop": 0},
            "outcome": {"kind": "go_out", "seat": 1},
        },
        422,
        "side_winners.flop",
    ),
    (
        "tt-special-bonus-five",
        "POST",
        f"{TT}/settle",
        {
            "players": 3,
            "unit": 1,
            "outcome": {"kind": "tunk_out", "seat": 0, "special_bonus": [5, 1, 1]},
        },
        422,
        "outcome.special_bonus[0]",
    ),
    (
        "tt-knock-without-totals",
        "POST",
        f"{TT}/settle",
        {"players": 3, "unit": 1, "outcome": {"kind": "knock", "knocker": 0}},
        422,
        "outcome.totals",
    ),
    (
        "tt-unit-zero",
        "POST",
        f"{TT}/settle",
        {"players": 3, "unit": 0, "outcome": {"kind": "tunk_out", "seat": 0}},
        422,
        "unit",
    ),
    (
        "tt-early-tunk-wrong-length",
        "POST",
        f"{TT}/settle",
        {"players": 3, "unit": 1, "outcome": {"kind": "tunk_out", "seat": 0, "early_tunk": [True]}},
        422,
        "outcome.early_tunk",
    ),
    (
        "t13-went-out-out-of-range",
        "POST",
        f"{T13}/settle",
        {"round": 1, "went_out": 2, "round_scores": [0, 5]},
        422,
        "went_out",
    ),
    (
        "t13-out-player-scores",
        "POST",
        f"{T13}/settle",
        {"round": 1, "went_out": 1, "round_scores": [0, 5]},
        422,
        "round_scores[1]",
    ),
    (
        "t13-hands-and-scores",
        "POST",
        f"{T13}/settle",
        {
            "round": 1,
            "went_out": 0,
            "round_scores": [0, 5],
            "final_hands": [[], ["AS", "2S", "5D"]],
        },
        422,
        "final_hands",
    ),
    (
        "t13-final-hand-wrong-size",
        "POST",
        f"{T13}/settle",
        {"round": 2, "went_out": 0, "final_hands": [[], ["AS", "2S", "5D"]]},
        422,
        "final_hands[1]",
    ),
    (
        "t13-previous-totals-length",
        "POST",
        f"{T13}/settle",
        {"round": 1, "went_out": 0, "round_scores": [0, 5], "previous_totals": [1]},
        422,
        "previous_totals",
    ),
    # --- advice: discard / draw / knock
    (
        "advice-card-in-hand-and-discard-pile",
        "POST",
        f"{GFF}/discard",
        {**GFF_ADVICE, "discard_pile": ["4D", "kh"]},
        422,
        "discard_pile[1]",
    ),
    (
        "advice-unknown-card-in-pickups",
        "POST",
        f"{GFF}/draw",
        {**GFF_ADVICE_5, "opponents": [{"seat": 1, "picked_up": ["ZZ"]}]},
        422,
        "opponents[0].picked_up[0]",
    ),
    (
        "advice-pickup-also-in-hand",
        "POST",
        f"{TT}/discard",
        {**TT_ADVICE, "opponents": [{"seat": 2, "picked_up": ["YT4"]}]},
        422,
        "opponents[0].picked_up[0]",
    ),
    ("advice-samples-zero", "POST", f"{GFF}/knock", {**GFF_ADVICE_5, "samples": 0}, 422, "samples"),
    (
        "advice-samples-negative",
        "POST",
        f"{TT}/knock",
        {**TT_ADVICE_5, "samples": -5},
        422,
        "samples",
    ),
    (
        "advice-samples-huge",
        "POST",
        f"{GFF}/knock",
        {**GFF_ADVICE_5, "samples": 10**9},
        422,
        "samples",
    ),
    (
        "t13-advice-samples-over-cap",
        "POST",
        f"{T13}/discard",
        {**T13_ADVICE, "samples": 401},
        422,
        "samples",
    ),
    ("advice-seed-negative", "POST", f"{GFF}/knock", {**GFF_ADVICE_5, "seed": -1}, 422, "seed"),
    ("tt-waiting-negative", "POST", f"{TT}/knock", {**TT_ADVICE_5, "waiting": -1}, 422, "waiting"),
    (
        "advice-seat-out-of-range",
        "POST",
        f"{GFF}/knock",
        {**GFF_ADVICE_5, "seat": 3},
        422,
        "seat",
    ),
    (
        "advice-opponent-seat-out-of-range",
        "POST",
        f"{TT}/draw",
        {**TT_ADVICE_5, "opponents": [{"seat": 3}]},
        422,
        "opponents[0].seat",
    ),
    (
        "advice-opponent-is-own-seat",
        "POST",
        f"{GFF}/draw",
        {**GFF_ADVICE_5, "opponents": [{"seat": 0}]},
        422,
        "opponents[0].seat",
    ),
    (
        "advice-opponent-listed-twice",
        "POST",
        f"{GFF}/draw",
        {**GFF_ADVICE_5, "opponents": [{"seat": 1}, {"seat": 1}]},
        422,
        "opponents[1].seat",
    ),
    (
        "advice-more-known-than-held",
        "POST",
        f"{GFF}/knock",
        {**GFF_ADVICE_5, "opponents": [{"seat": 1, "hand_size": 1, "picked_up": ["2C", "3C"]}]},
        422,
        "opponents[0].picked_up",
    ),
    (
        "advice-fewer-turns-than-discards",
        "POST",
        f"{GFF}/knock",
        {**GFF_ADVICE_5, "opponents": [{"seat": 1, "turns": 0, "discarded": ["KD"]}]},
        422,
        "opponents[0].turns",
    ),
    ("advice-players-missing", "POST", f"{GFF}/discard", {"hand": ["AS"]}, 422, "players"),
    (
        "draw-hand-of-six",
        "POST",
        f"{GFF}/draw",
        {**GFF_ADVICE, "discard_pile": ["4D"]},
        422,
        "hand",
    ),
    (
        "flip-card-without-dealer",
        "POST",
        f"{GFF}/knock",
        {**GFF_ADVICE_5, "flip_card": "9D"},
        422,
        "dealer",
    ),
    (
        "advice-cards-do-not-fit-the-deck",
        "POST",
        f"{GFF}/discard",
        {
            **GFF_ADVICE,
            "players": 8,
            "opponents": [{"seat": s, "hand_size": 6} for s in range(1, 8)],
            "discard_pile": ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"],
        },
        422,
        "opponents",
    ),
    (
        "t13-advice-round-mismatch",
        "POST",
        f"{T13}/discard",
        {**T13_ADVICE, "round": 4},
        422,
        "hand",
    ),
    (
        "t13-draw-after-drawing",
        "POST",
        f"{T13}/draw",
        T13_ADVICE,
        422,
        "hand",
    ),
    ("t13-advice-out-is-self", "POST", f"{T13}/discard", {**T13_ADVICE, "out": 0}, 422, "out"),
    ("t13-has-no-knock", "POST", f"{T13}/knock", T13_ADVICE, 404, None),
]


def test_there_are_at_least_thirty_cases() -> None:
    assert len(CASES) >= 30
    assert len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "field"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_input(
    client: FlaskClient, method: str, path: str, body: Any, status: int, field: str | None
) -> None:
    if isinstance(body, Raw):
        response = client.open(path, method=method, data=body.data, content_type=body.content_type)
    elif body is None:
        response = client.open(path, method=method)
    else:
        response = client.open(path, method=method, json=body)
    payload = response.get_json(force=True)
    assert response.status_code == status, payload
    assert response.mimetype == PROBLEM
    assert payload["status"] == status
    assert payload["title"] and payload["detail"]
    assert "Traceback" not in response.get_data(as_text=True)
    if field is not None:
        assert field in payload.get("errors", {}), payload
        assert all(isinstance(m, str) and m for m in payload["errors"][field])
    assert "X-Cache" not in response.headers or response.headers["X-Cache"] != "HIT"


def test_topper_card_in_standard_game_names_the_mix_up(client: FlaskClient) -> None:
    response = client.post(f"{GFF}/melds", json={"hand": ["AS", "RH3"]})
    assert "Triple Topper" in response.get_json()["errors"]["hand[1]"][0]


def test_standard_card_in_triple_tunk_names_the_mix_up(client: FlaskClient) -> None:
    response = client.post(f"{TT}/melds", json={"hand": ["RH1", "10H"]})
    assert "standard" in response.get_json()["errors"]["hand[1]"][0]


@pytest.mark.rule("C-1")
def test_card_in_hand_and_table_says_where_the_first_copy_is(client: FlaskClient) -> None:
    response = client.post(f"{GFF}/melds", json={"hand": ["2C", "JH"], "table": GFF_TABLE})
    assert "hand[1]" in response.get_json()["errors"]["table[0].cards[1]"][0]


def test_errors_are_never_cached(client: FlaskClient) -> None:
    """A rejected request then the corrected one: the second is computed, not a cached error."""
    bad = client.post(f"{GFF}/melds", json={"hand": ["AS", "AS"]})
    good = client.post(f"{GFF}/melds", json={"hand": ["AS"]})
    assert bad.status_code == 422 and good.status_code == 200
    assert good.headers["X-Cache"] == "MISS"
