"""The schema function lesson 03's solved lab builds by hand agrees with `wirelab.tools.function_schema`.

The lab's cells that define `hint_schema`, `arg_descriptions` and `schema_of` are marked
`# @reference wirelab.tools.function_schema`; tests/notebook_code.py runs them from the
solution notebook as they are, so this test follows the notebook whenever it changes.
"""

from pathlib import Path
from typing import Literal

import pytest

from tests.notebook_code import load_references
from wirelab.tools import function_schema

SOLUTION = Path(__file__).resolve().parents[2] / "solutions" / "03_describing_tools_lab.ipynb"


def lab_schema_of():
    """The solved lab's `schema_of`, from its cells marked `# @reference wirelab.tools.function_schema`."""
    return load_references(SOLUTION, "wirelab.tools.function_schema")["schema_of"]


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
