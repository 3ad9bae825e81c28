"""Fixtures for the coding drills: which file the checks run against.

`WIRELAB_DRILL_FILE` names the file under test (set by `python -m wirelab.interview check`);
without it the checks run against the drill's own starter.py.
"""

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture
def drill_file(request: pytest.FixtureRequest) -> Path:
    """The learner's file: `$WIRELAB_DRILL_FILE`, else starter.py beside the test."""
    chosen = os.environ.get("WIRELAB_DRILL_FILE")
    return Path(chosen) if chosen else Path(request.path).parent / "starter.py"


@pytest.fixture
def drill(drill_file: Path) -> Iterator[ModuleType]:
    """The learner's file imported as a fresh module."""
    name = f"drill_under_test_{drill_file.parent.name}"
    spec = importlib.util.spec_from_file_location(name, drill_file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(name, None)
