/* The value of a position: the layouts best play wins, by a search with bounds over its layouts.
 *
 * The compiled twin of cspmines.engine.value.ValueSearch: the same steps in the same order (the same
 * fingerprints, transposition table, move order, bounds and budget of states), so that answers,
 * bounds past a budget of states included, are identical. Every quantity is a whole number of
 * layouts. A state is a sorted run of layout indices in one growing arena (held by offset, since the
 * arena moves when it grows); each node's per-column counts live in a second arena.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MINE_CODE 9
#define CLOCK_EVERY 256
#define PROBES 4

enum { RUNNING = 0, STOP_NODES = 1, STOP_TIME = 2, STOP_MEMORY = 3 };

typedef struct {
    uint64_t first, second; /* the state's fingerprint (least over the symmetries) */
    int32_t layouts;        /* its number of layouts; 0: an empty slot */
    int32_t low, high;      /* bounds on the layouts best play wins from it */
    int32_t unused;
} Slot;

typedef struct {
    const uint8_t *codes;
    int32_t count, width;
    const int32_t *neighbour_start, *neighbour_columns; /* column k's neighbours: [start[k], start[k+1]) */
    int32_t nsyms;
    const int32_t *sym_layouts, *sym_columns; /* symmetry s: [s * count + i], [s * width + k] */
    uint64_t *first, *second;                 /* each layout's two fingerprint words */
    Slot *slots;
    uint64_t mask;
    long long node_limit; /* -1: none */
    double deadline;      /* < 0: none */
    long long states;
    int stopped;
    long long work_limit; /* bytes the arenas may hold; -1: no limit */
    int32_t *arena;       /* the states' layouts */
    size_t top, room;
    int32_t *scratch;     /* per node: mines, clues shown, doubtful columns, moves, ... */
    size_t scratch_top, scratch_room;
    int32_t *hist;        /* width * 10 counts, reused by every node */
    int root_move, first_move;
    int all_cells;
} Search;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ---- the arenas (offsets stay valid when they grow) ------------------------------------------------ */

static int grow(Search *s, int32_t **block, size_t *room, size_t need, size_t other) {
    size_t want = *room ? *room : 1024;
    while (want < need) want *= 2;
    if (s->work_limit >= 0 && (long long)((want + other) * sizeof(int32_t)) > s->work_limit) {
        s->stopped = STOP_MEMORY;
        return -1;
    }
    int32_t *bigger = realloc(*block, want * sizeof(int32_t));
    if (bigger == NULL) {
        s->stopped = STOP_MEMORY;
        return -1;
    }
    *block = bigger;
    *room = want;
    return 0;
}

/* Room for n more layouts at the arena's top: the offset they start at, or -1 (memory: stopped). */
static long long take(Search *s, size_t n) {
    if (s->top + n > s->room && grow(s, &s->arena, &s->room, s->top + n, s->scratch_room) < 0) return -1;
    size_t at = s->top;
    s->top += n;
    return (long long)at;
}

static long long take_scratch(Search *s, size_t n) {
    if (s->scratch_top + n > s->scratch_room &&
        grow(s, &s->scratch, &s->scratch_room, s->scratch_top + n, s->room) < 0) return -1;
    size_t at = s->scratch_top;
    s->scratch_top += n;
    return (long long)at;
}

/* ---- the transposition table ---------------------------------------------------------------------- */

static void fingerprint(const Search *s, size_t at, int32_t n, uint64_t *first, uint64_t *second) {
    uint64_t a = 0, b = 0;
    const int32_t *members = s->arena + at;
    for (int32_t j = 0; j < n; j++) { a += s->first[members[j]]; b += s->second[members[j]]; }
    for (int32_t k = 0; k < s->nsyms; k++) {
        const int32_t *image = s->sym_layouts + (size_t)k * s->count;
        uint64_t c = 0, d = 0;
        for (int32_t j = 0; j < n; j++) { c += s->first[image[members[j]]]; d += s->second[image[members[j]]]; }
        if (c < a || (c == a && d < b)) { a = c; b = d; }
    }
    *first = a;
    *second = b;
}

