"""Built-in plugin ``tool_arguments``: a tool call's arguments validated and coerced against
the tool's JSON schema by pi's rules (it answers ``tool_arguments_validator``).

A small JSON-schema subset: ``type`` (one or a list), ``properties``, ``required``,
``additionalProperties``, ``items``, ``enum``, ``const``, ``anyOf``/``oneOf``/``allOf``,
numeric bounds, string/array lengths, ``pattern``, ``uniqueItems``. Before checking, values
are coerced the way pi does it (``"3"`` → 3 for numbers, ``"true"`` → True, 3 → ``"3"`` for
strings, ``None`` → the type's zero value). Error text matches pi's::

    Validation failed for tool "<name>":
      - <path>: <message>

    Received arguments:
    <the original arguments as indented JSON>
"""

from __future__ import annotations

import copy
import functools
import json
import math
import re
from typing import Any

from tether.hookspecs import hookimpl


@functools.cache
def _js_number() -> re.Pattern[str]:
    """A number as JavaScript's ``Number()`` reads it (compiled on first use)."""
    return re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


class ToolArgumentsError(ValueError):
    """The arguments do not match the schema; ``str(error)`` is the text the model reads."""


def validate_tool_arguments(tool_name: str, schema: dict[str, Any], arguments: Any) -> Any:
    """Return coerced arguments (a copy), or raise :class:`ToolArgumentsError`."""
    coerced = coerce(copy.deepcopy(arguments), schema)
    errors = schema_errors(coerced, schema)
    if not errors:
        return coerced
    bullets = "\n".join(f"  - {path or 'root'}: {message}" for path, message in errors)
    received = json.dumps(arguments, indent=2, ensure_ascii=False)
    raise ToolArgumentsError(
        f'Validation failed for tool "{tool_name}":\n{bullets}\n\nReceived arguments:\n{received}'
    )


# --- coercion -----------------------------------------------------------------------------


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [k for k in kind if isinstance(k, str)]
    return []


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def matches_type(value: Any, kind: str) -> bool:
    if kind == "number":
        return _is_number(value)
    if kind == "integer":
        return _is_number(value) and math.isfinite(value) and float(value).is_integer()
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if kind == "null":
        return value is None
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    return False


def _parse_number(text: str) -> int | float | None:
    stripped = text.strip()
    if not _js_number().match(stripped):
        return None
    number = float(stripped)
    if not math.isfinite(number):
        return None
    if number.is_integer() and abs(number) < 2**53:
        return int(number)
    return number


