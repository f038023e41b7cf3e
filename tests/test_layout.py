"""The layout keeps its shape: rule facts asked of the Game, files with one job, no import cycles.

Three checks over the source of ``engine/`` and ``api/``: no line outside the game registry
compares a game slug (code asks ``engine.games.find_game`` instead), no module is over 800
lines, and the module import graph (imports inside functions included, since those are how a
cycle hides) has no cycle.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for package in ("engine", "api") for p in (ROOT / package).rglob("*.py"))
REGISTRY = {"engine/games/__init__.py", "engine/games/base.py"}
SLUG_TEST = re.compile(
    r"(==|!=| is | in ) *\(?(GAME_FLIP_FLOP|TRIPLE_TUNK|THREE_THIRTEEN"
    r'|"game-flip-flop"|"triple-tunk"|"three-thirteen")\b'
)
MAX_LINES = 800


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(paths: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the project modules it imports (packages of a dotted import included)."""
    names = {_module_name(p, root): p for p in paths}
    graph: dict[str, set[str]] = {name: set() for name in names}
    for name, path in names.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                targets += [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            parts = target.split(".")
            for k in range(1, len(parts) + 1):  # importing a.b.c runs a and a.b first
                prefix = ".".join(parts[:k])
                if prefix in names and prefix != name and not name.startswith(prefix + "."):
                    graph[name].add(prefix)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_line_outside_the_registry_compares_a_game_slug() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in SOURCES
        if path.relative_to(ROOT).as_posix() not in REGISTRY
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SLUG_TEST.search(line)
    ]
    assert not hits, "ask the Game (engine.games.find_game) instead:\n" + "\n".join(hits)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_module_has_one_job_and_stays_small(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{lines} lines: split the module by job"


def test_no_import_cycle_even_inside_functions() -> None:
    assert cycles(import_graph(SOURCES)) == []


def test_the_cycle_finder_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def later():\n    from pkg.a import x\n")
    graph = import_graph(sorted(package.glob("*.py")), root=tmp_path)
    assert graph["pkg.b"] == {"pkg.a"}  # the import inside later() counts
    assert cycles(graph) == [["pkg.a", "pkg.b"]]
