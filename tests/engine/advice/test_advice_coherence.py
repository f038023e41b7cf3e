"""One hand evaluation for discard and draw (engine.advice.tunk.value), checked as properties.

- The fast kept-hand tables agree with the plain definitions in ``engine.advice.tunk.common``
  (deadwood after each possible draw, outs, chance to empty the hand) on random hands.
- Completion masks agree with the meld predicates (GFF-2, TT-6).
- Over random situations in both Tunk games: when ``draw`` takes the top discard, the follow-up
  ``discard`` never throws it back unless ``draw`` announced the pass (``throw_back``), and both
  report the same value; the stock's value is the mean of the same value over the unseen cards.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.advice.situation import Observation
from engine.advice.tunk.common import GFF_MODEL, TT_MODEL, after_draw_values
from engine.advice.tunk.completions import gff_completions, tt_completions
from engine.advice.tunk.discard import discard_advice
from engine.advice.tunk.draw import _order, draw_advice
from engine.advice.tunk.value import Evaluator
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.types import TableMeld
from engine.games.gff.play import is_gff_spread
from engine.games.tt.melds import is_tt_meld


def _situation(seed: int, game: str, hand_size: int, players: int) -> Observation:
    """A random mid-deal situation: a hand, a pile, maybe a table meld and known pickups."""
    rng = random.Random(seed)
    n = 52 if game == GAME_FLIP_FLOP else 125
    deck = list(range(n))
    rng.shuffle(deck)
    hand = tuple(deck[:hand_size])
    rest = deck[hand_size:]
    table: tuple[TableMeld, ...] = ()
    if rng.random() < 0.5:
        pred = is_gff_spread if game == GAME_FLIP_FLOP else is_tt_meld
        for a, b, c in combinations(rest[:25], 3):
            if pred((a, b, c)):
                table = (TableMeld(rng.randrange(players), (a, b, c)),)
                rest = [x for x in rest if x not in (a, b, c)]
                break
    pile = tuple(rest[: rng.randrange(1, 25)])
    rest = rest[len(pile) :]
    known = [()] * players
    known[(1) % players] = tuple(rest[: rng.randrange(0, 3)])
    sizes = tuple(hand_size if s == 0 else 5 for s in range(players))
    return Observation(
        game=game,
        seat=0,
        dealer=players - 1,
        n_players=players,
        hand=hand,
        table=table,
        discards=pile,
        known=tuple(known),
        hand_sizes=sizes,
        turns=tuple(rng.randrange(0, 4) for _ in range(players)),
        stock_size=len(rest),
    )


def _brute_empties(model, rest, unseen, values):  # type: ignore[no-untyped-def]
    m3 = model.meld3
    pairs = []
    if len(rest) == 5:
        for a, b in combinations(rest, 2):
            x, y, z = (c for c in rest if c not in (a, b))
            if m3(x, y, z):
                pairs.append((a, b))
    elif len(rest) == 2:
        pairs.append((rest[0], rest[1]))
    hits = sum(
        1
        for c, v in zip(unseen, values, strict=True)
        if v == 0 or any(m3(c, a, b) for a, b in pairs)
    )
    return hits / len(unseen)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tt=st.booleans(), size=st.integers(3, 6))
def test_keep_figures_match_the_plain_definitions(seed: int, tt: bool, size: int) -> None:
    game, model = (TRIPLE_TUNK, TT_MODEL) if tt else (GAME_FLIP_FLOP, GFF_MODEL)
    obs = _situation(seed, game, size, 3)
    ev = Evaluator(obs)
    hand = obs.hand
    for i in range(len(hand)):
        rest = hand[:i] + hand[i + 1 :]
        values = after_draw_values(model, rest, ev.unseen)
        k = ev.keep(rest)
        assert k.deadwood == model.deadwood(rest)
        assert abs(k.expected_deadwood - sum(values) / len(values)) < 1e-9
        assert k.outs == len({c for c, v in zip(ev.unseen, values, strict=True) if v < k.deadwood})
        assert abs(k.out_chance - _brute_empties(model, rest, ev.unseen, values)) < 1e-9


@pytest.mark.rule("GFF-2", "TT-6")
@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tt=st.booleans(), k=st.integers(2, 4))
def test_completions_match_the_meld_predicates(seed: int, tt: bool, k: int) -> None:
    rng = random.Random(seed)
    if tt:
        group = rng.sample(range(125), k)
        want = sum(1 << c for c in range(125) if c not in group and is_tt_meld((*group, c)))
        assert tt_completions(group) == want
    else:
        suit, low = rng.randrange(4), rng.randrange(10)
        group = rng.choice(
            [
                rng.sample(range(52), k),
                [suit * 13 + r for r in rng.sample(range(low, low + 4), k)],
                [s * 13 + low for s in rng.sample(range(4), k)],
            ]
        )
        want = sum(1 << c for c in range(52) if c not in group and is_gff_spread((*group, c)))
        assert gff_completions(group) == want


@pytest.mark.rule("C-5")
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tt=st.booleans(), players=st.integers(2, 4))
def test_draw_and_the_follow_up_discard_agree(seed: int, tt: bool, players: int) -> None:
    game = TRIPLE_TUNK if tt else GAME_FLIP_FLOP
    obs = _situation(seed, game, 5, players)
    draw = draw_advice(obs, seed=seed)
    top = obs.discards[0]
    after = Observation(
        **{
            **{f: getattr(obs, f) for f in obs.__slots__},  # type: ignore[attr-defined]
            "hand": (*obs.hand, top),
            "discards": obs.discards[1:],
            "hand_sizes": (6, *obs.hand_sizes[1:]),
        }
    )
    follow = discard_advice(after)
    assert draw.value_if_take is not None
    assert abs(draw.value_if_take - follow.value) < 1e-9
    assert draw.discard_after_take == follow.discard
    if draw.take_discard and not draw.throw_back:
        assert follow.discard != top or follow.ends is not None
    if draw.throw_back:
        assert draw.take_discard and follow.discard == top


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tt=st.booleans())
def test_stock_value_is_the_mean_over_unseen_cards(seed: int, tt: bool) -> None:
    obs = _situation(seed, TRIPLE_TUNK if tt else GAME_FLIP_FLOP, 5, 3)
    ev = Evaluator(obs)
    draw = draw_advice(obs, precision=0.0, settle=False)
    assert draw.stock_cards == len(ev.unseen) and draw.stock_half_width == 0.0
    mean = sum(ev.hand_value((*obs.hand, c)).value for c in ev.unseen) / len(ev.unseen)
    assert abs(draw.value_if_stock - mean) < 1e-9


def test_the_interval_narrows_as_precision_tightens() -> None:
    obs = _situation(11, TRIPLE_TUNK, 5, 3)
    widths = [
        draw_advice(obs, precision=p, seed=1, settle=False).stock_half_width
        for p in (2.0, 0.5, 0.1, 0.0)
    ]
    assert widths[0] >= widths[1] >= widths[2] >= widths[3] == 0.0
    assert widths[0] > widths[3]


@pytest.mark.rule("GFF-9", "GFF-10", "TT-11")
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tt=st.booleans(), size=st.integers(3, 6))
def test_the_quick_ending_check_never_misses_an_ending(seed: int, tt: bool, size: int) -> None:
    # The stock line uses a necessary condition before the full GFF-9/GFF-10/TT-11 search.
    obs = _situation(seed, TRIPLE_TUNK if tt else GAME_FLIP_FLOP, size, 3)
    ev = Evaluator(obs)
    assert ev.ending(obs.hand, quick=True) == ev.ending(obs.hand)


@pytest.mark.rule("GFF-10", "TT-11")
def test_the_quick_ending_check_keeps_known_endings() -> None:
    from engine.core.cards import parse_cards
    from engine.core.topper import parse_topper_cards

    # GFF-10 through lay-offs on 7-8-9 of hearts; TT-11 a 5-card meld plus a discard.
    gff = Observation(
        game=GAME_FLIP_FLOP,
        seat=1,
        dealer=0,
        n_players=2,
        hand=parse_cards(["2C", "2D", "2S", "10H", "6H", "KS"]),
        table=(TableMeld(0, parse_cards(["7H", "8H", "9H"])),),
        discards=(),
        known=((), ()),
        hand_sizes=(2, 6),
        turns=(1, 1),
        stock_size=30,
    )
    tt = Observation(
        game=TRIPLE_TUNK,
        seat=0,
        dealer=2,
        n_players=3,
        hand=parse_topper_cards(["RH1", "RH2", "RH3", "RH4", "RH?", "YC4"]),
        table=(),
        discards=(),
        known=((), (), ()),
        hand_sizes=(6, 5, 5),
        turns=(0, 0, 0),
        stock_size=100,
    )
    for obs in (gff, tt):
        ev = Evaluator(obs)
        assert ev.ending(obs.hand) is not None
        assert ev.ending(obs.hand, quick=True) == ev.ending(obs.hand)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tt=st.booleans(), players=st.integers(2, 4))
def test_knock_weighs_the_value_draw_and_discard_give_the_hand(
    seed: int, tt: bool, players: int
) -> None:
    # One evaluation: the value knock reads the play-on value from is the value draw reports
    # for the hand as it is, and the keep value discard gives the option that leaves it (here:
    # take the top discard and throw it back, the same unseen cards).
    from engine.advice.tunk.knock import knock_advice, play_on_state, play_on_value

    obs = _situation(seed, TRIPLE_TUNK if tt else GAME_FLIP_FLOP, 5, players)
    knock = knock_advice(obs, samples=60, precision=None)
    draw = draw_advice(obs, seed=seed)
    top = obs.discards[0]
    after = Observation(
        **{
            **{f: getattr(obs, f) for f in obs.__slots__},  # type: ignore[attr-defined]
            "hand": (*obs.hand, top),
            "discards": obs.discards[1:],
            "hand_sizes": (6, *obs.hand_sizes[1:]),
        }
    )
    back = next(o for o in discard_advice(after).options if o.card == top)
    assert knock.hand is not None and knock.hand_value is not None
    assert knock.hand_value == draw.hand_value == Evaluator(obs).keep(obs.hand).value
    assert abs(back.keep_value - knock.hand_value) < 1e-9
    assert abs(back.score - back.keep_value - 4.0 * back.danger) < 1e-9
    dealt = sum(1 for s in obs.hand_sizes if s > 0)
    state = play_on_state(obs, knock.hand_value)
    assert knock.value_of_playing_on == play_on_value(
        obs.game, dealt, knock.win_probability, state, knock.expected_payout
    )


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tt=st.booleans(), size=st.integers(1, 5))
def test_the_stock_line_equals_the_hand_value_of_every_draw(seed: int, tt: bool, size: int) -> None:
    # The stock line's shared per-hand work (the ending prefilter, cards related to no card of
    # the kept hand, throwing the drawn card back only when it can be best) changes nothing.
    obs = _situation(seed, TRIPLE_TUNK if tt else GAME_FLIP_FLOP, size, 3)
    ev = Evaluator(obs)
    prep = ev.stock_prep(obs.hand)
    for c in ev.unseen:
        hv = Evaluator(obs).hand_value((*obs.hand, c), quick=False)
        value, dead = ev.after_draw(prep, obs.hand, c)
        assert abs(value - hv.value) < 1e-9
        assert dead == (0 if hv.ends is not None else hv.options[0].keep.deadwood)


@given(st.integers(0, 10_000), st.integers(1, 125))
@settings(max_examples=60, deadline=None)
def test_the_stock_order_is_the_seeded_shuffle(seed: int, n: int) -> None:
    """The memoised stock order is exactly ``random.Random(seed).shuffle`` of the cards."""
    cards = random.Random(n).sample(range(125), n)
    want = list(cards)
    random.Random(seed).shuffle(want)
    assert [cards[i] for i in _order(seed, n)] == want
