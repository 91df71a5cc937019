/* The value of a position: the layouts best play wins, by a search with bounds over its layouts.
 *
 * The compiled twin of cspmines.engine.valuesearch.ValueSearch: the same steps in the same order (the same
 * fingerprints, transposition table, move order, bounds and budget of states), so that answers,
 * bounds past a budget of states included, are identical. Every quantity is a whole number of
 * layouts. A state is a sorted run of layout indices in one growing arena (held by offset, since the
 * arena moves when it grows); each state's per-column counts live in a second arena.
 */
#include "kernels.h"
#include "memo.h"
#include <time.h>

#define MINE_CODE 9
#define CODES (MINE_CODE + 1)
#define CLOCK_EVERY 256      /* the clock is read at least once this many states ... */
#define CLOCK_WORK (1 << 16) /* ... and this many layouts: a state costs about its layouts (a root of millions, seconds) */
#define PROBES 4
#define MOST_FREE 16
#define FIRST_SLOTS 1024
#define AHEAD 8 /* layouts read ahead: a state's rows lie far apart, and the next ones are known */

enum { RUNNING = 0, STOP_NODES = 1, STOP_TIME = 2, STOP_MEMORY = 3 };

typedef struct { long long at; int32_t n; } Group; /* layouts at arena[at .. at + n) */
typedef struct { uint64_t key; int32_t index; } Keyed;

