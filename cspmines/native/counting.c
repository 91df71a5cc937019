/* The counting programme: its order over a chain's boxes (greedy_order) and its two passes
 * (count_passes, count_ordered). */
#include "kernels.h"

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



/* greedy_order(box_rules, rule_boxes, start) -> [box, ...] */
PyObject *greedy_order(PyObject *self, PyObject *args) {
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

PyObject *count_passes(PyObject *self, PyObject *args) {
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
PyObject *count_ordered(PyObject *self, PyObject *args) {
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
