"""Advisor tournaments for the Tunk games: against the baseline, or against an opponent panel.

    python -m bench.tournament --game game-flip-flop --players 2 --deals 2000 --seed 1

Seat 0 is the advisor (engine.sim.policies.AdvisorPolicy), every other seat the fixed-threshold
baseline; the dealer rotates every deal. Prints the advisor's share of the decisive deals (deals
where its game-pot / knock settlement is not zero) that it gained, with a 95% Wilson interval,
its top-place share (``top_share``, fair 1 / players) with a 95% interval, its mean
settlement per deal in stakes (GFF, game pot; also with the flip/flop side pots) or units (TT)
with a 95% normal interval, and the calibration of ``win_probability`` at every knock/drop
decision it faced (predicted vs. observed "strictly lowest right now", by decile; ECE and
Brier).

``--panel strong,strong0,self,never,...`` plays the advisor (seat 0) against each opponent style
of the bench panel (engine.sim.policies.PANEL_STYLES: the strong players - the advisor's card play
with a fixed knock / drop total, or none - never knocks/drops, knocks at <= 5, at <= 10, lays
every meld at once, holds melds until going out, random legal, and ``self``, the advisor in every
seat) and prints one line per (game, players, style): the advisor's share of the top place of
decisive deals (``top_share``, fair 1 / players) with its 95% interval and its ratio to fair, its
mean net per deal (all pots) with a 95% interval, the expected calibration error (ten equal
bins, count-weighted) with, in brackets, the ECE a perfectly calibrated predictor would still
read on the same decisions from sampling noise alone (``weighted_calibration_noise``: an ECE
near it says nothing either way; about 0.01 to 0.03 at 1,200 deals, so the 0.02 target needs
about 10,000 Triple Tunk deals a cell to read), the Brier score of ``win_probability`` against
the truth from the real hands, the verdict (lower bound >= 1.25 x fair and ECE <= 0.02;
self-play: fair inside the interval, and the seats net to zero, checked per deal), then the
CPU milliseconds (p50 / p99 / max) of each kind of decision. The held-out styles
(engine.sim.policies.HELD_OUT_STYLES: knock7, hoard5, strong3, strong8) play the same way when
named; they stay out of the measured panel, to check what it shows on players the advice was
not built against. Each style plays deals of its own
(``deal_seed``), so no decision is counted twice when the styles are pooled.

    python -m bench.tournament --game triple-tunk --players 3 --panel knock5,never --deals 1000

``--tables game-flip-flop:2,triple-tunk:3`` runs the panel at each of those tables in turn and
ends with the calibration gap of every decision of every table pooled.

``--record-play-on --explore 0.5`` (the advisor plays on at random half of the times it would
knock) prints the final game-pot / knock settlement after playing on by predicted p, and the
least-squares fits of it in p and the hand value (Game Flip Flop's ``knock.PLAY_ON_LINE``;
Triple Tunk's value of playing on is fitted by ``bench.play_on_fit``).

``--mix strong,strong0,self,knock5`` plays the same number of deals against each of those
panel styles instead of the baseline and pools them (the play-on fits above are made that way).

``--sweep`` instead plays the baseline thresholds against each other (round robin, heads-up)
to choose BASELINE_THRESHOLDS. ``--jobs 2`` splits the deals over processes; every deal has its
own seed, so the figures do not depend on the number of jobs.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.advice.tunk.knock import DEFAULT_SAMPLES
from engine.advice.tunk.profile import NOTHING_LEARNED, Learned, learn_from_out, learn_profiles
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import (
    Policy,
    brier_score,
    calibration_gap,
    calibration_table,
    mean_interval,
    weighted_calibration_gap,
    weighted_calibration_noise,
    wilson_interval,
)
from engine.sim.policies import (
    STYLES,
    AdvisorPolicy,
    BaselinePolicy,
    panel_policy,
)
from engine.sim.tunk import strictly_lowest

# The advised seat learns each opponent's card-play profile over the deals it plays against it
# (engine.advice.tunk.profile), as a client that sends the profiles back does.
LEARN_PROFILES = True
# ... from the hands shown at a knock or drop, and from the cards of an opponent that went out.
LEARN_FROM_OUTS = True
ECE_TARGET = 0.02  # expected calibration error of win_probability in play, every panel cell


@dataclass
class Chunk:
    game_net: list[float] = field(default_factory=list)
    full_net: list[float] = field(default_factory=list)
    ends: Counter[str] = field(default_factory=Counter)
    predicted: list[float] = field(default_factory=list)
    truth: list[bool] = field(default_factory=list)
    knocked_pred: list[float] = field(default_factory=list)
    knocked_truth: list[bool] = field(default_factory=list)
    play_on: list[tuple[float, bool, float, float]] = field(default_factory=list)
    cpu_ms: dict[str, list[float]] = field(default_factory=dict)  # per decision kind
    top_shares: list[float] = field(default_factory=list)  # per decisive deal: top_share


class TimedAdvisor(AdvisorPolicy):
    """The advisor, recording the CPU time of each decision by kind (``knock``, ``draw``,
    ``discard``) into ``times``."""

    def __init__(self, times: dict[str, list[float]], *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.times = times

    def _timed(self, kind: str, call, obs):  # type: ignore[no-untyped-def]
        t0 = time.process_time()
        answer = call(obs)
        self.times.setdefault(kind, []).append((time.process_time() - t0) * 1000)
        return answer

    def knock(self, obs):  # type: ignore[no-untyped-def]
        return self._timed("knock", super().knock, obs)

    def take_discard(self, obs):  # type: ignore[no-untyped-def]
        return self._timed("draw", super().take_discard, obs)

    def discard(self, obs):  # type: ignore[no-untyped-def]
        return self._timed("discard", super().discard, obs)


def speed_line(times: dict[str, list[float]]) -> str:
    """p50 / p99 / max CPU milliseconds per decision kind, and over every decision."""
    parts = []
    every = [t for kind in times for t in times[kind]]
    for kind, xs in (*sorted(times.items()), ("all", every)):
        if xs:
            xs = sorted(xs)
            p50, p99 = xs[len(xs) // 2], xs[min(len(xs) - 1, int(len(xs) * 0.99))]
            parts.append(f"{kind} {p50:.2f}/{p99:.1f}/{xs[-1]:.0f}")
    return "CPU ms p50/p99/max: " + ", ".join(parts)


def top_share(nets: Sequence[int], seat: int) -> float | None:
    """``seat``'s share of the deal's top place: 1 when its net is the highest alone, 1/k when
    k seats share the highest, 0 otherwise; None when every seat nets the same (no decision).
    Every seat's fair share is 1 / players whatever the game: a Triple Tunk deal can leave
    several seats with gains (a caught knocker pays each seat that tied or beat it), so the
    share of deals with a gain would have no fixed fair value."""
    best = max(nets)
    if min(nets) == best:
        return None
    top = sum(1 for v in nets if v == best)
    return 1 / top if nets[seat] == best else 0.0


def play_deal(
    game: str,
    policies: list[Policy],
    dealer: int,
    rng: random.Random,
    hook,
    carry=None,
    on_end=None,
    on_out=None,
):  # type: ignore[no-untyped-def]
    if game == GAME_FLIP_FLOP:
        from engine.sim.gff import STAKE, play_gff_deal

        flip, flop = carry if carry is not None else (0, 0)
        result, flip_out, flop_out = play_gff_deal(
            policies,
            dealer,
            rng,
            on_knock=hook,
            flip_carry=flip,
            flop_carry=flop,
            on_end=on_end,
            on_out=on_out,
        )
        if carry is not None:  # GFF-5: an unwon flop pot waits for the next deal
            carry[:] = [flip_out, flop_out]
        return result, STAKE
    from engine.sim.tt import UNIT, play_tt_deal

    return play_tt_deal(policies, dealer, rng, on_knock=hook, on_end=on_end, on_out=on_out), UNIT


@dataclass
class Memory:
    """What one learning seat knows of the others over a chunk's deals (updated in place)."""

    learned: Learned = NOTHING_LEARNED


