/* The opponents' hidden-hand draw of the Tunk advice, compiled: the same algorithm and the same
 * random stream as engine.advice.tunk.common.HandSampler.sample (its docstring explains the
 * model), so a seeded generator gives the very same hands either way. The knock question draws
 * a few hundred joint hands, and each passing opponent's own view a hundred more; this module
 * makes each draw about five times cheaper. Optional: without it (no C compiler at install, or
 * TUNK_PURE_PYTHON=1) HandSampler.sample runs in Python, and
 * tests/engine/advice/test_sampler_twin.py checks that both give the same hands.
 *
 * init(tt_features, tt_meld_sizes, gff_meld3_masks) takes the meld tables once;
 * plan(kind, pool, counts, known, mix, low, kept_low, pool_melds, points) packs one sampler
 * (None when it does not fit: a card id of 128 or more, more than MAX_OPP opponents);
 * sample(plan, rng) draws with rng.random (and rng.sample where the Python code does);
 * totals(plan, rng, draws) makes draws joint draws the same way and returns only each hand's
 * points, in order (HandSampler.totals: what the knock question reads of them).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

#define MAX_CARD 128
#define MAX_OPP 8
#define MAX_HAND 64
#define MELD_TRIES 40     /* engine.advice.tunk.common._MELD_TRIES */
#define MAX_REJECTIONS 8  /* engine.advice.tunk.common.MAX_REJECTIONS */
#define KIND_TT 1
#define KIND_GFF 2
#define TT_FEATURES 125
#define TT_SIZES 131072
#define GFF_SPREADS 128

static int ready = 0;
static uint32_t tt_feature[TT_FEATURES];
static uint8_t tt_sizes[TT_SIZES];
static uint64_t gff_meld3[GFF_SPREADS]; /* sorted */
static int gff_meld3_n = 0;

typedef struct {
    int kind;
    int n;
    int pool_n;
    uint8_t pool[MAX_CARD];
    int counts[MAX_OPP];
    PyObject *known[MAX_OPP]; /* the known cards' tuples, returned as they are */
    int known_n[MAX_OPP];
    uint8_t known_cards[MAX_OPP][MAX_HAND];
    double to_baseline[MAX_OPP], to_hoarder[MAX_OPP], meld_chance[MAX_OPP], keeps[MAX_OPP];
    int low_n[MAX_OPP], kept_low_n[MAX_OPP];
    uint8_t low[MAX_OPP][MAX_CARD];
    uint8_t kept_low[MAX_OPP][MAX_CARD];
    long points[MAX_CARD]; /* each card's points (GameModel.points) */
    int melds_n;
    uint8_t (*melds)[3];
    PyObject *meld_tuples; /* the pool's 3-card melds as the Python tuples */
} Plan;

static const char *PLAN_NAME = "engine.advice.tunk._sampler.plan";

static void plan_free(PyObject *capsule) {
    Plan *p = (Plan *)PyCapsule_GetPointer(capsule, PLAN_NAME);
    if (!p) return;
    for (int j = 0; j < p->n; j++) Py_XDECREF(p->known[j]);
    Py_XDECREF(p->meld_tuples);
    PyMem_Free(p->melds);
    PyMem_Free(p);
}

/* Reads a sequence of card ids into out[0..n); returns n, -1 on error, -2 when it does not fit. */
static int read_cards(PyObject *seq, uint8_t *out, int cap) {
    PyObject *fast = PySequence_Fast(seq, "cards must be a sequence");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > cap) {
        Py_DECREF(fast);
        return -2;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (c < 0 || c >= MAX_CARD) {
            Py_DECREF(fast);
            return -2;
        }
        out[i] = (uint8_t)c;
    }
    Py_DECREF(fast);
    return (int)n;
}

