/* Compiled kernels of cspmines: each does the same steps as a pure-Python twin, in the same order
 * and the same floating-point order (IEEE doubles, no fast-math), so answers are identical, budgets
 * of states included; the Python stays and is what runs without this module. Every kernel has a row
 * in cspmines/native/table.py (its twin and what it does), and code reaches it only through
 * cspmines.native.kernel(name); tests/test_kernels.py runs each against its twin.
 *
 *  cost_search: the least-expected-cost search over the sets of at most 64 layouts still possible
 *      (a state is a bit mask of layouts); twin cspmines.agents.exact.objectives._CostSearch.
 *  win_search: the endgame's search for the move with the best chance of winning, over any number
 *      of layouts (a state is a bit set of several words); twin cspmines.engine.endgame.WinSearch.
 *  value_search: (in value.c) the value of a position, the layouts best play wins, by a search with
 *      bounds over its layouts; twin cspmines.engine.valuesearch.ValueSearch.
 *  greedy_order: the dynamic programme's counting order, boxes placed to keep the fewest rules open;
 *      twin cspmines.engine.backends.ordering.greedy_order.
 *  count_passes: the dynamic programme's forward and backward passes over planned steps, on 128-bit
 *      integers: each mine number's layouts and each box's tallies; twin the Python passes
 *      (cspmines.engine.backends.dynamic.Sweep).
 *  count_ordered: a chain counted whole: its steps planned for a box order, then the two passes;
 *      twin DynamicProgrammingBackend.count.
 *  box_diameter: a chain's length, the diameter of its box graph; twin
 *      cspmines.engine.chains.box_diameter.
 *  settle_board: a board opened and marked by the one- and two-clue rules from a cell, as a game's
 *      deduction does; twin cspmines.games.deduce._Settler.
 *  settle_clues: a position's clue rules with the cells single rules force taken out, round after
 *      round; twin cspmines.engine.constraints._clue_rows and _settle_rounds.
 *  split_rules: a system's rules grouped into boxes and joined into chains, each with its own
 *      numbering; twin cspmines.engine.chains._split_layout.
 *  single_clues: what the clues at and next to the changed cells prove alone, move after move;
 *      twin cspmines.agents.exact.deductions.SingleClueWatch._read_around.
 *  combine_chances: each box's and the rest's layouts with a mine, the chains combined under the
 *      mine total; twin cspmines.engine.combine._chances.
 *  glance_boxes: a position's proved safe cells and least chances among the cells that can still tell
 *      something, read off its boxes' chances; twin cspmines.engine.glance.glance_boxes.
 *  closed_off_places: where a 50/50 may form, closed-off pairs and 2x2 blocks of hidden cells;
 *      twin cspmines.agents.exact.fifty_fifty._closed_off_places.
 *  remembered: a property worked out on first read and kept in the instance's dictionary (a
 *      descriptor type, picked when the engine's classes are made); twin
 *      cspmines.engine.memory._Remembered.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The cells within `radius` steps of `cell` (king moves) on a width x height board, the cell itself left
 * out, in flat order (row by row), into out (room for (2 radius + 1)^2 - 1); their number. */
static inline int board_neighbours(int width, int height, int cell, int radius, int *out) {
    int row = cell / width, col = cell % width, count = 0;
    for (int r = row - radius; r <= row + radius; r++) {
        if (r < 0 || r >= height) continue;
        for (int c = col - radius; c <= col + radius; c++) {
            if (c < 0 || c >= width || (r == row && c == col)) continue;
            out[count++] = r * width + c;
        }
    }
    return count;
}

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

static PyObject *win_search(PyObject *self, PyObject *args) {
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

/* ---- The counting order: a greedy sweep that keeps few rules open ----
 *
 * cspmines.engine.backends.ordering.greedy_order: scores (opens - closes + detached, -closes,
 * -touches, box) in a heap, a popped score that went stale pushed back fresh. Any correct heap pops
 * the same sequence (equal entries are the same tuple), so the order is the Python one. */

typedef struct { int key[4]; } Score; /* compared in order; key[3] is the box */

typedef struct {
    Score *items;
    size_t count, room;
} Heap;

static inline int score_less(const Score *a, const Score *b) {
    for (int i = 0; i < 4; i++)
        if (a->key[i] != b->key[i]) return a->key[i] < b->key[i];
    return 0;
}

static int heap_push(Heap *heap, Score item) {
    if (heap->count == heap->room) {
        size_t room = heap->room ? 2 * heap->room : 64;
        Score *items = realloc(heap->items, room * sizeof(Score));
        if (!items) return -1;
        heap->items = items;
        heap->room = room;
    }
    size_t i = heap->count++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!score_less(&item, &heap->items[parent])) break;
        heap->items[i] = heap->items[parent];
        i = parent;
    }
    heap->items[i] = item;
    return 0;
}

static Score heap_pop(Heap *heap) {
    Score top = heap->items[0], last = heap->items[--heap->count];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= heap->count) break;
        if (child + 1 < heap->count && score_less(&heap->items[child + 1], &heap->items[child])) child++;
        if (!score_less(&heap->items[child], &last)) break;
        heap->items[i] = heap->items[child];
        i = child;
    }
    if (heap->count) heap->items[i] = last;
    return top;
}

typedef struct {
    int nboxes, nrules;
    int **box_rules, *box_nrules;
    int **rule_boxes, *rule_nboxes;
    int *unplaced, *is_open;
    int n_open;
} Sweep;

static Score sweep_score(const Sweep *g, int b) {
    int closes = 0, opens = 0, touches = 0;
    for (int k = 0; k < g->box_nrules[b]; k++) {
        int r = g->box_rules[b][k];
        if (g->unplaced[r] == 1) closes++;
        else if (!g->is_open[r]) opens++;
        if (g->is_open[r]) touches++;
    }
    int detached = (touches || !g->n_open) ? 0 : 1; /* jumping away from the front opens a second one */
    Score score = {{opens - closes + detached, -closes, -touches, b}};
    return score;
}

static int read_lists(PyObject *lists, int count, int ***out, int **sizes) {
    *out = calloc(count ? count : 1, sizeof(int *));
    *sizes = calloc(count ? count : 1, sizeof(int));
    if (!*out || !*sizes) { PyErr_NoMemory(); return -1; }
    for (int i = 0; i < count; i++) {
        PyObject *items = PySequence_Fast(PySequence_Fast_GET_ITEM(lists, i), "a list of ints was expected");
        if (!items) return -1;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
        (*out)[i] = malloc((n ? n : 1) * sizeof(int));
        if (!(*out)[i]) { Py_DECREF(items); PyErr_NoMemory(); return -1; }
        for (Py_ssize_t k = 0; k < n; k++) {
            (*out)[i][k] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(items, k));
            if (PyErr_Occurred()) { Py_DECREF(items); return -1; }
        }
        (*sizes)[i] = (int)n;
        Py_DECREF(items);
    }
    return 0;
}

static void free_lists(int **lists, int count) {
    if (lists) for (int i = 0; i < count; i++) free(lists[i]);
    free(lists);
}

/* greedy_order(box_rules, rule_boxes, start) -> [box, ...] */
static PyObject *greedy_order(PyObject *self, PyObject *args) {
    PyObject *box_rules_in, *rule_boxes_in, *start_in;
    if (!PyArg_ParseTuple(args, "OOO", &box_rules_in, &rule_boxes_in, &start_in)) return NULL;
    PyObject *box_rules = PySequence_Fast(box_rules_in, "box rules must be a sequence");
    PyObject *rule_boxes = box_rules ? PySequence_Fast(rule_boxes_in, "rule boxes must be a sequence") : NULL;
    Sweep g = {0};
    Heap heap = {0};
    int *placed = NULL, *seen = NULL, *touched = NULL;
    PyObject *order = NULL, *result = NULL;
    if (!rule_boxes) goto done;
    g.nboxes = (int)PySequence_Fast_GET_SIZE(box_rules);
    g.nrules = (int)PySequence_Fast_GET_SIZE(rule_boxes);
    if (read_lists(box_rules, g.nboxes, &g.box_rules, &g.box_nrules) < 0) goto done;
    if (read_lists(rule_boxes, g.nrules, &g.rule_boxes, &g.rule_nboxes) < 0) goto done;
    g.unplaced = malloc((g.nrules ? g.nrules : 1) * sizeof(int));
    g.is_open = calloc(g.nrules ? g.nrules : 1, sizeof(int));
    placed = calloc(g.nboxes ? g.nboxes : 1, sizeof(int));
    seen = calloc(g.nboxes ? g.nboxes : 1, sizeof(int));
    touched = malloc((g.nboxes ? g.nboxes : 1) * sizeof(int));
    order = PyList_New(0);
    if (!g.unplaced || !g.is_open || !placed || !seen || !touched || !order) { PyErr_NoMemory(); goto done; }
    for (int r = 0; r < g.nrules; r++) g.unplaced[r] = g.rule_nboxes[r];
    for (int b = 0; b < g.nboxes; b++)
        if (heap_push(&heap, sweep_score(&g, b)) < 0) { PyErr_NoMemory(); goto done; }
    if (start_in != Py_None) {
        int start = (int)PyLong_AsLong(start_in);
        if (PyErr_Occurred()) goto done;
        Score first = {{-1, 0, 0, start}}; /* ahead of every real score */
        if (heap_push(&heap, first) < 0) { PyErr_NoMemory(); goto done; }
    }
    int stamp = 0;
    while (heap.count) {
        Score entry = heap_pop(&heap);
        int b = entry.key[3];
        if (placed[b]) continue;
        Score current = sweep_score(&g, b);
        if (memcmp(&current, &entry, sizeof(Score)) != 0 && entry.key[0] != -1) {
            if (heap_push(&heap, current) < 0) { PyErr_NoMemory(); goto done; }
            continue;
        }
        placed[b] = 1;
        PyObject *number = PyLong_FromLong(b);
        if (!number || PyList_Append(order, number) < 0) { Py_XDECREF(number); goto done; }
        Py_DECREF(number);
        int ntouched = 0;
        stamp++;
        for (int k = 0; k < g.box_nrules[b]; k++) {
            int r = g.box_rules[b][k];
            g.unplaced[r]--;
            int now_open = g.unplaced[r] > 0;
            g.n_open += now_open - g.is_open[r];
            g.is_open[r] = now_open;
            for (int j = 0; j < g.rule_nboxes[r]; j++) {
                int other = g.rule_boxes[r][j];
                if (seen[other] != stamp) { seen[other] = stamp; touched[ntouched++] = other; }
            }
        }
        for (int j = 0; j < ntouched; j++)
            if (!placed[touched[j]] && heap_push(&heap, sweep_score(&g, touched[j])) < 0) { PyErr_NoMemory(); goto done; }
    }
    result = order;
    order = NULL;
done:
    free_lists(g.box_rules, g.nboxes); free(g.box_nrules);
    free_lists(g.rule_boxes, g.nrules); free(g.rule_nboxes);
    free(g.unplaced); free(g.is_open); free(placed); free(seen); free(touched); free(heap.items);
    Py_XDECREF(order);
    Py_XDECREF(box_rules); Py_XDECREF(rule_boxes);
    return result;
}

/* ---- The counting programme's two passes over the front (the "dp" backend) ----
 *
 * The passes of cspmines.engine.backends.dynamic.Sweep on 128-bit integers: a state's key is the
 * open rules' remaining needs, a digit each, and its weight a polynomial in the mine number, one
 * 128-bit coefficient per mine number. The caller checks that no key and no count can pass 127
 * bits (a component of n cells has at most 2**n layouts, tallies at most size * 2**n: chains of up
 * to about 120 cells), and runs the Python passes otherwise; the answers are the same integers. */

typedef __int128 wide;

static inline uint64_t wide_hash(wide key) {
    return mix((uint64_t)key ^ mix((uint64_t)((unsigned __int128)key >> 64)));
}

static int read_wide(PyObject *number, wide *out) {
    /* a Python int of 0 <= value < 2**127 */
    if (!PyLong_Check(number)) { PyErr_SetString(PyExc_TypeError, "an int was expected"); return -1; }
    PyObject *mask = PyLong_FromUnsignedLongLong(0xFFFFFFFFFFFFFFFFULL), *shift = PyLong_FromLong(64);
    PyObject *low = PyNumber_And(number, mask), *high = PyNumber_Rshift(number, shift);
    int status = -1;
    if (low && high) {
        unsigned long long lo = PyLong_AsUnsignedLongLong(low), hi = PyLong_AsUnsignedLongLong(high);
        if (!PyErr_Occurred() && hi < (1ULL << 63)) {
            *out = (wide)(((unsigned __int128)hi << 64) | lo);
            status = 0;
        } else if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_OverflowError, "an int past 127 bits");
        }
    }
    Py_XDECREF(low); Py_XDECREF(high); Py_DECREF(mask); Py_DECREF(shift);
    return status;
}

