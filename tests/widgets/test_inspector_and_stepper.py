"""The wire inspector and the loop stepper, on the Python side: what they log, send and show."""

import json
import pathlib
import sys
import threading

import IPython.display
import openai
import pytest

from wirelab.check.runner import private_kernel
from wirelab.loop import LoopEvent, run_tool_loop
from wirelab.tools import ToolRegistry
from wirelab.widgets import LoopStepper, WireInspector, inspect_wire
from wirelab.widgets.flusher import Flusher
from wirelab.widgets.static import steps_text, summarize, traffic_html, traffic_text
from wirelab.widgets.traffic import TrafficLog, json_text
from wirelab.wire import Wire, WireMessage

WIDGETS = pathlib.Path(__file__).parents[2] / "wirelab" / "widgets"


def rpc(sender, **members):
    return WireMessage.jsonrpc("mcp", sender, {"jsonrpc": "2.0", **members})


def at(message, time):
    """The same message, stamped at `time` seconds."""
    return WireMessage(
        message.channel,
        message.sender,
        message.kind,
        message.payload,
        message.method,
        message.exchange,
        message.status,
        time,
    )


class Recorder:
    """Stands in for `Widget.send`: keeps each custom message and its decoded buffers."""

    def __init__(self):
        self.sent = []

    def __call__(self, content, buffers=None):
        self.sent.append((content, [json.loads(bytes(b)) for b in buffers or []]))

    def rows(self):
        return [
            row
            for content, buffers in self.sent
            if content["type"] == "rows"
            for buffer in buffers
            for row in buffer
        ]


@pytest.fixture
def inspector():
    wire = Wire()
    made = WireInspector(wire, interval=0.2)
    made.send = Recorder()
    made.wire = wire
    yield made
    made.close()


# ---- the log -----------------------------------------------------------------------------------
def test_a_response_is_paired_with_its_request_and_takes_its_method():
    log = TrafficLog()
    log.add(rpc("client", id=7, method="tools/list"))
    log.add(rpc("server", id=7, result={"tools": []}))
    request, response = log.rows()
    assert (response["pair"], response["method"], response["kind"]) == (0, "tools/list", "response")
    assert (request["direction"], response["direction"]) == ("client→server", "server→client")


def test_latency_is_the_time_from_the_request_to_its_response():
    log = TrafficLog()
    log.add(at(rpc("client", id=1, method="ping"), 10.0))
    log.add(at(rpc("server", id=1, result={}), 10.25))
    assert [row["latency_ms"] for row in log.rows()] == [None, 250.0]
    assert [row["t"] for row in log.rows()] == [0.0, 0.25]


def test_requests_in_the_two_directions_with_the_same_id_do_not_answer_each_other():
    log = TrafficLog()
    log.add(rpc("client", id=1, method="tools/call"))
    log.add(rpc("server", id=1, method="sampling/createMessage"))
    log.add(rpc("client", id=1, result={"role": "assistant"}))
    log.add(rpc("server", id=1, result={"content": []}))
    assert [(row["pair"], row["method"]) for row in log.rows()][2:] == [
        (1, "sampling/createMessage"),
        (0, "tools/call"),
    ]


def test_a_notification_is_never_paired_and_an_unanswered_response_keeps_no_method():
    log = TrafficLog()
    log.add(rpc("client", method="notifications/initialized"))
    log.add(rpc("server", id=9, result={}))
    assert [(row["kind"], row["pair"], row["method"]) for row in log.rows()] == [
        ("notification", None, "notifications/initialized"),
        ("response", None, None),
    ]


def test_errors_invalid_messages_and_failed_tool_results_stand_out():
    log = TrafficLog()
    log.add(rpc("server", id=1, error={"code": -32601, "message": "Method not found"}))
    log.add(WireMessage.jsonrpc("mcp", "server", "not json at all"))
    log.add(rpc("server", id=2, result={"content": [], "isError": True}))
    log.add(rpc("server", id=3, result={"content": []}))
    assert [row["alert"] for row in log.rows()] == [True, True, True, False]
    assert log.alerts == 3


