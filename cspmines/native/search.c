/* The game-tree searches over sets of layouts: the least expected cost (cost_search) and the endgame's
 * best chance of winning (win_search). */
#include "kernels.h"
#include "memo.h"

/* ---- The least-expected-cost search (cost_search): a state is a bit mask of at most 64 layouts ---- */

#define MAX_GROUPS 16
#define MAX_DEPTH 66 /* a child holds fewer layouts than its parent: at most 64 levels below the root */

typedef struct {
    long cell;
    uint64_t mines;
    int ngroups;
    uint64_t groups[MAX_GROUPS];
} Entry;

typedef struct {
    Entry *entries;
    int n;
    double mine_price, safe_price;
    long long budget;
    int timed_out;
    int failed; /* out of memory */
    Memo memo; /* each state's least expected cost: unbounded, nothing replaced */
    int *live;     /* MAX_DEPTH rows of n: the cells that still matter at each depth */
    int *moves;    /* MAX_DEPTH rows of n: the moves at each depth, in order */
    double *price; /* MAX_DEPTH rows of n: each move's price */
} Search;



/* A state (a mask of two layouts or more) is kept under its mask mixed (the home slot) and the mask itself. */
static MemoSlot *find(Search *s, uint64_t members) {
    return memo_find(&s->memo, mix(members), members, popcount(members));
}

static int remember(Search *s, uint64_t members, double value) {
    int fresh;
    MemoSlot *slot = memo_claim(&s->memo, mix(members), members, popcount(members), &fresh);
    slot->cost = value; /* never NULL: an unbounded table always has an empty slot to probe to */
    return memo_make_room(&s->memo);
}

static double best(Search *s, uint64_t members, const int *cells, int ncells, int depth, long *choice);

static double value_of(Search *s, uint64_t members, const int *cells, int ncells, int depth) {
    if ((members & (members - 1)) == 0) return 0.0; /* one layout left: everything is known */
    MemoSlot *slot = find(s, members);
    if (slot != NULL) return slot->cost;
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

PyObject *cost_search(PyObject *self, PyObject *args) {
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
    s.entries = calloc(s.n ? s.n : 1, sizeof(Entry));
    int opened = memo_open(&s.memo, 1024, -1, 0);
    size_t rows = (size_t)MAX_DEPTH * (s.n ? s.n : 1);
    s.live = malloc(rows * sizeof(int));
    s.moves = malloc(rows * sizeof(int));
    s.price = malloc(rows * sizeof(double));
    int *all = malloc((s.n ? s.n : 1) * sizeof(int));
    PyObject *result = NULL;
    if (!s.entries || opened < 0 || !s.live || !s.moves || !s.price || !all) { PyErr_NoMemory(); goto done; }
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
    free(s.entries); memo_close(&s.memo); free(s.live); free(s.moves); free(s.price); free(all);
    Py_DECREF(sequence);
    return result;
}

/* ---- The endgame's search for the best chance of winning, over up to thousands of layouts ----
 *
 * The same algorithm as cspmines.agents.exact.endgame._Search (safest moves first, a move cut
 * once it cannot beat the best found, a free clue taken at once), in the same floating-point
 * order. A state is a bit set of `words` 64-bit words. */

typedef struct {
    long cell;
    uint64_t *mines;  /* words */
    int ngroups;
    uint64_t *groups; /* ngroups x words */
} WinEntry;

typedef struct {
    WinEntry *entries;
    int n, words, depth_max;
    long long budget;
    int timed_out, failed;
    uint64_t *keys; /* capacity x words; a slot is empty while its popcount is 0 */
    double *values;
    size_t capacity, used;
    int *live;          /* depth_max rows of n */
    int *moves;         /* depth_max rows of n */
    int *safe_count;    /* depth_max rows of n: each undetermined move's safe layouts */
    uint64_t *members;  /* depth_max rows of words: the state at each depth */
} WinSearch;

static inline int set_count(const uint64_t *a, int words) {
    int total = 0;
    for (int w = 0; w < words; w++) total += popcount(a[w]);
    return total;
}
static inline int and_count(const uint64_t *a, const uint64_t *b, int words) {
    int total = 0;
    for (int w = 0; w < words; w++) total += popcount(a[w] & b[w]);
    return total;
}
static inline int and_not_count(const uint64_t *a, const uint64_t *b, int words) {
    int total = 0;
    for (int w = 0; w < words; w++) total += popcount(a[w] & ~b[w]);
    return total;
}
static inline uint64_t set_hash(const uint64_t *a, int words) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int w = 0; w < words; w++) h = mix(h ^ a[w]);
    return h;
}

static size_t win_find(WinSearch *s, const uint64_t *key) {
    size_t i = set_hash(key, s->words) & (s->capacity - 1);
    for (;;) {
        const uint64_t *slot = s->keys + i * s->words;
        if (set_count(slot, s->words) == 0 || memcmp(slot, key, s->words * sizeof(uint64_t)) == 0) return i;
        i = (i + 1) & (s->capacity - 1);
    }
}

