"""Side-by-side deadwood benchmark against RLCard and OpenSpiel (speed and agreement).

Compares our Three Thirteen search (``engine.standard.deadwood.min_deadwood`` and
``engine.standard.arrange.best_arrangement``) with two public gin-rummy implementations on the same
10- and 11-card one-deck Three Thirteen hands that hold no wild card, so that the meld rules are
exactly gin rummy's (sets of 3-4 of a rank, runs of 3+ in a suit, aces low, A=1, 2-10 face,
J/Q/K=10 -- T13-3 with ``aces: low``):

* RLCard 1.2.0 -- ``rlcard.games.gin_rummy.utils.melding`` (pure Python). For 10 cards we call
  ``get_best_meld_clusters`` + ``utils.get_deadwood_count`` exactly as RLCard's own scorer does.
  Both refuse any hand that is not 10 cards, so for 11 cards we run RLCard's cluster search
  ``get_meld_clusters`` and take the minimum of the same per-cluster deadwood sum (the loop of
  ``get_best_meld_clusters`` without its size check, valued with ``utils.get_deadwood_value``).
  Its search stops at 3 melds, which is exact up to 11 cards.
* OpenSpiel -- ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 13).min_deadwood`` (C++). ``hand_size``
  is 13, larger than every hand, so it never subtracts a discard (it does so only when the hand
  holds ``hand_size + 1`` cards). Its cards are ``suit * 13 + rank`` with suits s, c, d, h.

Hands: each hand picks a Three Thirteen round whose deal (+1 drawn card) allows the hand size
and draws no card of that round's wild rank (T13-1: wild rank = round + 1). Two hand sets:
``random`` (uniform over the 48 non-wild cards) and ``meld-rich`` (drawn from a pool of a few
consecutive non-wild ranks in a few suits: 4x3, 5x3 or 6x2). Every library's card objects are
built once, before timing; only the deadwood computation over the prepared hands is timed
(garbage collector off, best of ``--repeat`` runs, after a short untimed warm-up).

An exact memoised brute-force search (untimed) arbitrates any disagreement. Exit status is 1
when two available solvers disagree on some hand, 0 otherwise.

Run from the repository root::

    python -m bench.bench_peers            # 2,000 hands per set and size
    python -m bench.bench_peers --quick    # 200 hands per set and size
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.core import accelerators
from engine.core.cards import POINTS, RANK_OF, SUIT_OF, card_name

HandSpec = tuple[int, tuple[int, ...]]
"""A benchmark hand: (Three Thirteen round number, cards in our encoding, in dealt order)."""

DEFAULT_N = 2000
QUICK_N = 200
DEFAULT_SEED = 20260213
SIZES = (10, 11)
HAND_SETS = ("random", "meld-rich")
MELD_RICH_SHAPES = ((4, 3), (5, 3), (6, 2))  # (consecutive ranks, suits) of the card pool
RLCARD_TARGET_RATIO = 1.5
OPENSPIEL_HAND_SIZE = 13  # > every benchmarked hand: min_deadwood then never drops a discard
OPENSPIEL_SUIT = (0, 3, 2, 1)  # our suit S H D C -> OpenSpiel suit index in "s c d h"
WARMUP_HANDS = 20

OURS_MD = "ours min_deadwood"
OURS_BA = "ours best_arrangement"
RLCARD = "RLCard"
OPENSPIEL = "OpenSpiel"
OURS = (OURS_MD, OURS_BA)
PEERS = (RLCARD, OPENSPIEL)


def wild_rank(round_number: int) -> int:
    """T13-1: the wild rank index of a round (round 1 -> threes = 2, round 11 -> kings = 12)."""
    return round_number + 1


def rounds_for(size: int) -> range:
    """Rounds whose hands may hold ``size`` cards: the deal (round + 2) plus one drawn card."""
    return range(max(1, size - 3), 12)


def random_hand(rng: random.Random, size: int) -> HandSpec:
    """A uniformly random ``size``-card hand with no card of its round's wild rank."""
    round_number = rng.choice(rounds_for(size))
    wild = wild_rank(round_number)
    pool = [c for c in range(52) if RANK_OF[c] != wild]
    return round_number, tuple(rng.sample(pool, size))