typedef struct {
    const uint8_t *codes;
    int32_t count, width;
    const int32_t *neighbour_start, *neighbour_columns; /* column k's neighbours: [start[k], start[k+1]) */
    int32_t nsyms;
    const int32_t *sym_layouts, *sym_columns; /* symmetry s: [s * count + i], [s * width + k] */
    uint64_t *first, *second; /* each layout's two fingerprint words */
    Memo memo; /* each state's bounds under its fingerprint, at most PROBES slots probed, replaced when full */
    long long node_limit; /* -1: none */
    double deadline;      /* < 0: none */
    long long states;
    long long work, next_clock; /* layouts in the states worked out; when the clock is next read */
    int stopped;
    long long work_limit; /* bytes the arenas, the column bits and the sort space may hold; -1: no limit */
    int32_t *arena;       /* the states' layouts */
    size_t top, room;
    int32_t *scratch;     /* per state: mines, clues shown, doubtful columns, moves, ... */
    size_t scratch_top, scratch_room;
    int32_t *hist;        /* width * CODES counts, reused by every state */
    Keyed *keyed;         /* a split's sort space, reused by every split (none is under way while another runs) */
    int words;            /* 64-bit words a row of column bits takes */
    long long bits_bytes; /* what they take of the working space */
    uint64_t *bits;       /* per layout, (1 + MINE_CODE) rows of column bits: where it is a mine, then where it shows
                             each clue; NULL where the working space has no room for them (counts by histogram) */
    size_t keyed_room;
    int root_move, first_move;
    int wanted; /* which cells' values: 0 the best move's alone, 1 every best cell's, 2 every cell's */
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
    if (s->work_limit >= 0 &&
        (long long)((want + other) * sizeof(int32_t) + s->keyed_room * sizeof(Keyed)) + s->bits_bytes > s->work_limit) {
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

/* The state's fingerprint: the sums over its layouts of two words each, the least over the board's symmetries;
 * `maybe_kept` gets a bit for each symmetry whose image of the state has the state's own sums (only those can
 * map it onto itself). */
static void fingerprint(const Search *s, size_t at, int32_t n, uint64_t *first, uint64_t *second, unsigned *maybe_kept) {
    uint64_t a = 0, b = 0;
    const int32_t *members = s->arena + at;
    for (int32_t j = 0; j < n; j++) { a += s->first[members[j]]; b += s->second[members[j]]; }
    uint64_t own_a = a, own_b = b;
    unsigned kept = 0;
    for (int32_t k = 0; k < s->nsyms; k++) {
        const int32_t *image = s->sym_layouts + (size_t)k * s->count;
        uint64_t c = 0, d = 0;
        for (int32_t j = 0; j < n; j++) { c += s->first[image[members[j]]]; d += s->second[image[members[j]]]; }
        if (c == own_a && d == own_b) kept |= 1u << k;
        if (c < a || (c == a && d < b)) { a = c; b = d; }
    }
    *first = a;
    *second = b;
    *maybe_kept = kept;
}

/* Keep a state's bounds (narrowed where it is kept already), then make room once half the slots are used. */
static void store(Search *s, uint64_t first, uint64_t second, int32_t n, int32_t low, int32_t high) {
    int fresh;
    MemoSlot *slot = memo_claim(&s->memo, first, second, n, &fresh);
    if (slot != NULL && fresh) { slot->low = low; slot->high = high; }
    else if (slot != NULL) {
        if (low > slot->low) slot->low = low;
        if (high < slot->high) slot->high = high;
    }
    memo_make_room(&s->memo); /* where there is no memory for more slots, a fuller table only forgets more */
}

/* ---- the budget ------------------------------------------------------------------------------------ */

static int spend(Search *s, int32_t n) {
    s->states++;
    s->work += n;
    if (s->node_limit >= 0 && s->states > s->node_limit) s->stopped = STOP_NODES;
    else if (s->deadline >= 0 && (s->states % CLOCK_EVERY == 0 || s->work >= s->next_clock)) {
        s->next_clock = s->work + CLOCK_WORK;
        if (now_seconds() >= s->deadline) s->stopped = STOP_TIME;
    }
    return s->stopped ? -1 : 0;
}

/* ---- splitting a state ------------------------------------------------------------------------------ */

/* Groups sorted by size, largest first, stable. */
static void largest_first(Group *groups, int ngroups) {
    for (int i = 1; i < ngroups; i++) {
        Group g = groups[i];
        int j = i - 1;
        while (j >= 0 && groups[j].n < g.n) { groups[j + 1] = groups[j]; j--; }
        groups[j + 1] = g;
    }
}

/* Room for `need` entries in the splits' sort space: 0, or -1 (memory: stopped). */
static int keyed_room(Search *s, size_t need) {
    if (need <= s->keyed_room) return 0;
    if (s->work_limit >= 0 &&
        (long long)(need * sizeof(Keyed) + (s->room + s->scratch_room) * sizeof(int32_t)) + s->bits_bytes > s->work_limit) {
        s->stopped = STOP_MEMORY; /* the sort space is held within the working space, beside the arenas */
        return -1;
    }
    Keyed *bigger = realloc(s->keyed, sizeof(Keyed) * need);
    if (bigger == NULL) { s->stopped = STOP_MEMORY; return -1; }
    s->keyed = bigger;
    s->keyed_room = need;
    return 0;
}

/* split by one column (a move): a counting sort by its clue, straight into the arena (the same groups). */
static int split_one(Search *s, size_t at, int32_t n, int32_t column, Group **out) {
    int width = s->width;
    if (keyed_room(s, (size_t)n / sizeof(Keyed) + 1) < 0) return -1;
    uint8_t *clue = (uint8_t *)s->keyed; /* each layout's code, read once: the rows lie far apart */
    int32_t counts[CODES] = {0}, others[CODES] = {0}, start[CODES]; /* two tallies: a run of one clue is not one chain */
    int32_t j = 0;
    for (; j + 1 < n; j += 2) {
        if (j + AHEAD + 1 < n) {
            PREFETCH(s->codes + (size_t)s->arena[at + j + AHEAD] * width + column);
            PREFETCH(s->codes + (size_t)s->arena[at + j + AHEAD + 1] * width + column);
        }
        counts[clue[j] = s->codes[(size_t)s->arena[at + j] * width + column]]++;
        others[clue[j + 1] = s->codes[(size_t)s->arena[at + j + 1] * width + column]]++;
    }
    if (j < n) counts[clue[j] = s->codes[(size_t)s->arena[at + j] * width + column]]++;
    for (int v = 0; v < CODES; v++) counts[v] += others[v];
    int32_t kept = n - counts[MINE_CODE];
    int ngroups = 0;
    for (int v = 0, next = 0; v < MINE_CODE; v++) { start[v] = next; next += counts[v]; ngroups += counts[v] > 0; }
    long long place = take(s, (size_t)kept);
    Group *groups = malloc(sizeof(Group) * (size_t)(ngroups > 0 ? ngroups : 1));
    if (groups == NULL || place < 0) { free(groups); s->stopped = STOP_MEMORY; return -1; }
    for (int v = 0, g = 0; v < MINE_CODE; v++)
        if (counts[v]) { groups[g].at = place + start[v]; groups[g].n = counts[v]; g++; }
    for (j = 0; j < n; j++) /* at + j lies below place: the arena may have moved, the offsets have not */
        if (clue[j] != MINE_CODE) s->arena[place + start[clue[j]]++] = s->arena[at + j];
    largest_first(groups, ngroups);
    *out = groups;
    return ngroups;
}

/* The safe layouts of the state split by what `columns` show (at most MOST_FREE of them; a layout with a
 * mine in one of them is left out), the groups put at the arena's top in the order of what they show (the
 * first column's clue first, the layouts of a group in their order), then sorted largest first: malloc'd
 * into *out; their number, or -1 (memory). What a layout shows is packed into a word, 4 bits a column,
 * and sorted by stable counting sorts, a column at a time, the last column first (one column: split_one). */
static int split(Search *s, size_t at, int32_t n, const int32_t *columns, int ncolumns, Group **out) {
    *out = NULL;
    if (ncolumns > MOST_FREE) ncolumns = MOST_FREE;
    if (ncolumns == 1) return split_one(s, at, n, columns[0], out);
    int width = s->width;
    if (keyed_room(s, (size_t)(n > 0 ? 2 * n : 2)) < 0) return -1;
    Keyed *from = s->keyed, *to = from + n;
    /* Two columns a pass (an 8-bit digit) where the 256 buckets' upkeep is small beside the layouts; then every
     * digit's counts are taken while the keys are made, so each pass only scatters. */
    int step = n >= 64 ? 2 : 1, ndigits = (ncolumns + step - 1) / step, buckets = step == 2 ? 256 : 16;
    int32_t counts[(MOST_FREE + 1) / 2 * 256];
    memset(counts, 0, sizeof(int32_t) * (size_t)(ndigits * buckets));
    uint64_t mask = (uint64_t)buckets - 1;
    int32_t kept = 0;
    for (int32_t j = 0; j < n; j++) {
        int32_t i = s->arena[at + j];
        if (j + AHEAD < n) PREFETCH(s->codes + (size_t)s->arena[at + j + AHEAD] * width);
        const uint8_t *row = s->codes + (size_t)i * width;
        uint64_t key = 0;
        int mine = 0;
        for (int f = 0; f < ncolumns; f++) {
            uint8_t code = row[columns[f]];
            mine |= code == MINE_CODE;
            key = key << 4 | code;
        }
        if (mine) continue;
        from[kept].key = key; from[kept].index = i; kept++;
        for (int d = 0; d < ndigits; d++) counts[d * buckets + (key >> (4 * step * d) & mask)]++;
    }
    Keyed *sorted = from, *spare = to;
    for (int d = 0; d < ndigits; d++) { /* digit d from the right: columns ncolumns - 1 - step * d and before */
        int32_t start[256], shift = 4 * step * d;
        for (int v = 0, next = 0; v < buckets; v++) { start[v] = next; next += counts[d * buckets + v]; }
        for (int32_t j = 0; j < kept; j++) spare[start[sorted[j].key >> shift & mask]++] = sorted[j];
        Keyed *swap = sorted; sorted = spare; spare = swap;
    }
    long long place = take(s, (size_t)kept);
    int ngroups = 0;
    for (int32_t j = 0; j < kept; j++) ngroups += j == 0 || sorted[j].key != sorted[j - 1].key;
    Group *groups = malloc(sizeof(Group) * (size_t)(ngroups > 0 ? ngroups : 1));
    if (groups == NULL || place < 0) { free(groups); s->stopped = STOP_MEMORY; return -1; }
    int g = -1;
    for (int32_t j = 0; j < kept; j++) {
        if (j == 0 || sorted[j].key != sorted[j - 1].key) { g++; groups[g].at = place + j; groups[g].n = 0; }
        s->arena[place + j] = sorted[j].index;
        groups[g].n++;
    }
    largest_first(groups, ngroups);
    *out = groups;
    return ngroups;
}

/* ---- what a state is made of -------------------------------------------------------------------------- */

/* `bits` added into bit-sliced counters: plane b holds bit b of each column's count. */
static inline void add_bits(uint64_t *planes, uint64_t bits) {
    for (int b = 0; bits; b++) {
        uint64_t carry = planes[b] & bits;
        planes[b] ^= bits;
        bits = carry;
    }
}

/* `bits` added into the first `levels` planes of bit-sliced counters, every level whatever the carry (a loop of
 * fixed length, unrolled, with no data-dependent branch): the carry out of the last, 0 where they cannot overflow. */
static inline uint64_t ripple(uint64_t *planes, int levels, uint64_t bits) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int b = 0; b < levels; b++) {
        uint64_t carry = planes[b] & bits;
        planes[b] ^= bits;
        bits = carry;
    }
    return bits;
}

