"""The audit log: one entry per call, secrets redacted, decisions recorded, tampering detected."""

import hashlib
import hmac
import itertools
import json

import pytest

from tests.security.tampering_corpus import BEYOND_A_LOCAL_LOG, TAMPERING, rewrite_with_the_key_and_the_head
from wirelab.errors import PermissionDenied
from wirelab.loop import execute_sequentially
from wirelab.security.audit import (
    GENESIS,
    AuditLog,
    Broken,
    RolledBack,
    Witness,
    audited,
    decision_of,
    digest,
    strict_json,
)
from wirelab.security.executor import guarded
from wirelab.security.outbound import SecretStore
from wirelab.tools import ToolRegistry

KEY = "sk-live-7f3a9c2e5b1d4e8f"
LOG_KEY = b"a key kept away from the log file"


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
    return AuditLog(tmp_path / "audit.jsonl", key=LOG_KEY, redact=secrets.redact, clock=fixed_clock())


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
    again = AuditLog(log.path, key=LOG_KEY)
    again.record(call("lookup", {"order_id": "A-2"}), "ok")
    assert [e["seq"] for e in again.entries()] == [0, 1] and again.verify() is None


def test_each_entry_is_chained_to_the_line_before_by_a_keyed_mac(log):
    run(log, call("lookup", {"order_id": "A-1"}), call("lookup", {"order_id": "A-2"}))
    first, second = log.entries()
    assert (first["prev"], second["prev"]) == (GENESIS, first["mac"])
    body = json.dumps({k: v for k, v in first.items() if k != "mac"}, ensure_ascii=False, sort_keys=True)
    assert first["mac"] == hmac.new(LOG_KEY, body.encode(), hashlib.sha256).hexdigest()


def test_the_sealed_head_holds_the_count_and_the_last_mac_apart_from_the_log(log):
    run(log, call("lookup", {"order_id": "A-1"}), call("lookup", {"order_id": "A-2"}))
    head = json.loads(log.head_path.read_text())
    assert log.head_path != log.path
    assert (head["count"], head["last"]) == (2, log.entries()[-1]["mac"])


def test_a_log_in_a_file_without_a_key_is_refused_with_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="needs its key"):
        AuditLog(tmp_path / "audit.jsonl")


def test_duplicate_json_keys_are_refused_not_read_last_one_wins():
    with pytest.raises(ValueError, match="duplicate key 'decision'"):
        strict_json('{"decision": "ok", "decision": "blocked"}')


def test_an_edit_of_the_last_line_is_caught_by_its_own_mac(log):
    run(log, call("lookup", {"order_id": "A-1"}), call("send", {"body": "to x"}))
    log.path.write_text(log.path.read_text().replace("to x", "to y"))
    assert log.verify() == Broken(1, "its MAC does not match: edited, or written without the key")


@pytest.mark.parametrize("name", TAMPERING)
def test_every_kind_of_tampering_is_detected_at_the_first_line_it_touched(log, name):
    run(log, *(call("lookup", {"order_id": f"A-{n}"}, f"c{n}") for n in (1, 2, 3)))
    assert log.verify() is None
    first_broken = TAMPERING[name](log)
    assert log.verify() is not None and log.verify().line == first_broken


@pytest.mark.parametrize("name", BEYOND_A_LOCAL_LOG)
def test_what_a_local_log_cannot_detect(log, name):
    """Lesson 13 says so: with the key and the head, history can be rewritten unseen."""
    run(log, *(call("lookup", {"order_id": f"A-{n}"}, f"c{n}") for n in (1, 2, 3)))
    BEYOND_A_LOCAL_LOG[name](log)
    assert log.verify() is None


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


def rolled_back(log, tmp_path):
    """Issue 23: copy the log and its head after entry 2, let the agent go on, then put the copies
    back. No key is needed: every line and the head are genuine, only old."""
    run(log, call("lookup", {"order_id": "A-1"}, "c1"), call("lookup", {"order_id": "A-2"}, "c2"))
    log_copy, head_copy = log.path.read_bytes(), log.head_path.read_bytes()
    run(log, call("send", {"body": "deploy"}, "c3"), call("send", {"body": "delete_repo"}, "c4"))
    log.path.write_bytes(log_copy)
    log.head_path.write_bytes(head_copy)
    return AuditLog(log.path, key=LOG_KEY, head=log.head_path, witness=log.witness)


def test_a_rollback_to_an_old_copy_of_both_files_passes_a_local_log(log, tmp_path):
    """Lesson 13 says so: the log alone cannot tell an old log from the latest."""
    reopened = rolled_back(log, tmp_path)
    assert reopened.verify() is None and len(reopened.entries()) == 2


def test_a_witness_outside_the_host_detects_the_rollback(tmp_path):
    witness = Witness()
    log = AuditLog(tmp_path / "audit.jsonl", key=LOG_KEY, clock=fixed_clock(), witness=witness)
    reopened = rolled_back(log, tmp_path)
    assert reopened.verify() == Broken(
        2, "rolled back: the witness was shown 4 entries, the log and its head hold 2"
    )
    with pytest.raises(RolledBack, match="not appending: rolled back"):
        run(reopened, call("lookup", {"order_id": "A-3"}, "c5"))


@pytest.mark.parametrize("name", BEYOND_A_LOCAL_LOG)
def test_a_witness_detects_what_a_local_log_cannot(tmp_path, name):
    witness = Witness()
    log = AuditLog(tmp_path / "audit.jsonl", key=LOG_KEY, clock=fixed_clock(), witness=witness)
    run(log, *(call("lookup", {"order_id": f"A-{n}"}, f"c{n}") for n in (1, 2, 3)))
    BEYOND_A_LOCAL_LOG[name](log)
    assert log.verify() is not None


def test_a_witness_refuses_an_older_or_a_different_head():
    witness = Witness()
    witness.checkpoint(1, "a" * 64)
    witness.checkpoint(2, "b" * 64)
    for count, last in ((1, "a" * 64), (2, "c" * 64)):
        with pytest.raises(RolledBack):
            witness.checkpoint(count, last)
    assert witness.heads == {1: "a" * 64, 2: "b" * 64}


def test_a_key_holder_who_rewrites_history_then_appends_is_still_caught_by_the_witness(tmp_path):
    """A witness that kept only the newest head would take the forged log's next head; one that
    keeps every head it was shown sees that entry 1 is not the one it was shown."""
    witness = Witness()
    log = AuditLog(tmp_path / "audit.jsonl", key=LOG_KEY, clock=fixed_clock(), witness=witness)
    run(log, *(call("lookup", {"order_id": f"A-{n}"}, f"c{n}") for n in (1, 2, 3)))
    rewrite_with_the_key_and_the_head(log)  # entry 1 now for another order, the head resealed
    forged = AuditLog(log.path, key=LOG_KEY, head=log.head_path, clock=fixed_clock())
    forged.record(call("lookup", {"order_id": "A-4"}, "c4"), "order A-4: shipped")
    witness.checkpoint(forged.head()["count"], forged.head()["last"])  # the forger tells the witness
    checked = AuditLog(log.path, key=LOG_KEY, head=log.head_path, witness=witness)
    assert checked.verify() == Broken(1, "rewritten: entry 1 is not the one the witness was shown")