def meld_rich_hand(rng: random.Random, size: int) -> HandSpec:
    """A ``size``-card hand drawn from a few consecutive non-wild ranks in a few suits."""
    round_number = rng.choice(rounds_for(size))
    wild = wild_rank(round_number)
    while True:
        width, suit_count = rng.choice(MELD_RICH_SHAPES)
        start = rng.randrange(0, 13 - width + 1)
        ranks = range(start, start + width)
        if wild in ranks or width * suit_count < size:
            continue
        suits = rng.sample(range(4), suit_count)
        pool = [s * 13 + r for s in suits for r in ranks]
        return round_number, tuple(rng.sample(pool, size))


def make_hands(hand_set: str, size: int, count: int, seed: int) -> list[HandSpec]:
    """``count`` hands of ``size`` cards for ``hand_set``, reproducible from ``seed``."""
    rng = random.Random(f"{seed}/{hand_set}/{size}")
    maker = random_hand if hand_set == "random" else meld_rich_hand
    return [maker(rng, size) for _ in range(count)]


def hand_text(cards: Sequence[int]) -> str:
    """Our notation of a hand, cards in ascending suit/rank order: ``AS 2S 3S 10H ...``."""
    return " ".join(card_name(c) for c in sorted(cards))


# --------------------------------------------------------------------------------------------
# Exact reference (untimed): memoised search over gin-rummy melds, aces low, no wilds.


def gin_melds(cards: Sequence[int]) -> list[int]:
    """Every gin-rummy meld inside ``cards`` as a bit mask over card ints (bit ``1 << card``)."""
    present = set(cards)
    melds: list[int] = []
    for rank in range(13):
        group = [s * 13 + rank for s in range(4) if s * 13 + rank in present]
        if len(group) >= 3:
            full = sum(1 << c for c in group)
            melds.append(full)
            if len(group) == 4:
                melds.extend(full & ~(1 << c) for c in group)
    for suit in range(4):
        rank = 0
        while rank < 13:
            end = rank
            while end < 13 and suit * 13 + end in present:
                end += 1
            for lo in range(rank, end):
                for hi in range(lo + 3, end + 1):
                    melds.append(sum(1 << (suit * 13 + r) for r in range(lo, hi)))
            rank = end + 1
    return melds


def exact_deadwood(cards: Sequence[int]) -> int:
    """The minimum deadwood points of ``cards`` under gin-rummy rules, by exhaustive search."""
    melds = gin_melds(cards)
    by_card: dict[int, list[int]] = {c: [m for m in melds if m >> c & 1] for c in cards}

    @cache
    def solve(mask: int) -> int:
        if not mask:
            return 0
        low = (mask & -mask).bit_length() - 1
        best = POINTS[low] + solve(mask & ~(1 << low))
        for meld in by_card[low]:
            if meld & mask == meld:
                best = min(best, solve(mask & ~meld))
        return best

    return solve(sum(1 << c for c in cards))


# --------------------------------------------------------------------------------------------
# Solvers: each prepares its inputs once (untimed) and runs a batch (timed).


@dataclass
class Solver:
    """One deadwood implementation: ``prepare`` builds its inputs, ``run`` computes a batch."""

    name: str
    version: str
    prepare: Callable[[list[HandSpec]], list[Any]]
    run: Callable[[list[Any]], list[int]]
    explain: Callable[[HandSpec], str] | None = None


@dataclass
class Loaded:
    """The solvers that imported, and a message for each one that did not."""

    solvers: dict[str, Solver] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)


