"""`./course` as a learner starts it: lesson 00 opens, every diagram loads, labs/ is in reach.

The server is started through the script itself (options for a headless run are
passed through to jupyter lab), so a wrong root folder or a wrong start page in
the script fails here.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from .conftest import CHROMIUM_FLAGS, REPO

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LESSONS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
FIRST_LESSON = LESSONS[0].relative_to(REPO).as_posix()

RENDERED = """([path, diagrams]) => {
    const panel = window.jupyterapp?.shell.currentWidget;
    return panel?.context?.path === path && panel.content?.widgets.length > 0
        && panel.node.querySelectorAll("img").length >= diagrams;
}"""

IMAGES = """async () => {
    const panel = window.jupyterapp.shell.currentWidget;
    const images = [...panel.node.querySelectorAll("img")];
    await Promise.all(images.map(img => img.complete ? null : new Promise(done => {
        img.addEventListener("load", done); img.addEventListener("error", done);
    })));
    return {path: panel.context.path,
            images: images.map(img => ({src: img.getAttribute("src"), width: img.naturalWidth}))};
}"""


def diagrams_in(notebook: pathlib.Path) -> int:
    """How many `../assets/` images the lesson's markdown cells show."""
    cells = json.loads(notebook.read_text())["cells"]
    return sum("".join(c["source"]).count("](../assets/") for c in cells if c["cell_type"] == "markdown")


def stop_kernels(course) -> None:
    for session in course.api("/api/sessions"):
        course.api(f"/api/sessions/{session['id']}", method="DELETE")


@pytest.fixture(scope="module")
def page(course, chromium):
    """One browser on the address `./course` printed; lessons open in it one after another."""
    from playwright.sync_api import sync_playwright

    before = {lesson: lesson.read_bytes() for lesson in LESSONS}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(course.printed_url)
        yield page
        browser.close()
    changed = [lesson.name for lesson, saved in before.items() if lesson.read_bytes() != saved]
    assert not changed, f"opening the lessons wrote to {changed}"


def test_the_printed_address_opens_lesson_00_with_labs_in_the_file_browser(course, page):
    page.wait_for_function(RENDERED, arg=[FIRST_LESSON, 0], timeout=90_000)
    page.locator(".jp-BreadCrumbs-home").click()  # the file browser starts in notebooks/
    listing = page.locator(".jp-DirListing-content")
    listing.get_by_text("notebooks", exact=True).wait_for(timeout=30_000)
    names = set(listing.locator(".jp-DirListing-itemText").all_inner_texts())
    assert {"labs", "drills", "docs", "notebooks", "assets"} <= names
    stop_kernels(course)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name[:2])
def test_every_image_of_the_lesson_loads(course, page, lesson):
    path = lesson.relative_to(REPO).as_posix()
    page.evaluate("path => { window.jupyterapp.commands.execute('docmanager:open', {path}); }", path)
    page.wait_for_function(RENDERED, arg=[path, diagrams_in(lesson)], timeout=90_000)
    shown = page.evaluate(IMAGES)
    page.evaluate("() => { window.jupyterapp.shell.currentWidget.dispose(); }")
    stop_kernels(course)
    broken = [image["src"] for image in shown["images"] if image["width"] == 0]
    assert not broken, f"{path}: broken images {broken}"
