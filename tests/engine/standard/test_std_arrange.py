"""Best arrangement / least deadwood for Game Flip Flop and Three Thirteen (C-2, GFF-2, T13-3/4),
cross-checked against the brute force in ``brute_std``."""

from __future__ import annotations

import random
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import parse_cards
from engine.core.options import ThreeThirteenRules
from engine.core.types import Arrangement, BestResult
from engine.standard import arrange as std_arrange
from engine.standard import memo as std_memo
from engine.standard.arrange import best_arrangement
from engine.standard.deadwood import min_deadwood, min_deadwood_after_discard
from engine.standard.melds import StdContext, StdMeld, gff_context, t13_context
from engine.standard.partition import partition_key
from tests.reference import brute_std

LOW = ThreeThirteenRules()
HIGH = ThreeThirteenRules(aces="high_or_low")
GFF = gff_context()


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


def melds_of(arr: Arrangement[StdMeld]) -> list[tuple[int, ...]]:
    return [m.cards for m in arr.melds]


def args(ctx: StdContext) -> tuple[int | None, bool, int | None]:
    return ctx.wild_rank, ctx.aces_high, ctx.max_set


def check_against_brute(hand: list[int], ctx: StdContext) -> None:
    """Points and melded count equal the brute force; the arrangement is valid (C-2)."""
    points, melded, _, _ = brute_std.brute_best(hand, *args(ctx))
    best = best_arrangement(hand, ctx).best
    assert (best.deadwood_points, best.melded_count) == (points, melded), (hand, args(ctx))
    assert min_deadwood(hand, ctx) == points, (hand, args(ctx))
    assert list(best.deadwood) == sorted(best.deadwood)
    assert best.deadwood_points == sum(ctx.points(x) for x in best.deadwood)
    brute_std.check_arrangement(hand, melds_of(best), best.deadwood, *args(ctx))


# --- golden hands, computed by hand ------------------------------------------------------------


@pytest.mark.rule("GFF-2")
def test_gff_2_two_spreads_leave_nothing() -> None:
    result = best_arrangement(cs("7C AS 3S 7H 2S 7D"), GFF)
    assert result.best.deadwood_points == 0 and result.best.deadwood == ()
    assert melds_of(result.best) == [cs("AS 2S 3S"), cs("7H 7D 7C")]


@pytest.mark.rule("GFF-2")
def test_gff_2_q_k_a_is_deadwood() -> None:
    best = best_arrangement(cs("QS KS AS 5D"), GFF).best
    assert best.melds == () and best.deadwood_points == 10 + 10 + 1 + 5


@pytest.mark.rule("C-2")
def test_gff_no_meld_fast_path_keeps_every_card() -> None:
    best = best_arrangement(cs("KD 2C 9S"), GFF).best
    assert best.melds == () and best.deadwood == tuple(sorted(cs("KD 2C 9S")))
    assert best.deadwood_points == 21


@pytest.mark.rule("C-2", "GFF-2")
def test_gff_long_run_is_one_meld_and_set_beats_run_when_cheaper() -> None:
    best = best_arrangement(cs("3H 4H 5H 6H 7H 8H"), GFF).best
    assert melds_of(best) == [cs("3H 4H 5H 6H 7H 8H")]  # C-2 (3): the longest meld first
    # 5S 6S 7S 7H 7D: run leaves 7H 7D (14), set of 7s leaves 5S 6S (11).
    best = best_arrangement(cs("5S 6S 7S 7H 7D"), GFF).best
    assert best.deadwood == cs("5S 6S") and best.deadwood_points == 11


