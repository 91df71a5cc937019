/* The least-expected-cost search over sets of at most 64 layouts (cost_search): the exact agent's
 * minesearch and score objectives with few layouts left. */
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
