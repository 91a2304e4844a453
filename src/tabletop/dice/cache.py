"""A least-recently-used cache bounded by the size of what it holds, not by its count.

Exact distributions range from two outcomes to a hundred thousand, so a cache that counts
entries could hold a few kilobytes or gigabytes; this one counts each entry's size (its
outcomes) against a budget and forgets the least recently used entries past it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class SizedCache(Generic[Value]):
    """Values by key, at most `budget` in total size; the oldest-used go first."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._entries: OrderedDict[Hashable, tuple[Value, int]] = OrderedDict()
        self._held = 0

    def get(self, key: Hashable) -> Value | None:
        """The value under `key` (now the most recently used), or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, value: Value, size: int) -> None:
        """Keep `value` under `key`, unless it alone is larger than the whole budget."""
        if size > self.budget:
            return
        previous = self._entries.pop(key, None)
        if previous is not None:
            self._held -= previous[1]
        self._entries[key] = (value, size)
        self._held += size
        while self._held > self.budget:
            _, (_, forgotten) = self._entries.popitem(last=False)
            self._held -= forgotten

    def clear(self) -> None:
        self._entries.clear()
        self._held = 0

    def __len__(self) -> int:
        return len(self._entries)
