/* Reading a board: the one- and two-clue rules on a game's view (settle_board), a position's clues with
 * the cells single clues force taken out (settle_clues), single clues around changed cells (single_clues),
 * and where a 50/50 may form (closed_off_places). */
#include "kernels.h"


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

PyObject *settle_board(PyObject *self, PyObject *args) {
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
PyObject *settle_clues(PyObject *self, PyObject *args) {
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

/* ---- Single-clue deductions around changed cells ----
 * cspmines.agents.exact.deductions.SingleClueWatch._read_around: every clue at or next to a changed
 * cell, its need less the known mines around it (flags, opened mines and the covered cells the caller
 * knows to be mines); its covered neighbours safe when it needs none, mines when it needs them all.
 * None where some clue read needs fewer mines than it has or more than it has room for. */
PyObject *single_clues(PyObject *self, PyObject *args) {
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

/* ---- Where 50/50s may form ----
 * cspmines.agents.exact.fifty_fifty._closed_off_places: for every cell as a place's top left, whether
 * a pair across, a pair down or a 2x2 block of hidden cells (covered, not known mines) is closed off
 * (the pairs: no opened cell and at most one hidden among their six flanks; the block: no opened or
 * hidden cell at its four diagonal corners), cells off the board closing. Three bytes objects of the
 * board's size, 1 where the place is. */
PyObject *closed_off_places(PyObject *self, PyObject *args) {
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