static PyObject *init(PyObject *self, PyObject *args) {
    PyObject *features, *sizes, *spreads;
    if (!PyArg_ParseTuple(args, "OOO", &features, &sizes, &spreads)) return NULL;
    if (PySequence_Size(features) != TT_FEATURES || PySequence_Size(sizes) != TT_SIZES) {
        PyErr_SetString(PyExc_ValueError, "unexpected Triple Tunk meld table sizes");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < TT_FEATURES; i++) {
        PyObject *v = PySequence_GetItem(features, i);
        if (!v) return NULL;
        unsigned long f = PyLong_AsUnsignedLong(v);
        Py_DECREF(v);
        if (PyErr_Occurred()) return NULL;
        if (f >= TT_SIZES) {
            PyErr_SetString(PyExc_ValueError, "a feature is outside the meld-size table");
            return NULL;
        }
        tt_feature[i] = (uint32_t)f;
    }
    for (Py_ssize_t i = 0; i < TT_SIZES; i++) {
        PyObject *v = PySequence_GetItem(sizes, i);
        if (!v) return NULL;
        long s = PyLong_AsLong(v);
        Py_DECREF(v);
        if (s == -1 && PyErr_Occurred()) return NULL;
        tt_sizes[i] = (uint8_t)s;
    }
    PyObject *fast = PySequence_Fast(spreads, "spreads must be a sequence");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > GFF_SPREADS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many Game Flip Flop spreads");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long m = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        gff_meld3[i] = (uint64_t)m;
    }
    Py_DECREF(fast);
    gff_meld3_n = (int)n;
    /* sorted for the binary search */
    for (int i = 1; i < gff_meld3_n; i++) {
        uint64_t v = gff_meld3[i];
        int k = i - 1;
        while (k >= 0 && gff_meld3[k] > v) {
            gff_meld3[k + 1] = gff_meld3[k];
            k--;
        }
        gff_meld3[k + 1] = v;
    }
    ready = 1;
    Py_RETURN_NONE;
}

static double item_double(PyObject *seq, Py_ssize_t i) {
    PyObject *v = PySequence_GetItem(seq, i);
    if (!v) return -1.0;
    double d = PyFloat_AsDouble(v);
    Py_DECREF(v);
    return d;
}

static PyObject *plan(PyObject *self, PyObject *args) {
    int kind;
    PyObject *pool, *counts, *known, *mix, *low, *kept_low, *pool_melds, *points;
    if (!PyArg_ParseTuple(args, "iOOOOOOOO", &kind, &pool, &counts, &known, &mix, &low, &kept_low,
                          &pool_melds, &points))
        return NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "init() has not been called");
        return NULL;
    }
    if (kind != KIND_TT && kind != KIND_GFF) Py_RETURN_NONE;
    Py_ssize_t n = PySequence_Size(counts);
    if (n < 0) return NULL;
    if (n > MAX_OPP) Py_RETURN_NONE;
    Plan *p = (Plan *)PyMem_Calloc(1, sizeof(Plan));
    if (!p) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(p, PLAN_NAME, plan_free);
    if (!capsule) {
        PyMem_Free(p);
        return NULL;
    }
    p->kind = kind;
    PyObject *pts = PySequence_Fast(points, "points must be a sequence");
    if (!pts) goto fail;
    Py_ssize_t np = PySequence_Fast_GET_SIZE(pts);
    for (Py_ssize_t i = 0; i < MAX_CARD && i < np; i++)
        p->points[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(pts, i));
    Py_DECREF(pts);
    if (PyErr_Occurred()) goto fail;
    int got = read_cards(pool, p->pool, MAX_CARD);
    if (got < 0) goto fail_or_none;
    p->pool_n = got;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *v = PySequence_GetItem(counts, j);
        if (!v) goto fail;
        p->counts[j] = (int)PyLong_AsLong(v);
        Py_DECREF(v);
        if (PyErr_Occurred()) goto fail;
        PyObject *k = PySequence_GetItem(known, j);
        if (!k) goto fail;
        if (!PyTuple_Check(k)) {
            Py_DECREF(k);
            PyErr_SetString(PyExc_TypeError, "known hands must be tuples");
            goto fail;
        }
        p->known[j] = k; /* owns the reference */
        p->n = (int)j + 1;
        got = read_cards(k, p->known_cards[j], MAX_HAND);
        if (got < 0) goto fail_or_none;
        p->known_n[j] = got;
        if (got + p->counts[j] > MAX_HAND) goto none;
        PyObject *m = PySequence_GetItem(mix, j);
        if (!m) goto fail;
        p->to_baseline[j] = item_double(m, 0);
        p->to_hoarder[j] = item_double(m, 1);
        p->meld_chance[j] = item_double(m, 2);
        p->keeps[j] = item_double(m, 3);
        Py_DECREF(m);
        if (PyErr_Occurred()) goto fail;
        PyObject *l = PySequence_GetItem(low, j);
        if (!l) goto fail;
        got = read_cards(l, p->low[j], MAX_CARD);
        Py_DECREF(l);
        if (got < 0) goto fail_or_none;
        p->low_n[j] = got;
        l = PySequence_GetItem(kept_low, j);
        if (!l) goto fail;
        got = read_cards(l, p->kept_low[j], MAX_CARD);
        Py_DECREF(l);
        if (got < 0) goto fail_or_none;
        p->kept_low_n[j] = got;
    }
    p->n = (int)n;
    if (kind == KIND_GFF) { /* its meld test reads 64-bit masks */
        if (pool_melds == Py_None) goto none;
        for (int i = 0; i < p->pool_n; i++)
            if (p->pool[i] >= 64) goto none;
        for (int j = 0; j < p->n; j++)
            for (int i = 0; i < p->known_n[j]; i++)
                if (p->known_cards[j][i] >= 64) goto none;
        PyObject *fast = PySequence_Fast(pool_melds, "pool_melds must be a sequence");
        if (!fast) goto fail;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
        p->melds = PyMem_Malloc((m ? m : 1) * sizeof(*p->melds));
        if (!p->melds) {
            Py_DECREF(fast);
            PyErr_NoMemory();
            goto fail;
        }
        for (Py_ssize_t i = 0; i < m; i++) {
            got = read_cards(PySequence_Fast_GET_ITEM(fast, i), p->melds[i], 3);
            if (got != 3) {
                Py_DECREF(fast);
                if (got == -1) goto fail;
                goto none;
            }
        }
        p->melds_n = (int)m;
        p->meld_tuples = fast; /* owns the reference */
    } else if (pool_melds != Py_None) {
        goto none;
    }
    return capsule;