def test_rows_filter_by_kind_method_and_channel():
    log = TrafficLog()
    log.add(rpc("client", id=1, method="ping"))
    log.add(rpc("server", id=1, result={}))
    log.add(WireMessage("chat", "client", "request", {}, "POST /v1/chat/completions", 1))
    assert [row["seq"] for row in log.rows(method="ping")] == [0, 1]
    assert [row["seq"] for row in log.rows(kind="request")] == [0, 2]
    assert [row["seq"] for row in log.rows(channel="chat", kind="request")] == [2]


def test_export_is_one_json_row_per_line_payload_included():
    log = TrafficLog()
    log.add(rpc("client", id=1, method="ping"))
    log.add(rpc("server", id=1, result={"ok": True}))
    lines = log.to_jsonl().splitlines()
    assert [json.loads(line)["payload"] for line in lines] == [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": 1, "result": {"ok": True}},
    ]


def test_payloads_that_are_not_plain_json_are_exported_as_text_not_lost():
    log = TrafficLog()
    log.add(WireMessage("chat", "server", "response", {"x": float("nan"), "raw": b"\x00"}))
    assert json.loads(log.to_jsonl())["payload"] == {"x": "nan", "raw": "b'\\x00'"}
    assert json_text([float("inf")]) == '["inf"]'


def test_clear_forgets_the_rows_but_never_reuses_their_numbers():
    log = TrafficLog()
    log.add(rpc("client", id=1, method="ping"))
    assert log.rows() and log.clear() == 1
    log.add(rpc("server", id=1, result={}))
    assert [(row["seq"], row["pair"]) for row in log.rows()] == [(1, None)]


def test_the_log_refuses_what_is_not_a_wire_message():
    with pytest.raises(TypeError, match="WireMessage"):
        TrafficLog().add({"jsonrpc": "2.0", "method": "ping"})


