"""An audit log of every tool call: append-only JSON Lines, each line chained to the one before.

After an incident the first question is "what did the agent do?". The log
answers it: one line per call with the time, the tool, a digest of the exact
arguments, the arguments with secrets redacted, the decision (`ok`,
`blocked` by a defence, or `error`), the error code and the result's size.

    log = AuditLog("audit.jsonl", redact=secrets.redact)
    run_tool_loop(llm, messages, tools, execute=audited(guarded(policy.check_call), log))
    [(e["tool"], e["decision"]) for e in log.entries()]   # -> [('get_ticket', 'ok'), ...]
    log.verify()                                           # -> None (no line was changed)

Each entry carries its own SHA-256 (`sha256`) and the one of the entry
before it (`prev`), so editing, inserting or deleting a line breaks the
chain and `verify` names the first broken line. Left out: cutting lines
off the end (keep the count or the last digest elsewhere to see that) and
protecting the file itself (write-once storage, lines shipped to another
machine); a chain shows tampering, it cannot prevent it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
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


def decision_of(result: str) -> tuple[str, str | None]:
    """('ok' | 'blocked' | 'error', the error code) of a tool result."""
    error = error_of(result)
    if error is None:
        return "ok", None
    return ("blocked" if error["code"] in BLOCKING_CODES else "error"), error["code"]


class AuditLog:
    """Append-only entries, in memory and, with `path`, in a JSON Lines file."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        redact: Callable[[Any], Any] = lambda v: v,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path) if path is not None else None
        self.redact, self.clock = redact, clock
        self._lines: list[str] = (
            self.path.read_text().splitlines() if self.path and self.path.exists() else []
        )

    def record(self, call: Message, result: str) -> dict[str, Any]:
        """Append one entry for `call` and its `result`; returns the entry."""
        raw = call["function"].get("arguments") or ""
        decision, code = decision_of(result)
        entry = {
            "seq": len(self._lines),
            "time": _iso(self.clock()),
            "tool": call["function"]["name"],
            "call_id": call.get("id"),
            "arguments_sha256": digest(raw),
            "arguments": self.redact(_arguments(call)),
            "decision": decision,
            "code": code,
            "result_chars": len(result),
            "prev": json.loads(self._lines[-1])["sha256"] if self._lines else GENESIS,
        }
        entry["sha256"] = entry_digest(entry)
        self._append(json.dumps(entry, ensure_ascii=False, sort_keys=True))
        return entry

    def _append(self, line: str) -> None:
        if self.path is not None:
            with self.path.open("a", encoding="utf-8") as file:
                file.write(line + "\n")
        self._lines.append(line)

    def entries(self) -> list[dict[str, Any]]:
        """Every entry, read back from the file when there is one."""
        lines = self.path.read_text().splitlines() if self.path and self.path.exists() else self._lines
        return [json.loads(line) for line in lines]

    def verify(self) -> int | None:
        """The number of the first line that was changed, inserted or removed; None if intact."""
        lines = self.path.read_text().splitlines() if self.path and self.path.exists() else self._lines
        previous = GENESIS
        for number, line in enumerate(lines):
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                return number
            if (
                not isinstance(entry, dict)
                or entry.get("prev") != previous
                or entry.get("sha256") != entry_digest(entry)
            ):
                return number
            previous = entry["sha256"]
        return None


def entry_digest(entry: dict[str, Any]) -> str:
    """SHA-256 of an entry's canonical JSON, its own `sha256` field left out."""
    fields = {key: value for key, value in entry.items() if key != "sha256"}
    return digest(json.dumps(fields, ensure_ascii=False, sort_keys=True))


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
