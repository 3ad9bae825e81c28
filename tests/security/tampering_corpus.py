"""Ways to tamper with an audit log after the fact, each returning the first line it broke.

`TAMPERING`: every one must be detected by `AuditLog.verify`. `BEYOND_A_LOCAL_LOG`:
what an attacker who can write both files can do unseen by the log alone (lesson 13
says so), and a witness outside the host detects.
Each function takes a log of three entries (lines 0, 1, 2) kept in a file.
"""

import hashlib
import json

from wirelab.security.audit import AuditLog


def lines(log):
    return log.path.read_text().splitlines()


def write(log, new_lines):
    log.path.write_text("".join(line + "\n" for line in new_lines))


def edit(log, number, change):
    entries = [json.loads(line) for line in lines(log)]
    change(entries[number])
    write(log, [json.dumps(e, sort_keys=True) for e in entries])


def rechain(entries, mac):
    """Recompute every line's `prev` and `mac` with `mac(entry)`: a rewrite of history."""
    previous = "0" * 64
    for entry in entries:
        entry["prev"] = previous
        entry["mac"] = previous = mac(entry)
    return [json.dumps(e, sort_keys=True) for e in entries]


def sha256_of(entry):
    body = {k: v for k, v in entry.items() if k != "mac"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def rewrite_with_unkeyed_chain(log):
    entries = [json.loads(line) for line in lines(log)]
    entries[1]["decision"] = "ok"
    write(log, rechain(entries, sha256_of))
    return 0


def rewrite_with_a_guessed_key(log):
    entries = [json.loads(line) for line in lines(log)]
    entries[0]["tool"] = "harmless"
    write(log, rechain(entries, AuditLog(key=b"guess").mac))
    return 0


def truncate_then_restart_then_append(log):
    write(log, lines(log)[:1])
    restarted = AuditLog(log.path, key=log.key)
    restarted.record({"id": "c9", "function": {"name": "lookup", "arguments": "{}"}}, "ok")
    return 1


def prepend_a_duplicate_decision_key(log):
    changed = lines(log)
    changed[1] = '{"decision": "ok", ' + changed[1][1:]
    write(log, changed)
    return 1


def forge_the_head(log):
    head = json.loads(log.head_path.read_text())
    head["count"] = 1
    log.head_path.write_text(json.dumps(head))
    write(log, lines(log)[:1])
    return 1


TAMPERING = {
    "an argument edited": lambda log: edit(log, 0, lambda e: e["arguments"].update(order_id="A-9")) or 0,
    "a decision edited": lambda log: edit(log, 1, lambda e: e.update(decision="blocked")) or 1,
    "a field added": lambda log: edit(log, 2, lambda e: e.update(note="fine")) or 2,
    "a line deleted": lambda log: write(log, [lines(log)[0], *lines(log)[2:]]) or 1,
    "a line inserted": lambda log: write(log, [lines(log)[0], lines(log)[0], *lines(log)[1:]]) or 1,
    "two lines swapped": lambda log: write(log, [lines(log)[1], lines(log)[0], lines(log)[2]]) or 0,
    "a line that is not JSON": lambda log: write(log, [lines(log)[0], "not json", *lines(log)[1:]]) or 1,
    "a line that is a JSON list": lambda log: write(log, [lines(log)[0], "[1, 2]", *lines(log)[2:]]) or 1,
    "the last line deleted": lambda log: write(log, lines(log)[:-1]) or 2,
    "the last two lines deleted": lambda log: write(log, lines(log)[:1]) or 1,
    "the file emptied": lambda log: write(log, []) or 0,
    "the file deleted": lambda log: log.path.unlink() or 0,
    "the head deleted": lambda log: log.head_path.unlink() or 0,
    "the head forged without the key": forge_the_head,
    "history rewritten with a recomputed SHA-256 chain": rewrite_with_unkeyed_chain,
    "history rewritten with a guessed key": rewrite_with_a_guessed_key,
    "a duplicate decision key prepended": prepend_a_duplicate_decision_key,
    "truncated, then the app restarts and appends": truncate_then_restart_then_append,
    "a line appended by someone without the key": lambda log: write(log, [*lines(log), lines(log)[-1]]) or 3,
}


def rewrite_with_the_key_and_the_head(log):
    entries = [json.loads(line) for line in lines(log)]
    entries[1]["arguments"] = {"order_id": "A-9"}  # a call made for another order than it was
    write(log, rechain(entries, log.mac))
    forger = AuditLog(key=log.key)
    forger._count, forger._last = len(entries), entries[-1]["mac"]
    log.head_path.write_text(json.dumps(forger.head()))


def delete_the_log_and_the_head(log):
    log.path.unlink()
    log.head_path.unlink()


BEYOND_A_LOCAL_LOG = {
    "history rewritten by someone holding the key and the head": rewrite_with_the_key_and_the_head,
    "both the log and its head deleted": delete_the_log_and_the_head,
}
