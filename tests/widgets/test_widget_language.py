"""The inspector and the stepper speak the notebook's language: Chinese in notebooks/zh, else English."""

import re

import pytest

from wirelab.loop import LoopEvent
from wirelab.widgets import LoopStepper, WireInspector
from wirelab.widgets.language import LABELS, label, language
from wirelab.widgets.static import steps_text, traffic_text
from wirelab.wire import Wire, WireMessage


@pytest.fixture(autouse=True)
def outside_any_notebook(monkeypatch, tmp_path):
    monkeypatch.delenv("WIRELAB_LANG", raising=False)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(tmp_path)


def test_both_languages_have_the_same_labels_with_the_same_fields():
    assert LABELS["zh"].keys() == LABELS["en"].keys()
    for key, english in LABELS["en"].items():
        fields = set(re.findall(r"\{(\w+)\}", english))
        assert set(re.findall(r"\{(\w+)\}", LABELS["zh"][key])) == fields, key
        assert english.count("|") == LABELS["zh"][key].count("|"), key


def test_a_kernel_started_in_a_zh_folder_of_an_edition_is_chinese(tmp_path, monkeypatch):
    for edition in ("notebooks", "solutions", "labs"):
        (tmp_path / edition / "zh").mkdir(parents=True)
        monkeypatch.chdir(tmp_path / edition / "zh")
        assert language() == "zh"
    monkeypatch.chdir(tmp_path / "notebooks")
    assert language() == "en"
    (tmp_path / "zh").mkdir()
    monkeypatch.chdir(tmp_path / "zh")  # a folder named zh that is not an edition's
    assert language() == "en"


def test_jupyterlab_names_the_notebook_in_jpy_session_name(monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", "notebooks/zh/02_the_six_step_loop.ipynb")
    assert language() == "zh"
    monkeypatch.setenv("JPY_SESSION_NAME", "notebooks/02_the_six_step_loop.ipynb")
    assert language() == "en"


def test_wirelab_lang_decides_and_an_unknown_one_is_refused(monkeypatch):
    monkeypatch.setenv("WIRELAB_LANG", "zh")
    assert language() == "zh"
    monkeypatch.setenv("WIRELAB_LANG", "fr")
    with pytest.raises(ValueError, match="WIRELAB_LANG='fr' is not a language of the course"):
        language()


def test_the_inspector_in_chinese_sends_chinese_labels_and_shows_a_chinese_table(monkeypatch):
    monkeypatch.setenv("WIRELAB_LANG", "zh")
    wire = Wire()
    inspector = WireInspector(wire)
    try:
        wire.publish(WireMessage.jsonrpc("mcp", "client", {"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        assert inspector.title == "线路检查器"
        assert inspector.labels["clear"] == "清空" and inspector.labels["columns"].startswith("#|时间|")
        text = inspector._static_text()
        assert text.startswith("线路检查器：1 条消息（0 个错误），来源 mcp")
        assert "方向" in text.splitlines()[1]
    finally:
        inspector.close()


def test_the_english_edition_keeps_its_english_words():
    wire = Wire()
    inspector = WireInspector(wire)
    try:
        assert inspector.title == "Wire inspector" and inspector.labels["clear"] == "Clear"
        assert inspector._static_text() == "Wire inspector: 0 messages (0 errors) on no traffic yet"
    finally:
        inspector.close()
    assert traffic_text([]) == "Wire traffic: 0 messages (0 errors) on no traffic yet"


def test_the_stepper_in_chinese_names_the_six_steps_in_chinese(monkeypatch):
    monkeypatch.setenv("WIRELAB_LANG", "zh")
    stepper = LoopStepper(pace_ms=0)
    try:
        stepper.on_event(LoopEvent("define", 0, {"tools": ["add"]}, [{"role": "user", "content": "1+2"}]))
        assert stepper.labels["steps"] == "定义|发送|决策|执行|追加|回答"
        text = stepper._static_text()
        steps = "[定义 ×1] → 发送 ×0 → 决策 ×0 → 执行 ×0 → 追加 ×0 → 回答 ×0"
        assert text.splitlines()[0] == f"工具调用循环：{steps}"
        assert text.splitlines()[1] == "消息（1 条）："
    finally:
        stepper.close()
    assert steps_text({}, None, [], lang="en").startswith("Tool-call loop: define ×0 → send ×0")
    assert label("stepper.turn", "zh", n=2) == "第 2 轮"


def test_a_summary_counts_one_message_in_the_singular_and_speaks_the_editions_language():
    from wirelab.widgets.static import summarize

    one = {"messages": [{"role": "user", "content": "hi"}]}
    assert summarize(one, lang="en") == "1 message, last user: hi"
    assert summarize({**one, "messages": one["messages"] * 2}, lang="en") == "2 messages, last user: hi"
    assert summarize(one, lang="zh") == "1 条消息，最后一条是 user: hi"
    assert summarize([{}, {}], lang="zh") == "流式响应，共 2 个事件"