def load_ours(loaded: Loaded) -> None:
    """Add our ``min_deadwood`` and ``best_arrangement`` (T13 context, aces low) if importable."""
    try:
        from engine.core.options import ThreeThirteenRules
        from engine.standard.arrange import best_arrangement
        from engine.standard.deadwood import min_deadwood
        from engine.standard.melds import t13_context
    except Exception as exc:  # report any import failure and carry on
        for name in OURS:
            loaded.failures[name] = f"import failed: {type(exc).__name__}: {exc}"
        return
    rules = ThreeThirteenRules(aces="low")
    contexts = {r: t13_context(r, rules) for r in range(1, 12)}

    def prepare(hands: list[HandSpec]) -> list[Any]:
        return [(tuple(cards), contexts[r]) for r, cards in hands]

    def run_md(prepared: list[Any]) -> list[int]:
        return [min_deadwood(cards, ctx) for cards, ctx in prepared]

    def run_ba(prepared: list[Any]) -> list[int]:
        return [best_arrangement(cards, ctx).best.deadwood_points for cards, ctx in prepared]

    def explain(hand: HandSpec) -> str:
        best = best_arrangement(hand[1], contexts[hand[0]]).best
        melds = " | ".join(hand_text(m.cards) for m in best.melds) or "-"
        return f"melds {melds}; deadwood {hand_text(best.deadwood) or '-'}"

    compiled = accelerators.loaded()["engine.standard._deadwood"]
    path = "local, compiled" if compiled else "local, pure Python"
    loaded.solvers[OURS_MD] = Solver(OURS_MD, path, prepare, run_md, explain)
    loaded.solvers[OURS_BA] = Solver(OURS_BA, "local", prepare, run_ba, explain)


def load_rlcard(loaded: Loaded) -> None:
    """Add RLCard's gin-rummy cluster search if ``rlcard`` imports."""
    try:
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as rl_utils

        version = importlib.metadata.version("rlcard")
    except Exception as exc:  # report any import failure and carry on
        loaded.failures[RLCARD] = f"import failed: {type(exc).__name__}: {exc}"
        return
    # RLCard's card id is rank_id + 13 * suit_id with ranks A..K and suits S H D C: ours exactly.
    # get_card returns the shared deck objects, as RLCard's own game hands do.
    for c in range(52):
        card = rl_utils.get_card(c)
        if rl_utils.get_card_id(card) != c or str(card) != card_name(c).replace("10", "T"):
            raise AssertionError(f"RLCard card mapping broken at {card_name(c)}: {card}")
    get_meld_clusters = melding.get_meld_clusters
    get_best_meld_clusters = melding.get_best_meld_clusters
    get_deadwood_count = rl_utils.get_deadwood_count
    get_deadwood_value = rl_utils.get_deadwood_value

    def prepare(hands: list[HandSpec]) -> list[Any]:
        return [[rl_utils.get_card(c) for c in cards] for _r, cards in hands]

    def deadwood_any_size(hand: list[Any]) -> int:
        """get_best_meld_clusters + get_deadwood_count without their 10-card check."""
        best: int = sum(get_deadwood_value(card) for card in hand)
        for cluster in get_meld_clusters(hand=hand):
            meld_cards = [card for pile in cluster for card in pile]
            count = sum(get_deadwood_value(card) for card in hand if card not in meld_cards)
            best = min(best, count)
        return best

    def run(prepared: list[Any]) -> list[int]:
        out: list[int] = []
        for hand in prepared:
            if len(hand) == 10:
                clusters = get_best_meld_clusters(hand=hand)
                out.append(get_deadwood_count(hand, clusters[0] if clusters else []))
            else:
                out.append(deadwood_any_size(hand))
        return out

    def explain(hand: HandSpec) -> str:
        cards = [rl_utils.get_card(c) for c in hand[1]]
        clusters = get_meld_clusters(hand=cards)
        total = sum(get_deadwood_value(card) for card in cards)
        best: list[list[Any]] = []
        for cluster in clusters:
            melded = [card for pile in cluster for card in pile]
            count = sum(get_deadwood_value(card) for card in cards if card not in melded)
            if count < total:
                total, best = count, cluster
        melds = [sorted(rl_utils.get_card_id(card) for card in pile) for pile in best]
        return "melds " + (" | ".join(hand_text(m) for m in melds) or "-")

    loaded.solvers[RLCARD] = Solver(RLCARD, version, prepare, run, explain)


