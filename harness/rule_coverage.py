"""Which tests pin which rule of docs/rules.md, read from the ``@pytest.mark.rule(...)`` markers.

A test that pins a rule carries ``@pytest.mark.rule("TT-11")`` (several ids allowed, on a test
function, a test class or a module's ``pytestmark``). This module reads every id defined in
docs/rules.md (its ``### ID Title`` headings) and scans tests/**/*.py with ``ast`` (nothing is
imported or run), so ``tests/test_rule_coverage.py`` can fail on a rule without a marked test, on
a marker naming an id docs/rules.md does not define, and on a stale docs/rules-coverage.md.

    python -m harness.rule_coverage            # rewrite docs/rules-coverage.md
    python -m harness.rule_coverage --check    # exit 1 if it is out of date or a rule is uncovered
    python -m harness.rule_coverage --modules  # print "rule id -> engine modules citing it"
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from api.docs.rules_doc import all_rules, parse_rules

REPO_ROOT = Path(__file__).resolve().parent.parent
TESTS = REPO_ROOT / "tests"
ENGINE = REPO_ROOT / "engine"
COVERAGE = REPO_ROOT / "docs" / "rules-coverage.md"
REGENERATE_COMMAND = "python -m harness.rule_coverage"

_ID = re.compile(r"\b(?:GFF|TT|T13|C)-\d+\b")
_ID_KEY = re.compile(r"^([A-Z][A-Z0-9]*?)-(\d+)$")


@dataclass(frozen=True, slots=True)
class Rule:
    """One entry of docs/rules.md: its id (``TT-11``) and title (``Tunking out``)."""

    id: str
    title: str


@dataclass(frozen=True, slots=True)
class Marker:
    """One ``pytest.mark.rule(...)`` found in a test file.

    ``test`` is the node it decorates as pytest names it (``tests/x.py::TestA::test_b``, or the
    file alone for a module-level ``pytestmark``); ``ids`` are its string arguments; ``bad`` lists
    arguments that are not string literals (the scan cannot read them, so they count as errors).
    """

    test: str
    ids: tuple[str, ...]
    line: int
    bad: tuple[str, ...] = ()


def rule_order(rule_id: str) -> tuple[int, int, str]:
    """Sort key: the games in docs/rules.md order (C, GFF, TT, T13), then the number."""
    match = _ID_KEY.match(rule_id)
    if match is None:
        return (99, 0, rule_id)
    prefix, number = match.groups()
    order = {"C": 0, "GFF": 1, "TT": 2, "T13": 3}
    return (order.get(prefix, 98), int(number), rule_id)


def defined_rules(text: str | None = None) -> list[Rule]:
    """Every entry of docs/rules.md, in page order, read by the service's own parser."""
    entries = all_rules() if text is None else parse_rules(text)
    return [Rule(entry.id, entry.title) for entry in entries]


