"""Tasks on the server: a long tool call answered at once with a handle the client polls.

`TaskServer` is a `Server` whose `task_tool`s may run as tasks. It speaks both
revisions the course serves:

- 2025-11-25 (experimental core, `basic/utilities/tasks`): the server declares
  `capabilities.tasks.requests.tools.call`; a tool declares `execution.taskSupport`
  (forbidden | optional | required); the client asks with `params.task = {ttl}` and gets
  `{"task": {taskId, status, ttl, pollInterval, …}}`; then `tasks/get`, `tasks/result`
  (blocks until the task ends) and `tasks/cancel` (answers the cancelled task). Input is
  asked for with an `elicitation/create` tagged `io.modelcontextprotocol/related-task`.
- 2026-07-28 (the `io.modelcontextprotocol/tasks` extension, SEP-2663): the client declares
  the extension in each request's capabilities; the server decides, and answers
  `{"resultType": "task", taskId, status, ttlMs, pollIntervalMs, …}`; `tasks/get` inlines
  `result`, `error` or `inputRequests`; `tasks/update` carries `inputResponses`;
  `tasks/cancel` answers `{}`.

A task outlives the request that made it. With `store=PATH` the tasks are written to a
JSON file; a server started again on the same file resumes the unfinished ones from the
last `ctx.save(...)` checkpoint, under the same task ids.

Not covered: `tasks/list` (a server that cannot tell its requestors apart SHOULD NOT
offer it), `notifications/tasks/status` and task-augmented requests to the client.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from wirelab.errors import ToolError
from wirelab.jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND, JsonRpcError
from wirelab.mcp.primitives import ServerTool
from wirelab.mcp.protocol import argument_problems, invalid_params, required_string, without_none
from wirelab.mcp.results import checked_elicit_result, error_result, tool_result
from wirelab.mcp.server import Server, _input_schema, _output_schema
from wirelab.mcp.session import Context, Session
from wirelab.tools import JSONSchema, summary

log = logging.getLogger("wirelab.mcp.server")

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
RELATED_TASK = "io.modelcontextprotocol/related-task"
MODERN = "2026-07-28"
MISSING_CLIENT_CAPABILITY = -32021
TERMINAL = frozenset({"completed", "failed", "cancelled"})
TaskSupport = Literal["forbidden", "optional", "required"]


@dataclass
class TaskTool(ServerTool):
    """A tool that says whether it runs as a task: `execution.taskSupport` in `tools/list`."""

    task_support: TaskSupport = "optional"

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "execution": {"taskSupport": self.task_support}}


@dataclass
class Task:
    """What the server keeps about one task; `describe(era)` is its wire form."""

    task_id: str
    tool: str
    arguments: dict[str, Any]
    era: str
    ttl_ms: int | None
    poll_interval_ms: int
    status: str = "working"
    status_message: str | None = None
    created_at: float = field(default_factory=time.time)
    last_updated_at: float = field(default_factory=time.time)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    checkpoint: Any = None
    input_requests: dict[str, dict[str, Any]] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        """The `Task` object: 2025-11-25 names `ttl`/`pollInterval`, 2026-07-28 `ttlMs`/`pollIntervalMs`."""
        modern = self.era == MODERN
        shape = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": _iso(self.created_at),
            "lastUpdatedAt": _iso(self.last_updated_at),
            "ttlMs" if modern else "ttl": self.ttl_ms,
            "pollIntervalMs" if modern else "pollInterval": self.poll_interval_ms,
        }
        return shape | without_none(statusMessage=self.status_message)

    def detailed(self) -> dict[str, Any]:
        """2026-07-28's `DetailedTask`: the task plus its result, error or input requests."""
        extra = {
            "completed": {"result": self.result},
            "failed": {"error": self.error},
            "input_required": {"inputRequests": self.input_requests},
        }.get(self.status, {})
        return self.describe() | extra

    def expired(self, now: float) -> bool:
        return self.ttl_ms is not None and now > self.created_at + self.ttl_ms / 1000

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self) | {"input_requests": {}}


