"""Plug defences into the loop: checks that run before each call, as one `Executor`.

A *check* looks at one call before it runs and raises `ToolError` to stop it;
the error becomes that call's result, so the model reads why, and the calls
that pass run in the inner executor, in order:

    execute = guarded(pins.check_call, policy.check_call)       # sequential inside
    execute = guarded(policy.check_call, inner=ThreadExecutor()) # or parallel
    run_tool_loop(llm, messages, tools, model=model_name(), execute=audited(execute, log))

`BLOCKING_CODES` names the errors a defence returns, so the audit log can
tell "blocked" from an ordinary failure. Not here: the checks themselves
(`pinning`, `outbound`) and what runs inside tools (`roots`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from wirelab.errors import ToolError
from wirelab.loop import Executor, Message, execute_sequentially
from wirelab.tools import ToolRegistry

CallCheck = Callable[[Message, ToolRegistry], None]
BLOCKING_CODES = frozenset(
    {
        "permission_denied",
        "secret_blocked",
        "uninspectable",
        "egress_denied",
        "tool_changed",
        "tool_not_approved",
        "path_rejected",
        "result_withheld",
        "denied",
    }
)


def guarded(*checks: CallCheck, inner: Executor = execute_sequentially) -> Executor:
    """An executor that runs `checks` on each call; calls that pass go to `inner` together."""

    def execute(calls: Sequence[Message], tools: ToolRegistry) -> list[str]:
        refusals = [first_refusal(checks, call, tools) for call in calls]
        allowed = [call for call, refusal in zip(calls, refusals, strict=True) if refusal is None]
        results = iter(inner(allowed, tools) if allowed else [])
        return [refusal.content() if refusal else next(results) for refusal in refusals]

    return execute


def first_refusal(checks: Sequence[CallCheck], call: Message, tools: ToolRegistry) -> ToolError | None:
    """The error of the first check that refuses `call`, or None when all let it through."""
    for check in checks:
        try:
            check(call, tools)
        except ToolError as refusal:
            return refusal
    return None
