/* The memoised least-deadwood search of engine.standard.solver._CardSolver, compiled: the same
 * recursion over the lowest natural card (deadwood, thrown when ``free``, or in one of its
 * groups: runs of its suit spanning at most 5 positions, ace low or, when aces may be high,
 * ending at a high ace; sets of its rank of at most ``cap`` naturals; wilds filling gaps and
 * short groups), on one memo shared by every hand of a context. Three Thirteen advice spends
 * most of its time in this search. Optional: without it (no C compiler at install, or
 * TUNK_PURE_PYTHON=1) the Python closure runs; tests/engine/standard/test_accelerators.py checks that
 * both give the same figure.
 *
 * Solver(point_table, joker_value, cap, aces_high, limit).solve(state, j, melded, free): the
 * Python state packs one 5-bit count per card (5 * card), counts below 16.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define INF ((int64_t)1 << 40)

typedef struct {
    uint64_t s[4]; /* per suit: 13 counts of 4 bits */
} State;

typedef struct {
    State key;
    uint32_t tail; /* j << 2 | melded << 1 | free */
    uint32_t gen;
    int64_t val;
} Entry;

typedef struct {
    PyObject_HEAD int pts[52];
    int64_t joker_value;
    int cap, aces_high;
    Py_ssize_t limit, used, size; /* entries stored, table slots (a power of two) */
    Py_ssize_t max_size;          /* the table grows to this (twice the limit) */
    uint32_t gen;
    Entry *table;
} Solver;

static inline int count_of(const State *st, int c) {
    return (int)(st->s[c / 13] >> (4 * (c % 13)) & 15);
}

static inline void add_count(State *st, int c, int k) {
    st->s[c / 13] += (uint64_t)k << (4 * (c % 13));
}

static inline void sub_count(State *st, int c, int k) {
    st->s[c / 13] -= (uint64_t)k << (4 * (c % 13));
}