def profile_learner(memory: Memory, seed: int, seat: int = 0):  # type: ignore[no-untyped-def]
    """The end-of-deal hook with which an advised seat (0 unless ``seat``) learns its opponents'
    card-play profiles and drop timing from the hands shown at a knock or drop
    (``engine.advice.tunk.profile``), as a client sending session state would."""

    def on_end(deal, ender: int, turn: int) -> None:  # type: ignore[no-untyped-def]
        obs = memory.learned.applied_to(deal.observation(seat, turn))
        shown = {s: tuple(h) for s, h in enumerate(deal.hands)}
        memory.learned = learn_profiles(obs, shown, ender, seed + turn + 7919 * seat)

    return on_end


def out_learner(memory: Memory, seed: int, seat: int = 0):  # type: ignore[no-untyped-def]
    """The hook with which an advised seat learns the card-play profile of an opponent that
    ended a deal by emptying its hand (``engine.advice.tunk.profile.learn_from_out``, from its
    view at the start of that turn)."""

    def on_out(deal, tunker: int, turn: int, revealed, picked) -> None:  # type: ignore[no-untyped-def]
        obs = memory.learned.applied_to(deal.observation(seat, turn))
        memory.learned = learn_from_out(obs, tunker, revealed, picked, seed + turn + 7919 * seat)

    return on_out