def _js_string(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def _coerce_primitive(value: Any, kind: str) -> Any:
    if kind in ("number", "integer"):
        if value is None:
            return 0
        if isinstance(value, bool):
            return 1 if value else 0
        if isinstance(value, str) and value.strip():
            parsed = _parse_number(value)
            if parsed is not None and (kind == "number" or float(parsed).is_integer()):
                return parsed
        return value
    if kind == "boolean":
        if value is None:
            return False
        if value in ("true", "false") and isinstance(value, str):
            return value == "true"
        if _is_number(value) and value in (0, 1):
            return value == 1
        return value
    if kind == "string":
        if value is None:
            return ""
        if _is_number(value) or isinstance(value, bool):
            return _js_string(value)
        return value
    if kind == "null" and (value == "" or (value is not None and value in (0, False))):
        return None
    return value


def _coerce_union(value: Any, schemas: list[Any]) -> Any:
    for schema in schemas:
        if not isinstance(schema, dict):
            continue
        candidate = coerce(copy.deepcopy(value), schema)
        if not schema_errors(candidate, schema):
            return candidate
    return value


def coerce(value: Any, schema: Any) -> Any:
    """pi's coercion of ``value`` towards ``schema`` (objects and lists are changed in place)."""
    if not isinstance(schema, dict):
        return value
    for nested in schema.get("allOf") or []:
        value = coerce(value, nested)
    for union in ("anyOf", "oneOf"):
        if isinstance(schema.get(union), list):
            value = _coerce_union(value, schema[union])
    kinds = _types(schema)
    matches_member = len(kinds) > 1 and any(matches_type(value, k) for k in kinds)
    if kinds and not matches_member:
        for kind in kinds:
            candidate = _coerce_primitive(value, kind)
            if candidate is not value:
                value = candidate
                break
    if "object" in kinds and isinstance(value, dict):
        properties = schema.get("properties") or {}
        for key, sub_schema in properties.items():
            if key in value:
                value[key] = coerce(value[key], sub_schema)
        extra_schema = schema.get("additionalProperties")
        if isinstance(extra_schema, dict):
            for key in value:
                if key not in properties:
                    value[key] = coerce(value[key], extra_schema)
    if "array" in kinds and isinstance(value, list):
        items = schema.get("items")
        for index in range(len(value)):
            item_schema = items[index] if isinstance(items, list) and index < len(items) else items
            if isinstance(item_schema, dict):
                value[index] = coerce(value[index], item_schema)
    return value


# --- checking -----------------------------------------------------------------------------


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _number_text(value: Any) -> str:
    return _js_string(value)


def schema_errors(value: Any, schema: Any, path: str = "") -> list[tuple[str, str]]:
    """All ``(path, message)`` violations of ``value`` against ``schema`` (pi's wording)."""
    if schema is False:
        return [(path, "schema is false")]
    if not isinstance(schema, dict):
        return []
    errors: list[tuple[str, str]] = []
    kinds = _types(schema)
    if kinds and not any(matches_type(value, k) for k in kinds):
        expected = kinds[0] if len(kinds) == 1 else "either " + " or ".join(kinds)
        return [(path, f"must be {expected}")]
    for nested in schema.get("allOf") or []:
        errors += schema_errors(value, nested, path)
    for union, word in (("anyOf", "a schema in anyOf"), ("oneOf", "exactly one schema in oneOf")):
        options = schema.get(union)
        if isinstance(options, list):
            results = [schema_errors(value, option, path) for option in options]
            passing = sum(1 for r in results if not r)
            if passing == 0 or (union == "oneOf" and passing > 1):
                errors += [e for r in results for e in r] + [(path, f"must match {word}")]
    if "enum" in schema and value not in schema["enum"]:
        errors.append((path, "must be equal to one of the allowed values"))
    if "const" in schema and value != schema["const"]:
        errors.append((path, "must be equal to constant"))
    if _is_number(value):
        errors += _number_errors(value, schema, path)
    if isinstance(value, str):
        errors += _string_errors(value, schema, path)
    if isinstance(value, list):
        errors += _array_errors(value, schema, path)
    if isinstance(value, dict):
        errors += _object_errors(value, schema, path)
    return errors


def _number_errors(value: Any, schema: dict[str, Any], path: str) -> list[tuple[str, str]]:
    bounds = (
        ("minimum", ">=", value.__lt__),
        ("maximum", "<=", value.__gt__),
        ("exclusiveMinimum", ">", value.__le__),
        ("exclusiveMaximum", "<", value.__ge__),
    )
    errors = []
    for keyword, operator, violates in bounds:
        limit = schema.get(keyword)
        if _is_number(limit) and violates(limit):
            errors.append((path, f"must be {operator} {_number_text(limit)}"))
    return errors


def _string_errors(value: str, schema: dict[str, Any], path: str) -> list[tuple[str, str]]:
    errors = []
    if isinstance(schema.get("minLength"), int) and len(value) < schema["minLength"]:
        errors.append((path, f"must not have fewer than {schema['minLength']} characters"))
    if isinstance(schema.get("maxLength"), int) and len(value) > schema["maxLength"]:
        errors.append((path, f"must not have more than {schema['maxLength']} characters"))
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and re.search(pattern, value) is None:
        errors.append((path, f'must match pattern "{pattern}"'))
    return errors


def _array_errors(value: list[Any], schema: dict[str, Any], path: str) -> list[tuple[str, str]]:
    errors = []
    if isinstance(schema.get("minItems"), int) and len(value) < schema["minItems"]:
        errors.append((path, f"must not have fewer than {schema['minItems']} items"))
    if isinstance(schema.get("maxItems"), int) and len(value) > schema["maxItems"]:
        errors.append((path, f"must not have more than {schema['maxItems']} items"))
    if schema.get("uniqueItems") is True:
        seen = [json.dumps(item, sort_keys=True) for item in value]
        if len(set(seen)) != len(seen):
            errors.append((path, "must not have duplicate items"))
    items = schema.get("items")
    for index, item in enumerate(value):
        item_schema = items[index] if isinstance(items, list) and index < len(items) else items
        if isinstance(item_schema, dict | bool):
            errors += schema_errors(item, item_schema, _join(path, index))
    return errors


def _object_errors(
    value: dict[str, Any], schema: dict[str, Any], path: str
) -> list[tuple[str, str]]:
    errors = []
    required = [key for key in schema.get("required") or [] if key not in value]
    if required:
        errors.append(
            (_join(path, required[0]), "must have required properties " + ", ".join(required))
        )
    properties = schema.get("properties") or {}
    extra_schema = schema.get("additionalProperties", True)
    if extra_schema is not True:
        extra_errors = [
            e
            for key in value
            if key not in properties
            for e in schema_errors(value[key], extra_schema, _join(path, key))
        ]
        if extra_errors:
            errors += extra_errors + [(path, "must not have additional properties")]
    for key, sub_schema in properties.items():
        if key in value:
            errors += schema_errors(value[key], sub_schema, _join(path, key))
    return errors


@hookimpl(trylast=True)
def tool_arguments_validator() -> Any:
    return validate_tool_arguments


__all__ = ["ToolArgumentsError", "coerce", "schema_errors", "validate_tool_arguments"]
