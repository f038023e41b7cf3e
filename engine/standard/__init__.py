"""The standard-deck search shared by Game Flip Flop and Three Thirteen (C-2, GFF-2, T13-3/T13-4).

Modules, lowest first:

- ``melds``: the rules context (wild rank, aces, set limit), meld tests and meld listing.
- ``search``: the general memoised least-deadwood search (wild cards, copies from several decks).
- ``masks``: the bit-mask fast path for distinct cards with at most one wild.
- ``partition``: the C-2 order of meld partitions and the first partition of melded cards.
- ``arrange``: :func:`~engine.standard.arrange.best_arrangement` and its equal-point ties.
- ``deadwood``: :func:`~engine.standard.deadwood.min_deadwood` (its compiled twin
  ``_deadwood.c`` beside it) and the least deadwood after a discard.
- ``solver``: the least-deadwood search shared by many related hands (its compiled twin
  ``_solver.c`` beside it).
- ``memo``: :class:`~engine.standard.memo.DeadwoodMemo`, which Three Thirteen advice asks.

:mod:`engine.core.accelerators` decides whether a compiled twin or its Python module runs.
Names with a leading underscore are shared between these modules only (and by their tests);
other code uses the public names (``best_arrangement``, ``min_deadwood``, ``DeadwoodMemo``...).
"""