@pytest.mark.rule("T13-3")
def test_t13_3_q_k_a_runs_under_high_or_low_and_ace_counts_15_unmelded() -> None:
    hand = cs("QS KS AS 9H")  # round 1: threes wild
    assert best_arrangement(hand, t13_context(1, HIGH)).best.deadwood_points == 9
    assert best_arrangement(hand, t13_context(1, LOW)).best.deadwood_points == 10 + 10 + 1 + 9
    assert min_deadwood(cs("AH 5S 9D"), t13_context(1, HIGH)) == 15 + 5 + 9
    assert min_deadwood(cs("AH 5S 9D"), t13_context(1, LOW)) == 1 + 5 + 9


@pytest.mark.rule("T13-4")
def test_t13_4_duplicate_copies_meld_together_with_two_decks() -> None:
    best = best_arrangement(cs("7S 7H 7S 9C"), t13_context(2, LOW)).best  # fours wild
    assert melds_of(best) == [cs("7S 7S 7H")] and best.deadwood == cs("9C")


@pytest.mark.rule("T13-4")
def test_t13_4_wilds_only_combination_and_unmelded_wilds_count_their_value() -> None:
    r11 = t13_context(11, LOW)  # kings wild, worth 10 unmelded
    best = best_arrangement(cs("KS KH KD"), r11).best
    assert melds_of(best) == [cs("KS KH KD")] and best.deadwood == ()
    best = best_arrangement(cs("KS KH KD 5C"), r11).best  # 5C joins the wilds: a set of fives
    assert melds_of(best) == [cs("KS KH KD 5C")] and best.deadwood_points == 0
    assert min_deadwood(cs("KS 5C 9D"), r11) == 10 + 5 + 9  # one wild cannot meld alone
    assert min_deadwood(cs("KS KH 5C"), r11) == 0  # 5 + two wilds is a set


@pytest.mark.rule("C-2", "T13-4")
def test_t13_wild_joins_a_meld_rather_than_staying_deadwood() -> None:
    # Round 11: 4S 5S 6S is a run; the lone king is added to it (4-7 or 3-6), 0 points.
    best = best_arrangement(cs("4S 5S 6S KD"), t13_context(11, LOW)).best
    assert best.deadwood == () and melds_of(best) == [cs("4S 5S 6S KD")]


@pytest.mark.rule("C-2")
def test_c2_more_cards_melded_breaks_equal_points() -> None:
    # Round 4 (sixes wild, 2 wilds). A-(6)-(6)-4 of hearts melds 4 cards, leaving 5C = 5 points;
    # 5C-6S-6D as a set of fives melds 3, leaving AH + 4H = 5 points too. C-2 (1): melding 4 wins.
    result = best_arrangement(cs("6S AH 4H 6D 5C"), t13_context(4, LOW), max_ties=5)
    assert result.best.deadwood == cs("5C") and result.best.melded_count == 4
    assert [t.deadwood for t in result.ties] == [cs("AH 4H")]
    assert result.ties[0].deadwood_points == 5 and not result.ties_truncated


@pytest.mark.rule("C-2")
def test_c2_unique_best_has_no_ties() -> None:
    # GFF: 5-6-7 of spades + 7H 7D 7C melds everything; four 7s would leave 5S 6S (11).
    result = best_arrangement(cs("5S 6S 7S 7H 7D 7C"), GFF, max_ties=10)
    assert result.best.deadwood_points == 0 and result.ties == () and not result.ties_truncated


@pytest.mark.rule("C-2")
def test_c2_equal_points_partitions_are_listed_as_ties() -> None:
    # Round 11, two decks: 7S 7S 7H 7H KS. Melding all five as one set is the best (C-2 (3):
    # the longest meld first); 7S 7S 7H 7H + KS split other ways also leave nothing.
    result = best_arrangement(cs("7S 7S 7H 7H KS"), t13_context(11, LOW), max_ties=10)
    assert melds_of(result.best) == [cs("7S 7S KS 7H 7H")]
    assert result.ties == ()  # no other split: 3 + 2 leaves a pair, 4 + 1 a single
    result = best_arrangement(cs("7S 7S 7H 7H 7D 7D"), t13_context(11, LOW), max_ties=10)
    assert melds_of(result.best) == [cs("7S 7S 7H 7H 7D 7D")]
    assert [melds_of(t) for t in result.ties] == [
        [cs("7S 7S 7H"), cs("7H 7D 7D")],
        [cs("7S 7S 7D"), cs("7H 7H 7D")],
        [cs("7S 7H 7H"), cs("7S 7D 7D")],
        [cs("7S 7H 7D"), cs("7S 7H 7D")],
    ]


