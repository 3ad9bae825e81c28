"""The Chinese edition (notebooks/zh, solutions/zh) follows the English one, cell for cell.

The English notebooks are the source: the Chinese ones carry the same code cells, and each
translated markdown cell records the sha256 of the English text it was translated from
(`metadata.zh.source_sha256`). When an English cell changes, its hash no longer matches and
these tests name the cell; `python scripts/zh.py stale` lists every such cell.
"""

import importlib.util
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("zh_script", ROOT / "scripts" / "zh.py")
zh = sys.modules["zh_script"] = importlib.util.module_from_spec(spec)  # dataclasses look it up
spec.loader.exec_module(zh)

ENGLISH = [p for kind in zh.KINDS for p in zh.english_paths(kind)]
GLOSSARY = ROOT / "docs" / "glossary.zh.md"
LINK = re.compile(r"\]\((?!https?:|#|mailto:)([^)\s#]+)|src=\"(?!https?:|data:)([^\"#]+)\"")


def ids(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def both(english_path: Path) -> tuple[nbformat.NotebookNode, nbformat.NotebookNode]:
    chinese_path = zh.zh_path(english_path)
    assert chinese_path.exists(), f"{chinese_path.relative_to(ROOT)} is missing: run scripts/zh.py build"
    english, chinese = read(english_path), read(chinese_path)
    kinds = [c.cell_type for c in english.cells], [c.cell_type for c in chinese.cells]
    assert kinds[0] == kinds[1], f"{chinese_path.name}: cells differ from English: run scripts/zh.py build"
    return english, chinese


@pytest.mark.parametrize("english_path", ENGLISH, ids=ids)
def test_code_cells_are_identical_in_both_editions(english_path):
    english, chinese = both(english_path)
    for index, (en, cn) in enumerate(zip(english.cells, chinese.cells, strict=True)):
        if en.cell_type == "code":
            assert cn.source == en.source, f"{english_path.name} cell {index}: code differs from English"
            assert cn.metadata.get("tags") == en.metadata.get("tags"), f"cell {index}: tags differ"


@pytest.mark.parametrize("english_path", ENGLISH, ids=ids)
def test_every_markdown_cell_is_translated_from_the_current_english_text(english_path):
    english, chinese = both(english_path)
    problems = []
    for index, (en, cn) in enumerate(zip(english.cells, chinese.cells, strict=True)):
        if en.cell_type != "markdown":
            continue
        recorded = cn.metadata.get("zh", {}).get("source_sha256")
        first = en.source.strip().splitlines()[0][:60] if en.source.strip() else ""
        if recorded is None:
            problems.append(f"cell {index} not translated: {first}")
        elif recorded != zh.sha256(en.source):
            problems.append(f"cell {index} translated from older English text: {first}")
    assert not problems, f"{english_path.name} (see scripts/zh.py stale):\n" + "\n".join(problems)


@pytest.mark.parametrize("english_path", ENGLISH, ids=ids)
def test_the_chinese_notebook_holds_the_stored_translations(english_path):
    english, chinese = both(english_path)
    built = zh.translate(english, zh.read_store(zh.store_path(english_path)))
    for index, (expected, saved) in enumerate(zip(built.cells, chinese.cells, strict=True)):
        if expected.cell_type == "markdown":
            assert saved.source == expected.source, f"{english_path.name} cell {index}: run zh.py build"
            assert saved.metadata.get("zh") == expected.metadata.get("zh"), f"cell {index}: run zh.py build"


@pytest.mark.parametrize("english_path", ENGLISH, ids=ids)
def test_the_chinese_notebook_was_run_and_links_resolve(english_path):
    chinese_path = zh.zh_path(english_path)
    _, chinese = both(english_path)
    counts = [c.execution_count for c in chinese.cells if c.cell_type == "code"]
    assert counts == list(range(1, len(counts) + 1)), f"{chinese_path.name}: run scripts/zh.py build"
    assert re.match(r"# \d\d · \S", chinese.cells[0].source), chinese.cells[0].source.splitlines()[0]
    for cell in chinese.cells:
        if cell.cell_type == "markdown":
            for link in filter(None, (x for pair in LINK.findall(cell.source) for x in pair)):
                target = (chinese_path.parent / link).resolve()
                assert target.exists(), f"{chinese_path.name}: broken link {link}"


@pytest.mark.parametrize("english_path", ENGLISH, ids=ids)
def test_every_chinese_notebook_links_the_glossary(english_path):
    _, chinese = both(english_path)
    text = "\n".join(c.source for c in chinese.cells if c.cell_type == "markdown")
    assert "../../docs/glossary.zh.md" in text, f"{english_path.name}: link the 术语表"


def test_stale_lists_changed_and_missing_cells(tmp_path, monkeypatch):
    english_path = tmp_path / "notebooks" / "99_demo.ipynb"
    english_path.parent.mkdir()
    cells = [
        nbformat.v4.new_markdown_cell("# 99 · Demo\nOld text."),
        nbformat.v4.new_code_cell("1 + 1"),
        nbformat.v4.new_markdown_cell("## Untranslated"),
    ]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), english_path)
    monkeypatch.setattr(zh, "ROOT", tmp_path)
    store = zh.store_path(english_path)
    store.parent.mkdir(parents=True)
    old = zh.sha256("# 99 · Demo\nOlder text.")
    store.write_text(f"{zh.marker(0, old)}\n# 99 · 演示\n旧的译文。\n", encoding="utf-8")

    found = zh.stale_cells(english_path)

    assert [(s.cell, s.why, s.first_line) for s in found] == [
        (0, "changed", "# 99 · Demo"),
        (2, "missing", "## Untranslated"),
    ]
    built = zh.translate(nbformat.read(english_path, as_version=4), zh.read_store(store))
    assert built.cells[0].source == "# 99 · 演示\n旧的译文。"
    assert built.cells[0].metadata["zh"] == {"source_sha256": old}  # kept, so the hash test fails
    assert built.cells[1].source == "1 + 1" and "zh" not in built.cells[2].metadata


def test_an_empty_translation_is_refused(tmp_path):
    store = tmp_path / "00.md"
    store.write_text(f"{zh.marker(0, '0' * 64)}\n\n{zh.marker(1, '1' * 64)}\n文字\n", encoding="utf-8")
    with pytest.raises(ValueError, match="translation of cell 0 is empty"):
        zh.read_store(store)


def test_the_glossary_has_at_least_80_terms_each_explained():
    rows = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    terms = [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows]
    terms = [t for t in terms if t[0] != "中文" and not set(t[0]) <= set("-: ")]  # no headers, no rules
    assert len(terms) >= 80, len(terms)
    for term in terms:
        assert len(term) == 3 and all(term), f"a glossary row needs 中文, English and a line: {term}"
    english = [t[1].lower() for t in terms]
    assert len(set(english)) == len(english), "a term appears twice"
