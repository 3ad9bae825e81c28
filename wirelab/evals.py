"""A tool-selection eval: does the model pick the right tool, with the right arguments?

An eval case is a user request and what a good call looks like:

    {"request": "What's the weather in Oslo?", "tool": "get_weather", "arguments": {"city": "Oslo"}}

`evaluate` sends each request with a set of tools and scores the model's first
call: the tool is right when the *function* behind the called name is the
expected one (so a badly named copy of a tool is still recognised), and the
arguments are right when every expected argument has the expected value
(strings compared without case; extra optional arguments are allowed).
Accuracy is the share of cases with both right. Lesson 03 uses it to show how
descriptions move accuracy; lesson 06 to compare routing with free choice.
Left out: multi-call cases, partial credit, and a real model's run-to-run noise
(the offline model is deterministic; a hosted one needs several runs per case).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wirelab.tools import ToolRegistry


@dataclass(frozen=True)
class Case:
    """One request and the call that answers it well."""

    request: str
    tool: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class Outcome:
    """What the model did for one case."""

    case: Case
    called: str | None
    arguments: Mapping[str, Any]
    tool_ok: bool
    arguments_ok: bool

    @property
    def ok(self) -> bool:
        return self.tool_ok and self.arguments_ok


def load_cases(path: str | Path) -> list[Case]:
    """Eval cases from a JSON list of `{"request", "tool", "arguments"}` objects."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    try:
        return [Case(item["request"], item["tool"], item.get("arguments", {})) for item in raw]
    except (TypeError, KeyError) as e:
        raise ValueError(f"{path}: each case needs 'request' and 'tool' ({e})") from e


def first_call(client: Any, model: str, tools: ToolRegistry, request: str) -> tuple[str | None, dict]:
    """The name and parsed arguments of the model's first tool call, or (None, {})."""
    reply = client.chat.completions.create(
        model=model, tools=tools.specs(), messages=[{"role": "user", "content": request}]
    )
    calls = reply.choices[0].message.tool_calls or []
    if not calls:
        return None, {}
    try:
        arguments = json.loads(calls[0].function.arguments or "{}")
    except json.JSONDecodeError:
        arguments = {}
    return calls[0].function.name, arguments if isinstance(arguments, dict) else {}


def judge(case: Case, tools: ToolRegistry, called: str | None, arguments: Mapping[str, Any]) -> Outcome:
    """Score one call against its case."""
    chosen = tools.get(called) if called else None
    tool_ok = chosen is not None and case.tool in (chosen.name, chosen.function.__name__)
    arguments_ok = tool_ok and all(_same(arguments.get(k), v) for k, v in case.arguments.items())
    return Outcome(case, called, dict(arguments), tool_ok, arguments_ok)


def _same(got: Any, expected: Any) -> bool:
    if isinstance(got, str) and isinstance(expected, str):
        return got.strip().lower() == expected.strip().lower()
    return got == expected


def evaluate(client: Any, model: str, tools: ToolRegistry, cases: Iterable[Case]) -> list[Outcome]:
    """One outcome per case, in order."""
    return [judge(case, tools, *first_call(client, model, tools, case.request)) for case in cases]


def accuracy(outcomes: Sequence[Outcome]) -> float:
    """The share of cases with the right tool and the right arguments."""
    if not outcomes:
        raise ValueError("no outcomes to score")
    return sum(o.ok for o in outcomes) / len(outcomes)
