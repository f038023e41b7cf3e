"""Request examples shown in the OpenAPI document (and, first of each path, in the README).

They are real requests: tests post every one of them and check the answers, so the documented
examples never drift from what the service accepts.
"""

from __future__ import annotations

from typing import Any

from engine.core.options import GAME_FLIP_FLOP, THREE_THIRTEEN, TRIPLE_TUNK

MELDS_EXAMPLES: dict[str, dict[str, Any]] = {
    # 7-8-9 of hearts and three 7s share the 7H; the run leaves less deadwood (C-2). The 9H
    # extends the 10-J-Q of hearts on the table, then the 8H and 7H in a chain (GFF-3).
    GAME_FLIP_FLOP: {
        "hand": ["7H", "8H", "9H", "7S", "7D", "KC"],
        "table": [{"owner": 1, "cards": ["10H", "JH", "QH"]}],
        "seat": 0,
        "players": 4,
    },
    # A red-heart 1-2-3 sequence (special, TT-7) plus three 4s matching in number and shape
    # through the black blob wild: two 3-card melds, a tunk out with no discard (TT-11).
    TRIPLE_TUNK: {
        "hand": ["RH1", "RH2", "RH3", "YT4", "GT4", "KB4"],
        "table": [],
        "seat": 0,
        "players": 4,
        "early_tunk_claimed": True,
    },
    # Round 3 deals 5 cards and fives are wild (T13-1); after the draw the 5S stands for the
    # 10H in 6-7-8-9-10 of hearts, so discarding the KD goes out (T13-5).
    THREE_THIRTEEN: {
        "hand": ["5S", "6H", "7H", "8H", "9H", "KD"],
        "round": 3,
        "players": 2,
    },
}

EARLY_TUNK_EXAMPLES: dict[str, dict[str, Any]] = {
    # K + Q + J + 10 + 9 = 49: declaring wins the game pot (GFF-4); 4 x 100 for 5 players.
    GAME_FLIP_FLOP: {"hand": ["KS", "QH", "JD", "10C", "9S"], "players": 5, "stake": 100},
    # ? + ? + ? + 4 + 1 = 5 + 5 + 5 + 4 + 1 = 20: an early-tunk total (TT-9).
    TRIPLE_TUNK: {"hand": ["KB?", "RH?", "YT?", "GC4", "BS1"]},
}

SIDE_POTS_EXAMPLE: dict[str, Any] = {
    # Dealer seat 3 turns up the 9H: the flip pot goes to the lowest heart dealt (2H, seat 1),
    # the flop pot to the lowest diamond dealt (AD, seat 2) (GFF-5).
    "dealt_hands": [
        ["KS", "QS", "10C", "5H", "JD"],
        ["2H", "3C", "4S", "8D", "KC"],
        ["AD", "7S", "6C", "QH", "9C"],
        ["9H", "2S", "3S", "JC", "4D"],
    ],
    "dealer": 3,
    "flip_card": "9H",
    "stake": 100,
}

GFF_SETTLE_EXAMPLES: dict[str, dict[str, Any]] = {
    "seed_49_50": {
        "summary": "Seed: stake 100, 5 players, A (seat 0) declares 49, B (seat 1) declares 50",
        "description": "GFF-4: the declarers split the 500 game pot (250 each); A, C, D, E pay "
        "one extra stake each into a pot B takes. Net: A +50, B +550, C/D/E -200.",
        "value": {
            "bankrolls": [1000, 1000, 1000, 1000, 1000],
            "stake": 100,
            "dealer": 4,
            "outcome": {
                "kind": "early_win",
                "declarations": [{"seat": 0, "total": 49}, {"seat": 1, "total": 50}],
            },
        },
    },
    "seed_drop_caught": {
        "summary": "Seed: stake 100, 5 players, A drops, A, C and D tie lowest",
        "description": "GFF-8: A is caught, pays one extra stake into the game pot (600), which "
        "C and D split. Net: A -200, C +200, D +200, B and E -100.",
        "value": {
            "bankrolls": [1000, 1000, 1000, 1000, 1000],
            "stake": 100,
            "dealer": 4,
            "outcome": {"kind": "drop", "dropper": 0, "totals": [12, 20, 12, 12, 30]},
        },
    },
}

