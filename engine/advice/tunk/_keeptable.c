/* Triple Tunk kept-hand tables, compiled: the same algorithm as
 * engine.advice.tunk.keeptable._build_keep_table_py (its docstring explains it), for the 125-card
 * Triple Topper deck, with card masks as 128-bit integers. The draw advice builds about thirty
 * of these tables per request; this module makes each about 25x cheaper. Optional: without it
 * (no C compiler at install, or TUNK_PURE_PYTHON=1) the pure-Python builder runs, and
 * tests/engine/advice/test_keep_table.py checks that both give the same table on random hands.
 *
 * init(features, points, col_ok, shp_ok, num_ok, seq_fill, point_masks) takes the tables of
 * engine.advice.tunk.keeptable once (masks as Python ints); build(rest) returns
 * (base, best_drop, gains, outs_extra, empties) for 1..5 distinct cards.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef unsigned __int128 u128;

#define NCARDS 125
#define MAXP 16 /* card points are below this */
#define MAXV 128 /* values after a draw are below this (at most 5 cards of < MAXP points) */

static int ready = 0;
static uint32_t feature[NCARDS];
static int points[NCARDS];
static u128 col_ok[16], shp_ok[16], num_ok[16], seq_fill[32];
static u128 related[NCARDS]; /* cards making a 3-card meld with the card and a third card */
static int n_classes;
static int class_points[MAXP];
static u128 class_mask[MAXP]; /* by points, ascending */
static u128 ge_mask[MAXP + 2]; /* per t: cards worth at least t points */
static int ge_top;             /* highest point value + 1 (ge_mask[ge_top] == 0) */
static u128 everything;

static int to_u128(PyObject *obj, u128 *out) {
    unsigned char buf[16];
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "mask must be an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    if (_PyLong_AsByteArray((PyLongObject *)obj, buf, 16, 1, 0, 1) < 0) return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)obj, buf, 16, 1, 0) < 0) return -1;
#endif
    u128 v = 0;
    for (int i = 15; i >= 0; i--) v = (v << 8) | buf[i];
    *out = v;
    return 0;
}

static PyObject *from_u128(u128 v) {
    unsigned char buf[16];
    for (int i = 0; i < 16; i++) {
        buf[i] = (unsigned char)(v & 0xFF);
        v >>= 8;
    }
    return _PyLong_FromByteArray(buf, 16, 1, 0);
}

static int mask_table(PyObject *seq, u128 *out, Py_ssize_t n, const char *name) {
    PyObject *fast = PySequence_Fast(seq, name);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: want %zd masks", name, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (to_u128(PySequence_Fast_GET_ITEM(fast, i), &out[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static inline int popcount128(u128 v) {
    return __builtin_popcountll((uint64_t)v) + __builtin_popcountll((uint64_t)(v >> 64));
}

/* Cards making a meld with a k-card group of OR-ed features f (completions.py _tt_comp_raw). */
static inline u128 comp_raw(uint32_t f, int k) {
    u128 col = col_ok[f & 0xF], shp = shp_ok[(f >> 4) & 0xF], num = num_ok[(f >> 8) & 0xF];
    u128 out = (col & shp) | (col & num) | (shp & num);
    uint32_t values = f >> 12;
    if (__builtin_popcount(values) == k) out |= seq_fill[values] & (col | shp);
    return out;
}

static inline u128 pair_comp(int a, int b) {
    if (a == b) return 0;
    return comp_raw(feature[a] | feature[b], 2) & ~(((u128)1 << a) | ((u128)1 << b));
}