static inline uint64_t hash_of(const State *st, uint32_t tail) {
    uint64_t h = tail * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 4; i++) {
        h ^= st->s[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    return h ^ (h >> 31);
}

static Entry *find(Solver *self, const State *st, uint32_t tail, int *found) {
    Py_ssize_t mask = self->size - 1;
    Py_ssize_t i = (Py_ssize_t)(hash_of(st, tail) & (uint64_t)mask);
    for (;; i = (i + 1) & mask) {
        Entry *e = &self->table[i];
        if (e->gen != self->gen) {
            *found = 0;
            return e;
        }
        if (e->tail == tail && !memcmp(&e->key, st, sizeof(State))) {
            *found = 1;
            return e;
        }
    }
}

static int64_t solve(Solver *self, const State *st, int j, int melded, int fr);

/* Double the table (a request that stays small never touches a large one). */
static void grow(Solver *self) {
    Py_ssize_t size = self->size * 2;
    Entry *table = PyMem_Calloc((size_t)size, sizeof(Entry));
    if (!table) return; /* stay at this size: the memo then starts afresh at the limit */
    Entry *old = self->table;
    Py_ssize_t old_size = self->size;
    self->table = table;
    self->size = size;
    for (Py_ssize_t i = 0; i < old_size; i++) {
        if (old[i].gen != self->gen) continue;
        int found;
        Entry *e = find(self, &old[i].key, old[i].tail, &found);
        *e = old[i];
    }
    PyMem_Free(old);
}

static inline void consider(Solver *self, const State *st, int j, int fr, int64_t *best) {
    int64_t v = solve(self, st, j, 1, fr);
    if (v < *best) *best = v;
}

/* The runs whose lowest natural is ``c``: its neighbour at offset k (1..top) is c + k, or
 * c + 13 - k with ``high`` (a high ace's run); wilds fill the gaps and short runs. */
static void runs_of(Solver *self, const State *st, int c, int top, int high, int j, int fr,
                    int64_t *best) {
    int jj = j < 3 ? j : 3, present = 0;
    for (int k = 1; k <= top; k++)
        if (count_of(st, high ? c + 13 - k : c + k)) present |= 1 << (k - 1);
    for (int sub = 1; sub < 16 && *best; sub++) {
        if ((sub & present) != sub) continue;
        int span = 32 - __builtin_clz((unsigned)sub) + 1;
        int size = __builtin_popcount((unsigned)sub) + 1;
        int need = span - size + (span < 3 ? 3 - span : 0);
        if (need > jj) continue;
        State g = *st;
        sub_count(&g, c, 1);
        for (int k = 1; k <= 4; k++)
            if (sub >> (k - 1) & 1) sub_count(&g, high ? c + 13 - k : c + k, 1);
        consider(self, &g, j - need, fr, best);
    }
}

static int64_t solve(Solver *self, const State *st, int j, int melded, int fr) {
    int w = 0;
    while (w < 4 && !st->s[w]) w++;
    if (w == 4) {
        if (fr) {
            if (!j) return INF;
            j -= 1;
        }
        return (!j || melded || j >= 3) ? 0 : j * self->joker_value;
    }
    uint32_t tail = (uint32_t)j << 2 | (uint32_t)melded << 1 | (uint32_t)fr;
    int found;
    Entry *slot = find(self, st, tail, &found);
    if (found) return slot->val;
    int rank = __builtin_ctzll(st->s[w]) / 4;
    int c = w * 13 + rank;
    State rest = *st;
    sub_count(&rest, c, 1);
    int64_t best = self->pts[c] + solve(self, &rest, j, melded, fr);
    if (fr) {
        int64_t v = solve(self, &rest, j, melded, 0);
        if (v < best) best = v;
    }
    int jj = j < 3 ? j : 3;
    /* runs from c up its suit (the cards 1..4 ranks above, spanning at most 5 positions) and,
     * for an ace when aces may be high, down from it (the K, Q, J, 10 of its suit) */
    if (best) runs_of(self, st, c, 12 - rank < 4 ? 12 - rank : 4, 0, j, fr, &best);
    if (best && rank == 0 && self->aces_high) runs_of(self, st, c, 4, 1, j, fr, &best);
    /* sets of its rank: 1..own copies of c and 0..count of each higher suit's card */
    if (best) {
        int own = count_of(st, c);
        if (own > 5) own = 5;
        int partner[3], pmax[3], np = 0;
        for (int t = c + 13; t < 52; t += 13) {
            int k = count_of(st, t);
            partner[np] = t;
            pmax[np++] = k < 5 ? k : 5;
        }
        int take[3] = {0, 0, 0};
        for (int first = 1; first <= own && best; first++) {
            for (int i = 0; i < np; i++) take[i] = 0;
            for (;;) {
                int size = first;
                for (int i = 0; i < np; i++) size += take[i];
                int need = size < 3 ? 3 - size : 0;
                if (size <= self->cap && need <= jj) {
                    State g = *st;
                    sub_count(&g, c, first);
                    for (int i = 0; i < np; i++)
                        if (take[i]) sub_count(&g, partner[i], take[i]);
                    consider(self, &g, j - need, fr, &best);
                    if (!best) break;
                }
                int i = np - 1; /* next combination, the last suit fastest */
                while (i >= 0 && take[i] == pmax[i]) take[i--] = 0;
                if (i < 0) break;
                take[i]++;
            }
        }
    }
    if (2 * (self->used + 1) > self->size && self->size < self->max_size) grow(self);
    if (self->used >= self->limit || 2 * (self->used + 1) > self->size) { /* starts afresh */
        if (++self->gen == 0) {
            memset(self->table, 0, (size_t)self->size * sizeof(Entry));
            self->gen = 1;
        }
        self->used = 0;
        slot = find(self, st, tail, &found);
    } else {
        slot = find(self, st, tail, &found); /* the recursion may have filled the slot */
    }
    slot->key = *st;
    slot->tail = tail;
    slot->gen = self->gen;
    slot->val = best;
    self->used++;
    return best;
}

/* Groups holding a natural ``c`` that is not in ``st`` (the card a hand is about to receive),
 * their other naturals taken from ``st``: sets of its rank (copies included, at most ``cap``
 * naturals with c) and runs through it spanning at most 5 positions, each within ``jj`` jokers
 * (engine.standard.memo._groups_with). For each one, ``visit`` gets the hand less the group's naturals
 * and the jokers it needs; it returns nonzero to stop. */
typedef int (*Visit)(void *ctx, const State *rest, int need);

static void groups_with(Solver *self, const State *st, int c, int jj, Visit visit, void *ctx) {
    int rank = c % 13, suit = c / 13;
    int pmax[4];
    for (int t = 0; t < 4; t++) {
        int k = count_of(st, t * 13 + rank);
        pmax[t] = k < self->cap ? k : self->cap;
    }
    int take[4] = {0, 0, 0, 0};
    for (;;) {
        int size = 1 + take[0] + take[1] + take[2] + take[3];
        int need = size < 3 ? 3 - size : 0;
        if (size <= self->cap && need <= jj) {
            State g = *st;
            for (int t = 0; t < 4; t++)
                if (take[t]) sub_count(&g, t * 13 + rank, take[t]);
            if (visit(ctx, &g, need)) return;
        }
        int t = 3;
        while (t >= 0 && take[t] == pmax[t]) take[t--] = 0;
        if (t < 0) break;
        take[t]++;
    }
    /* the suit's row of ranks present, bit 13 the ace again when aces may be high */
    int row = 0;
    for (int r = 0; r < 13; r++)
        if (count_of(st, suit * 13 + r)) row |= 1 << r;
    if (self->aces_high && (row & 1)) row |= 1 << 13;
    int centres[2] = {rank, 13}, n_centres = (rank == 0 && self->aces_high) ? 2 : 1;
    for (int w = 0; w < n_centres; w++) {
        int p = centres[w];
        int offs[8], n = 0;
        for (int o = -4; o <= 4; o++) {
            int pos = p + o;
            if (o && pos >= 0 && pos <= 13 && (row >> pos & 1)) offs[n++] = o;
        }
        for (int sub = 1; sub < (1 << n); sub++) {
            int lo = 0, hi = 0, k = 0;
            for (int i = 0; i < n; i++)
                if (sub >> i & 1) {
                    if (offs[i] < lo) lo = offs[i];
                    if (offs[i] > hi) hi = offs[i];
                    k++;
                }
            int span = hi - lo + 1;
            if (span > 5) continue;
            int need = span - k - 1 + (span < 3 ? 3 - span : 0);
            if (need > jj) continue;
            State g = *st;
            for (int i = 0; i < n; i++)
                if (sub >> i & 1) sub_count(&g, suit * 13 + (p + offs[i]) % 13, 1);
            if (visit(ctx, &g, need)) return;
        }
    }
}

typedef struct {
    Solver *self;
    int j, fr;
    int64_t best;
} Through;

static int visit_through(void *ctx, const State *rest, int need) {
    Through *t = ctx;
    int64_t v = solve(t->self, rest, t->j - need, 1, t->fr);
    if (v < t->best) t->best = v;
    return t->best == 0;
}


/* RUN_NEED[m]: the fewest jokers of a run through a card whose suit holds the naturals ``m``
 * around it (bit o + 4 for the offset o in -4..4, bit 4 unused), 127 when none: per window
 * of at most 5 positions around the card, the run of every natural in it. A run's need is
 * max(span, 3) - naturals - 1, so no subset of a window's naturals needs fewer. */
static signed char RUN_NEED[512];

static void init_run_need(void) {
    for (int m = 0; m < 512; m++) {
        int best = 127;
        for (int lo = -4; lo <= 0; lo++) {
            for (int hi = 0; hi <= 4 && hi - lo <= 4; hi++) {
                int k = 0, a = 0, b = 0;
                for (int o = lo; o <= hi; o++) {
                    if (o && (m >> (o + 4) & 1)) {
                        k++;
                        if (o < a) a = o;
                        if (o > b) b = o;
                    }
                }
                if (!k) continue;
                int span = b - a + 1;
                int need = (span < 3 ? 3 : span) - k - 1;
                if (need < best) best = need;
            }
        }
        RUN_NEED[m] = (signed char)best;
    }
}

/* Whether the suit holds a natural at position ``pos`` (0..12, 13 the ace again when aces
 * may be high), as groups_with reads its row. */
static inline int present_at(Solver *self, const State *st, int suit, int pos) {
    if (pos < 0 || pos > 13) return 0;
    if (pos == 13) return self->aces_high && count_of(st, suit * 13);
    return count_of(st, suit * 13 + pos) != 0;
}

/* The fewest jokers (at most ``jj``) of the groups groups_with(st, c, jj) visits, -1 when it
 * visits none, without building them: the largest set of c's rank within ``cap``, and the
 * runs through c (RUN_NEED) at each of its positions. */
static int fewest_jokers(Solver *self, const State *st, int c, int jj) {
    int rank = c % 13, suit = c / 13, best = 127;
    int total = 0;
    for (int t = 0; t < 4; t++) {
        int k = count_of(st, t * 13 + rank);
        total += k < self->cap ? k : self->cap;
    }
    int size = 1 + total < self->cap ? 1 + total : self->cap;
    if (size >= 1) best = size < 3 ? 3 - size : 0;
    if (best == 0) return 0;
    int centres[2] = {rank, 13}, n_centres = (rank == 0 && self->aces_high) ? 2 : 1;
    for (int w = 0; w < n_centres; w++) {
        int p = centres[w], m = 0;
        for (int o = -4; o <= 4; o++)
            if (o && present_at(self, st, suit, p + o)) m |= 1 << (o + 4);
        if (RUN_NEED[m] < best) best = RUN_NEED[m];
    }
    return best <= jj ? best : -1;
}

static int state_from(PyObject *obj, State *st) {
    unsigned char buf[33];
    if (!PyLong_Check(obj) || _PyLong_Sign(obj) < 0) {
        PyErr_SetString(PyExc_TypeError, "state must be a non-negative int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    if (_PyLong_AsByteArray((PyLongObject *)obj, buf, 33, 1, 0, 1) < 0) return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)obj, buf, 33, 1, 0) < 0) return -1;
#endif
    memset(st, 0, sizeof *st);
    for (int c = 0; c < 52; c++) {
        int bit = 5 * c;
        int v = (buf[bit / 8] | (bit / 8 + 1 < 33 ? buf[bit / 8 + 1] << 8 : 0)) >> (bit % 8) & 31;
        if (v > 15) {
            PyErr_SetString(PyExc_ValueError, "at most 15 copies of a card");
            return -1;
        }
        if (v) add_count(st, c, v);
    }
    return 0;
}

/* args[0] and args[1]: the naturals and the number of jokers (0..1000). */
static int hand_args(PyObject *const *args, State *st, int *j) {
    if (state_from(args[0], st) < 0) return -1;
    long k = PyLong_AsLong(args[1]);
    if (k == -1 && PyErr_Occurred()) return -1;
    if (k < 0 || k > 1000) {
        PyErr_SetString(PyExc_ValueError, "0..1000 jokers");
        return -1;
    }
    *j = (int)k;
    return 0;
}

static PyObject *solver_solve(Solver *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "solve(state, j, melded, free)");
        return NULL;
    }
    State st;
    int j;
    if (hand_args(args, &st, &j) < 0) return NULL;
    int melded = PyObject_IsTrue(args[2]), fr = PyObject_IsTrue(args[3]);
    if (melded < 0 || fr < 0) return NULL;
    return PyLong_FromLongLong(solve(self, &st, j, melded, fr));
}

static int card_arg(PyObject *obj, long *card) {
    *card = PyLong_AsLong(obj);
    if (*card == -1 && PyErr_Occurred()) return -1;
    if (*card < 0 || *card > 51) {
        PyErr_SetString(PyExc_ValueError, "a card 0..51");
        return -1;
    }
    return 0;
}

static PyObject *solver_through(Solver *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "through(state, j, card, best, free)");
        return NULL;
    }
    State st;
    int j;
    long card;
    if (hand_args(args, &st, &j) < 0 || card_arg(args[2], &card) < 0) return NULL;
    long long best = PyLong_AsLongLong(args[3]);
    int fr = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred() || fr < 0) return NULL;
    Through t = {self, j, fr, best};
    if (best) groups_with(self, &st, (int)card, j < 3 ? j : 3, visit_through, &t);
    return PyLong_FromLongLong(t.best);
}

