"""The Chinese edition shows Chinese diagrams: assets/zh/*.svg, built from the English ones.

Each English SVG has its labels translated in translations/zh/assets/NAME.json, stamped with
the sha256 of the English SVG, so a changed English diagram flags its translation stale, as a
changed markdown cell does (`python scripts/zh_svg.py stale` lists them).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import zh_svg  # noqa: E402

IMAGE = re.compile(r"!\[[^\]]*\]\((?P<path>[^)]+\.svg)\)")


def test_every_english_diagram_has_a_current_chinese_translation():
    assert zh_svg.stale() == []


def test_the_chinese_diagrams_are_what_the_build_writes():
    assert zh_svg.out_of_date() == []


def test_a_changed_english_diagram_is_reported_stale(tmp_path, monkeypatch):
    english = tmp_path / "assets"
    english.mkdir()
    (english / "loop.svg").write_text('<svg><text x="1">your code</text></svg>', encoding="utf-8")
    for name, value in {"ROOT": tmp_path, "ENGLISH": english, "STORE": tmp_path / "store"}.items():
        monkeypatch.setattr(zh_svg, name, value)
    assert zh_svg.stale() == ["loop.svg: not translated (store/loop.json)"]
    zh_svg.STORE.mkdir()
    (zh_svg.STORE / "loop.json").write_text('{"source_sha256": "", "texts": {"your code": "你的代码"}}')
    zh_svg.stamp(["loop"])
    assert zh_svg.stale() == []
    assert zh_svg.built(english / "loop.svg") == '<svg><text x="1">你的代码</text></svg>'
    (english / "loop.svg").write_text('<svg><text x="1">the host</text></svg>', encoding="utf-8")
    assert zh_svg.stale() == ["loop.svg: changed since its translation: check its labels, then stamp it"]


TRANSLATIONS = sorted((ROOT / "translations" / "zh").rglob("*.md"))


@pytest.mark.parametrize("translation", TRANSLATIONS, ids=lambda p: p.stem)
def test_the_chinese_lessons_link_the_chinese_diagrams(translation):
    for path in IMAGE.findall(translation.read_text(encoding="utf-8")):
        assert "/assets/zh/" in path, f"{translation.name} shows the English diagram {path}"
        assert (ROOT / "notebooks" / "zh" / path).resolve().exists(), f"{translation.name}: no {path}"