class TaskContext(Context):
    """A task's `Context`: progress becomes the task's status message; input pauses the task.

    `saved` is the last checkpoint (None on a first run); `save(state)` writes one, so a
    restarted server resumes the work from there.
    """

    def __init__(self, server: TaskServer, task: Task, session: Session | None, token: Any) -> None:
        super().__init__(session, token)  # type: ignore[arg-type]  # None once its session closed
        self.server, self.task = server, task

    @property
    def saved(self) -> Any:
        return self.task.checkpoint

    def save(self, state: Any) -> None:
        self.task.checkpoint = state
        self.server.store.save()

    def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        told = message or (f"{progress:g} of {total:g}" if total else f"{progress:g}")
        self.server.set_status(self.task, "working", told)
        if self.session is not None and self.session in self.server.sessions:
            super().report_progress(progress, total, message)

    async def elicit(self, message: str, requested_schema: JSONSchema) -> dict[str, Any]:
        """Ask for input: the task goes to `input_required` until the answer arrives."""
        self.server.set_status(self.task, "input_required", message)
        params = {"mode": "form", "message": message, "requestedSchema": requested_schema}
        if self.task.era == MODERN:
            answer = await self.server.input_from_update(self.task, params)
        else:
            answer = await self.server.input_from_session(self.task, params)
        if not self.task.input_requests:  # another question of the task may still wait
            self.server.set_status(self.task, "working", None)
        return checked_elicit_result(answer, requested_schema)


