/* Compiled kernels of cspmines: the least-expected-cost search over sets of layouts.
 *
 * The same algorithm as cspmines.agents.exact.objectives._CostSearch, step for step and in the
 * same floating-point order (IEEE doubles, no fast-math), so its answers are identical, the
 * budget of states included; the Python class stays and is what runs without this module.
 * A state is the set of layouts still possible, a bit mask of at most 64 layouts.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 16
#define MAX_DEPTH 66 /* a child holds fewer layouts than its parent: at most 64 levels below the root */

typedef struct {
    long cell;
    uint64_t mines;
    int ngroups;
    uint64_t groups[MAX_GROUPS];
} Entry;

typedef struct {
    uint64_t key; /* 0: empty (a state of one layout or none is never stored) */
    double value;
} Slot;

typedef struct {
    Entry *entries;
    int n;
    double mine_price, safe_price;
    long long budget;
    int timed_out;
    int failed; /* out of memory */
    Slot *table;
    size_t capacity, used;
    int *live;     /* MAX_DEPTH rows of n: the cells that still matter at each depth */
    int *moves;    /* MAX_DEPTH rows of n: the moves at each depth, in order */
    double *price; /* MAX_DEPTH rows of n: each move's price */
} Search;

static inline int popcount(uint64_t x) { return __builtin_popcountll(x); }

