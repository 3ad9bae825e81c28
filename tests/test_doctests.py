"""Every `>>>` example in a wirelab docstring runs and prints what it says.

Collected by `pytest tests` (no `--doctest-modules` flag needed): one test per module that
has examples. `__main__` modules are left out (importing one runs its command line).
Examples marked `# doctest: +SKIP` need a built index or a server and are shown, not run.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import wirelab

PACKAGE = Path(wirelab.__file__).resolve().parent
MODULES = sorted(
    ".".join(("wirelab", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
    for path in PACKAGE.rglob("*.py")
    if path.name != "__main__.py"
)


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