static PyObject *solver_fewest(Solver *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "fewest_jokers(state, j, card)");
        return NULL;
    }
    State st;
    int j;
    long card;
    if (hand_args(args, &st, &j) < 0 || card_arg(args[2], &card) < 0) return NULL;
    return PyLong_FromLong(fewest_jokers(self, &st, (int)card, j < 3 ? j : 3));
}

/* The arguments of the per-card loops of DeadwoodMemo (adding_bounds, adding_sums): (state, j,
 * deadwood, top_points, wild_rank, counts, values, ad, ww) for the hand ``state`` with ``j``
 * wilds; ``counts`` are (card, copies) pairs, ``values`` the dict card -> exact after_adding that
 * the loops read and fill as the Python ones do; ``ad`` / ``ww`` the hand's after-discard
 * deadwood and its least deadwood with one more wild less a discard when known (else -1),
 * searched here when first needed. */
typedef struct {
    State st;
    int j;
    long long dw, ad, ww;
    long top, wild_rank;
    PyObject *counts; /* a new reference (PySequence_Fast) */
    PyObject *values; /* borrowed */
} Loop;

static int loop_args(PyObject *const *args, Py_ssize_t nargs, const char *name, Loop *lp) {
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError,
                     "%s(state, j, deadwood, top, wild_rank, counts, values, ad, ww)", name);
        return -1;
    }
    if (hand_args(args, &lp->st, &lp->j) < 0) return -1;
    lp->dw = PyLong_AsLongLong(args[2]);
    lp->top = PyLong_AsLong(args[3]);
    lp->wild_rank = PyLong_AsLong(args[4]);
    lp->ad = PyLong_AsLongLong(args[7]);
    lp->ww = PyLong_AsLongLong(args[8]);
    if (PyErr_Occurred()) return -1;
    lp->values = args[6];
    if (!PyDict_Check(lp->values)) {
        PyErr_SetString(PyExc_TypeError, "values must be a dict");
        return -1;
    }
    lp->counts = PySequence_Fast(args[5], "counts");
    return lp->counts ? 0 : -1;
}