static PyObject *from_wide(wide value) {
    if (value >= INT64_MIN && value <= INT64_MAX) return PyLong_FromLongLong((long long)value);
    unsigned __int128 bits = (unsigned __int128)value;
    PyObject *high = PyLong_FromUnsignedLongLong((unsigned long long)(bits >> 64));
    PyObject *low = PyLong_FromUnsignedLongLong((unsigned long long)bits);
    PyObject *shift = PyLong_FromLong(64), *shifted = NULL, *out = NULL;
    if (high && low && shift) shifted = PyNumber_Lshift(high, shift);
    if (shifted) out = PyNumber_Or(shifted, low);
    Py_XDECREF(high); Py_XDECREF(low); Py_XDECREF(shift); Py_XDECREF(shifted);
    return out;
}

typedef struct {
    int box, size, nrules;
    wide opening, mask;
    int digit;
    int shifts[64], capacity[64];
    wide weights[65];
    wide *live; /* the states after this step that can reach the end, sorted; NULL: all */
    Py_ssize_t nlive;
} DpStep;

typedef struct {
    wide *keys; /* capacity; -1 empty */
    int *index;
    size_t capacity;
} KeyMap;

typedef struct {
    wide *keys;   /* count */
    wide *polys;  /* count x width */
    size_t count, room;
} Layer;

static int keymap_init(KeyMap *map, size_t capacity) {
    map->capacity = capacity;
    map->keys = malloc(capacity * sizeof(wide));
    map->index = malloc(capacity * sizeof(int));
    if (!map->keys || !map->index) return -1;
    memset(map->keys, 0xff, capacity * sizeof(wide)); /* every key -1 */
    return 0;
}

static inline size_t keymap_slot(const KeyMap *map, wide key) {
    size_t i = wide_hash(key) & (map->capacity - 1);
    while (map->keys[i] != -1 && map->keys[i] != key) i = (i + 1) & (map->capacity - 1);
    return i;
}

static int layer_add(Layer *layer, int width) {
    if (layer->count == layer->room) {
        size_t room = layer->room ? 2 * layer->room : 16;
        wide *keys = realloc(layer->keys, room * sizeof(wide));
        if (!keys) return -1;
        layer->keys = keys;
        wide *polys = realloc(layer->polys, room * width * sizeof(wide));
        if (!polys) return -1;
        layer->polys = polys;
        layer->room = room;
    }
    memset(layer->polys + layer->count * width, 0, width * sizeof(wide));
    return (int)layer->count++;
}

static inline void dp_range(const DpStep *step, wide key, int *lo, int *hi) {
    int low = 0, high = step->size;
    for (int r = 0; r < step->nrules; r++) {
        int need = (int)((key >> step->shifts[r]) & step->digit);
        if (need < high) high = need;
        if (need - step->capacity[r] > low) low = need - step->capacity[r];
    }
    *lo = low;
    *hi = high;
}

static int is_live(const DpStep *step, wide key) {
    if (!step->live) return 1;
    Py_ssize_t low = 0, high = step->nlive;
    while (low < high) {
        Py_ssize_t middle = (low + high) / 2;
        if (step->live[middle] < key) low = middle + 1; else high = middle;
    }
    return low < step->nlive && step->live[low] == key;
}

static PyObject *coefficients_tuple(const wide *poly, int width) {
    int last = width - 1;
    while (last > 0 && poly[last] == 0) last--;
    PyObject *out = PyTuple_New(last + 1);
    if (!out) return NULL;
    for (int k = 0; k <= last; k++) {
        PyObject *number = from_wide(poly[k]);
        if (!number) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, k, number);
    }
    return out;
}

static int read_steps(PyObject *steps_in, DpStep *steps, Py_ssize_t nsteps) {
    for (Py_ssize_t i = 0; i < nsteps; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(steps_in, i), *rules, *weights, *live, *opening, *mask;
        DpStep *step = &steps[i];
        if (!PyArg_ParseTuple(item, "iiOOiOOO", &step->box, &step->size, &opening, &mask, &step->digit,
                              &rules, &weights, &live))
            return -1;
        if (read_wide(opening, &step->opening) < 0 || read_wide(mask, &step->mask) < 0) return -1;
        PyObject *rule_list = PySequence_Fast(rules, "rules must be a sequence");
        if (!rule_list) return -1;
        step->nrules = (int)PySequence_Fast_GET_SIZE(rule_list);
        if (step->nrules > 64 || step->size > 64) {
            Py_DECREF(rule_list);
            PyErr_SetString(PyExc_ValueError, "a box wider than the kernel holds");
            return -1;
        }
        for (int r = 0; r < step->nrules; r++) {
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(rule_list, r), "ii", &step->shifts[r], &step->capacity[r])) {
                Py_DECREF(rule_list);
                return -1;
            }
        }
        Py_DECREF(rule_list);
        PyObject *weight_list = PySequence_Fast(weights, "weights must be a sequence");
        if (!weight_list) return -1;
        for (int m = 0; m <= step->size; m++) {
            if (read_wide(PySequence_Fast_GET_ITEM(weight_list, m), &step->weights[m]) < 0) {
                Py_DECREF(weight_list);
                return -1;
            }
        }
        Py_DECREF(weight_list);
        step->live = NULL;
        if (live != Py_None) {
            PyObject *live_list = PySequence_Fast(live, "live states must be a sequence");
            if (!live_list) return -1;
            step->nlive = PySequence_Fast_GET_SIZE(live_list);
            step->live = malloc((step->nlive ? step->nlive : 1) * sizeof(wide));
            if (!step->live) { Py_DECREF(live_list); PyErr_NoMemory(); return -1; }
            for (Py_ssize_t j = 0; j < step->nlive; j++) {
                if (read_wide(PySequence_Fast_GET_ITEM(live_list, j), &step->live[j]) < 0) {
                    Py_DECREF(live_list);
                    return -1;
                }
            }
            Py_DECREF(live_list);
        }
    }
    return 0;
}

/* count_passes(steps, n_boxes, n_cells, cap=-1) -> (models, tallies, peak states, states), or False
 * once the layers hold more than cap states together (the memory allowance's share, cap >= 0)
 * steps: (box, size, opening, mask, digit, ((shift, capacity after), ...), weights, sorted live
 * states after the step or None), as the Python passes use them. */
static PyObject *run_passes(DpStep *steps, Py_ssize_t nsteps, int n_boxes, int n_cells, long long cap);

static PyObject *count_passes(PyObject *self, PyObject *args) {
    PyObject *steps_in;
    int n_boxes, n_cells;
    long long cap = -1;
    if (!PyArg_ParseTuple(args, "Oii|L", &steps_in, &n_boxes, &n_cells, &cap)) return NULL;
    PyObject *sequence = PySequence_Fast(steps_in, "steps must be a sequence");
    if (!sequence) return NULL;
    Py_ssize_t nsteps = PySequence_Fast_GET_SIZE(sequence);
    DpStep *steps = calloc(nsteps ? nsteps : 1, sizeof(DpStep));
    PyObject *result = NULL;
    if (!steps) PyErr_NoMemory();
    else if (read_steps(sequence, steps, nsteps) == 0) result = run_passes(steps, nsteps, n_boxes, n_cells, cap);
    if (steps) for (Py_ssize_t i = 0; i < nsteps; i++) free(steps[i].live);
    free(steps);
    Py_DECREF(sequence);
    return result;
}

/* step i of the forward pass: every state of `now` through the step's mine numbers into `next`,
 * keeping only the states that can still reach the end; -1 out of memory */
static inline __attribute__((always_inline)) int forward_step(const DpStep *step, const DpStep *keep, const Layer *now, Layer *next, KeyMap *map, int width) {
    size_t capacity = 64;
    while (capacity < 4 * now->count * (size_t)(step->size + 1)) capacity *= 2;
    free(map->keys); free(map->index);
    map->keys = NULL; map->index = NULL;
    if (keymap_init(map, capacity) < 0) return -1;
    for (size_t j = 0; j < now->count; j++) {
        wide key = now->keys[j] + step->opening;
        int lo, hi;
        dp_range(step, key, &lo, &hi);
        for (int m = lo; m <= hi; m++) {
            wide after = key - m * step->mask;
            if (keep && !is_live(keep, after)) continue;
            size_t slot = keymap_slot(map, after);
            int row;
            if (map->keys[slot] == -1) {
                row = layer_add(next, width);
                if (row < 0) return -1;
                next->keys[row] = after;
                map->keys[slot] = after;
                map->index[slot] = row;
            } else {
                row = map->index[slot];
            }
            const wide *from = now->polys + j * width;
            wide *to = next->polys + (size_t)row * width;
            wide w = step->weights[m];
            for (int k = 0; k + m < width; k++) to[k + m] += from[k] * w;
        }
    }
    return 0;
}

/* the forward pass: layers[i] is the layer before step i, layers[nsteps] the end; 1 as soon as the
 * layers after the steps hold more states than a cap >= 0 together (plan_steps' cheapness test),
 * -1 out of memory, else 0 with the peak and the sum of the layers' states */
static inline __attribute__((always_inline)) int forward_pass(DpStep *steps, Py_ssize_t nsteps, Layer *layers, KeyMap *map, int width, long long cap,
                        size_t *peak, size_t *states) {
    if (layer_add(&layers[0], width) < 0) return -1;
    layers[0].keys[0] = 0;
    layers[0].polys[0] = 1;
    for (Py_ssize_t i = 0; i < nsteps; i++) {
        const Layer *now = &layers[i];
        if (cap >= 0 && i > 0) {
            cap -= (long long)now->count;
            if (cap < 0) return 1;
        }
        *states += now->count;
        if (now->count > *peak) *peak = now->count;
        const DpStep *keep = (i + 1 < nsteps) ? &steps[i] : NULL; /* the live states after step i */
        if (forward_step(&steps[i], keep, now, &layers[i + 1], map, width) < 0) return -1;
    }
    if (cap >= 0 && nsteps > 0 && cap - (long long)layers[nsteps].count < 0) return 1;
    return 0;
}

/* step i of the backward pass: `before` gets the completions of the states before the step from
 * `completions` (those after it), and the step's box its tally (forward x backward, by mine number);
 * -1 out of memory */
static inline __attribute__((always_inline)) int backward_step(const DpStep *step, const Layer *layer, const Layer *completions, Layer *before, KeyMap *map,
                         wide *tally, wide *marked, int width) {
    size_t capacity = 64;
    while (capacity < 2 * completions->count + 2) capacity *= 2;
    free(map->keys); free(map->index);
    map->keys = NULL; map->index = NULL;
    if (keymap_init(map, capacity) < 0) return -1;
    for (size_t j = 0; j < completions->count; j++) {
        size_t slot = keymap_slot(map, completions->keys[j]);
        map->keys[slot] = completions->keys[j];
        map->index[slot] = (int)j;
    }
    before->count = 0;
    for (size_t j = 0; j < layer->count; j++) {
        wide opened = layer->keys[j] + step->opening;
        int lo, hi, any = 0, row = -1;
        dp_range(step, opened, &lo, &hi);
        memset(marked, 0, width * sizeof(wide));
        for (int m = lo; m <= hi; m++) {
            size_t slot = keymap_slot(map, opened - m * step->mask);
            if (map->keys[slot] == -1) continue;
            const wide *rest = completions->polys + (size_t)map->index[slot] * width;
            wide w = step->weights[m];
            if (!any) {
                row = layer_add(before, width);
                if (row < 0) return -1;
                before->keys[row] = layer->keys[j];
                any = 1;
            }
            wide *ways = before->polys + (size_t)row * width;
            for (int k = 0; k + m < width; k++) {
                wide term = rest[k] * w;
                ways[k + m] += term;
                marked[k + m] += term * m;
            }
        }
        if (any) {
            const wide *poly = layer->polys + j * width;
            for (int a = 0; a < width; a++) {
                if (!poly[a]) continue;
                for (int b = 0; a + b < width; b++) tally[a + b] += poly[a] * marked[b];
            }
        }
    }
    return 0;
}

/* the backward pass: from the end's finished state (key 0) back to the start, each box's tally on
 * the way; `completions` ends as the start's completions; -1 out of memory */
