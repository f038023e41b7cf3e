/* Least deadwood of a standard-deck hand of distinct cards without a wild, compiled: the case
 * engine.standard.deadwood.min_deadwood meets in simulations and in bench/bench_peers.py. Same
 * search as its pure-Python bit-mask path (C-2 deadwood; melds of the lowest card first: sets of
 * 3..cap cards of its rank, runs of 3..5 of its suit, ace low, and Q-K-A when aces may be high;
 * longer runs split into runs of 3..5 without loss), memoised on the mask of the cards left.
 * Optional: without it (no C compiler at install, or TUNK_PURE_PYTHON=1) the Python path runs;
 * tests/engine/standard/test_accelerators.py checks that both give the same deadwood.
 *
 * min_deadwood(hand, point_table, wild_rank, aces_high, cap) -> int, or -1 when the hand holds
 * a card of the wild rank, two copies of a card, or a card outside 0..51 (the caller's general
 * search handles those). Cards are suit * 13 + rank (engine.core.cards).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define ROW 0x1FFFULL
#define ACES (1ULL | 1ULL << 13 | 1ULL << 26 | 1ULL << 39)
#define MEMO_SIZE 4096 /* power of two; past 3/4 full the search goes on without storing */

static PyObject *cached_table = NULL; /* the point table last read, kept alive */
static int pts[52];

static uint64_t memo_key[MEMO_SIZE];
static int memo_val[MEMO_SIZE];
static uint32_t memo_gen[MEMO_SIZE];
static uint32_t generation = 0;
static int memo_used = 0;
static int aces_high = 0;
static int cap = 4;

static int read_table(PyObject *table) {
    if (table == cached_table) return 0;
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
        pts[c] = (int)v;
    }
    Py_DECREF(fast);
    Py_INCREF(table);
    Py_XSETREF(cached_table, table);
    return 0;
}

static inline int mask_points(uint64_t m) {
    int total = 0;
    while (m) {
        total += pts[__builtin_ctzll(m)];
        m &= m - 1;
    }
    return total;
}

/* Cards of ``nat`` in some meld made of cards of ``nat`` (engine.standard.masks._meldable, no wild). */
static inline uint64_t meldable(uint64_t nat) {
    uint64_t from2 = 0;
    for (int s = 0; s < 4; s++) from2 |= ((1ULL << 11) - 1) << (13 * s);
    uint64_t s3 = nat & nat >> 1 & nat >> 2 & from2;
    uint64_t cover = s3 | s3 << 1 | s3 << 2;
    if (aces_high) {
        uint64_t h = nat & nat >> 11 & nat >> 12 & ACES;
        cover |= h | h << 11 | h << 12;
    }
    uint64_t a = nat & ROW, b = nat >> 13 & ROW, c = nat >> 26 & ROW, d = nat >> 39 & ROW;
    uint64_t ranks = cap >= 3 ? ((a & b & (c | d)) | (c & d & (a | b))) : 0;
    return nat & (cover | ranks * ACES);
}

static int solve(uint64_t mask);

static inline int try_meld(uint64_t mask, uint64_t meld, int best) {
    if ((meld & mask) != meld) return best;
    int v = solve(mask ^ meld);
    return v < best ? v : best;
}

static int solve(uint64_t mask) {
    if (!mask) return 0;
    uint32_t slot = (uint32_t)((mask * 0x9E3779B97F4A7C15ULL) >> 52) & (MEMO_SIZE - 1);
    for (uint32_t probe = slot;; probe = (probe + 1) & (MEMO_SIZE - 1)) {
        if (memo_gen[probe] != generation) break;
        if (memo_key[probe] == mask) return memo_val[probe];
    }
    int i = __builtin_ctzll(mask);
    uint64_t low = 1ULL << i;
    int best = pts[i] + solve(mask ^ low);
    int rank = i % 13, base = i - rank;
    /* sets holding the card, the others of its rank in higher suits */
    if (best && cap >= 3) {
        int others[3], n = 0;
        for (int t = i + 13; t < 52; t += 13)
            if (mask >> t & 1) others[n++] = t;
        for (int sub = 1; sub < (1 << n) && best; sub++) {
            int size = 1 + __builtin_popcount(sub);
            if (size < 3 || size > cap) continue;
            uint64_t meld = low;
            for (int k = 0; k < n; k++)
                if (sub >> k & 1) meld |= 1ULL << others[k];
            best = try_meld(mask, meld, best);
        }
    }
    /* runs starting at the card (ace low), 3..5 long */
    if (best) {
        uint64_t meld = low;
        for (int len = 2; len <= 5 && rank + len - 1 <= 12 && best; len++) {
            meld |= 1ULL << (i + len - 1);
            if ((meld & mask) != meld) break;
            if (len >= 3) best = try_meld(mask, meld, best);
        }
    }
    /* runs ending at a high ace: Q-K-A, J-Q-K-A, 10-J-Q-K-A */
    if (best && aces_high && rank == 0) {
        uint64_t meld = low;
        for (int len = 2; len <= 5 && best; len++) {
            meld |= 1ULL << (base + 14 - len);
            if ((meld & mask) != meld) break;
            if (len >= 3) best = try_meld(mask, meld, best);
        }
    }
    if (memo_used < MEMO_SIZE * 3 / 4) {
        uint32_t probe = slot;
        while (memo_gen[probe] == generation) probe = (probe + 1) & (MEMO_SIZE - 1);
        memo_gen[probe] = generation;
        memo_key[probe] = mask;
        memo_val[probe] = best;
        memo_used++;
    }
    return best;
}

static PyObject *min_deadwood(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *hand, *table;
    int wild_rank, high, set_cap;
    if (!PyArg_ParseTuple(args, "OOipi", &hand, &table, &wild_rank, &high, &set_cap)) return NULL;
    if (read_table(table) < 0) return NULL;
    PyObject *fast = PySequence_Fast(hand, "hand");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    uint64_t nat = 0;
    int total = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        if (c < 0 || c > 51 || (nat >> c & 1) || c % 13 == wild_rank) {
            Py_DECREF(fast);
            return PyLong_FromLong(-1);
        }
        nat |= 1ULL << c;
        total += pts[c];
    }
    Py_DECREF(fast);
    aces_high = high;
    cap = set_cap < 4 ? set_cap : 4;
    uint64_t m = meldable(nat);
    if (!m) return PyLong_FromLong(total);
    if (++generation == 0) { /* wrapped: forget every stamp */
        memset(memo_gen, 0, sizeof memo_gen);
        generation = 1;
    }
    memo_used = 0;
    return PyLong_FromLong(total - mask_points(m) + solve(m));
}

static PyMethodDef methods[] = {
    {"min_deadwood", min_deadwood, METH_VARARGS,
     "Least deadwood of distinct cards without a wild (-1: not such a hand)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_deadwood", "Compiled least deadwood of a standard-deck hand.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__deadwood(void) { return PyModule_Create(&module); }