/* Pair ``i`` of the counts: its card (``*key`` borrowed) and copies, and its known value (1, in
 * ``*v``), or 0 when ``values`` has none; -1 on error. */
static int loop_card(Loop *lp, Py_ssize_t i, PyObject **key, long *card, long long *copies,
                     long long *v) {
    PyObject *pair = PySequence_Fast_GET_ITEM(lp->counts, i);
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "counts: (card, copies) pairs");
        return -1;
    }
    *key = PyTuple_GET_ITEM(pair, 0);
    *card = PyLong_AsLong(*key);
    *copies = PyLong_AsLongLong(PyTuple_GET_ITEM(pair, 1));
    if (PyErr_Occurred()) return -1;
    if (*card < 0 || *card > 51) {
        PyErr_SetString(PyExc_ValueError, "counts: cards 0..51");
        return -1;
    }
    PyObject *known = PyDict_GetItemWithError(lp->values, *key);
    if (!known) return PyErr_Occurred() ? -1 : 0;
    *v = PyLong_AsLongLong(known);
    return (*v == -1 && PyErr_Occurred()) ? -1 : 1;
}

static int store_value(Loop *lp, PyObject *key, long long v) {
    PyObject *val = PyLong_FromLongLong(v);
    int rc = val ? PyDict_SetItem(lp->values, key, val) : -1;
    Py_XDECREF(val);
    return rc;
}

