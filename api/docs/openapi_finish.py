"""Finishing touches that make the generated OpenAPI document good for client generators.

flask-smorest writes the document from the schemas; :func:`finish_spec` then adds what the
schemas cannot say on their own, always derived from the code (never typed in twice):

- an ``operationId`` per operation (``gffMelds``, ``ttKnock``, ``t13Settle``, ``listGames``...);
- one shared ``rules`` component per game (``GffRules``, ``TtRules``, ``T13Rules``) instead of a
  copy inline in every request;
- enums for closed sets of strings (meld ``kind``, ``suit``, ``rank``, outcome kinds, ``shape``);
- real response examples: each operation's first request example answered by the app itself
  (``api/docs/openapi_examples.json``, regenerated with the document by ``python -m
  api.docs.openapi``);
- documented response headers (``X-Request-ID``, ``X-Cache``, ``Retry-After``, ``ETag``);
- a relative ``servers`` entry (``/``: the origin serving the document), and no component schema
  that nothing refers to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from api.docs.rules_doc import RULE_URL_TEMPLATE
from engine.core.cards import RANK_NAMES, SUIT_LETTERS
from engine.games.tt.play import TUNK_SHAPES

RULES_NOTE = (
    "Every rule id an answer cites (`rule`, or an id in a description or explanation) resolves "
    "at `/v1/rules/{id}` (`GET /v1/rules` lists them all); check-my-arrangement verdicts also "
    "carry the link as `rule_url`."
)
EXAMPLES_PATH = Path(__file__).resolve().parent / "openapi_examples.json"
SERVERS = [
    {
        "url": "/",
        "description": "The service that serves this document, on whatever host and port it "
        'answers (relative, so `/docs` "Try it out" calls the origin the page came from).',
    },
]
PATH_PARAMETER_EXAMPLES = {"rule_id": "GFF-10"}
"""Example values of path parameters (documented, and used by the README and client tests)."""
_GAME_PREFIX = {"game-flip-flop": "gff", "triple-tunk": "tt", "three-thirteen": "t13"}
_FIXED_IDS = {
    ("get", "/healthz"): "getHealth",
    ("get", "/readyz"): "getReadiness",
    ("get", "/v1/games"): "listGames",
}
_RULES_COMPONENT = {
    "side_pot_fallback": "GffRules",
    "early_tunk_totals": "TtRules",
    "aces": "T13Rules",
}
_GFF_OUTCOMES = ["early_win", "drop", "tunk_out", "go_out", "stock_exhausted"]
_RANKS = list(RANK_NAMES)
_SUITS = list(SUIT_LETTERS)
# (schema name suffix, property) -> allowed values; None is added for nullable properties.
_ENUMS: dict[tuple[str, str], list[str]] = {
    ("Meld", "kind"): ["set", "run"],
    ("Meld", "rank"): _RANKS,
    ("Meld", "low"): _RANKS,
    ("Meld", "high"): _RANKS,
    ("Meld", "suit"): _SUITS,
    ("GffGoingOut", "kind"): ["tunk_out", "go_out"],
    ("TtGoingOut", "shape"): list(TUNK_SHAPES),
    ("SidePotOut", "suit"): _SUITS,
    ("GffPotOut", "name"): ["game", "fifty", "flip", "flop"],
    ("ExtraPaymentOut", "reason"): ["fifty", "caught", "tunk_out"],
    ("GffSettleResponse", "outcome"): _GFF_OUTCOMES,
    ("TtSettleResponse", "outcome"): ["knock", "tunk_out"],
    ("DrawResponse", "choice"): ["discard_pile", "stock"],
    ("CacheState", "backend"): ["redis", "memory"],
    ("CacheState", "state"): ["up", "down", "open-circuit"],
    ("DeckOut", "kind"): ["standard", "triple-topper"],
}
_HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-ID": {
        "description": "The request's id: the client's own `X-Request-ID` when it sent a sane "
        "one, else the trace id of its `traceparent`, else a new one. Also in the logs.",
        "schema": {"type": "string"},
    },
    "X-Cache": {
        "description": "`HIT` (served from the cache), `MISS` (computed and stored) or "
        "`BYPASS` (computed; the cache was unavailable).",
        "schema": {"type": "string", "enum": ["HIT", "MISS", "BYPASS"]},
    },
    "Retry-After": {
        "description": "On 429 and 503 answers: seconds to wait before sending again.",
        "schema": {"type": "integer"},
    },
    "ETag": {
        "description": "Tag of this version of the document; send it in `If-None-Match` to get "
        "`304 Not Modified` while it is unchanged.",
        "schema": {"type": "string"},
    },
    "Cache-Control": {"description": "`public, max-age=300`.", "schema": {"type": "string"}},
}


def _camel(text: str) -> str:
    head, *rest = text.replace("-", "_").split("_")
    return head + "".join(word.capitalize() for word in rest)


def operation_id(method: str, path: str) -> str:
    """``gffMelds`` for ``POST /v1/games/game-flip-flop/melds``; fixed names elsewhere."""
    parts = path.strip("/").split("/")
    if len(parts) == 4 and parts[:2] == ["v1", "games"] and parts[2] in _GAME_PREFIX:
        return _GAME_PREFIX[parts[2]] + _camel(parts[3])[0].upper() + _camel(parts[3])[1:]
    return _FIXED_IDS.get((method, path)) or _camel(f"{method}_{'_'.join(parts) or 'index'}")


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, op)
        for path, item in doc.get("paths", {}).items()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def _shared_rules(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    for name, schema in list(schemas.items()):
        props = schema.get("properties") or {}
        rules = props.get("rules")
        if not isinstance(rules, dict):
            continue
        inline = rules.get("properties")
        if inline:
            component = _RULES_COMPONENT.get(next(iter(inline)))
            if component is None:
                continue
            if component not in schemas:
                schemas[component] = {
                    "type": "object",
                    "properties": inline,
                    "additionalProperties": False,
                    "description": "House-rule options (see `/v1/rules`); omitted options take "
                    "their defaults.",
                }
        else:  # the `rules` echoed in a settle answer's `next`
            prefix = next((p for p in ("Gff", "Tt", "T13") if name.startswith(p)), None)
            if prefix is None:
                continue
            component = f"{prefix}Rules"
        props["rules"] = {"$ref": f"#/components/schemas/{component}"}


def _enums(doc: dict[str, Any]) -> None:
    for name, schema in doc["components"]["schemas"].items():
        for prop_name, prop in (schema.get("properties") or {}).items():
            for (suffix, field), values in _ENUMS.items():
                if name.endswith(suffix) and prop_name == field and "enum" not in prop:
                    prop["enum"] = [*values, None] if prop.get("nullable") else list(values)


def _headers(doc: dict[str, Any]) -> None:
    components = doc["components"]
    components["headers"] = {name.replace("-", ""): header for name, header in _HEADERS.items()}

    def ref(name: str) -> dict[str, str]:
        return {"$ref": f"#/components/headers/{name.replace('-', '')}"}

    for method, path, op in _operations(doc):
        for status, response in op.get("responses", {}).items():
            if "$ref" in response:
                continue
            headers = response.setdefault("headers", {})
            headers["X-Request-ID"] = ref("X-Request-ID")
            if status == "200" and method == "post" and path.startswith("/v1/games/"):
                headers["X-Cache"] = ref("X-Cache")
            static = path in ("/", "/v1/games", "/v1/rules") or path.startswith("/v1/rules/")
            if status == "200" and method == "get" and static:
                headers["ETag"] = ref("ETag")
                headers["Cache-Control"] = ref("Cache-Control")
    for response in components.get("responses", {}).values():
        headers = response.setdefault("headers", {})
        headers["X-Request-ID"] = ref("X-Request-ID")
        headers["Retry-After"] = ref("Retry-After")


def _examples(doc: dict[str, Any], examples: dict[str, Any]) -> None:
    for method, path, op in _operations(doc):
        body = examples.get(f"{method.upper()} {path}")
        ok = op.get("responses", {}).get("200")
        if body is None or ok is None or "$ref" in ok:
            continue
        content = ok.get("content", {}).get("application/json")
        if content is not None:
            content["example"] = body


def _refs(node: Any, out: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            out.add(ref.rsplit("/", 1)[1])
        for child in node.values():
            _refs(child, out)
    elif isinstance(node, list):
        for child in node:
            _refs(child, out)


def _drop_unused_schemas(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    while True:
        used: set[str] = set()
        _refs({k: v for k, v in doc.items() if k != "components"}, used)
        _refs({k: v for k, v in doc["components"].items() if k != "schemas"}, used)
        for name in list(used):
            _refs(schemas.get(name, {}), used)
        # a second pass picks up schemas only reachable through other schemas
        frontier = set(used)
        while frontier:
            found: set[str] = set()
            for name in frontier:
                _refs(schemas.get(name, {}), found)
            frontier = found - used
            used |= found
        unused = [name for name in schemas if name not in used]
        if not unused:
            return
        for name in unused:
            del schemas[name]


def load_examples() -> dict[str, Any]:
    """The stored response examples (``{}`` before the first generation)."""
    if not EXAMPLES_PATH.exists():
        return {}
    loaded: dict[str, Any] = json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))
    return loaded


def finish_spec(doc: dict[str, Any], examples: dict[str, Any] | None = None) -> dict[str, Any]:
    """Apply every finishing touch to ``doc`` (in place) and return it."""
    doc["servers"] = SERVERS
    info = doc.setdefault("info", {})
    if RULES_NOTE not in info.get("description", ""):
        info["description"] = (info.get("description", "") + "\n\n" + RULES_NOTE).strip()
    info["x-rule-url-template"] = RULE_URL_TEMPLATE
    for method, path, op in _operations(doc):
        op.setdefault("operationId", operation_id(method, path))
    for item in doc.get("paths", {}).values():
        for parameter in item.get("parameters", []):
            if parameter.get("name") in PATH_PARAMETER_EXAMPLES:
                parameter["example"] = PATH_PARAMETER_EXAMPLES[parameter["name"]]
    _shared_rules(doc)
    _enums(doc)
    _headers(doc)
    _examples(doc, load_examples() if examples is None else examples)
    _drop_unused_schemas(doc)
    return doc
