"""What the classroom's tests share: they make system users, as a hub does, so they need root."""

import os

import pytest


@pytest.fixture(scope="session")
def root() -> None:
    """Skip a test that makes system users unless it runs as root; on CI (as root) it must not skip."""
    if os.geteuid() != 0:
        reason = "makes system users for learners, as a hub does: run as root (CI does)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