static inline long long with_wild(Solver *self, Loop *lp) {
    if (lp->ww < 0) lp->ww = solve(self, &lp->st, lp->j + 1, 0, 1);
    return lp->ww;
}

static inline long long after_discard(Solver *self, Loop *lp) {
    if (lp->ad < 0) lp->ad = solve(self, &lp->st, lp->j, 0, 1);
    return lp->ad;
}

/* DeadwoodMemo.after_adding of a natural ``card`` (not a wild): thrown (the deadwood), in one
 * of its groups with the hand's naturals, or kept as deadwood with the hand's best discard. */
static long long exact_value(Solver *self, Loop *lp, int card) {
    long long v = lp->dw;
    if (v) {
        Through t = {self, lp->j, 1, v};
        groups_with(self, &lp->st, card, lp->j < 3 ? lp->j : 3, visit_through, &t);
        v = t.best;
    }
    int pts = self->pts[card];
    if (pts < v && pts < lp->top && pts + after_discard(self, lp) < v) v = pts + lp->ad;
    return v;
}

/* adding_bounds(...): the loop of DeadwoodMemo.adding_bounds; (acc, zero, loose, ad, ww). */
static PyObject *solver_adding_bounds(Solver *self, PyObject *const *args, Py_ssize_t nargs) {
    Loop lp;
    if (loop_args(args, nargs, "adding_bounds", &lp) < 0) return NULL;
    PyObject *loose = PyList_New(0);
    if (!loose) goto fail;
    long long acc = 0, zero = 0;
    int jj = lp.j < 3 ? lp.j : 3;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(lp.counts);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key;
        long card;
        long long copies, v;
        int got = loop_card(&lp, i, &key, &card, &copies, &v);
        if (got < 0) goto fail;
        if (!got) {
            int exact = 1;
            if (card % 13 == lp.wild_rank) {
                v = with_wild(self, &lp);
            } else {
                v = lp.dw;
                int pts = self->pts[card];
                if (pts < lp.top && pts + after_discard(self, &lp) < v) v = pts + lp.ad;
                if (v) {
                    int fewest = fewest_jokers(self, &lp.st, (int)card, jj);
                    if (fewest >= 0 && with_wild(self, &lp) < v) {
                        PyObject *item = Py_BuildValue("(OLLLi)", key, copies, lp.ww, v, fewest);
                        if (!item || PyList_Append(loose, item) < 0) {
                            Py_XDECREF(item);
                            goto fail;
                        }
                        Py_DECREF(item);
                        v = lp.ww;
                        exact = 0;
                    }
                }
            }
            if (exact && store_value(&lp, key, v) < 0) goto fail;
        }
        acc += v * copies;
        if (v == 0) zero += copies;
    }
    Py_DECREF(lp.counts);
    return Py_BuildValue("(LLNLL)", acc, zero, loose, lp.ad, lp.ww);
