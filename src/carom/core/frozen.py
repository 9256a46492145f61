"""Mappings that cannot change, so that records and positions are values: equal when
their contents are equal, hashable, safe to share and to keep as dictionary keys.

:class:`FrozenMap` holds a private ``dict`` and offers only the reading half of it;
:func:`freeze` turns a JSON value (objects, arrays, numbers, text) into one that cannot
change (objects become :class:`FrozenMap`, arrays tuples) and :func:`thaw` gives the JSON
value back, for writing.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from typing import Any, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D")


class FrozenMap(Mapping[K, V]):
    """A mapping that cannot change. Building one copies its items once; reading costs
    what reading a ``dict`` costs plus one call."""

    __slots__ = ("_hash", "_items")

    _items: dict[K, V]
    _hash: int | None

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        self._items = dict(items)
        self._hash = None

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    @overload
    def get(self, key: K, /) -> V | None: ...

    @overload
    def get(self, key: K, default: V | D, /) -> V | D: ...

    def get(self, key: K, default: Any = None, /) -> Any:
        return self._items.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def keys(self) -> KeysView[K]:
        return self._items.keys()

    def values(self) -> ValuesView[V]:
        return self._items.values()

    def items(self) -> ItemsView[K, V]:
        return self._items.items()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._items.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._items!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._items,))


EMPTY: FrozenMap[Any, Any] = FrozenMap()
"""The empty mapping, shared: most records carry no field a reader does not know."""


def freeze(value: Any) -> Any:
    """A JSON value that cannot change: objects become :class:`FrozenMap`, arrays tuples."""
    if isinstance(value, FrozenMap):
        return value
    if isinstance(value, Mapping):
        return FrozenMap({k: freeze(v) for k, v in value.items()}) if value else EMPTY
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """The JSON value of a frozen one: mappings become ``dict``, tuples lists."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value