def learning_seats(policies: Sequence[Policy], style: str | None) -> list[int]:
    """The seats that learn profiles over a chunk's deals: the advised seat, and in self-play
    every seat, so that each copy of the advisor knows as much of the others as seat 0 does and
    the self-play check stays symmetric."""
    if style == "self":
        return [i for i, p in enumerate(policies) if isinstance(p, AdvisorPolicy)]
    return [0]


def chained(hooks: list):  # type: ignore[no-untyped-def,type-arg]
    """One hook that calls each of ``hooks`` in turn with the same arguments."""

    def on_end(*args) -> None:  # type: ignore[no-untyped-def]
        for hook in hooks:
            hook(*args)

    return on_end


def opponents(
    game: str, players: int, style: str | None, threshold: int | None, rng: random.Random
) -> list[Policy]:
    """The seats beside the advisor: baselines (``style`` None, at ``threshold``) or the panel
    style, each seeded from the deal's ``rng`` after the advisor's seed."""
    if style is None:
        return [BaselinePolicy(game, threshold) for _ in range(players - 1)]
    return [
        panel_policy(style, game, random.Random(rng.getrandbits(64))) for _ in range(players - 1)
    ]


def deal_seed(seed: int, deal: int, style: str | None) -> int:
    """The seed of one deal. Each panel style plays deals of its own: with the same deals at
    every style the advisor would face the very same decision (its first turn, above all) once
    per style, and the pooled calibration would count it that many times."""
    stream = STYLES.index(style) if style is not None else 0
    return seed * 1_000_003 + deal + stream * 1_000_000_007


def run_chunk(args: tuple[str, int, int, int, int, int, int | None, float, str | None]) -> Chunk:
    game, players, start, stop, seed, samples, threshold, explore, style = args
    out = Chunk()
    carry = [0, 0]  # flip/flop money carried from deal to deal within this chunk
    memories: dict[int, Memory] = {}  # per learning seat, over this chunk's deals
    for d in range(start, stop):
        rng = random.Random(deal_seed(seed, d, style))
        advisor = TimedAdvisor(
            out.cpu_ms, game, random.Random(rng.getrandbits(64)), samples, explore
        )
        policies: list[Policy] = [advisor, *opponents(game, players, style, threshold, rng)]
        learn = learn_out = None
        if LEARN_PROFILES:
            hooks, out_hooks = [], []
            for seat in learning_seats(policies, style):
                memory = memories.setdefault(seat, Memory())
                policy = policies[seat]
                assert isinstance(policy, AdvisorPolicy)
                policy.learn(memory.learned)
                hooks.append(profile_learner(memory, d, seat))
                if LEARN_FROM_OUTS:
                    out_hooks.append(out_learner(memory, d, seat))
            learn = chained(hooks)
            learn_out = chained(out_hooks)
        decisions: list[tuple[float, bool, bool, float]] = []

        def hook(
            seat: int,
            totals: tuple[int, ...],
            knocked: bool,
            _a: AdvisorPolicy = advisor,
            _out: list[tuple[float, bool, bool, float]] = decisions,
        ) -> None:
            if seat == 0 and _a.last_win_probability is not None:
                lowest = strictly_lowest(totals, 0)
                value = _a.last_hand_value if _a.last_hand_value is not None else 0.0
                _out.append((_a.last_win_probability, lowest, knocked, value))

        result, unit = play_deal(game, policies, d % players, rng, hook, carry, learn, learn_out)
        if sum(result.game_net) != 0:  # C-3: the game pot nets to zero (self-play included)
            raise AssertionError(f"deal {d}: seats net {sum(result.game_net)}")
        out.game_net.append(result.game_net[0] / unit)
        share = top_share(result.game_net, 0)
        if share is not None:
            out.top_shares.append(share)
        out.full_net.append(result.net[0] / unit)
        out.ends[result.end] += 1
        for p, truth, knocked, value in decisions:
            out.predicted.append(p)
            out.truth.append(truth)
            if knocked:
                out.knocked_pred.append(p)
                out.knocked_truth.append(truth)
            out.play_on.append((p, knocked, result.game_net[0] / unit, value))
    return out


