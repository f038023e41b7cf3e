"""Card fields remember short spellings they parsed: same cards, same errors, bounded memo."""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from api.schemas.fields import MEMO_TEXT_LENGTH, StdCard, TopperCard
from engine.core.cards import parse_card
from engine.core.topper import parse_topper_card


@pytest.mark.parametrize(
    ("field", "parse", "texts"),
    [
        (StdCard(), parse_card, ["AS", "as", "10H", "th", "KD", " 10h "]),
        (TopperCard(), parse_topper_card, ["RH3", "rh3", "KB?", "red heart 3"]),
    ],
)
def test_a_remembered_card_is_the_parsers_card(
    field: object, parse: object, texts: list[str]
) -> None:
    for _ in range(2):  # the second round answers from the memo
        for text in texts:
            assert field.deserialize(text) == parse(text)  # type: ignore[attr-defined,operator]
    memo = field._parsed  # type: ignore[attr-defined]
    assert all(len(text) <= MEMO_TEXT_LENGTH for text in memo)
    assert set(memo) == {t for t in texts if len(t) <= MEMO_TEXT_LENGTH}


def test_a_bad_short_text_fails_every_time_and_is_not_remembered() -> None:
    field = TopperCard()
    for _ in range(2):
        with pytest.raises(ValidationError, match="not a Triple Topper card"):
            field.deserialize("ZZ9")
    with pytest.raises(ValidationError, match="Triple Topper card; this game uses"):
        StdCard().deserialize("RH3")  # the other deck's card is named as such, memo or not
    assert field._parsed == {}
