"""Discard advice for the Tunk games: rank every distinct card of a hand after the draw.

For each option (RULES: GFF-7 / TT-10 discard one card):

- ``deadwood``: the deadwood points left (C-2 best arrangement of the other cards);
- ``outs``: how many distinct unseen cards would lower that deadwood after the next draw;
- ``expected_deadwood``: the deadwood expected after the next stock draw and best discard;
- ``danger``: the chance that the card helps the next player: it lays off on a table meld
  (GFF-3 / TT-8: taken and laid at once), or completes a meld with two cards the next player is
  known or likely to hold (known pickups count as held; hidden cards are uniform over the unseen
  cards, C-1);
- ``out_chance``: the share of unseen cards that would let the hand be emptied after the next
  draw (all cards melded, or all but one to discard; lay-offs on the table not counted);
- ``score`` (lower is better) = ``(deadwood + expected_deadwood) / 2 + DANGER_POINTS * danger
  - OUT_POINTS * out_chance``.

When the hand can end the play now (GFF-9/GFF-10 via ``gff_going_out``, TT-11 via
``tt_tunk_out``) that discard is recommended, whatever the scores say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from engine.advice.common import (
    GameModel,
    after_draw_values,
    gff_meld3,
    tt_meld3,
    unseen_cards,
)
from engine.advice.knock import known_hands, model_for
from engine.cards import card_name
from engine.gff_play import gff_going_out, spread_kind
from engine.rules import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import Observation
from engine.topper import topper_card_name
from engine.tt_play import can_extend, tt_tunk_out

# Points a discard that feeds the next player costs: what they typically shed by using it
# (a card of their deadwood, about half a ten) - tuned in heads-up tournaments.
DANGER_POINTS = 4.0
# Points one unit of "chance to empty the hand after the next draw" is worth (tunk out / go out
# ends the deal in the player's favour, TT-11 pays double) - tuned in tournaments.
OUT_POINTS: dict[str, float] = {GAME_FLIP_FLOP: 10.0, "triple-tunk": 20.0}


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One possible discard and its figures (see the module docstring)."""

    card: int
    deadwood: int
    outs: int
    expected_deadwood: float
    out_chance: float
    danger: float
    score: float


@dataclass(frozen=True, slots=True)
class DiscardAdvice:
    """Options best first; ``discard`` is the recommendation (None: tunk out with no discard).

    ``ends`` names how the play ends if the advice is followed now ("tunk_out", "go_out") or is
    None.
    """

    discard: int | None
    ends: str | None
    options: tuple[DiscardOption, ...]
    explanation: str


@cache
def _gff_partners(card: int) -> tuple[tuple[int, int], ...]:
    """Pairs of cards that make a GFF-2 spread of three with ``card``."""
    return tuple((a, b) for a, b in combinations(range(52), 2) if gff_meld3(card, a, b))


@cache
def _tt_partners(card: int) -> tuple[tuple[int, int], ...]:
    """Pairs of cards that make a TT-6 meld of three with ``card``."""
    return tuple((a, b) for a, b in combinations(range(125), 2) if tt_meld3(card, a, b))


def _fits_table(obs: Observation, card: int, seat: int) -> bool:
    for meld in obs.table:
        if obs.game == GAME_FLIP_FLOP:
            if spread_kind((*meld.cards, card)) is not None:
                return True
        elif can_extend(meld.cards, card, meld.owner == seat):
            return True
    return False


def danger(
    obs: Observation, card: int, unseen: frozenset[int], known_next: frozenset[int]
) -> float:
    """Chance that ``card`` helps the next player (module docstring); 0..1."""
    nxt = (obs.seat + 1) % obs.n_players
    if nxt == obs.seat:
        return 0.0
    if _fits_table(obs, card, nxt):
        return 1.0
    hidden = max(0, obs.hand_sizes[nxt] - len(known_next))
    u = len(unseen)
    if u == 0:
        return 0.0
    p_one = hidden / u
    p_two = hidden * (hidden - 1) / (u * (u - 1)) if u > 1 else 0.0
    partners = _gff_partners(card) if obs.game == GAME_FLIP_FLOP else _tt_partners(card)
    total = 0.0
    for a, b in partners:
        ka, kb = a in known_next, b in known_next
        if ka and kb:
            return 1.0
        ua, ub = a in unseen, b in unseen
        if ka and ub or kb and ua:
            total += p_one
        elif ua and ub:
            total += p_two
    return min(1.0, total)