/* column_counts by the layouts' column bits, every column at once: the mines counted in bit-sliced counters (a
 * layout's mine bits added into bit planes, word by word), the clues shown as the union of each clue's bits. The
 * clues a column shows are counted exactly where it is doubtful (a mine in some layouts, not all), the only
 * columns whose count is read; a safe column's is 0, 1, or 2 for two or more (what tells a free cell). */
static void column_counts_by_bits(Search *s, size_t at, int32_t n, const int32_t *cols, int ncols, int32_t *mines, int32_t *shown) {
    int words = s->words, used = 1;
    while (used < 31 && ((int32_t)1 << used) <= n) used++; /* enough bits to count to n: the planes read */
    int planes = used < 8 ? 8 : used;                        /* at least the eight the one-word loop keeps in registers */
    uint64_t counter[words * planes], seen[MINE_CODE * words];
    memset(counter, 0, sizeof counter);
    memset(seen, 0, sizeof seen);
    size_t stride = (size_t)(1 + MINE_CODE) * (size_t)words;
    if (words == 1) { /* most boards' covered cells: the clues' unions kept in registers */
        uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0, s8 = 0;
        uint64_t low[8] = {0}; /* the counters' eight low planes, kept apart from counter so they can stay in registers */
        for (int32_t j = 0; j < n; j++) {
            if (j + AHEAD < n) PREFETCH(s->bits + (size_t)s->arena[at + j + AHEAD] * stride);
            const uint64_t *row = s->bits + (size_t)s->arena[at + j] * stride;
            uint64_t carry = ripple(low, 8, row[0]);
            if (carry) add_bits(counter + 8, carry); /* at most once in 256 layouts a column */
            s0 |= row[1]; s1 |= row[2]; s2 |= row[3]; s3 |= row[4]; s4 |= row[5];
            s5 |= row[6]; s6 |= row[7]; s7 |= row[8]; s8 |= row[9];
        }
        memcpy(counter, low, sizeof low);
        seen[0] = s0; seen[1] = s1; seen[2] = s2; seen[3] = s3; seen[4] = s4; seen[5] = s5; seen[6] = s6; seen[7] = s7; seen[8] = s8;
    } else {
        for (int32_t j = 0; j < n; j++) {
            if (j + AHEAD < n) PREFETCH(s->bits + (size_t)s->arena[at + j + AHEAD] * stride);
            const uint64_t *row = s->bits + (size_t)s->arena[at + j] * stride;
            for (int w = 0; w < words; w++) add_bits(counter + w * planes, row[w]);
            for (int k = 0; k < MINE_CODE * words; k++) seen[k] |= row[words + k];
        }
    }
    uint64_t clues[4 * words]; /* per word, the clues shown in each column, counted in 4 bit planes */
    memset(clues, 0, sizeof clues);
    for (int w = 0; w < words; w++) /* at most 9 clues: four planes never overflow */
        for (int clue = 0; clue < MINE_CODE; clue++) ripple(clues + 4 * w, 4, seen[clue * words + w]);
    uint64_t some[words], every[words], several[words]; /* per word: a mine somewhere, everywhere; two clues or more */
    for (int w = 0; w < words; w++) {
        some[w] = 0; every[w] = ~(uint64_t)0;
        for (int b = 0; b < used; b++) { /* the planes above are 0 */
            some[w] |= counter[w * planes + b];
            every[w] &= (n >> b & 1) ? counter[w * planes + b] : ~counter[w * planes + b];
        }
        several[w] = clues[4 * w + 1] | clues[4 * w + 2] | clues[4 * w + 3];
    }
    for (int i = 0; i < ncols; i++) {
        int32_t c = cols[i], w = c >> 6, bit = c & 63, count = 0, shows = 0;
        if (!(some[w] >> bit & 1)) { mines[c] = 0; shown[c] = (several[w] >> bit & 1) ? 2 : (int32_t)(clues[4 * w] >> bit & 1); continue; }
        if (every[w] >> bit & 1) { mines[c] = n; shown[c] = 0; continue; }
        for (int b = 0; b < used; b++) count |= (int32_t)((counter[w * planes + b] >> bit) & 1) << b;
        for (int b = 0; b < 4; b++) shows |= (int32_t)((clues[4 * w + b] >> bit) & 1) << b;
        mines[c] = count;
        shown[c] = shows;
    }
}

/* Per active column c (the columns that varied in the state's parent; the others cannot vary in it): mines[c]
 * (layouts where it is a mine) and shown[c] (different clues where it is safe). */
