"""Advice for a player at the table: discard, draw and knock/drop, with numbers.

Every question is an :class:`engine.advice.situation.Observation` (what the player sees: hand, table
melds with owners, discard pile top first, cards each seat is known to hold, hand sizes, turns
played, the GFF-5 flip card, TT-12 waiting counters, TT-9 claims, and each seat's discards and
passed-over discards, and the GFF-6 money: stake, bankrolls, carried pots). Validate it once
with :func:`engine.advice.tunk.common.check_observation`.

- :mod:`engine.advice.tunk.value`: the one hand evaluation that discard, draw and knock share
  (each game's :class:`~engine.advice.tunk.value.Evaluator` subclass), read off the kept-hand
  tables of :mod:`engine.advice.tunk.keeptable` and the meld completions of
  :mod:`engine.advice.tunk.completions`; the game models are :mod:`engine.advice.tunk.models`.
- :func:`engine.advice.tunk.discard.discard_advice` -> ``DiscardAdvice`` (ranked
``DiscardOption``\\s,
  the recommended card, how the play ends now if it does, the hand's value, the lay-down plan).
- :func:`engine.advice.tunk.draw.draw_advice` -> ``DrawAdvice`` (take the top discard or the stock,
  valued with the discard advice's own evaluation; a pass is announced, never implied).
- :func:`engine.advice.tunk.knock.knock_advice` (``samples``, ``seed``, ``precision``) ->
  ``KnockAdvice`` (win probability with a 95% interval, expected payout settled by the rules,
  value of playing on read from the hand's value in that evaluation).

Pure functions of their inputs (and their seed): the same question always gets the same answer.
"""