def load_openspiel(loaded: Loaded) -> None:
    """Add OpenSpiel's C++ ``GinRummyUtils.min_deadwood`` if ``pyspiel`` imports."""
    try:
        import pyspiel

        version = importlib.metadata.version("open-spiel")
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, OPENSPIEL_HAND_SIZE)
    except Exception as exc:  # report any import failure and carry on
        loaded.failures[OPENSPIEL] = f"import failed: {type(exc).__name__}: {exc}"
        return
    to_os = tuple(OPENSPIEL_SUIT[SUIT_OF[c]] * 13 + RANK_OF[c] for c in range(52))
    from_os = {os_card: c for c, os_card in enumerate(to_os)}
    for c in range(52):
        expected = card_name(c).replace("10", "T")
        if utils.card_string(to_os[c]) != expected[:-1] + expected[-1].lower():
            raise AssertionError(f"OpenSpiel card mapping broken at {card_name(c)}")
    min_deadwood = utils.min_deadwood

    def prepare(hands: list[HandSpec]) -> list[Any]:
        return [[to_os[c] for c in cards] for _r, cards in hands]

    def run(prepared: list[Any]) -> list[int]:
        return [min_deadwood(hand) for hand in prepared]

    def explain(hand: HandSpec) -> str:
        group = utils.best_meld_group([to_os[c] for c in hand[1]])
        melds = [sorted(from_os[c] for c in meld) for meld in group]
        return "melds " + (" | ".join(hand_text(m) for m in melds) or "-")

    loaded.solvers[OPENSPIEL] = Solver(OPENSPIEL, version, prepare, run, explain)


def load_all() -> Loaded:
    """Every solver that imports; failures are recorded, never raised."""
    loaded = Loaded()
    load_ours(loaded)
    load_rlcard(loaded)
    load_openspiel(loaded)
    return loaded


# --------------------------------------------------------------------------------------------
# Timing and reporting.


