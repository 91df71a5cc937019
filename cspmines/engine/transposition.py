"""The transposition table of the value search: each state's bounds on the layouts best play wins, kept
under the state's fingerprint (the same table as the compiled kernels' ``memo.h``, with the value
search's policy).

A state's fingerprint is the sum over its layouts of two random 64-bit words (:func:`fingerprints`),
with its number of layouts. :class:`BoundsTable` probes four slots from the fingerprint's home slot,
replaces the smallest state probed when they are full (a large state costs more to work out again),
and doubles once half its slots are used, up to the most it is allowed.

>>> table = BoundsTable(most_slots=1 << 10)
>>> table.store((12345, 678, 3), 1, 2)
>>> table.store((12345, 678, 3), 0, 1)   # the same state again: its bounds narrowed
>>> table.find((12345, 678, 3)), table.find((12345, 678, 4))
((1, 1), None)
"""

from __future__ import annotations

import numpy as np

__all__ = ["BoundsTable", "fingerprints"]

FIRST_SLOTS = 1024  # the table's first slots (it doubles once half are used, up to its allowance)
PROBES = 4  # slots tried from a fingerprint's home slot before one is replaced


def _splitmix(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser over whole arrays of 64-bit words (the search's fingerprints)."""
    with np.errstate(over="ignore"):
        z = values.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def fingerprints(count: int) -> tuple[np.ndarray, np.ndarray]:
    """The two 64-bit words each layout adds to a state's fingerprint (the same in the kernel).

    >>> first, second = fingerprints(3)
    >>> first.dtype, len(set(first.tolist()) | set(second.tolist()))
    (dtype('uint64'), 6)
    """
    index = np.arange(count, dtype=np.uint64)
    return _splitmix(index * np.uint64(2)), _splitmix(index * np.uint64(2) + np.uint64(1))


class BoundsTable:
    """States' bounds by fingerprint ``(first, second, layouts)``, in at most ``most_slots`` slots (a power of two)."""

    def __init__(self, most_slots: int):
        self.most_slots = most_slots
        self.mask = FIRST_SLOTS - 1
        self.keys: list = [None] * FIRST_SLOTS   # (first, second, layouts) of each slot's state
        self.bounds: list = [None] * FIRST_SLOTS  # (low, high) of each slot's state
        self.used = 0

    def find(self, key) -> tuple[int, int] | None:
        """The bounds kept for the state ``key``, or None."""
        home = key[0] & self.mask
        for probe in range(PROBES):
            slot = (home + probe) & self.mask
            if self.keys[slot] == key:
                return self.bounds[slot]
            if self.keys[slot] is None:
                return None
        return None

    def _put(self, key, low: int, high: int) -> None:
        """Keep a state's bounds: in its own slot (narrowed), else an empty one, else in place of the
        smallest state probed if that is no larger (a large state costs more to work out again)."""
        home = key[0] & self.mask
        victim = None
        for probe in range(PROBES):
            slot = (home + probe) & self.mask
            kept = self.keys[slot]
            if kept == key:
                old_low, old_high = self.bounds[slot]
                self.bounds[slot] = (max(low, old_low), min(high, old_high))
                return
            if kept is None:
                victim = slot
                break
            if kept[2] <= key[2] and (victim is None or kept[2] < self.keys[victim][2]):
                victim = slot
        if victim is not None:
            if self.keys[victim] is None:
                self.used += 1
            self.keys[victim] = key
            self.bounds[victim] = (low, high)

    def store(self, key, low: int, high: int) -> None:
        """``_put``, then twice the slots once half are used (up to the most allowed), the entries
        put again in slot order."""
        self._put(key, low, high)
        slots = self.mask + 1
        if self.used * 2 <= slots or slots * 2 > self.most_slots:
            return
        keys, bounds = self.keys, self.bounds
        self.mask = slots * 2 - 1
        self.keys, self.bounds, self.used = [None] * (slots * 2), [None] * (slots * 2), 0
        for key_, bound in zip(keys, bounds, strict=True):
            if key_ is not None:
                self._put(key_, *bound)