fail:
    Py_DECREF(lp.counts);
    Py_XDECREF(loose);
    return NULL;
}

/* adding_sums(...): the loop of DeadwoodMemo.adding_sums, each card's value as
 * DeadwoodMemo.after_adding finds it (a wild's not stored); (acc, outs, zero, ad, ww). */
static PyObject *solver_adding_sums(Solver *self, PyObject *const *args, Py_ssize_t nargs) {
    Loop lp;
    if (loop_args(args, nargs, "adding_sums", &lp) < 0) return NULL;
    long long acc = 0, outs = 0, zero = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(lp.counts);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key;
        long card;
        long long copies, v;
        int got = loop_card(&lp, i, &key, &card, &copies, &v);
        if (got < 0) goto fail;
        if (!got && card % 13 == lp.wild_rank) {
            v = with_wild(self, &lp);
        } else if (!got) {
            v = exact_value(self, &lp, (int)card);
            if (store_value(&lp, key, v) < 0) goto fail;
        }
        acc += v * copies;
        if (v < lp.dw) outs += copies;
        if (v == 0) zero += copies;
    }
    Py_DECREF(lp.counts);
    return Py_BuildValue("(LLLLL)", acc, outs, zero, lp.ad, lp.ww);
fail:
    Py_DECREF(lp.counts);
    return NULL;
}

/* gain(state, j, deadwood, top, wild_rank, card, values, ad, ww): DeadwoodMemo.gain_of_adding,
 * the deadwood (-1: searched here) less after_adding of ``card`` (stored in ``values`` as the
 * Python path does), 0 at once for a card worth at least every card of the hand that fits no
 * group; (gain, deadwood, ad, ww). */
static PyObject *solver_gain(Solver *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "gain(state, j, deadwood, top, wild_rank, card, values, ad, ww)");
        return NULL;
    }
    PyObject *none = PyTuple_New(0); /* no (card, copies) loop here */
    if (!none) return NULL;
    PyObject *head[9] = {args[0], args[1], args[2], args[3], args[4],
                         none,    args[6], args[7], args[8]};
    Loop lp;
    int rc = loop_args(head, 9, "gain", &lp);
    Py_DECREF(none);
    if (rc < 0) return NULL;
    Py_DECREF(lp.counts);
    long card;
    if (card_arg(args[5], &card) < 0) return NULL;
    int wild = card % 13 == lp.wild_rank;
    if (!wild && self->pts[card] >= lp.top) {
        if (fewest_jokers(self, &lp.st, (int)card, lp.j < 3 ? lp.j : 3) < 0) return Py_BuildValue("(iLLL)", 0, lp.dw, lp.ad, lp.ww);
    }
    if (lp.dw < 0) lp.dw = solve(self, &lp.st, lp.j, 0, 0);
    long long v;
    PyObject *known = PyDict_GetItemWithError(lp.values, args[5]);
    if (known) {
        v = PyLong_AsLongLong(known);
        if (v == -1 && PyErr_Occurred()) return NULL;
    } else if (PyErr_Occurred()) {
        return NULL;
    } else if (wild) {
        v = with_wild(self, &lp);
    } else {
        v = exact_value(self, &lp, (int)card);
        if (store_value(&lp, args[5], v) < 0) return NULL;
    }
    return Py_BuildValue("(LLLL)", lp.dw - v, lp.dw, lp.ad, lp.ww);
}

