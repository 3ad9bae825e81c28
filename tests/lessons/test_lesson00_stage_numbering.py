"""Lesson 00, its pipeline diagram and the offline model's docstrings number the stages alike."""

import ast
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "wirelab" / "offline_model"
DIAGRAMS = [
    ROOT / "assets" / "offline_model_pipeline.svg",
    ROOT / "assets" / "zh" / "offline_model_pipeline.svg",
]
LESSONS = [ROOT / "notebooks" / name / "00_setup_and_the_offline_model.ipynb" for name in ("", "zh")]
BOX = re.compile(
    r'font-weight="bold"[^>]*>(\d[a-c]?(?:–[a-c])?)  [^<]+</text>\s*<text[^>]*monospace[^>]*>([^<]+)<'
)
HEADER = re.compile(r"\*\*([^*]+)\*\*")
NUMBER = re.compile(r"(\d[a-c]?) · ")


def module_stages() -> dict[str, str]:
    """{module: its stage} for every module whose docstring opens with "Stage N, ..."."""
    found = {}
    for path in PACKAGE.glob("*.py"):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if match := re.match(r"Stage (\d[a-c]?),", doc):
            found[path.stem] = match[1]
    return found


def expand(label: str) -> set[str]:
    """'2b–c' -> {'2b', '2c'}; '4' -> {'4'}."""
    first, _, last = label.partition("–")
    return {first} | ({first[:-1] + last} if last else set())


def boxes(svg: Path) -> dict[str, list[str]]:
    """{stage label: the modules its box names} for the diagram's numbered boxes."""
    text = svg.read_text(encoding="utf-8")
    return {label: re.findall(r"[a-z_]+", modules.replace(".py", "")) for label, modules in BOX.findall(text)}


def lesson_numbers(notebook: Path) -> set[str]:
    """The stage numbers in the lesson's bold stage headers ("**2a · Intents and 2b · selection**")."""
    cells = nbformat.read(notebook, as_version=4).cells
    sources = [cell.source for cell in cells if cell.cell_type == "markdown"]
    return {
        number for source in sources for bold in HEADER.findall(source) for number in NUMBER.findall(bold)
    }


def test_the_expansion_of_a_box_label():
    assert expand("2b–c") == {"2b", "2c"} and expand("4") == {"4"}


@pytest.mark.parametrize("svg", DIAGRAMS, ids=lambda p: p.parent.name)
def test_each_box_of_the_diagram_names_modules_of_its_own_stage(svg):
    stages = module_stages()
    for label, modules in boxes(svg).items():
        numbers = expand(label)
        for module in (m for m in modules if m in stages):
            stage = stages[module]
            assert stage in numbers or stage.rstrip("abc") in numbers, (svg.name, label, module, stage)


@pytest.mark.parametrize("svg", DIAGRAMS, ids=lambda p: p.parent.name)
@pytest.mark.parametrize("notebook", LESSONS, ids=lambda p: p.parent.name)
def test_the_lesson_the_diagram_and_the_package_number_the_stages_alike(notebook, svg):
    drawn = set().union(*map(expand, boxes(svg)))
    assert lesson_numbers(notebook) == drawn
    assert {number.rstrip("abc") for number in drawn} == {s.rstrip("abc") for s in module_stages().values()}
