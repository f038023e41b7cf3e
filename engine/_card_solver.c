/* The memoised least-deadwood search of engine.std_arrange._CardSolver, compiled: the same
 * recursion over the lowest natural card (deadwood, thrown when ``free``, or in one of its
 * groups: runs of its suit spanning at most 5 positions, ace low or, when aces may be high,
 * ending at a high ace; sets of its rank of at most ``cap`` naturals; wilds filling gaps and
 * short groups), on one memo shared by every hand of a context. Three Thirteen advice spends
 * most of its time in this search. Optional: without it (no C compiler at install, or
 * TUNK_PURE_PYTHON=1) the Python closure runs; tests/engine/test_accelerators.py checks that
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

static inline void consider(Solver *self, const State *st, int j, int fr, int64_t *best) {
    int64_t v = solve(self, st, j, 1, fr);
    if (v < *best) *best = v;
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
    /* runs from c up its suit: the cards 1..4 ranks above, spanning at most 5 positions */
    if (best) {
        int present = 0, top = 12 - rank < 4 ? 12 - rank : 4;
        for (int k = 1; k <= top; k++)
            if (count_of(st, c + k)) present |= 1 << (k - 1);
        for (int sub = 1; sub < 16 && best; sub++) {
            if ((sub & present) != sub) continue;
            int span = 32 - __builtin_clz((unsigned)sub) + 1;
            int size = __builtin_popcount((unsigned)sub) + 1;
            int need = span - size + (span < 3 ? 3 - span : 0);
            if (need > jj) continue;
            State g = *st;
            sub_count(&g, c, 1);
            for (int k = 1; k <= 4; k++)
                if (sub >> (k - 1) & 1) sub_count(&g, c + k, 1);
            consider(self, &g, j - need, fr, &best);
        }
    }
    /* runs ending at a high ace: the K, Q, J, 10 of its suit below it */
    if (best && rank == 0 && self->aces_high) {
        int present = 0;
        for (int k = 1; k <= 4; k++)
            if (count_of(st, c + 13 - k)) present |= 1 << (k - 1);
        for (int sub = 1; sub < 16 && best; sub++) {
            if ((sub & present) != sub) continue;
            int span = 32 - __builtin_clz((unsigned)sub) + 1;
            int size = __builtin_popcount((unsigned)sub) + 1;
            int need = span - size + (span < 3 ? 3 - span : 0);
            if (need > jj) continue;
            State g = *st;
            sub_count(&g, c, 1);
            for (int k = 1; k <= 4; k++)
                if (sub >> (k - 1) & 1) sub_count(&g, c + 13 - k, 1);
            consider(self, &g, j - need, fr, &best);
        }
    }
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
    if (self->used >= self->limit) { /* the memo starts afresh, as the Python one does */
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

static PyObject *solver_solve(Solver *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "solve(state, j, melded, free)");
        return NULL;
    }
    State st;
    if (state_from(args[0], &st) < 0) return NULL;
    long j = PyLong_AsLong(args[1]);
    if (j == -1 && PyErr_Occurred()) return NULL;
    if (j < 0 || j > 1000) {
        PyErr_SetString(PyExc_ValueError, "0..1000 jokers");
        return NULL;
    }
    int melded = PyObject_IsTrue(args[2]), fr = PyObject_IsTrue(args[3]);
    if (melded < 0 || fr < 0) return NULL;
    return PyLong_FromLongLong(solve(self, &st, (int)j, melded, fr));
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
    Py_ssize_t size = 16;
    while (size < 2 * limit) size <<= 1; /* at most half full */
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
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._card_solver.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The memoised search of one context (engine.std_arrange._CardSolver).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)solver_init,
    .tp_dealloc = (destructor)solver_dealloc,
    .tp_methods = solver_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_card_solver", "Compiled least-deadwood search (Three Thirteen).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__card_solver(void) {
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