def merge(chunks: list[Chunk]) -> Chunk:
    out = Chunk()
    for c in chunks:
        out.game_net += c.game_net
        out.full_net += c.full_net
        out.ends.update(c.ends)
        out.predicted += c.predicted
        out.truth += c.truth
        out.knocked_pred += c.knocked_pred
        out.knocked_truth += c.knocked_truth
        out.play_on += c.play_on
        for kind, xs in c.cpu_ms.items():
            out.cpu_ms.setdefault(kind, []).extend(xs)
        out.top_shares += c.top_shares
    return out


def tournament(ns: argparse.Namespace) -> None:
    t0 = time.time()
    bounds = [ns.deals * i // ns.jobs for i in range(ns.jobs + 1)]
    styles: list[str | None] = [s for s in ns.mix.split(",") if s] or [None]
    for style in styles:
        if style is not None and style not in STYLES:
            raise SystemExit(f"unknown style {style!r}; choose from {', '.join(STYLES)}")
    tasks = [
        (
            ns.game,
            ns.players,
            bounds[i],
            bounds[i + 1],
            ns.seed,
            ns.samples,
            ns.threshold,
            ns.explore,
            style,
        )
        for i in range(ns.jobs)
        for style in styles
    ]
    if ns.jobs == 1:
        res = merge([run_chunk(t) for t in tasks])
    else:
        with ProcessPoolExecutor(ns.jobs) as pool:
            res = merge(list(pool.map(run_chunk, tasks)))
    unit = "stakes" if ns.game == GAME_FLIP_FLOP else "units"
    wins = sum(1 for v in res.game_net if v > 0)
    decisive = sum(1 for v in res.game_net if v != 0)
    lo, hi = wilson_interval(wins, decisive)
    rate = wins / decisive if decisive else 0.0
    print(
        f"{ns.game}: advisor (seat 0) vs {ns.players - 1} {ns.mix or 'baseline'} opponent(s), "
        f"{ns.deals} deals, "
        f"seed {ns.seed}, samples {ns.samples}, {time.time() - t0:.0f} s"
    )
    print(f"  ends: {dict(sorted(res.ends.items()))}")
    print(
        f"  deals with a gain, of the decisive ones: {rate:.3f} (95% CI {lo:.3f}-{hi:.3f}), "
        f"{wins} won of {decisive} decisive"
    )
    share, slo, shi = mean_interval(res.top_shares)
    print(f"  top-place share: {share:.3f} (95% CI {slo:.3f}-{shi:.3f}), fair {1 / ns.players:.3f}")
    m, mlo, mhi = mean_interval(res.game_net)
    what = "game pot" if ns.game == GAME_FLIP_FLOP else "knock/tunk-out payments"
    print(f"  mean settlement per deal ({what}): {m:+.3f} {unit} (95% CI {mlo:+.3f} to {mhi:+.3f})")
    if ns.game == GAME_FLIP_FLOP:
        m, mlo, mhi = mean_interval(res.full_net)
        print(
            f"  mean settlement per deal (with flip/flop pots): {m:+.3f} {unit} "
            f"(95% CI {mlo:+.3f} to {mhi:+.3f})"
        )
    for title, pred, truth in (
        ("every knock/drop decision", res.predicted, res.truth),
        ("decisions where it knocked/dropped", res.knocked_pred, res.knocked_truth),
    ):
        rows = calibration_table(pred, truth)
        print(f"  calibration of win_probability, {title} ({len(pred)}):")
        print("    decile      n  predicted  observed    gap")
        for r in rows:
            print(
                f"    {r.low:.1f}-{r.high:.1f} {r.count:6d}    {r.predicted:.3f}     "
                f"{r.observed:.3f}  {abs(r.predicted - r.observed):.3f}"
            )
        print(
            f"    ECE {weighted_calibration_gap(rows):.3f} (noise alone "
            f"{weighted_calibration_noise(rows):.3f}), Brier {brier_score(pred, truth):.3f}; "
            f"mean abs gap over deciles {calibration_gap(rows):.3f} (all), "
            f"{calibration_gap(rows, 30):.3f} (deciles with n >= 30)"
        )
    if ns.record_play_on:
        cells: dict[tuple[int, bool], list[float]] = {}
        for p, knocked, v, _value in res.play_on:
            cells.setdefault((min(19, int(p * 20)), knocked), []).append(v)
        print("  final result by predicted p (0.05 bins): bin  n_on  mean_on  n_knock  mean_knock")
        for b in range(20):
            on = cells.get((b, False), [])
            kn = cells.get((b, True), [])
            mon = sum(on) / len(on) if on else float("nan")
            mkn = sum(kn) / len(kn) if kn else float("nan")
            print(f"    {b / 20:.2f} {len(on):6d} {mon:+.3f} {len(kn):6d} {mkn:+.3f}")
        fit_play_on(ns.game, res.play_on)


def fit_play_on(game: str, points: list[tuple[float, bool, float, float]]) -> None:
    """Least-squares plane a + b * max(p, floor) + c * v of the final settlement after playing
    on, over the decisions with p >= PLAY_ON_FLOOR (the data of knock.PLAY_ON_LINE)."""
    from engine.advice.tunk.knock import PLAY_ON_FLOOR, PLAY_ON_VALUE_RANGE

    if game not in PLAY_ON_VALUE_RANGE:
        print(f"  no play-on plane for {game}: its advantage is fitted by bench.play_on_fit")
        return
    lo, hi = PLAY_ON_VALUE_RANGE[game]
    rows = [
        (1.0, max(p, PLAY_ON_FLOOR), min(hi, max(lo, v)), y)
        for p, knocked, y, v in points
        if not knocked and p >= PLAY_ON_FLOOR
    ]
    if len(rows) < 10:
        print(f"  play-on plane: too few points ({len(rows)})")
        return
    vs = sorted(r[2] for r in rows)
    print(
        f"  play-on fits over {len(rows)} points (p >= {PLAY_ON_FLOOR}; hand value "
        f"{vs[0]:.1f}..{vs[-1]:.1f}, median {vs[len(vs) // 2]:.1f}):"
    )
    for name, cols in (("plane a + b p + c v", (0, 1, 2)), ("flat in p: a + c v", (0, 2))):
        coef = least_squares([[r[i] for i in cols] for r in rows], [r[3] for r in rows])
        full = dict(zip(cols, coef, strict=True))
        a, b, c = full.get(0, 0.0), full.get(1, 0.0), full.get(2, 0.0)
        mean = sum(r[3] for r in rows) / len(rows)
        sse = sum((r[3] - (a + b * r[1] + c * r[2])) ** 2 for r in rows)
        sst = sum((r[3] - mean) ** 2 for r in rows)
        print(
            f"    {name}: ({a:+.3f}, {b:+.3f}, {c:+.4f}); R^2 {1 - sse / sst if sst else 0.0:.3f}"
        )


def least_squares(
    xs: list[list[float]], ys: list[float], weights: list[float] | None = None
) -> list[float]:
    """Coefficients minimising the (weighted) squared error of ys against the columns of xs
    (normal equations, Gaussian elimination with partial pivoting)."""
    k = len(xs[0])
    ws = weights if weights is not None else [1.0] * len(xs)
    m = [
        [sum(w * x[i] * x[j] for x, w in zip(xs, ws, strict=True)) for j in range(k)]
        for i in range(k)
    ]
    t = [sum(w * x[i] * y for x, y, w in zip(xs, ys, ws, strict=True)) for i in range(k)]
    for i in range(k):
        piv = max(range(i, k), key=lambda r: abs(m[r][i]))
        m[i], m[piv], t[i], t[piv] = m[piv], m[i], t[piv], t[i]
        for r in range(k):
            if r != i and m[i][i]:
                f = m[r][i] / m[i][i]
                m[r] = [a - f * b for a, b in zip(m[r], m[i], strict=True)]
                t[r] -= f * t[i]
    return [t[i] / m[i][i] if m[i][i] else 0.0 for i in range(k)]


def panel_tables(ns: argparse.Namespace) -> None:
    """The panel at every ``--tables`` entry (``game:players``), then the calibration gap of
    every decision of every table pooled."""
    pred: list[float] = []
    truth: list[bool] = []
    for entry in ns.tables.split(","):
        game, _, players = entry.partition(":")
        if game not in (GAME_FLIP_FLOP, TRIPLE_TUNK) or not players.isdigit():
            raise SystemExit(f"--tables entry {entry!r}: want game-flip-flop:N or triple-tunk:N")
        got = panel(argparse.Namespace(**{**vars(ns), "game": game, "players": int(players)}))
        pred += got[0]
        truth += got[1]
        print()
    rows = calibration_table(pred, truth)
    print(
        f"every table pooled: ECE {weighted_calibration_gap(rows):.3f}, Brier "
        f"{brier_score(pred, truth):.3f} over {len(pred)} decisions; target ECE <= {ECE_TARGET}"
    )


def panel(ns: argparse.Namespace) -> tuple[list[float], list[bool]]:
    """One line per opponent style (see the module docstring); returns every decision's
    prediction and outcome."""
    styles = [s for s in ns.panel.split(",") if s]
    for style in styles:
        if style not in STYLES:
            raise SystemExit(f"unknown style {style!r}; choose from {', '.join(STYLES)}")
    fair = 1 / ns.players
    print(
        f"panel: {ns.game}, {ns.players} players (the advisor in seat 0), {ns.deals} deals per "
        f"style, seed {ns.seed}; target: win share low >= 1.25 x fair, ECE <= {ECE_TARGET}; "
        "self-play: the fair share inside the interval"
    )
    print(
        "  style      deals  top share [95% CI]     fair   ratio  mean net/deal [95% CI]      "
        "ECE (noise)    Brier  (decisions)  verdict"
    )
    pooled_pred: list[float] = []
    pooled_truth: list[bool] = []
    for style in styles:
        t0 = time.time()
        bounds = [ns.deals * i // ns.jobs for i in range(ns.jobs + 1)]
        tasks = [
            (ns.game, ns.players, bounds[i], bounds[i + 1], ns.seed, ns.samples, None, 0.0, style)
            for i in range(ns.jobs)
        ]
        if ns.jobs == 1:
            res = merge([run_chunk(tasks[0])])
        else:
            with ProcessPoolExecutor(ns.jobs) as pool:
                res = merge(list(pool.map(run_chunk, tasks)))
        rate, lo, hi = mean_interval(res.top_shares)
        m, mlo, mhi = mean_interval(res.full_net)
        rows = calibration_table(res.predicted, res.truth)
        ece = weighted_calibration_gap(rows)
        noise = weighted_calibration_noise(rows)
        brier = brier_score(res.predicted, res.truth)
        pooled_pred += res.predicted
        pooled_truth += res.truth
        if style == "self":
            verdict = "fair" if lo <= fair <= hi else "UNFAIR"
        else:
            verdict = "PASS" if lo >= 1.25 * fair and ece <= ECE_TARGET else "miss"
        print(
            f"  {style:9s} {ns.deals:6d}  {rate:.3f} [{lo:.3f}, {hi:.3f}]  {fair:.3f}  "
            f"{rate / fair:.2f}  "
            f"{m:+.3f} [{mlo:+.3f}, {mhi:+.3f}]   {ece:.3f} ({noise:.3f})  {brier:.3f}  "
            f"({len(res.predicted):5d})"
            f"  {verdict}  ({time.time() - t0:.0f} s)",
            flush=True,
        )
        print(f"             {speed_line(res.cpu_ms)}", flush=True)
    rows = calibration_table(pooled_pred, pooled_truth)
    print(
        f"  pooled: ECE {weighted_calibration_gap(rows):.3f} (noise alone "
        f"{weighted_calibration_noise(rows):.3f}), Brier "
        f"{brier_score(pooled_pred, pooled_truth):.3f} over {len(pooled_pred)} decisions"
    )
    return pooled_pred, pooled_truth


def sweep_chunk(args: tuple[str, int, int, int, int]) -> tuple[int, int, float, float, int]:
    game, a, b, deals, seed = args
    total_a = total_b = 0.0
    for d in range(deals):
        rng = random.Random(seed * 7919 + a * 131 + b * 17 + d * 100_003)
        policies: list[Policy] = [BaselinePolicy(game, a), BaselinePolicy(game, b)]
        result, unit = play_deal(game, policies, d % 2, rng, None)
        total_a += result.game_net[0] / unit
        total_b += result.game_net[1] / unit
    return a, b, total_a, total_b, deals


def sweep(ns: argparse.Namespace) -> None:
    low, high = ns.sweep_range
    thresholds = list(range(low, high + 1))
    tasks = [(ns.game, a, b, ns.deals, ns.seed) for a, b in itertools.combinations(thresholds, 2)]
    with ProcessPoolExecutor(ns.jobs) as pool:
        results = list(pool.map(sweep_chunk, tasks))
    score = {t: 0.0 for t in thresholds}
    played = {t: 0 for t in thresholds}
    h2h: dict[tuple[int, int], float] = {}
    for a, b, ta, tb, n in results:
        score[a] += ta
        score[b] += tb
        played[a] += n
        played[b] += n
        h2h[(a, b)] = ta / n
    print(f"{ns.game} baseline threshold sweep, heads-up round robin, {ns.deals} deals per pair")
    for t in thresholds:
        print(f"  threshold {t:2d}: mean {score[t] / played[t]:+.4f} per deal")
    print("  head-to-head (row's mean per deal against column):")
    for a in thresholds:
        cells = []
        for b in thresholds:
            v = h2h.get((a, b), -h2h[(b, a)] if (b, a) in h2h else 0.0)
            cells.append(f"{v:+.2f}")
        print(f"  {a:2d} " + " ".join(cells))


def main() -> None:
    if "three-thirteen" in sys.argv[1:]:  # whole 11-round games live in their own runner
        from bench import tournament_t13

        args = [a for a in sys.argv[1:] if a not in ("--game", "three-thirteen")]
        sys.exit(tournament_t13.main(args))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--game", default=GAME_FLIP_FLOP, choices=(GAME_FLIP_FLOP, TRIPLE_TUNK, "three-thirteen")
    )
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="knock advice budget")
    ap.add_argument("--threshold", type=int, default=None, help="override the baseline threshold")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--panel", default="", help="comma-separated opponent styles (panel mode)")
    ap.add_argument(
        "--tables",
        default="",
        help="panel mode at several tables: game-flip-flop:2,triple-tunk:3 (pooled at the end)",
    )
    ap.add_argument("--sweep-range", type=int, nargs=2, default=(0, 12))
    ap.add_argument("--record-play-on", action="store_true")
    ap.add_argument(
        "--mix",
        default="",
        help="opponent styles, each playing --deals deals (default: the baseline)",
    )
    ap.add_argument("--explore", type=float, default=0.0, help="chance to play on against advice")
    ns = ap.parse_args()
    if ns.sweep:
        sweep(ns)
    elif ns.panel and ns.tables:
        panel_tables(ns)
    elif ns.panel:
        panel(ns)
    else:
        tournament(ns)


if __name__ == "__main__":
    main()