static inline __attribute__((always_inline)) int backward_pass(DpStep *steps, Py_ssize_t nsteps, const Layer *layers, KeyMap *map, Layer *completions,
                         Layer *before, wide *tallies, wide *marked, int width) {
    const Layer *end = &layers[nsteps];
    for (size_t j = 0; j < end->count; j++) {
        if (end->keys[j] == 0) {
            if (layer_add(completions, width) < 0) return -1;
            completions->keys[0] = 0;
            completions->polys[0] = 1;
        }
    }
    for (Py_ssize_t i = nsteps - 1; i >= 0; i--) {
        const DpStep *step = &steps[i];
        if (backward_step(step, &layers[i], completions, before, map, tallies + (size_t)step->box * width, marked, width) < 0)
            return -1;
        Layer swap = *completions;
        *completions = *before;
        *before = swap;
    }
    return 0;
}

/* (models, tallies, peak states, states) as Python tuples: the models are the completions of the
 * start's state (key 0) */
static PyObject *passes_answer(const Layer *completions, const wide *tallies, int n_boxes, int width, size_t peak, size_t states) {
    wide *models = calloc(width, sizeof(wide));
    if (!models) return PyErr_NoMemory();
    for (size_t j = 0; j < completions->count; j++)
        if (completions->keys[j] == 0) memcpy(models, completions->polys + j * width, width * sizeof(wide));
    PyObject *models_tuple = coefficients_tuple(models, width);
    free(models);
    PyObject *tally_tuple = PyTuple_New(n_boxes);
    if (!models_tuple || !tally_tuple) { Py_XDECREF(models_tuple); Py_XDECREF(tally_tuple); return NULL; }
    for (int b = 0; b < n_boxes; b++) {
        PyObject *one = coefficients_tuple(tallies + (size_t)b * width, width);
        if (!one) { Py_DECREF(models_tuple); Py_DECREF(tally_tuple); return NULL; }
        PyTuple_SET_ITEM(tally_tuple, b, one);
    }
    return Py_BuildValue("(NNnn)", models_tuple, tally_tuple, (Py_ssize_t)peak, (Py_ssize_t)states);
}

/* the two passes over prepared steps: (models, tallies, peak states, states); with a cap >= 0,
 * False as soon as the layers after the steps hold more states than the cap together */
static PyObject *run_passes(DpStep *steps, Py_ssize_t nsteps, int n_boxes, int n_cells, long long cap) {
    int width = n_cells + 1;
    Layer *layers = calloc(nsteps + 1, sizeof(Layer));
    wide *tallies = calloc((size_t)(n_boxes ? n_boxes : 1) * width, sizeof(wide));
    wide *marked = malloc(width * sizeof(wide));
    KeyMap map = {0};
    Layer completions = {0}, before = {0};
    PyObject *result = NULL;
    size_t peak = 0, states = 0;
    if (!layers || !tallies || !marked) { PyErr_NoMemory(); goto done; }
    int forward = forward_pass(steps, nsteps, layers, &map, width, cap, &peak, &states);
    if (forward < 0) { PyErr_NoMemory(); goto done; }
    if (forward > 0) { result = Py_False; Py_INCREF(result); goto done; }
    if (backward_pass(steps, nsteps, layers, &map, &completions, &before, tallies, marked, width) < 0) { PyErr_NoMemory(); goto done; }
    result = passes_answer(&completions, tallies, n_boxes, width, peak, states);
done:
    free(completions.keys); free(completions.polys); free(before.keys); free(before.polys);
    if (layers) for (Py_ssize_t i = 0; i <= nsteps; i++) { free(layers[i].keys); free(layers[i].polys); }
    free(layers); free(tallies); free(marked); free(map.keys); free(map.index);
    return result;
}

static int read_ints(PyObject *items, int *out, Py_ssize_t count) {
    PyObject *list = PySequence_Fast(items, "a sequence of ints was expected");
    if (!list) return -1;
    if (PySequence_Fast_GET_SIZE(list) != count) {
        Py_DECREF(list);
        PyErr_SetString(PyExc_ValueError, "a sequence of the wrong length");
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(list, i));
        if (PyErr_Occurred()) { Py_DECREF(list); return -1; }
    }
    Py_DECREF(list);
    return 0;
}

/* count_ordered(box_sizes, box_rules, rule_boxes, rule_mines, order, n_cells, digit_bits, cap)
 *   -> (models, tallies, peak states, states), None when a key could pass 127 bits, False when
 *   the states after the steps sum past cap (>= 0; -1: no cap).
 * cspmines.engine.backends.steps.plan_order's steps for the box order, then the two passes:
 * each rule takes the lowest free digit when its first box is placed and frees it after its last. */
static PyObject *count_ordered(PyObject *self, PyObject *args) {
    PyObject *sizes_in, *box_rules_in, *rule_boxes_in, *mines_in, *order_in;
    int n_cells, digit_bits;
    long long cap;
    if (!PyArg_ParseTuple(args, "OOOOOiiL", &sizes_in, &box_rules_in, &rule_boxes_in, &mines_in, &order_in, &n_cells,
                          &digit_bits, &cap))
        return NULL;
    PyObject *box_rules = PySequence_Fast(box_rules_in, "box rules must be a sequence");
    PyObject *rule_boxes = box_rules ? PySequence_Fast(rule_boxes_in, "rule boxes must be a sequence") : NULL;
    int nboxes = box_rules ? (int)PySequence_Fast_GET_SIZE(box_rules) : 0;
    int nrules = rule_boxes ? (int)PySequence_Fast_GET_SIZE(rule_boxes) : 0;
    int **rules_of = NULL, *nrules_of = NULL, **boxes_of = NULL, *nboxes_of = NULL;
    int *sizes = NULL, *mines = NULL, *order = NULL, *capacity = NULL, *slot_of = NULL, *slot_free = NULL;
    DpStep *steps = NULL;
    PyObject *result = NULL;
    if (!rule_boxes) goto done;
    sizes = malloc((nboxes ? nboxes : 1) * sizeof(int));
    order = malloc((nboxes ? nboxes : 1) * sizeof(int));
    mines = malloc((nrules ? nrules : 1) * sizeof(int));
    capacity = calloc(nrules ? nrules : 1, sizeof(int));
    slot_of = malloc((nrules ? nrules : 1) * sizeof(int));
    slot_free = calloc(nrules + 1, sizeof(int));
    steps = calloc(nboxes ? nboxes : 1, sizeof(DpStep));
    if (!sizes || !order || !mines || !capacity || !slot_of || !slot_free || !steps) { PyErr_NoMemory(); goto done; }
    if (read_ints(sizes_in, sizes, nboxes) < 0 || read_ints(mines_in, mines, nrules) < 0 || read_ints(order_in, order, nboxes) < 0)
        goto done;
    if (read_lists(box_rules, nboxes, &rules_of, &nrules_of) < 0) goto done;
    if (read_lists(rule_boxes, nrules, &boxes_of, &nboxes_of) < 0) goto done;
    for (int r = 0; r < nrules; r++) {
        slot_of[r] = -1;
        for (int k = 0; k < nboxes_of[r]; k++) capacity[r] += sizes[boxes_of[r][k]];
    }
    int next_slot = 0, free_count = 0;
    for (int i = 0; i < nboxes; i++) {
        int b = order[i];
        DpStep *step = &steps[i];
        step->box = b;
        step->size = sizes[b];
        step->digit = (1 << digit_bits) - 1;
        step->nrules = nrules_of[b];
        if (step->size > 64 || step->nrules > 64) { result = Py_None; Py_INCREF(result); goto done; }
        for (int k = 0; k < nrules_of[b]; k++) {
            int r = rules_of[b][k];
            if (slot_of[r] < 0) {
                if (free_count) { /* the lowest digit given back */
                    int lowest = 0;
                    while (!slot_free[lowest]) lowest++;
                    slot_free[lowest] = 0;
                    free_count--;
                    slot_of[r] = lowest;
                } else {
                    slot_of[r] = next_slot++;
                }
                if (digit_bits * (slot_of[r] + 1) > 126) { result = Py_None; Py_INCREF(result); goto done; }
                step->opening += (wide)mines[r] << (digit_bits * slot_of[r]);
            }
            capacity[r] -= step->size;
            step->mask |= (wide)1 << (digit_bits * slot_of[r]);
        }
        for (int k = 0; k < nrules_of[b]; k++) {
            int r = rules_of[b][k];
            step->shifts[k] = digit_bits * slot_of[r];
            step->capacity[k] = capacity[r];
        }
        for (int k = 0; k < nrules_of[b]; k++) {
            int r = rules_of[b][k];
            if (capacity[r] == 0 && slot_of[r] >= 0) { slot_free[slot_of[r]] = 1; free_count++; slot_of[r] = -1; }
        }
        step->weights[0] = 1; /* C(size, m) */
        for (int m = 1; m <= step->size; m++) step->weights[m] = step->weights[m - 1] * (step->size - m + 1) / m;
    }
    result = run_passes(steps, nboxes, nboxes, n_cells, cap);
done:
    free_lists(rules_of, nboxes); free(nrules_of); free_lists(boxes_of, nrules); free(nboxes_of);
    free(sizes); free(order); free(mines); free(capacity); free(slot_of); free(slot_free); free(steps);
    Py_XDECREF(box_rules); Py_XDECREF(rule_boxes);
    return result;
}

/* ---- A chain's length: the diameter of its box graph ----
 * Boxes joined when a rule covers both; a breadth-first search from every box. The diameter is one
 * number whatever finds it, so this is cspmines.engine.chains.box_diameter's answer. */
