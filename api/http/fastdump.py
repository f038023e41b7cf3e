"""Marshmallow dumping compiled into plain closures, built once per response schema.

``Schema.dump`` walks every field through several generic method calls per value; for a melds
answer (hundreds of values) that costs as much as the engine. :func:`compile_dumper` reads a
schema's dump fields once and returns a function that builds the same dict, in the same key
order, with the same conversions, for the field types the response schemas use (cards, nested
schemas, lists, dicts, integers, floats, booleans, strings). A field of any other type, or a schema
with dump hooks, is left to marshmallow itself, so the output is always what ``schema.dump``
gives (``tests/api/test_fastdump.py`` compares both on every cached endpoint's answers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields
from marshmallow.utils import missing

from api.schemas.fields import CardField

Converter = Callable[[Any], Any]


def _none_or(convert: Converter) -> Converter:
    return lambda value: None if value is None else convert(value)


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _is(field: fields.Field, cls: type[fields.Field]) -> bool:
    """``field`` serialises exactly like ``cls`` (same ``_serialize``, no string output)."""
    return (
        isinstance(field, cls)
        and type(field)._serialize is cls._serialize
        and not getattr(field, "as_string", False)
    )


def _card_printer(field: CardField) -> Converter:
    """``field``'s dump of one card, memoised per value (a deck has a few dozen names).

    The printer is a pure function of the card int, so a name printed once is reused; a value it
    rejects raises as before and is not remembered.
    """
    printer = field.print_card
    names: dict[Any, str] = {}

    def card(value: Any) -> str | None:
        if value is None:
            return None
        name = names.get(value)
        if name is None:
            name = names[value] = printer(int(value))
        return name

    return card


def _is_card(field: fields.Field) -> bool:
    return isinstance(field, CardField) and type(field)._serialize is CardField._serialize


def _field_converter(field: fields.Field) -> Converter:
    if _is_card(field):
        assert isinstance(field, CardField)
        return _card_printer(field)
    if _is(field, fields.Nested):
        dump = compile_dumper(field.schema)
        if field.many:
            return _none_or(lambda value: [dump(item) for item in value])
        return _none_or(dump)
    if _is(field, fields.List):
        inner = _field_converter(field.inner)
        if _is_card(field.inner):  # a list of cards: one call per card, no wrapper in between
            return lambda value: None if value is None else list(map(inner, value))
        return _none_or(lambda value: [inner(item) for item in value])
    if _is(field, fields.Dict) and field.key_field is not None and field.value_field is not None:
        key, val = _field_converter(field.key_field), _field_converter(field.value_field)
        return _none_or(lambda value: {key(k): val(v) for k, v in value.items()})
    if _is(field, fields.Integer):
        return _none_or(int)
    if _is(field, fields.Float):
        return _none_or(float)
    if _is(field, fields.String):
        return _none_or(_text)
    if _is(field, fields.Boolean):
        return lambda value: value if value is None or value is True or value is False else (
            field._serialize(value, None, None)
        )  # fmt: skip
    return lambda value: field._serialize(value, None, None)


def _inline(field: fields.Field, name: str, value: str) -> str | None:
    """A Python expression dumping ``value`` (a local name) as ``field`` would, with converter
    ``name`` in scope, for the commonest field kinds; None: call the converter."""
    if _is(field, fields.Integer):
        return f"None if {value} is None else int({value})"
    if _is(field, fields.Boolean):
        return None  # non-bool values go through marshmallow's truthy tables: the converter
    if _is(field, fields.String):
        return f"{value} if {value} is None or type({value}) is str else {name}({value})"
    if _is(field, fields.List) and _is_card(field.inner):
        return f"None if {value} is None else list(map({name}_card, {value}))"
    if _is(field, fields.Nested):
        if field.many:
            return f"None if {value} is None else [{name}_nested(x) for x in {value}]"
        return f"None if {value} is None else {name}_nested({value})"
    return None


def compile_dumper(schema: Schema) -> Callable[[Any], dict[str, Any]]:
    """A function equal to ``schema.dump`` for dict input, without marshmallow's per-value cost.

    The function is generated as straight-line code, one ``if`` per dump field in the schema's
    order (no loop over a plan, no per-field default lookups), with integer and card-list
    conversions written inline; every other field calls its compiled converter.
    """
    if schema._hooks.get("pre_dump") or schema._hooks.get("post_dump"):
        return schema.dump  # type: ignore[return-value]
    scope: dict[str, Any] = {"schema_dump": schema.dump}
    lines = [
        "def dump(obj):",
        "    if not isinstance(obj, dict):",
        "        return schema_dump(obj)",
        "    out = {}",
    ]
    for i, (name, field) in enumerate(schema.dump_fields.items()):
        if field.attribute is not None and "." in field.attribute:
            return schema.dump  # type: ignore[return-value]
        attr, key = field.attribute or name, field.data_key or name
        conv = f"c{i}"
        scope[conv] = _field_converter(field)
        scope[f"f{i}"] = field
        if _is(field, fields.List) and _is_card(field.inner):
            scope[f"{conv}_card"] = _card_printer(field.inner)  # type: ignore[arg-type]
        if _is(field, fields.Nested):
            scope[f"{conv}_nested"] = compile_dumper(field.schema)
        expr = _inline(field, conv, "v") or f"{conv}(v)"
        lines += [
            f"    if {attr!r} in obj:",
            f"        v = obj[{attr!r}]",
            f"        out[{key!r}] = {expr}",
        ]
        if field.dump_default is not missing:
            lines += ["    else:", f"        out[{key!r}] = f{i}.serialize({attr!r}, obj)"]
    lines.append("    return out")
    exec(compile("\n".join(lines), f"<dumper {type(schema).__name__}>", "exec"), scope)  # noqa: S102
    dump: Callable[[Any], dict[str, Any]] = scope["dump"]
    return dump
