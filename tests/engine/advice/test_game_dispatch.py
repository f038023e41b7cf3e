"""Each Tunk game's advice parts are chosen once, from the game, not by comparing slugs per card:
the evaluator subclass, the game model, the completion tables, the knock and laying records,
and the rule facts read from the Game (seat ranges, GFF-1/TT-1)."""

from __future__ import annotations

import pytest

from engine.advice.tunk.common import check_observation
from engine.advice.tunk.completions import COMPLETIONS, gff_completions, tt_completions
from engine.advice.tunk.models import GFF_MODEL, TT_MODEL, model_for
from engine.advice.tunk.value import Evaluator, GffEvaluator, TtEvaluator, card_text
from engine.core.cards import parse_cards
from engine.core.errors import EngineError
from engine.core.options import GAME_FLIP_FLOP, THREE_THIRTEEN, TRIPLE_TUNK
from engine.core.topper import parse_topper_cards
from tests.support.observations import gff_observation, tt_observation


def test_evaluator_is_the_games_own_subclass() -> None:
    gff = Evaluator(gff_observation("AS 2S 3S 4S 5S", hand_sizes=(5, 5)))
    tt = Evaluator(tt_observation("RH1 RH2 RH3 RH4 RH? YC4"))
    assert type(gff) is GffEvaluator
    assert type(tt) is TtEvaluator
    assert type(GffEvaluator(gff_observation("AS 2S 3S 4S 5S"))) is GffEvaluator


def test_evaluator_refuses_a_game_without_a_tunk_model() -> None:
    obs = gff_observation("AS 2S 3S 4S 5S", game=THREE_THIRTEEN)
    with pytest.raises(ValueError, match="no Tunk advice model for 'three-thirteen'"):
        Evaluator(obs)


def test_models_and_completions_by_slug() -> None:
    assert model_for(GAME_FLIP_FLOP) is GFF_MODEL
    assert model_for(TRIPLE_TUNK) is TT_MODEL
    assert COMPLETIONS[GAME_FLIP_FLOP].complete is gff_completions
    assert COMPLETIONS[TRIPLE_TUNK].complete is tt_completions
    assert COMPLETIONS[GAME_FLIP_FLOP].features is None
    assert len(GFF_MODEL.meld3_list or ()) == 96  # GFF-2: 52 sets of three + 44 runs of three
    assert TT_MODEL.meld3_list is None


def test_card_text_reads_the_games_deck() -> None:
    assert card_text(GAME_FLIP_FLOP, parse_cards(["QH"])[0]) == "QH"
    assert card_text(TRIPLE_TUNK, parse_topper_cards(["RH?"])[0]) == "RH?"


def test_check_observation_takes_the_seat_range_from_the_game() -> None:
    obs = tt_observation(
        "RH1 RH2 RH3 RH4 RH?",
        seat=0,
        dealer=1,
        n_players=2,
        known=((), ()),
        hand_sizes=(5, 5),
        turns=(0, 0),
        waiting=(0, 0),
        early=(False, False),
    )
    with pytest.raises(EngineError, match="2 players: a table seats 3 to 6") as err:
        check_observation(obs, TT_MODEL)
    assert err.value.field == "n_players"
    gff = gff_observation("AS 2S 3S 4S 5S", hand_sizes=(5, 5))
    check_observation(gff, GFF_MODEL)  # GFF-1: two seats are a table