fail_or_none:
    if (got == -1) goto fail;
none:
    Py_DECREF(capsule);
    Py_RETURN_NONE;
fail:
    Py_DECREF(capsule);
    return NULL;
}

/* One draw of the Python generator's random(): -1.0 on error. */
static inline double draw(PyObject *random) {
    PyObject *v = PyObject_CallNoArgs(random);
    if (!v) return -1.0;
    double d = PyFloat_AsDouble(v); /* -1.0 with an error set when it is no number */
    Py_DECREF(v);
    return d;
}

#define BIT(c) (((u128)1) << (c))

static int gff_is_meld3(uint64_t m) {
    int lo = 0, hi = gff_meld3_n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (gff_meld3[mid] == m) return 1;
        if (gff_meld3[mid] < m) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}

/* Whether three cards of hand[0..n) form a meld (HandSampler._has_meld). */
static int has_meld(const Plan *p, const uint8_t *hand, int n) {
    if (p->kind == KIND_GFF) {
        for (int i = 0; i < n - 2; i++)
            for (int j = i + 1; j < n - 1; j++)
                for (int k = j + 1; k < n; k++) {
                    uint64_t m = ((uint64_t)1 << hand[i]) | ((uint64_t)1 << hand[j]) |
                                 ((uint64_t)1 << hand[k]);
                    if (gff_is_meld3(m)) return 1;
                }
        return 0;
    }
    for (int i = 0; i < n - 2; i++) {
        int a = hand[i];
        uint32_t fa = tt_feature[a];
        for (int j = i + 1; j < n - 1; j++) {
            int b = hand[j];
            if (b == a) continue;
            uint32_t fab = fa | tt_feature[b];
            for (int k = j + 1; k < n; k++) {
                int c = hand[k];
                if (c != a && c != b && (tt_sizes[fab | tt_feature[c]] & 8)) return 1;
            }
        }
    }
    return 0;
}

/* need distinct cards of cards[0..size) not in taken, into out (HandSampler._deal); returns
 * how many it wrote, -1 on error. */
