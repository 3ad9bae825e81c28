"""The lab generator turns solution regions into stubs and nothing else."""

import importlib.util
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location(
    "make_labs", Path(__file__).resolve().parents[2] / "scripts" / "make_labs.py"
)
make_labs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_labs)


def test_a_solution_region_becomes_a_stub_with_its_hint_at_the_same_indentation():
    source = (
        "def area(r):\n"
        "    ### BEGIN SOLUTION: multiply pi by r squared\n"
        "    return 3.14159 * r * r\n"
        "    ### END SOLUTION\n"
    )
    assert make_labs.stub(source) == (
        "def area(r):\n    raise NotImplementedError('multiply pi by r squared')\n"
    )


def test_code_outside_regions_is_kept_and_two_regions_both_become_stubs():
    source = (
        "x = 1\n### BEGIN SOLUTION\ny = 2\n### END SOLUTION\nz = 3\n"
        "### BEGIN SOLUTION: w\nw = 4\n### END SOLUTION\n"
    )
    assert make_labs.stub(source) == (
        "x = 1\nraise NotImplementedError('write this part')\nz = 3\nraise NotImplementedError('w')\n"
    )


def test_an_unclosed_region_is_an_error_not_a_silent_leak_of_the_solution():
    with pytest.raises(ValueError, match="unbalanced"):
        make_labs.stub("### BEGIN SOLUTION\nsecret = 42\n")


def test_from_the_first_exercise_on_every_lab_cell_may_raise_so_run_all_goes_on():
    solution = make_labs.nbformat.v4.new_notebook(
        cells=[
            make_labs.nbformat.v4.new_code_cell("import json"),
            make_labs.nbformat.v4.new_code_cell(
                "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"
            ),
            make_labs.nbformat.v4.new_code_cell("f()"),
        ]
    )
    lab = make_labs.lab_from_solution(solution)
    tags = [cell.metadata.get("tags", []) for cell in lab.cells]
    assert tags == [[], ["raises-exception"], ["raises-exception"]]
    assert all("tags" not in cell.metadata for cell in solution.cells)
