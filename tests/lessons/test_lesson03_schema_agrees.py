"""The schema function lesson 03's solved lab builds by hand agrees with `wirelab.tools.function_schema`.

The lab's cells that define `hint_schema`, `arg_descriptions` and `schema_of`
are taken from the solution notebook as they are and run in a namespace of
their own, so this test follows the notebook whenever it changes.
"""

import inspect
import re
import typing
from pathlib import Path
from typing import Literal

import nbformat
import pytest

from wirelab.tools import function_schema

SOLUTION = Path(__file__).resolve().parents[2] / "solutions" / "03_describing_tools_lab.ipynb"
DEFINES = ("JSON_TYPES =", "def arg_descriptions", "def schema_of")


def lab_schema_of():
    cells = [
        c.source
        for c in nbformat.read(SOLUTION, as_version=4).cells
        if c.cell_type == "code" and any(d in c.source for d in DEFINES)
    ]
    assert len(cells) == len(DEFINES), f"expected one cell for each of {DEFINES}, found {len(cells)}"
    namespace = {"inspect": inspect, "re": re, "typing": typing, "Literal": Literal}
    for source in cells:
        exec(compile(source, str(SOLUTION), "exec"), namespace)
    return namespace["schema_of"]


def no_parameters() -> None:
    """Nothing to fill in."""


def every_kind(
    name: str,
    count: int,
    ratio: float = 0.5,
    strict: bool = True,
    mode: Literal["a", "b"] = "a",
    tags: list[str] | None = None,
    sizes: list[int] | None = None,
    note: str | None = None,
) -> None:
    """All the hints the lab handles.

    Args:
        name: A name, e.g. "Ann".
        count: How many.
        ratio: A share between 0 and 1.
        strict: Whether to be strict.
        mode: One of two modes.
        tags: Labels.
        sizes: Sizes in cm.
    """


def numbers_enum(level: Literal[1, 2, 3] = 2) -> None:
    """An integer enum.

    Args:
        level: How loud.
    """


@pytest.mark.parametrize("fn", [no_parameters, every_kind, numbers_enum], ids=lambda f: f.__name__)
def test_the_labs_schema_of_agrees_with_the_package(fn):
    assert lab_schema_of()(fn) == function_schema(fn)
