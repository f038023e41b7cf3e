"""Paired A/B of an advice setting: the same deals (or games) played with and without a change.

    python -m bench.paired --game triple-tunk --players 3 --styles strong,never \\
        --set engine.advice.tunk.value.DANGER_POINTS=8.0 --deals 1200 --seed 2
    python -m bench.paired --game three-thirteen --players 2 --styles strong,greedy \\
        --set engine.advice.t13.value.GO_OUT_WEIGHT=9.0 --deals 300 --seed 21

Every deal (Three Thirteen: every whole game) is played twice from the same seeds as the
tournaments (``bench.tournament.deal_seed``, ``bench.tournament_t13.play_one``): once with the
advice as it is, once with each ``--set module.NAME=value`` applied while the advised seat
decides, and only then, so panel players that share the advisor's code (the Tunk games'
``strong``) keep playing as before. Only decisions the change alters make the two plays differ,
so the paired difference is far less noisy than two separate tournaments: at 1,200 Triple Tunk
deals its 95% interval on the share difference was +-0.002 to +-0.013, where two separate
tournaments of that size give about +-0.04.

Prints per style: deals whose result changed, the mean net and top-place share without and
with the change, and the paired differences with their 95% intervals.

``--set`` replaces a module attribute, so it reaches code that reads ``module.NAME`` at call
time; a name copied elsewhere by ``from module import NAME``, or bound as a default argument,
keeps its old value there (set it in the module that reads it). The Tunk advice's memo tables
are emptied at every switch, so no figure computed under one setting is reused under the other.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bench.tournament import deal_seed, opponents, play_deal, top_share
from bench.tournament_t13 import play_one
from engine.advice.t13 import DEFAULT_SAMPLES
from engine.advice.tunk.completions import clear_completion_caches
from engine.advice.tunk.keeptable import clear_table_caches
from engine.advice.tunk.value import clear_value_caches
from engine.core.options import GAME_FLIP_FLOP, THREE_THIRTEEN, TRIPLE_TUNK
from engine.sim.core import mean_interval
from engine.sim.policies import AdvisorPolicy, Policy
from engine.sim.t13_policies import PANEL as T13_PANEL

Override = tuple[Any, str, Any]  # (module, attribute, value)


def parse_override(text: str) -> Override:
    """``engine.advice.tunk.value.OUT_POINTS=20`` as (module, "OUT_POINTS", 20); the value is a
    Python literal. Raises ``ValueError`` naming what is wrong."""
    target, sep, raw = text.partition("=")
    module_name, dot, name = target.strip().rpartition(".")
    if not sep or not dot or not name:
        raise ValueError(f"--set {text!r}: expected module.NAME=value")
    module = importlib.import_module(module_name)
    if not hasattr(module, name):
        raise ValueError(f"--set {text!r}: {module_name} has no attribute {name}")
    try:
        value = ast.literal_eval(raw.strip())
    except (ValueError, SyntaxError) as exc:
        raise ValueError(f"--set {text!r}: the value is not a Python literal") from exc
    return module, name, value


def _clear_memos() -> None:
    clear_completion_caches()
    clear_table_caches()
    clear_value_caches()


@contextmanager
def applied(overrides: list[Override]) -> Iterator[None]:
    """The overrides in force inside the block, the old values restored after it."""
    if not overrides:
        yield
        return
    old = [(m, n, getattr(m, n)) for m, n, _ in overrides]
    for m, n, v in overrides:
        setattr(m, n, v)
    _clear_memos()
    try:
        yield
    finally:
        for m, n, v in old:
            setattr(m, n, v)
        _clear_memos()


class Patched:
    """A policy whose every decision is taken with ``overrides`` in force (the advised seat)."""

    def __init__(self, policy: Any, overrides: list[Override]) -> None:
        self._policy = policy
        self._overrides = overrides

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._policy, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            with applied(self._overrides):
                return attr(*args, **kwargs)

        return call


def tunk_deal(
    game: str, players: int, style: str, seed: int, d: int, overrides: list[Override]
) -> tuple[float, float | None]:
    """One deal of a Tunk game as ``bench.tournament`` plays it: the advised seat's game-pot net
    (stakes or units) and top-place share (None: every seat netted the same)."""
    rng = random.Random(deal_seed(seed, d, style))
    advisor: Any = AdvisorPolicy(game, random.Random(rng.getrandbits(64)))
    if overrides:
        advisor = Patched(advisor, overrides)
    policies: list[Policy] = [advisor, *opponents(game, players, style, None, rng)]
    result, unit = play_deal(game, policies, d % players, rng, None)
    return result.game_net[0] / unit, top_share(result.game_net, 0)


def t13_game(
    players: int, style: str, seed: int, g: int, overrides: list[Override]
) -> tuple[float, float | None]:
    """One whole Three Thirteen game as ``bench.tournament_t13`` plays it: the advised seat's
    net (the opponents' mean total minus its own) and its share of the win."""
    wrap = (lambda policy: Patched(policy, overrides)) if overrides else None
    share, net, _ = play_one(players, style, seed, g, DEFAULT_SAMPLES, wrap_hero=wrap)
    return net, share


@dataclass
class Pairs:
    """The paired figures of one style."""

    nets: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    shares: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    changed: int = 0


def run_style(
    play: Callable[[int, list[Override]], tuple[float, float | None]],
    deals: int,
    fair: float,
    overrides: list[Override],
) -> Pairs:
    """Every deal with and without the overrides. A deal undecided in one play and decided in
    the other counts the fair share for the undecided one, so the pairs stay pairs."""
    out = Pairs()
    for d in range(deals):
        base = play(d, [])
        new = play(d, overrides)
        if base != new:
            out.changed += 1
        if base[1] is None and new[1] is None:
            shares = None
        else:
            shares = (
                fair if base[1] is None else base[1],
                fair if new[1] is None else new[1],
            )
        for i, (net, _) in enumerate((base, new)):
            out.nets[i].append(net)
            if shares is not None:
                out.shares[i].append(shares[i])
    return out


def report(style: str, deals: int, pairs: Pairs) -> str:
    net_diff, net_lo, _ = mean_interval([b - a for a, b in zip(*pairs.nets, strict=True)])
    share_diff, share_lo, _ = mean_interval([b - a for a, b in zip(*pairs.shares, strict=True)])
    before, after = (mean_interval(xs)[0] for xs in pairs.shares)
    net_before, net_after = (mean_interval(xs)[0] for xs in pairs.nets)
    return (
        f"{style:<8} {deals} deals, {pairs.changed} changed: share {before:.3f} -> {after:.3f} "
        f"(diff {share_diff:+.4f} ±{share_diff - share_lo:.4f}), net {net_before:+.3f} -> "
        f"{net_after:+.3f} (diff {net_diff:+.3f} ±{net_diff - net_lo:.3f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--game", choices=(GAME_FLIP_FLOP, TRIPLE_TUNK, THREE_THIRTEEN), default=TRIPLE_TUNK
    )
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--styles", default="strong")
    parser.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="module.NAME=value"
    )
    parser.add_argument("--deals", type=int, default=400, help="deals (Three Thirteen: games)")
    parser.add_argument("--seed", type=int, default=2)
    ns = parser.parse_args(argv)
    if not ns.overrides:
        parser.error("give at least one --set module.NAME=value")
    try:
        overrides = [parse_override(text) for text in ns.overrides]
    except (ValueError, ImportError) as exc:
        parser.error(str(exc))
    styles = [s for s in ns.styles.split(",") if s]
    fair = 1 / ns.players
    print(f"{ns.game}, {ns.players} players, seed {ns.seed}: {' '.join(ns.overrides)}")
    for style in styles:
        if ns.game == THREE_THIRTEEN:
            if style not in T13_PANEL and style != "self":
                parser.error(f"--styles: {style} is not a Three Thirteen panel style")

            def play(d: int, ov: list[Override], s: str = style) -> tuple[float, float | None]:
                return t13_game(ns.players, s, ns.seed, d, ov)
        else:

            def play(d: int, ov: list[Override], s: str = style) -> tuple[float, float | None]:
                return tunk_deal(ns.game, ns.players, s, ns.seed, d, ov)

        print(report(style, ns.deals, run_style(play, ns.deals, fair, overrides)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