static PyObject *keep_init(PyObject *self, PyObject *args) {
    PyObject *feats, *pts, *col, *shp, *num, *seq, *classes;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &feats, &pts, &col, &shp, &num, &seq, &classes))
        return NULL;
    PyObject *ff = PySequence_Fast(feats, "features");
    PyObject *pf = ff ? PySequence_Fast(pts, "points") : NULL;
    if (!ff || !pf) {
        Py_XDECREF(ff);
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(ff) != NCARDS || PySequence_Fast_GET_SIZE(pf) != NCARDS) {
        Py_DECREF(ff);
        Py_DECREF(pf);
        PyErr_SetString(PyExc_ValueError, "want 125 features and points");
        return NULL;
    }
    for (int c = 0; c < NCARDS; c++) {
        feature[c] = (uint32_t)PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(ff, c));
        points[c] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(pf, c));
        if (points[c] < 0 || points[c] >= MAXP) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "card points out of range");
        }
    }
    Py_DECREF(ff);
    Py_DECREF(pf);
    if (PyErr_Occurred()) return NULL;
    if (mask_table(col, col_ok, 16, "col_ok") < 0 || mask_table(shp, shp_ok, 16, "shp_ok") < 0 ||
        mask_table(num, num_ok, 16, "num_ok") < 0 || mask_table(seq, seq_fill, 32, "seq_fill") < 0)
        return NULL;
    PyObject *cf = PySequence_Fast(classes, "point_masks");
    if (!cf) return NULL;
    n_classes = (int)PySequence_Fast_GET_SIZE(cf);
    if (n_classes < 1 || n_classes > MAXP) {
        Py_DECREF(cf);
        PyErr_SetString(PyExc_ValueError, "point_masks: 1..16 classes");
        return NULL;
    }
    for (int i = 0; i < n_classes; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(cf, i);
        PyObject *p, *m;
        if (!PyArg_ParseTuple(item, "OO", &p, &m) || to_u128(m, &class_mask[i]) < 0) {
            Py_DECREF(cf);
            return NULL;
        }
        class_points[i] = (int)PyLong_AsLong(p);
        if (class_points[i] < 0 || class_points[i] >= MAXP ||
            (i && class_points[i] <= class_points[i - 1])) {
            Py_DECREF(cf);
            PyErr_SetString(PyExc_ValueError, "point_masks: ascending points below 16");
            return NULL;
        }
    }
    Py_DECREF(cf);
    ge_top = class_points[n_classes - 1] + 1;
    for (int t = 0; t <= ge_top; t++) {
        u128 m = 0;
        for (int i = 0; i < n_classes; i++)
            if (class_points[i] >= t) m |= class_mask[i];
        ge_mask[t] = m;
    }
    everything = ge_mask[0];
    for (int c = 0; c < NCARDS; c++) {
        u128 m = 0;
        for (int a = 0; a < NCARDS; a++)
            if (pair_comp(c, a)) m |= (u128)1 << a;
        related[c] = m;
    }
    ready = 1;
    Py_RETURN_NONE;
}

/* Melds inside the kept hand: position mask (5 bits) -> points, -1 when absent. */
typedef struct {
    int val[32];
    int count;
} Inside;

static inline void add_inside(Inside *in, int pm, int g, u128 own, const int *pos_of_card,
                              const int *pr) {
    while (own) {
        int card = (uint64_t)own ? __builtin_ctzll((uint64_t)own)
                                 : 64 + __builtin_ctzll((uint64_t)(own >> 64));
        own &= own - 1;
        int i = pos_of_card[card];
        int key = pm | 1 << i;
        if (in->val[key] < 0) in->count++;
        in->val[key] = g + pr[i];
    }
}

typedef struct {
    int pm, g;
    u128 out;
} Group;