def _all_ties(hand: list[int], ctx: StdContext) -> None:
    """best + ties (untruncated) are exactly the brute partitions with the best points, sorted."""
    everything = brute_std.brute_arrangements(hand, *args(ctx))
    target = min(sum(ctx.points(x) for x in dead) for _, dead in everything)
    equal = {a for a in everything if sum(ctx.points(x) for x in a[1]) == target}
    result = best_arrangement(hand, ctx, max_ties=len(equal) + 5)
    got = [result.best, *result.ties]
    assert not result.ties_truncated
    keys = [(tuple(sorted(melds_of(a))), a.deadwood) for a in got]
    assert set(keys) == equal and len(keys) == len(equal)
    order = [(-a.melded_count, a.deadwood, partition_key(melds_of(a))) for a in got]
    assert order == sorted(order)  # C-2: best first, then the tie-break order
    if len(equal) > 1:
        short = best_arrangement(hand, ctx, max_ties=1)
        assert short.ties_truncated == (len(equal) > 2) and short.ties == result.ties[:1]


@pytest.mark.rule("C-2")
def test_ties_match_brute_force_enumeration() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 400:
        hand, ctx = _small_case(rng)
        _all_ties(hand, ctx)
        checked += 1


def _small_case(rng: random.Random) -> tuple[list[int], StdContext]:
    if rng.random() < 0.3:
        return rng.sample(range(52), rng.randint(1, 6)), GFF
    round_number = rng.randint(1, 11)
    ctx = t13_context(round_number, rng.choice((LOW, HIGH)))
    hand = rng.sample(list(range(52)) * 2, rng.randint(1, 7))
    for k in range(min(len(hand), rng.choice((0, 1, 2, 3)))):
        hand[k] = rng.randrange(4) * 13 + round_number + 1
    return hand, ctx


def test_empty_hand_and_tiny_hands() -> None:
    assert best_arrangement([], GFF).best == Arrangement((), (), 0)
    assert min_deadwood([], GFF) == 0
    assert best_arrangement(cs("KH KS"), t13_context(11, LOW)).best.deadwood_points == 20


# --- cross-check against brute force on thousands of seeded hands ------------------------------


def _wilds(rng: random.Random, hand: list[int], round_number: int, many: bool) -> None:
    """Replace some cards by wilds of the round (T13-1), biased to 3-6 when ``many``."""
    count = rng.randint(3, 6) if many else rng.choice((0, 0, 1, 2))
    for k in range(min(count, len(hand))):
        hand[k] = rng.randrange(4) * 13 + round_number + 1


@pytest.mark.rule("C-2", "GFF-2")
@pytest.mark.slow
def test_gff_cross_check_2000_hands() -> None:
    rng = random.Random(2026)
    for _ in range(2000):
        check_against_brute(rng.sample(range(52), rng.randint(1, 6)), GFF)


@pytest.mark.rule("C-2", "T13-3", "T13-4")
@pytest.mark.slow
def test_t13_cross_check_every_round_wilds_and_aces() -> None:
    rng = random.Random(1313)
    for k in range(2400):
        full = k % 4 == 0  # a 14-card round-11 hand from two decks
        round_number = 11 if full else rng.randint(1, 11)
        size = 14 if full else rng.randint(1, round_number + 3)
        decks = 2 if full else rng.choice((1, 2))
        hand = rng.sample(list(range(52)) * decks, size)
        _wilds(rng, hand, round_number, many=k % 3 == 0)
        check_against_brute(hand, t13_context(round_number, HIGH if k % 2 else LOW))


