/* Chains of influence: a system's rules split into chains (split_rules), and a chain's length
 * (box_diameter). */
#include "kernels.h"

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

PyObject *split_rules(PyObject *self, PyObject *args) {
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

/* ---- A chain's length: the diameter of its box graph ----
 * Boxes joined when a rule covers both; a breadth-first search from every box. The diameter is one
 * number whatever finds it, so this is cspmines.engine.chains.box_diameter's answer. */
PyObject *box_diameter(PyObject *self, PyObject *args) {
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