static PyObject *box_diameter(PyObject *self, PyObject *args) {
    int n;
    PyObject *rule_boxes_in;
    if (!PyArg_ParseTuple(args, "iO", &n, &rule_boxes_in)) return NULL;
    PyObject *rule_boxes = PySequence_Fast(rule_boxes_in, "rule boxes must be a sequence");
    if (!rule_boxes) return NULL;
    int nrules = (int)PySequence_Fast_GET_SIZE(rule_boxes);
    int **boxes_of = NULL, *nboxes_of = NULL;
    unsigned char *joined = NULL;
    int *degree = NULL, *neighbours = NULL, *start = NULL, *distance = NULL, *queue = NULL;
    PyObject *result = NULL;
    if (n <= 0) { result = PyLong_FromLong(0); goto done; }
    if (read_lists(rule_boxes, nrules, &boxes_of, &nboxes_of) < 0) goto done;
    joined = calloc((size_t)n * n, 1);
    degree = calloc(n, sizeof(int));
    start = malloc((n + 1) * sizeof(int));
    distance = malloc(n * sizeof(int));
    queue = malloc(n * sizeof(int));
    if (!joined || !degree || !start || !distance || !queue) { PyErr_NoMemory(); goto done; }
    for (int r = 0; r < nrules; r++)
        for (int i = 0; i < nboxes_of[r]; i++)
            for (int j = 0; j < nboxes_of[r]; j++) {
                int a = boxes_of[r][i], b = boxes_of[r][j];
                if (a < 0 || b < 0 || a >= n || b >= n) { PyErr_SetString(PyExc_ValueError, "a box out of range"); goto done; }
                if (a != b && !joined[(size_t)a * n + b]) { joined[(size_t)a * n + b] = 1; degree[a]++; }
            }
    start[0] = 0;
    for (int a = 0; a < n; a++) start[a + 1] = start[a] + degree[a];
    neighbours = malloc((start[n] ? start[n] : 1) * sizeof(int));
    if (!neighbours) { PyErr_NoMemory(); goto done; }
    for (int a = 0, k = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (joined[(size_t)a * n + b]) neighbours[k++] = b;
    int longest = 0;
    for (int source = 0; source < n; source++) {
        for (int a = 0; a < n; a++) distance[a] = -1;
        int head = 0, tail = 0;
        distance[source] = 0;
        queue[tail++] = source;
        while (head < tail) {
            int a = queue[head++];
            for (int k = start[a]; k < start[a + 1]; k++) {
                int b = neighbours[k];
                if (distance[b] < 0) {
                    distance[b] = distance[a] + 1;
                    if (distance[b] > longest) longest = distance[b];
                    queue[tail++] = b;
                }
            }
        }
    }
    result = PyLong_FromLong(longest);
done:
    free_lists(boxes_of, nrules); free(nboxes_of);
    free(joined); free(degree); free(neighbours); free(start); free(distance); free(queue);
    Py_DECREF(rule_boxes);
    return result;
}

/* settle_board: the local deductions of cspmines.games.deduce (one clue, two clues, the mine total) on a
 * board being played, step for step as its _Settler takes them: the same stacks, the same orders, so the
 * view comes out the same. view holds one signed byte a cell (-1 covered, -2 a known mine, 0-8 a clue);
 * clues the board's (9 a mine), read only to show what an opened cell says. */
#define SB_COVERED ((int8_t)-1)
#define SB_FLAG ((int8_t)-2)

typedef struct {
    const uint8_t *clues;
    int8_t *view;
    int width, height, mines;
    int *single, *pair, *stack; /* the two stacks of clues to look at again, and the opening stack */
    int nsingle, npair;
    uint8_t *in_single, *in_pair;
    long covered, marked_total, opened, marked;
    int error; /* a rule met the truth the other way: the view is not this board's */
} Settler;

static int sb_neighbours(const Settler *s, int cell, int radius, int *out) {
    return board_neighbours(s->width, s->height, cell, radius, out);
}

static void sb_push(Settler *s, int cell) {
    if (!s->in_single[cell]) { s->in_single[cell] = 1; s->single[s->nsingle++] = cell; }
    if (!s->in_pair[cell]) { s->in_pair[cell] = 1; s->pair[s->npair++] = cell; }
}

static void sb_touched(Settler *s, int cell) {
    int around[8], count = sb_neighbours(s, cell, 1, around);
    if (s->view[cell] >= 0) sb_push(s, cell);
    for (int k = 0; k < count; k++)
        if (s->view[around[k]] >= 0) sb_push(s, around[k]);
}

static void sb_open(Settler *s, int cell) {
    int top = 0, around[8];
    s->stack[top++] = cell;
    while (top > 0 && !s->error) {
        int current = s->stack[--top];
        if (s->view[current] != SB_COVERED) continue;
        int clue = s->clues[current];
        if (clue > 8) { s->error = 1; return; }
        s->view[current] = (int8_t)clue;
        s->opened++;
        s->covered--;
        sb_touched(s, current);
        if (clue == 0) {
            int count = sb_neighbours(s, current, 1, around);
            for (int k = 0; k < count; k++)
                if (s->view[around[k]] == SB_COVERED) s->stack[top++] = around[k];
        }
    }
}

static void sb_mark(Settler *s, int cell) {
    if (s->clues[cell] <= 8) { s->error = 2; return; }
    s->view[cell] = SB_FLAG;
    s->marked++;
    s->marked_total++;
    s->covered--;
    sb_touched(s, cell);
}

/* the covered neighbours of clue cell (into covered) and the mines it still needs among them */
static int sb_unknown(const Settler *s, int cell, int *covered, int *count) {
    int around[8], n = sb_neighbours(s, cell, 1, around), known = 0;
    *count = 0;
    for (int k = 0; k < n; k++) {
        int8_t code = s->view[around[k]];
        if (code == SB_COVERED) covered[(*count)++] = around[k];
        else if (code == SB_FLAG) known++;
    }
    return s->view[cell] - known;
}

static int sb_has(const int *cells, int count, int cell) {
    for (int k = 0; k < count; k++)
        if (cells[k] == cell) return 1;
    return 0;
}

static void sb_one_clue(Settler *s, int cell) {
    int covered[8], count, need = sb_unknown(s, cell, covered, &count);
    if (!count) return;
    if (need == 0) {
        for (int k = 0; k < count && !s->error; k++) sb_open(s, covered[k]);
    } else if (need == count) {
        for (int k = 0; k < count && !s->error; k++)
            if (s->view[covered[k]] == SB_COVERED) sb_mark(s, covered[k]);
    }
}

static void sb_two_clues(Settler *s, int cell) {
    int mine[8], nmine, need = sb_unknown(s, cell, mine, &nmine);
    if (!nmine) return;
    int partners[24], npartners = sb_neighbours(s, cell, 2, partners);
    for (int p = 0; p < npartners; p++) {
        int partner = partners[p];
        if (s->view[partner] < 0) continue;
        int theirs[8], ntheirs, their_need = sb_unknown(s, partner, theirs, &ntheirs);
        int shared = 0;
        for (int k = 0; k < nmine; k++) shared += sb_has(theirs, ntheirs, mine[k]);
        if (!shared) continue;
        /* one side's cells outside the shared ones are safe, the other side's all mines */
        const int *safe, *full;
        int nsafe, nfull;
        if (need - (nmine - shared) == their_need) {
            safe = theirs; nsafe = ntheirs; full = mine; nfull = nmine;
        } else if (their_need - (ntheirs - shared) == need) {
            safe = mine; nsafe = nmine; full = theirs; nfull = ntheirs;
        } else {
            continue;
        }
        int opens[8], marks[8], nopens = 0, nmarks = 0;
        for (int k = 0; k < nsafe; k++)
            if (!sb_has(full, nfull, safe[k])) opens[nopens++] = safe[k];
        for (int k = 0; k < nfull; k++)
            if (!sb_has(safe, nsafe, full[k])) marks[nmarks++] = full[k];
        if (nopens || nmarks) {
            for (int k = 0; k < nmarks && !s->error; k++)
                if (s->view[marks[k]] == SB_COVERED) sb_mark(s, marks[k]);
            for (int k = 0; k < nopens && !s->error; k++) sb_open(s, opens[k]);
            return;
        }
    }
}

static int sb_total(Settler *s) {
    long left = s->mines - s->marked_total;
    if (!s->covered || (left && left != s->covered)) return 0;
    long size = (long)s->width * s->height;
    for (long cell = 0; cell < size && !s->error; cell++) {
        if (s->view[cell] != SB_COVERED) continue;
        if (left) sb_mark(s, (int)cell);
        else sb_open(s, (int)cell);
    }
    return 1;
}

static PyObject *settle_board(PyObject *self, PyObject *args) {
    Py_buffer clues, view;
    int width, height, mines, start;
    if (!PyArg_ParseTuple(args, "y*w*iiii", &clues, &view, &width, &height, &mines, &start)) return NULL;
    PyObject *result = NULL;
    long size = (long)width * height;
    Settler s;
    memset(&s, 0, sizeof s);
    if (width < 1 || height < 1 || clues.len != size || view.len != size || start >= size) {
        PyErr_SetString(PyExc_ValueError, "settle_board: the clues and the view must hold width x height cells");
        goto done;
    }
    s.clues = clues.buf; s.view = view.buf; s.width = width; s.height = height; s.mines = mines;
    s.single = malloc(sizeof(int) * size); s.pair = malloc(sizeof(int) * size);
    s.stack = malloc(sizeof(int) * (8 * size + 1));
    s.in_single = calloc(size, 1); s.in_pair = calloc(size, 1);
    if (!s.single || !s.pair || !s.stack || !s.in_single || !s.in_pair) { PyErr_NoMemory(); goto done; }
    for (long cell = 0; cell < size; cell++) {
        if (s.view[cell] == SB_COVERED) s.covered++;
        else if (s.view[cell] == SB_FLAG) s.marked_total++;
        else if (s.view[cell] >= 0) sb_push(&s, (int)cell);
    }
    if (start >= 0) sb_open(&s, start);
    while (!s.error) {
        while (s.nsingle && !s.error) {
            int cell = s.single[--s.nsingle];
            s.in_single[cell] = 0;
            sb_one_clue(&s, cell);
        }
        if (s.error) break;
        if (s.npair) {
            int cell = s.pair[--s.npair];
            s.in_pair[cell] = 0;
            sb_two_clues(&s, cell);
            continue;
        }
        if (!sb_total(&s)) break;
    }
    if (s.error)
        PyErr_SetString(PyExc_ValueError, s.error == 1 ? "a cell was proved safe but is a mine: the view is not this board's"
                                                       : "a cell was proved a mine but is safe: the view is not this board's");
    else
        result = Py_BuildValue("(ll)", s.opened, s.marked);
done:
    free(s.single); free(s.pair); free(s.stack); free(s.in_single); free(s.in_pair);
    PyBuffer_Release(&clues);
    PyBuffer_Release(&view);
    return result;
}

/* ---- Settling a board's clues ----
 * cspmines.engine.constraints._clue_rows and _settle_rounds together, on the grid's int8 codes: each
 * clue with a covered neighbour a rule over them (its known mines subtracted), then rounds in which
 * a rule needing no mine makes its cells safe and one needing a mine a cell makes them mines, each
 * round's decisions taken out of every rule. A set is a set whatever order makes it, so the answer is
 * the Python one; where the Python raises (a clue that cannot be met) or keeps the system as it is (a
 * round that contradicts itself) this answers None and the Python says which. */
static PyObject *settle_clues(PyObject *self, PyObject *args) {
    Py_buffer view;
    int width, height;
    if (!PyArg_ParseTuple(args, "y*ii", &view, &width, &height)) return NULL;
    PyObject *result = NULL, *rules = NULL, *safe = NULL, *mines = NULL, *undecided = NULL, *rest = NULL;
    Py_ssize_t n = (Py_ssize_t)width * height;
    int *cells = NULL, *length = NULL, *need = NULL, *label = NULL, *active = NULL, *fresh = NULL;
    unsigned char *state = NULL, *mark = NULL;
    if (width <= 0 || height <= 0 || view.len != n) {
        PyErr_SetString(PyExc_ValueError, "the grid's bytes do not match its width and height");
        goto done;
    }
    const signed char *grid = (const signed char *)view.buf;
    cells = malloc((size_t)n * 8 * sizeof(int));
    length = malloc((size_t)n * sizeof(int));
    need = malloc((size_t)n * sizeof(int));
    label = malloc((size_t)n * sizeof(int));
    active = malloc((size_t)n * sizeof(int));
    fresh = malloc((size_t)n * sizeof(int));
    state = calloc((size_t)n, 1); /* 0 undecided, 1 safe, 2 a mine */
    mark = calloc((size_t)n, 1);  /* this round's decisions, the same way (3: both, a contradiction) */
    if (!cells || !length || !need || !label || !active || !fresh || !state || !mark) { PyErr_NoMemory(); goto done; }
    long covered = 0, known = 0;
    int nrules = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int code = grid[i];
        if (code == -1) covered++;
        else if (code == -2 || code == -3) known++;
        if (code < 0) continue;
        int near[8], nnear = board_neighbours(width, height, (int)i, 1, near), count = 0, around = 0;
        int *mine_cells = cells + (size_t)nrules * 8;
        for (int j = 0; j < nnear; j++) {
            int other = grid[near[j]];
            if (other == -1) mine_cells[count++] = near[j];
            else if (other == -2 || other == -3) around++;
        }
        int wanted = code - around;
        if (wanted < 0 || wanted > count) { result = Py_None; Py_INCREF(result); goto done; } /* the Python names it */
        if (count) { length[nrules] = count; need[nrules] = wanted; label[nrules] = (int)i; active[nrules] = nrules; nrules++; }
    }
    int nactive = nrules;
    for (;;) {
        int nfresh = 0;
        for (int k = 0; k < nactive; k++) {
            int r = active[k];
            unsigned char as = need[r] == 0 ? 1 : (need[r] == length[r] ? 2 : 0);
            if (!as) continue;
            for (int j = 0; j < length[r]; j++) {
                int cell = cells[(size_t)r * 8 + j];
                if (!mark[cell]) fresh[nfresh++] = cell;
                mark[cell] |= as;
            }
        }
        if (!nfresh) break;
        for (int k = 0; k < nfresh; k++)
            if (mark[fresh[k]] == 3) { result = Py_None; Py_INCREF(result); goto done; }
        int kept = 0;
        for (int k = 0; k < nactive; k++) {
            int r = active[k], left = 0, wanted = need[r];
            int *own = cells + (size_t)r * 8;
            for (int j = 0; j < length[r]; j++) {
                unsigned char m = mark[own[j]];
                if (!m) own[left++] = own[j];
                else if (m == 2) wanted--;
            }
            if (left == length[r]) { active[kept++] = r; continue; }
            if (wanted < 0 || wanted > left) { result = Py_None; Py_INCREF(result); goto done; }
            length[r] = left;
            need[r] = wanted;
            if (left) active[kept++] = r;
        }
        nactive = kept;
        for (int k = 0; k < nfresh; k++) { state[fresh[k]] = mark[fresh[k]]; mark[fresh[k]] = 0; }
    }
    rules = PyList_New(nactive);
    safe = PyFrozenSet_New(NULL); /* filled below, before anyone sees them */
    mines = PyFrozenSet_New(NULL);
    if (!rules || !safe || !mines) goto failed;
    for (int k = 0; k < nactive; k++) {
        int r = active[k];
        PyObject *members = PyTuple_New(length[r]);
        if (!members) goto failed;
        for (int j = 0; j < length[r]; j++) PyTuple_SET_ITEM(members, j, PyLong_FromLong(cells[(size_t)r * 8 + j]));
        PyObject *group = PyFrozenSet_New(members);
        Py_DECREF(members);
        if (!group) goto failed;
        PyObject *triple = Py_BuildValue("(Nii)", group, need[r], label[r]);
        if (!triple) goto failed;
        PyList_SET_ITEM(rules, k, triple);
    }
    Py_ssize_t nundecided = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (grid[i] != -1) continue;
        if (state[i] == 0) { nundecided++; continue; }
        PyObject *cell = PyLong_FromSsize_t(i);
        if (!cell || PySet_Add(state[i] == 1 ? safe : mines, cell) < 0) { Py_XDECREF(cell); goto failed; }
        Py_DECREF(cell);
    }
    undecided = PyTuple_New(nundecided);
    if (!undecided) goto failed;
    for (Py_ssize_t i = 0, k = 0; i < n; i++)
        if (grid[i] == -1 && state[i] == 0) PyTuple_SET_ITEM(undecided, k++, PyLong_FromSsize_t(i));
    /* the rest: undecided cells in no rule left (marked 4 in mark, clear since the last round) */
    Py_ssize_t nrest = nundecided;
    for (int k = 0; k < nactive; k++)
        for (int j = 0; j < length[active[k]]; j++) {
            int cell = cells[(size_t)active[k] * 8 + j];
            if (!mark[cell]) { mark[cell] = 4; nrest--; }
        }
    rest = PyTuple_New(nrest);
    if (!rest) goto failed;
    for (Py_ssize_t i = 0, k = 0; i < n; i++)
        if (grid[i] == -1 && state[i] == 0 && !mark[i]) PyTuple_SET_ITEM(rest, k++, PyLong_FromSsize_t(i));
    result = Py_BuildValue("(NNNNNll)", rules, safe, mines, undecided, rest, covered, known);
    goto done;
