"""An audit log of every tool call: JSON Lines, each line chained to the one before by a keyed MAC.

After an incident the first question is "what did the agent do?". The log
answers it: one line per call with the time, the tool, a digest of the exact
arguments, the arguments with secrets redacted, the decision (`ok`,
`blocked` by a defence, or `error`), the error code and the result's size.

    log = AuditLog("audit.jsonl", key=key, head="/elsewhere/audit.head", redact=secrets.redact)
    run_tool_loop(llm, messages, tools, model=model_name(), execute=audited(guarded(policy.check_call), log))

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

What a local log can never prove is that it is the *latest* log. Anyone who
can write the two files, key or no key, can keep a copy of both taken after
entry 2 and later put it back: every line and the head still check out, and
the entries after 2 are gone. Someone who holds the key can also rewrite
history and seal a matching head, and someone who deletes both leaves
nothing to compare. So the head is anchored outside the host: a `Witness`
(another machine, a transparency log, write-once storage) is sent each new
head and keeps the newest it has seen, as a counter that only goes up.
`verify` then compares the log with the witness, not only with the head the
host keeps:

    >>> witness = Witness()
    >>> log = AuditLog(witness=witness)
    >>> for n in range(3):
    ...     _ = log.record({"id": f"c{n}", "function": {"name": "deploy", "arguments": "{}"}}, "ok")
    >>> witness.count, witness.problem([e["mac"] for e in log.entries()[:2]])  # back to entry 2
    (3, (2, 'rolled back: the witness was shown 3 entries, the log and its head hold 2'))

Here the witness is an object in the same process, which an attacker on the
host could reach too: in a deployment it runs where the agent's machine
cannot write. A chain shows tampering; it cannot prevent it.
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


class RolledBack(ValueError):
    """A head older than, or other than, the newest one a witness was shown."""


class Witness:
    """Every head a log was shown to have, kept outside the host: a count that only goes up.

    The host sends it `checkpoint(count, last)` after each entry. A head with fewer entries
    than one already seen, or another MAC for a count already seen, is refused (`RolledBack`).
    It keeps them all, not only the newest: a key holder who rewrote entry 1 and appended a
    new entry could otherwise show it a newer head that it would take.
    """

    def __init__(self) -> None:
        self.heads: dict[int, str] = {}  # count of entries -> the last MAC at that count

    @property
    def count(self) -> int:
        """The most entries the witness was shown."""
        return max(self.heads, default=0)

    def checkpoint(self, count: int, last: str) -> None:
        """Take a new head; refuse an older one, or a different one for a count already seen."""
        if count < self.count:
            raise RolledBack(f"the witness was shown {self.count} entries; this head has {count}")
        if self.heads.get(count, last) != last:
            raise RolledBack(f"the witness was shown another head after {count} entries")
        self.heads[count] = last

    def problem(self, macs: Sequence[str]) -> tuple[int, str] | None:
        """Where a log whose entries have the MACs `macs` disagrees with the heads the witness was
        shown, as (line, why); None if it agrees."""
        if len(macs) < self.count:
            why = f"the witness was shown {self.count} entries, the log and its head hold {len(macs)}"
            return len(macs), f"rolled back: {why}"
        for count, last in sorted(self.heads.items()):
            if macs[count - 1] != last:
                return count - 1, f"rewritten: entry {count - 1} is not the one the witness was shown"
        if len(macs) > self.count:
            return self.count, f"{len(macs) - self.count} entries the witness was never shown"
        return None


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
        witness: Witness | None = None,
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
        self.redact, self.clock, self.witness = redact, clock, witness
        self._lines: list[str] = []
        self._lines = self._read_lines()
        self._count, self._last = self._read_head() or (0, GENESIS)

    def record(self, call: Message, result: str) -> dict[str, Any]:
        """Append one entry for `call` and its `result`, chained to the sealed head, and send the new
        head to the witness; returns the entry. `RolledBack` if the witness has seen a newer head."""
        if self.witness is not None and self._count < self.witness.count:
            raise RolledBack(
                f"not appending: rolled back, the witness was shown {self.witness.count} entries, "
                f"the log holds {self._count}"
            )
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
        if self.witness is not None:
            self.witness.checkpoint(self._count, self._last)
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
        """The first line changed, inserted, removed or cut off, and why; then, with a witness, a log
        rolled back, or rewritten by someone holding the key; None if the log is intact."""
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
        if head is None and lines:
            return Broken(0, "the sealed head is missing")
        count, last = head or (0, GENESIS)
        if len(lines) < count:
            return Broken(
                len(lines), f"{count - len(lines)} line(s) missing at the end: the head counts {count}"
            )
        if len(lines) > count or previous != last:
            return Broken(count, "lines after the sealed head: the last line is not the head's")
        return self._witnessed(lines)

    def _witnessed(self, lines: list[str]) -> Broken | None:
        """Where the log, already checked line by line, disagrees with the witness."""
        problem = self.witness.problem([json.loads(line)["mac"] for line in lines]) if self.witness else None
        return Broken(*problem) if problem else None

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
