"""The inspector and the stepper in JupyterLab, in chromium: they fill live while cells run.

Each test writes a notebook, opens it in JupyterLab, runs it through
`window.jupyterapp.commands`, and reads the widgets' stable data attributes.
Screenshots and the 10,000-message measurements go to test-output/.
"""

from __future__ import annotations

import json

import nbformat
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

SETUP = """\
import threading, time
import openai
from wirelab.llm import client, model_name
from wirelab.loop import run_tool_loop
from wirelab.tools import ToolRegistry
from wirelab.widgets import inspect_wire, watch_loop
from wirelab.wire import Wire, WireMessage"""

ATTACH = "llm, mcp = client(), Wire()\ninspector = inspect_wire(llm, mcp)"

CHAT = """\
for question in ["hi", "what can you do?"]:
    llm.chat.completions.create(model=model_name(), messages=[{"role": "user", "content": question}])
try:
    llm.chat.completions.create(model="no-such-model", messages=[{"role": "user", "content": "hi"}])
except openai.NotFoundError as error:
    print("HTTP", error.status_code)"""

MCP_FROM_A_THREAD = """\
session = [("client", {"id": 1, "method": "initialize", "params": {}}),
           ("server", {"id": 1, "result": {"protocolVersion": "2025-11-25"}}),
           ("client", {"method": "notifications/initialized"}),
           ("client", {"id": 2, "method": "tools/list"}),
           ("server", {"id": 2, "result": {"tools": []}}),
           ("client", {"id": 3, "method": "tools/call", "params": {"name": "nope"}}),
           ("server", {"id": 3, "error": {"code": -32602, "message": "Unknown tool: nope"}})]
def replay():
    for sender, message in session:
        mcp.publish(WireMessage.jsonrpc("mcp", sender, {"jsonrpc": "2.0", **message}))
worker = threading.Thread(target=replay); worker.start(); worker.join()"""

LOOP = '''\
def get_weather(city: str) -> dict:
    """Current weather for a city.

    Args:
        city: City name, e.g. "Paris".
    """
    return {"city": city, "temp_c": 18}
stepper = watch_loop(pace_ms=60)
result = run_tool_loop(llm, [{"role": "user", "content": "What is the weather in Paris?"}],
                       ToolRegistry([get_weather]), model=model_name(), on_event=stepper.on_event)
print(result.answer)'''

HOLD = "time.sleep(6)  # the kernel stays busy: rows seen now arrived live"

FLOOD = """\
def flood(pairs=5_000):
    time.sleep(2)  # the test starts measuring once the widget shows
    for i in range(pairs):
        wire.publish(WireMessage.jsonrpc("mcp", "client", {"jsonrpc": "2.0", "id": i,
            "method": "tools/call", "params": {"name": "search", "arguments": {"q": f"q{i}"}}}))
        wire.publish(WireMessage.jsonrpc("mcp", "server", {"jsonrpc": "2.0", "id": i,
            "result": {"content": [{"type": "text", "text": f"result {i}"}]}}))
threading.Thread(target=flood).start()"""

EXPECTED_METHODS = {
    "POST /v1/chat/completions",
    "initialize",
    "notifications/initialized",
    "tools/list",
    "tools/call",
}

MONITOR = """() => {
  const m = window.__frames = { gaps: [], longTasks: [], start: performance.now() };
  let last = performance.now();
  const tick = (now) => { m.gaps.push(now - last); last = now; if (!m.stop) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  new PerformanceObserver((list) => list.getEntries().forEach((e) => m.longTasks.push(e.duration)))
    .observe({ type: "longtask" });
}"""

SUMMARY = """() => {
  const m = window.__frames; m.stop = true;
  const gaps = m.gaps.slice(1).sort((a, b) => a - b);
  const pct = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))];
  return { frames: gaps.length, seconds: (performance.now() - m.start) / 1000,
    median_frame_ms: pct(0.5), p99_frame_ms: pct(0.99), max_frame_ms: gaps[gaps.length - 1],
    frames_over_50ms: gaps.filter((g) => g > 50).length,
    long_tasks: m.longTasks.length, longest_task_ms: Math.max(0, ...m.longTasks),
    long_task_total_ms: m.longTasks.reduce((a, b) => a + b, 0) };
}"""


