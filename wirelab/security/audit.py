"""An audit log of every tool call: JSON Lines, each line chained to the one before by a keyed MAC.

After an incident the first question is "what did the agent do?". The log
answers it: one line per call with the time, the tool, a digest of the exact
arguments, the arguments with secrets redacted, the decision (`ok`,
`blocked` by a defence, or `error`), the error code and the result's size.

    log = AuditLog("audit.jsonl", key=key, head="/elsewhere/audit.head", redact=secrets.redact)
    run_tool_loop(llm, messages, tools, execute=audited(guarded(policy.check_call), log))

Read back and checked (here a log kept in memory, with one call recorded by hand):

    >>> log = AuditLog()
    >>> call = {"id": "call_1", "type": "function",
    ...         "function": {"name": "get_ticket", "arguments": '{"id": 7}'}}
    >>> entry = log.record(call, '{"id": 7, "status": "open"}')
    >>> [(e["tool"], e["decision"]) for e in log.entries()]
    [('get_ticket', 'ok')]
    >>> log.verify() is None  # intact; otherwise Broken(line, reason)
    True

Each entry carries an HMAC-SHA256 (`mac`) of its canonical JSON, keyed with
a secret the writer holds, and the MAC of the entry before it (`prev`).
Without the key nobody can write a line that verifies, so an edited,
inserted, reordered or rewritten line breaks the chain. The *sealed head*
(the count of entries and the last MAC, itself MACed) is kept in another
file, ideally on other storage: it shows lines cut off the end, an emptied
file, and a file truncated before the app restarted and appended again
(a reopened log continues from the head, not from what is left of the file).
Lines with a duplicate JSON key are refused: two parsers may read them
differently.

What a local log can never prove: someone who holds the key and can write
both files can rewrite history, and someone who deletes both leaves nothing
to compare. The real defence is storage the agent's machine cannot rewrite:
append-only or write-once storage elsewhere, or the head anchored remotely
(sent to another machine after each entry). A chain shows tampering; it
cannot prevent it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from wirelab.errors import ToolError, error_of
from wirelab.loop import Executor, Message, parse_arguments
from wirelab.security.executor import BLOCKING_CODES
from wirelab.tools import ToolRegistry

GENESIS = "0" * 64


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Broken:
    """Where verification failed: the first line that is wrong (or missing), and why."""

    line: int
    reason: str


class DuplicateKey(ValueError):
    """A JSON object with the same key twice."""


def strict_json(text: str) -> Any:
    """`json.loads`, refusing duplicate keys (`DuplicateKey`) instead of letting the last one win."""

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        if len(set(keys)) < len(keys):
            raise DuplicateKey(f"duplicate key {next(k for k in keys if keys.count(k) > 1)!r}")
        return dict(pairs)

    return json.loads(text, object_pairs_hook=unique)


def decision_of(result: str) -> tuple[str, str | None]:
    """('ok' | 'blocked' | 'error', the error code) of a tool result."""
    error = error_of(result)
    if error is None:
        return "ok", None
    return ("blocked" if error["code"] in BLOCKING_CODES else "error"), error["code"]


class AuditLog:
    """Entries in memory and, with `path`, in a JSON Lines file; the sealed head kept in `head`."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        key: bytes | None = None,
        head: str | Path | None = None,
        redact: Callable[[Any], Any] = lambda v: v,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if path is not None and key is None:
            raise ValueError(
                "a log kept in a file needs its key (bytes, kept secret and away from the log) "
                "to be verified after a restart: AuditLog(path, key=...)"
            )
        self.path = Path(path) if path is not None else None
        beside = self.path.with_name(self.path.name + ".head") if self.path else None
        self.head_path = Path(head) if head is not None else beside
        self.key = key if key is not None else secrets.token_bytes(32)
        self.redact, self.clock = redact, clock
        self._lines: list[str] = []
        self._lines = self._read_lines()
        self._count, self._last = self._read_head() or (0, GENESIS)

    def record(self, call: Message, result: str) -> dict[str, Any]:
        """Append one entry for `call` and its `result`, chained to the sealed head; returns the entry."""
        raw = call["function"].get("arguments") or ""
        decision, code = decision_of(result)
        entry = {
            "seq": self._count,
            "time": _iso(self.clock()),
            "tool": call["function"]["name"],
            "call_id": call.get("id"),
            "arguments_sha256": digest(raw),
            "arguments": self.redact(_arguments(call)),
            "decision": decision,
            "code": code,
            "result_chars": len(result),
            "prev": self._last,
        }
        entry["mac"] = self.mac(entry)
        self._append(json.dumps(entry, ensure_ascii=False, sort_keys=True))
        self._count, self._last = self._count + 1, entry["mac"]
        self._write_head()
        return entry

    def mac(self, entry: dict[str, Any]) -> str:
        """HMAC-SHA256 of an entry's canonical JSON, its own `mac` field left out."""
        fields = {key: value for key, value in entry.items() if key != "mac"}
        return self._hmac(json.dumps(fields, ensure_ascii=False, sort_keys=True))

    def _hmac(self, text: str) -> str:
        return hmac.new(self.key, text.encode(), hashlib.sha256).hexdigest()

    def _append(self, line: str) -> None:
        if self.path is not None:
            with self.path.open("a", encoding="utf-8") as file:
                file.write(line + "\n")
        self._lines.append(line)

    def _read_lines(self) -> list[str]:
        if self.path is None:
            return self._lines
        return self.path.read_text(encoding="utf-8").splitlines() if self.path.exists() else []

    def head(self) -> dict[str, Any]:
        """The sealed head: how many entries were written, the last MAC, and a MAC of both."""
        return {"count": self._count, "last": self._last, "mac": self._hmac(f"{self._count}:{self._last}")}

    def _write_head(self) -> None:
        if self.head_path is not None:
            self.head_path.write_text(json.dumps(self.head()) + "\n", encoding="utf-8")

    def _read_head(self) -> tuple[int, str] | None:
        """(count, last MAC) from the head file, None when there is none; a forged head is refused."""
        if self.head_path is None:
            return (self._count, self._last) if self._lines else None
        if not self.head_path.exists():
            return None
        try:
            head = strict_json(self.head_path.read_text(encoding="utf-8"))
            count, last = head["count"], head["last"]
            sealed = hmac.compare_digest(str(head["mac"]), self._hmac(f"{count}:{last}"))
        except (ValueError, KeyError, TypeError):
            sealed = False
        if not sealed:
            raise ValueError(f"the sealed head {self.head_path} was altered, or belongs to another key")
        return count, last

    def entries(self) -> list[dict[str, Any]]:
        """Every entry, read back from the file when there is one."""
        return [json.loads(line) for line in self._read_lines()]

    def verify(self) -> Broken | None:
        """The first line changed, inserted, removed or cut off, and why; None if the log is intact."""
        lines, previous = self._read_lines(), GENESIS
        for number, line in enumerate(lines):
            problem = self._problem(line, number, previous)
            if problem:
                return Broken(number, problem)
            previous = json.loads(line)["mac"]
        try:
            head = self._read_head()
        except ValueError as e:
            return Broken(len(lines), str(e))
        if head is None:
            return Broken(0, "the sealed head is missing") if lines else None
        count, last = head
        if len(lines) < count:
            return Broken(
                len(lines), f"{count - len(lines)} line(s) missing at the end: the head counts {count}"
            )
        if len(lines) > count or previous != last:
            return Broken(count, "lines after the sealed head: the last line is not the head's")
        return None

    def _problem(self, line: str, number: int, previous: str) -> str | None:
        try:
            entry = strict_json(line)
        except ValueError as e:
            return f"not one JSON object ({e})"
        if not isinstance(entry, dict):
            return "not one JSON object"
        if entry.get("seq") != number:
            return f"sequence number {entry.get('seq')!r}, expected {number}"
        if entry.get("prev") != previous:
            return "not chained to the line before"
        if not isinstance(entry.get("mac"), str) or not hmac.compare_digest(entry["mac"], self.mac(entry)):
            return "its MAC does not match: edited, or written without the key"
        return None


def _arguments(call: Message) -> Any:
    try:
        return parse_arguments(call)
    except ToolError:
        return {"unparsed": call["function"].get("arguments")}


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def audited(inner: Executor, log: AuditLog) -> Executor:
    """An executor that runs `inner`, then logs every call with its result."""

    def execute(calls: Sequence[Message], tools: ToolRegistry) -> list[str]:
        results = inner(calls, tools)
        for call, result in zip(calls, results, strict=True):
            log.record(call, result)
        return results

    return execute
