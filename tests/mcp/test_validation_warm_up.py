"""The server imports jsonschema while the client does its handshake, not during the first tools/call.

Importing jsonschema took 4.5 s on a loaded machine, longer than a lesson client's timeout, so
the server starts the import on a thread when it is made (`warm_up_validation`). The test runs
in a fresh interpreter (this one has imported jsonschema long ago), with an import hook that
records which thread executes the `jsonschema` module and when, and that makes it take a
second, as a slow machine would.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.timeout(120)

SLOW_IMPORT_S = 1.0

PROBE = textwrap.dedent(
    """
    import asyncio, importlib.abc, importlib.util, json, sys, threading, time

    SLOW_IMPORT_S = %(slow)r
    events = []


    class SlowJsonschema(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "jsonschema":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            execute = spec.loader.exec_module

            def exec_module(module):
                events.append(["start", threading.current_thread().name, time.monotonic()])
                time.sleep(SLOW_IMPORT_S)
                execute(module)
                events.append(["end", threading.current_thread().name, time.monotonic()])

            spec.loader.exec_module = exec_module
            return spec


    sys.meta_path.insert(0, SlowJsonschema())
    from wirelab.jsonrpc import notification, request
    from wirelab.mcp.example import build_server

    out = {"imported_with_the_package": "jsonschema" in sys.modules}
    session = build_server().connect(lambda message: None)
    deadline = time.monotonic() + 30
    while not events and time.monotonic() < deadline:  # no message sent yet
        time.sleep(0.01)
    out["started_before_any_message"] = bool(events)


    async def first_call():
        initialize = {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "probe", "version": "1"},
        }
        await session.handle(request(0, "initialize", initialize))
        await session.handle(notification("notifications/initialized"))
        out["call_sent"] = time.monotonic()
        bad = {"name": "add_note", "arguments": {"slug": "x", "title": "X"}}  # body missing
        out["response"] = await session.handle(request(1, "tools/call", bad))
        out["call_answered"] = time.monotonic()


    asyncio.run(first_call())
    out["events"] = events
    out["main_thread"] = threading.current_thread().name
    print(json.dumps(out))
    """
) % {"slow": SLOW_IMPORT_S}


@pytest.fixture(scope="module")
def probe() -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=100)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_importing_the_server_package_does_not_import_jsonschema(probe):
    assert not probe["imported_with_the_package"]


def test_making_a_server_starts_the_import_on_another_thread_before_any_message(probe):
    assert probe["started_before_any_message"], "no import of jsonschema began until a tools/call"
    (start,) = [e for e in probe["events"] if e[0] == "start"]
    assert start[1] != probe["main_thread"], "the server's own thread imported jsonschema"


def test_jsonschema_is_executed_once_by_the_warm_up_thread_even_if_a_call_comes_during_it(probe):
    start, end = probe["events"]
    assert [start[0], end[0]] == ["start", "end"]
    assert start[1] == end[1] != probe["main_thread"]
    assert probe["call_sent"] < end[2], "the call was meant to arrive while the import was running"


def test_a_call_during_the_warm_up_waits_for_the_import_and_is_validated(probe):
    end = probe["events"][-1][2]
    assert probe["call_answered"] >= end
    result = probe["response"]["result"]
    assert result["isError"] is True
    assert "body" in result["content"][0]["text"]
