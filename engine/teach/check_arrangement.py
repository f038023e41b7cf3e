"""Check a player's proposed arrangement against the rules and the best arrangement (teaching).

A learner lays out melds from their hand; :func:`check_arrangement` says, per proposed meld,
whether it is legal and which rule decides (GFF-2, TT-6/TT-7, T13-4, C-1), then the deadwood the
proposal leaves, how far that is from the best arrangement (C-2), and what was missed: a meld
hiding in the deadwood, a better split of the same cards, or a lay-off onto the table (GFF-3,
TT-8; Three Thirteen has none, T13-7). Every finding comes with a sentence a learner can follow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.cards import RANK_OF, SUIT_OF
from engine.core.options import Rules, ThreeThirteenRules
from engine.core.types import Arrangement, Layoff, TableMeld
from engine.games import GAME_FLIP_FLOP_GAME, THREE_THIRTEEN_GAME, TRIPLE_TUNK_GAME, Game, find_game
from engine.games.gff.play import gff_layoffs, spread_kind
from engine.games.tt.arrange import best_tt_arrangement
from engine.games.tt.melds import (
    describe_tt_meld,
    in_sequence,
    iter_tt_melds,
    matches_colour,
    matches_number,
    matches_shape,
)
from engine.games.tt.play import tt_layoffs
from engine.standard.arrange import best_arrangement
from engine.standard.melds import (
    StdContext,
    describe_meld,
    gff_context,
    iter_legal_melds,
    t13_context,
)


@dataclass(frozen=True, slots=True)
class MeldVerdict:
    """One proposed meld: legal or not, the deciding rule, its reading and why."""

    cards: tuple[int, ...]
    valid: bool
    rule: str
    kind: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class ArrangementCheck:
    """The whole verdict on a proposal (see the module doc)."""

    verdicts: tuple[MeldVerdict, ...]
    all_valid: bool
    deadwood: tuple[int, ...]
    deadwood_points: int
    best: Arrangement[Any]
    difference: int
    missed_melds: tuple[tuple[int, ...], ...]
    better_split: bool
    layoffs: tuple[Layoff, ...]
    explanation: str


LayoffsFn = Callable[[tuple[int, ...], Sequence[TableMeld], int], tuple[Layoff, ...]]


@dataclass(frozen=True, slots=True)
class _Teacher:
    """What the check needs of one game: its rule facts (``game``), how a card is named and
    counted, how a group is judged, the best arrangement, the melds inside a set of cards, and
    the lay-offs of cards onto a table (None: the game has none, T13-7)."""

    game: Game
    name: Callable[[int], str]
    points: Callable[[int], int]
    judge: Callable[[tuple[int, ...]], tuple[bool, str, str | None, str]]
    best: Callable[[tuple[int, ...]], Arrangement[Any]]
    melds_in: Callable[[tuple[int, ...]], list[tuple[int, ...]]]
    layoffs: LayoffsFn | None


def _names(cards: Sequence[int], name: Callable[[int], str]) -> str:
    return " ".join(name(c) for c in cards)


def _std_problem(cards: tuple[int, ...], ctx: StdContext, rule: str, aces_rule: str) -> str:
    """Why a standard group is no set or run, in words (``aces_rule``: the rule that makes aces
    low only)."""
    n = len(cards)
    if n < 3:
        return f"a meld needs at least 3 cards, this has {n} ({rule})"
    natural = [c for c in cards if not ctx.is_wild(c)]
    ranks = {RANK_OF[c] for c in natural}
    suits = {SUIT_OF[c] for c in natural}
    if len(ranks) <= 1 and ctx.max_set is not None and n > ctx.max_set:
        return f"a set has at most {ctx.max_set} cards ({rule})"
    if len(suits) > 1 and len(ranks) > 1:
        return f"the cards differ in rank and in suit: neither a set nor a run ({rule})"
    if len(ranks) < len(natural):
        return f"a run uses each rank once ({rule})"
    if 0 in ranks and 12 in ranks and not ctx.aces_high:
        return f"aces are low only: Q-K-A is not a run ({aces_rule})"
    return f"the ranks are not consecutive and there are not enough wilds to fill the gaps ({rule})"


def _std_judge(
    ctx: StdContext, rule: str, aces_rule: str
) -> Callable[..., tuple[bool, str, str | None, str]]:
    def judge(cards: tuple[int, ...]) -> tuple[bool, str, str | None, str]:
        meld = describe_meld(cards, ctx)
        if ctx.wild_rank is None and meld is not None and spread_kind(cards) is None:
            meld = None  # GFF-2 has no wilds: describe_meld agrees, this is belt and braces
        if meld is None:
            problem = _std_problem(cards, ctx, rule, aces_rule)
            rule_id = problem[problem.rfind("(") + 1 : -1]
            return False, rule_id, None, problem
        wilds = f" with {len(meld.wilds)} wild card(s)" if meld.wilds else ""
        return True, rule, meld.kind, f"a legal {meld.kind}{wilds} ({rule})"

    return judge


def _tt_judge(cards: tuple[int, ...]) -> tuple[bool, str, str | None, str]:
    meld = describe_tt_meld(cards)
    if meld is not None:
        if meld.special:
            return True, "TT-7", "special", "a legal special meld (TT-7)"
        return True, "TT-6", "meld", "a legal meld (TT-6)"
    n = len(cards)
    if not 3 <= n <= 5:
        return False, "TT-6", None, f"a meld has 3 to 5 cards, this has {n} (TT-6)"
    matched = [
        name
        for name, ok in (
            ("colour", matches_colour(cards)),
            ("shape", matches_shape(cards)),
            ("number", matches_number(cards)),
        )
        if ok
    ]
    seq = in_sequence(cards)
    what = ", ".join(matched) if matched else "nothing"
    return (
        False,
        "TT-6",
        None,
        f"it matches in {what}{' and is in sequence' if seq else ''}; a meld needs two matches, "
        "or a sequence plus a colour or shape match (TT-6)",
    )


def _std_teacher(
    game: Game, ctx: StdContext, aces_rule: str, layoffs: LayoffsFn | None
) -> _Teacher:
    """A standard-deck game's teacher for the rules ``ctx`` (GFF-2, T13-3/T13-4)."""
    return _Teacher(
        game,
        game.deck.name,
        ctx.points,
        _std_judge(ctx, game.meld_rule, aces_rule),
        lambda hand: best_arrangement(hand, ctx).best,
        lambda cards: [m.cards for m in iter_legal_melds(cards, ctx)],
        layoffs,
    )


