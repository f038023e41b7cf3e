"""Peer cross-check: our Three Thirteen deadwood equals RLCard's and OpenSpiel's gin-rummy one.

A small version of ``bench/bench_peers.py``. On one-deck 10- and 11-card hands holding no wild
card (T13-1: each hand avoids its round's wild rank) with ``aces: low``, Three Thirteen melds and
card values (T13-3) are exactly gin rummy's, so ``min_deadwood`` and ``best_arrangement`` must
give the same deadwood points as both public implementations on every hand.

RLCard and OpenSpiel are benchmark-only dependencies (the ``bench`` extra): the module is skipped
when either is not installed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

melding = pytest.importorskip(
    "rlcard.games.gin_rummy.utils.melding", reason="rlcard (bench extra) not installed"
)
rl_utils = pytest.importorskip(
    "rlcard.games.gin_rummy.utils.utils", reason="rlcard (bench extra) not installed"
)
pyspiel = pytest.importorskip("pyspiel", reason="open-spiel (bench extra) not installed")

from engine.core.cards import RANK_OF, SUIT_OF, card_name, parse_cards  # noqa: E402
from engine.core.options import ThreeThirteenRules  # noqa: E402
from engine.standard.arrange import best_arrangement  # noqa: E402
from engine.standard.deadwood import min_deadwood  # noqa: E402
from engine.standard.melds import t13_context  # noqa: E402

HANDS_PER_CASE = 150
SEED = 2026
OPENSPIEL_SUIT = (0, 3, 2, 1)  # our S H D C -> OpenSpiel's suit index in "s c d h"
# hand_size above every tested hand: OpenSpiel drops a discard only from hand_size + 1 cards.
OS_UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 13)
RULES = ThreeThirteenRules(aces="low")


def rlcard_deadwood(cards: Sequence[int]) -> int:
    """RLCard's minimum deadwood: its cluster search, valued as its get_deadwood_count does.

    ``get_best_meld_clusters``/``get_deadwood_count`` accept only 10 cards, so 11-card hands
    use ``get_meld_clusters`` and the same per-cluster sum without the size check.
    """
    hand = [rl_utils.get_card(c) for c in cards]
    if len(hand) == 10:
        best = melding.get_best_meld_clusters(hand=hand)
        return int(rl_utils.get_deadwood_count(hand, best[0] if best else []))
    value = rl_utils.get_deadwood_value
    result: int = sum(value(card) for card in hand)
    for cluster in melding.get_meld_clusters(hand=hand):
        melded = [card for pile in cluster for card in pile]
        result = min(result, sum(value(card) for card in hand if card not in melded))
    return result


def openspiel_deadwood(cards: Sequence[int]) -> int:
    """OpenSpiel's ``min_deadwood`` after mapping our suits S H D C to its s c d h order."""
    return int(OS_UTILS.min_deadwood([OPENSPIEL_SUIT[SUIT_OF[c]] * 13 + RANK_OF[c] for c in cards]))


def random_hand(rng: random.Random, size: int, meld_rich: bool) -> tuple[int, tuple[int, ...]]:
    """(round, cards): a hand the round allows (deal + 1), with no card of its wild rank."""
    round_number = rng.randrange(size - 3, 12)
    wild = round_number + 1
    if not meld_rich:
        pool = [c for c in range(52) if RANK_OF[c] != wild]
        return round_number, tuple(rng.sample(pool, size))
    while True:
        width, suit_count = rng.choice(((4, 3), (5, 3), (6, 2)))
        start = rng.randrange(0, 14 - width)
        if start <= wild < start + width:
            continue
        suits = rng.sample(range(4), suit_count)
        pool = [s * 13 + r for s in suits for r in range(start, start + width)]
        return round_number, tuple(rng.sample(pool, size))


def ours(round_number: int, cards: Sequence[int]) -> tuple[int, int]:
    """Our (min_deadwood, best_arrangement deadwood points)."""
    ctx = t13_context(round_number, RULES)
    return min_deadwood(cards, ctx), best_arrangement(cards, ctx).best.deadwood_points


def peers(cards: Sequence[int]) -> tuple[int, int]:
    """(RLCard, OpenSpiel) deadwood."""
    return rlcard_deadwood(cards), openspiel_deadwood(cards)


def test_openspiel_card_mapping() -> None:
    """Our card int maps to the OpenSpiel card of the same rank and suit."""
    for c in range(52):
        os_card = OPENSPIEL_SUIT[SUIT_OF[c]] * 13 + RANK_OF[c]
        name = card_name(c).replace("10", "T")
        assert OS_UTILS.card_string(os_card) == name[:-1] + name[-1].lower()


def test_rlcard_card_mapping() -> None:
    """RLCard's card id is ``suit * 13 + rank`` with suits S H D C, exactly ours."""
    for c in range(52):
        card = rl_utils.get_card(c)
        assert str(card) == card_name(c).replace("10", "T")
        assert rl_utils.get_card_id(card) == c


@pytest.mark.parametrize(
    ("hand_text", "expected"),
    [
        # 5S sits in both a run and the set of fives: 3S 4S 5S + 5H 5D 5C + 9H 9D 9C.
        ("3S 4S 5S 5H 5D 5C 9H 9D 9C 10C", 10),
        ("3S 4S 5S 5H 5D 5C 9H 9D 9C 10C KD", 20),
        # A 4-set split so that one four extends a run: 2H 3H 4H + 4S 4D 4C + 7C 8C 9C, QS dead.
        ("2H 3H 4H 4S 4D 4C 7C 8C 9C QS", 10),
        # Nothing melds: every card is deadwood (aces low, no K-A wrap).
        ("AS 3H 5D 7C 9S JH QD 2C 4S 6H KD", 67),
        ("QS KS AS QH KH AH 2D 4D 6C 8C", 62),
    ],
)
def test_known_hands(hand_text: str, expected: int) -> None:
    """Hand-checked hands, in the latest round that allows them and whose wild rank they lack."""
    cards = parse_cards(hand_text.split())
    ranks = {RANK_OF[c] for c in cards}
    round_number = max(r for r in range(len(cards) - 3, 12) if r + 1 not in ranks)
    assert peers(cards) == (expected, expected)
    assert ours(round_number, cards) == (expected, expected)


@pytest.mark.parametrize("size", [10, 11])
@pytest.mark.parametrize("meld_rich", [False, True], ids=["random", "meld-rich"])
def test_same_deadwood_as_peers(size: int, meld_rich: bool) -> None:
    """Seeded hands: our two entry points, RLCard and OpenSpiel all give the same deadwood."""
    rng = random.Random(f"{SEED}/{size}/{meld_rich}")
    failures: list[str] = []
    for _ in range(HANDS_PER_CASE):
        round_number, cards = random_hand(rng, size, meld_rich)
        got: dict[str, Any] = dict(
            zip(("min_deadwood", "best_arrangement"), ours(round_number, cards), strict=True)
        )
        got.update(zip(("rlcard", "openspiel"), peers(cards), strict=True))
        if len(set(got.values())) != 1:
            names = " ".join(card_name(c) for c in sorted(cards))
            failures.append(f"round {round_number}, {names}: {got}")
    assert not failures, "\n".join(failures[:10])
