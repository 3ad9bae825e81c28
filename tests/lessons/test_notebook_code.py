"""The reference markers: each names a real package object, and the reader reads them right."""

from pathlib import Path

import nbformat
import pytest

from tests.notebook_code import MARKER, ROOT, load_references, reference_cells, resolve, write_references

MARKED = {
    "notebooks/02_the_six_step_loop.ipynb": {"wirelab.loop.run_tool_loop", "wirelab.loop.accumulate_stream"},
    "solutions/03_describing_tools_lab.ipynb": {"wirelab.tools.function_schema"},
    "notebooks/07_jsonrpc_from_scratch.ipynb": {
        "wirelab.jsonrpc.error_response",
        "wirelab.jsonrpc.receive",
        "wirelab.jsonrpc.validate",
        "wirelab.jsonrpc.Dispatcher",
    },
    "notebooks/08_mcp_server_over_stdio.ipynb": {"wirelab.mcp.server.Server"},
    "notebooks/09_resources_and_prompts.ipynb": {
        "wirelab.mcp.server.ServerResourceTemplate.match",
        "wirelab.mcp.server.Server.prompt",
    },
    "notebooks/10_mcp_client_and_host.ipynb": {"wirelab.mcp.host.openai_tool_spec"},
    "notebooks/16_the_official_sdk.ipynb": {"wirelab.mcp.example.build_server"},
}
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_marker_names_a_package_object(notebook):
    for cell in reference_cells(notebook):
        assert cell.target.startswith("wirelab."), f"{notebook.name} cell {cell.index}: {cell.target}"
        resolve(cell.target)  # raises, naming the target, when the package has no such object


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_marker_is_only_ever_the_first_line_of_a_cell(notebook):
    """A marker further down would be silently ignored by the reader."""
    for index, cell in enumerate(nbformat.read(notebook, as_version=4).cells):
        lines = cell.source.splitlines()
        first = 1 if lines and lines[0].startswith("%%writefile") else 0
        later = [line for line in lines[first + 1 :] if line.startswith(MARKER)]
        assert not later, f"{notebook.name} cell {index}: marker not on the first line"


@pytest.mark.parametrize(("notebook", "targets"), MARKED.items())
def test_the_lessons_that_build_package_code_mark_it(notebook, targets):
    assert {cell.target for cell in reference_cells(ROOT / notebook)} == targets


def notebook_with(tmp_path: Path, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    path = tmp_path / "demo.ipynb"
    nbformat.write(nb, path)
    return path


def test_the_reader_runs_imports_then_marked_cells_without_their_displays(tmp_path):
    path = notebook_with(
        tmp_path,
        "import json\nprint('not a reference')",
        "# @reference wirelab.jsonrpc.request\ndef dumps(x):\n    return json.dumps(x)\n\ndumps(undefined)",
        "shown = 1",
    )
    namespace = load_references(path)
    assert namespace["dumps"]({"a": 1}) == '{"a": 1}' and "shown" not in namespace


def test_the_reader_writes_marked_writefile_cells_in_order(tmp_path):
    path = notebook_with(
        tmp_path,
        "%%writefile tiny.py\n# @reference wirelab.mcp.server.Server\nA = 1",
        "%%writefile -a tiny.py\n# @reference wirelab.mcp.server.Server\nB = A + 1",
        "%%writefile other.py\nC = 3",
    )
    (written,) = write_references(path, tmp_path)
    assert written.read_text() == "A = 1\n\nB = A + 1\n"


def test_a_notebook_without_the_marker_asked_for_is_an_error(tmp_path):
    path = notebook_with(tmp_path, "x = 1")
    with pytest.raises(LookupError, match="no cell marked # @reference wirelab.loop"):
        load_references(path, "wirelab.loop")


def test_resolve_finds_modules_and_attributes():
    import wirelab.loop

    assert resolve("wirelab.loop") is wirelab.loop
    assert resolve("wirelab.loop.run_tool_loop") is wirelab.loop.run_tool_loop
    with pytest.raises(AttributeError):
        resolve("wirelab.loop.no_such_thing")