static Slot *find(Search *s, uint64_t first, uint64_t second, int32_t n) {
    for (int probe = 0; probe < PROBES; probe++) {
        Slot *slot = s->slots + ((first + (uint64_t)probe) & s->mask);
        if (slot->layouts == n && slot->first == first && slot->second == second) return slot;
        if (slot->layouts == 0) return NULL;
    }
    return NULL;
}

static void store(Search *s, uint64_t first, uint64_t second, int32_t n, int32_t low, int32_t high) {
    Slot *victim = NULL;
    for (int probe = 0; probe < PROBES; probe++) {
        Slot *slot = s->slots + ((first + (uint64_t)probe) & s->mask);
        if (slot->layouts == n && slot->first == first && slot->second == second) {
            if (low > slot->low) slot->low = low;
            if (high < slot->high) slot->high = high;
            return;
        }
        if (slot->layouts == 0) { victim = slot; break; }
        if (slot->layouts <= n && (victim == NULL || slot->layouts < victim->layouts)) victim = slot;
    }
    if (victim != NULL) {
        victim->first = first; victim->second = second; victim->layouts = n;
        victim->low = low; victim->high = high;
    }
}

/* ---- the budget ------------------------------------------------------------------------------------ */

static int spend(Search *s) {
    s->states++;
    if (s->node_limit >= 0 && s->states > s->node_limit) s->stopped = STOP_NODES;
    else if (s->deadline >= 0 && s->states % CLOCK_EVERY == 0 && now_seconds() >= s->deadline) s->stopped = STOP_TIME;
    return s->stopped ? -1 : 0;
}

/* ---- one state ------------------------------------------------------------------------------------- */

typedef struct { long long at; int32_t n; int clue; } Group;

/* The safe layouts of the state split by the clue `column` shows, largest group first (ties: the
 * smaller clue first), into `groups` (room for 9); their number, or -1 (memory). */
static int split(Search *s, size_t at, int32_t n, int column, Group *groups) {
    int32_t counts[MINE_CODE + 1] = {0};
    for (int32_t j = 0; j < n; j++) counts[s->codes[(size_t)s->arena[at + j] * s->width + column]]++;
    long long out = take(s, (size_t)(n - counts[MINE_CODE]));
    if (out < 0) return -1;
    int ngroups = 0;
    long long next = out;
    long long place[MINE_CODE];
    for (int clue = 0; clue < MINE_CODE; clue++) {
        place[clue] = next;
        if (counts[clue]) {
            groups[ngroups].at = next; groups[ngroups].n = counts[clue]; groups[ngroups].clue = clue;
            ngroups++;
        }
        next += counts[clue];
    }
    const int32_t *members = s->arena + at;
    for (int32_t j = 0; j < n; j++) {
        int code = s->codes[(size_t)members[j] * s->width + column];
        if (code != MINE_CODE) s->arena[place[code]++] = members[j];
    }
    for (int i = 1; i < ngroups; i++) { /* stable: by size, largest first */
        Group g = groups[i];
        int j = i - 1;
        while (j >= 0 && groups[j].n < g.n) { groups[j + 1] = groups[j]; j--; }
        groups[j + 1] = g;
    }
    return ngroups;
}

static void solve(Search *s, size_t at, int32_t n, long long alpha, long long beta, long long *low, long long *high);

static void chance(Search *s, const Group *groups, int ngroups, long long alpha, long long beta, long long *low, long long *high) {
    long long low_sum = 0, high_sum = 0, rest = 0;
    for (int i = 0; i < ngroups; i++) rest += groups[i].n;
    for (int i = 0; i < ngroups; i++) {
        long long l, h;
        rest -= groups[i].n;
        solve(s, (size_t)groups[i].at, groups[i].n, alpha - low_sum - rest, beta - low_sum, &l, &h);
        low_sum += l;
        high_sum += h;
        if (high_sum + rest <= alpha || low_sum >= beta) {
            *low = low_sum; *high = high_sum + rest;
            return;
        }
    }
    *low = low_sum;
    *high = high_sum;
}

