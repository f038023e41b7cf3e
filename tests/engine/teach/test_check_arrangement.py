"""Checking a learner's arrangement (engine.teach.check_arrangement): each game's rule ids come
from its ``Game`` (GFF-2/GFF-3, TT-6/TT-7, T13-3/T13-4), lay-offs only where the game has them
(GFF-3, TT-8; none in Three Thirteen, T13-7), and an unknown game is refused."""

from __future__ import annotations

import pytest

from engine.core.cards import parse_cards
from engine.core.options import (
    GAME_FLIP_FLOP,
    THREE_THIRTEEN,
    TRIPLE_TUNK,
    GameFlipFlopRules,
    ThreeThirteenRules,
    TripleTunkRules,
)
from engine.core.topper import parse_topper_cards
from engine.core.types import Layoff, TableMeld
from engine.games import UnknownGameError
from engine.teach.check_arrangement import MeldVerdict, check_arrangement
from engine.teach.layoff_plan import layoff_plan


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


def test_gff_legal_run_is_the_best() -> None:
    got = check_arrangement(
        GAME_FLIP_FLOP, cs("7H 8H 9H 7S 7D KC"), [cs("7H 8H 9H")], GameFlipFlopRules()
    )
    assert got.verdicts == (
        MeldVerdict(cs("7H 8H 9H"), True, "GFF-2", "run", "a legal run (GFF-2)"),
    )
    assert (got.deadwood_points, got.difference) == (24, 0)
    assert got.explanation == (
        "Every meld you laid out is legal. Your arrangement leaves 24 point(s) of deadwood "
        "(7S 7D KC). That is the best possible (C-2)."
    )


def test_gff_missed_meld_cites_the_games_meld_rule() -> None:
    got = check_arrangement(GAME_FLIP_FLOP, cs("7H 8H 9H 2C"), [], GameFlipFlopRules())
    assert (got.deadwood_points, got.difference) == (26, 24)
    assert got.missed_melds == (cs("7H 8H 9H"),)
    assert got.explanation.endswith("You missed a meld in your deadwood: 7H 8H 9H (GFF-2).")


@pytest.mark.parametrize(
    ("game", "rules", "round_number", "hand", "meld", "rule"),
    [
        (GAME_FLIP_FLOP, GameFlipFlopRules(), None, "QH KH AH 2C 3D", "QH KH AH", "GFF-2"),
        # Round 3: fives wild; aces low by default (T13-3).
        (THREE_THIRTEEN, ThreeThirteenRules(), 3, "QS KS AS 2C 3D", "QS KS AS", "T13-3"),
    ],
)
def test_queen_king_ace_is_no_run_with_aces_low(
    game: str,
    rules: GameFlipFlopRules | ThreeThirteenRules,
    round_number: int | None,
    hand: str,
    meld: str,
    rule: str,
) -> None:
    got = check_arrangement(game, cs(hand), [cs(meld)], rules, round_number=round_number)
    assert got.verdicts == (
        MeldVerdict(
            tuple(sorted(cs(meld))),
            False,
            rule,
            None,
            f"aces are low only: Q-K-A is not a run ({rule})",
        ),
    )
    assert got.deadwood_points == 26  # 10 + 10 + 1 + 2 + 3: the invalid group stays deadwood


def test_t13_with_aces_high_melds_queen_king_ace() -> None:
    got = check_arrangement(
        THREE_THIRTEEN,
        cs("QS KS AS 2C 3D"),
        [cs("QS KS AS")],
        ThreeThirteenRules(aces="high_or_low"),
        round_number=3,
    )
    assert [(v.valid, v.rule, v.kind) for v in got.verdicts] == [(True, "T13-4", "run")]
    assert got.deadwood_points == 5


def test_tt_special_and_short_group() -> None:
    tp = parse_topper_cards
    got = check_arrangement(
        TRIPLE_TUNK,
        tp(["RH1", "RH2", "RH3", "GS4", "YC2"]),
        [tp(["RH1", "RH2", "RH3"]), tp(["GS4", "YC2"])],
        TripleTunkRules(),
    )
    assert [(v.valid, v.rule, v.kind) for v in got.verdicts] == [
        (True, "TT-7", "special"),
        (False, "TT-6", None),
    ]
    assert got.verdicts[1].reason == "a meld has 3 to 5 cards, this has 2 (TT-6)"
    assert (got.deadwood_points, got.difference) == (6, 0)  # YC2 + GS4 (TT-2)


def test_layoffs_only_where_the_game_has_them() -> None:
    table = (TableMeld(1, cs("6C 7C 8C")),)
    gff = check_arrangement(GAME_FLIP_FLOP, cs("9C 2D 3S"), [], GameFlipFlopRules(), table=table)
    assert gff.layoffs == (Layoff(cs("9C")[0], 0),)
    assert gff.explanation.endswith("You could also lay off 9C on table meld 0 (GFF-3).")
    t13 = check_arrangement(
        THREE_THIRTEEN, cs("9C 2D 3S"), [], ThreeThirteenRules(), round_number=1, table=table
    )
    assert t13.layoffs == ()  # T13-7: no lay-offs
    assert layoff_plan(THREE_THIRTEEN, cs("9C 2D 3S"), table, 0) == ()
    assert layoff_plan(GAME_FLIP_FLOP, cs("9C 2D 3S"), table, 0) == (Layoff(cs("9C")[0], 0),)


def test_unknown_game_is_refused() -> None:
    with pytest.raises(UnknownGameError) as err:
        check_arrangement("gin-rummy", cs("9C 2D 3S"), [], GameFlipFlopRules())
    assert err.value.field == "game"
    with pytest.raises(UnknownGameError):
        layoff_plan("gin-rummy", cs("9C"), (TableMeld(1, cs("6C 7C 8C")),), 0)


def test_t13_needs_its_round() -> None:
    with pytest.raises(ValueError, match="Three Thirteen needs its round and rules"):
        check_arrangement(THREE_THIRTEEN, cs("9C 2D 3S"), [], ThreeThirteenRules())
