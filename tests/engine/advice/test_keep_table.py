"""The kept-hand table builders against the straightforward version they replaced (kept below
as the reference): the same :class:`KeepTable` on thousands of random and meld-rich kept hands of
both Tunk games (GFF-2, TT-6), from the pure-Python builder (``_build_keep_table_py``) and from
the compiled Triple Tunk one (``engine.advice.tunk._keeptable``, when built: see
``tests/engine/standard/test_accelerators.py``), which must also agree with each other on any kept
hand
and give the same advice; and the early-stopping TT-11 search against ``tt_tunk_out``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.advice.situation import Observation
from engine.advice.tunk import keeptable, value
from engine.advice.tunk.common import GFF_MODEL, TT_MODEL, GameModel
from engine.advice.tunk.completions import (
    _GFF_GROUPS,
    _bits,
    _mask,
    _tt_comp_raw,
    completions_for,
    gff_completions,
    pair_row_for,
    related_mask,
)
from engine.advice.tunk.keeptable import (
    KeepTable,
    _build_keep_table,
    _build_keep_table_py,
    _point_masks,
)
from engine.advice.tunk.value import Evaluator
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.types import TableMeld
from engine.games.tt.melds import _FEATURE as _TT_FEATURE
from engine.games.tt.melds import is_tt_meld
from engine.games.tt.play import tt_can_tunk_out, tt_tunk_out

# Per kept-hand size r: the position groups of 2..min(4, r - 1) cards, with their position masks.
_REF_SUBSETS: tuple[tuple[tuple[tuple[int, ...], int], ...], ...] = tuple(
    tuple(
        (idx, sum(1 << i for i in idx))
        for size in range(2, min(4, r - 1) + 1)
        for idx in combinations(range(r), size)
    )
    for r in range(6)
)


def _reference_keep_table(model: GameModel, rest: tuple[int, ...], rmask: int) -> KeepTable:
    """Drawing card c (worth p) and keeping it in a new meld with a group G of ``rest`` while
    throwing x (not in G) leaves ``total - G - x`` when that meld beats the best meld left in
    ``rest - x`` (else keeping c is no better than its plain value), so per (G, p) the best x
    is the highest card outside G whose remaining best meld is worth at most ``G + p``.

    A kept hand holds at most five cards, hence at most one meld (3 + 3 > 5): its deadwood is
    its total less its best meld, and the melds inside it come from the same completion masks.
    """
    pts = model.points
    comp = completions_for(model.name)
    r = len(rest)
    if r == 0:
        return KeepTable(0, 0, (), 0, 0)
    if r > 5:
        raise ValueError("a kept Tunk hand holds at most five cards")
    pr = [pts[c] for c in rest]
    total = sum(pr)
    index = {c: i for i, c in enumerate(rest)}
    groups: list[tuple[int, int, int, int]] = []  # (positions mask, size, points, outside mask)
    inside: dict[int, int] = {}  # melds inside rest: position mask -> points
    tt = model.name != GAME_FLIP_FLOP
    feats = [_TT_FEATURE[c] for c in rest] if tt else []
    pair_row = pair_row_for(model.name)
    # A card related to no other card of rest is in no group with completions (see
    # related_mask): only groups of "live" cards are searched.
    live = 0
    for i, c in enumerate(rest):
        if related_mask(model.name, c) & rmask:
            live |= 1 << i
    for idx, pmask in _REF_SUBSETS[r]:
        if pmask & ~live:
            continue
        k = len(idx)
        if k == 2:
            cm = pair_row(rest[idx[0]])[rest[idx[1]]]
            g = pr[idx[0]] + pr[idx[1]]
        elif tt:  # tt_completions without building the group tuple
            f = gm = g = 0
            for i in idx:
                f |= feats[i]
                gm |= 1 << rest[i]
                g += pr[i]
            cm = _tt_comp_raw(f, k) & ~gm
        else:  # gff_completions: memoised on the group's card mask
            gm = g = 0
            for i in idx:
                gm |= 1 << rest[i]
                g += pr[i]
            got = _GFF_GROUPS.get(gm)
            cm = got if got is not None else gff_completions(tuple(rest[i] for i in idx))
        if not cm:
            continue
        own = cm & rmask
        if own:
            for c in _bits(own):
                inside[pmask | 1 << index[c]] = g + pr[index[c]]
        out = cm & ~rmask
        if out:
            groups.append((pmask, k, g, out))
    best_all = max(inside.values(), default=0)
    base = total - best_all
    b_x = [max((v for m, v in inside.items() if not m >> i & 1), default=0) for i in range(r)]
    best_drop = min(total - pr[i] - b_x[i] for i in range(r))
    order = sorted(range(r), key=lambda i: -pr[i])
    pmasks = _point_masks(model)
    records: list[tuple[int, int, int]] = []  # (value after the draw, plain value, card mask)
    empties = 0
    full = (1 << r) - 1
    plains = [(p, pm, base if best_drop + p > base else best_drop + p) for p, pm in pmasks]
    for gmask, k, g, cmask in groups:
        if not inside:  # no meld left to keep: throw the highest card outside the group
            v = total - g - pr[next(i for i in order if not gmask >> i & 1)]
            for _p, pm, plain in plains:
                if v < plain:
                    m = cmask & pm
                    if m:
                        records.append((v, plain, m))
        else:
            for p, pm, plain in plains:
                m = cmask & pm
                if not m:
                    continue
                for i in order:
                    if not gmask >> i & 1 and b_x[i] <= g + p:
                        v = total - g - pr[i]
                        if v < plain:
                            records.append((v, plain, m))
                        break
        if r == 5 and k == 2:
            left = full & ~gmask
            if left in inside:
                empties |= cmask  # two melds of three after the draw
    if r == 2:
        empties |= comp(rest) & ~rmask  # one meld of three after the draw
    records.sort()
    gains: dict[int, int] = {}
    outs_extra = 0
    assigned = 0
    for v, plain, m in records:
        new = m & ~assigned
        if not new:
            continue
        assigned |= new
        gains[plain - v] = gains.get(plain - v, 0) | new
        if v < base <= plain:
            outs_extra |= new
        if v == 0:
            empties |= new
    return KeepTable(base, best_drop, tuple(sorted(gains.items())), outs_extra, empties)


def _meld_rich(rng: random.Random, model: GameModel, size: int) -> tuple[int, ...]:
    """A kept hand grown card by card from the completions of what it holds (so it usually
    holds a meld, or a group one card short of one), topped up with random cards."""
    comp = completions_for(model.name)
    deck = model.deck
    hand = list(rng.sample(deck, min(2, size)))
    while len(hand) < size:
        grow = [hand] if len(hand) <= 4 else []
        cands = 0
        for group in grow:
            for k in range(min(4, len(group)), 1, -1):
                for sub in combinations(group, k):
                    cands |= comp(sub)
                if cands:
                    break
        cands &= ~_mask(hand)
        if cands and rng.random() < 0.8:
            hand.append(rng.choice(_bits(cands)))
        else:
            hand.append(rng.choice([c for c in deck if c not in hand]))
    return tuple(hand)


Builder = Callable[[GameModel, tuple[int, ...], int], KeepTable]

needs_accelerator = pytest.mark.skipif(
    keeptable._ACCEL is None,
    reason="engine.advice.tunk._keeptable not built (no C compiler, or TUNK_PURE_PYTHON)",
)


@pytest.mark.parametrize(
    "builder",
    [
        pytest.param(_build_keep_table_py, id="python"),
        pytest.param(_build_keep_table, id="compiled", marks=needs_accelerator),
    ],
)
@pytest.mark.parametrize("model", [GFF_MODEL, TT_MODEL], ids=["gff", "tt"])
@pytest.mark.parametrize("rich", [False, True], ids=["random", "meld-rich"])
def test_builder_matches_the_reference(builder: Builder, model: GameModel, rich: bool) -> None:
    _build_keep_table = builder  # noqa: N806 - the builder under test
    rng = random.Random(7 if rich else 3)
    checked = melded = 0
    for n in range(2500):
        size = 5 if n % 5 else rng.randint(1, 4)
        hand = _meld_rich(rng, model, size) if rich else tuple(rng.sample(model.deck, size))
        rest = tuple(sorted(hand))
        rmask = _mask(rest)
        shuffled = list(rest)
        rng.shuffle(shuffled)  # the builder takes the cards in any order
        got = _build_keep_table(model, tuple(shuffled), rmask)
        want = _reference_keep_table(model, rest, rmask)
        assert got == want, rest
        checked += 1
        melded += got.base < model.total(rest)
    assert checked == 2500
    if rich:  # the meld-rich hands exercise the "meld kept" branch often
        assert melded > 800


@needs_accelerator
@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 124), min_size=1, max_size=5, unique=True), st.randoms())
def test_compiled_and_python_builders_agree(cards: list[int], rng: random.Random) -> None:
    """Any 1..5 distinct Triple Tunk cards, in any order: the same table from both builders."""
    rest = tuple(cards)
    want = _build_keep_table_py(TT_MODEL, rest, _mask(rest))
    rng.shuffle(cards)
    assert keeptable.KeepTable._make(keeptable._ACCEL.build(tuple(cards))) == want  # type: ignore[union-attr]
    rich = _meld_rich(rng, TT_MODEL, len(rest))
    assert _build_keep_table(TT_MODEL, rich, _mask(rich)) == _build_keep_table_py(
        TT_MODEL, rich, _mask(rich)
    )


@needs_accelerator
def test_the_advice_is_the_same_without_the_accelerator(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw and discard advice of simulated Triple Tunk situations, compiled tables vs pure
    Python (every memo emptied between the two runs): the same answers."""
    from engine.advice.tunk.common import clear_caches
    from engine.advice.tunk.discard import discard_advice
    from engine.advice.tunk.draw import draw_advice
    from engine.sim.policies import BaselinePolicy
    from engine.sim.tt import play_tt_deal

    seen: list[Observation] = []

    class Recorder(BaselinePolicy):
        def take_discard(self, obs: Observation) -> bool:
            seen.append(obs)
            return super().take_discard(obs)

    rng = random.Random(11)
    for d in range(40):
        play_tt_deal([Recorder(TRIPLE_TUNK), Recorder(TRIPLE_TUNK)], d % 2, rng)
    assert len(seen) > 100

    def answers() -> list[object]:
        clear_caches()
        value.clear_value_caches()
        out: list[object] = []
        for obs in seen:
            out.append(draw_advice(obs, seed=5))
            if obs.discards:
                after = Observation(**{**_fields(obs), "hand": (*obs.hand, obs.discards[0])})
                out.append(discard_advice(after))
        return out

    compiled = answers()
    monkeypatch.setattr(keeptable, "_ACCEL", None)
    assert answers() == compiled


