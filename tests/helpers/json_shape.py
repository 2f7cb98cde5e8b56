"""Checking a JSON document against a JSON Schema of the small subset the API's OpenAPI
document uses (``type``, ``required``, ``properties``, ``additionalProperties``, ``items``,
``anyOf``, ``enum``, ``const``, ``minimum``, ``$ref`` into ``#/components/schemas/``).

Owns: ``problems`` (every place where a document does not fit its schema, as
``path: what``; empty when it fits).  A keyword outside the subset is itself a problem, so
a schema that grows past what is checked here fails loudly instead of passing unchecked.

May import: the standard library.
"""

from __future__ import annotations

from typing import Any

KNOWN = {"type", "required", "properties", "additionalProperties", "items", "anyOf",
         "enum", "const", "minimum", "maximum", "default", "$ref", "description"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, TYPES[kind])


def problems(doc: Any, schema: dict[str, Any], components: dict[str, Any],
             path: str = "$") -> list[str]:
    out: list[str] = []
    unknown = set(schema) - KNOWN
    if unknown:
        return [f"{path}: schema keywords not checked here: {sorted(unknown)}"]
    if "$ref" in schema:
        name = str(schema["$ref"]).removeprefix("#/components/schemas/")
        if name not in components:
            return [f"{path}: unresolved $ref {schema['$ref']}"]
        return problems(doc, components[name], components, path)
    if "anyOf" in schema:
        if all(problems(doc, s, components, path) for s in schema["anyOf"]):
            out.append(f"{path}: fits none of anyOf")
        return out
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if not any(_is(doc, k) for k in kinds):
            return [f"{path}: {type(doc).__name__} is not {kinds}"]
    if "const" in schema and doc != schema["const"]:
        out.append(f"{path}: {doc!r} is not {schema['const']!r}")
    if "enum" in schema and doc not in schema["enum"]:
        out.append(f"{path}: {doc!r} not in {schema['enum']}")
    if "minimum" in schema and isinstance(doc, int) and doc < schema["minimum"]:
        out.append(f"{path}: {doc} < {schema['minimum']}")
    if isinstance(doc, dict):
        out += [f"{path}: lacks {k!r}" for k in schema.get("required", []) if k not in doc]
        props = schema.get("properties", {})
        for k, v in doc.items():
            if k in props:
                out += problems(v, props[k], components, f"{path}.{k}")
            elif isinstance(schema.get("additionalProperties"), dict):
                out += problems(v, schema["additionalProperties"], components,
                                f"{path}.{k}")
            elif "properties" in schema:
                out.append(f"{path}: {k!r} is not described")
    if isinstance(doc, list) and "items" in schema:
        for i, v in enumerate(doc):
            out += problems(v, schema["items"], components, f"{path}[{i}]")
    return out