static void column_counts(Search *s, size_t at, int32_t n, const int32_t *cols, int ncols, int32_t *mines, int32_t *shown) {
    int width = s->width;
    if (s->bits != NULL && ncols > 4 * s->words) { /* bits cost about 12 operations a word a layout, a histogram 4 a column */
        column_counts_by_bits(s, at, n, cols, ncols, mines, shown);
        return;
    }
    memset(s->hist, 0, sizeof(int32_t) * (size_t)ncols * CODES);
    for (int32_t j = 0; j < n; j++) {
        const uint8_t *row = s->codes + (size_t)s->arena[at + j] * width;
        int32_t *h = s->hist;
        for (int i = 0; i < ncols; i++) h[i * CODES + row[cols[i]]]++;
    }
    for (int i = 0; i < ncols; i++) {
        const int32_t *h = s->hist + i * CODES;
        int count = 0;
        for (int clue = 0; clue < MINE_CODE; clue++) count += h[clue] != 0;
        mines[cols[i]] = h[MINE_CODE];
        shown[cols[i]] = count;
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

/* The moves worth trying (ValueSearch._moves) into moves; their number. */
static int order_moves(Search *s, size_t at, int32_t n, const int32_t *doubtful, int ndoubtful, const int32_t *mines,
                       const int32_t *shown, int32_t *moves, unsigned maybe_kept) {
    int32_t keeping[8];
    int nkeeping = 0;
    for (int k = 0; k < s->nsyms && nkeeping < 8; k++)
        if ((maybe_kept >> k & 1) && keeps(s, k, at, n)) keeping[nkeeping++] = k;
    int telling = 0; /* a doubtful cell whose clue can tell something: the dead ones wait */
    for (int i = 0; i < ndoubtful && !telling; i++) telling = shown[doubtful[i]] > 1;
    int32_t order[ndoubtful > 0 ? ndoubtful : 1];
    int norder = 0;
    for (int i = 0; i < ndoubtful; i++) { /* insertion sort by (mines, -shown, column) */
        int32_t c = doubtful[i];
        if (telling && shown[c] <= 1) continue;
        int j = norder - 1;
        while (j >= 0 && (mines[order[j]] > mines[c] || (mines[order[j]] == mines[c] && shown[order[j]] < shown[c]))) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = c;
        norder++;
    }
    int count = 0;
    for (int i = 0; i < norder; i++) {
        int32_t c = order[i];
        int skip = 0;
        for (int m = 0; m < count && !skip; m++) {
            /* two columns alike in every layout have the same mines and clues shown: only those are compared, each
               comparison stopping at the first layout where they differ (at once, mostly; a hash read both whole) */
            if (mines[moves[m]] != mines[c] || shown[moves[m]] != shown[c]) continue;
            skip = same_column(s, at, n, c, moves[m]);
        }
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

/* How many different rows the state's layouts show on `columns`, counted in a hash set of the rows met (a
 * slot holds a row's hash, 32 bits, and its layout; rows of equal hashes are compared, so the count is exact). */
static long long distinct_rows(Search *s, size_t at, int32_t n, const int32_t *columns, int ncolumns) {
    size_t size = 16;
    while (size < (size_t)n * 2) size <<= 1; /* at most half full */
    typedef struct { uint32_t hash; int32_t index; } Seen;
    Seen *seen = malloc(sizeof(Seen) * size);
    if (seen == NULL) { s->stopped = STOP_MEMORY; return -1; }
    for (size_t i = 0; i < size; i++) seen[i].index = -1;
    uint64_t weight[ncolumns > 0 ? ncolumns : 1]; /* a random odd weight a column */
    for (int i = 0; i < ncolumns; i++) weight[i] = splitmix((uint64_t)i) | 1;
    long long distinct = 0;
    for (int32_t j = 0; j < n; j++) {
        int32_t index = s->arena[at + j];
        const uint8_t *row = s->codes + (size_t)index * s->width;
        uint64_t h = 0;
        for (int i = 0; i < ncolumns; i++) h += (uint64_t)(row[columns[i]] + 1) * weight[i]; /* the products independent, */
        h = splitmix(h);                                                                     /* unlike a chained hash's: mixed once */
        for (size_t slot = h & (size - 1);; slot = (slot + 1) & (size - 1)) {
            if (seen[slot].index < 0) { seen[slot].hash = (uint32_t)(h >> 32); seen[slot].index = index; distinct++; break; }
            if (seen[slot].hash != (uint32_t)(h >> 32)) continue;
            const uint8_t *other = s->codes + (size_t)seen[slot].index * s->width;
            int same = 1;
            for (int i = 0; i < ncolumns && same; i++) same = row[columns[i]] == other[columns[i]];
            if (same) break;
        }
    }
    free(seen);
    return distinct;
}

/* The doubtful columns grouped by neighbourhood (ValueSearch._touching_groups): the groups' columns one
 * after another into columns, group g's from start[g] to start[g + 1]; their number. */
static int touching_groups(Search *s, const int32_t *doubtful, int ndoubtful, int32_t *columns, int32_t *start) {
    int width = s->width;
    long long base = take_scratch(s, (size_t)width * 3);
    if (base < 0) return 0;
    int32_t *parent = s->scratch + base, *group_of = parent + width, *inside = group_of + width;
    memset(inside, 0, sizeof(int32_t) * (size_t)width);
    for (int i = 0; i < ndoubtful; i++) { parent[doubtful[i]] = doubtful[i]; group_of[doubtful[i]] = -1; inside[doubtful[i]] = 1; }
    for (int i = 0; i < ndoubtful; i++) {
        int32_t c = doubtful[i];
        for (int32_t e = s->neighbour_start[c]; e < s->neighbour_start[c + 1]; e++) {
            int32_t other = s->neighbour_columns[e];
            if (other < 0 || other >= width || !inside[other]) continue;
            int32_t a = root_of(parent, c), b = root_of(parent, other);
            if (a != b) parent[a > b ? a : b] = a < b ? a : b;
        }
    }
    int ngroups = 0;
    for (int i = 0; i < ndoubtful; i++) {
        int32_t r = root_of(parent, doubtful[i]);
        if (group_of[r] < 0) group_of[r] = ngroups++;
    }
    for (int g = 0, filled = 0; g < ngroups; g++) {
        start[g] = filled;
        for (int i = 0; i < ndoubtful; i++)
            if (group_of[root_of(parent, doubtful[i])] == g) columns[filled++] = doubtful[i];
        start[g + 1] = filled;
    }
    s->scratch_top = (size_t)base;
    return ngroups;
}

/* The state's independent parts (ValueSearch._parts): their number (0: it is one part), each part's
 * layouts (those that agree with the first off the group's columns) put at the arena's top, into parts. */
static int find_parts(Search *s, size_t at, int32_t n, const int32_t *doubtful_in, int ndoubtful, Group *parts) {
    if (ndoubtful < 2) return 0;
    int32_t doubtful[ndoubtful], columns[ndoubtful], start[ndoubtful + 1];
    memcpy(doubtful, doubtful_in, sizeof(int32_t) * (size_t)ndoubtful); /* the scratch arena may move */
    int ngroups = touching_groups(s, doubtful, ndoubtful, columns, start);
    if (ngroups < 2) return 0;
    long long product = 1;
    for (int g = 0; g < ngroups && product <= n; g++) {
        long long d = distinct_rows(s, at, n, columns + start[g], start[g + 1] - start[g]);
        if (d < 0 || n % d != 0) return 0; /* the groups' rows make every layout only if each count divides them */
        product *= d;
    }
    if (product != n) return 0;
    const uint8_t *first = s->codes + (size_t)s->arena[at] * s->width;
    for (int g = 0; g < ngroups; g++) {
        long long out = take(s, (size_t)n);
        if (out < 0) return 0;
        int32_t kept = 0;
        for (int32_t j = 0; j < n; j++) {
            const uint8_t *row = s->codes + (size_t)s->arena[at + j] * s->width;
            int same = 1; /* agrees with the first layout on the other groups' columns */
            for (int i = 0; i < ndoubtful && same; i++)
                same = (i >= start[g] && i < start[g + 1]) || row[columns[i]] == first[columns[i]];
            if (same) s->arena[out + kept++] = s->arena[at + j];
        }
        s->top = (size_t)out + (size_t)kept;
        parts[g].at = out; parts[g].n = kept;
    }
    return ngroups;
}

/* ---- the search ------------------------------------------------------------------------------------- */

/* A state's frame in the scratch arena: mines, shown, a list (free or doubtful columns), moves, and the
 * columns that vary in it (the active columns of its children), each `width` long. */
#define F_MINES 0
#define F_SHOWN 1
#define F_LIST 2
#define F_MOVES 3
#define F_VARYING 4
#define FRAME 5

static void solve(Search *s, size_t at, int32_t n, long long cols_at, int ncols, long long alpha, long long beta,
                  long long *low, long long *high);
static void solve_keyed(Search *s, size_t at, int32_t n, long long cols_at, int ncols, const uint64_t *key, long long counts_at,
                        long long alpha, long long beta, long long *low, long long *high);

/* What the table knows of each group before any is searched: its fingerprint (words 0-2: first, second, the
 * symmetries that may keep it) and its bounds. */
typedef struct { uint64_t key[3]; long long low, high, counts_at; } Known;

/* A group's per-column counts (mines, then clues shown, `width` each, at `counts_at` in the scratch arena) and
 * the ceiling they give its value: with a free cell, every layout; else its safest doubtful cell's safe layouts
 * (every move risks the layouts where its cell is a mine). */
static long long probe_ceiling(Search *s, size_t at, int32_t n, long long cols_at, int ncols, long long counts_at) {
    int width = s->width;
    int32_t *mines = s->scratch + counts_at, *shown = mines + width;
    column_counts(s, at, n, s->scratch + cols_at, ncols, mines, shown);
    long long best = 0;
    for (int i = 0; i < ncols; i++) {
        int32_t c = s->scratch[cols_at + i], m = mines[c];
        if (m == 0 && shown[c] > 1) return n;
        if (m > 0 && m < n && n - m > best) best = n - m;
    }
    return best > 0 ? best : n;
}

static void chance(Search *s, const Group *groups, int ngroups, long long cols_at, int ncols, long long alpha, long long beta,
                   long long *low, long long *high) {
    Known *known = malloc(sizeof(Known) * (size_t)(ngroups > 0 ? ngroups : 1));
    if (known == NULL) {
        s->stopped = STOP_MEMORY;
        *low = 0; *high = 0;
        for (int i = 0; i < ngroups; i++) *high += groups[i].n;
        return;
    }
    long long rest_low = 0, rest_high = 0;
    for (int i = 0; i < ngroups; i++) /* every fingerprint first, its slot fetched meanwhile: the table is far larger than a cache */
        if (groups[i].n > 1) {
            unsigned maybe_kept;
            fingerprint(s, (size_t)groups[i].at, groups[i].n, known[i].key, known[i].key + 1, &maybe_kept);
            known[i].key[2] = maybe_kept;
            PREFETCH(s->memo.slots + (known[i].key[0] & s->memo.mask));
        }
    size_t scratch_top = s->scratch_top;
    for (int i = 0; i < ngroups; i++) {
        int32_t n = groups[i].n;
        known[i].low = n <= 1 ? n : 0;
        known[i].high = n;
        known[i].counts_at = -1;
        if (n > 1) {
            MemoSlot *slot = memo_find(&s->memo, known[i].key[0], known[i].key[1], n);
            if (slot != NULL) { known[i].low = slot->low; known[i].high = slot->high; }
            else if ((known[i].counts_at = take_scratch(s, (size_t)s->width * 2)) >= 0)
                known[i].high = probe_ceiling(s, (size_t)groups[i].at, n, cols_at, ncols, known[i].counts_at);
        }
        rest_low += known[i].low;
        rest_high += known[i].high;
    }
    long long low_sum = 0, high_sum = 0;
    for (int i = 0; i < ngroups; i++) {
        if (high_sum + rest_high <= alpha || low_sum + rest_low >= beta) break; /* decided without the rest */
        rest_low -= known[i].low;
        rest_high -= known[i].high;
        long long floor = alpha - low_sum - rest_high, ceiling = beta - low_sum - rest_low, l, h;
        if (known[i].high <= floor || known[i].low >= ceiling || known[i].low == known[i].high) {
            l = known[i].low; h = known[i].high; /* the table's bounds decide it: not searched */
        } else {
            solve_keyed(s, (size_t)groups[i].at, groups[i].n, cols_at, ncols, known[i].key, known[i].counts_at, floor, ceiling, &l, &h);
        }
        low_sum += l;
        high_sum += h;
    }
    s->scratch_top = scratch_top;
    free(known);
    *low = low_sum + rest_low;
    *high = high_sum + rest_high;
}

/* Open the cells of `columns` and play on at best: the state's arena top restored after. */
static void play(Search *s, size_t at, int32_t n, const int32_t *columns, int ncolumns, long long cols_at, int ncols,
                 long long alpha, long long beta, long long *low, long long *high) {
    size_t top = s->top;
    Group *groups;
    int ngroups = split(s, at, n, columns, ncolumns, &groups);
    if (ngroups < 0) { *low = 0; *high = n; s->top = top; return; }
    chance(s, groups, ngroups, cols_at, ncols, alpha, beta, low, high);
    free(groups);
    s->top = top;
}

/* The value of a closed state (no free cell): its parts' product, else its best move's. */
static void solve_closed(Search *s, size_t at, int32_t n, long long base, int ndoubtful, long long varying_at, int nvarying,
                         unsigned maybe_kept, long long alpha, long long beta, long long *low, long long *high) {
    int width = s->width;
#define MINES(k) (s->scratch[base + F_MINES * width + (k)])
#define MOVES (s->scratch + base + F_MOVES * width)
    Group parts[ndoubtful > 0 ? ndoubtful : 1];
    int nparts = find_parts(s, at, n, s->scratch + base + F_LIST * width, ndoubtful, parts);
    if (nparts >= 2) {
        long long lows = 1, highs = 1;
        for (int g = 0; g < nparts; g++) {
            long long l, h;
            solve(s, (size_t)parts[g].at, parts[g].n, varying_at, nvarying, -1, (long long)parts[g].n + 1, &l, &h);
            lows *= l; highs *= h;
        }
        *low = lows; *high = highs;
        return;
    }
    int nmoves = order_moves(s, at, n, s->scratch + base + F_LIST * width, ndoubtful, s->scratch + base + F_MINES * width,
                             s->scratch + base + F_SHOWN * width, MOVES, maybe_kept);
    int root = n == s->count;
    long long best = 0, ceiling = 0;
    for (int i = 0; i < nmoves; i++) {
        int32_t column = MOVES[i];
        long long safe = n - MINES(column);
        if (safe <= best || safe <= alpha || s->stopped == STOP_TIME) { /* a move wins at most its safe layouts: this
                                                     one, and the rest, cannot help (or are not searched: time is up) */
            if (safe > ceiling) ceiling = safe;
            break;
        }
        long long l, h;
        play(s, at, n, &column, 1, varying_at, nvarying, alpha > best ? alpha : best, beta, &l, &h);
        if (root && l > best) s->root_move = column;
        if (l > best) best = l;
        if (h > ceiling) ceiling = h;
        if (best >= beta) {
            if (i + 1 < nmoves) {
                long long next = n - MINES(MOVES[i + 1]);
                if (next > ceiling) ceiling = next;
            }
            break;
        }
    }
#undef MINES
#undef MOVES
    *low = best;
    *high = ceiling > best ? ceiling : best;
}

/* The state's frame filled: counts over the active columns, then the free columns (into the list), and the
 * columns that vary (free or doubtful, in column order); returns the number of free ones. */
static int read_state(Search *s, size_t at, int32_t n, long long cols_at, int ncols, long long base, int *nvarying, long long counts_at) {
    int width = s->width;
    if (counts_at < 0)
        column_counts(s, at, n, s->scratch + cols_at, ncols, s->scratch + base + F_MINES * width, s->scratch + base + F_SHOWN * width);
    else /* counted already (probe_ceiling) */
        for (int i = 0; i < ncols; i++) {
            int32_t c = s->scratch[cols_at + i];
            s->scratch[base + F_MINES * width + c] = s->scratch[counts_at + c];
            s->scratch[base + F_SHOWN * width + c] = s->scratch[counts_at + width + c];
        }
    int nfree = 0, count = 0;
    for (int i = 0; i < ncols; i++) {
        int32_t c = s->scratch[cols_at + i];
        int32_t m = s->scratch[base + F_MINES * width + c], shown = s->scratch[base + F_SHOWN * width + c];
        if (m == 0 && shown > 1) s->scratch[base + F_LIST * width + nfree++] = c;
        if ((m == 0 && shown > 1) || (m > 0 && m < n)) s->scratch[base + F_VARYING * width + count++] = c;
    }
    *nvarying = count;
    return nfree;
}

/* The varying columns at varying_at less those of the `opened` free columns a state opens at once (at most
 * MOST_FREE, as split opens them): each is the same in every group they split the state into, so no child need
 * read it; the number left. */
static int drop_opened(Search *s, long long varying_at, int nvarying, const int32_t *opened, int nopened) {
    if (nopened > MOST_FREE) nopened = MOST_FREE;
    int kept = 0;
    for (int i = 0; i < nvarying; i++) {
        int32_t c = s->scratch[varying_at + i];
        int found = 0;
        for (int j = 0; j < nopened && !found; j++) found = opened[j] == c;
        if (!found) s->scratch[varying_at + kept++] = c;
    }
    return kept;
}

static int doubtful_columns(Search *s, int32_t n, long long base, int nvarying) {
    int width = s->width, count = 0;
    for (int i = 0; i < nvarying; i++) {
        int32_t c = s->scratch[base + F_VARYING * width + i];
        int32_t m = s->scratch[base + F_MINES * width + c];
        if (m > 0 && m < n) s->scratch[base + F_LIST * width + count++] = c;
    }
    return count;
}

static void solve(Search *s, size_t at, int32_t n, long long cols_at, int ncols, long long alpha, long long beta,
                  long long *low, long long *high) {
    if (n <= 1) { *low = n; *high = n; return; }
    uint64_t key[3];
    unsigned maybe_kept;
    fingerprint(s, at, n, key, key + 1, &maybe_kept);
    key[2] = maybe_kept;
    solve_keyed(s, at, n, cols_at, ncols, key, -1, alpha, beta, low, high);
}

static void solve_keyed(Search *s, size_t at, int32_t n, long long cols_at, int ncols, const uint64_t *key, long long counts_at,
                        long long alpha, long long beta, long long *low, long long *high) {
    int width = s->width;
    size_t top = s->top, scratch_top = s->scratch_top;
    uint64_t first = key[0], second = key[1];
    unsigned maybe_kept = (unsigned)key[2];
    MemoSlot *kept = memo_find(&s->memo, first, second, n);
    long long l = kept ? kept->low : 0, h = kept ? kept->high : n;
    *low = l; *high = h;
    if (l == h || h <= alpha || l >= beta || s->stopped || spend(s, n) < 0) return;
    long long base = take_scratch(s, (size_t)width * FRAME);
    if (base < 0) return;
    int nvarying;
    int nfree = read_state(s, at, n, cols_at, ncols, base, &nvarying, counts_at);
    long long varying_at = base + F_VARYING * width, fl, fh;
    long long a = alpha > l - 1 ? alpha : l - 1, b = beta < h + 1 ? beta : h + 1;
    if (nfree) { /* the free cells opened, all at once: what they tell can only help, and they risk nothing */
        if (n == s->count) s->root_move = s->scratch[base + F_LIST * width];
        nvarying = drop_opened(s, varying_at, nvarying, s->scratch + base + F_LIST * width, nfree);
        play(s, at, n, s->scratch + base + F_LIST * width, nfree, varying_at, nvarying, a, b, &fl, &fh);
    } else {
        int ndoubtful = doubtful_columns(s, n, base, nvarying);
        solve_closed(s, at, n, base, ndoubtful, varying_at, nvarying, maybe_kept, a, b, &fl, &fh);
    }
    if (fl > l) l = fl;
    if (fh < h) h = fh;
    store(s, first, second, n, (int32_t)l, (int32_t)h);
    *low = l; *high = h;
    s->top = top; s->scratch_top = scratch_top;
}

/* The layouts won playing each time the free cells, else the search's first move (ValueSearch.first_moves);
 * -1 once stopped. */
static long long first_moves(Search *s, size_t at, int32_t n, long long cols_at, int ncols) {
    if (n <= 1) return n;
    if (spend(s, n) < 0) return -1;
    int width = s->width;
    size_t top = s->top, scratch_top = s->scratch_top;
    long long base = take_scratch(s, (size_t)width * FRAME);
    if (base < 0) return -1;
    int nvarying;
    int nfree = read_state(s, at, n, cols_at, ncols, base, &nvarying, -1);
    int32_t chosen;
    const int32_t *columns = s->scratch + base + F_LIST * width;
    int ncolumns = nfree;
    if (nfree) nvarying = drop_opened(s, base + F_VARYING * width, nvarying, columns, nfree);
    if (!nfree) {
        int ndoubtful = doubtful_columns(s, n, base, nvarying);
        uint64_t first, second;
        unsigned maybe_kept;
        fingerprint(s, at, n, &first, &second, &maybe_kept);
        int nmoves = order_moves(s, at, n, s->scratch + base + F_LIST * width, ndoubtful, s->scratch + base + F_MINES * width,
                                 s->scratch + base + F_SHOWN * width, s->scratch + base + F_MOVES * width, maybe_kept);
        if (nmoves == 0) { s->top = top; s->scratch_top = scratch_top; return n; } /* never met: layouts are distinct */
        chosen = s->scratch[base + F_MOVES * width];
        columns = &chosen;
        ncolumns = 1;
    }
    if (n == s->count) s->first_move = columns[0];
    Group *groups;
    int ngroups = split(s, at, n, columns, ncolumns, &groups);
    long long won = ngroups < 0 ? -1 : 0;
    for (int i = 0; i < ngroups && won >= 0; i++) {
        long long part = first_moves(s, (size_t)groups[i].at, groups[i].n, base + F_VARYING * width, nvarying);
        won = part < 0 ? -1 : won + part;
    }
    free(groups);
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

/* Whether the time is up: the search stopped on it, or the deadline has passed since (stopped so, if it ran). */
static int out_of_time(Search *s) {
    if (s->deadline >= 0 && now_seconds() >= s->deadline) {
        if (!s->stopped) s->stopped = STOP_TIME;
        return 1;
    }
    return s->stopped == STOP_TIME;
}

/* Whether column k is the root's best move or a symmetry's image of it (the same value). */
static int like_root_move(const Search *s, int32_t k) {
    if (k == s->root_move) return 1;
    for (int t = 0; t < s->nsyms; t++)
        if (s->root_move >= 0 && s->sym_columns[(size_t)t * s->width + k] == s->root_move) return 1;
    return 0;
}

/* Each column's bounds when opened first (ValueSearch._cell_values), and the answer. */
static PyObject *search_answer(Search *s, long long low, long long high, long long floor, long long all_at) {
    int32_t n = s->count;
    PyObject *cells = PyList_New(s->width);
    if (cells == NULL) return NULL;
    for (int32_t k = 0; k < s->width; k++) {
        long long mines = 0;
        for (int32_t i = 0; i < n; i++) mines += s->codes[(size_t)i * s->width + k] == MINE_CODE;
        long long safe = n - mines, l, h;
        if (safe == 0) { l = 0; h = 0; }
        else if (safe == n) { l = low; h = high; }
        else if (k == s->root_move && s->wanted == 0) { l = low; h = high; }
        else if (s->wanted == 0 || (s->wanted == 1 && safe < low)) { l = 0; h = safe; }
        else if (out_of_time(s)) { l = like_root_move(s, k) ? low : 0; h = safe < high ? safe : high; } /* no more splits */
        else if (s->wanted == 2) play(s, 0, n, &k, 1, all_at, s->width, -1, (long long)n + 1, &l, &h);
        else play(s, 0, n, &k, 1, all_at, s->width, low - 1, high + 1, &l, &h);
        PyObject *pair = Py_BuildValue("(LL)", l, h);
        if (pair == NULL) { Py_DECREF(cells); return NULL; }
        PyList_SET_ITEM(cells, k, pair);
    }
    PyObject *move = s->root_move < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(s->root_move);
    const char *stopped = stop_name(s->stopped);
    PyObject *stop = stopped ? PyUnicode_FromString(stopped) : Py_NewRef(Py_None);
    return Py_BuildValue("{s:L,s:L,s:N,s:N,s:L,s:L,s:N}", "low", low, "high", high, "move", move, "cells", cells,
                         "floor", floor, "states", s->states, "stopped", stop);
}

/* The answer of a search whose working space could not hold even the root's layouts: not begun, every bound
 * as wide as it can be (a cell is won in at most its safe layouts), stopped for memory. */
static PyObject *unbegun_answer(const Search *s) {
    PyObject *cells = PyList_New(s->width);
    if (cells == NULL) return NULL;
    for (int32_t k = 0; k < s->width; k++) {
        long long safe = 0;
        for (int32_t i = 0; i < s->count; i++) safe += s->codes[(size_t)i * s->width + k] != MINE_CODE;
        PyObject *pair = Py_BuildValue("(LL)", 0LL, safe);
        if (pair == NULL) { Py_DECREF(cells); return NULL; }
        PyList_SET_ITEM(cells, k, pair);
    }
    return Py_BuildValue("{s:L,s:L,s:O,s:N,s:L,s:L,s:s}", "low", 0LL, "high", (long long)s->count, "move", Py_None, "cells",
                         cells, "floor", 0LL, "states", 0LL, "stopped", "memory");
}

PyObject *value_search(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer codes, starts, columns, sym_layouts, sym_columns;
    int count, width, nsyms, wanted;
    long long node_limit, most_slots, work_limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*iiy*y*iy*y*LdLLi", &codes, &count, &width, &starts, &columns, &nsyms, &sym_layouts,
                          &sym_columns, &node_limit, &seconds, &most_slots, &work_limit, &wanted))
        return NULL;
    PyObject *result = NULL;
    Search s;
    memset(&s, 0, sizeof s);
    if (count < 1 || width < 1 || codes.len != (Py_ssize_t)count * width || starts.len != (Py_ssize_t)(width + 1) * 4 ||
        sym_layouts.len != (Py_ssize_t)nsyms * count * 4 || sym_columns.len != (Py_ssize_t)nsyms * width * 4 ||
        most_slots < FIRST_SLOTS || (most_slots & (most_slots - 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "value_search: inconsistent sizes");
        goto done;
    }
    s.codes = codes.buf; s.count = count; s.width = width;
    s.neighbour_start = starts.buf; s.neighbour_columns = columns.buf;
    s.nsyms = nsyms; s.sym_layouts = sym_layouts.buf; s.sym_columns = sym_columns.buf;
    s.node_limit = node_limit; s.work_limit = work_limit; s.wanted = wanted;
    s.deadline = seconds < 0 ? -1.0 : now_seconds() + seconds;
    s.root_move = -1; s.first_move = -1;
    s.first = malloc(sizeof(uint64_t) * (size_t)count);
    s.second = malloc(sizeof(uint64_t) * (size_t)count);
    s.hist = malloc(sizeof(int32_t) * (size_t)width * CODES);
    if (!s.first || !s.second || memo_open(&s.memo, FIRST_SLOTS, most_slots, PROBES) < 0 || !s.hist) { PyErr_NoMemory(); goto done; }
    for (int32_t i = 0; i < count; i++) {
        s.first[i] = splitmix((uint64_t)i * 2);
        s.second[i] = splitmix((uint64_t)i * 2 + 1);
    }
    s.words = (width + 63) / 64;
    size_t stride = (size_t)(1 + MINE_CODE) * (size_t)s.words;
    if (work_limit < 0 || (long long)(count * stride * sizeof(uint64_t)) <= work_limit / 4) /* a quarter of the working space */
        s.bits = calloc((size_t)count * stride, sizeof(uint64_t)); /* NULL: counted by histogram */
    if (s.bits != NULL) {
        s.bits_bytes = (long long)(count * stride * sizeof(uint64_t));
        for (int32_t i = 0; i < count; i++)
            for (int32_t k = 0; k < width; k++) {
                uint8_t code = s.codes[(size_t)i * width + k];
                size_t row = code == MINE_CODE ? 0 : (size_t)(1 + code) * (size_t)s.words;
                s.bits[(size_t)i * stride + row + (size_t)(k >> 6)] |= (uint64_t)1 << (k & 63);
            }
    }
    if (take(&s, (size_t)count) < 0) { result = s.stopped == STOP_MEMORY ? unbegun_answer(&s) : PyErr_NoMemory(); goto done; }
    for (int32_t i = 0; i < count; i++) s.arena[i] = i;
    long long all_at = take_scratch(&s, (size_t)width); /* every column: the root's active columns */
    if (all_at < 0) { result = s.stopped == STOP_MEMORY ? unbegun_answer(&s) : PyErr_NoMemory(); goto done; }
    for (int32_t k = 0; k < width; k++) s.scratch[all_at + k] = k;
    long long floor = 0, low, high;
    Py_BEGIN_ALLOW_THREADS
    long long won = first_moves(&s, 0, count, all_at, width);
    if (won >= 0) floor = won;
    solve(&s, 0, count, all_at, width, floor - 1, (long long)count + 1, &low, &high);
    Py_END_ALLOW_THREADS
    if (floor >= low) { low = floor; s.root_move = s.first_move; }
    result = search_answer(&s, low, high, floor, all_at);
done:
    free(s.first); free(s.second); memo_close(&s.memo); free(s.hist); free(s.keyed); free(s.bits); free(s.arena); free(s.scratch);
    PyBuffer_Release(&codes); PyBuffer_Release(&starts); PyBuffer_Release(&columns);
    PyBuffer_Release(&sym_layouts); PyBuffer_Release(&sym_columns);
    return result;
}