static inline uint64_t mix(uint64_t x) { /* splitmix64's finaliser */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static Slot *find(Search *s, uint64_t key) {
    size_t i = mix(key) & (s->capacity - 1);
    while (s->table[i].key != 0 && s->table[i].key != key) i = (i + 1) & (s->capacity - 1);
    return &s->table[i];
}

static int remember(Search *s, uint64_t key, double value) {
    if (2 * (s->used + 1) > s->capacity) {
        Slot *old = s->table;
        size_t old_capacity = s->capacity;
        s->capacity *= 2;
        s->table = calloc(s->capacity, sizeof(Slot));
        if (!s->table) { s->table = old; s->capacity = old_capacity; return -1; }
        for (size_t i = 0; i < old_capacity; i++)
            if (old[i].key) *find(s, old[i].key) = old[i];
        free(old);
    }
    Slot *slot = find(s, key);
    if (slot->key == 0) s->used++;
    slot->key = key;
    slot->value = value;
    return 0;
}

static double best(Search *s, uint64_t members, const int *cells, int ncells, int depth, long *choice);

static double value_of(Search *s, uint64_t members, const int *cells, int ncells, int depth) {
    if ((members & (members - 1)) == 0) return 0.0; /* one layout left: everything is known */
    Slot *slot = find(s, members);
    if (slot->key == members) return slot->value;
    s->budget -= 1;
    if (s->budget < 0) { s->timed_out = 1; return 0.0; }
    long choice;
    double value = best(s, members, cells, ncells, depth, &choice);
    if (s->timed_out || s->failed) return 0.0;
    if (remember(s, members, value) < 0) s->failed = 1;
    return value;
}

/* moves sorted by (price, cell), as Python sorts its (price, cell, entry) tuples */
static void sort_moves(Search *s, int *moves, double *price, int count) {
    for (int i = 1; i < count; i++) {
        int move = moves[i];
        double p = price[i];
        long cell = s->entries[move].cell;
        int j = i - 1;
        while (j >= 0 && (price[j] > p || (price[j] == p && s->entries[moves[j]].cell > cell))) {
            moves[j + 1] = moves[j];
            price[j + 1] = price[j];
            j--;
        }
        moves[j + 1] = move;
        price[j + 1] = p;
    }
}

static double best(Search *s, uint64_t members, const int *cells, int ncells, int depth, long *choice) {
    int total = popcount(members);
    int *live = s->live + (size_t)depth * s->n;
    int *moves = s->moves + (size_t)depth * s->n;
    double *price = s->price + (size_t)depth * s->n;
    int nlive = 0, nmoves = 0;
    for (int k = 0; k < ncells; k++) {
        const Entry *e = &s->entries[cells[k]];
        int mines = popcount(e->mines & members);
        if (mines == total) continue; /* a known mine: opening it tells nothing */
        if (mines == 0) {
            int shown = 0;
            for (int g = 0; g < e->ngroups; g++) shown += (e->groups[g] & members) != 0;
            if (shown < 2) continue; /* a known safe square showing a known clue */
        }
        price[nmoves] = ((double)mines * s->mine_price + (double)(total - mines) * s->safe_price) / (double)total;
        moves[nmoves++] = cells[k];
        live[nlive++] = cells[k];
    }
    sort_moves(s, moves, price, nmoves);
    *choice = -1;
    double bestv = INFINITY;
    for (int k = 0; k < nmoves; k++) {
        if (price[k] >= bestv) break; /* the rest cost at least this much */
        const Entry *e = &s->entries[moves[k]];
        double value = price[k];
        uint64_t mined = members & e->mines;
        if (mined) {
            double child = value_of(s, mined, live, nlive, depth + 1);
            if (s->timed_out || s->failed) return 0.0;
            value += (double)popcount(mined) / (double)total * child;
        }
        for (int g = 0; g < e->ngroups; g++) {
            if (value >= bestv) break;
            uint64_t group = members & e->groups[g];
            if (group) {
                double child = value_of(s, group, live, nlive, depth + 1);
                if (s->timed_out || s->failed) return 0.0;
                value += (double)popcount(group) / (double)total * child;
            }
        }
        if (value < bestv) { *choice = e->cell; bestv = value; }
    }
    return *choice < 0 ? 0.0 : bestv;
}

static int read_mask(PyObject *number, uint64_t *out) {
    unsigned long long value = PyLong_AsUnsignedLongLong(number);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (uint64_t)value;
    return 0;
}

static PyObject *cost_search(PyObject *self, PyObject *args) {
    PyObject *entries;
    unsigned long long members;
    double mine_price, safe_price;
    long long budget;
    if (!PyArg_ParseTuple(args, "OKddL", &entries, &members, &mine_price, &safe_price, &budget)) return NULL;
    PyObject *sequence = PySequence_Fast(entries, "entries must be a sequence");
    if (!sequence) return NULL;
    Search s = {0};
    s.n = (int)PySequence_Fast_GET_SIZE(sequence);
    s.mine_price = mine_price;
    s.safe_price = safe_price;
    s.budget = budget;
    s.capacity = 1024;
    s.entries = calloc(s.n ? s.n : 1, sizeof(Entry));
    s.table = calloc(s.capacity, sizeof(Slot));
    size_t rows = (size_t)MAX_DEPTH * (s.n ? s.n : 1);
    s.live = malloc(rows * sizeof(int));
    s.moves = malloc(rows * sizeof(int));
    s.price = malloc(rows * sizeof(double));
    int *all = malloc((s.n ? s.n : 1) * sizeof(int));
    PyObject *result = NULL;
    if (!s.entries || !s.table || !s.live || !s.moves || !s.price || !all) { PyErr_NoMemory(); goto done; }
    for (int i = 0; i < s.n; i++) {
        PyObject *entry = PySequence_Fast_GET_ITEM(sequence, i), *groups;
        PyObject *cell, *mines;
        if (!PyArg_ParseTuple(entry, "OOO", &cell, &mines, &groups)) goto done;
        s.entries[i].cell = PyLong_AsLong(cell);
        if (s.entries[i].cell == -1 && PyErr_Occurred()) goto done;
        if (read_mask(mines, &s.entries[i].mines) < 0) goto done;
        PyObject *group_list = PySequence_Fast(groups, "an entry's groups must be a sequence");
        if (!group_list) goto done;
        Py_ssize_t ngroups = PySequence_Fast_GET_SIZE(group_list);
        if (ngroups > MAX_GROUPS) {
            Py_DECREF(group_list);
            PyErr_SetString(PyExc_ValueError, "more clue groups than the kernel holds");
            goto done;
        }
        s.entries[i].ngroups = (int)ngroups;
        for (Py_ssize_t g = 0; g < ngroups; g++) {
            if (read_mask(PySequence_Fast_GET_ITEM(group_list, g), &s.entries[i].groups[g]) < 0) {
                Py_DECREF(group_list);
                goto done;
            }
        }
        Py_DECREF(group_list);
        all[i] = i;
    }
    long choice;
    double value;
    Py_BEGIN_ALLOW_THREADS
    value = best(&s, (uint64_t)members, all, s.n, 0, &choice);
    Py_END_ALLOW_THREADS
    if (s.failed) { PyErr_NoMemory(); goto done; }
    if (s.timed_out) { PyErr_SetNone(PyExc_TimeoutError); goto done; }
    if (choice < 0) result = Py_BuildValue("(Od)", Py_None, value);
    else result = Py_BuildValue("(ld)", choice, value);
done:
    free(s.entries); free(s.table); free(s.live); free(s.moves); free(s.price); free(all);
    Py_DECREF(sequence);
    return result;
}

static PyMethodDef methods[] = {
    {"cost_search", cost_search, METH_VARARGS,
     "cost_search(entries, members, mine_price, safe_price, budget) -> (cell or None, cost)\n\n"
     "The least-expected-cost search of cspmines.agents.exact.objectives over at most 64 layouts;\n"
     "entries are (cell, mine mask, safe masks by clue). TimeoutError past the budget of states."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels", "cspmines' compiled kernels.", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
