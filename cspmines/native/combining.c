/* The chains combined: each box's layouts with a mine under the total (combine_chances), and a glance at
 * them (glance_boxes). */
#include "kernels.h"

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
PyObject *combine_chances(PyObject *self, PyObject *args) {
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
PyObject *glance_boxes(PyObject *self, PyObject *args) {
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