static PyObject *keep_build(PyObject *self, PyObject *arg) {
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "init() first");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(arg, "rest");
    if (!fast) return NULL;
    int r = (int)PySequence_Fast_GET_SIZE(fast);
    if (r < 1 || r > 5) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a kept hand of 1..5 cards");
        return NULL;
    }
    int rest[5], pr[5];
    u128 rmask = 0;
    for (int i = 0; i < r; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c < 0 || c >= NCARDS || (rmask >> c & 1)) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "distinct cards 0..124");
            return NULL;
        }
        rmask |= (u128)1 << c;
        /* insertion sort by points, highest first, stable */
        int j = i;
        while (j > 0 && points[rest[j - 1]] < points[c]) {
            rest[j] = rest[j - 1];
            j--;
        }
        rest[j] = (int)c;
    }
    Py_DECREF(fast);
    int total = 0;
    int pos_of_card[NCARDS];
    for (int i = 0; i < r; i++) {
        pr[i] = points[rest[i]];
        total += pr[i];
        pos_of_card[rest[i]] = i;
    }
    int dead = 0;
    for (int i = 0; i < r; i++)
        if (!(related[rest[i]] & rmask)) dead |= 1 << i;
    u128 outside = ~rmask;
    Group groups[32];
    int ng = 0;
    Group pairs5[10];
    int np5 = 0;
    Inside in;
    for (int k = 0; k < 32; k++) in.val[k] = -1;
    in.count = 0;
    if (r >= 3) {
        for (int a = 0; a < r; a++)
            for (int b = a + 1; b < r; b++) {
                int pm = 1 << a | 1 << b;
                if (pm & dead) continue;
                u128 cm = pair_comp(rest[a], rest[b]);
                if (!cm) continue;
                int g = pr[a] + pr[b];
                u128 own = cm & rmask;
                if (own) add_inside(&in, pm, g, own, pos_of_card, pr);
                u128 out = cm & outside;
                if (out) {
                    groups[ng++] = (Group){pm, g, out};
                    if (r == 5) pairs5[np5++] = (Group){pm, g, out};
                }
            }
    }
    if (r >= 4) {
        for (int a = 0; a < r; a++)
            for (int b = a + 1; b < r; b++)
                for (int c = b + 1; c < r; c++) {
                    int pm = 1 << a | 1 << b | 1 << c;
                    if (pm & dead) continue;
                    u128 gm = ((u128)1 << rest[a]) | ((u128)1 << rest[b]) | ((u128)1 << rest[c]);
                    u128 cm =
                        comp_raw(feature[rest[a]] | feature[rest[b]] | feature[rest[c]], 3) & ~gm;
                    if (!cm) continue;
                    int g = pr[a] + pr[b] + pr[c];
                    u128 own = cm & rmask;
                    if (own) add_inside(&in, pm, g, own, pos_of_card, pr);
                    u128 out = cm & outside;
                    if (out) groups[ng++] = (Group){pm, g, out};
                }
    }
    if (r >= 5) {
        for (int skip = r - 1; skip >= 0; skip--) { /* the quadruples, in combinations order */
            int idx[4], n = 0;
            for (int i = 0; i < r; i++)
                if (i != skip) idx[n++] = i;
            int pm = 0;
            u128 gm = 0;
            uint32_t f = 0;
            int g = 0;
            for (int i = 0; i < 4; i++) {
                pm |= 1 << idx[i];
                gm |= (u128)1 << rest[idx[i]];
                f |= feature[rest[idx[i]]];
                g += pr[idx[i]];
            }
            if (pm & dead) continue;
            u128 cm = comp_raw(f, 4) & ~gm;
            if (!cm) continue;
            u128 own = cm & rmask;
            if (own) add_inside(&in, pm, g, own, pos_of_card, pr);
            u128 out = cm & outside;
            if (out) groups[ng++] = (Group){pm, g, out};
        }
    }
    int b_x[5] = {0, 0, 0, 0, 0};
    int best_all = 0, best_drop;
    if (in.count) {
        for (int k = 0; k < 32; k++)
            if (in.val[k] > best_all) best_all = in.val[k];
        for (int i = 0; i < r; i++) {
            int b = 0;
            for (int k = 0; k < 32; k++)
                if (in.val[k] >= 0 && !(k >> i & 1) && in.val[k] > b) b = in.val[k];
            b_x[i] = b;
        }
        best_drop = total - pr[0] - b_x[0];
        for (int i = 1; i < r; i++)
            if (total - pr[i] - b_x[i] < best_drop) best_drop = total - pr[i] - b_x[i];
    } else {
        best_drop = total - pr[0]; /* pr is sorted: pr[0] is the highest */
    }
    int base = total - best_all;
    u128 empties = 0;
    if (r == 2) empties = pair_comp(rest[0], rest[1]) & outside;
    u128 by_value[MAXV];
    char has_value[MAXV];
    memset(has_value, 0, sizeof has_value);
    if (ng) {
        if (!in.count) {
            for (int k = 0; k < ng; k++) {
                int free_pos = __builtin_ctz(~groups[k].pm);
                int v = total - groups[k].g - pr[free_pos];
                if (!has_value[v]) {
                    has_value[v] = 1;
                    by_value[v] = 0;
                }
                by_value[v] |= groups[k].out;
            }
        } else {
            for (int k = 0; k < ng; k++) {
                u128 claimed = 0;
                int gmask = groups[k].pm, g = groups[k].g;
                for (int i = 0; i < r; i++) {
                    if (gmask >> i & 1) continue;
                    int th = b_x[i] - g;
                    if (th >= ge_top) continue;
                    u128 cl = th > 0 ? ge_mask[th] : everything;
                    u128 m = groups[k].out & cl & ~claimed;
                    if (m) {
                        int v = total - g - pr[i];
                        if (!has_value[v]) {
                            has_value[v] = 1;
                            by_value[v] = 0;
                        }
                        by_value[v] |= m;
                    }
                    if (cl == everything) break;
                    claimed |= cl;
                }
            }
            int full = (1 << r) - 1;
            for (int k = 0; k < np5; k++)
                if (in.val[full & ~pairs5[k].pm] >= 0) empties |= pairs5[k].out;
        }
    }
    u128 gains[MAXV];
    char has_gain[MAXV];
    memset(has_gain, 0, sizeof has_gain);
    u128 outs_extra = 0, assigned = 0;
    for (int v = 0; v < MAXV; v++) {
        if (!has_value[v]) continue;
        u128 above = 0;
        for (int i = 0; i < n_classes; i++) {
            int p = class_points[i];
            int plain = best_drop + p > base ? base : best_drop + p;
            if (v < plain) above |= class_mask[i];
        }
        u128 fresh = by_value[v] & above & ~assigned;
        if (!fresh) continue;
        assigned |= fresh;
        if (v == 0) empties |= fresh;
        for (int i = 0; i < n_classes; i++) {
            int p = class_points[i];
            int plain = best_drop + p > base ? base : best_drop + p;
            if (v >= plain) continue;
            u128 m = fresh & class_mask[i];
            if (!m) continue;
            int saving = plain - v;
            if (!has_gain[saving]) {
                has_gain[saving] = 1;
                gains[saving] = 0;
            }
            gains[saving] |= m;
            if (v < base && base <= plain) outs_extra |= m;
        }
    }
    int n_gains = 0;
    for (int s = 0; s < MAXV; s++) n_gains += has_gain[s];
    PyObject *gt = PyTuple_New(n_gains);
    if (!gt) return NULL;
    int at = 0;
    for (int s = 0; s < MAXV; s++) {
        if (!has_gain[s]) continue;
        PyObject *m = from_u128(gains[s]);
        PyObject *pair = m ? Py_BuildValue("(iN)", s, m) : NULL;
        if (!pair) {
            Py_DECREF(gt);
            return NULL;
        }
        PyTuple_SET_ITEM(gt, at++, pair);
    }
    PyObject *oe = from_u128(outs_extra), *em = from_u128(empties);
    if (!oe || !em) {
        Py_XDECREF(oe);
        Py_XDECREF(em);
        Py_DECREF(gt);
        return NULL;
    }
    return Py_BuildValue("(iiNNN)", base, best_drop, gt, oe, em);
}

static PyMethodDef methods[] = {
    {"init", keep_init, METH_VARARGS, "Load the Triple Tunk tables (engine.advice.tunk.keeptable)."},
    {"build", keep_build, METH_O,
     "(base, best_drop, gains, outs_extra, empties) of a kept Triple Tunk hand."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_keeptable", "Compiled Triple Tunk kept-hand tables.", -1, methods,
};

PyMODINIT_FUNC PyInit__keeptable(void) { return PyModule_Create(&module); }