def _gff_layoffs(
    deadwood: tuple[int, ...], table: Sequence[TableMeld], seat: int
) -> tuple[Layoff, ...]:
    """GFF-3: any player may lay off on any spread, so the seat does not matter."""
    return gff_layoffs(deadwood, table)


def _gff_teacher(game: Game, rules: Rules, round_number: int | None) -> _Teacher:
    """Game Flip Flop: no wilds, aces low (GFF-2), lay-offs on spreads (GFF-3)."""
    return _std_teacher(game, gff_context(), "GFF-2", _gff_layoffs)


def _t13_teacher(game: Game, rules: Rules, round_number: int | None) -> _Teacher:
    """Three Thirteen: the round's wild rank and the aces option (T13-3), no lay-offs (T13-7).

    :raises ValueError: without the round or with another game's rules.
    """
    if round_number is None or not isinstance(rules, ThreeThirteenRules):
        raise ValueError("Three Thirteen needs its round and rules")
    return _std_teacher(game, t13_context(round_number, rules), "T13-3", None)


def _tt_teacher(game: Game, rules: Rules, round_number: int | None) -> _Teacher:
    """Triple Tunk: Triple Topper melds (TT-6, TT-7) and lay-offs (TT-8)."""
    return _Teacher(
        game,
        game.deck.name,
        lambda c: game.deck.points[c],
        _tt_judge,
        lambda hand: best_tt_arrangement(hand).best,
        lambda cards: [m.cards for m in iter_tt_melds(cards)],
        tt_layoffs,
    )


_TEACHERS: dict[str, Callable[[Game, Rules, int | None], _Teacher]] = {
    GAME_FLIP_FLOP_GAME.slug: _gff_teacher,
    TRIPLE_TUNK_GAME.slug: _tt_teacher,
    THREE_THIRTEEN_GAME.slug: _t13_teacher,
}
"""Each game's teacher, by slug: the play code a :class:`Game` may not import (its module sits
below the play modules), registered here above them."""


