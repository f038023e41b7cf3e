"""The rules text served by ``/v1/rules``: ``docs/rules.md`` parsed once into entries by id.

Every answer that cites a rule (``"rule": "GFF-10"``) can be resolved through
``RULE_URL_TEMPLATE`` (``/v1/rules/{id}``); ``rule_url`` builds that link. The document's layout
is fixed by its own header: ``## Title `slug``` opens a game, ``### ID Title`` opens an entry, and
the paragraphs up to the next heading are the entry's text. A paragraph starting with
``**House rule**`` names the ``rules`` option that switches the reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

RULES_PATH = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
RULE_URL_TEMPLATE = "/v1/rules/{id}"
"""Where the text of a cited rule id lives (relative to the service's base URL)."""

RULE_ID = re.compile(r"^(?:C|GFF|TT|T13)-[1-9][0-9]*$")
_GAME_HEADING = re.compile(r"^## (?P<title>.+?) `(?P<slug>[a-z0-9-]+)`\s*$")
_RULE_HEADING = re.compile(r"^### (?P<id>[A-Z0-9]+-\d+) (?P<title>.+?)\s*$")
_HOUSE_OPTION = re.compile(r"^\*\*House rule\*\* `(?P<option>[a-z_]+)`")


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One rule of the document: id, game slug (``common`` for C-n), title, text, option."""

    id: str
    game: str
    title: str
    text: str
    house_rule: str | None


def rule_url(rule_id: str) -> str:
    """The path that serves ``rule_id``'s text, e.g. ``/v1/rules/GFF-10``."""
    return RULE_URL_TEMPLATE.format(id=rule_id)


def parse_rules(markdown: str) -> tuple[RuleEntry, ...]:
    """Parse the rules document into entries, in document order.

    :raises ValueError: an entry appears before any game heading or an id appears twice.
    """
    entries: list[RuleEntry] = []
    game: str | None = None
    current: tuple[str, str] | None = None
    body: list[str] = []

    def close() -> None:
        if current is None:
            return
        assert game is not None
        paragraphs = [p.strip() for p in "\n".join(body).split("\n\n") if p.strip()]
        text = "\n\n".join(" ".join(p.split()) for p in paragraphs)
        option = next(
            (m.group("option") for p in paragraphs if (m := _HOUSE_OPTION.match(p))), None
        )
        entries.append(RuleEntry(current[0], game, current[1], text, option))

    for line in markdown.splitlines():
        if line.startswith("## "):
            close()
            current, body = None, []
            match = _GAME_HEADING.match(line)
            game = match.group("slug") if match else None
        elif line.startswith("### "):
            close()
            match = _RULE_HEADING.match(line)
            if match is None or game is None:
                raise ValueError(f"bad rule heading {line!r}")
            current, body = (match.group("id"), match.group("title")), []
        elif current is not None:
            body.append(line)
    close()
    ids = [e.id for e in entries]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"rule ids appear twice: {duplicates}")
    return tuple(entries)


@lru_cache(maxsize=1)
def all_rules() -> tuple[RuleEntry, ...]:
    """The entries of ``docs/rules.md`` (read once per process)."""
    return parse_rules(RULES_PATH.read_text(encoding="utf-8"))


def rules_by_id() -> dict[str, RuleEntry]:
    """``{id: entry}`` for every rule."""
    return {entry.id: entry for entry in all_rules()}