failed:
    Py_XDECREF(rules); Py_XDECREF(safe); Py_XDECREF(mines); Py_XDECREF(undecided); Py_XDECREF(rest);
done:
    PyBuffer_Release(&view);
    free(cells); free(length); free(need); free(label); free(active); free(fresh); free(state); free(mark);
    return result;
}

/* ---- Splitting rules into chains ----
 * cspmines.engine.chains._split_layout's chains: cells under the same rules grouped into boxes
 * (each box's cells in increasing order, boxes in the order of their first cell), boxes joined by the
 * rules that cover them, each chain in the order of its first box with its boxes, its rules and the
 * local numbering of both as the Python makes them. */
typedef struct { long cell; int rule; } CellRule;

static int cell_rule_order(const void *a, const void *b) {
    const CellRule *x = a, *y = b;
    if (x->cell != y->cell) return x->cell < y->cell ? -1 : 1;
    return (x->rule > y->rule) - (x->rule < y->rule);
}

static PyObject *int_tuple(const int *values, int count) {
    PyObject *tuple = PyTuple_New(count);
    if (!tuple) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (!value) { Py_DECREF(tuple); return NULL; }
        PyTuple_SET_ITEM(tuple, i, value);
    }
    return tuple;
}

static int box_root(int *parent, int box) {
    while (parent[box] != box) box = parent[box] = parent[parent[box]];
    return box;
}

static PyObject *split_rules(PyObject *self, PyObject *args) {
    PyObject *rules_in;
    if (!PyArg_ParseTuple(args, "O", &rules_in)) return NULL;
    PyObject *rules = PySequence_Fast(rules_in, "the rules' cells must be a sequence");
    if (!rules) return NULL;
    int nrules = (int)PySequence_Fast_GET_SIZE(rules);
    CellRule *pairs = NULL;
    long *cell_of = NULL;
    int *start = NULL, *box_of_cell = NULL, *box_first = NULL, *box_size = NULL, *box_sig = NULL, *box_nsig = NULL;
    int *parent = NULL, *slots = NULL, *rule_chain = NULL, *local_box = NULL, *local_rule = NULL, *members = NULL;
    int *rule_nboxes = NULL, *rule_start = NULL, *rule_fill = NULL, *scratch = NULL, *rule_box_list = NULL;
    PyObject *result = NULL, *chains = NULL;
    Py_ssize_t npairs = 0, capacity = 64;
    pairs = malloc(capacity * sizeof(CellRule));
    if (!pairs) { PyErr_NoMemory(); goto done; }
    for (int r = 0; r < nrules; r++) {
        PyObject *cells = PySequence_Fast(PySequence_Fast_GET_ITEM(rules, r), "a rule's cells must be iterable");
        if (!cells) goto done;
        Py_ssize_t count = PySequence_Fast_GET_SIZE(cells);
        if (npairs + count > capacity) {
            while (npairs + count > capacity) capacity *= 2;
            CellRule *grown = realloc(pairs, capacity * sizeof(CellRule));
            if (!grown) { Py_DECREF(cells); PyErr_NoMemory(); goto done; }
            pairs = grown;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            long cell = PyLong_AsLong(PySequence_Fast_GET_ITEM(cells, i));
            if (cell == -1 && PyErr_Occurred()) { Py_DECREF(cells); goto done; }
            pairs[npairs].cell = cell;
            pairs[npairs].rule = r;
            npairs++;
        }
        Py_DECREF(cells);
    }
    qsort(pairs, npairs, sizeof(CellRule), cell_rule_order);
    /* the distinct cells, increasing, each with its rules (pairs[start[c] .. start[c + 1]]) */
    int ncells = 0;
    start = malloc((npairs + 1) * sizeof(int));
    cell_of = malloc((npairs + 1) * sizeof(long));
    if (!start || !cell_of) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < npairs; i++)
        if (i == 0 || pairs[i].cell != pairs[i - 1].cell) { start[ncells] = (int)i; cell_of[ncells] = pairs[i].cell; ncells++; }
    start[ncells] = (int)npairs;
    /* boxes: cells of one signature, numbered in the order of their first cell (a hash of signatures) */
    size_t nslots = 16;
    while (nslots < (size_t)ncells * 2 + 2) nslots *= 2;
    slots = malloc(nslots * sizeof(int));
    box_of_cell = malloc((ncells + 1) * sizeof(int));
    box_first = malloc((ncells + 1) * sizeof(int));
    box_size = calloc(ncells + 1, sizeof(int));
    if (!slots || !box_of_cell || !box_first || !box_size) { PyErr_NoMemory(); goto done; }
    for (size_t i = 0; i < nslots; i++) slots[i] = -1;
    int nboxes = 0;
    for (int c = 0; c < ncells; c++) {
        int length = start[c + 1] - start[c];
        uint64_t hash = 1469598103934665603ULL;
        for (int k = start[c]; k < start[c + 1]; k++) hash = (hash ^ (uint64_t)pairs[k].rule) * 1099511628211ULL;
        size_t slot = mix(hash) & (nslots - 1);
        for (;;) {
            int b = slots[slot];
            if (b < 0) { slots[slot] = nboxes; box_first[nboxes] = c; box_of_cell[c] = nboxes++; break; }
            int other = box_first[b];
            if (start[other + 1] - start[other] == length) {
                int same = 1;
                for (int k = 0; k < length && same; k++) same = pairs[start[other] + k].rule == pairs[start[c] + k].rule;
                if (same) { box_of_cell[c] = b; break; }
            }
            slot = (slot + 1) & (nslots - 1);
        }
        box_size[box_of_cell[c]]++;
    }
    /* each rule's boxes, increasing; boxes joined by their rules, each root its class's lowest box */
    rule_nboxes = calloc(nrules + 1, sizeof(int));
    rule_start = malloc((nrules + 1) * sizeof(int));
    rule_fill = calloc(nrules + 1, sizeof(int));
    parent = malloc((nboxes + 1) * sizeof(int));
    if (!rule_nboxes || !rule_start || !rule_fill || !parent) { PyErr_NoMemory(); goto done; }
    for (int b = 0; b < nboxes; b++) {
        int c = box_first[b];
        for (int k = start[c]; k < start[c + 1]; k++) rule_nboxes[pairs[k].rule]++;
        parent[b] = b;
    }
    int total = 0;
    for (int r = 0; r < nrules; r++) { rule_start[r] = total; total += rule_nboxes[r]; }
    rule_box_list = malloc((total + 1) * sizeof(int));
    if (!rule_box_list) { PyErr_NoMemory(); goto done; }
    for (int b = 0; b < nboxes; b++) {
        int c = box_first[b];
        for (int k = start[c]; k < start[c + 1]; k++) {
            int r = pairs[k].rule;
            rule_box_list[rule_start[r] + rule_fill[r]++] = b;
        }
    }
    for (int r = 0; r < nrules; r++)
        for (int k = 1; k < rule_nboxes[r]; k++) {
            int a = box_root(parent, rule_box_list[rule_start[r]]), b = box_root(parent, rule_box_list[rule_start[r] + k]);
            if (a != b) { if (a < b) parent[b] = a; else parent[a] = b; }
        }
    /* the chains, in the order of their lowest box: boxes, rules and cells bucketed by counting */
    local_box = malloc((nboxes + 1) * sizeof(int));
    local_rule = malloc((nrules + 1) * sizeof(int));
    rule_chain = malloc((nrules + 1) * sizeof(int));
    members = malloc((nboxes + 1) * sizeof(int));
    scratch = malloc((ncells + nrules + 1) * sizeof(int));
    box_sig = calloc(nboxes + 2, sizeof(int));  /* the chain of each root, then offsets of boxes by chain */
    box_nsig = calloc(nrules + nboxes + 2, sizeof(int)); /* offsets of rules by chain */
    int *cell_start = calloc(nboxes + 1, sizeof(int)), *box_cells_sorted = malloc((ncells + 1) * sizeof(int));
    int *chain_rules = malloc((nrules + 1) * sizeof(int));
    chains = PyList_New(0);
    if (!local_box || !local_rule || !rule_chain || !members || !scratch || !box_sig || !box_nsig || !cell_start || !box_cells_sorted
        || !chain_rules || !chains) {
        free(cell_start); free(box_cells_sorted); free(chain_rules);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    int nchains = 0;
    for (int b = 0; b < nboxes; b++) parent[b] = box_root(parent, b);
    for (int b = 0; b < nboxes; b++) if (parent[b] == b) local_box[b] = nchains++; /* a root's chain, for now */
    int *box_offset = calloc(nchains + 1, sizeof(int)), *rule_offset = calloc(nchains + 1, sizeof(int));
    if (!box_offset || !rule_offset) { free(box_offset); free(rule_offset); free(cell_start); free(box_cells_sorted); free(chain_rules);
                                       PyErr_NoMemory(); goto done; }
    for (int b = 0; b < nboxes; b++) box_offset[local_box[parent[b]] + 1]++;
    for (int k = 0; k < nchains; k++) box_offset[k + 1] += box_offset[k];
    for (int r = 0; r < nrules; r++) {
        rule_chain[r] = rule_nboxes[r] ? local_box[parent[rule_box_list[rule_start[r]]]] : -1;
        if (rule_chain[r] >= 0) rule_offset[rule_chain[r] + 1]++;
    }
    for (int k = 0; k < nchains; k++) rule_offset[k + 1] += rule_offset[k];
    int *box_fill = box_sig, *rule_filled = box_nsig;
    for (int b = 0; b < nboxes; b++) { int k = local_box[parent[b]]; members[box_offset[k] + box_fill[k]++] = b; }
    for (int r = 0; r < nrules; r++)
        if (rule_chain[r] >= 0) { int k = rule_chain[r]; chain_rules[rule_offset[k] + rule_filled[k]++] = r; }
    /* each box's cells, increasing, from cell_start[b] in box_cells_sorted (box_size[b] of them) */
    for (int b = 0, at = 0; b < nboxes; b++) { cell_start[b] = at; at += box_size[b]; }
    for (int b = 0; b < nboxes; b++) scratch[b] = 0;
    for (int c = 0; c < ncells; c++) { int b = box_of_cell[c]; box_cells_sorted[cell_start[b] + scratch[b]++] = (int)cell_of[c]; }
    for (int k = 0; k < nchains && !PyErr_Occurred(); k++) {
        int nmembers = box_offset[k + 1] - box_offset[k], nlocal_rules = rule_offset[k + 1] - rule_offset[k];
        int *chain_members = members + box_offset[k], *rule_ids = chain_rules + rule_offset[k];
        for (int i = 0; i < nmembers; i++) local_box[chain_members[i]] = i;
        for (int i = 0; i < nlocal_rules; i++) local_rule[rule_ids[i]] = i;
        PyObject *box_cells = PyTuple_New(nmembers), *box_rules = PyTuple_New(nmembers), *rule_boxes = PyTuple_New(nlocal_rules);
        PyObject *ids = int_tuple(rule_ids, nlocal_rules);
        PyObject *chain = (box_cells && box_rules && rule_boxes && ids) ? PyTuple_Pack(4, box_cells, box_rules, ids, rule_boxes) : NULL;
        Py_XDECREF(box_cells); Py_XDECREF(box_rules); Py_XDECREF(rule_boxes); Py_XDECREF(ids);
        if (!chain || PyList_Append(chains, chain) < 0) { Py_XDECREF(chain); break; }
        Py_DECREF(chain);
        int *values = scratch;
        for (int i = 0; i < nmembers && !PyErr_Occurred(); i++) {
            int b = chain_members[i], n = 0;
            PyObject *cells = int_tuple(box_cells_sorted + cell_start[b], box_size[b]);
            if (!cells) break;
            PyTuple_SET_ITEM(box_cells, i, cells);
            for (int j = start[box_first[b]]; j < start[box_first[b] + 1]; j++) values[n++] = local_rule[pairs[j].rule];
            PyObject *own = int_tuple(values, n);
            if (!own) break;
            PyTuple_SET_ITEM(box_rules, i, own);
        }
        for (int i = 0; i < nlocal_rules && !PyErr_Occurred(); i++) {
            int r = rule_ids[i];
            for (int j = 0; j < rule_nboxes[r]; j++) values[j] = local_box[rule_box_list[rule_start[r] + j]];
            PyObject *own = int_tuple(values, rule_nboxes[r]);
            if (!own) break;
            PyTuple_SET_ITEM(rule_boxes, i, own);
        }
    }
    free(box_offset); free(rule_offset); free(cell_start); free(box_cells_sorted); free(chain_rules);
    if (PyErr_Occurred()) goto done;
    result = chains;
    chains = NULL;
done:
    Py_XDECREF(chains);
    Py_DECREF(rules);
    free(pairs); free(cell_of); free(start); free(box_of_cell); free(box_first); free(box_size); free(box_sig); free(box_nsig);
    free(parent); free(slots); free(rule_chain); free(local_box); free(local_rule); free(members);
    free(rule_nboxes); free(rule_start); free(rule_fill); free(scratch); free(rule_box_list);
    return result;
}