static int deal(const Plan *p, PyObject *rng, PyObject *random, const uint8_t *cards, int size,
                int need, u128 taken, uint8_t *out) {
    int got = 0;
    int tries = size ? 4 * need + 4 : 0;
    while (got < need && tries) {
        tries--;
        double u = draw(random);
        if (u < 0) return -1;
        int c = cards[(Py_ssize_t)(u * (double)size)];
        if (!(taken & BIT(c))) {
            taken |= BIT(c);
            out[got++] = (uint8_t)c;
        }
    }
    if (got < need) { /* few free cards left in the list: list them */
        uint8_t free_cards[MAX_CARD];
        int nfree = 0;
        for (int i = 0; i < size; i++)
            if (!(taken & BIT(cards[i]))) free_cards[nfree++] = cards[i];
        if (nfree < need - got) {
            for (int i = 0; i < nfree; i++) {
                out[got++] = free_cards[i];
                taken |= BIT(free_cards[i]);
            }
            nfree = 0;
            for (int i = 0; i < p->pool_n; i++)
                if (!(taken & BIT(p->pool[i]))) free_cards[nfree++] = p->pool[i];
        }
        PyObject *list = PyList_New(nfree);
        if (!list) return -1;
        for (int i = 0; i < nfree; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(free_cards[i]));
        PyObject *picked = PyObject_CallMethod(rng, "sample", "On", list, (Py_ssize_t)(need - got));
        Py_DECREF(list);
        if (!picked) return -1;
        Py_ssize_t k = PyList_Size(picked);
        for (Py_ssize_t i = 0; i < k && got < need; i++)
            out[got++] = (uint8_t)PyLong_AsLong(PyList_GET_ITEM(picked, i));
        Py_DECREF(picked);
        if (PyErr_Occurred()) return -1;
    }
    return got;
}

/* A 3-card meld of free unseen cards into out (HandSampler._meld): 3 when found, 0 when not,
 * -1 on error. */
static int meld(const Plan *p, PyObject *random, u128 taken, uint8_t *out) {
    if (p->kind == KIND_GFF) {
        for (int t = 0; t < MELD_TRIES; t++) {
            if (!p->melds_n) break;
            double u = draw(random);
            if (u < 0) return -1;
            const uint8_t *m = p->melds[(Py_ssize_t)(u * (double)p->melds_n)];
            if (!(taken & (BIT(m[0]) | BIT(m[1]) | BIT(m[2])))) {
                memcpy(out, m, 3);
                return 3;
            }
        }
        return 0;
    }
    double size = (double)p->pool_n;
    for (int t = 0; t < MELD_TRIES; t++) {
        double ua = draw(random);
        if (ua < 0) return -1;
        double ub = draw(random);
        if (ub < 0) return -1;
        double uc = draw(random);
        if (uc < 0) return -1;
        int a = p->pool[(Py_ssize_t)(ua * size)], b = p->pool[(Py_ssize_t)(ub * size)];
        int c = p->pool[(Py_ssize_t)(uc * size)];
        if (a == b || a == c || b == c) continue;
        u128 m = BIT(a) | BIT(b) | BIT(c);
        if (!(taken & m) && (tt_sizes[tt_feature[a] | tt_feature[b] | tt_feature[c]] & 8)) {
            out[0] = (uint8_t)a;
            out[1] = (uint8_t)b;
            out[2] = (uint8_t)c;
            return 3;
        }
    }
    return 0;
}

/* One joint draw into hands[j][0..sizes[j]) (known cards first; HandSampler.sample_py); 0, or
 * -1 on error. */
static int draw_joint(const Plan *p, PyObject *rng, PyObject *random, uint8_t hands[][MAX_HAND],
                      int *sizes) {
    u128 taken = 0;
    for (int j = 0; j < p->n; j++) {
        int need = p->counts[j];
        int nk = p->known_n[j];
        uint8_t *hand = hands[j];
        memcpy(hand, p->known_cards[j], nk);
        sizes[j] = nk;
        if (!need) continue;
        uint8_t *mine = hand + nk;
        double u = draw(random);
        if (u < 0) return -1;
        const uint8_t *low = NULL;
        int low_n = 0;
        if (u < p->to_hoarder[j]) {
            int kept = 0;
            if (p->keeps[j] != 0.0) {
                double k = draw(random);
                if (k < 0) return -1;
                kept = k < p->keeps[j];
            }
            low = kept ? p->kept_low[j] : p->low[j];
            low_n = kept ? p->kept_low_n[j] : p->low_n[j];
        }
        int got;
        if (u < p->to_baseline[j]) { /* holds no meld: redraw a hand holding one */
            got = deal(p, rng, random, low, low_n, need, taken, mine);
            if (got < 0) return -1;
            int tries = MAX_REJECTIONS;
            while (tries && has_meld(p, hand, nk + got)) {
                got = deal(p, rng, random, low, low_n, need, taken, mine);
                if (got < 0) return -1;
                tries--;
            }
        } else if (u < p->to_hoarder[j]) {
            int m = 0;
            if (need >= 3) {
                double v = draw(random);
                if (v < 0) return -1;
                if (v < p->meld_chance[j]) {
                    m = meld(p, random, taken, mine);
                    if (m < 0) return -1;
                }
            }
            u128 extra = 0;
            for (int i = 0; i < m; i++) extra |= BIT(mine[i]);
            got = deal(p, rng, random, low, low_n, need - m, taken | extra, mine + m);
            if (got < 0) return -1;
            got += m;
        } else {
            got = deal(p, rng, random, p->pool, p->pool_n, need, taken, mine);
            if (got < 0) return -1;
        }
        for (int i = 0; i < got; i++) taken |= BIT(mine[i]);
        sizes[j] = nk + got;
    }
    return 0;
}