def write_notebook(lab, name, *cells):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, lab.root / name)


def open_notebook(page, lab, name):
    page.goto(lab.notebook_url(name))
    page.wait_for_function(
        """() => {
        const panel = window.jupyterapp?.shell.currentWidget;
        return panel?.sessionContext?.session?.kernel?.status === "idle" && panel.content?.widgets.length;
    }""",
        timeout=90_000,
    )


def run_all_cells(page):
    """Start running every cell; returns at once (the command's promise is not awaited)."""
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def last_prompt(page):
    """The last cell's prompt: "[*]:" while it is queued or running."""
    return page.evaluate("""() => [...window.jupyterapp.shell.currentWidget.node
        .querySelectorAll('.jp-InputArea-prompt')].pop().textContent.trim()""")


def test_the_inspector_fills_live_while_cells_run_and_errors_stand_out(lab, page, output_dir):
    write_notebook(lab, "live.ipynb", SETUP, ATTACH, CHAT, MCP_FROM_A_THREAD, LOOP, HOLD)
    open_notebook(page, lab, "live.ipynb")
    run_all_cells(page)
    inspector = page.locator(".wirelab-inspector")
    page.wait_for_function(
        "() => document.querySelector('.wirelab-inspector')?.dataset.count === '17'",
        timeout=60_000,
        polling=100,
    )
    assert last_prompt(page) == "[*]:"  # the last cell has not finished: the rows came in live
    rows = inspector.locator(".wi-row")
    assert rows.count() == 17
    assert set(rows.evaluate_all("rows => rows.map(r => r.dataset.method)")) - {""} == EXPECTED_METHODS
    errors = inspector.locator(".wi-row.wi-alert")
    assert errors.evaluate_all("rows => rows.map(r => r.dataset.kind)") == ["error", "error"]
    assert inspector.get_attribute("data-errors") == "2"
    assert inspector.locator(".wi-count").inner_text().startswith("17 messages · 2 errors")
    page.wait_for_function(
        "() => document.querySelector('.wirelab-stepper')?.dataset.step === 'answer'", timeout=30_000
    )
    stepper = page.locator(".wirelab-stepper")
    assert stepper.locator(".ls-message").count() == 4
    assert stepper.locator(".ls-step[data-step='answer'].ls-active").count() == 1
    assert page.locator(".wirelab-fallback").first.is_hidden()
    errors.first.click()
    assert "does not exist" in inspector.locator(".wi-detail").inner_text()
    inspector.screenshot(path=str(output_dir / "inspector.png"))
    stepper.screenshot(path=str(output_dir / "stepper.png"))
    page.screenshot(path=str(output_dir / "jupyterlab.png"))


def test_ten_thousand_messages_render_in_a_virtual_list(lab, page, output_dir):
    write_notebook(
        lab, "flood.ipynb", SETUP + "\nwire = Wire()\ninspector = inspect_wire(wire, height=400)", FLOOD
    )
    open_notebook(page, lab, "flood.ipynb")
    run_all_cells(page)
    page.wait_for_selector(".wirelab-inspector", timeout=60_000)
    page.evaluate(MONITOR)
    page.wait_for_function(
        "() => document.querySelector('.wirelab-inspector').dataset.count === '10000'", timeout=120_000
    )
    page.wait_for_timeout(500)
    numbers = page.evaluate(SUMMARY)
    inspector = page.locator(".wirelab-inspector")
    assert inspector.locator(".wi-row").count() <= 60  # only the visible window is in the DOM
    inspector.locator(".wi-list").evaluate("list => { list.scrollTop = 0; }")
    page.wait_for_selector(".wirelab-inspector .wi-row[data-seq='0']", timeout=10_000)
    inspector.screenshot(path=str(output_dir / "inspector-10k.png"))
    (output_dir / "inspector-10k.json").write_text(json.dumps(numbers, indent=2))
    print("10,000 messages in the page:", json.dumps(numbers))
