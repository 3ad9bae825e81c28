"""Every `>>>` example in a wirelab docstring runs and prints what it says.

Collected by `pytest tests` (no `--doctest-modules` flag needed): one test per module that
has examples. `__main__` modules are left out (importing one runs its command line).
Examples marked `# doctest: +SKIP` need a built index or a server and are shown, not run.
Examples are written one way, as `>>>` lines: a `# ->` comment showing a result is never checked.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

import wirelab

PACKAGE = Path(wirelab.__file__).resolve().parent
MODULES = sorted(
    ".".join(("wirelab", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
    for path in PACKAGE.rglob("*.py")
    if path.name != "__main__.py"
)
ARROW_EXAMPLE = re.compile(r"#\s*->")


def examples(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    return [test for test in doctest.DocTestFinder().find(module, name) if test.examples]


def test_the_package_has_examples():
    assert sum(len(t.examples) for name in MODULES for t in examples(name)) >= 40


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in examples(name):
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert failed == 0, f"{failed} of {attempted} examples in {name} failed (see the output above)"


def arrow_examples(paths: list[Path]) -> list[str]:
    """`file:line` of every `# ->` result comment in `paths`."""
    return [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in paths
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ARROW_EXAMPLE.search(line)
    ]


def test_no_docstring_example_shows_its_result_in_an_arrow_comment():
    found = arrow_examples(sorted(PACKAGE.rglob("*.py")))
    assert not found, f"write these examples as >>> doctests: {', '.join(found)}"