/* One loosely bounded card of adding_bounds: (card, copies, bound, ceiling, jokers), and the
 * order key of t13._Evaluator._raised_bound. */
typedef struct {
    PyObject *key; /* borrowed */
    long card;
    long long copies, low;
    int jokers;
    double rise;
} Loose;

static int loose_before(const Loose *a, const Loose *b) {
    if (a->jokers != b->jokers) return a->jokers > b->jokers;
    return a->rise < b->rise;
}

/* raised_bound(state, j, deadwood, top, wild_rank, loose, values, ad, acc, zero, best, risk,
 * total, go_out_weight): the loop of t13._Evaluator._raised_bound. The ``loose`` cards of
 * adding_bounds, most wilds first then by the rise their exact figure can bring (a stable
 * order), get their exact after_adding (stored in ``values``) until the kept hand's value
 * ``(1 - risk) * acc / total + risk * deadwood - (1 - risk) * weight * zero / total`` exceeds
 * ``best``; (that value or None when it never does, ad). */
static PyObject *solver_raised_bound(Solver *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 14) {
        PyErr_SetString(PyExc_TypeError,
                        "raised_bound(state, j, deadwood, top, wild_rank, loose, values, ad, "
                        "acc, zero, best, risk, total, go_out_weight)");
        return NULL;
    }
    PyObject *head[9] = {args[0], args[1], args[2], args[3], args[4],
                         args[5], args[6], args[7], args[7]};
    Loop lp;
    if (loop_args(head, 9, "raised_bound", &lp) < 0) return NULL;
    lp.ww = -1; /* unused: loose cards are naturals (a wild's bound is exact) */
    long long acc = PyLong_AsLongLong(args[8]), zero = PyLong_AsLongLong(args[9]);
    double best = PyFloat_AsDouble(args[10]), risk = PyFloat_AsDouble(args[11]);
    double total = PyFloat_AsDouble(args[12]), weight = PyFloat_AsDouble(args[13]);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(lp.counts);
    Loose *items = NULL;
    if (PyErr_Occurred()) goto fail;
    if (total <= 0) {
        PyErr_SetString(PyExc_ValueError, "total must be > 0");
        goto fail;
    }
    items = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(Loose));
    if (!items) {
        PyErr_NoMemory();
        goto fail;
    }
    double shortfall = weight + 1; /* a go-out the bound assumes weighs more than a point */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(lp.counts, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 5) {
            PyErr_SetString(PyExc_TypeError, "loose: (card, copies, bound, ceiling, jokers)");
            goto fail;
        }
        Loose it;
        it.key = PyTuple_GET_ITEM(t, 0);
        if (card_arg(it.key, &it.card) < 0) goto fail;
        it.copies = PyLong_AsLongLong(PyTuple_GET_ITEM(t, 1));
        it.low = PyLong_AsLongLong(PyTuple_GET_ITEM(t, 2));
        long long ceiling = PyLong_AsLongLong(PyTuple_GET_ITEM(t, 3));
        it.jokers = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 4));
        if (PyErr_Occurred()) goto fail;
        it.rise = (double)((it.low - ceiling) * it.copies) -
                  (it.low == 0 ? shortfall * (double)it.copies : 0.0);
        Py_ssize_t k = i; /* insertion: stable, as Python's sort */
        while (k > 0 && loose_before(&it, &items[k - 1])) {
            items[k] = items[k - 1];
            k--;
        }
        items[k] = it;
    }
    PyObject *result = Py_None;
    double raised = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Loose *it = &items[i];
        PyObject *known = PyDict_GetItemWithError(lp.values, it->key);
        long long v;
        if (known) {
            v = PyLong_AsLongLong(known);
            if (v == -1 && PyErr_Occurred()) goto fail;
        } else if (PyErr_Occurred()) {
            goto fail;
        } else {
            v = exact_value(self, &lp, (int)it->card);
            if (store_value(&lp, it->key, v) < 0) goto fail;
        }
        if (v == it->low) continue;
        acc += (v - it->low) * it->copies;
        if (it->low == 0) zero -= it->copies;
        double expected = (double)acc / total, chance = (double)zero / total;
        double lower = (1 - risk) * expected + risk * (double)lp.dw - (1 - risk) * weight * chance;
        if (lower > best) {
            raised = lower;
            result = NULL;
            break;
        }
    }
    PyMem_Free(items);
    Py_DECREF(lp.counts);
    if (result == NULL) return Py_BuildValue("(dL)", raised, lp.ad);
    return Py_BuildValue("(OL)", Py_None, lp.ad);
