"""No import cycle inside wirelab, and no import against the lesson order.

Every module's imports of wirelab modules form a DAG, and no module imports one that a later
lesson introduces (the order is written down once, in wirelab/lesson_order.toml).

The graph is read from the source with `ast`, so a cycle that happens to import fine today
(thanks to a lazy attribute or import order) is still caught. Counted: every `import` and
`from … import` anywhere in a module, including inside functions (a function-local import
hides a cycle rather than removing it). Not counted: imports under `if TYPE_CHECKING:`, which
never run. The implicit import of a parent package (`wirelab.kb` when importing
`wirelab.kb.index`) is not an edge: a package's `__init__` re-exporting its modules is the
normal shape, not a cycle.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import wirelab

ROOT = Path(wirelab.__file__).resolve().parent


def module_name(path: Path) -> str:
    parts = ("wirelab", *path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, package: str) -> set[str]:
    """Names of wirelab modules imported anywhere under `node`, skipping TYPE_CHECKING blocks."""
    found: set[str] = set()
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.orelse:
                found |= _imports(stmt, package)
            continue
        if isinstance(child, ast.Import):
            found |= {alias.name for alias in child.names}
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from wirelab.kb import index` imports the module wirelab.kb.index.
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in child.names}
        found |= _imports(child, package)
    return {name for name in found if name in MODULES}


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = _imports(ast.parse(path.read_text(encoding="utf-8")), package) - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a list of modules (first == last), or None; depth-first, colouring nodes."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_reader_sees_the_imports():
    graph = import_graph()
    assert "wirelab.kb.corpus" in graph["wirelab.kb.index"]
    assert "wirelab.jsonrpc" in graph["wirelab.mcp.server"] | graph.get("wirelab.mcp.session", set())


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_type_checking_imports_are_not_edges():
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import wirelab.loop\n")
    assert _imports(tree, "wirelab") == set()
    tree = ast.parse("def f():\n    import wirelab.loop\n")
    assert _imports(tree, "wirelab") == {"wirelab.loop"}


def test_the_shared_retrieval_code_sits_below_the_lessons_that_use_it():
    graph = import_graph()
    floor = {name for name in graph if name.startswith("wirelab.retrieval")} | {"wirelab.encoder"}
    for name in floor:
        assert graph[name] <= floor, f"{name} imports upward: {sorted(graph[name] - floor)}"
    lesson06 = graph["wirelab.tool_retrieval"]
    assert "wirelab.retrieval.hybrid" in lesson06, "lesson 06 ranks tools with the shared code"
    assert not {m for m in lesson06 if m.startswith("wirelab.kb")}, "lesson 06 imports lesson 12's package"


def test_no_import_cycle_inside_wirelab():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


FLOOR, TOP = -1, 99  # below every lesson, above every lesson
ORDER = tomllib.loads((ROOT / "lesson_order.toml").read_text(encoding="utf-8"))


def lesson_of(module: str) -> int:
    """The lesson that introduces `module`: the longest name in lesson_order.toml that covers it."""
    places = {name: FLOOR for name in ORDER["floor"]} | {name: TOP for name in ORDER["top"]}
    for lesson, names in ORDER["lessons"].items():
        places |= {name: int(lesson) for name in names}
    covering = [name for name in places if module == name or module.startswith(name + ".")]
    assert covering, f"{module} is in no lesson: add it to wirelab/lesson_order.toml"
    return places[max(covering, key=len)]


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a module that a later lesson introduces, as 'module (lesson) -> module (lesson)'."""
    shown = {FLOOR: "floor", TOP: "top"}
    return [
        f"{name} ({shown.get(lesson_of(name), lesson_of(name))}) -> {used} "
        f"({shown.get(lesson_of(used), lesson_of(used))})"
        for name in sorted(graph)
        for used in sorted(graph[name])
        if lesson_of(used) > lesson_of(name)
    ]


def test_every_module_has_a_lesson():
    for name in MODULES:
        lesson_of(name)


def test_lesson_of_takes_the_longest_name():
    assert lesson_of("wirelab.mcp.auth.client") == 8
    assert lesson_of("wirelab.widgets.inspector") == FLOOR
    assert lesson_of("wirelab.widgets.stepper") == 2
    assert lesson_of("wirelab.mcp.extensions.tasks") == 18
    assert lesson_of("wirelab.check.lesson12") == 12


def test_upward_imports_are_found():
    assert upward_imports({"wirelab.loop": {"wirelab.jsonrpc"}, "wirelab.jsonrpc": set()}) == [
        "wirelab.loop (2) -> wirelab.jsonrpc (7)"
    ]
    assert upward_imports({"wirelab.wire": {"wirelab.llm"}, "wirelab.llm": {"wirelab.wire"}}) == [
        "wirelab.wire (floor) -> wirelab.llm (0)"
    ]


def test_no_module_imports_a_later_lesson():
    upward = upward_imports(import_graph())
    assert not upward, "imports against the lesson order (wirelab/lesson_order.toml): " + "; ".join(upward)
