"""Parsing shared by both decks' notations: a list of card texts, each through one parser."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from engine.core.errors import CardError

T = TypeVar("T")


def parse_each(parse: Callable[[str], T], texts: Iterable[str]) -> tuple[T, ...]:
    """Parse each text with ``parse``; a CardError is re-raised naming the bad one's position."""
    out: list[T] = []
    for i, text in enumerate(texts):
        try:
            out.append(parse(text))
        except CardError as exc:
            raise CardError(exc.message, field=f"[{i}]") from None
    return tuple(out)
