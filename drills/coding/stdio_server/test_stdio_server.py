"""Checks for the MCP stdio server drill: the learner's file runs as a subprocess.

Every read has a deadline, so a server that stays silent fails a check instead of hanging it.
"""

import json
import queue
import subprocess
import sys
import threading

import pytest

INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "drill-check", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


class Server:
    """The learner's server on the other end of two pipes."""

    def __init__(self, path):
        self.process = subprocess.Popen(
            [sys.executable, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)  # end of output: the server exited or closed stdout

    def send(self, message):
        text = message if isinstance(message, str) else json.dumps(message)
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def receive(self, timeout=5.0):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail("no answer from the server within 5 s (did you flush stdout?)")
        if line is None:
            self.process.wait(timeout=5)
            pytest.fail(
                f"the server exited (code {self.process.returncode}); its stderr ends:\n"
                + self.process.stderr.read()[-800:]
            )
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            pytest.fail(f"stdout must carry only JSON lines; got {line!r} (log to stderr)")

    def request(self, message):
        self.send(message)
        return self.receive()

    def close(self):
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


@pytest.fixture
def server(drill_file):
    running = Server(drill_file)
    yield running
    if running.process.poll() is None:
        running.close()


@pytest.fixture
def ready(server):
    assert "result" in server.request(INIT)
    server.send(INITIALIZED)
    return server


def test_initialize_answers_the_version_capabilities_and_server_info(server):
    reply = server.request(INIT)
    assert reply["jsonrpc"] == "2.0" and reply["id"] == 0
    assert reply["result"]["protocolVersion"] == "2025-11-25"
    assert "tools" in reply["result"]["capabilities"]
    assert reply["result"]["serverInfo"]["name"]


def test_a_notification_is_never_answered(ready):
    ready.send({"jsonrpc": "2.0", "method": "notifications/whatever"})
    reply = ready.request({"jsonrpc": "2.0", "id": "after", "method": "ping"})
    assert reply == {"jsonrpc": "2.0", "id": "after", "result": {}}, "answer only requests"


def test_tools_list_describes_the_add_tool(ready):
    tools = ready.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]["tools"]
    assert [t["name"] for t in tools] == ["add"]
    assert tools[0]["inputSchema"]["type"] == "object" and tools[0]["description"]


def test_tools_call_returns_the_sum_as_text_content(ready):
    reply = ready.request(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 2, "b": 3}},
        }
    )
    assert reply["id"] == 2
    assert reply["result"]["content"] == [{"type": "text", "text": "5"}]
    assert reply["result"].get("isError") is not True


def test_bad_arguments_are_a_tool_error_result_not_a_protocol_error(ready):
    reply = ready.request(
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": "two", "b": 3}},
        }
    )
    assert "result" in reply, "input validation failures are results with isError (2025-11-25)"
    assert reply["result"]["isError"] is True and reply["result"]["content"][0]["text"]


def test_an_unknown_tool_is_invalid_params(ready):
    reply = ready.request(
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "divide", "arguments": {}}}
    )
    assert reply["error"]["code"] == -32602 and reply["id"] == 4


def test_an_unknown_method_is_method_not_found(ready):
    reply = ready.request({"jsonrpc": "2.0", "id": 5, "method": "tools/explode"})
    assert reply["error"]["code"] == -32601 and reply["id"] == 5


def test_a_line_that_is_not_json_gets_a_parse_error_and_the_server_goes_on(ready):
    reply = ready.request("{this is not json")
    assert reply["error"]["code"] == -32700 and reply["id"] is None
    assert ready.request({"jsonrpc": "2.0", "id": 6, "method": "ping"})["result"] == {}


def test_the_server_exits_when_stdin_closes(ready):
    assert ready.close() == 0, "return from the read loop at end of input"
