"""How each Tunk game names its advice: drop or knock, stakes or units, the rule ids it cites.

The response schemas and the endpoint descriptions read these words from one table keyed by
game, built once, instead of asking which game they serve.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK


@dataclass(frozen=True, slots=True)
class TunkWords:
    """One Tunk game's words for its advice answers and their documentation."""

    knock: str
    """The knock endpoint's act: ``drop`` (GFF-8) or ``knock`` (TT-13)."""
    unit: str
    """What payouts are counted in: ``stakes`` or ``units``."""
    money: str
    """The request field that prices one payout unit: ``stake`` or ``unit``."""
    knock_rule: str
    """Rule ids of the knock payout."""
    play_rules: str
    """Rule ids of discarding, laying and going out."""
    caught_figures: bool
    """The knock answer also says what a caught drop costs and whether you are all in (GFF-6,
    GFF-8)."""
    ends: str
    """How following the discard advice can end the hand."""
    ends_now: str
    """The discard description's sentence on a discard that ends the hand."""
    lay_melds: str
    """Whether to lay new melds this turn, and why."""
    melds_to_lay: str
    """When the plan lays its melds."""
    allowed: str
    """When the knock is allowed."""
    play_on: str
    """What the knock answer's value of playing on is read from."""


TUNK_WORDS: dict[str, TunkWords] = {
    GAME_FLIP_FLOP: TunkWords(
        knock="drop",
        unit="stakes",
        money="stake",
        knock_rule="GFF-8",
        play_rules="GFF-3/GFF-7/GFF-9/GFF-10",
        caught_figures=True,
        ends="`tunk_out` (GFF-9) or `go_out` (GFF-10) when following the advice ends the hand "
        "now, else null.",
        ends_now="A discard that lets you tunk out (GFF-9) or go out (GFF-10) now is always "
        "recommended (`ends`).",
        lay_melds="Lay new spreads this turn before discarding: yes in Game Flip Flop, a laid "
        "spread no longer counts if someone drops (GFF-8). False when `ends` is set (laying is "
        "part of ending the hand).",
        melds_to_lay="Game Flip Flop lays its spreads (GFF-8: a laid spread no longer counts at "
        "a drop).",
        allowed="Always true: dropping is allowed at the start of any turn (C-5).",
        play_on="the advisor's mean final settlement after playing on, measured in simulated "
        "tournaments as a function of the win probability, `hand_value` and the number of "
        "players.",
    ),
    TRIPLE_TUNK: TunkWords(
        knock="knock",
        unit="units",
        money="unit",
        knock_rule="TT-13/TT-14",
        play_rules="TT-8/TT-10/TT-11",
        caught_figures=False,
        ends="`tunk_out` (TT-11) when following the advice ends the hand now, else null.",
        ends_now="A discard that lets you tunk out (TT-11) now is always recommended (`ends`).",
        lay_melds="Lay new melds this turn before discarding: no in Triple Tunk - hold them and "
        "go down all at once with a tunk out (TT-11), since a laid meld gives opponents lay-off "
        "targets and each hit makes you wait (TT-12).",
        melds_to_lay="Triple Tunk lays its melds when an opponent is likely to knock before your "
        "next turn (a held meld counts in your total, TT-13) and holds them otherwise (a laid "
        "meld gives lay-off targets, TT-8/TT-11, and hits make you wait, TT-12); the "
        "explanation gives the knock threat.",
        allowed="Whether knocking is allowed now: false while the TT-12 waiting counter is "
        "positive (then `knock` is false).",
        play_on="`expected_payout` plus what playing on gains over knocking now, fitted from "
        "simulated play against what a knock at the same moment would have paid, as a function "
        "of the win probability, `hand_value`, `expected_payout`, the fewest cards an opponent "
        "holds, the cards drawn from the stock so far and the number of players.",
    ),
}
"""Each Tunk game's words."""

__all__ = ["TUNK_WORDS", "TunkWords"]