static int win_remember(WinSearch *s, const uint64_t *key, double value) {
    if (2 * (s->used + 1) > s->capacity) {
        uint64_t *old_keys = s->keys;
        double *old_values = s->values;
        size_t old_capacity = s->capacity;
        s->capacity *= 2;
        s->keys = calloc(s->capacity * s->words, sizeof(uint64_t));
        s->values = calloc(s->capacity, sizeof(double));
        if (!s->keys || !s->values) {
            free(s->keys); free(s->values);
            s->keys = old_keys; s->values = old_values; s->capacity = old_capacity;
            return -1;
        }
        for (size_t i = 0; i < old_capacity; i++) {
            const uint64_t *k = old_keys + i * s->words;
            if (set_count(k, s->words)) {
                size_t j = win_find(s, k);
                memcpy(s->keys + j * s->words, k, s->words * sizeof(uint64_t));
                s->values[j] = old_values[i];
            }
        }
        free(old_keys); free(old_values);
    }
    size_t i = win_find(s, key);
    uint64_t *slot = s->keys + i * s->words;
    if (set_count(slot, s->words) == 0) s->used++;
    memcpy(slot, key, s->words * sizeof(uint64_t));
    s->values[i] = value;
    return 0;
}

static double win_best(WinSearch *s, int depth, const int *cells, int ncells, long *choice);

/* the chance of winning from the state stored at `depth` */
static double win_value(WinSearch *s, int depth, const int *cells, int ncells) {
    const uint64_t *members = s->members + (size_t)depth * s->words;
    if (set_count(members, s->words) <= 1) return 1.0; /* one layout left: won */
    size_t i = win_find(s, members);
    if (set_count(s->keys + i * s->words, s->words)) return s->values[i];
    s->budget -= 1;
    if (s->budget < 0) { s->timed_out = 1; return 0.0; }
    long choice;
    double value = win_best(s, depth, cells, ncells, &choice);
    if (s->timed_out || s->failed) return 0.0;
    if (win_remember(s, members, value) < 0) s->failed = 1;
    return value;
}

/* opening `e` from the state at `depth`: each clue's group a child at depth + 1 */
static double win_value_of(WinSearch *s, int depth, const WinEntry *e, const int *cells, int ncells, double beat) {
    const uint64_t *members = s->members + (size_t)depth * s->words;
    uint64_t *child = s->members + (size_t)(depth + 1) * s->words;
    int words = s->words;
    int total = set_count(members, words);
    int left = and_not_count(members, e->mines, words);
    double value = 0.0;
    for (int g = 0; g < e->ngroups; g++) {
        const uint64_t *mask = e->groups + (size_t)g * words;
        int size = 0;
        for (int w = 0; w < words; w++) { child[w] = members[w] & mask[w]; size += popcount(child[w]); }
        if (!size) continue;
        left -= size;
        double v = win_value(s, depth + 1, cells, ncells);
        if (s->timed_out || s->failed) return 0.0;
        value += (double)size / (double)total * v;
        if (value + (double)left / (double)total <= beat) break;
    }
    return value;
}

static double win_best(WinSearch *s, int depth, const int *cells, int ncells, long *choice) {
    const uint64_t *members = s->members + (size_t)depth * s->words;
    int words = s->words;
    int total = set_count(members, words);
    int *live = s->live + (size_t)depth * s->n;
    int *moves = s->moves + (size_t)depth * s->n;
    int *safe_count = s->safe_count + (size_t)depth * s->n;
    int nlive = 0, nmoves = 0;
    for (int k = 0; k < ncells; k++) {
        const WinEntry *e = &s->entries[cells[k]];
        int mines = and_count(e->mines, members, words);
        if (mines == 0) {
            int shown = 0;
            for (int g = 0; g < e->ngroups && shown < 2; g++)
                shown += and_count(e->groups + (size_t)g * words, members, words) != 0;
            if (shown > 1) { /* information for free: always best taken first */
                *choice = e->cell;
                return win_value_of(s, depth, e, cells, ncells, -1.0);
            }
        } else if (mines != total) {
            /* undetermined: sorted below by (mines, cell), safest first */
            int j = nmoves - 1;
            while (j >= 0 && (safe_count[j] > mines || (safe_count[j] == mines && s->entries[moves[j]].cell > e->cell))) {
                moves[j + 1] = moves[j];
                safe_count[j + 1] = safe_count[j];
                j--;
            }
            moves[j + 1] = cells[k];
            safe_count[j + 1] = mines;
            nmoves++;
            live[nlive++] = cells[k];
        }
    }
    *choice = -1;
    double bestv = -1.0;
    for (int k = 0; k < nmoves; k++) {
        const WinEntry *e = &s->entries[moves[k]];
        if ((double)and_not_count(members, e->mines, words) / (double)total <= bestv) break;
        double value = win_value_of(s, depth, e, live, nlive, bestv);
        if (s->timed_out || s->failed) return 0.0;
        if (value > bestv) { *choice = e->cell; bestv = value; }
    }
    return *choice >= 0 ? (bestv > 0.0 ? bestv : 0.0) : 1.0;
}