def test_messages_published_from_several_threads_are_all_logged_once_and_paired():
    wire, log = Wire(), TrafficLog()
    wire.subscribe(log.add)

    def talk(thread):
        for n in range(300):
            wire.publish(rpc("client", id=f"{thread}-{n}", method=f"m{thread}"))
            wire.publish(rpc("server", id=f"{thread}-{n}", result={}))

    threads = [threading.Thread(target=talk, args=(t,)) for t in range(6)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        log.drain()  # drain while they publish, as the flusher does
    rows = log.rows()
    assert [row["seq"] for row in rows] == list(range(6 * 600))
    responses = [row for row in rows if row["kind"] == "response"]
    assert all(
        rows[r["pair"]]["id"] == r["id"] and r["method"] == rows[r["pair"]]["method"] for r in responses
    )


# ---- the flusher ---------------------------------------------------------------------------------
def test_no_thread_starts_before_the_first_poke_and_pokes_close_together_make_one_flush():
    flushes = []
    flusher = Flusher(lambda: flushes.append(1), interval=0.5)
    assert not flusher.running
    for _ in range(20):
        flusher.poke()
    assert flusher.wait_idle() and flushes == [1]
    flusher.stop()
    assert not flusher.running


def test_a_flush_that_fails_is_reported_and_the_next_one_still_runs(capsys):
    calls = []

    def flush():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("bad batch")

    flusher = Flusher(flush, interval=0)
    flusher.poke()
    assert flusher.wait_idle()
    flusher.poke()
    assert flusher.wait_idle() and len(calls) >= 2
    assert isinstance(flusher.last_error, RuntimeError) and "bad batch" in capsys.readouterr().err
    flusher.stop()


def test_a_negative_interval_is_refused():
    with pytest.raises(ValueError, match="interval"):
        Flusher(lambda: None, interval=-1)


# ---- the inspector widget ------------------------------------------------------------------------
def test_the_inspector_sends_rows_in_batches_not_one_message_per_row(inspector):
    for n in range(200):
        inspector.wire.publish(rpc("client", id=n, method="ping"))
    assert inspector.flush()
    assert len(inspector.send.sent) <= 2
    assert inspector.send.rows() == inspector.rows()
    assert len(inspector.send.rows()) == 200


def test_a_view_that_asks_to_sync_gets_the_rows_it_missed(inspector):
    for n in range(5):
        inspector.wire.publish(rpc("client", id=n, method="ping"))
    inspector.flush()
    inspector._on_browser_message(inspector, {"type": "sync", "next": 3}, [])
    inspector.flush()
    assert [row["seq"] for row in inspector.send.rows()] == [0, 1, 2, 3, 4, 3, 4]


def test_clearing_empties_the_log_and_tells_every_view_to_reset(inspector):
    inspector.wire.publish(rpc("client", id=1, method="ping"))
    inspector.flush()
    inspector._on_browser_message(inspector, {"type": "clear"}, [])
    inspector.flush()
    assert inspector.rows() == [] and inspector.send.sent[-1][0] == {"type": "reset", "next": 1}


def test_a_browser_message_of_an_unknown_type_changes_nothing(inspector):
    inspector.wire.publish(rpc("client", id=1, method="ping"))
    inspector._on_browser_message(inspector, {"type": "launch"}, [])
    inspector._on_browser_message(inspector, "not a dict", [])
    assert inspector.flush() and len(inspector.rows()) == 1


def test_one_inspector_shows_several_sources_and_detach_stops_new_rows():
    chat, mcp = Wire(), Wire()
    inspector = WireInspector(chat, mcp)
    chat.publish(WireMessage("chat", "client", "request", {}, "POST /v1/chat/completions", 1))
    mcp.publish(rpc("client", id=1, method="ping"))
    inspector.detach(mcp)
    mcp.publish(rpc("server", id=1, result={}))
    assert [row["channel"] for row in inspector.rows()] == ["chat", "mcp"]
    inspector.close()


def test_bad_sources_are_refused_with_a_clear_error():
    with pytest.raises(TypeError, match="object with a .wire"):
        WireInspector(object())
    with pytest.raises(ValueError, match="at least one source"):
        inspect_wire()


def test_the_inspector_logs_the_model_clients_requests_responses_and_http_errors():
    from wirelab.llm import client, model_name

    llm = client()
    inspector = WireInspector(llm)
    llm.chat.completions.create(model=model_name(), messages=[{"role": "user", "content": "hi"}])
    with pytest.raises(openai.NotFoundError):
        llm.chat.completions.create(model="no-such-model", messages=[{"role": "user", "content": "hi"}])
    rows = inspector.rows()
    assert [(r["kind"], r["status"], r["pair"]) for r in rows] == [
        ("request", None, None),
        ("response", 200, 0),
        ("request", None, None),
        ("error", 404, 2),
    ]
    assert {r["method"] for r in rows} == {"POST /v1/chat/completions"}
    inspector.close()


def test_the_repr_is_stable_text_without_an_address(inspector):
    inspector.wire.publish(rpc("server", id=1, error={"code": 1, "message": "no"}))
    assert repr(inspector) == "WireInspector(sources=1, messages=1, errors=1)"


# ---- static views --------------------------------------------------------------------------------
def test_the_mimebundle_carries_an_html_table_for_where_widgets_cannot_render(inspector):
    inspector.wire.publish(rpc("client", id=1, method="tools/list"))
    inspector.wire.publish(rpc("server", id=1, error={"code": -32601, "message": "Method not found"}))
    data, _ = inspector._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/html"].count("<tr") == 3 and "Method not found" in data["text/html"]
    assert "⚠ error" in repr(inspector.static())


def test_the_text_table_keeps_latency_last_so_masking_it_keeps_the_alignment():
    log = TrafficLog()
    log.add(at(rpc("client", id=1, method="ping"), 0.0))
    log.add(at(rpc("server", id=1, result={}), 0.0123))
    header, request, response = traffic_text(log.rows()).splitlines()[1:]
    assert header.endswith("latency") and response.endswith("12.3 ms")
    assert not request.endswith(" ")


def test_the_static_table_shows_the_last_rows_and_says_how_many_are_hidden():
    log = TrafficLog()
    for n in range(60):
        log.add(rpc("client", method="notifications/progress", params={"n": n}))
    text, page = traffic_text(log.rows(), limit=10), traffic_html(log.rows(), limit=10)
    assert "50 earlier messages not shown" in text and '{"n":59}' in text
    assert page.count("<tr>") == 11


def test_the_static_table_stays_small_whatever_the_payloads():
    log = TrafficLog()
    for n in range(200):
        log.add(rpc("server", id=n, result={"content": [{"type": "text", "text": "x" * 5_000}]}))
    page = traffic_html(log.rows())
    assert len(page) < 12_000
    shown = page.count("<tr>") - 1
    assert 0 < shown <= 25 and f"… {200 - shown} earlier messages not shown" in page
    assert "more characters)" in page  # each payload is cut, and says so


def test_the_log_is_a_ring_buffer_that_counts_what_it_dropped():
    log = TrafficLog(max_rows=4)
    for n in range(10):
        log.add(rpc("client", id=n, method="ping"))
        log.add(rpc("server", id=n, error={"code": -1, "message": "no"}))
    rows = log.rows()
    assert [row["seq"] for row in rows] == [16, 17, 18, 19]
    assert (len(log), log.dropped, log.alerts, log.next_seq) == (4, 16, 2, 20)
    assert log.rows_from(0) == rows and log.rows_from(18) == rows[2:]
    assert log.clear() == 20 and log.dropped == 0


def test_requests_never_answered_are_remembered_only_while_their_rows_are_kept():
    log = TrafficLog(max_rows=4)
    for n in range(1000):
        log.add(rpc("client", id=n, method="tools/call"))
    log.drain()
    assert (len(log), log.awaiting) == (4, 4)
    log.add(rpc("server", id=999, result={}))
    log.add(rpc("server", id=3, result={}))  # its request left the buffer long ago
    late, early = log.rows()[-2:]
    assert (late["pair"], late["method"]) == (999, "tools/call")
    assert (early["pair"], early["method"]) == (None, None)
    assert log.awaiting == 1  # id 998: 999 was answered, and the rows of 996 and 997 were dropped


def test_an_id_sent_again_is_forgotten_with_its_newest_request_not_its_first():
    log = TrafficLog(max_rows=3)
    log.add(rpc("client", id=1, method="ping"))  # row 0
    log.add(rpc("client", id=2, method="tools/list"))  # row 1
    log.add(rpc("client", id=1, method="tools/call"))  # row 2: id 1 again
    log.add(rpc("client", method="notifications/initialized"))  # row 3
    log.add(rpc("client", method="notifications/initialized"))  # row 4: rows 0 and 1 dropped
    log.drain()
    assert log.awaiting == 1
    log.add(rpc("server", id=2, result={}))
    log.add(rpc("server", id=1, result={}))
    assert [(row["pair"], row["method"]) for row in log.rows()[-2:]] == [(None, None), (2, "tools/call")]


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "10"])
def test_a_ring_buffer_needs_a_positive_size(bad):
    with pytest.raises(ValueError, match="max_rows must be a positive integer"):
        TrafficLog(max_rows=bad)


