"""Opening a lesson and running nothing leaves its file byte for byte as committed.

JupyterLab marks a notebook changed when its saved metadata differs from what the kernel
reports (a kernelspec "Python 3" where the kernel says "Python 3 (ipykernel)"), and autosave
then rewrites it: on a hub with nbgitpuller that becomes a merge conflict. Here every notebook
under notebooks/ (English and Chinese, globbed, so a new lesson is covered) is opened in
JupyterLab with its kernel, autosave every second, and compared with the committed bytes after
a few intervals. The server's root is a copy of notebooks/, so a rewrite never touches the
work tree. `python scripts/run_notebooks.py --metadata-only NB` gives a notebook the metadata.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import urllib.request
from collections.abc import Iterator

import pytest

from .conftest import CHROMIUM_FLAGS, REPO, Lab, running_lab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

NOTEBOOKS = sorted((REPO / "notebooks").rglob("*.ipynb"))
AUTOSAVE_S = 1

OPENED = """path => {
    const panel = window.jupyterapp?.shell.currentWidget;
    return panel?.context?.path === path && panel.context.isReady
        && panel.sessionContext?.session?.kernel?.status === "idle";
}"""


@pytest.fixture(scope="module")
def lab(chromium: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """JupyterLab on a copy of notebooks/, autosaving every AUTOSAVE_S seconds."""
    home = tmp_path_factory.mktemp("clean")
    root = home / "root"
    shutil.copytree(REPO / "notebooks", root / "notebooks")
    settings = {"docmanager-extension/plugin": {"autosave": True, "autosaveInterval": AUTOSAVE_S}}
    with running_lab(home, root, **settings) as running:
        yield running


@pytest.fixture(scope="module")
def page(lab: Lab, chromium: pathlib.Path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(lab.notebook_url(NOTEBOOKS[0].relative_to(REPO).as_posix()))
        page.wait_for_function("() => window.jupyterapp?.shell !== undefined", timeout=90_000)
        yield page
        browser.close()


def stop_kernels(lab: Lab) -> None:
    def call(path: str, method: str = "GET") -> bytes:
        request = urllib.request.Request(f"{lab.url}{path}?token={lab.token}", method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read()

    for session in json.loads(call("/api/sessions")):
        call(f"/api/sessions/{session['id']}", method="DELETE")


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.relative_to(REPO / "notebooks").as_posix())
def test_opening_a_notebook_and_waiting_for_autosave_leaves_it_unchanged(lab, page, notebook):
    path = notebook.relative_to(REPO).as_posix()
    committed = (lab.root / path).read_bytes()
    page.evaluate("path => { window.jupyterapp.commands.execute('docmanager:open', {path}); }", path)
    page.wait_for_function(OPENED, arg=path, timeout=90_000)
    page.wait_for_timeout(3 * AUTOSAVE_S * 1000)  # several autosave intervals with the kernel up
    dirty = page.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.dirty")
    page.evaluate("() => { window.jupyterapp.shell.currentWidget.dispose(); }")
    stop_kernels(lab)
    assert not dirty, f"{path} is marked changed as soon as it opens"
    assert (lab.root / path).read_bytes() == committed, f"autosave rewrote {path}"