static int read_set(PyObject *number, uint64_t *out, int words) {
    /* a Python int of at most words * 64 bits, little-endian words */
    if (!PyLong_Check(number)) { PyErr_SetString(PyExc_TypeError, "a layout mask must be an int"); return -1; }
    memset(out, 0, words * sizeof(uint64_t));
    PyObject *mask64 = PyLong_FromUnsignedLongLong(0xFFFFFFFFFFFFFFFFULL), *shift = PyLong_FromLong(64);
    PyObject *rest = number;
    Py_INCREF(rest);
    int status = 0;
    for (int w = 0; w < words && status == 0; w++) {
        PyObject *low = PyNumber_And(rest, mask64);
        if (!low) { status = -1; break; }
        out[w] = PyLong_AsUnsignedLongLong(low);
        Py_DECREF(low);
        if (PyErr_Occurred()) { status = -1; break; }
        PyObject *next = PyNumber_Rshift(rest, shift);
        Py_DECREF(rest);
        rest = next;
        if (!rest) { status = -1; break; }
    }
    if (status == 0 && PyObject_IsTrue(rest)) {
        PyErr_SetString(PyExc_ValueError, "a layout mask is wider than the layouts");
        status = -1;
    }
    Py_XDECREF(rest);
    Py_DECREF(mask64); Py_DECREF(shift);
    return status;
}

PyObject *win_search(PyObject *self, PyObject *args) {
    PyObject *entries;
    int n_layouts;
    long long budget;
    if (!PyArg_ParseTuple(args, "OiL", &entries, &n_layouts, &budget)) return NULL;
    if (n_layouts < 2) { PyErr_SetString(PyExc_ValueError, "a search needs two layouts at least"); return NULL; }
    PyObject *sequence = PySequence_Fast(entries, "entries must be a sequence");
    if (!sequence) return NULL;
    WinSearch s = {0};
    s.n = (int)PySequence_Fast_GET_SIZE(sequence);
    s.words = (n_layouts + 63) / 64;
    s.depth_max = n_layouts + 2;
    s.budget = budget;
    s.capacity = 1024;
    int rows_n = s.n ? s.n : 1;
    s.entries = calloc(rows_n, sizeof(WinEntry));
    s.keys = calloc(s.capacity * s.words, sizeof(uint64_t));
    s.values = calloc(s.capacity, sizeof(double));
    s.live = malloc((size_t)s.depth_max * rows_n * sizeof(int));
    s.moves = malloc((size_t)s.depth_max * rows_n * sizeof(int));
    s.safe_count = malloc((size_t)s.depth_max * rows_n * sizeof(int));
    s.members = calloc((size_t)(s.depth_max + 1) * s.words, sizeof(uint64_t));
    int *all = malloc(rows_n * sizeof(int));
    PyObject *result = NULL;
    if (!s.entries || !s.keys || !s.values || !s.live || !s.moves || !s.safe_count || !s.members || !all) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < s.n; i++) {
        PyObject *entry = PySequence_Fast_GET_ITEM(sequence, i), *cell, *mines, *groups;
        if (!PyArg_ParseTuple(entry, "OOO", &cell, &mines, &groups)) goto done;
        WinEntry *e = &s.entries[i];
        e->cell = PyLong_AsLong(cell);
        if (e->cell == -1 && PyErr_Occurred()) goto done;
        PyObject *group_list = PySequence_Fast(groups, "an entry's groups must be a sequence");
        if (!group_list) goto done;
        e->ngroups = (int)PySequence_Fast_GET_SIZE(group_list);
        e->mines = calloc(s.words, sizeof(uint64_t));
        e->groups = calloc((size_t)(e->ngroups ? e->ngroups : 1) * s.words, sizeof(uint64_t));
        if (!e->mines || !e->groups) { Py_DECREF(group_list); PyErr_NoMemory(); goto done; }
        if (read_set(mines, e->mines, s.words) < 0) { Py_DECREF(group_list); goto done; }
        for (int g = 0; g < e->ngroups; g++) {
            if (read_set(PySequence_Fast_GET_ITEM(group_list, g), e->groups + (size_t)g * s.words, s.words) < 0) {
                Py_DECREF(group_list);
                goto done;
            }
        }
        Py_DECREF(group_list);
        all[i] = i;
    }
    for (int l = 0; l < n_layouts; l++) s.members[l / 64] |= 1ULL << (l % 64); /* every layout: depth 0 */
    long choice;
    double value;
    Py_BEGIN_ALLOW_THREADS
    value = win_best(&s, 0, all, s.n, &choice);
    Py_END_ALLOW_THREADS
    if (s.failed) { PyErr_NoMemory(); goto done; }
    if (s.timed_out) { PyErr_SetNone(PyExc_TimeoutError); goto done; }
    if (choice < 0) result = Py_BuildValue("(Od)", Py_None, value);
    else result = Py_BuildValue("(ld)", choice, value);
done:
    if (s.entries)
        for (int i = 0; i < s.n; i++) { free(s.entries[i].mines); free(s.entries[i].groups); }
    free(s.entries); free(s.keys); free(s.values); free(s.live); free(s.moves); free(s.safe_count); free(s.members); free(all);
    Py_DECREF(sequence);
    return result;
}
