/* Compiled kernels of cspmines: each does the same steps as a pure-Python twin, in the same order
 * and the same floating-point order (IEEE doubles, no fast-math), so answers are identical, budgets
 * of states included; the Python stays and is what runs without this module. Every kernel has a row
 * in cspmines/native/table.py (its twin and what it does), and code reaches it only through
 * cspmines.native.kernel(name); tests/test_kernels.py runs each against its twin.
 *
 * search.c: the least expected cost over small sets of layouts
 *  cost_search: the least-expected-cost search over the sets of at most 64 layouts still possible
 *      (a state is a bit mask of layouts); twin cspmines.agents.exact.objectives._CostSearch.
 * value.c: the value of a position
 *  value_search: the value of a position, the layouts best play wins, by a search with
 *      bounds over its layouts; twin cspmines.engine.valuesearch.ValueSearch.
 * counting.c: the dynamic programme that counts a chain
 *  greedy_order: the dynamic programme's counting order, boxes placed to keep the fewest rules open;
 *      twin cspmines.engine.backends.ordering.greedy_order.
 *  count_passes: the dynamic programme's forward and backward passes over planned steps, on 128-bit
 *      integers: each mine number's layouts and each box's tallies; twin the Python passes
 *      (cspmines.engine.backends.dynamic.Sweep).
 *  count_ordered: a chain counted whole: its steps planned for a box order, then the two passes;
 *      twin DynamicProgrammingBackend.count.
 * chains.c: a system split into boxes and chains
 *  split_rules: a system's rules grouped into boxes and joined into chains, each with its own
 *      numbering; twin cspmines.engine.chains._split_layout.
 *  box_diameter: a chain's length, the diameter of its box graph; twin
 *      cspmines.engine.chains.box_diameter.
 * settling.c: reading a board's clues
 *  settle_board: a board opened and marked by the one- and two-clue rules from a cell, as a game's
 *      deduction does; twin cspmines.games.deduce._Settler.
 *  settle_clues: a position's clue rules with the cells single rules force taken out, round after
 *      round; twin cspmines.engine.constraints._clue_rows and _settle_rounds.
 *  single_clues: what the clues at and next to the changed cells prove alone, move after move;
 *      twin cspmines.agents.exact.deductions.SingleClueWatch._read_around.
 *  closed_off_places: where a 50/50 may form, closed-off pairs and 2x2 blocks of hidden cells;
 *      twin cspmines.agents.exact.fifty_fifty._closed_off_places.
 * combining.c: the chains combined under the mine total, and what a glance reads off them
 *  combine_chances: each box's and the rest's layouts with a mine, the chains combined under the
 *      mine total; twin cspmines.engine.combine._chances.
 *  glance_boxes: a position's proved safe cells and least chances among the cells that can still tell
 *      something, read off its boxes' chances; twin cspmines.engine.glance.glance_boxes.
 * _kernels.c (this file): the module, its method table and one type
 *  remembered: a property worked out on first read and kept in the instance's dictionary (a
 *      descriptor type, picked when the engine's classes are made); twin
 *      cspmines.engine.cache._Remembered.
 */
#include "kernels.h"
#include <structmember.h>

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

/* cspmines.engine.cache.remembered: a property worked out on first read and kept in the instance's
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