def time_once(solver: Solver, prepared: list[Any]) -> tuple[float, list[int]]:
    """Wall time of one run of ``solver`` over ``prepared`` (garbage collector off), answers."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        answers = solver.run(prepared)
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return elapsed, answers


def time_solvers(
    solvers: dict[str, Solver], hands: list[HandSpec], repeat: int
) -> tuple[dict[str, float], dict[str, list[int]]]:
    """Best of ``repeat`` timed runs per solver, and its answers.

    Inputs are prepared before any timing; each solver gets an untimed warm-up; the repeats are
    interleaved (every solver once, then again) so a burst of load on the machine hits all of
    them alike. A solver that raises is reported and dropped.
    """
    prepared: dict[str, list[Any]] = {}
    for name, solver in solvers.items():
        try:
            prepared[name] = solver.prepare(hands)
            solver.run(prepared[name][:WARMUP_HANDS])
        except Exception as exc:  # one broken solver must not stop the others
            print(f"  {name}: FAILED: {type(exc).__name__}: {exc}")
            prepared.pop(name, None)
    best: dict[str, float] = {}
    answers: dict[str, list[int]] = {}
    for _ in range(repeat):
        for name in list(prepared):
            try:
                elapsed, answers[name] = time_once(solvers[name], prepared[name])
            except Exception as exc:  # one broken solver must not stop the others
                print(f"  {name}: FAILED while running: {type(exc).__name__}: {exc}")
                del prepared[name]
                answers.pop(name, None)
                best.pop(name, None)
                continue
            best[name] = min(best.get(name, float("inf")), elapsed)
    return best, answers


@dataclass
class SetResult:
    """Figures of one hand set and size."""

    hand_set: str
    size: int
    rate: dict[str, float]
    disagreements: int


def run_set(
    loaded: Loaded, hand_set: str, size: int, count: int, seed: int, repeat: int, show: int
) -> SetResult:
    """Benchmark every loaded solver on one hand set and size; print the figures."""
    hands = make_hands(hand_set, size, count, seed)
    print(f"\n== {hand_set} hands, {size} cards, {count} hands (seed {seed}) ==")
    elapsed, answers = time_solvers(loaded.solvers, hands, repeat)
    rate = {name: count / t if t > 0 else float("inf") for name, t in elapsed.items()}
    reference = [exact_deadwood(cards) for _r, cards in hands]

    ours = [n for n in OURS if n in rate]
    head = f"  {'solver':<24}{'hands/s':>12}{'us/hand':>10}{'wrong':>7}"
    head += "".join(f"{'x ' + n.split()[-1]:>20}" for n in ours)
    print(head)
    for name, hps in rate.items():
        wrong = sum(a != b for a, b in zip(answers[name], reference, strict=True))
        line = f"  {name:<24}{hps:>12,.0f}{1e6 / hps:>10.1f}{wrong:>7}"
        if name in PEERS:
            line += "".join(f"{rate[o] / hps:>19.2f}x" for o in ours)
        print(line)
    for name in loaded.failures:
        print(f"  {name:<24}unavailable (see above)")
    print("  ('wrong' = hands whose deadwood differs from the exact brute-force reference;")
    print("   'x ...' columns = our hands/second divided by that peer's)")

    names = list(answers)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    differing: set[int] = set()
    for a, b in pairs:
        bad = [i for i, (x, y) in enumerate(zip(answers[a], answers[b], strict=True)) if x != y]
        differing.update(bad)
        print(f"  deadwood differs, {a} vs {b}: {len(bad)} of {count} hands")
    for i in sorted(differing)[:show]:
        round_number, cards = hands[i]
        values = ", ".join(f"{n} {answers[n][i]}" for n in names)
        print(f"  ! round {round_number}, hand {hand_text(cards)}: {values}, exact {reference[i]}")
        for name in names:
            explain = loaded.solvers[name].explain
            if explain is not None and name != OURS_MD:
                print(f"      {name}: {explain(hands[i])}")
    return SetResult(hand_set, size, rate, len(differing))


def summarise(results: list[SetResult]) -> None:
    """Print the targets: identical deadwood everywhere, >= 1.5x RLCard's hands/second, and
    (the stretch) ``min_deadwood`` at least as fast as OpenSpiel's C++ on every set."""
    print("\n== targets ==")
    total = sum(r.disagreements for r in results)
    verdict = "PASS" if total == 0 else "FAIL"
    print(f"  identical deadwood on every hand: {verdict} ({total} hands with a disagreement)")
    for ours in OURS:
        for r in results:
            if ours not in r.rate or RLCARD not in r.rate:
                print(f"  {ours} >= {RLCARD_TARGET_RATIO}x RLCard, {r.hand_set} {r.size}: n/a")
                continue
            ratio = r.rate[ours] / r.rate[RLCARD]
            verdict = "PASS" if ratio >= RLCARD_TARGET_RATIO else "FAIL"
            print(
                f"  {ours} >= {RLCARD_TARGET_RATIO}x RLCard, {r.hand_set} {r.size}: "
                f"{verdict} ({ratio:.2f}x)"
            )
    for r in results:
        if OURS_MD not in r.rate or OPENSPIEL not in r.rate:
            print(f"  {OURS_MD} >= 1x OpenSpiel (stretch), {r.hand_set} {r.size}: n/a")
            continue
        ratio = r.rate[OURS_MD] / r.rate[OPENSPIEL]
        verdict = "PASS" if ratio >= 1.0 else "FAIL"
        print(
            f"  {OURS_MD} >= 1x OpenSpiel (stretch), {r.hand_set} {r.size}: "
            f"{verdict} ({ratio:.2f}x)"
        )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--hands", type=int, default=None, help="hands per set and size")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_N} hands per set and size")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of random.Random")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per solver (best kept)")
    parser.add_argument("--show", type=int, default=5, help="disagreeing hands printed per set")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), choices=SIZES)
    parser.add_argument("--sets", nargs="+", default=list(HAND_SETS), choices=HAND_SETS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 1 when two available solvers disagree on some hand, else 0."""
    args = parse_args(argv)
    count = args.hands if args.hands is not None else QUICK_N if args.quick else DEFAULT_N
    loaded = load_all()
    print(f"Python {sys.version.split()[0]}; deadwood of one-deck Three Thirteen hands, no wilds")
    for name, solver in loaded.solvers.items():
        print(f"  {name}: {solver.version}")
    for name, why in loaded.failures.items():
        print(f"  {name}: UNAVAILABLE -- {why}")
    results = [
        run_set(loaded, hand_set, size, count, args.seed, max(1, args.repeat), args.show)
        for hand_set in args.sets
        for size in args.sizes
    ]
    summarise(results)
    return 1 if any(r.disagreements for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
