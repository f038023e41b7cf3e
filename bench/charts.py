"""PNG charts of the knock/drop advice, from a seeded advisor tournament: ``docs/img/``.

    python -m bench.charts                      # 500 deals per style and table, seed 1
    python -m bench.charts --deals 2000 --jobs 2 # steadier figures, 4x the work

Plays the advisor (seat 0) against each opponent style of the bench panel
(``engine.sim.policies.PANEL_STYLES``) at each table of ``--tables`` with ``bench/tournament.py``'s
own deal runner (same seeds, same deals), and draws:

- ``docs/img/calibration.png``: the advice's ``win_probability`` at every knock/drop decision,
  predicted vs observed "strictly lowest right now", by decile (every style and table pooled,
  one line per game), with the diagonal of perfect calibration and each decile's count;
- ``docs/img/panel.png``: the advisor's share of the top place in decisive deals against each
  style (``tournament.top_share``, fair = 1 / players) with its 95% interval, beside the fair
  share and the 1.25 x fair target, and its mean net per deal with a 95% interval.

Needs matplotlib (the ``bench`` extra: ``pip install '.[bench]'``); the engine needs nothing more.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench.tournament import Chunk, merge, run_chunk
from engine.advice.tunk.knock import DEFAULT_SAMPLES
from engine.games import GAMES
from engine.sim.core import (
    CalibrationRow,
    calibration_table,
    mean_interval,
    weighted_calibration_gap,
)

HERE = Path(__file__).resolve().parent
OUT_DIR = HERE.parent / "docs" / "img"
STYLES = ("strong", "strong0", "never", "knock5", "knock10", "melder", "hoarder", "random")
TITLES = {slug: game.title for slug, game in GAMES.items()}


@dataclass(frozen=True, slots=True)
class StyleResult:
    """The advisor against one style at one table."""

    game: str
    players: int
    style: str
    top_share: float
    top_low: float
    top_high: float
    net: float
    net_low: float
    net_high: float
    chunk: Chunk


def play(game: str, players: int, style: str, deals: int, seed: int, jobs: int) -> StyleResult:
    """``deals`` seeded deals of the advisor against ``style`` (``tournament.run_chunk``)."""
    bounds = [deals * i // jobs for i in range(jobs + 1)]
    tasks = [
        (game, players, bounds[i], bounds[i + 1], seed, DEFAULT_SAMPLES, None, 0.0, style)
        for i in range(jobs)
    ]
    if jobs == 1:
        res = merge([run_chunk(tasks[0])])
    else:
        with ProcessPoolExecutor(jobs) as pool:
            res = merge(list(pool.map(run_chunk, tasks)))
    share, low, high = mean_interval(res.top_shares)
    mean, mlo, mhi = mean_interval(res.full_net)
    return StyleResult(game, players, style, share, low, high, mean, mlo, mhi, res)


def calibration_chart(rows_by_game: dict[str, tuple[CalibrationRow, ...]], path: Path) -> None:
    """Predicted vs observed by decile, one line per game, counts beside the points."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 5.5), dpi=110)
    ax.plot([0, 1], [0, 1], color="#777777", linestyle="--", linewidth=1, label="perfect")
    styles = (("#0b5394", "o", (5, -11)), ("#a4001d", "s", (-22, 5)))  # counts: below / above
    for (game, rows), (colour, marker, offset) in zip(rows_by_game.items(), styles, strict=False):
        used = [r for r in rows if r.count >= 10]
        ece = weighted_calibration_gap(rows)
        ax.plot(
            [r.predicted for r in used],
            [r.observed for r in used],
            color=colour,
            marker=marker,
            label=f"{TITLES[game]} (ECE {ece:.3f})",
        )
        for r in used:
            ax.annotate(
                str(r.count),
                (r.predicted, r.observed),
                textcoords="offset points",
                xytext=offset,
                fontsize=7,
                color=colour,
            )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("predicted win_probability (decile mean)")
    ax.set_ylabel("observed: strictly lowest at the decision")
    ax.set_title("Knock / drop advice: calibration by decile")
    ax.grid(True, color="#dddddd")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def panel_chart(results: list[StyleResult], path: Path) -> None:
    """Top-place share with its interval against fair and 1.25 x fair, and mean net, per style."""
    import matplotlib.pyplot as plt

    tables = sorted({(r.game, r.players) for r in results})
    fig, axes = plt.subplots(2, len(tables), figsize=(5.2 * len(tables), 7), dpi=110, squeeze=False)
    for col, (game, players) in enumerate(tables):
        rows = [r for r in results if (r.game, r.players) == (game, players)]
        names = [r.style for r in rows]
        xs = range(len(rows))
        top, bottom = axes[0][col], axes[1][col]
        top.errorbar(
            xs,
            [r.top_share for r in rows],
            yerr=[
                [r.top_share - r.top_low for r in rows],
                [r.top_high - r.top_share for r in rows],
            ],
            fmt="o",
            color="#0b5394",
            capsize=4,
        )
        fair = 1 / players
        top.axhline(fair, color="#777777", linestyle="--", linewidth=1, label=f"fair {fair:.2f}")
        top.axhline(
            1.25 * fair, color="#c25e00", linewidth=1, label=f"1.25 x fair {1.25 * fair:.2f}"
        )
        top.set_xticks(list(xs), names, rotation=30)
        top.set_ylim(0, 1)
        top.set_ylabel("advisor's top-place share (95% CI)")
        top.set_title(f"{TITLES[game]}, {players} players")
        top.legend(fontsize=8, loc="lower right")
        top.grid(True, axis="y", color="#dddddd")
        bottom.errorbar(
            xs,
            [r.net for r in rows],
            yerr=[[r.net - r.net_low for r in rows], [r.net_high - r.net for r in rows]],
            fmt="s",
            color="#1d6b2f",
            capsize=4,
        )
        bottom.axhline(0, color="#777777", linewidth=1)
        bottom.set_xticks(list(xs), names, rotation=30)
        unit = "stakes" if game == "game-flip-flop" else "units"
        bottom.set_ylabel(f"mean net per deal, {unit} (95% CI)")
        bottom.grid(True, axis="y", color="#dddddd")
    fig.suptitle("The advisor against the opponent panel")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """Play the panel at every table and write both charts."""
    parser = argparse.ArgumentParser(prog="python bench/charts.py", description=__doc__)
    parser.add_argument("--tables", default="game-flip-flop:3,triple-tunk:3")
    parser.add_argument("--styles", default=",".join(STYLES))
    parser.add_argument("--deals", type=int, default=500, help="deals per style and table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    ns = parser.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    results: list[StyleResult] = []
    for entry in ns.tables.split(","):
        game, _, players = entry.partition(":")
        for style in ns.styles.split(","):
            t0 = time.time()
            result = play(game, int(players), style, ns.deals, ns.seed, ns.jobs)
            results.append(result)
            print(
                f"{game}:{players} {style:8s} top share {result.top_share:.3f} "
                f"[{result.top_low:.3f}, {result.top_high:.3f}] net {result.net:+.3f} "
                f"({len(result.chunk.predicted)} decisions, {time.time() - t0:.0f} s)",
                flush=True,
            )
    by_game: dict[str, tuple[CalibrationRow, ...]] = {}
    for game in dict.fromkeys(r.game for r in results):
        predicted = [p for r in results if r.game == game for p in r.chunk.predicted]
        truth = [t for r in results if r.game == game for t in r.chunk.truth]
        by_game[game] = calibration_table(predicted, truth)
    ns.out.mkdir(parents=True, exist_ok=True)
    calibration_chart(by_game, ns.out / "calibration.png")
    panel_chart(results, ns.out / "panel.png")
    print(f"wrote {ns.out / 'calibration.png'} and {ns.out / 'panel.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
