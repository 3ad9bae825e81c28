"""The Chinese edition uses the course's terms, not the renderings the review banned (issue 24).

- Host stays "Host" (with 宿主应用 at first use): 主机 reads as a host *machine*. Only the
  compound 主机名 (a machine's hostname) may use it.
- Wire format is 报文格式: 线上格式 reads as "production format".
- Rug Pull stays "Rug Pull", as interviewers say it: 先审后换 is a coined word.

Scanned: the Chinese notebooks, solutions and labs, the translation files, docs/ and drills/.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ["notebooks/zh", "solutions/zh", "labs/zh", "translations/zh", "docs", "drills"]
SUFFIXES = {".md", ".ipynb", ".yaml", ".yml", ".json", ".py", ".txt"}
BANNED = {
    "主机 for Host (write Host, with 宿主应用 at first use)": re.compile(r"主机(?!名)"),
    "线上格式 (write 报文格式)": re.compile(r"线上格式"),
    "先审后换 (keep Rug Pull)": re.compile(r"先审后换"),
}


def scanned_files() -> list[Path]:
    return sorted(
        path
        for folder in SCANNED
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and path.suffix in SUFFIXES and ".ipynb_checkpoints" not in path.parts
    )


def hits(text: str, pattern: re.Pattern[str]) -> list[int]:
    """Line numbers (from 1) of the lines where `pattern` occurs.

    >>> hits("Host（宿主应用）\\n主机名\\n由主机决定", re.compile(r"主机(?!名)"))
    [3]
    """
    return [number for number, line in enumerate(text.splitlines(), 1) if pattern.search(line)]


def test_the_scan_covers_the_chinese_edition_docs_and_drills():
    names = {path.relative_to(ROOT).as_posix() for path in scanned_files()}
    assert "docs/glossary.zh.md" in names and "drills/questions.yaml" in names
    assert any(name.startswith("notebooks/zh/") for name in names)
    assert any(name.startswith("translations/zh/notebooks/") for name in names)


@pytest.mark.parametrize(
    "text, found",
    [
        ("主机把请求展示给用户", True),
        ("Host（宿主应用）把请求展示给用户；主机名是 localhost", False),
        ("模型的线上格式", True),
        ("这就是先审后换", True),
        ("报文格式和 Rug Pull", False),
    ],
)
def test_the_patterns_catch_each_banned_rendering(text, found):
    assert any(hits(text, pattern) for pattern in BANNED.values()) is found


@pytest.mark.parametrize("rendering", list(BANNED), ids=["host", "wire-format", "rug-pull"])
def test_no_banned_rendering_in_the_chinese_edition_docs_or_drills(rendering):
    pattern = BANNED[rendering]
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in scanned_files()
        for number in hits(path.read_text(encoding="utf-8"), pattern)
    ]
    assert not found, f"{rendering} in {len(found)} lines:\n" + "\n".join(found)
