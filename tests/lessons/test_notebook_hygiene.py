"""Every saved notebook is what a fresh top-to-bottom run produced, and nothing volatile or secret."""

import json
import re
from pathlib import Path

import nbformat
import pytest
from nbval.plugin import comment_markers

from benchmarks.course_runtime import course_notebooks

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
LABS = sorted((ROOT / "labs").glob("*.ipynb"))
EXECUTED = LESSONS + SOLUTIONS
# Every notebook `./course test` runs under nbval: English and Chinese lessons and solutions,
# the flashcards and the classroom dashboard (the `course` script's paths, kept in step by
# tests/test_benchmarks.py).
UNDER_NBVAL = course_notebooks(ROOT)
MAX_OUTPUT_CHARS = 20_000
GLOSSARY = ROOT / "docs" / "glossary.zh.md"
# A key starts a token ("sk-…", "sk-proj-…"): a random PKCE challenge or state that merely holds
# "sk-" inside it (lesson 15 prints them) is no key
SECRET = re.compile(r"(?<![\w-])sk-(?:proj-)?\w{20,}|api\.openai\.com|api\.deepseek\.com|dashscope")


def read(path):
    return nbformat.read(path, as_version=4)


def code_cells(path):
    return [c for c in read(path).cells if c.cell_type == "code"]


@pytest.mark.parametrize("path", EXECUTED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_saved_notebook_was_run_top_to_bottom_on_a_fresh_kernel(path):
    counts = [c.execution_count for c in code_cells(path)]
    assert counts == list(range(1, len(counts) + 1)), f"{path.name}: re-run with scripts/run_notebooks.py"


@pytest.mark.parametrize("path", EXECUTED + LABS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_notebook_carries_no_volatile_metadata(path):
    nb = read(path)
    assert "widgets" not in nb.metadata
    assert "jupytext" not in nb.metadata, f"{path.name}: strip with scripts/run_notebooks.py"
    for cell in nb.cells:
        assert "execution" not in cell.metadata, f"{path.name}: strip with scripts/run_notebooks.py"


@pytest.mark.parametrize("path", EXECUTED + LABS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_notebook_holds_no_key_or_hosted_endpoint_and_stays_small(path):
    text = path.read_text(encoding="utf-8")
    assert not SECRET.search(text), f"{path.name} names a key or a hosted endpoint"
    assert len(text) < 1_000_000, f"{path.name} is {len(text)} bytes: keep notebooks small"


@pytest.mark.parametrize(
    "text, secret",
    [
        ('"api_key": "sk-4AocumxHM4pmuo1V09oJgQ"', True),
        ('"api_key": "sk-proj-Ab3_dE5fG7hI9jK1lM3nO5pQ"', True),
        ('"code_challenge": "haqHdhC__oJwyPghf1Ksk-4AocumxHM4pmuo1V09oJg"', False),
        ('"state": "Q2rask-ZZ81uyTRewq0pLmnB7"', False),
        ('"planted": "sk-live-7f3a9c2e5b1d4e8f"', False),  # lesson 13's made-up key, short and marked
    ],
)
def test_the_key_check_finds_keys_not_random_tokens_that_hold_sk(text, secret):
    assert bool(SECRET.search(text)) is secret


def test_the_output_size_check_covers_every_notebook_course_test_runs():
    names = {str(path.relative_to(ROOT)) for path in UNDER_NBVAL}
    chinese = {str(path.relative_to(ROOT).parent / "zh" / path.name) for path in EXECUTED}
    assert {str(path.relative_to(ROOT)) for path in EXECUTED} | chinese <= names
    assert {"drills/flashcards.ipynb", "drills/flashcards.zh.ipynb", "classroom/dashboard.ipynb"} <= names


@pytest.mark.parametrize("path", UNDER_NBVAL, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_saved_output_is_over_20_kb(path):
    """A widget's static copy or a plot stays small enough to read in a diff and on GitHub."""
    for index, cell in enumerate(code_cells(path)):
        for output in cell.outputs:
            size = len(json.dumps(output, ensure_ascii=False))
            assert size <= MAX_OUTPUT_CHARS, f"{path.name}, code cell {index}: an output of {size} characters"


@pytest.mark.parametrize("path", UNDER_NBVAL, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_nbval_marker_is_one_nbval_reads(path):
    """nbval takes a comment as a marker only when the whole comment is the marker's name: in
    "# NBVAL_IGNORE_OUTPUT: why" it finds none, and the output is compared after all (lesson 12's
    first kb_stats cell failed CI that way when the lexical interim answered it). Give the reason
    on a line of its own."""
    for k, cell in enumerate(code_cells(path)):
        for line in cell.source.splitlines():
            comment = line.strip().lstrip("#").strip()
            if line.strip().startswith("#") and comment.startswith("NBVAL_"):
                where = f"{path.name}, code cell {k}"
                assert comment in comment_markers, f"{where}: {comment!r} is no nbval marker"


@pytest.mark.parametrize("path", EXECUTED + LABS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_notebook_opens_with_its_number_and_title(path):
    first = read(path).cells[0]
    assert first.cell_type == "markdown"
    assert re.match(r"# \d\d · \S", first.source), first.source.splitlines()[0]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_links_the_glossary_in_its_opening_cell(path):
    """The Chinese edition links the 术语表 too (tests/lessons/test_zh_edition.py)."""
    link = "../docs/glossary.zh.md"
    assert f"]({link})" in read(path).cells[0].source, f"{path.name}: link the Chinese–English glossary"
    assert (path.parent / link).resolve() == GLOSSARY and GLOSSARY.exists()


@pytest.mark.parametrize("path", LABS, ids=lambda p: p.stem)
def test_a_lab_is_saved_without_outputs(path):
    assert all(not c.outputs and c.execution_count is None for c in code_cells(path))


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_has_a_solved_lab_and_a_lab(path):
    name = f"{path.stem}_lab.ipynb"
    assert (ROOT / "solutions" / name).exists() and (ROOT / "labs" / name).exists(), name