def _take(pool: Counter[int], cards: tuple[int, ...]) -> int | None:
    """Remove ``cards`` from ``pool``, or return a card it lacks (then nothing is taken)."""
    need = Counter(cards)
    for card, count in need.items():
        if pool[card] < count:
            return card
    pool.subtract(need)
    return None


def check_arrangement(
    game: str,
    hand: Sequence[int],
    melds: Sequence[Sequence[int]],
    rules: Rules,
    *,
    round_number: int | None = None,
    table: Sequence[TableMeld] = (),
    seat: int = 0,
) -> ArrangementCheck:
    """Judge the proposed ``melds`` (groups of cards from ``hand``) and compare with the best.

    A meld using a card the hand does not hold (or holds fewer times) is invalid under C-1; its
    cards, like those of any invalid meld, count as deadwood. ``table`` (Game Flip Flop, Triple
    Tunk) lets the check name deadwood cards that could be laid off.

    :raises ValueError: Three Thirteen without ``round_number``.
    :raises UnknownGameError: ``game`` is no game's slug.
    """
    found = find_game(game)
    g = _TEACHERS[found.slug](found, rules, round_number)
    hand_t = tuple(sorted(hand))
    pool: Counter[int] = Counter(hand_t)
    verdicts: list[MeldVerdict] = []
    for raw in melds:
        cards = tuple(sorted(raw))
        missing = _take(pool, cards)
        if missing is not None:
            verdicts.append(
                MeldVerdict(
                    cards,
                    False,
                    "C-1",
                    None,
                    f"{g.name(missing)} is not in the hand (or is already used by another meld); "
                    "a card belongs to one meld at most (C-1)",
                )
            )
            continue
        valid, rule, kind, reason = g.judge(cards)
        if not valid:
            pool.update(cards)  # an illegal group stays in the hand as deadwood
        verdicts.append(MeldVerdict(cards, valid, rule, kind, reason))
    deadwood = tuple(sorted(pool.elements()))
    points = sum(g.points(c) for c in deadwood)
    best = g.best(hand_t)
    difference = points - best.deadwood_points
    missed = tuple(g.melds_in(deadwood))
    better_split = difference > 0 and not missed
    layoffs: tuple[Layoff, ...] = ()
    if table and deadwood and g.layoffs is not None:
        layoffs = g.layoffs(deadwood, table, seat)
    explanation = _explain(
        g, verdicts, deadwood, points, best, difference, missed, better_split, layoffs
    )
    return ArrangementCheck(
        verdicts=tuple(verdicts),
        all_valid=all(v.valid for v in verdicts),
        deadwood=deadwood,
        deadwood_points=points,
        best=best,
        difference=difference,
        missed_melds=missed[:5],
        better_split=better_split,
        layoffs=layoffs,
        explanation=explanation,
    )


def _explain(
    g: _Teacher,
    verdicts: Sequence[MeldVerdict],
    deadwood: tuple[int, ...],
    points: int,
    best: Arrangement[Any],
    difference: int,
    missed: Sequence[tuple[int, ...]],
    better_split: bool,
    layoffs: Sequence[Layoff],
) -> str:
    """The learner's summary: what is wrong, what it leaves, what was missed."""
    parts: list[str] = []
    bad = [v for v in verdicts if not v.valid]
    for v in bad:
        parts.append(f"{_names(v.cards, g.name) or 'An empty group'} is not a meld: {v.reason}.")
    if verdicts and not bad:
        parts.append("Every meld you laid out is legal.")
    left = _names(deadwood, g.name) if deadwood else "nothing"
    parts.append(f"Your arrangement leaves {points} point(s) of deadwood ({left}).")
    if difference == 0:
        parts.append("That is the best possible (C-2).")
    else:
        best_left = _names(best.deadwood, g.name) or "nothing"
        parts.append(
            f"The best arrangement leaves {best.deadwood_points} ({best_left}), "
            f"{difference} fewer (C-2)."
        )
        if missed:
            rule = g.game.meld_rule
            parts.append(
                f"You missed a meld in your deadwood: {_names(missed[0], g.name)} ({rule})."
            )
        elif better_split:
            melds = "; ".join(_names(m.cards, g.name) for m in best.melds)
            parts.append(f"Split the cards differently: {melds}.")
    if layoffs:
        first = layoffs[0]
        parts.append(
            f"You could also lay off {g.name(first.card)} on table meld {first.meld_index} "
            f"({g.game.layoff_rule})."
        )
    return " ".join(parts)
