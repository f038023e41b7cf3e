"""``POST /v1/games/{game}/discard | draw | knock``: advice request and response schemas.

One request shape per game describes what the asking player knows at the table: the
hand, the melds on the table with owners, the discard pile (top first), each opponent's hand
size and the cards it is known to hold (picked up from the pile), what it threw, how many turns it
played, the seat order and dealer, the flip card (GFF-5), TT-9 early-tunk claims and the TT-12
waiting counter, and for Three Thirteen the round, decks and who has gone out. The same body can
be posted to every advice endpoint of a game; only the hand size differs (after the draw for
``discard``, before it for ``draw`` and ``knock``).

Loading validates everything once, at the edge, with exact field paths (C-1: no card shown more
often than the decks hold across hand, table, discard pile and known pickups; seats in range;
hand sizes and card counts consistent with the deck) and yields a query of engine values: an
``engine.advice.situation.Observation`` for the Tunk games, an ``engine.advice.t13.T13Situation``
for Three Thirteen. The query's ``canonical()`` form is the cache key.

A settle answer's ``next`` can be merged into a request of the same game: Game Flip Flop
``bankrolls`` + ``stake`` decide who is dealt in (GFF-6, the same as ``hand_size`` 0) and who may
deal; Three Thirteen ``previous_totals`` are ``scores``. Both act through the query's engine
values, so the cache key needs nothing more. Carried pots, Triple Tunk ``running_totals``, Three
Thirteen ``dealer`` and ``stake_per_point`` are checked and accepted but do not change the advice.

Modules, one job each: ``queries`` (the frozen queries), ``fields`` (shared field factories and
limits), ``opponents`` (the ``opponents`` schemas and checks), ``tunk`` / ``tunk_fields`` (Tunk
requests), ``t13`` (Three Thirteen requests), ``response_fields``, ``tunk_responses``,
``t13_responses`` (answers), ``words`` (each Tunk game's wording) and ``registry`` (which schemas
each game uses).
"""

from api.schemas.advice.queries import (
    DISCARD,
    DRAW,
    KNOCK,
    PROFILE,
    T13AdviceQuery,
    TunkAdviceQuery,
)
from api.schemas.advice.registry import (
    ADVICE_SCHEMAS,
    discard_response_schema,
    draw_response_schema,
    knock_response_schema,
    request_schema,
    response_schema,
)
from api.schemas.advice.t13 import T13_MAX_SAMPLES, T13_MAX_STOCK_SAMPLES, t13_request_schema
from api.schemas.advice.t13_responses import DEPRECATED_DRAW_ALIASES
from api.schemas.advice.tunk import TUNK_MAX_SAMPLES
from api.schemas.advice.tunk_fields import tunk_request_schema
from api.schemas.advice.words import TUNK_WORDS

__all__ = [
    "ADVICE_SCHEMAS",
    "DEPRECATED_DRAW_ALIASES",
    "DISCARD",
    "DRAW",
    "KNOCK",
    "PROFILE",
    "T13_MAX_SAMPLES",
    "T13_MAX_STOCK_SAMPLES",
    "TUNK_MAX_SAMPLES",
    "TUNK_WORDS",
    "T13AdviceQuery",
    "TunkAdviceQuery",
    "discard_response_schema",
    "draw_response_schema",
    "knock_response_schema",
    "request_schema",
    "response_schema",
    "t13_request_schema",
    "tunk_request_schema",
]