/* A move split and played: the state's arena top restored after. */
static void play(Search *s, size_t at, int32_t n, int column, long long alpha, long long beta, long long *low, long long *high) {
    size_t top = s->top;
    Group groups[MINE_CODE];
    int ngroups = split(s, at, n, column, groups);
    if (ngroups < 0) { *low = 0; *high = n; return; }
    chance(s, groups, ngroups, alpha, beta, low, high);
    s->top = top;
}

/* Per column: mines (layouts where it is a mine) and shown (different clues where it is safe). */
static void column_counts(Search *s, size_t at, int32_t n, int32_t *mines, int32_t *shown) {
    int width = s->width;
    memset(s->hist, 0, sizeof(int32_t) * (size_t)width * (MINE_CODE + 1));
    for (int32_t j = 0; j < n; j++) {
        const uint8_t *row = s->codes + (size_t)s->arena[at + j] * width;
        int32_t *h = s->hist;
        for (int k = 0; k < width; k++) h[k * (MINE_CODE + 1) + row[k]]++;
    }
    for (int k = 0; k < width; k++) {
        const int32_t *h = s->hist + k * (MINE_CODE + 1);
        int count = 0;
        for (int clue = 0; clue < MINE_CODE; clue++) count += h[clue] != 0;
        mines[k] = h[MINE_CODE];
        shown[k] = count;
    }
}