def test_the_browser_keeps_as_many_rows_as_python():
    from wirelab.widgets.traffic import MAX_ROWS

    script = (pathlib.Path(__file__).parents[2] / "wirelab" / "widgets" / "inspector.js").read_text()
    assert f"const MAX_ROWS = {MAX_ROWS};" in script


def test_summaries_name_what_a_message_is_about():
    reply = {"choices": [{"message": {"tool_calls": [{"function": {"name": "get_weather"}}]}}]}
    assert summarize(reply) == "tool_calls: get_weather"
    assert summarize({"error": {"message": "boom"}}) == "boom"
    assert summarize(["chunk"] * 3) == "stream of 3 events"
    assert summarize("x" * 100, width=10) == "x" * 9 + "…"


def test_the_static_copy_is_republished_after_a_cell_that_changed_it(inspector, monkeypatch):
    updates = []
    monkeypatch.setattr(
        IPython.display, "update_display", lambda data, raw, display_id: updates.append((data, display_id))
    )
    inspector._published = inspector._version()
    inspector._republish()
    inspector.wire.publish(rpc("client", id=1, method="tools/list"))
    inspector._republish()
    inspector._republish()
    assert len(updates) == 1 and updates[0][1] == inspector._display_id
    assert "tools/list" in updates[0][0]["text/html"] and "tools/list" in updates[0][0]["text/plain"]