/* ---- Single-clue deductions around changed cells ----
 * cspmines.agents.exact.deductions.SingleClueWatch._read_around: every clue at or next to a changed
 * cell, its need less the known mines around it (flags, opened mines and the covered cells the caller
 * knows to be mines); its covered neighbours safe when it needs none, mines when it needs them all.
 * None where some clue read needs fewer mines than it has or more than it has room for. */
static PyObject *single_clues(PyObject *self, PyObject *args) {
    Py_buffer view;
    int width, height;
    PyObject *changed_in, *known_in;
    if (!PyArg_ParseTuple(args, "y*iiOO", &view, &width, &height, &changed_in, &known_in)) return NULL;
    Py_ssize_t n = (Py_ssize_t)width * height;
    PyObject *result = NULL, *safe = NULL, *mines = NULL, *changed = NULL, *known = NULL;
    unsigned char *flag = NULL;
    int *clues = NULL;
    if (width <= 0 || height <= 0 || view.len != n) {
        PyErr_SetString(PyExc_ValueError, "the grid's bytes do not match its width and height");
        goto done;
    }
    const signed char *grid = (const signed char *)view.buf;
    changed = PySequence_Fast(changed_in, "the changed cells must be a sequence");
    known = changed ? PySequence_Fast(known_in, "the known mines must be iterable") : NULL;
    if (!known) goto done;
    flag = calloc((size_t)n, 1); /* 1: a known mine; 2: a clue to read */
    Py_ssize_t nchanged = PySequence_Fast_GET_SIZE(changed);
    clues = malloc(((size_t)nchanged * 9 + 1) * sizeof(int));
    if (!flag || !clues) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(known); i++) {
        Py_ssize_t cell = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(known, i));
        if (cell == -1 && PyErr_Occurred()) goto done;
        if (cell >= 0 && cell < n) flag[cell] |= 1;
    }
    int nclues = 0;
    for (Py_ssize_t i = 0; i < nchanged; i++) {
        Py_ssize_t cell = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(changed, i));
        if (cell == -1 && PyErr_Occurred()) goto done;
        if (cell < 0 || cell >= n) { PyErr_SetString(PyExc_IndexError, "a changed cell off the board"); goto done; }
        int row = (int)(cell / width), col = (int)(cell % width);
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++) {
                int r = row + dr, c = col + dc;
                if (r < 0 || r >= height || c < 0 || c >= width) continue;
                Py_ssize_t other = (Py_ssize_t)r * width + c;
                if (grid[other] >= 0 && !(flag[other] & 2)) { flag[other] |= 2; clues[nclues++] = (int)other; }
            }
    }
    safe = PySet_New(NULL);
    mines = PySet_New(NULL);
    if (!safe || !mines) goto done;
    for (int k = 0; k < nclues; k++) {
        int clue = clues[k], need = grid[clue], ncovered = 0, covered[8], near[8], nnear = board_neighbours(width, height, clue, 1, near);
        for (int j = 0; j < nnear; j++) {
            int other = near[j], state = grid[other];
            if (state == -2 || state == -3 || (state == -1 && (flag[other] & 1))) need--;
            else if (state == -1) covered[ncovered++] = other;
        }
        if (need < 0 || need > ncovered) { Py_CLEAR(safe); Py_CLEAR(mines); result = Py_None; Py_INCREF(result); goto done; }
        if (ncovered && (need == 0 || need == ncovered)) {
            PyObject *into = need == 0 ? safe : mines;
            for (int j = 0; j < ncovered; j++) {
                PyObject *cell = PyLong_FromLong(covered[j]);
                if (!cell || PySet_Add(into, cell) < 0) { Py_XDECREF(cell); goto done; }
                Py_DECREF(cell);
            }
        }
    }
    result = PyTuple_Pack(2, safe, mines);
done:
    Py_XDECREF(safe); Py_XDECREF(mines); Py_XDECREF(changed); Py_XDECREF(known);
    PyBuffer_Release(&view);
    free(flag); free(clues);
    return result;
}

/* ---- Combining chains with the cells off the front ----
 * cspmines.engine.combine.combine_with_total's chances, on Python's own integers (exact whatever their
 * size, so the answer is the Python one whatever the order of the sums): each chain's weight of the
 * rest for each of its mine numbers, then each box's layouts with a mine in a given cell. */
static PyObject *poly_product(PyObject *a, PyObject *b) { /* lists of ints -> a new list, their product */
    Py_ssize_t na = PyList_GET_SIZE(a), nb = PyList_GET_SIZE(b);
    PyObject *out = PyList_New(na + nb - 1);
    if (!out) return NULL;
    PyObject *zero = PyLong_FromLong(0);
    if (!zero) { Py_DECREF(out); return NULL; }
    for (Py_ssize_t i = 0; i < na + nb - 1; i++) { Py_INCREF(zero); PyList_SET_ITEM(out, i, zero); }
    Py_DECREF(zero);
    for (Py_ssize_t i = 0; i < na; i++) {
        PyObject *x = PyList_GET_ITEM(a, i);
        if (!PyObject_IsTrue(x)) continue;
        for (Py_ssize_t j = 0; j < nb; j++) {
            PyObject *y = PyList_GET_ITEM(b, j);
            if (!PyObject_IsTrue(y)) continue;
            PyObject *term = PyNumber_Multiply(x, y);
            PyObject *sum = term ? PyNumber_Add(PyList_GET_ITEM(out, i + j), term) : NULL;
            Py_XDECREF(term);
            if (!sum) { Py_DECREF(out); return NULL; }
            PyList_SetItem(out, i + j, sum);
        }
    }
    return out;
}

/* sum over j of others[j] * window[top - j], j where both exist: combine._weight */
static PyObject *rest_weight(PyObject *others, PyObject *window, Py_ssize_t top) {
    Py_ssize_t nw = PyList_GET_SIZE(window), no = PyList_GET_SIZE(others);
    Py_ssize_t first = top - nw + 1 > 0 ? top - nw + 1 : 0, last = no - 1 < top ? no - 1 : top;
    PyObject *sum = PyLong_FromLong(0);
    for (Py_ssize_t j = first; sum && j <= last; j++) {
        PyObject *term = PyNumber_Multiply(PyList_GET_ITEM(others, j), PyList_GET_ITEM(window, top - j));
        PyObject *next = term ? PyNumber_Add(sum, term) : NULL;
        Py_XDECREF(term);
        Py_DECREF(sum);
        sum = next;
    }
    return sum;
}

/* combine_chances(models, tallies, sizes, window, low, mines_left, rest_size) -> ([[layouts with a mine in a
 * cell of each box] for each chain], the same for a cell off the front or None where there is none):
 * models[c] a list (trimmed), tallies[c][b] a sequence by mine number. */
static PyObject *combine_chances(PyObject *self, PyObject *args) {
    PyObject *models, *tallies, *sizes, *window;
    Py_ssize_t low, mines_left, rest_size;
    if (!PyArg_ParseTuple(args, "O!O!O!O!nnn", &PyList_Type, &models, &PyList_Type, &tallies, &PyList_Type, &sizes, &PyList_Type,
                          &window, &low, &mines_left, &rest_size))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(models);
    if (PyList_GET_SIZE(tallies) != n || PyList_GET_SIZE(sizes) != n) {
        PyErr_SetString(PyExc_ValueError, "models, tallies and sizes must have one entry a chain");
        return NULL;
    }
    PyObject *prefix = PyList_New(n + 1), *suffix = PyList_New(n + 1), *result = PyList_New(n);
    if (!prefix || !suffix || !result) goto failed;
    PyObject *one = Py_BuildValue("[i]", 1);
    if (!one) goto failed;
    Py_INCREF(one);
    PyList_SET_ITEM(prefix, 0, one);
    PyList_SET_ITEM(suffix, n, one);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *poly = PyList_GET_ITEM(models, i);
        if (!PyList_Check(poly)) { PyErr_SetString(PyExc_TypeError, "a chain's models must be a list"); goto failed; }
        PyObject *made = poly_product(PyList_GET_ITEM(prefix, i), poly);
        if (!made) goto failed;
        PyList_SET_ITEM(prefix, i + 1, made);
    }
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        PyObject *made = poly_product(PyList_GET_ITEM(suffix, i + 1), PyList_GET_ITEM(models, i));
        if (!made) goto failed;
        PyList_SET_ITEM(suffix, i, made);
    }
    for (Py_ssize_t c = 0; c < n; c++) {
        PyObject *poly = PyList_GET_ITEM(models, c);
        Py_ssize_t nk = PyList_GET_SIZE(poly);
        PyObject *others = poly_product(PyList_GET_ITEM(prefix, c), PyList_GET_ITEM(suffix, c + 1));
        if (!others) goto failed;
        PyObject **weight_of = calloc(nk ? nk : 1, sizeof(PyObject *));
        if (!weight_of) { Py_DECREF(others); PyErr_NoMemory(); goto failed; }
        int ok = 1;
        for (Py_ssize_t k = 0; k < nk && ok; k++)
            if (PyObject_IsTrue(PyList_GET_ITEM(poly, k))) ok = (weight_of[k] = rest_weight(others, window, mines_left - k - low)) != NULL;
        Py_DECREF(others);
        PyObject *box_tallies = ok ? PySequence_Fast(PyList_GET_ITEM(tallies, c), "a chain's tallies must be a sequence") : NULL;
        PyObject *box_sizes = box_tallies ? PySequence_Fast(PyList_GET_ITEM(sizes, c), "a chain's sizes must be a sequence") : NULL;
        PyObject *chances = box_sizes ? PyList_New(PySequence_Fast_GET_SIZE(box_tallies)) : NULL;
        for (Py_ssize_t b = 0; chances && b < PyList_GET_SIZE(chances); b++) {
            PyObject *tally = PySequence_Fast(PySequence_Fast_GET_ITEM(box_tallies, b), "a tally must be a sequence");
            PyObject *sum = tally ? PyLong_FromLong(0) : NULL;
            Py_ssize_t nt = tally ? PySequence_Fast_GET_SIZE(tally) : 0;
            for (Py_ssize_t k = 0; sum && k < nt && k < nk; k++) {
                PyObject *t = PySequence_Fast_GET_ITEM(tally, k);
                if (!weight_of[k] || !PyObject_IsTrue(t)) continue;
                PyObject *term = PyNumber_Multiply(t, weight_of[k]);
                PyObject *next = term ? PyNumber_Add(sum, term) : NULL;
                Py_XDECREF(term);
                Py_DECREF(sum);
                sum = next;
            }
            Py_XDECREF(tally);
            PyObject *chance = sum ? PyNumber_FloorDivide(sum, PySequence_Fast_GET_ITEM(box_sizes, b)) : NULL;
            Py_XDECREF(sum);
            if (!chance) { Py_CLEAR(chances); break; }
            PyList_SET_ITEM(chances, b, chance);
        }
        Py_XDECREF(box_tallies); Py_XDECREF(box_sizes);
        for (Py_ssize_t k = 0; k < nk; k++) Py_XDECREF(weight_of[k]);
        free(weight_of);
        if (!chances) goto failed;
        PyList_SET_ITEM(result, c, chances);
    }
    PyObject *rest = Py_None; /* the rest holds mines_left - k mines when the front holds k */
    Py_INCREF(rest);
    if (rest_size > 0) {
        PyObject *everything = PyList_GET_ITEM(prefix, n), *sum = PyLong_FromLong(0);
        Py_ssize_t nw = PyList_GET_SIZE(window);
        for (Py_ssize_t k = 0; sum && k < PyList_GET_SIZE(everything); k++) {
            Py_ssize_t t = mines_left - k;
            PyObject *w = PyList_GET_ITEM(everything, k);
            if (t - low < 0 || t - low >= nw || !PyObject_IsTrue(w)) continue;
            PyObject *left = PyLong_FromSsize_t(t), *ways = PyNumber_Multiply(w, PyList_GET_ITEM(window, t - low));
            PyObject *term = left && ways ? PyNumber_Multiply(ways, left) : NULL;
            PyObject *next = term ? PyNumber_Add(sum, term) : NULL;
            Py_XDECREF(left); Py_XDECREF(ways); Py_XDECREF(term);
            Py_DECREF(sum);
            sum = next;
        }
        PyObject *size = sum ? PyLong_FromSsize_t(rest_size) : NULL;
        Py_DECREF(rest);
        rest = size ? PyNumber_FloorDivide(sum, size) : NULL;
        Py_XDECREF(sum); Py_XDECREF(size);
        if (!rest) goto failed;
    }
    Py_DECREF(prefix); Py_DECREF(suffix);
    return Py_BuildValue("(NN)", result, rest);
