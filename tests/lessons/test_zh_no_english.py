"""The Chinese edition does not leak English: what the course writes for a learner is in Chinese.

Scanned with `tests/zh_english.py` (code, identifiers and quoted values allowed): the Chinese
diagrams' labels; the lab hints of labs/zh; each lab's check lines in solutions/zh and the
messages its checks give for wrong answers (tests/wrong_solutions) in a zh lab; and the
sentences the package writes for the learner: the provider line, the model's
self-introduction, the paragraphs for a missing model name or Node tool, `./course check`'s
lines, and the inspector's labels and summaries.

A lab whose check module does not yet write its messages in both languages (with
`wirelab.edition.say`) is listed in PENDING, one whose hints are not yet in
translations/zh/lab_hints.json in PENDING_HINTS: their tests are expected to fail (strict
xfail), so a lab that starts passing must leave the list.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tests.wrong_solutions.test_wrong_solutions import WRONG, load, run_check
from tests.zh_english import english_sentences
from wirelab.check import CheckFailed

ROOT = Path(__file__).resolve().parents[2]
LABS = sorted(p.name[:2] for p in (ROOT / "solutions" / "zh").glob("[0-9][0-9]_*_lab.ipynb"))
PENDING: set[str] = set()  # labs whose check modules do not use edition.say yet
PENDING_HINTS = PENDING  # labs whose hints are not in translations/zh/lab_hints.json yet
HINT = re.compile(r"raise NotImplementedError\((?P<hint>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\)")


def lab_param(lab: str, pending: set[str] = PENDING):
    marks = [pytest.mark.xfail(strict=True, reason="not in Chinese yet")] if lab in pending else []
    return pytest.param(lab, marks=marks, id=lab)


def test_the_scanner_finds_english_and_allows_code():
    assert english_sentences("3 of 3 checks pass in the saved file") == ["of   checks pass in the saved file"]
    assert (
        english_sentences("run_streaming_loop(..., max_steps=3) 发出了 3 个请求：'a long quoted value'") == []
    )


def test_the_chinese_diagrams_have_no_english_label():
    found = {}
    for svg in sorted((ROOT / "assets" / "zh").glob("*.svg")):
        labels = re.findall(r"<(?:text|tspan)\b[^>]*>([^<]+)<", svg.read_text(encoding="utf-8"))
        found.update({f"{svg.name}: {label}": english_sentences(label) for label in labels})
    assert {k: v for k, v in found.items() if v} == {}


@pytest.mark.parametrize("lab", [lab_param(lab, PENDING_HINTS) for lab in LABS])
def test_the_hints_of_a_chinese_lab_are_chinese(lab):
    (path,) = (ROOT / "labs" / "zh").glob(f"{lab}_*_lab.ipynb")
    hints = [m["hint"] for c in nbformat.read(path, 4).cells for m in HINT.finditer(c.source)]
    assert hints and all("\\u" not in h for h in hints)
    assert {h: english_sentences(h[1:-1]) for h in hints if english_sentences(h[1:-1])} == {}


@pytest.mark.parametrize("lab", [lab_param(lab) for lab in LABS])
def test_the_check_lines_of_a_chinese_solution_are_chinese(lab):
    (path,) = (ROOT / "solutions" / "zh").glob(f"{lab}_*_lab.ipynb")
    text = "".join(
        o.get("text", "") for c in nbformat.read(path, 4).cells if c.cell_type == "code" for o in c.outputs
    )
    lines = [line for line in text.splitlines() if line.lstrip().startswith(("✓", "✗", "·", "实验", "Lab "))]
    assert lines and {line: english_sentences(line) for line in lines if english_sentences(line)} == {}


@pytest.mark.parametrize("lab", [lab_param(lab) for lab in LABS])
def test_a_wrong_answer_in_a_chinese_lab_is_told_in_chinese(lab, monkeypatch):
    monkeypatch.setenv("WIRELAB_LANG", "zh")
    messages = {}
    for path in [p for p in WRONG if p.parent.name == lab][:3]:
        with pytest.raises(CheckFailed) as failed:
            run_check(lab, load(path))
        messages[path.stem] = str(failed.value)
    assert messages and {k: english_sentences(m) for k, m in messages.items() if english_sentences(m)} == {}


def test_the_sentences_the_package_writes_are_chinese_in_the_chinese_edition(monkeypatch, tmp_path):
    from wirelab import llm, node_tools
    from wirelab.check.__main__ import summary_line
    from wirelab.offline_model.answer import without_tools
    from wirelab.widgets.language import LABELS
    from wirelab.widgets.static import summarize, traffic_text

    monkeypatch.setenv("WIRELAB_LANG", "zh")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    written = {
        "provider": llm.describe_provider(),
        "self-introduction": without_tools("Hello! Who are you?"),
        "node tool": node_tools.missing("mcp-inspector", tmp_path),
        "check summary": summary_line(2, 3, Path("labs/zh/02_x_lab.ipynb"), unsaved=True),
        "request summary": summarize({"messages": [{"role": "user", "content": "hi"}]}),
        "stream summary": summarize([{}, {}]),
        "empty traffic": traffic_text([]),
        **{f"label {key}": text for key, text in LABELS["zh"].items()},
    }
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("WIRELAB_MODEL", raising=False)
    written["no model"] = str(llm.ProviderNotConfigured())
    assert {k: english_sentences(v) for k, v in written.items() if english_sentences(v)} == {}
