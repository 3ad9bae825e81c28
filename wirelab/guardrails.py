"""Guardrails around the loop: what goes back to the model, and what stops the run.

Most failures are results: the model reads a structured error and corrects
its call. A few are not, and `Guard` turns them into `RunStopped`:

- a permission error (`permission_denied`): no change of arguments will help,
  and a model that keeps trying is probing, not correcting;
- the self-correction cap: the same tool failed `max_corrections + 1` times in
  a row, so the model is not converging;
- the global call budget: the run asked for more than `max_calls` tool calls
  in total (a model that never stops calling tools, or a costly loop).

It also cleans each result before the model reads it (`clean_result`): an
HTML error page becomes a short structured error, control characters are
dropped, and an oversized result is cut with a note that says so.

    guard = Guard(ThreadExecutor(timeout_s=2), max_calls=10, max_corrections=2)
    try:
        result = run_tool_loop(client, messages, tools, model=model_name(), execute=guard)
    except RunStopped as stop:
        print(stop.code, stop)      # guard.transcript holds every call and result so far

`Guard` plugs in through `run_tool_loop(execute=...)`, so the loop itself is
unchanged; the price is that the loop's own history is not returned when a
run stops (the transcript is). Transient system errors are retried inside the
tools (`wirelab.retry`), before any of this sees them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from wirelab.errors import RunStopped, ToolError, error_of
from wirelab.loop import Executor, Message, execute_sequentially
from wirelab.tools import ToolRegistry

STOP_CODES = frozenset({"permission_denied"})
__all__ = ["STOP_CODES", "Guard", "RunStopped", "clean_result", "looks_like_html", "sequential", "truncate"]
CallRunner = Callable[[Message, ToolRegistry], str]

_HTML = re.compile(r"\s*(?:<!doctype\s+html|<html\b)", re.I)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
_CONTROL = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def looks_like_html(text: str) -> bool:
    """True for an HTML document, such as a proxy's "502 Bad Gateway" page."""
    return bool(_HTML.match(text))


def truncate(text: str, max_chars: int) -> str:
    """`text` cut to `max_chars` characters plus a note saying how much was left out."""
    if len(text) <= max_chars:
        return text
    return (
        f"{text[:max_chars]}\n[truncated: showing {max_chars:,} of {len(text):,} characters; "
        "ask for less, e.g. a narrower query or a smaller limit]"
    )


def clean_result(content: str, max_chars: int = 4000) -> str:
    """The result a model should read: HTML pages as errors, no control characters, bounded size.

    `clean_result("<html><title>502 Bad Gateway</title>…")` -> an `upstream_error` whose
    message quotes the page title.
    """
    if looks_like_html(content):
        title = _TITLE.search(content)
        page = " ".join(title.group(1).split()) if title else "an HTML page"
        return ToolError(
            "upstream_error",
            f"the service answered with a web page, not data: {page!r}",
            suggestion="This is a server problem, not a bad call: tell the user or try again later.",
        ).content()
    return truncate(_CONTROL.sub("", content), max_chars)


def sequential(run: CallRunner) -> Executor:
    """An `Executor` that runs each call with `run`, one after another, in call order."""

    def execute(calls: Sequence[Message], tools: ToolRegistry) -> list[str]:
        return [run(call, tools) for call in calls]

    return execute


class Guard:
    """An `Executor` wrapping another with a call budget, a correction cap and stop codes."""

    def __init__(
        self,
        inner: Executor = execute_sequentially,
        *,
        max_calls: int = 20,
        max_corrections: int = 2,
        stop_codes: frozenset[str] = STOP_CODES,
        max_chars: int = 4000,
    ) -> None:
        if max_calls < 1 or max_corrections < 0 or max_chars < 1:
            raise ValueError("need max_calls >= 1, max_corrections >= 0 and max_chars >= 1")
        self.inner, self.max_calls, self.max_corrections = inner, max_calls, max_corrections
        self.stop_codes, self.max_chars = stop_codes, max_chars
        self.calls_made, self.failures = 0, Counter[str]()
        self.transcript: list[tuple[Message, str]] = []

    def __call__(self, calls: Sequence[Message], tools: ToolRegistry) -> list[str]:
        if self.calls_made + len(calls) > self.max_calls:
            raise RunStopped(
                "budget",
                f"the model asked for {len(calls)} more tool call(s) after "
                f"{self.calls_made}; the budget is {self.max_calls}",
                calls[0],
            )
        self.calls_made += len(calls)
        results = [clean_result(content, self.max_chars) for content in self.inner(calls, tools)]
        for call, content in zip(calls, results, strict=True):
            self.transcript.append((call, content))
            self._judge(call, content)
        return results

    def _judge(self, call: Message, content: str) -> None:
        name, error = call["function"]["name"], error_of(content)
        if error is None:
            self.failures[name] = 0
            return
        if error["code"] in self.stop_codes:
            raise RunStopped(error["code"], error["message"], call)
        self.failures[name] += 1
        if self.failures[name] > self.max_corrections:
            raise RunStopped(
                "correction_cap",
                f"{name} failed {self.failures[name]} times in a row "
                f"(last: {error['code']}); max_corrections is {self.max_corrections}",
                call,
            )
