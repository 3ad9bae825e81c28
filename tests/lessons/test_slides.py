"""Slides build from a notebook with nbconvert and load reveal.js from a local copy, never a CDN.

The browser check opens the slides in Chromium with every http(s) request refused; it needs
the npm package reveal.js (`node_modules/reveal.js`, or `$WIRELAB_REVEAL_DIR`) and
/usr/bin/chromium, and is skipped where either is missing.
"""

import importlib.util
import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("build_slides", ROOT / "scripts" / "build_slides.py")
build_slides = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_slides)

REAL_REVEAL = Path(os.environ.get("WIRELAB_REVEAL_DIR", ROOT / "node_modules" / "reveal.js"))
LOCAL_REFERENCE = re.compile(r"""<(?:script|link)[^>]*\b(?:src|href)=["']([^"'#]+)["']""")


def lesson(tmp_path: Path) -> Path:
    nb = new_notebook(
        cells=[
            new_markdown_cell("# Lesson 02: the loop\nDefine, send, decide."),
            new_code_cell(
                "1 + 1",
                execution_count=1,
                outputs=[new_output("execute_result", {"text/plain": "2"}, execution_count=1)],
            ),
            new_markdown_cell("## Append the tool result"),
            new_markdown_cell("Same slide as the heading above."),
            new_markdown_cell("## Guards"),
        ]
    )
    path = tmp_path / "02-the-loop.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.fixture
def fake_reveal(tmp_path) -> Path:
    """The files of the reveal.js package the slides load, as stubs."""
    root = tmp_path / "node_modules" / "reveal.js"
    for name in ("dist/reveal.js", "dist/reveal.css", "dist/theme/simple.css", "plugin/notes/notes.js"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("/* stub */")
    return root


@pytest.fixture
def built(tmp_path, fake_reveal) -> Path:
    [page] = build_slides.build([lesson(tmp_path)], tmp_path / "slides", fake_reveal)
    return page


def test_the_slides_reference_no_remote_script_or_style(built):
    page = built.read_text()
    assert build_slides.remote_references(page) == []
    assert not re.search(r"https?://[^\"']*reveal", page)


def test_every_script_and_style_the_slides_load_is_copied_beside_them(built):
    local = LOCAL_REFERENCE.findall(built.read_text())
    assert "reveal.js/dist/reveal.js" in local and "reveal.js/plugin/notes/notes.js" in local
    assert [ref for ref in local if not (built.parent / ref).is_file()] == []


def test_each_markdown_heading_starts_a_slide(built):
    sections = re.findall(r"<section\b", built.read_text())
    assert len(sections) == 2 * 3, "three slides, each wrapped in a vertical stack"


def test_a_notebook_with_its_own_slide_types_keeps_them(tmp_path):
    nb = new_notebook(
        cells=[
            new_markdown_cell("# One", metadata={"slideshow": {"slide_type": "slide"}}),
            new_markdown_cell("# Two", metadata={"slideshow": {"slide_type": "-"}}),
        ]
    )
    assert [c.metadata["slideshow"]["slide_type"] for c in build_slides.default_slide_types(nb).cells] == [
        "slide",
        "-",
    ]


def test_the_notebook_on_disk_is_left_unchanged(tmp_path, fake_reveal):
    path = lesson(tmp_path)
    before = path.read_text()
    build_slides.build([path], tmp_path / "slides", fake_reveal)
    assert path.read_text() == before


def test_a_missing_reveal_package_is_a_clear_error(tmp_path, capsys):
    code = build_slides.main(
        [str(lesson(tmp_path)), "--out", str(tmp_path / "o"), "--reveal-dir", str(tmp_path / "nowhere")]
    )
    assert code == 1 and "npm install" in capsys.readouterr().err


def test_no_notebooks_is_a_clear_error(tmp_path, fake_reveal):
    with pytest.raises(FileNotFoundError, match="no notebooks"):
        build_slides.build([], tmp_path / "o", fake_reveal)


@pytest.mark.parametrize(
    "page",
    [
        '<script src="https://unpkg.com/reveal.js@4.0.2/dist/reveal.js"></script>',
        '<link rel="stylesheet" href="http://cdn.example/reveal.css">',
        "<script type=\"module\">import mermaid from 'https://cdn.example/mermaid.mjs';</script>",
        "<style>@import url('https://fonts.example/css');</style>",
    ],
)
def test_remote_scripts_styles_and_imports_are_all_detected(page):
    assert len(build_slides.remote_references(page)) == 1


def test_an_ordinary_link_in_the_text_is_not_a_remote_reference():
    assert build_slides.remote_references('<a href="https://modelcontextprotocol.io">spec</a>') == []


@pytest.mark.skipif(
    not os.environ.get("CI")
    and (not (REAL_REVEAL / "dist" / "reveal.js").is_file() or shutil.which("chromium") is None),
    reason="needs the npm package reveal.js and /usr/bin/chromium (./course test "
    "installs both); in CI they are required",
)
def test_the_slides_run_in_a_browser_with_the_network_refused(tmp_path):
    from playwright.sync_api import sync_playwright

    [page_path] = build_slides.build([lesson(tmp_path)], tmp_path / "slides", REAL_REVEAL)
    refused = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        page.route("http*://**", lambda route: (refused.append(route.request.url), route.abort()))
        page.goto(page_path.as_uri())
        page.wait_for_function("window.Reveal && Reveal.isReady()", timeout=15_000)
        slides = page.evaluate("Reveal.getTotalSlides()")
        browser.close()
    assert (slides, refused) == (3, [])


def test_a_url_printed_in_an_output_is_not_a_remote_reference():
    page = "<pre>from openai import OpenAI</pre><pre>URL('http://127.0.0.1:8765/v1/')</pre>"
    assert build_slides.remote_references(page) == []