TT_SETTLE_EXAMPLE: dict[str, Any] = {
    # Seat 0 knocks with 3 points, everyone else holds more: each pays 10 (TT-13).
    "players": 4,
    "unit": 10,
    "dealer": 3,
    "outcome": {"kind": "knock", "knocker": 0, "totals": [3, 8, 12, 5]},
}

T13_SETTLE_EXAMPLE: dict[str, Any] = {
    # Round 1 (3 cards, threes wild, T13-1): seat 0 went out and scores 0; seat 1's wild 3S
    # completes a 7-8 of hearts run -> 0; seat 2's K, Q, 2 make nothing -> 22 (T13-6).
    "round": 1,
    "went_out": 0,
    "final_hands": [[], ["7H", "8H", "3S"], ["KD", "QC", "2S"]],
    "previous_totals": [0, 0, 0],
}

SETTLE_EXAMPLES: dict[str, dict[str, Any]] = {
    GAME_FLIP_FLOP: GFF_SETTLE_EXAMPLES,
    TRIPLE_TUNK: {"knock": {"summary": "Seat 0 knocks lowest", "value": TT_SETTLE_EXAMPLE}},
    THREE_THIRTEEN: {
        "round_1": {"summary": "Round 1 scored from final hands", "value": T13_SETTLE_EXAMPLE}
    },
}

# --- advice (discard / draw / knock) -------------------------------------------------------------

GFF_DISCARD_EXAMPLES: dict[str, dict[str, Any]] = {
    "hold": {
        "summary": "Mid-deal: three players, a spread on the table, a known pickup",
        "description": "The KS lays off on seat 1's 10-J-Q of spades (GFF-3), so throwing it "
        "feeds the table; the advice weighs deadwood, outs and danger for every card.",
        "value": {
            "hand": ["7H", "8H", "9H", "KS", "QD", "2C"],
            "table": [{"owner": 1, "cards": ["10S", "JS", "QS"]}],
            "discard_pile": ["4D", "JC"],
            "seat": 0,
            "players": 3,
            "dealer": 2,
            "flip_card": "8D",
            "opponents": [
                {"seat": 1, "hand_size": 2, "picked_up": [], "discarded": ["JC"], "turns": 2},
                {"seat": 2, "hand_size": 5, "picked_up": ["5C"], "discarded": ["4D"], "turns": 1},
            ],
        },
    },
    "go_out": {
        "summary": "A five-card run and a king: discard the king and go out (GFF-10)",
        "value": {"hand": ["AS", "2S", "3S", "4S", "5S", "KH"], "players": 2},
    },
}

GFF_DRAW_EXAMPLE: dict[str, Any] = {
    # The 9H completes 7-8-9 of hearts: taking it leaves a sure low deadwood (GFF-7).
    "hand": ["7H", "8H", "KS", "QD", "2C"],
    "discard_pile": ["9H", "4D"],
    "seat": 0,
    "players": 3,
    "dealer": 2,
    "flip_card": "8D",
}

GFF_KNOCK_EXAMPLE: dict[str, Any] = {
    # Third turn, 18 points in hand (GFF-8 counts every card held). Both opponents threw high
    # cards, so they usually hold nothing higher (the opponent model); seat 2, the dealer, also
    # holds the flip card 9D (GFF-5) and the JS it picked up.
    "hand": ["AS", "2D", "6C", "5H", "4S"],
    "discard_pile": ["KC", "QH", "10S", "JD"],
    "seat": 0,
    "players": 3,
    "dealer": 2,
    "flip_card": "9D",
    "opponents": [
        {"seat": 1, "hand_size": 5, "discarded": ["QH", "KC"], "turns": 2},
        {"seat": 2, "hand_size": 5, "picked_up": ["JS"], "discarded": ["JD", "10S"], "turns": 2},
    ],
    "stake": 100,
}

