"""Three Thirteen scoring (T13-6): round scores, running totals, the winners after round 11, and
optional money by the points difference (a convention of this service, see docs/rules.md).

Money convention: with ``stake_per_point`` > 0, after round 11 each non-winner pays
``(own total - winning total) * stake_per_point``; the pooled payments are split between the tied
winners by C-3 (leftover units one each from the dealer's left). ``net`` sums to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.deck import MAX_DECKS
from engine.core.errors import OutcomeError
from engine.core.money import check_balanced, split_pot
from engine.core.options import ThreeThirteenRules
from engine.games.t13.game import GAME

ROUNDS = GAME.rounds or 11  # T13-1
MIN_PLAYERS = GAME.players[0]
DECK_SIZE = GAME.deck.size  # C-1: cards in one deck


@dataclass(frozen=True, slots=True)
class T13Round:
    """One round's result: ``round_scores`` (0 for ``went_out``), running ``totals``.

    ``final`` is True after round 11; then ``winners`` are the tied lowest totals and ``net`` the
    money (all zeros when ``stake_per_point`` is 0 or before round 11).
    """

    round_number: int
    went_out: int
    round_scores: tuple[int, ...]
    totals: tuple[int, ...]
    final: bool
    winners: tuple[int, ...]
    net: tuple[int, ...]
    stake_per_point: int = 0


def default_decks(n_seats: int) -> int:
    """T13-2: one deck for 2 players, two for 3-4, else enough for round 11's deal plus a card."""
    if n_seats <= 2:
        return 1
    need = n_seats * GAME.deal_size(ROUNDS) + 1
    return max(2, -(-need // DECK_SIZE))


def _int(value: object, field: str, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise OutcomeError(f"{what} must be a whole number >= {low}", field=field)
    return value


def _check_round_and_seat(n: int, seats_field: str, round_number: int, went_out: int) -> None:
    """Check, in this order, the seat count (named ``seats_field``), the round and ``went_out``."""
    if n < MIN_PLAYERS:
        raise OutcomeError("Three Thirteen needs at least two players", field=seats_field)
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise OutcomeError("the round is a whole number 1..11", field="round_number")
    if not 1 <= round_number <= ROUNDS:
        raise OutcomeError(f"round {round_number} is not one of 1..11 (T13-1)", "round_number")
    if isinstance(went_out, bool) or not isinstance(went_out, int) or not 0 <= went_out < n:
        raise OutcomeError(f"went_out {went_out!r} is not one of the seats 0..{n - 1}", "went_out")


def settle_t13_scores(
    round_number: int,
    went_out: int,
    round_scores: Sequence[int],
    previous_totals: Sequence[int] | None = None,
    *,
    dealer: int = 0,
    stake_per_point: int = 0,
) -> T13Round:
    """T13-6 from known round scores: add them to ``previous_totals`` (None = all zero).

    ``round_scores[went_out]`` must be 0. After round 11 the lowest totals win and, with
    ``stake_per_point``, the points-difference money is settled (module docstring).

    :raises OutcomeError: bad round, seats, scores or totals.
    """
    n = len(round_scores)
    _check_round_and_seat(n, "round_scores", round_number, went_out)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise OutcomeError(f"dealer {dealer!r} is not one of the seats 0..{n - 1}", "dealer")
    spp = _int(stake_per_point, "stake_per_point", "stake_per_point")
    scores = tuple(
        _int(v, f"round_scores[{i}]", "a round score") for i, v in enumerate(round_scores)
    )
    if scores[went_out] != 0:
        raise OutcomeError("the player who went out scores 0 (T13-6)", f"round_scores[{went_out}]")
    if previous_totals is None:
        previous: tuple[int, ...] = (0,) * n
    else:
        if len(previous_totals) != n:
            raise OutcomeError(
                f"previous_totals has {len(previous_totals)} entries for {n} seats",
                "previous_totals",
            )
        previous = tuple(
            _int(v, f"previous_totals[{i}]", "a running total")
            for i, v in enumerate(previous_totals)
        )
    totals = tuple(p + s for p, s in zip(previous, scores, strict=True))
    final = round_number == ROUNDS
    winners: tuple[int, ...] = ()
    net = [0] * n
    if final:
        best = min(totals)
        winners = tuple(i for i, t in enumerate(totals) if t == best)
        if spp:
            pool = 0
            for seat in range(n):
                if seat not in winners:
                    owed = (totals[seat] - best) * spp
                    net[seat] -= owed
                    pool += owed
            if pool:
                for seat, units in split_pot(pool, winners, dealer, n).items():
                    net[seat] += units
    check_balanced(net, 0, "Three Thirteen settlement")
    return T13Round(round_number, went_out, scores, totals, final, winners, tuple(net), spp)


def score_t13_round(
    round_number: int,
    rules: ThreeThirteenRules,
    went_out: int,
    final_hands: Sequence[Sequence[int]],
    previous_totals: Sequence[int] | None = None,
    *,
    decks: int | None = None,
    dealer: int = 0,
    stake_per_point: int = 0,
) -> T13Round:
    """T13-6 from final hands: everyone but ``went_out`` scores the deadwood of their best
    arrangement (C-2, via ``engine.standard.deadwood.min_deadwood``); the out player's hand is
    ignored.

    Each other hand holds r+2 or r+3 cards (after the last turn's draw, T13-5); ``decks`` defaults
    to :func:`default_decks`. See :func:`settle_t13_scores` for totals, winners and money.

    :raises OutcomeError | HandError: bad round, seats, hand sizes or too many copies of a card.
    """
    n = len(final_hands)
    _check_round_and_seat(n, "final_hands", round_number, went_out)
    n_decks = default_decks(n) if decks is None else decks
    if isinstance(n_decks, bool) or not isinstance(n_decks, int) or not 1 <= n_decks <= MAX_DECKS:
        raise OutcomeError(f"decks must be a whole number 1..{MAX_DECKS}", field="decks")
    size = GAME.deal_size(round_number)
    groups: list[tuple[str, Sequence[int]]] = []
    for seat, hand in enumerate(final_hands):
        if seat == went_out:
            continue
        field = f"final_hands[{seat}]"
        if len(hand) not in (size, size + 1):
            raise OutcomeError(
                f"seat {seat} holds {len(hand)} cards; in round {round_number} a final hand "
                f"holds {size} (or {size + 1} before the last discard)",
                field=field,
            )
        GAME.validate_hand(hand, round_number=round_number, decks=n_decks, field=field)
        groups.append((field, hand))
    GAME.validate_distinct_across(groups, decks=n_decks)

    from engine.standard.deadwood import min_deadwood  # the teammate's search (C-2)
    from engine.standard.melds import t13_context

    ctx = t13_context(round_number, rules)
    scores = tuple(
        0 if seat == went_out else min_deadwood(hand, ctx) for seat, hand in enumerate(final_hands)
    )
    return settle_t13_scores(
        round_number,
        went_out,
        scores,
        previous_totals,
        dealer=dealer,
        stake_per_point=stake_per_point,
    )


__all__ = ["T13Round", "default_decks", "score_t13_round", "settle_t13_scores"]