# --- properties ----------------------------------------------------------------------------------


hands_t13 = st.tuples(
    st.integers(1, 11),
    st.booleans(),
    st.lists(st.integers(0, 103), min_size=0, max_size=10, unique=True),
    st.integers(0, 4),
)


def _hand(round_number: int, picks: list[int], wilds: int) -> list[int]:
    hand = [p % 52 for p in picks]
    for k in range(min(wilds, len(hand))):
        hand[k] = (picks[k] % 4) * 13 + round_number + 1
    return hand


@settings(max_examples=150, deadline=None)
@given(case=hands_t13, seed=st.integers(0, 10**6))
def test_answer_does_not_depend_on_card_order(
    case: tuple[int, bool, list[int], int], seed: int
) -> None:
    round_number, high, picks, wilds = case
    ctx = t13_context(round_number, HIGH if high else LOW)
    hand = _hand(round_number, picks, wilds)
    shuffled = list(hand)
    random.Random(seed).shuffle(shuffled)
    assert best_arrangement(hand, ctx, max_ties=3) == best_arrangement(shuffled, ctx, max_ties=3)


@pytest.mark.rule("C-2")
@settings(max_examples=150, deadline=None)
@given(case=hands_t13)
def test_no_arrangement_beats_the_best_and_min_deadwood_agrees(
    case: tuple[int, bool, list[int], int],
) -> None:
    round_number, high, picks, wilds = case
    ctx = t13_context(round_number, HIGH if high else LOW)
    hand = _hand(round_number, picks, wilds)
    result: BestResult[StdMeld] = best_arrangement(hand, ctx)
    assert min_deadwood(hand, ctx) == result.best.deadwood_points
    check_against_brute(hand, ctx)