static int compare_ints(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Whether symmetry `k` maps the state onto itself. */
static int keeps(Search *s, int k, size_t at, int32_t n) {
    const int32_t *image = s->sym_layouts + (size_t)k * s->count;
    size_t top = s->top;
    long long out = take(s, (size_t)n);
    if (out < 0) return 0;
    for (int32_t j = 0; j < n; j++) s->arena[out + j] = image[s->arena[at + j]];
    qsort(s->arena + out, (size_t)n, sizeof(int32_t), compare_ints);
    int same = memcmp(s->arena + out, s->arena + at, sizeof(int32_t) * (size_t)n) == 0;
    s->top = top;
    return same;
}

static int same_column(const Search *s, size_t at, int32_t n, int a, int b) {
    for (int32_t j = 0; j < n; j++) {
        const uint8_t *row = s->codes + (size_t)s->arena[at + j] * s->width;
        if (row[a] != row[b]) return 0;
    }
    return 1;
}

/* The moves worth trying into moves (see ValueSearch._moves); their number. */
static int order_moves(Search *s, size_t at, int32_t n, const int32_t *doubtful, int ndoubtful, const int32_t *mines,
                       const int32_t *shown, int32_t *moves) {
    int32_t keeping[8];
    int nkeeping = 0;
    for (int k = 0; k < s->nsyms && nkeeping < 8; k++)
        if (keeps(s, k, at, n)) keeping[nkeeping++] = k;
    int32_t order[ndoubtful > 0 ? ndoubtful : 1];
    for (int i = 0; i < ndoubtful; i++) { /* insertion sort by (mines, -shown, column) */
        int32_t c = doubtful[i];
        int j = i - 1;
        while (j >= 0 && (mines[order[j]] > mines[c] || (mines[order[j]] == mines[c] && shown[order[j]] < shown[c]))) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = c;
    }
    int count = 0;
    for (int i = 0; i < ndoubtful; i++) {
        int32_t c = order[i];
        int skip = 0;
        for (int m = 0; m < count && !skip; m++) skip = same_column(s, at, n, c, moves[m]);
        for (int k = 0; k < nkeeping && !skip; k++) {
            int32_t image = s->sym_columns[(size_t)keeping[k] * s->width + c];
            for (int m = 0; m < count && !skip; m++) skip = moves[m] == image;
        }
        if (!skip) moves[count++] = c;
    }
    return count;
}

/* ---- independent parts ------------------------------------------------------------------------------ */

static int32_t root_of(int32_t *parent, int32_t c) {
    while (parent[c] != c) { parent[c] = parent[parent[c]]; c = parent[c]; }
    return c;
}

typedef struct { uint64_t hash; int32_t index; } Keyed;

static int compare_keyed(const void *a, const void *b) {
    const Keyed *x = a, *y = b;
    if (x->hash != y->hash) return (x->hash > y->hash) - (x->hash < y->hash);
    return (x->index > y->index) - (x->index < y->index);
}

/* How many different rows the state's layouts show on `columns` (exactly: equal hashes compared). */
static long long distinct_rows(Search *s, size_t at, int32_t n, const int32_t *columns, int ncolumns) {
    Keyed *keyed = malloc(sizeof(Keyed) * (size_t)n);
    if (keyed == NULL) { s->stopped = STOP_MEMORY; return -1; }
    for (int32_t j = 0; j < n; j++) {
        const uint8_t *row = s->codes + (size_t)s->arena[at + j] * s->width;
        uint64_t h = 0;
        for (int i = 0; i < ncolumns; i++) h = splitmix(h ^ ((uint64_t)row[columns[i]] << 32 | (uint64_t)columns[i]));
        keyed[j].hash = h;
        keyed[j].index = s->arena[at + j];
    }
    qsort(keyed, (size_t)n, sizeof(Keyed), compare_keyed);
    long long distinct = 0;
    for (int32_t j = 0; j < n;) {
        int32_t end = j;
        while (end < n && keyed[end].hash == keyed[j].hash) end++;
        /* within a run of equal hashes, count rows different from every earlier one of the run */
        for (int32_t a = j; a < end; a++) {
            const uint8_t *ra = s->codes + (size_t)keyed[a].index * s->width;
            int seen = 0;
            for (int32_t b = j; b < a && !seen; b++) {
                const uint8_t *rb = s->codes + (size_t)keyed[b].index * s->width;
                int same = 1;
                for (int i = 0; i < ncolumns && same; i++) same = ra[columns[i]] == rb[columns[i]];
                seen = same;
            }
            distinct += !seen;
        }
        j = end;
    }
    free(keyed);
    return distinct;
}

/* The state's independent parts (ValueSearch._parts): their number (0: none), each part's layouts put at
 * the arena's top and its (offset, size) in *parts (malloc'd, freed by the caller). `doubtful_at` is the
 * scratch offset of the doubtful columns (an offset: the scratch arena may move). */
static int find_parts(Search *s, size_t at, int32_t n, long long doubtful_at, int ndoubtful, Group **parts) {
    int width = s->width;
    *parts = NULL;
    if (ndoubtful < 2) return 0;
    long long base = take_scratch(s, (size_t)width * 3 + (size_t)ndoubtful);
    if (base < 0) return 0;
    int32_t *parent = s->scratch + base, *inside = parent + width, *group_of = inside + width;
    int32_t *columns = group_of + width;
    const int32_t *doubtful = s->scratch + doubtful_at;
    for (int k = 0; k < width; k++) { parent[k] = k; inside[k] = 0; group_of[k] = -1; }
    for (int i = 0; i < ndoubtful; i++) inside[doubtful[i]] = 1;
    for (int i = 0; i < ndoubtful; i++) {
        int32_t c = doubtful[i];
        for (int32_t e = s->neighbour_start[c]; e < s->neighbour_start[c + 1]; e++) {
            int32_t other = s->neighbour_columns[e];
            if (!inside[other]) continue;
            int32_t a = root_of(parent, c), b = root_of(parent, other);
            if (a != b) parent[a > b ? a : b] = a < b ? a : b;
        }
    }
    int ngroups = 0;
    for (int i = 0; i < ndoubtful; i++) {
        int32_t r = root_of(parent, doubtful[i]);
        if (group_of[r] < 0) group_of[r] = ngroups++;
    }
    if (ngroups < 2) return 0;
    int32_t *group_start = malloc(sizeof(int32_t) * (size_t)(ngroups + 1));
    if (group_start == NULL) { s->stopped = STOP_MEMORY; return 0; }
    for (int g = 0, filled = 0; g < ngroups; g++) { /* each group's columns, in column order */
        group_start[g] = filled;
        for (int i = 0; i < ndoubtful; i++)
            if (group_of[root_of(parent, doubtful[i])] == g) columns[filled++] = doubtful[i];
        group_start[g + 1] = filled;
    }
    long long product = 1;
    for (int g = 0; g < ngroups && product <= n; g++) {
        long long d = distinct_rows(s, at, n, columns + group_start[g], group_start[g + 1] - group_start[g]);
        if (d < 0) { free(group_start); return 0; }
        product *= d;
    }
    if (product != n) { free(group_start); return 0; }
    *parts = malloc(sizeof(Group) * (size_t)ngroups);
    if (*parts == NULL) { free(group_start); s->stopped = STOP_MEMORY; return 0; }
    for (int g = 0; g < ngroups; g++) {
        /* the layouts that agree with the first one off the group's columns */
        long long out = take(s, (size_t)n);
        if (out < 0) { free(group_start); free(*parts); *parts = NULL; return 0; }
        inside = s->scratch + base + width;
        columns = s->scratch + base + 3 * (size_t)width;
        for (int k = 0; k < width; k++) inside[k] = 0;
        for (int i = group_start[g]; i < group_start[g + 1]; i++) inside[columns[i]] = 1;
        const uint8_t *first = s->codes + (size_t)s->arena[at] * width;
        int32_t kept = 0;
        for (int32_t j = 0; j < n; j++) {
            const uint8_t *row = s->codes + (size_t)s->arena[at + j] * width;
            int same = 1;
            for (int k = 0; k < width && same; k++) same = inside[k] || row[k] == first[k];
            if (same) s->arena[out + kept++] = s->arena[at + j];
        }
        s->top = (size_t)out + (size_t)kept;
        (*parts)[g].at = out; (*parts)[g].n = kept; (*parts)[g].clue = g;
    }
    free(group_start);
    return ngroups;
}

/* ---- the state's value ------------------------------------------------------------------------------ */

static void solve_state(Search *s, size_t at, int32_t n, long long alpha, long long beta, long long *low, long long *high) {
    int width = s->width;
    size_t top = s->top, scratch_top = s->scratch_top;
    long long base = take_scratch(s, (size_t)width * 4);
    if (base < 0) { *low = 0; *high = n; return; }
    int32_t *mines = s->scratch + base;
    column_counts(s, at, n, mines, s->scratch + base + width);
    int root = n == s->count;
#define MINES(k) (s->scratch[base + (k)])
#define SHOWN(k) (s->scratch[base + width + (k)])
    for (int k = 0; k < width; k++) {
        if (MINES(k) == 0 && SHOWN(k) > 1) { /* safe, and its clue still tells: open it for free */
            if (root) s->root_move = k;
            play(s, at, n, k, alpha, beta, low, high);
            s->top = top; s->scratch_top = scratch_top;
            return;
        }
    }
    int ndoubtful = 0;
    for (int k = 0; k < width; k++)
        if (MINES(k) > 0 && MINES(k) < n) s->scratch[base + 2 * width + ndoubtful++] = k;
    Group *parts;
    int nparts = find_parts(s, at, n, base + 2 * width, ndoubtful, &parts);
    if (nparts >= 2) {
        long long lows = 1, highs = 1;
        for (int g = 0; g < nparts; g++) {
            long long l, h;
            solve(s, (size_t)parts[g].at, parts[g].n, -1, (long long)parts[g].n + 1, &l, &h);
            lows *= l; highs *= h;
        }
        free(parts);
        *low = lows; *high = highs;
        s->top = top; s->scratch_top = scratch_top;
        return;
    }
    if (s->stopped == STOP_MEMORY) { *low = 0; *high = n; s->top = top; s->scratch_top = scratch_top; return; }
    int nmoves = order_moves(s, at, n, s->scratch + base + 2 * width, ndoubtful, s->scratch + base,
                             s->scratch + base + width, s->scratch + base + 3 * width);
    long long best = 0, ceiling = 0;
    for (int i = 0; i < nmoves; i++) {
        int column = s->scratch[base + 3 * width + i];
        long long safe = n - MINES(column);
        if (safe <= best) {
            if (safe > ceiling) ceiling = safe;
            break;
        }
        long long l, h;
        play(s, at, n, column, alpha > best ? alpha : best, beta, &l, &h);
        if (root && l > best) s->root_move = column;
        if (l > best) best = l;
        if (h > ceiling) ceiling = h;
        if (best >= beta) {
            if (i + 1 < nmoves) {
                long long next = n - MINES(s->scratch[base + 3 * width + i + 1]);
                if (next > ceiling) ceiling = next;
            }
            break;
        }
    }
#undef MINES
#undef SHOWN
    *low = best;
    *high = ceiling > best ? ceiling : best;
    s->top = top; s->scratch_top = scratch_top;
}

static void solve(Search *s, size_t at, int32_t n, long long alpha, long long beta, long long *low, long long *high) {
    if (n <= 1) { *low = n; *high = n; return; }
    uint64_t first, second;
    fingerprint(s, at, n, &first, &second);
    Slot *kept = find(s, first, second, n);
    long long l = kept ? kept->low : 0, h = kept ? kept->high : n;
    *low = l; *high = h;
    if (l == h || h <= alpha || l >= beta || s->stopped) return;
    if (spend(s) < 0) return;
    long long fl, fh;
    solve_state(s, at, n, alpha > l - 1 ? alpha : l - 1, beta < h + 1 ? beta : h + 1, &fl, &fh);
    if (fl > l) l = fl;
    if (fh < h) h = fh;
    store(s, first, second, n, (int32_t)l, (int32_t)h);
    *low = l; *high = h;
}

/* The layouts won playing the safest cell each time (ValueSearch.safest_first); -1 once stopped. */
static long long safest_first(Search *s, size_t at, int32_t n) {
    if (n <= 1) return n;
    if (spend(s) < 0) return -1;
    int width = s->width;
    size_t top = s->top, scratch_top = s->scratch_top;
    long long base = take_scratch(s, (size_t)width * 2);
    if (base < 0) return -1;
    column_counts(s, at, n, s->scratch + base, s->scratch + base + width);
    int chosen = -1;
    for (int k = 0; k < width && chosen < 0; k++)
        if (s->scratch[base + k] == 0 && s->scratch[base + width + k] > 1) chosen = k;
    if (chosen < 0) {
        for (int k = 0; k < width; k++) {
            int32_t m = s->scratch[base + k];
            if (m == 0 || m == n) continue;
            if (chosen < 0 || m < s->scratch[base + chosen] ||
                (m == s->scratch[base + chosen] && s->scratch[base + width + k] > s->scratch[base + width + chosen]))
                chosen = k;
        }
    }
    if (chosen < 0) { s->top = top; s->scratch_top = scratch_top; return n; } /* never met: layouts are distinct */
    if (n == s->count) s->first_move = chosen;
    Group groups[MINE_CODE];
    int ngroups = split(s, at, n, chosen, groups);
    long long won = 0;
    for (int i = 0; i < ngroups && won >= 0; i++) {
        long long part = safest_first(s, (size_t)groups[i].at, groups[i].n);
        won = part < 0 ? -1 : won + part;
    }
    if (ngroups < 0) won = -1;
    s->top = top; s->scratch_top = scratch_top;
    return won;
}

/* ---- the entry point -------------------------------------------------------------------------------- */

static const char *stop_name(int stopped) {
    switch (stopped) {
        case STOP_NODES: return "nodes";
        case STOP_TIME: return "time";
        case STOP_MEMORY: return "memory";
        default: return NULL;
    }
}

static PyObject *search_answer(Search *s, long long low, long long high, long long floor) {
    /* each column's bounds when opened first (ValueSearch._cell_values) */
    int32_t n = s->count;
    PyObject *cells = PyList_New(s->width);
    if (cells == NULL) return NULL;
    long long at = 0; /* the root state: every layout, at the arena's start */
    for (int k = 0; k < s->width; k++) {
        long long mines = 0;
        for (int32_t i = 0; i < n; i++) mines += s->codes[(size_t)i * s->width + k] == MINE_CODE;
        long long safe = n - mines, l, h;
        if (safe == 0) { l = 0; h = 0; }
        else if (safe == n) { l = low; h = high; }
        else if (!s->all_cells && safe < low) { l = 0; h = safe; }
        else if (s->all_cells) play(s, (size_t)at, n, k, -1, (long long)n + 1, &l, &h);
        else play(s, (size_t)at, n, k, low - 1, high + 1, &l, &h);
        PyObject *pair = Py_BuildValue("(LL)", l, h);
        if (pair == NULL) { Py_DECREF(cells); return NULL; }
        PyList_SET_ITEM(cells, k, pair);
    }
    int move = s->root_move;
    PyObject *move_object = move < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(move);
    const char *stopped = stop_name(s->stopped);
    PyObject *stop_object = stopped ? PyUnicode_FromString(stopped) : Py_NewRef(Py_None);
    PyObject *answer = Py_BuildValue("{s:L,s:L,s:N,s:N,s:L,s:L,s:N}", "low", low, "high", high, "move", move_object,
                                     "cells", cells, "floor", floor, "states", s->states, "stopped", stop_object);
    return answer;
}

PyObject *value_search(PyObject *self, PyObject *args) {
    Py_buffer codes, starts, columns, sym_layouts, sym_columns;
    int count, width, nsyms, all_cells;
    long long node_limit, slots, work_limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*iiy*y*iy*y*LdLLp", &codes, &count, &width, &starts, &columns, &nsyms, &sym_layouts,
                          &sym_columns, &node_limit, &seconds, &slots, &work_limit, &all_cells))
        return NULL;
    PyObject *result = NULL;
    Search s;
    memset(&s, 0, sizeof s);
    if (count < 1 || width < 1 || codes.len != (Py_ssize_t)count * width || starts.len != (Py_ssize_t)(width + 1) * 4 ||
        sym_layouts.len != (Py_ssize_t)nsyms * count * 4 || sym_columns.len != (Py_ssize_t)nsyms * width * 4 ||
        slots < 1 || (slots & (slots - 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "value_search: inconsistent sizes");
        goto done;
    }
    s.codes = codes.buf; s.count = count; s.width = width;
    s.neighbour_start = starts.buf; s.neighbour_columns = columns.buf;
    s.nsyms = nsyms; s.sym_layouts = sym_layouts.buf; s.sym_columns = sym_columns.buf;
    s.node_limit = node_limit; s.work_limit = work_limit; s.all_cells = all_cells;
    s.deadline = seconds < 0 ? -1.0 : now_seconds() + seconds;
    s.root_move = -1; s.first_move = -1;
    s.mask = (uint64_t)slots - 1;
    s.first = malloc(sizeof(uint64_t) * (size_t)count);
    s.second = malloc(sizeof(uint64_t) * (size_t)count);
    s.slots = calloc((size_t)slots, sizeof(Slot));
    s.hist = malloc(sizeof(int32_t) * (size_t)width * (MINE_CODE + 1));
    if (!s.first || !s.second || !s.slots || !s.hist) { PyErr_NoMemory(); goto done; }
    for (int32_t i = 0; i < count; i++) {
        s.first[i] = splitmix((uint64_t)i * 2);
        s.second[i] = splitmix((uint64_t)i * 2 + 1);
    }
    long long root = take(&s, (size_t)count);
    if (root < 0) { PyErr_NoMemory(); goto done; }
    for (int32_t i = 0; i < count; i++) s.arena[i] = i;
    long long floor = 0, low, high;
    Py_BEGIN_ALLOW_THREADS
    long long won = safest_first(&s, 0, count);
    if (won >= 0) floor = won;
    solve(&s, 0, count, floor - 1, (long long)count + 1, &low, &high);
    Py_END_ALLOW_THREADS
    if (floor >= low) { low = floor; s.root_move = s.first_move; }
    result = search_answer(&s, low, high, floor);
done:
    free(s.first); free(s.second); free(s.slots); free(s.hist); free(s.arena); free(s.scratch);
    PyBuffer_Release(&codes); PyBuffer_Release(&starts); PyBuffer_Release(&columns);
    PyBuffer_Release(&sym_layouts); PyBuffer_Release(&sym_columns);
    return result;
}