static Plan *plan_of(PyObject *capsule) {
    return (Plan *)PyCapsule_GetPointer(capsule, PLAN_NAME);
}

static PyObject *sample(PyObject *self, PyObject *args) {
    PyObject *capsule, *rng;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &rng)) return NULL;
    Plan *p = plan_of(capsule);
    if (!p) return NULL;
    PyObject *random = PyObject_GetAttrString(rng, "random");
    if (!random) return NULL;
    uint8_t hands[MAX_OPP][MAX_HAND];
    int sizes[MAX_OPP];
    int failed = draw_joint(p, rng, random, hands, sizes);
    Py_DECREF(random);
    if (failed) return NULL;
    PyObject *out = PyTuple_New(p->n);
    if (!out) return NULL;
    for (int j = 0; j < p->n; j++) {
        PyObject *known = p->known[j];
        if (!p->counts[j]) { /* the known cards' tuple as it is */
            Py_INCREF(known);
            PyTuple_SET_ITEM(out, j, known);
            continue;
        }
        PyObject *hand = PyTuple_New(sizes[j]);
        if (!hand) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, j, hand);
        for (int i = 0; i < sizes[j]; i++) {
            PyObject *c;
            if (i < p->known_n[j]) {
                c = PyTuple_GET_ITEM(known, i);
                Py_INCREF(c);
            } else if (!(c = PyLong_FromLong(hands[j][i]))) {
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(hand, i, c);
        }
    }
    return out;
}

static PyObject *totals(PyObject *self, PyObject *args) {
    PyObject *capsule, *rng;
    Py_ssize_t draws;
    if (!PyArg_ParseTuple(args, "OOn", &capsule, &rng, &draws)) return NULL;
    Plan *p = plan_of(capsule);
    if (!p) return NULL;
    PyObject *random = PyObject_GetAttrString(rng, "random");
    if (!random) return NULL;
    PyObject *out = PyList_New(draws > 0 ? draws * p->n : 0);
    if (!out) {
        Py_DECREF(random);
        return NULL;
    }
    uint8_t hands[MAX_OPP][MAX_HAND];
    int sizes[MAX_OPP];
    for (Py_ssize_t d = 0; d < draws; d++) {
        if (draw_joint(p, rng, random, hands, sizes)) {
            Py_DECREF(random);
            Py_DECREF(out);
            return NULL;
        }
        for (int j = 0; j < p->n; j++) {
            long t = 0;
            for (int i = 0; i < sizes[j]; i++) t += p->points[hands[j][i]];
            PyObject *v = PyLong_FromLong(t);
            if (!v) {
                Py_DECREF(random);
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(out, d * p->n + j, v);
        }
    }
    Py_DECREF(random);
    return out;
}

static PyMethodDef methods[] = {
    {"init", init, METH_VARARGS, "init(tt_features, tt_meld_sizes, gff_meld3_masks)"},
    {"plan", plan, METH_VARARGS,
     "plan(kind, pool, counts, known, mix, low, kept_low, pool_melds, points) -> plan or None"},
    {"sample", sample, METH_VARARGS, "sample(plan, rng) -> one joint draw of the hidden hands"},
    {"totals", totals, METH_VARARGS,
     "totals(plan, rng, draws) -> each hand's points, draw after draw"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_sampler",
                                    "Compiled hidden-hand draws of the Tunk advice.", -1, methods};

PyMODINIT_FUNC PyInit__sampler(void) { return PyModule_Create(&module); }