TT_DISCARD_EXAMPLES: dict[str, dict[str, Any]] = {
    "tunk_out": {
        "summary": "Two 3-card melds: tunk out with no discard (TT-11)",
        "description": "A red-heart 1-2-3 sequence and three 4s through the black blob wild.",
        "value": {"hand": ["RH1", "RH2", "RH3", "YT4", "GT4", "KB4"], "players": 3},
    },
    "hold": {
        "summary": "One meld and three loose cards, a known pickup next door",
        "value": {
            "hand": ["RH1", "RH2", "RH3", "YT4", "GC?", "BS2"],
            "discard_pile": ["YC?"],
            "seat": 0,
            "players": 3,
            "opponents": [{"seat": 1, "hand_size": 5, "picked_up": ["GT4"], "turns": 1}],
        },
    },
}

TT_DRAW_EXAMPLE: dict[str, Any] = {
    # The RH3 completes a red-heart 1-2-3 sequence (TT-5, TT-7).
    "hand": ["RH1", "RH2", "YT4", "GC?", "BS2"],
    "discard_pile": ["RH3"],
    "players": 3,
}

TT_KNOCK_EXAMPLES: dict[str, dict[str, Any]] = {
    "mid_hand": {
        "summary": "Eight points in four cards, four players: knock (TT-13)?",
        "description": "Seat 2 claimed an early tunk (TT-9): catching a knocker pays it double "
        "(TT-14). Seat 3 picked up the YT? (5 points).",
        "value": {
            "hand": ["RH1", "YC2", "GT2", "BS3"],
            "players": 4,
            "discard_pile": ["KB?", "RC4"],
            "opponents": [
                {"seat": 1, "turns": 2, "discarded": ["RC4"]},
                {"seat": 2, "turns": 2, "early_tunk": True},
                {"seat": 3, "turns": 1, "picked_up": ["YT?"]},
            ],
            "unit": 10,
        },
    },
    "waiting": {
        "summary": "A card was laid on your meld: TT-12 forbids knocking for 3 turns",
        "value": {"hand": ["RH1", "YC1", "GT2"], "players": 3, "waiting": 3},
    },
}

GFF_PROFILE_EXAMPLE: dict[str, Any] = {
    # Seat 1 dropped with 9 points (GFF-8) on the third turn and every hand was shown. Seat 2 had
    # thrown a QH and a 10S as its highest cards, yet showed 41 points: likelier for a player who
    # throws any card. Seat 1 ended the deal, so its low hand is not learned from.
    "hand": ["AS", "2D", "6C", "5H", "4S"],
    "discard_pile": ["10S", "KC", "QH", "JD"],
    "seat": 0,
    "players": 3,
    "opponents": [
        {"seat": 1, "hand_size": 5, "discarded": ["JD", "KC"], "turns": 2},
        {
            "seat": 2,
            "hand_size": 5,
            "discarded": ["10S", "QH"],
            "turns": 2,
            "profile": {
                "baseline": 0.7,
                "hoarder": 0.15,
                "random": 0.15,
                "drops_when_lowest": 0.1,
                "drop_totals": {"never": 0.6, "at_5": 0.15, "at_10": 0.1, "at_random": 0.15},
            },
        },
    ],
    "final_hands": [
        {"seat": 1, "cards": ["AH", "AC", "2S", "3D", "2H"]},
        {"seat": 2, "cards": ["KD", "QS", "9C", "JH", "2C"]},
    ],
    "ended_by": 1,
}

TT_PROFILE_EXAMPLE: dict[str, Any] = {
    # You knocked with 8 points (TT-13) and every hand was shown: seat 1 held 4 points after
    # throwing a 4, seat 2 held 14 after throwing a 4.
    "hand": ["RH1", "YC2", "GT2", "BS3"],
    "players": 3,
    "discard_pile": ["GS4", "RC4"],
    "opponents": [
        {"seat": 1, "hand_size": 4, "turns": 1, "discarded": ["RC4"]},
        {"seat": 2, "hand_size": 4, "turns": 1, "discarded": ["GS4"]},
    ],
    "final_hands": [
        {"seat": 1, "cards": ["YH1", "GC1", "RT1", "BT1"]},
        {"seat": 2, "cards": ["YS3", "GH4", "RB2", "BC?"]},
    ],
    "ended_by": 0,
}