failed:
    Py_XDECREF(prefix); Py_XDECREF(suffix); Py_XDECREF(result);
    return NULL;
}

/* ---- A glance at a position (glance_boxes) ----
 * cspmines.engine.glance.glance_boxes: the proved safe cells and the `count` least chances below
 * certainty of a position given by its boxes' chances, with `living` among the cells whose clue is not
 * already known (cspmines.engine.glance.clue_is_settled). A group is a box, the cells settled safe, those
 * settled mines, or the rest, with one chance. What the caller hands in is copied first (the cells into
 * C arrays, checked; the lists into tuples; each chance held), so that no comparison of chances, which
 * may run Python code, can change or free what the pass reads. */
typedef struct {
    int *cells; /* the group's cells, copied and checked to be on the board */
    Py_ssize_t size;
    PyObject *chance; /* held */
} GlanceGroup;

typedef struct {
    const signed char *grid;
    const unsigned char *decided;
    int width, height;
} GlanceBoard;

/* The covered neighbours of `cell` not decided, in flat order (sorted), into out[8]; their number. */
static int glance_doubtful(const GlanceBoard *g, int cell, int *out) {
    int around[8], count = board_neighbours(g->width, g->height, cell, 1, around), k = 0;
    for (int i = 0; i < count; i++)
        if (g->grid[around[i]] == SB_COVERED && !g->decided[around[i]]) out[k++] = around[i];
    return k;
}

/* clue_is_settled's test: no doubtful neighbour, or a clue whose doubtful neighbours are the same ones.
 * Such a clue is a neighbour of each of them, so of the first (the twin asks about any one of them). */
static int glance_settled(const GlanceBoard *g, int cell) {
    int around[8], other[8];
    int k = glance_doubtful(g, cell, around);
    if (!k) return 1;
    int clues[8], count = board_neighbours(g->width, g->height, around[0], 1, clues);
    for (int i = 0; i < count; i++) {
        int n = clues[i];
        if (g->grid[n] >= 0 && glance_doubtful(g, n, other) == k && !memcmp(around, other, (size_t)k * sizeof(int))) return 1;
    }
    return 0;
}

/* The `count` least chances below `certain` of the groups' cells that are living (every cell without
 * `living`), least first, into found (borrowed from the groups); their number, or -1 with an exception set. */
static Py_ssize_t glance_least(const GlanceGroup *groups, Py_ssize_t ngroups, PyObject *certain, const GlanceBoard *g, int living,
                               PyObject **found, Py_ssize_t count) {
    Py_ssize_t nfound = 0;
    for (Py_ssize_t i = 0; i < ngroups && count > 0; i++) {
        PyObject *chance = groups[i].chance;
        int below = PyObject_RichCompareBool(chance, certain, Py_LT);
        if (below < 0) return -1;
        if (!below) continue;
        if (nfound == count) {
            int beaten = PyObject_RichCompareBool(chance, found[count - 1], Py_GE);
            if (beaten < 0) return -1;
            if (beaten) continue;
        }
        for (Py_ssize_t j = 0; j < groups[i].size; j++) {
            if (living && glance_settled(g, groups[i].cells[j])) continue;
            Py_ssize_t at = nfound < count ? nfound : count - 1; /* the next place, or the last (its chance is dropped) */
            while (at > 0) { /* after the equal ones, as a stable sort puts it */
                int less = PyObject_RichCompareBool(chance, found[at - 1], Py_LT);
                if (less < 0) return -1;
                if (!less) break;
                found[at] = found[at - 1];
                at--;
            }
            found[at] = chance;
            if (nfound < count) nfound++;
            if (nfound == count) {
                int beaten = PyObject_RichCompareBool(chance, found[count - 1], Py_GE);
                if (beaten < 0) return -1;
                if (beaten) break; /* no more of this group's cells can come in */
            }
        }
    }
    return nfound;
}

/* Adds `cells` (any iterable of cells on the board) with `chance` as the next group: the cells copied
 * into a C array and checked, the chance held. */
static int glance_group(GlanceGroup *groups, Py_ssize_t *ngroups, PyObject *cells, PyObject *chance, Py_ssize_t n) {
    PyObject *items = PySequence_Tuple(cells); /* its own copy: reading a cell may run Python code */
    if (!items) return -1;
    Py_ssize_t size = PyTuple_GET_SIZE(items);
    int *copy = malloc((size_t)(size ? size : 1) * sizeof(int));
    if (!copy) { Py_DECREF(items); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t j = 0; j < size; j++) {
        long cell = PyLong_AsLong(PyTuple_GET_ITEM(items, j));
        if (cell == -1 && PyErr_Occurred()) { free(copy); Py_DECREF(items); return -1; }
        if (cell < 0 || cell >= n) {
            PyErr_Format(PyExc_ValueError, "glance_boxes: cell %ld is not on the board", cell);
            free(copy);
            Py_DECREF(items);
            return -1;
        }
        copy[j] = (int)cell;
    }
    Py_DECREF(items);
    Py_INCREF(chance);
    groups[*ngroups] = (GlanceGroup){copy, size, chance};
    (*ngroups)++;
    return 0;
}

/* Every group in the twin's order: the boxes chain by chain (each chain's boxes and chances taken as
 * tuples first), the cells settled safe (chance 0) and mines (`certain`), the rest. The groups made are
 * counted in *ngroups whatever happens, for the caller to free; -1 with an exception set. */
static int glance_groups(GlanceGroup **out, Py_ssize_t *ngroups, PyObject *chances, PyObject *cells, PyObject *rest, PyObject *rest_chance,
                         PyObject *settled_safe, PyObject *settled_mines, PyObject *zero, PyObject *certain, Py_ssize_t n) {
    PyObject *chains = PySequence_Tuple(chances), *boxes = chains ? PySequence_Tuple(cells) : NULL, *pair = NULL;
    int failed = -1;
    if (!boxes) goto done;
    Py_ssize_t nchains = PyTuple_GET_SIZE(chains), capacity = 3;
    if (PyTuple_GET_SIZE(boxes) != nchains) {
        PyErr_SetString(PyExc_ValueError, "glance_boxes: one tuple of boxes and one list of chances a chain");
        goto done;
    }
    pair = PyTuple_New(2 * nchains); /* each chain's boxes and chances, as tuples */
    if (!pair) goto done;
    for (Py_ssize_t c = 0; c < nchains; c++) {
        PyObject *chain_boxes = PySequence_Tuple(PyTuple_GET_ITEM(boxes, c)), *chain_chances = NULL;
        if (!chain_boxes) goto done;
        PyTuple_SET_ITEM(pair, 2 * c, chain_boxes);
        if (!(chain_chances = PySequence_Tuple(PyTuple_GET_ITEM(chains, c)))) goto done;
        PyTuple_SET_ITEM(pair, 2 * c + 1, chain_chances);
        if (PyTuple_GET_SIZE(chain_boxes) != PyTuple_GET_SIZE(chain_chances)) {
            PyErr_SetString(PyExc_ValueError, "glance_boxes: a chain's boxes and chances differ in number");
            goto done;
        }
        capacity += PyTuple_GET_SIZE(chain_boxes);
    }
    GlanceGroup *groups = *out = calloc((size_t)capacity, sizeof(GlanceGroup));
    if (!groups) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t c = 0; c < nchains; c++) {
        PyObject *chain_boxes = PyTuple_GET_ITEM(pair, 2 * c), *chain_chances = PyTuple_GET_ITEM(pair, 2 * c + 1);
        for (Py_ssize_t b = 0; b < PyTuple_GET_SIZE(chain_boxes); b++)
            if (glance_group(groups, ngroups, PyTuple_GET_ITEM(chain_boxes, b), PyTuple_GET_ITEM(chain_chances, b), n) < 0) goto done;
    }
    if (glance_group(groups, ngroups, settled_safe, zero, n) < 0 || glance_group(groups, ngroups, settled_mines, certain, n) < 0) goto done;
    int has_rest = PyObject_IsTrue(rest);
    if (has_rest < 0 || (has_rest && glance_group(groups, ngroups, rest, rest_chance, n) < 0)) goto done;
    failed = 0;
done:
    Py_XDECREF(chains); Py_XDECREF(boxes); Py_XDECREF(pair);
    return failed;
}

/* glance_boxes(chances, cells, rest, rest_chance, settled_safe, settled_mines, certain, grid, width, height,
 * count, living) -> (frozenset of the proved safe cells, tuple of the least chances) */
static PyObject *glance_boxes(PyObject *self, PyObject *args) {
    PyObject *chances, *cells, *rest, *rest_chance, *settled_safe, *settled_mines, *certain;
    Py_buffer view;
    int width, height, living;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "OOOOOOOy*iinp", &chances, &cells, &rest, &rest_chance, &settled_safe, &settled_mines, &certain, &view,
                          &width, &height, &count, &living))
        return NULL;
    Py_ssize_t n = (Py_ssize_t)width * height, ngroups = 0;
    PyObject *result = NULL, *safe = NULL, *zero = NULL, **found = NULL;
    GlanceGroup *groups = NULL;
    unsigned char *decided = NULL;
    if (width <= 0 || height <= 0 || view.len != n) {
        PyErr_SetString(PyExc_ValueError, "glance_boxes: the grid's bytes do not match its width and height");
        goto done;
    }
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "glance_boxes: count must be >= 0");
        goto done;
    }
    Py_ssize_t most = count < n ? count : n; /* no more chances than cells */
    zero = PyLong_FromLong(0);
    if (!zero || glance_groups(&groups, &ngroups, chances, cells, rest, rest_chance, settled_safe, settled_mines, zero, certain, n) < 0) goto done;
    decided = calloc((size_t)n, 1);
    found = calloc((size_t)most + 1, sizeof(PyObject *));
    safe = PyList_New(0);
    if (!decided || !found || !safe) { if (!PyErr_Occurred()) PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < ngroups; i++) { /* proved safe: chance 0; decided: safe or certain */
        int none = PyObject_Not(groups[i].chance), sure = none ? 0 : PyObject_RichCompareBool(groups[i].chance, certain, Py_EQ);
        if (none < 0 || sure < 0) goto done;
        if (!none && !sure) continue;
        for (Py_ssize_t j = 0; j < groups[i].size; j++) {
            decided[groups[i].cells[j]] = 1;
            if (!none) continue;
            PyObject *cell = PyLong_FromLong(groups[i].cells[j]);
            int added = cell ? PyList_Append(safe, cell) : -1;
            Py_XDECREF(cell);
            if (added < 0) goto done;
        }
    }
    GlanceBoard board = {(const signed char *)view.buf, decided, width, height};
    Py_ssize_t nfound = living ? glance_least(groups, ngroups, certain, &board, 1, found, most) : 0;
    if (nfound == 0) nfound = glance_least(groups, ngroups, certain, &board, 0, found, most);
    if (nfound < 0) goto done;
    PyObject *least = PyTuple_New(nfound), *safe_set = least ? PyFrozenSet_New(safe) : NULL;
    if (!safe_set) { Py_XDECREF(least); goto done; }
    for (Py_ssize_t i = 0; i < nfound; i++) { Py_INCREF(found[i]); PyTuple_SET_ITEM(least, i, found[i]); }
    result = Py_BuildValue("(NN)", safe_set, least);