class TaskStore:
    """The tasks by id, written to a JSON file after each change when `path` is given."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.tasks: dict[str, Task] = {}
        if self.path is not None and self.path.exists():
            saved = json.loads(self.path.read_text(encoding="utf-8"))
            self.tasks = {t["task_id"]: Task(**t) for t in saved}

    def save(self) -> None:
        if self.path is None:
            return
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps([t.to_json() for t in self.tasks.values()]), encoding="utf-8")
        temporary.replace(self.path)  # a crash mid-write leaves the last good file


class TaskServer(Server):
    """A `Server` whose `task_tool`s may run as tasks, in both revisions.

    `poll_interval_ms` is the interval it suggests, `default_ttl_ms` the lifetime of a task
    whose client asked for none, `max_ttl_ms` the longest it grants.
    """

    def __init__(
        self,
        name: str,
        version: str = "0.1.0",
        *,
        store: str | Path | None = None,
        poll_interval_ms: int = 1000,
        default_ttl_ms: int = 600_000,
        max_ttl_ms: int = 3_600_000,
        **options: Any,
    ) -> None:
        super().__init__(name, version, **options)
        self.store = TaskStore(store)
        self.poll_interval_ms, self.default_ttl_ms, self.max_ttl_ms = (
            poll_interval_ms,
            default_ttl_ms,
            max_ttl_ms,
        )
        self.running: dict[str, asyncio.Task] = {}
        self.answers: dict[str, asyncio.Future] = {}  # per task and input key: the answer awaited
        self.ended: dict[str, asyncio.Event] = {}  # per task: set when it reaches a terminal status
        self.requestors: dict[str, Session] = {}  # per task: the 2025-11-25 session that polls it
        self._resumed = False

    def capabilities(self) -> dict[str, Any]:
        """2025-11-25 `tasks`: task-augmented `tools/call` and `tasks/cancel` (no `tasks/list`)."""
        return super().capabilities() | {"tasks": {"cancel": {}, "requests": {"tools": {"call": {}}}}}

    def task_tool(
        self,
        *,
        task_support: TaskSupport = "optional",
        name: str | None = None,
        description: str | None = None,
        title: str | None = None,
    ) -> Callable[[Callable], Callable]:
        """Register a tool that may (optional) or must (required) run as a task."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            schema, context = _input_schema(fn)
            tool = TaskTool(
                name or fn.__name__, description or summary(fn.__doc__), schema, fn,
                _output_schema(fn), title, None, context, task_support,
            )  # fmt: skip
            self.add_tool(tool)
            return fn

        return register

    def connect(self, send: Any) -> Session:
        """A session whose `tools/call` may make a task, with the `tasks/*` methods added."""
        session = super().connect(send)
        if _loop_running():
            self.resume()
        plain_call = session.handlers["tools/call"]

        async def call_tool(params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
            self.resume()
            task = self.task_for(session, params, meta)
            return await plain_call(params, meta) if task is None else self.created(task)

        def bound(handler: Callable[..., Any]) -> Callable[..., Any]:
            return lambda params, meta: handler(session, params)

        session.handlers.update(
            {
                "tools/call": call_tool,
                "tasks/get": bound(self.get),
                "tasks/result": bound(self.result),
                "tasks/cancel": bound(self.cancel),
                "tasks/update": bound(self.update),
            }
        )
        return session

    # --- making a task ---

    def task_for(self, session: Session, params: dict[str, Any], meta: dict[str, Any]) -> Task | None:
        """The task this `tools/call` starts, or None to answer it the ordinary way."""
        tool = self.tools.get(params.get("name"))  # type: ignore[arg-type]
        support = tool.task_support if isinstance(tool, TaskTool) else "forbidden"
        if session.protocol_version == MODERN:
            declared = declares_tasks(session)
            if support == "required" and not declared:
                raise missing_tasks_extension(f"{tool.name} (it runs only as a task)")  # type: ignore[union-attr]
            return (
                self.start(tool, params, MODERN, None, session)
                if declared and support != "forbidden"
                else None
            )
        asked = params.get("task")
        if asked is None and support == "required":
            raise JsonRpcError(METHOD_NOT_FOUND, f"Task augmentation required for tools/call of {tool.name}")  # type: ignore[union-attr]
        if asked is None:
            return None
        if support == "forbidden":
            raise JsonRpcError(
                METHOD_NOT_FOUND, f"{params.get('name')} does not run as a task (taskSupport forbidden)"
            )
        if not isinstance(asked, dict) or not isinstance(asked.get("ttl", 0), int | None):
            raise invalid_params('"task" must be an object such as {"ttl": 60000}')
        return self.start(tool, params, session.protocol_version or "", asked.get("ttl"), session)  # type: ignore[arg-type]

    def start(
        self, tool: TaskTool, params: dict[str, Any], era: str, ttl: int | None, session: Session
    ) -> Task:
        """Create the task (durably, before the answer goes out) and start its work."""
        granted = min(ttl if ttl is not None else self.default_ttl_ms, self.max_ttl_ms)
        arguments = params.get("arguments")
        task = Task(secrets.token_urlsafe(16), tool.name, arguments if arguments is not None else {}, era,
                    granted, self.poll_interval_ms)  # fmt: skip
        self.store.tasks[task.task_id] = task
        self.store.save()
        self.requestors[task.task_id] = session
        self.run(task, session, (params.get("_meta") or {}).get("progressToken"))
        log.info("task %s: %s started (%s)", task.task_id, tool.name, era)
        return task

    def created(self, task: Task) -> dict[str, Any]:
        """The `CreateTaskResult` of each revision."""
        if task.era == MODERN:
            return {**task.describe(), "resultType": "task"}
        return {"task": task.describe()}

    def run(self, task: Task, session: Session | None, token: Any = None) -> None:
        self.running[task.task_id] = asyncio.create_task(self.work(task, session, token))

    async def work(self, task: Task, session: Session | None, token: Any) -> None:
        """Run the tool; its result (or failure) ends the task, unless it was cancelled first."""
        tool = self.tools[task.tool]
        try:
            result = await self.outcome(tool, task, session, token)
        except asyncio.CancelledError:
            return
        except JsonRpcError as e:  # 2026-07-28 keeps a JSON-RPC error in `error`; 2025-11-25 returns it
            task.error = e.as_object()
            self.set_status(task, "failed", e.message)
            return
        finally:
            self.running.pop(task.task_id, None)
        if task.status in TERMINAL:
            return  # cancelled while the tool finished: a cancelled task stays cancelled
        # what the call would have answered at once: in 2026-07-28 a result says its resultType
        task.result = {"resultType": "complete", **result} if task.era == MODERN else result
        failed = task.era != MODERN and result.get("isError")  # 2025-11-25: an isError result fails it
        self.set_status(task, "failed" if failed else "completed", None)

    async def outcome(
        self, tool: ServerTool, task: Task, session: Session | None, token: Any
    ) -> dict[str, Any]:
        problems = argument_problems(tool.input_schema, task.arguments)
        if problems:
            return error_result(f"Invalid arguments for {tool.name}: " + "; ".join(problems))
        arguments = dict(task.arguments)
        if tool.context_parameter:
            arguments[tool.context_parameter] = TaskContext(self, task, session, token)
        try:
            value = tool.function(**arguments)
            return tool_result(tool, await value if inspect.isawaitable(value) else value)
        except ToolError as e:
            return error_result(e.content())
        except JsonRpcError:
            raise
        except Exception as e:
            log.exception("task %s: %s failed", task.task_id, tool.name)
            return error_result(f"{tool.name} failed: {type(e).__name__}: {e}")

    def set_status(self, task: Task, status: str, message: str | None) -> None:
        if task.status in TERMINAL:
            return
        task.status, task.status_message, task.last_updated_at = status, message, time.time()
        self.store.save()
        if status in TERMINAL and task.task_id in self.ended:
            self.ended[task.task_id].set()

    # --- the tasks/* methods ---

    def find(self, session: Session, params: dict[str, Any]) -> Task:
        """The task named by `taskId`; -32602 for an unknown or expired one.

        In 2026-07-28 a client that does not declare the extension gets -32021 first.
        """
        self.resume()
        if session.protocol_version == MODERN and not declares_tasks(session):
            raise missing_tasks_extension("tasks/get, tasks/update and tasks/cancel")
        task_id = required_string(params, "taskId")
        task = self.store.tasks.get(task_id)
        if task is not None and task.expired(time.time()):
            self.forget(task)
            raise JsonRpcError(
                INVALID_PARAMS, "Failed to retrieve task: Task has expired", {"taskId": task_id}
            )
        if task is None:
            raise JsonRpcError(INVALID_PARAMS, "Failed to retrieve task: Task not found", {"taskId": task_id})
        return task

    def get(self, session: Session, params: dict[str, Any]) -> dict[str, Any]:
        task = self.find(session, params)
        self.requestors[task.task_id] = session
        return task.detailed() if session.protocol_version == MODERN else task.describe()

    async def result(self, session: Session, params: dict[str, Any]) -> dict[str, Any]:
        """2025-11-25 `tasks/result`: wait until the task ends, then its tool result."""
        only_in(session, "2025-11-25", "tasks/result")
        task = self.find(session, params)
        self.requestors[task.task_id] = session
        if task.status not in TERMINAL:
            await self.ended.setdefault(task.task_id, asyncio.Event()).wait()
        if task.status == "cancelled":
            raise JsonRpcError(INVALID_PARAMS, f"Task {task.task_id} was cancelled: it has no result")
        if task.error is not None:
            raise JsonRpcError.from_object(task.error)
        meta = {RELATED_TASK: {"taskId": task.task_id}}
        return {**(task.result or {}), "_meta": {**(task.result or {}).get("_meta", {}), **meta}}

    def cancel(self, session: Session, params: dict[str, Any]) -> dict[str, Any]:
        """Stop the work. An ended task: -32602 in 2025-11-25, an empty acknowledgement in 2026-07-28."""
        task = self.find(session, params)
        if task.status in TERMINAL and session.protocol_version == MODERN:
            return {}  # 2026-07-28: an acknowledgement, even for an ended task (SEP-2663)
        if task.status in TERMINAL:
            raise JsonRpcError(
                INVALID_PARAMS,
                f"Cannot cancel task: already in terminal status '{task.status}'",
                {"taskId": task.task_id},
            )
        self.set_status(task, "cancelled", "The task was cancelled by request.")
        running = self.running.get(task.task_id)
        if running is not None:
            running.cancel()
        log.info("task %s cancelled", task.task_id)
        return {} if session.protocol_version == MODERN else task.describe()

    def update(self, session: Session, params: dict[str, Any]) -> dict[str, Any]:
        """2026-07-28 `tasks/update`: answers to outstanding `inputRequests`; others are ignored."""
        only_in(session, MODERN, "tasks/update")
        task = self.find(session, params)
        responses = params.get("inputResponses")
        if not isinstance(responses, dict):
            raise invalid_params('"inputResponses" must be an object keyed like "inputRequests"')
        for key, answer in responses.items():
            waiting = self.answers.get(f"{task.task_id}:{key}")
            if key in task.input_requests and waiting is not None and not waiting.done():
                waiting.set_result(answer)
        return {}

    # --- input, expiry, restarts ---

    async def input_from_update(self, task: Task, params: dict[str, Any]) -> Any:
        """Publish an input request in `inputRequests`; wait for its `tasks/update`."""
        key = f"input-{secrets.token_hex(4)}"  # unique over the task's lifetime
        task.input_requests[key] = {"method": "elicitation/create", "params": params}
        future = self.answers[f"{task.task_id}:{key}"] = asyncio.get_running_loop().create_future()
        try:
            return await future
        finally:
            del self.answers[f"{task.task_id}:{key}"]
            task.input_requests.pop(key, None)

    async def input_from_session(self, task: Task, params: dict[str, Any]) -> Any:
        """Send `elicitation/create`, tagged with the task, to the session that polls the task."""
        session = self.requestors.get(task.task_id)
        if session is None or session not in self.sessions:
            raise RuntimeError(f"task {task.task_id} needs input but no client is polling it")
        session.require_client_capability("elicitation", "elicitation/create")
        return await session.request(
            "elicitation/create", {**params, "_meta": {RELATED_TASK: {"taskId": task.task_id}}}
        )

    def forget(self, task: Task) -> None:
        """Delete an expired task, stopping its work."""
        running = self.running.pop(task.task_id, None)
        if running is not None:
            running.cancel()
        del self.store.tasks[task.task_id]
        self.store.save()
        log.info("task %s expired after its ttl of %s ms", task.task_id, task.ttl_ms)

    def resume(self) -> None:
        """Once, after a restart: run again every unfinished task found in the store."""
        if self._resumed:
            return
        self._resumed = True
        for task in list(self.store.tasks.values()):
            if task.status not in TERMINAL and task.task_id not in self.running:
                self.set_status(task, "working", "resumed after a server restart")
                self.run(task, None)
                log.info("task %s resumed from checkpoint %r", task.task_id, task.checkpoint)


def declares_tasks(session: Session) -> bool:
    """Did this 2026-07-28 request declare the tasks extension in its capabilities?"""
    return TASKS_EXTENSION in (session.client_capabilities.get("extensions") or {})


def missing_tasks_extension(what: str) -> JsonRpcError:
    """-32021, naming the extension to declare (SEP-2663)."""
    return JsonRpcError(
        MISSING_CLIENT_CAPABILITY,
        f"Missing required client capability: declare the {TASKS_EXTENSION} extension to use {what}",
        {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}},
    )


def only_in(session: Session, era: str, method: str) -> None:
    """-32601 for a tasks method the session's revision does not have."""
    if (session.protocol_version == MODERN) != (era == MODERN):
        raise JsonRpcError(METHOD_NOT_FOUND, f"Method not found: {method} belongs to {era}")


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