def test_the_widgets_css_hides_the_static_copy_where_the_live_view_renders(inspector):
    assert 'class="wirelab-fallback"' in inspector._fallback_bundle()["text/html"]
    for css in ("inspector.css", "stepper.css"):
        assert ".wirelab-fallback { display: none; }" in (WIDGETS / css).read_text()


# ---- the loop stepper ----------------------------------------------------------------------------
def get_weather(city: str) -> dict:
    """Current weather for a city.

    Args:
        city: City name, e.g. "Paris".
    """
    return {"city": city, "temp_c": 18}


def run_weather_loop(stepper):
    from wirelab.llm import client, model_name

    question = [{"role": "user", "content": "What is the weather in Paris?"}]
    registry = ToolRegistry([get_weather])
    return run_tool_loop(client(), question, registry, model=model_name(), on_event=stepper.on_event)


def test_the_stepper_counts_each_step_of_a_real_loop_and_keeps_its_messages():
    stepper = LoopStepper()
    result = run_weather_loop(stepper)
    assert stepper.counts == {"define": 1, "send": 2, "decide": 2, "execute": 1, "append": 1, "answer": 1}
    assert stepper.last_step == "answer" and stepper.messages == result.messages
    assert repr(stepper) == "LoopStepper(events=8, turns=2, last='answer', messages=4)"
    stepper.close()


def test_the_messages_sent_to_the_browser_rebuild_the_conversation():
    stepper = LoopStepper(interval=0.2)
    stepper.send = Recorder()
    result = run_weather_loop(stepper)
    assert stepper.flush()
    rebuilt = []
    for _content, buffers in stepper.send.sent:
        for record in (r for buffer in buffers for r in buffer):
            rebuilt[record["from"] :] = record["messages"]
    assert rebuilt == json.loads(json.dumps(result.messages))
    stepper.close()


def test_a_new_run_starts_the_stepper_afresh():
    stepper = LoopStepper()
    run_weather_loop(stepper)
    stepper.on_event(LoopEvent("define", 0, {"tools": []}, ()))
    assert stepper.counts["send"] == 0 and stepper.messages == [] and stepper.last_step == "define"
    stepper.close()


def test_the_stepper_refuses_what_is_not_a_loop_event():
    stepper = LoopStepper()
    with pytest.raises(TypeError, match="LoopEvent"):
        stepper.on_event({"step": "send"})
    with pytest.raises(TypeError, match="step among"):
        stepper.on_event(LoopEvent("think", 1, {}, ()))
    stepper.close()


def test_the_steps_text_marks_the_last_step_and_lists_the_messages():
    text = steps_text(
        {"define": 1, "send": 1, "decide": 1, "answer": 1},
        "answer",
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
    )
    assert "[answer ×1]" in text and "execute ×0" in text
    assert text.splitlines()[-1].split() == ["2", "assistant", "hello"]


def test_importing_the_widgets_starts_no_thread():
    code = "import threading, wirelab.widgets; assert threading.active_count() == 1, threading.enumerate()"
    import subprocess

    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_saved_notebook_shows_the_final_traffic_table_in_static_html():
    import nbclient
    import nbconvert
    import nbformat

    cells = [
        "from wirelab.wire import Wire, WireMessage\nfrom wirelab.widgets import inspect_wire",
        "wire = Wire()\ninspector = inspect_wire(wire)",
        'wire.publish(WireMessage.jsonrpc("mcp", "client", {"jsonrpc": "2.0", "id": 1, '
        '"method": "tools/list"}))',
        'wire.publish(WireMessage.jsonrpc("mcp", "server", {"jsonrpc": "2.0", "id": 1, '
        '"error": {"code": -32601, "message": "Method not found"}}))',
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    with private_kernel() as config:
        nbclient.NotebookClient(
            notebook,
            config=config,
            timeout=60,
            kernel_name="python3",
            store_widget_state=False,
            resources={"metadata": {"path": str(WIDGETS.parents[1])}},
        ).execute()
    page, _ = nbconvert.HTMLExporter().from_notebook_node(notebook)
    assert "Wire inspector: 2 messages (1 error) on mcp" in page
    assert "tools/list" in page and "Method not found" in page