done:
    for (Py_ssize_t i = 0; i < ngroups; i++) { free(groups[i].cells); Py_DECREF(groups[i].chance); }
    free(groups); free(decided); free(found);
    Py_XDECREF(safe); Py_XDECREF(zero);
    PyBuffer_Release(&view);
    return result;
}

/* ---- Where 50/50s may form ----
 * cspmines.agents.exact.fifty_fifty._closed_off_places: for every cell as a place's top left, whether
 * a pair across, a pair down or a 2x2 block of hidden cells (covered, not known mines) is closed off
 * (the pairs: no opened cell and at most one hidden among their six flanks; the block: no opened or
 * hidden cell at its four diagonal corners), cells off the board closing. Three bytes objects of the
 * board's size, 1 where the place is. */
static PyObject *closed_off_places(PyObject *self, PyObject *args) {
    Py_buffer view;
    int width, height;
    PyObject *known_in;
    if (!PyArg_ParseTuple(args, "y*iiO", &view, &width, &height, &known_in)) return NULL;
    Py_ssize_t n = (Py_ssize_t)width * height;
    PyObject *result = NULL, *known = NULL, *across = NULL, *down = NULL, *square = NULL;
    unsigned char *hidden = NULL, *opened = NULL;
    if (width <= 0 || height <= 0 || view.len != n) {
        PyErr_SetString(PyExc_ValueError, "the grid's bytes do not match its width and height");
        goto done;
    }
    const signed char *grid = (const signed char *)view.buf;
    known = PySequence_Fast(known_in, "the known mines must be iterable");
    hidden = malloc((size_t)n);
    opened = malloc((size_t)n);
    across = PyBytes_FromStringAndSize(NULL, n);
    down = PyBytes_FromStringAndSize(NULL, n);
    square = PyBytes_FromStringAndSize(NULL, n);
    if (!known || !hidden || !opened || !across || !down || !square) { if (!PyErr_Occurred()) PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        hidden[i] = grid[i] == -1;
        opened[i] = grid[i] != -1 && grid[i] != -2 && grid[i] != -3;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(known); i++) {
        Py_ssize_t cell = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(known, i));
        if (cell == -1 && PyErr_Occurred()) goto done;
        if (cell >= 0 && cell < n) hidden[cell] = 0;
    }
#define AT(x, r, c) (((r) >= 0 && (r) < height && (c) >= 0 && (c) < width) ? (x)[(Py_ssize_t)(r) * width + (c)] : 0)
    char *a = PyBytes_AS_STRING(across), *d = PyBytes_AS_STRING(down), *q = PyBytes_AS_STRING(square);
    for (int r = 0; r < height; r++)
        for (int c = 0; c < width; c++) {
            Py_ssize_t i = (Py_ssize_t)r * width + c;
            a[i] = d[i] = q[i] = 0;
            if (!hidden[i]) continue;
            if (AT(hidden, r, c + 1)) {
                int open = 0, hid = 0;
                for (int k = -1; k <= 1; k++) {
                    open += AT(opened, r + k, c - 1) + AT(opened, r + k, c + 2);
                    hid += AT(hidden, r + k, c - 1) + AT(hidden, r + k, c + 2);
                }
                a[i] = open == 0 && hid <= 1;
            }
            if (AT(hidden, r + 1, c)) {
                int open = 0, hid = 0;
                for (int k = -1; k <= 1; k++) {
                    open += AT(opened, r - 1, c + k) + AT(opened, r + 2, c + k);
                    hid += AT(hidden, r - 1, c + k) + AT(hidden, r + 2, c + k);
                }
                d[i] = open == 0 && hid <= 1;
            }
            if (AT(hidden, r, c + 1) && AT(hidden, r + 1, c) && AT(hidden, r + 1, c + 1)) {
                int closed = 0;
                closed += AT(opened, r - 1, c - 1) + AT(hidden, r - 1, c - 1) + AT(opened, r - 1, c + 2) + AT(hidden, r - 1, c + 2);
                closed += AT(opened, r + 2, c - 1) + AT(hidden, r + 2, c - 1) + AT(opened, r + 2, c + 2) + AT(hidden, r + 2, c + 2);
                q[i] = closed == 0;
            }
        }
#undef AT
    result = PyTuple_Pack(3, across, down, square);
done:
    Py_XDECREF(known); Py_XDECREF(across); Py_XDECREF(down); Py_XDECREF(square);
    PyBuffer_Release(&view);
    free(hidden); free(opened);
    return result;
}

PyObject *value_search(PyObject *self, PyObject *args); /* value.c */

static PyMethodDef methods[] = {
    {"cost_search", cost_search, METH_VARARGS,
     "cost_search(entries, members, mine_price, safe_price, budget) -> (cell or None, cost)\n\n"
     "The least-expected-cost search of cspmines.agents.exact.objectives over at most 64 layouts;\n"
     "entries are (cell, mine mask, safe masks by clue). TimeoutError past the budget of states."},
    {"count_passes", count_passes, METH_VARARGS,
     "count_passes(steps, n_boxes, n_cells, cap=-1) -> (models, tallies, peak states, states), False past cap states\n\n"
     "The dp backend's forward and backward passes on 128-bit integers (the caller checks the bounds)."},
    {"count_ordered", count_ordered, METH_VARARGS,
     "count_ordered(box_sizes, box_rules, rule_boxes, rule_mines, order, n_cells, digit_bits, cap)\n"
     "  -> (models, tallies, peak states, states), None past 127-bit keys, False past cap states\n\n"
     "The dp backend's steps for a box order, then its two passes."},
    {"box_diameter", box_diameter, METH_VARARGS,
     "box_diameter(n_boxes, rule_boxes) -> the diameter of the box graph (boxes joined by a rule)."},
    {"greedy_order", greedy_order, METH_VARARGS,
     "greedy_order(box_rules, rule_boxes, start) -> [box, ...]\n\n"
     "The counting order of cspmines.engine.backends.ordering.greedy_order."},
    {"settle_clues", settle_clues, METH_VARARGS,
     "settle_clues(grid, width, height) -> (rules, safe, mines, undecided, rest, covered, known mines) or None\n\n"
     "The rules of a board's clues (cells, need, clue cell) with the cells single rules force taken out,\n"
     "as cspmines.engine.constraints settles them; None where the Python must raise or keep them all."},
    {"split_rules", split_rules, METH_VARARGS,
     "split_rules(rule_cells) -> [(box cells, box rules, rule ids, rule boxes), ...]\n\n"
     "The chains of a system's rules (given by their cells) as cspmines.engine.chains splits them."},
    {"single_clues", single_clues, METH_VARARGS,
     "single_clues(grid, width, height, changed, known_mines) -> (safe, mines) or None\n\n"
     "What the clues at and next to the changed cells prove alone, as cspmines.agents.exact.deductions\n"
     "reads them; None where one of them contradicts the known mines."},
    {"combine_chances", combine_chances, METH_VARARGS,
     "combine_chances(models, tallies, sizes, window, low, mines_left, rest_size) -> ([[int, ...], ...], int or None)\n\n"
     "Each box's layouts with a mine in one of its cells, and a cell's off the front, as cspmines.engine.combine\n"
     "works them out."},
    {"glance_boxes", glance_boxes, METH_VARARGS,
     "glance_boxes(chances, cells, rest, rest_chance, settled_safe, settled_mines, certain, grid, width, height, count, living)\n"
     "  -> (frozenset of the proved safe cells, tuple of the count least chances)\n\n"
     "What cspmines.engine.glance reads of a position's boxes."},
    {"closed_off_places", closed_off_places, METH_VARARGS,
     "closed_off_places(grid, width, height, known_mines) -> (across, down, square) as bytes, 1 a place\n\n"
     "Where a 50/50 may form, as cspmines.agents.exact.fifty_fifty finds the places."},
    {"win_search", win_search, METH_VARARGS,
     "win_search(entries, n_layouts, budget) -> (cell or None, chance of winning)\n\n"
     "The endgame search of cspmines.agents.exact.endgame over n_layouts layouts, all of them at the\n"
     "start; entries as for cost_search. TimeoutError past the budget of states."},
    {"value_search", value_search, METH_VARARGS,
     "value_search(codes, count, width, neighbour_starts, neighbour_columns, nsyms, sym_layouts, sym_columns,\n"
     "             node_limit, seconds, slots, work_limit, all_cells) -> dict\n\n"
     "The search of cspmines.engine.value.ValueSearch over a table of layouts (its run()'s answer)."},
    {"settle_board", settle_board, METH_VARARGS,
     "settle_board(clues, view, width, height, mines, start) -> (opened, marked)\n\n"
     "The local deductions of cspmines.games.deduce (one clue, two clues, the mine total) on the view, in place.\n"
     "ValueError when a rule meets the board the other way (the view is not this board's)."},
    {NULL, NULL, 0, NULL},
};

/* cspmines.engine.memory.remembered: a property worked out on first read and kept in the instance's
 * dictionary (a non-data descriptor, so later reads find the dictionary's value without it). In C the
 * first read calls the function straight from the reader, with no Python frame of its own between. */
typedef struct {
    PyObject_HEAD
    PyObject *function;
    PyObject *name;
    PyObject *doc;
} Remembered;

static int remembered_init(Remembered *self, PyObject *args, PyObject *kwds) {
    PyObject *function;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "remembered() takes no keyword arguments");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O:remembered", &function)) return -1;
    PyObject *name = PyObject_GetAttrString(function, "__name__");
    if (name == NULL) return -1;
    PyObject *doc = PyObject_GetAttrString(function, "__doc__");
    if (doc == NULL) {
        PyErr_Clear();
        doc = Py_NewRef(Py_None);
    }
    Py_XSETREF(self->function, Py_NewRef(function));
    Py_XSETREF(self->name, name);
    Py_XSETREF(self->doc, doc);
    return 0;
}

static PyObject *remembered_get(PyObject *self_, PyObject *instance, PyObject *owner) {
    Remembered *self = (Remembered *)self_;
    if (instance == NULL || instance == Py_None) return Py_NewRef(self_);
    PyObject *value = PyObject_CallOneArg(self->function, instance);
    if (value == NULL) return NULL;
    PyObject *dict = PyObject_GenericGetDict(instance, NULL); /* read from the dictionary from now on */
    if (dict == NULL || PyDict_SetItem(dict, self->name, value) < 0) {
        Py_XDECREF(dict);
        Py_DECREF(value);
        return NULL;
    }
    Py_DECREF(dict);
    return value;
}

static PyObject *remembered_set_name(PyObject *self_, PyObject *args) {
    PyObject *owner, *name;
    if (!PyArg_ParseTuple(args, "OU:__set_name__", &owner, &name)) return NULL;
    Py_XSETREF(((Remembered *)self_)->name, Py_NewRef(name));
    Py_RETURN_NONE;
}

static int remembered_traverse(Remembered *self, visitproc visit, void *arg) {
    Py_VISIT(self->function);
    Py_VISIT(self->name);
    Py_VISIT(self->doc);
    return 0;
}

static int remembered_clear(Remembered *self) {
    Py_CLEAR(self->function);
    Py_CLEAR(self->name);
    Py_CLEAR(self->doc);
    return 0;
}

static void remembered_dealloc(Remembered *self) {
    PyObject_GC_UnTrack(self);
    remembered_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef remembered_members[] = {
    {"function", T_OBJECT, offsetof(Remembered, function), READONLY, "the function that works the value out"},
    {"name", T_OBJECT, offsetof(Remembered, name), READONLY, "the attribute it is kept under"},
    {"__doc__", T_OBJECT, offsetof(Remembered, doc), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef remembered_methods[] = {
    {"__set_name__", remembered_set_name, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RememberedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cspmines.native._kernels.remembered",
    .tp_basicsize = sizeof(Remembered),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "remembered(function): a property worked out on first read and kept in the instance's dictionary.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)remembered_init,
    .tp_dealloc = (destructor)remembered_dealloc,
    .tp_traverse = (traverseproc)remembered_traverse,
    .tp_clear = (inquiry)remembered_clear,
    .tp_descr_get = remembered_get,
    .tp_members = remembered_members,
    .tp_methods = remembered_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels", "cspmines' compiled kernels.", -1, methods};

PyMODINIT_FUNC PyInit__kernels(void) {
    if (PyType_Ready(&RememberedType) < 0) return NULL;
    PyObject *made = PyModule_Create(&module);
    if (made == NULL) return NULL;
    if (PyModule_AddObjectRef(made, "remembered", (PyObject *)&RememberedType) < 0) {
        Py_DECREF(made);
        return NULL;
    }
    return made;
}