def _fields(obs: Observation) -> dict[str, object]:
    return {name: getattr(obs, name) for name in obs.__dataclass_fields__}


def _tt_table(rng: random.Random, avoid: set[int]) -> tuple[TableMeld, ...]:
    """One to three random 3-card Triple Tunk melds, owned by seats 0..2."""
    melds: list[TableMeld] = []
    free = [c for c in range(125) if c not in avoid]
    rng.shuffle(free)
    for a, b, c in combinations(free[:40], 3):
        if len(melds) == rng.randint(1, 3):
            break
        if is_tt_meld((a, b, c)) and not {a, b, c} & {x for m in melds for x in m.cards}:
            melds.append(TableMeld(rng.randrange(3), (a, b, c)))
    return tuple(melds)


def test_tt_can_tunk_out_matches_tt_tunk_out() -> None:
    rng = random.Random(11)
    found = 0
    for _ in range(600):
        hand = _meld_rich(rng, TT_MODEL, rng.choice((4, 5, 6)))
        table = _tt_table(rng, set(hand))
        want = tt_tunk_out(hand, table, 0) is not None
        assert tt_can_tunk_out(hand, table, 0) == want, (hand, table)
        found += want
    assert found > 30


@pytest.mark.rule("TT-8")
def test_the_evaluators_ending_check_matches_tt_tunk_out() -> None:
    """``Evaluator._ends`` (memoised TT-8 fits, early stop) against ``tt_tunk_out`` on every
    stock card of random situations with table melds of both owners."""
    rng = random.Random(5)
    checked = found = 0
    for _ in range(60):
        hand = _meld_rich(rng, TT_MODEL, rng.choice((2, 4, 5)))
        table = _tt_table(rng, set(hand))
        used = set(hand) | {c for m in table for c in m.cards}
        obs = Observation(
            game=TRIPLE_TUNK,
            seat=0,
            dealer=2,
            n_players=3,
            hand=hand,
            table=table,
            discards=(),
            known=((), (), ()),
            hand_sizes=(len(hand), 5, 5),
            turns=(2, 2, 2),
            stock_size=125 - len(used) - 10,
        )
        ev = Evaluator(obs)
        for c in ev.unseen:
            if c in used:
                continue
            want = tt_tunk_out((*hand, c), table, 0) is not None
            assert ev._ends((*hand, c)) == want, (hand, c, table)
            checked += 1
            found += want
    assert checked > 5000 and found > 20
