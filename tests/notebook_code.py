"""Read the notebook cells the package must agree with: one marker, one reader.

A lesson's code cell that builds by hand what the package provides opens with a marker
comment naming the package object it must agree with (d2l's `#@save` is the model):

    # @reference wirelab.loop.run_tool_loop
    def run_loop(llm, messages, tools, functions, *, model, max_steps=5):
        ...

In a `%%writefile` cell the marker is the line after the magic. The tests in
tests/lessons/ take the marked cells from the saved notebook, run them here and compare
them with the package, so they follow the notebook whenever it changes.
`tests/lessons/test_notebook_code.py` checks that every marker names a real package object.

Running marked cells (`load_references`): first every top-level import of the notebook's
code cells (a reference cell may use a module an earlier cell imported), then the marked
cells in order, each without its top-level expression statements (the call a cell ends
with to show its result is a demonstration, not a definition).
"""

from __future__ import annotations

import ast
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

MARKER = "# @reference "
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class ReferenceCell:
    """One marked cell: what it must agree with, and its code (the magic and marker lines removed)."""

    notebook: Path
    index: int
    target: str
    source: str
    writefile: str | None  # the file a `%%writefile` cell writes to, else None


def reference_cells(notebook: Path, target: str | None = None) -> list[ReferenceCell]:
    """The marked code cells of `notebook` in order, or only those marked `target`."""
    found = []
    for index, cell in enumerate(nbformat.read(notebook, as_version=4).cells):
        if cell.cell_type != "code":
            continue
        lines = cell.source.splitlines()
        magic = lines[0] if lines and lines[0].startswith("%%writefile") else None
        marker_at = 1 if magic else 0
        if len(lines) <= marker_at or not lines[marker_at].startswith(MARKER):
            continue
        named = lines[marker_at].removeprefix(MARKER).strip()
        if target is None or named == target:
            writefile = magic.split()[-1] if magic else None
            source = "\n".join(lines[marker_at + 1 :]) + "\n"
            found.append(ReferenceCell(notebook, index, named, source, writefile))
    return found


def notebook_imports(notebook: Path) -> list[ast.stmt]:
    """Every top-level import statement of the notebook's code cells (magics left out)."""
    imports: list[ast.stmt] = []
    for cell in nbformat.read(notebook, as_version=4).cells:
        if cell.cell_type != "code" or cell.source.lstrip().startswith(("%", "!")):
            continue
        try:
            body = ast.parse(cell.source).body
        except SyntaxError:  # top-level await, IPython syntax: not a cell to import from
            continue
        imports += [node for node in body if isinstance(node, ast.Import | ast.ImportFrom)]
    return imports


def load_references(notebook: Path, target: str | None = None) -> dict[str, Any]:
    """Run the notebook's imports and its marked cells (or those marked `target`); the namespace."""
    cells = reference_cells(notebook, target)
    if not cells:
        raise LookupError(f"{notebook.name} has no cell marked {MARKER.strip()} {target or ''}".rstrip())
    namespace: dict[str, Any] = {}
    exec(compile(ast.Module(notebook_imports(notebook), []), notebook.name, "exec"), namespace)
    for cell in cells:
        body = [node for node in ast.parse(cell.source).body if not isinstance(node, ast.Expr)]
        exec(compile(ast.Module(body, []), f"{notebook.name}, cell {cell.index}", "exec"), namespace)
    return namespace


def write_references(notebook: Path, folder: Path) -> list[Path]:
    """Write the marked `%%writefile` cells to `folder` as the notebook does (appending with -a)."""
    written: dict[str, list[str]] = {}
    for cell in reference_cells(notebook):
        if cell.writefile:
            written.setdefault(cell.writefile, []).append(cell.source)
    paths = []
    for name, parts in written.items():
        path = folder / name
        path.write_text("\n".join(parts), encoding="utf-8")
        paths.append(path)
    return paths


def resolve(target: str) -> object:
    """The package object a marker names: the longest importable module, then attributes."""
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return value
    raise ModuleNotFoundError(target)