T13_DISCARD_EXAMPLES: dict[str, dict[str, Any]] = {
    "go_out": {
        "summary": "Round 3: discard the KD and go out (T13-5)",
        "description": "Fives are wild in round 3 (T13-1): the 5S stands for the 10H.",
        "value": {"hand": ["5S", "6H", "7H", "8H", "9H", "KD"], "round": 3, "players": 2},
    },
    "hold": {
        "summary": "Round 3, no way out yet: which card to hold on to",
        "value": {
            "hand": ["6H", "7H", "9H", "KD", "2C", "2S"],
            "round": 3,
            "players": 3,
            "discard_pile": ["QC", "8S"],
            "opponents": [{"seat": 1, "picked_up": ["KS"]}],
        },
    },
}

T13_DRAW_EXAMPLE: dict[str, Any] = {
    # Round 3 (five cards, fives wild): the 8H fills 6-7-8-9 of hearts.
    "hand": ["6H", "7H", "9H", "KD", "2C"],
    "round": 3,
    "players": 2,
    "discard_pile": ["8H"],
}


def _one(summary: str, value: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {"example": {"summary": summary, "value": value}}


ADVICE_EXAMPLES: dict[str, dict[str, dict[str, dict[str, Any]]]] = {
    GAME_FLIP_FLOP: {
        "discard": GFF_DISCARD_EXAMPLES,
        "draw": _one("Take the 9H: it completes a run", GFF_DRAW_EXAMPLE),
        "knock": _one("Drop with 18 points on the third turn?", GFF_KNOCK_EXAMPLE),
        "profile": _one("Seat 1 dropped: what seat 2's shown hand says", GFF_PROFILE_EXAMPLE),
    },
    TRIPLE_TUNK: {
        "discard": TT_DISCARD_EXAMPLES,
        "draw": _one("Take the RH3: it completes a special sequence", TT_DRAW_EXAMPLE),
        "knock": TT_KNOCK_EXAMPLES,
        "profile": _one("You knocked: what your opponent's shown hand says", TT_PROFILE_EXAMPLE),
    },
    THREE_THIRTEEN: {
        "discard": T13_DISCARD_EXAMPLES,
        "draw": _one("Take the 8H: it fills a run", T13_DRAW_EXAMPLE),
    },
}

ARRANGEMENT_EXAMPLES: dict[str, dict[str, Any]] = {
    # The learner melds three 7s and keeps 8H 9H as deadwood; the run 7-8-9 of hearts leaves
    # 7S 7D + KC = 24 instead of 8 + 9 + 10 = 27 (C-2), and the 9H would go on the table's
    # 10-J-Q of hearts (GFF-3).
    GAME_FLIP_FLOP: {
        "hand": ["7H", "8H", "9H", "7S", "7D", "KC"],
        "melds": [["7H", "7S", "7D"]],
        "table": [{"owner": 1, "cards": ["10H", "JH", "QH"]}],
        "players": 4,
    },
    # RH1 RH2 YT4 matches nothing (TT-6); the red-heart 1-2-3 special and the three 4s are there.
    TRIPLE_TUNK: {
        "hand": ["RH1", "RH2", "RH3", "YT4", "GT4", "KB4"],
        "melds": [["RH1", "RH2", "YT4"]],
        "players": 4,
    },
    # Round 3, fives wild (T13-1): 6-7-8 of hearts is legal, but 5S + 9H extend it to 6-7-8-9-10.
    THREE_THIRTEEN: {
        "hand": ["5S", "6H", "7H", "8H", "9H", "KD"],
        "melds": [["6H", "7H", "8H"]],
        "round": 3,
        "players": 2,
    },
}

BATCH_EXAMPLE: dict[str, Any] = {
    "requests": [
        {
            "method": "POST",
            "path": "/v1/games/game-flip-flop/melds",
            "body": {"hand": ["7H", "8H", "9H", "7S", "7D", "KC"]},
        },
        {
            "method": "POST",
            "path": "/v1/games/triple-tunk/early-tunk",
            "body": {"hand": ["RH?", "YC?", "GT?", "BS4", "KB1"]},
        },
        {
            "method": "POST",
            "path": "/v1/games/game-flip-flop/melds",
            "body": {"hand": ["7H", "ZZ"]},
        },
    ]
}
