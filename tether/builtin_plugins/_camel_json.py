"""A dataclass as the JSON object pi writes for it: each field under its camelCase name."""

from __future__ import annotations

from dataclasses import fields
from functools import cache
from typing import Any


@cache
def _keys(cls: type) -> tuple[tuple[str, str], ...]:
    """``(attribute, camelCase key)`` of each field of the dataclass ``cls``, in order."""
    pairs = []
    for field in fields(cls):
        head, *rest = field.name.split("_")
        pairs.append((field.name, head + "".join(word.title() for word in rest)))
    return tuple(pairs)


def camel_json(obj: Any) -> dict[str, Any]:
    """The fields of the dataclass ``obj``, in order, keyed by their camelCase names
    (``total_lines`` → ``totalLines``)."""
    return {key: getattr(obj, name) for name, key in _keys(type(obj))}


__all__ = ["camel_json"]
