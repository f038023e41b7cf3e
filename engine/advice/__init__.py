"""Advice for a player at the table (issue 4): discard, draw and knock/drop, with numbers.

Every question is an :class:`engine.sim.core.Observation` (what the player sees: hand, table
melds with owners, discard pile top first, cards each seat is known to hold, hand sizes, turns
played, the GFF-5 flip card, TT-12 waiting counters, TT-9 claims, and each seat's discards and
passed-over discards). Validate it once with :func:`engine.advice.common.check_observation`.

- :func:`engine.advice.discard.discard_advice` -> ``DiscardAdvice`` (ranked ``DiscardOption``\\s,
  the recommended card, how the play ends now if it does, an explanation);
  :func:`engine.advice.discard.lay_melds_advice` -> whether to lay new melds this turn.
- :func:`engine.advice.draw.draw_advice` -> ``DrawAdvice`` (take the top discard or the stock).
- :func:`engine.advice.knock.knock_advice` (``samples``, ``seed``) -> ``KnockAdvice``
  (win probability with a 95% interval, expected payout, value of playing on, knock or not).

Pure functions of their inputs (and the seed): the same question always gets the same answer.
"""
