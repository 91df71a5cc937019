/* What the compiled kernels share: the headers, a few small helpers, and each kernel's entry point (one
 * file a family: search.c, value.c, counting.c, chains.c, settling.c, combining.c; _kernels.c holds the module;
 * memo.h is the searches' memo table). */
#ifndef CSPMINES_KERNELS_H
#define CSPMINES_KERNELS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A hint to fetch what `address` points to before it is read (a no-op where the compiler has no such hint). */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)0)
#endif

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

/* A board grid's codes besides the clues 0..8: a covered cell and a flagged one. */
#define SB_COVERED ((int8_t)-1)
#define SB_FLAG ((int8_t)-2)

static inline int popcount(uint64_t x) { return __builtin_popcountll(x); }

static inline uint64_t mix(uint64_t x) { /* splitmix64's finaliser */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static inline int read_lists(PyObject *lists, int count, int ***out, int **sizes) {
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

static inline void free_lists(int **lists, int count) {
    if (lists) for (int i = 0; i < count; i++) free(lists[i]);
    free(lists);
}

PyObject *cost_search(PyObject *self, PyObject *args);
PyObject *greedy_order(PyObject *self, PyObject *args);
PyObject *count_passes(PyObject *self, PyObject *args);
PyObject *count_ordered(PyObject *self, PyObject *args);
PyObject *box_diameter(PyObject *self, PyObject *args);
PyObject *split_rules(PyObject *self, PyObject *args);
PyObject *settle_board(PyObject *self, PyObject *args);
PyObject *settle_clues(PyObject *self, PyObject *args);
PyObject *single_clues(PyObject *self, PyObject *args);
PyObject *closed_off_places(PyObject *self, PyObject *args);
PyObject *combine_chances(PyObject *self, PyObject *args);
PyObject *glance_boxes(PyObject *self, PyObject *args);
PyObject *value_search(PyObject *self, PyObject *args);

#endif