fail:
    PyMem_Free(items);
    Py_DECREF(lp.counts);
    return NULL;
}

static int solver_init(Solver *self, PyObject *args, PyObject *kwds) {
    PyObject *table;
    long long jv;
    int cap, high;
    Py_ssize_t limit;
    static char *kwlist[] = {"point_table", "joker_value", "cap", "aces_high", "limit", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OLipn", kwlist, &table, &jv, &cap, &high, &limit))
        return -1;
    PyObject *fast = PySequence_Fast(table, "point_table");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) < 52) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "point_table: want 52 values");
        return -1;
    }
    for (int c = 0; c < 52; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, c));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        self->pts[c] = (int)v;
    }
    Py_DECREF(fast);
    if (limit < 1 || limit > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "limit: 1..2**24 entries");
        return -1;
    }
    self->joker_value = jv;
    self->cap = cap;
    self->aces_high = high;
    self->limit = limit;
    Py_ssize_t max_size = 16;
    while (max_size < 2 * limit) max_size <<= 1; /* at most half full */
    Py_ssize_t size = max_size < 4096 ? max_size : 4096;
    self->max_size = max_size;
    PyMem_Free(self->table);
    self->table = PyMem_Calloc((size_t)size, sizeof(Entry));
    if (!self->table) {
        PyErr_NoMemory();
        return -1;
    }
    self->size = size;
    self->used = 0;
    self->gen = 1;
    return 0;
}

static void solver_dealloc(Solver *self) {
    PyMem_Free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef solver_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))solver_solve, METH_FASTCALL,
     "Least deadwood of naturals ``state`` with ``j`` jokers (see _CardSolver)."},
    {"through", (PyCFunction)(void (*)(void))solver_through, METH_FASTCALL,
     "min(best, the least deadwood with natural ``card`` added in one of its groups)."},
    {"fewest_jokers", (PyCFunction)(void (*)(void))solver_fewest, METH_FASTCALL,
     "Fewest jokers a group holding natural ``card`` needs (-1: no group)."},
    {"adding_sums", (PyCFunction)(void (*)(void))solver_adding_sums, METH_FASTCALL,
     "The loop of DeadwoodMemo.adding_sums: (acc, outs, zero, ad, ww)."},
    {"adding_bounds", (PyCFunction)(void (*)(void))solver_adding_bounds, METH_FASTCALL,
     "The loop of DeadwoodMemo.adding_bounds: (acc, zero, loose, ad, ww)."},
    {"gain", (PyCFunction)(void (*)(void))solver_gain, METH_FASTCALL,
     "DeadwoodMemo.gain_of_adding: (gain, deadwood, ad, ww)."},
    {"raised_bound", (PyCFunction)(void (*)(void))solver_raised_bound, METH_FASTCALL,
     "The loop of t13._Evaluator._raised_bound: (value above best or None, ad)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine.standard._solver.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The memoised search of one context (engine.standard.solver._CardSolver).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)solver_init,
    .tp_dealloc = (destructor)solver_dealloc,
    .tp_methods = solver_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver", "Compiled least-deadwood search (Three Thirteen).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver(void) {
    init_run_need();
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
