"""The audit log: one entry per call, secrets redacted, decisions recorded, tampering detected."""

import itertools
import json

import pytest

from wirelab.errors import PermissionDenied
from wirelab.loop import execute_sequentially
from wirelab.security.audit import GENESIS, AuditLog, audited, decision_of, digest, entry_digest
from wirelab.security.executor import guarded
from wirelab.security.outbound import SecretStore
from wirelab.tools import ToolRegistry

KEY = "sk-live-7f3a9c2e5b1d4e8f"


def lookup(order_id: str) -> str:
    """Look an order up."""
    return f"order {order_id}: shipped"


def send(body: str) -> str:
    """Send a message."""
    return "sent"


TOOLS = ToolRegistry([lookup, send])


def call(name, arguments, call_id="call_1"):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def deny_send(call, tools):
    if call["function"]["name"] == "send":
        raise PermissionDenied("send is not granted")


def fixed_clock():
    ticks = itertools.count()
    return lambda: 1_767_225_600 + next(ticks)


@pytest.fixture
def log(tmp_path):
    secrets = SecretStore()
    secrets.add("deploy_key", KEY)
    return AuditLog(tmp_path / "audit.jsonl", redact=secrets.redact, clock=fixed_clock())


def run(log, *calls):
    return audited(guarded(deny_send), log)(list(calls), TOOLS)


def test_every_call_gets_one_entry_with_its_decision_code_and_result_size(log):
    results = run(
        log,
        call("lookup", {"order_id": "A-1"}, "c1"),
        call("send", {"body": "hi"}, "c2"),
        call("nope", {}, "c3"),
    )
    rows = [(e["call_id"], e["tool"], e["decision"], e["code"], e["result_chars"]) for e in log.entries()]
    assert rows == [
        ("c1", "lookup", "ok", None, len(results[0])),
        ("c2", "send", "blocked", "permission_denied", len(results[1])),
        ("c3", "nope", "error", "unknown_tool", len(results[2])),
    ]


def test_the_entry_keeps_a_digest_of_the_exact_arguments_and_a_redacted_copy(log):
    raw = json.dumps({"body": f"key {KEY}"})
    run(log, {"id": "c", "type": "function", "function": {"name": "send", "arguments": raw}})
    entry = log.entries()[0]
    assert entry["arguments_sha256"] == digest(raw)
    assert entry["arguments"] == {"body": "key [secret:deploy_key]"}
    assert KEY not in log.path.read_text()


def test_arguments_that_are_not_json_are_logged_as_they_came(log):
    run(log, {"id": "c", "type": "function", "function": {"name": "lookup", "arguments": "{oops"}})
    assert log.entries()[0]["arguments"] == {"unparsed": "{oops"}


def test_times_are_utc_iso_8601_from_the_clock(log):
    run(log, call("lookup", {"order_id": "A-1"}))
    assert log.entries()[0]["time"] == "2026-01-01T00:00:00.000Z"


def test_the_file_is_appended_to_and_a_reopened_log_continues_the_chain(log):
    run(log, call("lookup", {"order_id": "A-1"}))
    again = AuditLog(log.path)
    again.record(call("lookup", {"order_id": "A-2"}), "ok")
    assert [e["seq"] for e in again.entries()] == [0, 1] and again.verify() is None


def test_each_entry_is_chained_to_the_line_before(log):
    run(log, call("lookup", {"order_id": "A-1"}), call("lookup", {"order_id": "A-2"}))
    first, second = log.entries()
    assert (first["prev"], second["prev"]) == (GENESIS, first["sha256"])
    assert first["sha256"] == entry_digest(first)


@pytest.mark.parametrize(
    "tamper, broken",
    [
        (lambda lines: [lines[0].replace("A-1", "A-9"), *lines[1:]], 0),
        (lambda lines: [lines[0], *lines[2:]], 1),
        (lambda lines: [lines[0], "not json", *lines[1:]], 1),
        (lambda lines: [lines[0], lines[0], *lines[1:]], 1),
    ],
)
def test_an_edited_deleted_or_inserted_line_breaks_the_chain_where_it_happened(log, tamper, broken):
    run(log, *(call("lookup", {"order_id": f"A-{n}"}, f"c{n}") for n in (1, 2, 3)))
    lines = log.path.read_text().splitlines()
    log.path.write_text("\n".join(tamper(lines)) + "\n")
    assert log.verify() == broken


def test_an_edit_of_the_last_line_is_caught_by_its_own_digest(log):
    run(log, call("lookup", {"order_id": "A-1"}), call("send", {"body": "to x"}))
    log.path.write_text(log.path.read_text().replace("to x", "to y"))
    assert log.verify() == 1


def test_an_in_memory_log_works_without_a_file():
    memory = AuditLog()
    audited(execute_sequentially, memory)([call("lookup", {"order_id": "A-1"})], TOOLS)
    assert [e["tool"] for e in memory.entries()] == ["lookup"] and memory.verify() is None


@pytest.mark.parametrize(
    "result, decision",
    [
        ('{"ok": true}', ("ok", None)),
        ("plain text", ("ok", None)),
        ('{"error": {"code": "secret_blocked", "message": "m"}}', ("blocked", "secret_blocked")),
        ('{"error": {"code": "tool_failed", "message": "m"}}', ("error", "tool_failed")),
    ],
)
def test_a_result_is_read_as_ok_blocked_or_error(result, decision):
    assert decision_of(result) == decision
