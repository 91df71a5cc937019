/* The memo table of the compiled game-tree searches (cost_search and value_search): what a search has
 * worked out about a state, kept under the state's key. One table, two policies:
 *
 *  - unbounded (probes 0, most_slots -1): linear probing until the key or an empty slot; nothing is
 *    ever replaced, and the table doubles once half its slots are used. cost_search keeps each
 *    state's least expected cost so (its budget of states bounds the table).
 *  - bounded (probes > 0, most_slots a power of two): at most `probes` slots from the home slot; when
 *    they are full the smallest state probed is replaced if it is no larger (a large state costs more
 *    to work out again), and the table doubles up to most_slots. value_search keeps each state's
 *    bounds so, in the same order as its Python twin (cspmines.engine.transposition.BoundsTable).
 *
 * A key is two 64-bit words and the state's size (its number of layouts, > 0); the home slot is the
 * first word's low bits, so the first word must already be well mixed. */
#ifndef CSPMINES_MEMO_H
#define CSPMINES_MEMO_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

typedef struct {
    uint64_t first, second;
    int32_t size; /* 0: an empty slot */
    union { /* one search's or the other's: 32 bytes a slot, two to a cache line */
        struct { int32_t low, high; }; /* value_search: bounds on the layouts best play wins */
        double cost;                   /* cost_search: the least expected cost */
    };
} MemoSlot;

/* cspmines.engine.value.SLOT_BYTES counts a slot so in the memory allowance (the build fails otherwise). */
typedef char memo_slot_is_32_bytes[sizeof(MemoSlot) == 32 ? 1 : -1];

typedef struct {
    MemoSlot *slots;
    uint64_t mask; /* slots - 1 */
    long long used;
    long long most_slots; /* -1: no most */
    int probes;           /* 0: until the key or an empty slot */
} Memo;

/* `count` zeroed slots. A table is probed at random, so where it spans megabytes each probe also misses the
 * processor's page cache (its TLB) with 4 KiB pages: on Linux a table of 2 MiB or more is aligned to 2 MiB and
 * asked to live on huge pages (a request the kernel may refuse: the table works either way). */
static inline MemoSlot *memo_slots(size_t count) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t bytes = count * sizeof(MemoSlot), huge = (size_t)1 << 21, pages = (bytes + huge - 1) / huge * huge;
    if (bytes >= huge) {
        void *block = NULL;
        if (posix_memalign(&block, huge, pages) != 0) return NULL;
        madvise(block, pages, MADV_HUGEPAGE);
        memset(block, 0, bytes);
        return block;
    }
#endif
    return calloc(count, sizeof(MemoSlot));
}

/* A table of first_slots (a power of two); -1 where there is no memory for it. */
static inline int memo_open(Memo *m, long long first_slots, long long most_slots, int probes) {
    m->slots = memo_slots((size_t)first_slots);
    m->mask = (uint64_t)first_slots - 1;
    m->used = 0;
    m->most_slots = most_slots;
    m->probes = probes;
    return m->slots ? 0 : -1;
}

static inline void memo_close(Memo *m) { free(m->slots); m->slots = NULL; }

static inline int memo_same(const MemoSlot *slot, uint64_t first, uint64_t second, int32_t size) {
    return slot->size == size && slot->first == first && slot->second == second;
}

/* The slot holding the key, or NULL. */
static inline MemoSlot *memo_find(const Memo *m, uint64_t first, uint64_t second, int32_t size) {
    for (uint64_t probe = 0; m->probes == 0 || probe < (uint64_t)m->probes; probe++) {
        MemoSlot *slot = m->slots + ((first + probe) & m->mask);
        if (memo_same(slot, first, second, size)) return slot;
        if (slot->size == 0) return NULL;
    }
    return NULL;
}

/* The slot for the key: its own (*fresh = 0), else an empty one or the one it replaces (*fresh = 1, the
 * key written, the rest for the caller to fill), else NULL (every slot probed holds a larger state). */
static inline MemoSlot *memo_claim(Memo *m, uint64_t first, uint64_t second, int32_t size, int *fresh) {
    MemoSlot *victim = NULL;
    for (uint64_t probe = 0; m->probes == 0 || probe < (uint64_t)m->probes; probe++) {
        MemoSlot *slot = m->slots + ((first + probe) & m->mask);
        if (memo_same(slot, first, second, size)) { *fresh = 0; return slot; }
        if (slot->size == 0) { victim = slot; break; }
        if (slot->size <= size && (victim == NULL || slot->size < victim->size)) victim = slot;
    }
    if (victim == NULL) return NULL;
    if (victim->size == 0) m->used++;
    *fresh = 1;
    victim->first = first; victim->second = second; victim->size = size;
    return victim;
}

/* Twice the slots once half are used (up to most_slots), the entries put again in slot order; -1 where
 * there was no memory for it (the table stays as it is). */
static inline int memo_make_room(Memo *m) {
    long long slots = (long long)m->mask + 1;
    if (m->used * 2 <= slots || (m->most_slots >= 0 && slots * 2 > m->most_slots)) return 0;
    MemoSlot *old = m->slots;
    MemoSlot *bigger = memo_slots((size_t)slots * 2);
    if (bigger == NULL) return -1;
    m->slots = bigger;
    m->mask = (uint64_t)slots * 2 - 1;
    m->used = 0;
    for (long long i = 0; i < slots; i++) {
        if (!old[i].size) continue;
        int fresh;
        MemoSlot *slot = memo_claim(m, old[i].first, old[i].second, old[i].size, &fresh);
        if (slot) *slot = old[i];
    }
    free(old);
    return 0;
}

#endif
