"""Every lesson runs under `./course` from a fresh clone, with no npm tools, and shows no traceback.

What a new learner does: clone, `./course`, open each lesson in JupyterLab, Run All. Here:

- the repository's last commit (when the tests were collected) is cloned into a temporary folder: no
  node_modules, nothing uncommitted, no test extras beyond what the virtual environment has;
- installing would take minutes, so the clone's `.venv` is a symlink to this checkout's (its
  requirements files get an old timestamp so `./course` sees it set up), and the kernels import
  the clone's `wirelab` (PYTHONPATH), so the package finds the clone's (missing) node_modules;
- `./course` runs with npm and node off the PATH, as on a machine without Node.js: it must say
  so and go on, and a lesson that needs a Node tool must say what to run instead of failing;
- each lesson (notebooks/NN_*.ipynb, globbed, so new lessons are included) is opened and run
  with Run All in chromium; no cell may end in an error unless it is tagged `raises-exception`,
  and Run All must reach the last cell.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import secrets
import subprocess
import time
import urllib.request
from collections.abc import Iterator

import pytest

from tests.conftest import free_port

from .conftest import CHROMIUM_FLAGS, REPO, _lab_environment, _printed_url, _wait_until_up

pytestmark = [pytest.mark.browser]

COMMIT = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
COMMITTED = subprocess.run(["git", "ls-files", "notebooks"], cwd=REPO, capture_output=True, text=True).stdout
LESSON = re.compile(r"notebooks/\d\d_\w+\.ipynb")
LESSONS = sorted(REPO / name for name in COMMITTED.split() if LESSON.fullmatch(name))
NODE = {"npm", "npx", "node", "corepack"}

RUN_ALL = """async (path) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    if (panel?.context?.path !== path) return {error: `${path} is not the open notebook`};
    await app.commands.execute("notebook:run-all-cells");
    const cells = panel.content.widgets.map((cell, index) => ({index, model: cell.model}))
        .filter(({model}) => model.type === "code");
    return {cells: cells.map(({index, model}) => ({
        index,
        count: model.executionCount,
        tags: model.getMetadata("tags") ?? [],
        errors: model.outputs.toJSON().filter((o) => o.output_type === "error")
            .map((o) => `${o.ename}: ${o.evalue}`),
        tracebacks: model.outputs.toJSON().filter((o) => o.output_type === "stream"
            && String(o.text).includes("Traceback (most recent call last)")).length,
    }))};
}"""

OPENED = """path => {
    const panel = window.jupyterapp?.shell.currentWidget;
    return panel?.context?.path === path && panel.context.isReady
        && panel.sessionContext?.session?.kernel?.status === "idle";
}"""


def without_node(home: pathlib.Path) -> str:
    """A PATH like this one's, minus npm and node: every other command linked into one folder."""
    bin_dir = home / "bin"
    bin_dir.mkdir()
    for folder in os.environ["PATH"].split(os.pathsep):
        for entry in os.scandir(folder) if os.path.isdir(folder) else []:
            target = bin_dir / entry.name
            if entry.name not in NODE and not target.exists() and os.access(entry.path, os.X_OK):
                target.symlink_to(entry.path)
    return str(bin_dir)


def fresh_clone(home: pathlib.Path) -> pathlib.Path:
    clone = home / "clone"
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(REPO), str(clone)], check=True)
    subprocess.run(["git", "checkout", "--quiet", COMMIT], cwd=clone, check=True)  # the commit collected
    (clone / ".venv").symlink_to(REPO / ".venv")
    for name in ("requirements.txt", "requirements-nodeps.txt", "pyproject.toml"):
        if (clone / name).exists():
            os.utime(clone / name, (0, 0))  # older than .venv/.installed: set up already
    assert not (clone / "node_modules").exists()
    return clone


class Course:
    def __init__(self, url: str, token: str, printed_url: str, clone: pathlib.Path, log: str) -> None:
        self.url, self.token, self.printed_url, self.clone, self.log = url, token, printed_url, clone, log

    def api(self, path: str, method: str = "GET") -> object:
        request = urllib.request.Request(f"{self.url}{path}?token={self.token}", method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def stop_kernels(self) -> None:
        for session in self.api("/api/sessions"):
            self.api(f"/api/sessions/{session['id']}", method="DELETE")


@pytest.fixture(scope="module")
def course(chromium: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Course]:
    home = tmp_path_factory.mktemp("fresh")
    clone = fresh_clone(home)
    port, token = free_port(), secrets.token_hex(16)
    environment = {
        **_lab_environment(home, **{"apputils-extension/notification": {}}),
        "PATH": without_node(home),
        "PYTHONPATH": str(clone),
        "WIRELAB_OFFLINE": "1",
    }
    command = [str(clone / "course"), "open", "--no-browser", "--ip=127.0.0.1", f"--port={port}"]
    command += [f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True"]
    log_path = home / "course.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(command, cwd=clone, env=environment, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_up(f"{url}/api/status?token={token}", process, time.monotonic() + 90)
            printed = _printed_url(log_path, port, token)
            yield Course(url, token, printed, clone, log_path.read_text(errors="replace"))
        finally:
            process.terminate()
            process.wait(timeout=30)


@pytest.fixture(scope="module")
def page(course: Course, chromium: pathlib.Path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(course.printed_url)  # opens lesson 00: let it finish, then close it
        page.wait_for_function(OPENED, arg=LESSONS[0].relative_to(REPO).as_posix(), timeout=90_000)
        page.evaluate("() => { window.jupyterapp.shell.currentWidget.dispose(); }")
        course.stop_kernels()
        yield page
        browser.close()


def test_without_npm_the_course_says_so_and_opens(course):
    assert "npm not found" in course.log and "lesson 16" in course.log
    assert not (course.clone / "node_modules").exists()


def test_the_course_turns_jupyterlabs_news_pop_up_off_by_default(course):
    """`./course` overrides the default (this server's user settings leave fetchNews alone)."""
    setting = course.api("/lab/api/settings/@jupyterlab/apputils-extension:notification")
    assert setting["schema"]["properties"]["fetchNews"]["default"] == "false"


@pytest.mark.timeout(240)  # the longest lesson takes under a minute
@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.name[:2] for lesson in LESSONS])
def test_the_lesson_runs_to_the_end_with_no_traceback(course, page, lesson):
    path = lesson.relative_to(REPO).as_posix()
    assert (course.clone / path).exists(), f"{path} is not in the clone"
    page.evaluate("path => { window.jupyterapp.commands.execute('docmanager:open', {path}); }", path)
    page.wait_for_function(OPENED, arg=path, timeout=90_000)
    try:
        ran = page.evaluate(RUN_ALL, path)
    finally:
        page.evaluate("() => { window.jupyterapp.shell.currentWidget.dispose(); }")
        course.stop_kernels()
    assert "error" not in ran, ran.get("error")
    unexpected = [
        f"cell {c['index']}: {'; '.join(c['errors']) or 'a traceback on stderr'}"
        for c in ran["cells"]
        if (c["errors"] or c["tracebacks"]) and "raises-exception" not in c["tags"]
    ]
    assert not unexpected, f"{path}: {unexpected}"
    not_run = [c["index"] for c in ran["cells"] if c["count"] is None]
    assert not not_run, f"{path}: Run All stopped before cells {not_run}"