def test_tie_scan_cap_marks_the_answer_truncated(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = cs("7S 7S 7H 7H 7D 7D 7C 7C KS KH KD")  # round 11: hundreds of zero-point splits
    ctx = t13_context(11, LOW)
    full = best_arrangement(hand, ctx, max_ties=50)
    assert len(full.ties) == 50 and full.ties_truncated
    assert all(t.deadwood_points == 0 for t in full.ties)
    monkeypatch.setattr(std_arrange, "TIE_SCAN_LIMIT", 5)
    capped = best_arrangement(hand, ctx, max_ties=50)
    assert capped.best == full.best and capped.ties_truncated and len(capped.ties) <= 5


# --- the deadwood left after the best discard (T13-5, GFF-8) -------------------------------------


@settings(max_examples=150, deadline=None)
@given(case=hands_t13)
def test_after_discard_is_the_brute_force_best_single_discard(
    case: tuple[int, bool, list[int], int],
) -> None:
    round_number, high, picks, wilds = case
    ctx = t13_context(round_number, HIGH if high else LOW)
    hand = _hand(round_number, picks, wilds)
    if not hand:
        return
    want = min(
        brute_std.brute_best(hand[:i] + hand[i + 1 :], *args(ctx))[0] for i in range(len(hand))
    )
    assert min_deadwood_after_discard(hand, ctx) == want


def test_after_discard_and_the_card_memo_agree_with_min_deadwood_on_14_card_hands() -> None:
    # Round-11 and mixed hands, one to three decks, extra wilds: the memoised card search gives
    # min_deadwood's answer, and the best discard's (a fresh memo per context, no shared state).
    rng = random.Random(77)
    for k in range(600):
        round_number = 11 if k % 3 == 0 else rng.randint(1, 11)
        rules = HIGH if k % 2 else LOW
        ctx = t13_context(round_number, rules)
        memo = std_memo.DeadwoodMemo(ctx)
        hand = rng.sample(list(range(52)) * rng.choice((1, 2, 3)), rng.randint(1, 14))
        _wilds(rng, hand, round_number, many=k % 4 == 0)
        assert memo.deadwood(hand) == min_deadwood(hand, ctx)
        want = min(min_deadwood(hand[:i] + hand[i + 1 :], ctx) for i in range(len(hand)))
        assert memo.after_discard(hand) == want


@pytest.mark.rule("T13-5")
def test_after_discard_golden() -> None:
    # Round 10 (queens wild), aces high_or_low (an ace counts 15). Keeping all nine leaves 35
    # points; throwing the AD lets the QC stand for the 6C in 5C-6C-7C-8C, leaving
    # 8S 5D 2C KD = 25, the best single discard.
    ctx = t13_context(10, HIGH)
    hand = cs("5C 8S 7C 2C QC KD 5D AD 8C")
    assert min_deadwood(hand, ctx) == 35
    assert min_deadwood_after_discard(hand, ctx) == 25
    # T13-5: a round-1 hand of four cards whose best discard leaves a meld.
    assert min_deadwood_after_discard(cs("5S 6S 7S KD"), t13_context(1, LOW)) == 0
    # Three cards, one wild: A-2 + wild meld if the wild stays; throwing it leaves 3 points.
    assert min_deadwood_after_discard(cs("AS 2S 3H"), t13_context(1, LOW)) == 3


def test_after_adding_shortcut_matches_the_search() -> None:
    # A card that fits no meld of hand + card is answered without a search (DeadwoodMemo
    # .after_adding); every answer equals the best discard of hand + card by min_deadwood.
    rng = random.Random(9)
    for k in range(1500):
        rules = HIGH if k % 2 else LOW
        round_number = rng.randint(1, 11)
        ctx = t13_context(round_number, rules)
        memo = std_memo.DeadwoodMemo(ctx)
        hand = rng.sample(list(range(52)) * rng.choice((1, 2)), rng.randint(1, round_number + 2))
        if k % 3 == 0:
            hand[0] = rng.randrange(4) * 13 + round_number + 1  # one wild (T13-1)
        card = rng.randrange(52)
        full = [*hand, card]
        want = min(min_deadwood(full[:i] + full[i + 1 :], ctx) for i in range(len(full)))
        assert memo.after_adding(memo.profile(hand), card) == want


def test_shared_memos_are_bounded_and_reused() -> None:
    # A long-running service keeps at most SHARED_CONTEXTS memos, the most recently used.
    memos = [std_memo.DeadwoodMemo.for_context(t13_context(r, LOW)) for r in range(1, 12)]
    assert len(std_memo.DeadwoodMemo._SHARED) == std_memo.SHARED_CONTEXTS
    assert std_memo.DeadwoodMemo.for_context(t13_context(11, LOW)) is memos[-1]
    assert std_memo.DeadwoodMemo.for_context(t13_context(1, LOW)) is not memos[0]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 11),
    st.booleans(),
    st.lists(st.integers(0, 51), min_size=0, max_size=13),
    st.integers(0, 3),
    st.integers(0, 51),
)
def test_after_adding_bound_and_gain_agree_with_the_brute_force_discard(
    round_number: int, high: bool, cards: list[int], wilds: int, card: int
) -> None:
    # Hands with up to three wilds (T13-1) and up to two copies of a card (T13-2): the figure
    # read from groups through the card equals the best single discard of hand + card; the
    # bound never exceeds it (and equals it for a wild); the gain
    # is the deadwood saved.
    ctx = t13_context(round_number, HIGH if high else LOW)
    wild = round_number + 1
    hand = [c for c in cards if cards.count(c) <= 2][: round_number + 2]
    hand[:wilds] = [s * 13 + wild for s in range(min(wilds, len(hand)))]
    memo = std_memo.DeadwoodMemo(ctx)
    prof = memo.profile(hand)
    full = [*hand, card]
    want = min(min_deadwood(full[:i] + full[i + 1 :], ctx) for i in range(len(full)))
    assert memo.after_adding(prof, card) == want
    bound = memo.adding_bound(prof, card)
    assert bound <= want
    if card % 13 == wild:
        assert bound == want
    assert memo.gain_of_adding(prof, card) == min_deadwood(hand, ctx) - want


def test_profile_plus_figures_are_those_of_the_whole_hand() -> None:
    # A hand's figures searched through one added card (deadwood, after-discard, with one more
    # wild, and after adding a further card) equal those searched on the whole hand.
    rng = random.Random(21)
    for k in range(600):
        round_number = rng.randint(1, 11)
        ctx = t13_context(round_number, HIGH if k % 2 else LOW)
        hand = rng.sample(list(range(52)) * rng.choice((1, 2)), rng.randint(0, round_number + 2))
        hand[: k % 3] = [s * 13 + round_number + 1 for s in range(min(k % 3, len(hand)))]
        memo, fresh = std_memo.DeadwoodMemo(ctx), std_memo.DeadwoodMemo(ctx)
        card = rng.randrange(52)
        plus = memo.profile_plus(memo.profile(hand), card)
        whole = fresh.profile([*hand, card])
        assert (plus.deadwood, plus.after_discard, plus.with_wild) == (
            whole.deadwood,
            whole.after_discard,
            whole.with_wild,
        )
        more = rng.randrange(52)
        assert memo.after_adding(plus, more) == fresh.after_adding(whole, more)


@pytest.mark.rule("C-2")
@settings(max_examples=300, deadline=None)
@given(
    case=hands_t13,
    gff_hand=st.lists(st.integers(0, 51), min_size=0, max_size=7, unique=True),
    use_gff=st.booleans(),
    max_ties=st.integers(1, 12),
)
def test_the_no_ties_shortcut_gives_the_full_searchs_answer(
    case: tuple[int, bool, list[int], int], gff_hand: list[int], use_gff: bool, max_ties: int
) -> None:
    """C-2 with ties asked for: a hand where nothing melds, or exactly three naturals meld and no
    wild is held, is answered without the tie scan; the answer is the scan's to the last tie."""
    if use_gff:
        hand, ctx = gff_hand, GFF
    else:
        round_number, high, picks, wilds = case
        ctx = t13_context(round_number, HIGH if high else LOW)
        hand = _hand(round_number, picks, wilds)
    quick = best_arrangement(hand, ctx, max_ties)
    real = std_arrange._fast_best
    with mock.patch.object(
        std_arrange, "_fast_best", lambda h, c, alone=False: None if alone else real(h, c)
    ):
        full = best_arrangement(hand, ctx, max_ties)
    assert quick == full, (hand, args(ctx))


@pytest.mark.rule("GFF-2")
def test_the_no_ties_shortcut_golden() -> None:
    """GFF-2: 2C 3C 4C KD 9S 7H melds one run and nothing else, and AS 3H 5D 7C 9S JH nothing:
    no ties. A run of six is the one hand of these sizes whose single meld has a tie."""
    alone = best_arrangement(cs("2C 3C 4C KD 9S 7H"), GFF, 10)
    assert melds_of(alone.best) == [cs("2C 3C 4C")] and alone.ties == ()
    assert alone.best.deadwood_points == 26 and not alone.ties_truncated
    nothing = best_arrangement(cs("AS 3H 5D 7C 9S JH"), GFF, 10)
    assert nothing.best.melds == () and nothing.best.deadwood_points == 35 and nothing.ties == ()
    # Six in a row is one run or two of three: the same points, so the search must list the tie.
    six = best_arrangement(cs("2C 3C 4C 5C 6C 7C"), GFF, 10)
    assert melds_of(six.best) == [cs("2C 3C 4C 5C 6C 7C")]
    assert [melds_of(t) for t in six.ties] == [[cs("2C 3C 4C"), cs("5C 6C 7C")]]