def out_chance(
    model: GameModel, rest: tuple[int, ...], unseen: Sequence[int], values: Sequence[int]
) -> float:
    """Share of ``unseen`` draws after which ``rest`` + the card can be emptied: every card
    melded (two melds of three, or one meld of three) or all but one card to discard
    (``values`` are :func:`after_draw_values` of ``rest``)."""
    if not unseen:
        return 0.0
    m3 = model.meld3
    pairs: list[tuple[int, int]] = []
    if len(rest) == 5:  # 6 after the draw: two melds of three
        for a, b in combinations(rest, 2):
            x, y, z = (c for c in rest if c != a and c != b)
            if m3(x, y, z):
                pairs.append((a, b))
    elif len(rest) == 2:  # 3 after the draw: one meld of three
        pairs.append((rest[0], rest[1]))
    hits = 0
    for c, v in zip(unseen, values, strict=True):
        if v == 0 or any(m3(c, a, b) for a, b in pairs):
            hits += 1
    return hits / len(unseen)


def lay_melds_advice(obs: Observation) -> bool:
    """Whether to lay new melds this turn (when not tunking or going out).

    Game Flip Flop: yes, a laid spread no longer counts in a drop (GFF-8) and opponents gain
    little from it. Triple Tunk: no, hold them and go down all at once with a tunk out (TT-11,
    seed rule 6 "go down clean"): a laid meld gives every opponent lay-off targets for their own
    tunk out shapes (3 + 2 or 4 + 1 sideways, TT-11) and each hit makes you wait (TT-12). Measured
    (bench/tournament.py, 1000 deals, seed 5): heads-up +0.32 units per deal laying, +0.97
    holding; four players +0.20 laying, +1.05 holding. The price is that held melds count if
    someone knocks (TT-13), which the knock advice already prices in.
    """
    return obs.game == GAME_FLIP_FLOP


def _ending(obs: Observation) -> tuple[str, int | None] | None:
    if obs.game == GAME_FLIP_FLOP:
        plan = gff_going_out(obs.hand, obs.table, obs.seat)
        return (plan.kind, plan.discard) if plan.kind is not None else None
    option = tt_tunk_out(obs.hand, obs.table, obs.seat)
    return ("tunk_out", option.discard) if option is not None else None


def discard_options(obs: Observation) -> tuple[DiscardOption, ...]:
    """Every distinct discard of ``obs.hand`` with its figures, best (lowest score) first; ties
    go to the higher card (more points thrown away)."""
    model = model_for(obs.game)
    known = known_hands(obs)
    others = [known[j] for j in obs.opponents()]
    pile = obs.discards
    hand = tuple(obs.hand)
    unseen_all = unseen_cards(model.deck, hand, obs.table, pile, others)
    unseen_set = frozenset(unseen_all)
    nxt = (obs.seat + 1) % obs.n_players
    known_next = frozenset(known[nxt]) if nxt != obs.seat else frozenset()
    options: list[DiscardOption] = []
    out_weight = OUT_POINTS.get(obs.game, 0.0)
    for i, card in enumerate(hand):
        if card in hand[:i]:
            continue
        rest = hand[:i] + hand[i + 1 :]
        dw = model.deadwood(rest)
        base_values = after_draw_values(model, rest, unseen_all)
        expected = sum(base_values) / len(base_values) if base_values else float(dw)
        n_outs = len({c for c, v in zip(unseen_all, base_values, strict=True) if v < dw})
        risk = danger(obs, card, unseen_set, known_next)
        chance = out_chance(model, rest, unseen_all, base_values)
        score = (dw + expected) / 2 + DANGER_POINTS * risk - out_weight * chance
        options.append(DiscardOption(card, dw, n_outs, expected, chance, risk, score))
    options.sort(key=lambda o: (o.score, -model.points[o.card], -o.card))
    return tuple(options)


def _name(obs: Observation, card: int) -> str:
    """The card's canonical text for explanations (the engine otherwise speaks ints)."""
    return topper_card_name(card) if obs.game == TRIPLE_TUNK else card_name(card)


def discard_advice(obs: Observation) -> DiscardAdvice:
    """Which card to discard from ``obs.hand`` (after the draw); see the module docstring."""
    options = discard_options(obs)
    end = _ending(obs)
    if end is not None:
        kind, card = end
        how = "tunk out" if kind == "tunk_out" else "go out"
        if card is None:
            text = f"Lay everything down and {how} now: no discard is needed."
        else:
            text = f"Discard {_name(obs, card)} to {how} now."
        return DiscardAdvice(card, kind, options, text)
    best = options[0]
    text = (
        f"Discard {_name(obs, best.card)}: it leaves {best.deadwood} deadwood points with "
        f"{best.outs} unseen cards that "
        f"improve the hand (about {best.expected_deadwood:.1f} points expected after the next "
        f"draw) and a {best.danger:.0%} chance of helping the next player."
    )
    return DiscardAdvice(best.card, None, options, text)


__all__ = [
    "DANGER_POINTS",
    "DiscardAdvice",
    "DiscardOption",
    "OUT_POINTS",
    "danger",
    "discard_advice",
    "discard_options",
    "lay_melds_advice",
    "out_chance",
]
