"""Fixtures for tests in a real browser: JupyterLab on 127.0.0.1 and Debian's chromium.

JupyterLab runs from this virtual environment (so its kernel is this
environment's python) in a temporary root folder, with a random token and
its own settings folder (no news toast). Chromium is `/usr/bin/chromium`
driven by Playwright; no browser is ever downloaded. Without chromium the
tests are skipped, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import json
import os
import pathlib
import secrets
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from tests.conftest import free_port

CHROMIUM = pathlib.Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = pathlib.Path(__file__).resolve().parents[2]
OUTPUT = REPO / "test-output"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: runs JupyterLab and drives it in chromium")


@dataclass
class Lab:
    url: str
    token: str
    root: pathlib.Path

    def notebook_url(self, name: str) -> str:
        """The notebook in a fresh workspace (no tabs restored from an earlier test)."""
        return f"{self.url}/lab/workspaces/{pathlib.Path(name).stem}/tree/{name}?reset&token={self.token}"


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (required in CI)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium() -> pathlib.Path:
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is missing: apt-get install -y chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing("the playwright Python package is missing: pip install playwright")
    return CHROMIUM


def _lab_environment(home: pathlib.Path, **more: dict) -> dict[str, str]:
    chosen = {
        "apputils-extension/notification": {"fetchNews": "false"},
        "notebook-extension/tracker": {"windowingMode": "none"},  # render every cell
        **more,
    }
    for name, values in chosen.items():
        path = home / "settings" / "@jupyterlab" / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
    }


def _wait_until_up(url: str, process: subprocess.Popen, deadline: float) -> None:
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"jupyter lab did not answer {url} in time")


@contextmanager
def running_lab(home: pathlib.Path, root: pathlib.Path, **settings: dict) -> Iterator[Lab]:
    """JupyterLab serving `root` on 127.0.0.1, with its settings and log in `home` (and `settings`
    as user settings, e.g. a short autosave interval); stopped on exit."""
    port, token = free_port(), secrets.token_hex(16)
    command = [
        str(pathlib.Path(sys.executable).parent / "jupyter"),
        "lab",
        "--allow-root",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        "--LabApp.expose_app_in_browser=True",
        f"--ServerApp.root_dir={root}",
    ]
    log = (home / "lab.log").open("w")
    process = subprocess.Popen(
        command, env=_lab_environment(home, **settings), stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(f"{url}/api/status?token={token}", process, time.monotonic() + 60)
        yield Lab(url, token, root)
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


@pytest.fixture(scope="session")
def lab(chromium: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    home = tmp_path_factory.mktemp("lab")
    root = home / "notebooks"
    root.mkdir()
    with running_lab(home, root) as running:
        yield running


@dataclass
class Course:
    """JupyterLab as `./course` starts it: `printed_url` is the address it tells the learner."""

    url: str
    token: str
    printed_url: str

    def api(self, path: str, method: str = "GET") -> object:
        request = urllib.request.Request(f"{self.url}{path}?token={self.token}", method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None


def _set_up_already(venv: pathlib.Path) -> None:
    """`./course` reinstalls when its stamp is stale; a test must never do that."""
    stamp = venv / ".installed"
    if not stamp.exists():
        pytest.fail(f"{stamp} is missing: run ./course once to set up, then the test")
    newer = [
        f.name
        for f in (REPO / "requirements.txt", REPO / "pyproject.toml")
        if f.stat().st_mtime > stamp.stat().st_mtime
    ]
    if newer:
        pytest.fail(f"{stamp} is older than {newer}: run ./course once to set up, then the test")


def _printed_url(log: pathlib.Path, port: int, token: str) -> str:
    for line in log.read_text(errors="replace").splitlines():
        if f"http://127.0.0.1:{port}/" in line:
            return line.split()[-1].replace("token=...", f"token={token}")
    raise RuntimeError(f"./course printed no address; its log:\n{log.read_text(errors='replace')}")


@pytest.fixture(scope="session")
def course(chromium: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Course]:
    """`./course` itself, with the options a headless run needs passed through to jupyter lab."""
    _set_up_already(REPO / ".venv")
    home = tmp_path_factory.mktemp("course")
    port, token = free_port(), secrets.token_hex(16)
    command = [
        str(REPO / "course"),
        "open",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        "--LabApp.expose_app_in_browser=True",
    ]
    log_path = home / "course.log"
    log = log_path.open("w")
    # The course's own lessons are open: a kernel start marks them changed, and an
    # autosave would write them back, so autosave is off.
    environment = _lab_environment(home, **{"docmanager-extension/plugin": {"autosave": False}})
    process = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(f"{url}/api/status?token={token}", process, time.monotonic() + 60)
        yield Course(url, token, _printed_url(log_path, port, token))
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


@pytest.fixture
def page(chromium: pathlib.Path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        yield page
        browser.close()


@pytest.fixture
def output_dir() -> pathlib.Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT
