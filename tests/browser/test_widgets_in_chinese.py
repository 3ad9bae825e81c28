"""In a notebook of the Chinese edition (a `zh` folder under notebooks/), the live widgets speak Chinese.

The kernel starts in the notebook's folder, so `wirelab.widgets.language` picks `zh` without
any code difference; the view draws the labels the widget sends.
"""

from __future__ import annotations

import pytest

from tests.browser.test_inspector_in_jupyterlab import (
    ATTACH,
    CHAT,
    LOOP,
    SETUP,
    open_notebook,
    run_all_cells,
    write_notebook,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_the_inspector_and_the_stepper_show_chinese_labels_in_a_zh_notebook(lab, page, output_dir):
    (lab.root / "zh").mkdir(exist_ok=True)
    write_notebook(lab, "zh/widgets.ipynb", SETUP, ATTACH, CHAT, LOOP)
    open_notebook(page, lab, "zh/widgets.ipynb")
    run_all_cells(page)
    page.wait_for_function(
        "() => document.querySelector('.wirelab-stepper')?.dataset.step === 'answer'", timeout=60_000
    )
    inspector, stepper = page.locator(".wirelab-inspector"), page.locator(".wirelab-stepper")
    assert inspector.locator(".wi-title").inner_text() == "线路检查器"
    assert inspector.locator(".wi-clear").inner_text() == "清空"
    assert "条消息" in inspector.locator(".wi-count").inner_text()
    assert "方向" in inspector.locator(".wi-head").inner_text()
    summaries = inspector.locator(".wi-c-sum").all_inner_texts()
    assert any("条消息，最后一条是" in s for s in summaries), summaries  # the summaries speak Chinese
    assert not any("messages, last" in s for s in summaries), summaries
    assert stepper.locator(".ls-title").inner_text() == "工具调用循环"
    names = stepper.locator(".ls-step .ls-name").all_inner_texts()
    assert names == ["定义", "发送", "决策", "执行", "追加", "回答"]
    assert stepper.locator(".ls-step[data-step='answer'].ls-active").count() == 1  # hooks stay English
    assert stepper.locator(".ls-detail").inner_text().startswith("回答：")
    inspector.screenshot(path=str(output_dir / "inspector-zh.png"))
    stepper.screenshot(path=str(output_dir / "stepper-zh.png"))