def _is_rule_marker(node: ast.expr) -> bool:
    """``pytest.mark.rule(...)`` or ``mark.rule(...)`` (after ``from pytest import mark``)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if node.func.attr != "rule":
        return False
    owner = node.func.value
    if isinstance(owner, ast.Name):
        return owner.id == "mark"
    return (
        isinstance(owner, ast.Attribute)
        and owner.attr == "mark"
        and isinstance(owner.value, ast.Name)
        and owner.value.id == "pytest"
    )


def _marker(node: ast.Call, test: str) -> Marker:
    ids: list[str] = []
    bad: list[str] = []
    for arg in node.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            ids.append(arg.value)
        else:
            bad.append(ast.unparse(arg))
    bad.extend(f"{kw.arg}={ast.unparse(kw.value)}" for kw in node.keywords)
    if not node.args:
        bad.append("(no rule id)")
    return Marker(test, tuple(ids), node.lineno, tuple(bad))


def _module_marks(tree: ast.Module, name: str) -> Iterator[Marker]:
    """Markers in a module-level ``pytestmark = ...`` (one marker or a list of them)."""
    for stmt in tree.body:
        if not isinstance(stmt, ast.Assign):
            continue
        if not any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets):
            continue
        values = stmt.value.elts if isinstance(stmt.value, ast.List | ast.Tuple) else [stmt.value]
        for value in values:
            if _is_rule_marker(value):
                assert isinstance(value, ast.Call)
                yield _marker(value, name)


def _walk(body: list[ast.stmt], prefix: str) -> Iterator[Marker]:
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            node_id = f"{prefix}::{stmt.name}"
            for decorator in stmt.decorator_list:
                if _is_rule_marker(decorator):
                    assert isinstance(decorator, ast.Call)
                    yield _marker(decorator, node_id)
            if isinstance(stmt, ast.ClassDef):
                yield from _walk(stmt.body, node_id)


def markers_in(path: Path, root: Path = REPO_ROOT) -> list[Marker]:
    """Every rule marker of one test file, with pytest-style node ids relative to ``root``."""
    name = path.relative_to(root).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [*_module_marks(tree, name), *_walk(tree.body, name)]


def all_markers(tests: Path = TESTS) -> list[Marker]:
    """The rule markers of every ``*.py`` file under tests/, in path order."""
    found: list[Marker] = []
    for path in sorted(tests.rglob("*.py")):
        found.extend(markers_in(path))
    return found


def tests_by_rule(markers: list[Marker]) -> dict[str, list[str]]:
    """Rule id -> the marked tests that pin it (node ids, in file order)."""
    table: dict[str, list[str]] = {}
    for marker in markers:
        for rule_id in marker.ids:
            table.setdefault(rule_id, []).append(marker.test)
    return table


def uncovered(rules: list[Rule], markers: list[Marker]) -> list[str]:
    """Ids defined in docs/rules.md that no marked test pins."""
    table = tests_by_rule(markers)
    return [rule.id for rule in rules if not table.get(rule.id)]


def unknown(rules: list[Rule], markers: list[Marker]) -> list[str]:
    """``test: id`` for each marker argument that is not an id docs/rules.md defines."""
    known = {rule.id for rule in rules}
    problems = [
        f"{m.test}: {rule_id}" for m in markers for rule_id in m.ids if rule_id not in known
    ]
    problems.extend(f"{m.test}: {arg}" for m in markers for arg in m.bad)
    return problems


def coverage_page(rules: list[Rule], markers: list[Marker]) -> str:
    """docs/rules-coverage.md: for each rule, the test files holding tests that pin it."""
    table = tests_by_rule(markers)
    lines = [
        "# Which tests pin which rule",
        "",
        f"Generated by `{REGENERATE_COMMAND}` from the `@pytest.mark.rule(...)` markers",
        "of the tests; `tests/test_rule_coverage.py` fails when a rule of [rules.md](rules.md) has",
        "no marked test, when a marker names an id that page does not define, or when this page is",
        "out of date.",
        "Each file listed holds the number of marked tests shown in brackets.",
        "",
        "| Rule | Title | Tests (marked tests per file) |",
        "| --- | --- | --- |",
    ]
    for rule in rules:
        files: dict[str, int] = {}
        for test in table.get(rule.id, []):
            path = test.split("::", 1)[0]
            files[path] = files.get(path, 0) + 1
        cell = "<br>".join(f"`{path}` ({count})" for path, count in sorted(files.items()))
        anchor = f"rules.md#{rule.id.lower()}-{_slug(rule.title)}"
        lines.append(f"| [{rule.id}]({anchor}) | {rule.title} | {cell or '**none**'} |")
    return "\n".join(lines) + "\n"


def _slug(title: str) -> str:
    """GitHub's heading anchor for a title (lower case, punctuation dropped, spaces to -)."""
    kept = re.sub(r"[^\w\- ]", "", title.lower())
    return kept.replace(" ", "-")


def engine_modules(rules: list[Rule], engine: Path = ENGINE) -> dict[str, list[str]]:
    """Rule id -> the engine modules (``.py`` and ``.c``) whose text cites it."""
    found: dict[str, list[str]] = {rule.id: [] for rule in rules}
    paths = sorted([*engine.rglob("*.py"), *engine.rglob("*.c")])
    for path in paths:
        cited = set(_ID.findall(path.read_text(encoding="utf-8")))
        for rule_id in found:
            if rule_id in cited:
                found[rule_id].append(path.relative_to(REPO_ROOT).as_posix())
    return found


def main(argv: list[str] | None = None) -> int:
    """Rewrite docs/rules-coverage.md, check it (``--check``) or list modules (``--modules``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if anything is out of date")
    parser.add_argument("--modules", action="store_true", help="print rule id -> engine modules")
    args = parser.parse_args(argv)
    rules = defined_rules()
    if args.modules:
        for rule_id, paths in engine_modules(rules).items():
            print(f"{rule_id}: {' '.join(paths)}")
        return 0
    markers = all_markers()
    page = coverage_page(rules, markers)
    problems = [f"no marked test pins {rule_id}" for rule_id in uncovered(rules, markers)]
    problems += [f"unknown rule id in a marker: {p}" for p in unknown(rules, markers)]
    if args.check:
        current = COVERAGE.read_text(encoding="utf-8") if COVERAGE.exists() else ""
        if current != page:
            problems.append(f"{COVERAGE} is out of date; run `{REGENERATE_COMMAND}`")
    else:
        COVERAGE.write_text(page, encoding="utf-8")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
