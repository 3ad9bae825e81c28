"""Stage 7, answer: say what the tools returned, in natural sentences, in the user's language.

    >>> from wirelab.offline_model.results import read_result
    >>> done = [(Call("", "get_weather", '{"city":"Paris"}'), read_result('{"temp_c": 18, "sky": "cloudy"}'))]
    >>> say(done, "What's the weather in Paris?")
    'get_weather (city Paris) returned temp_c 18 and sky cloudy.'
    >>> say(done, "巴黎天气怎么样？")
    'get_weather（city：Paris）的结果：temp_c 为 18，sky 为 cloudy。'

A request with Chinese characters is answered in Chinese. Each result becomes one sentence
that names the tool and the arguments it was called with, so the reader can check the call,
then the result's fields in words (not those that repeat an argument); an error says what went
wrong in the tool's own words. Long results are shortened. The model's other texts (no
suitable tool, `tool_choice: "none"`, no tools offered) are here too, in both languages.
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.edition import language
from wirelab.offline_model.normalize import has_chinese
from wirelab.offline_model.request import MODEL_ID, Call, Tool, compact
from wirelab.offline_model.results import ToolResult, text_parts

SUMMARY_LIMIT = 300
QUOTE_LIMIT = 200
ARGUMENT_LIMIT = 3


def say(results: list[tuple[Call, ToolResult]], request: str) -> str:
    """One sentence per tool result, in the request's language."""
    chinese = has_chinese(request)
    return "\n".join(_sentence(call, result, chinese) for call, result in results)


def _sentence(call: Call, result: ToolResult, chinese: bool) -> str:
    if result.error is not None:
        error = result.error
        said = shorten(str(error.get("message") or error.get("code") or compact(error)))
        return f"{call.name} 调用失败：{said}" if chinese else f'{call.name} failed: "{said}"'
    shown = _shown(call)
    every = facts(result.value)
    asked = set(shown.values())
    told = [(key, value) for key, value in every if value not in map(str, asked)] or every
    if chinese:
        called = "（" + "，".join(f"{k}：{v}" for k, v in shown.items()) + "）" if shown else ""
        parts = [f"{key} 为 {value}" if key else value for key, value in told]
        return shorten(f"{call.name}{called}的结果：{'，'.join(parts) or '（空）'}。")
    called = " (" + ", ".join(f"{k} {v}" for k, v in shown.items()) + ")" if shown else ""
    parts = [f"{key} {value}" if key else value for key, value in told]
    return shorten(f"{call.name}{called} returned {_and(parts) or 'nothing'}.")


def _shown(call: Call) -> dict[str, str | int | float]:
    """The first few scalar arguments of a call, so the reader sees what was asked."""
    arguments = call.parsed() or {}
    scalars = [
        (k, v) for k, v in arguments.items() if isinstance(v, str | int | float) and not isinstance(v, bool)
    ]
    return dict(scalars[:ARGUMENT_LIMIT])


def facts(value: Any, key: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """A result's (field, value) pairs, the field as written ('' for a bare value); of an MCP
    result, its structured content, else its text.

    >>> facts({"city": "Paris", "temp_c": 18, "sky": "cloudy"})
    [('city', 'Paris'), ('temp_c', '18'), ('sky', 'cloudy')]
    """
    if depth == 0 and isinstance(value, dict) and isinstance(value.get("content"), list):
        value = value.get("structuredContent") or text_parts(value)
    if depth > 8:
        return [(key, compact(value))]
    if isinstance(value, dict):
        return [f for k, v in value.items() for f in facts(v, str(k), depth + 1)]
    if isinstance(value, list):
        return [f for v in value for f in facts(v, key, depth + 1)]
    return [] if value is None else [(key, json.dumps(value) if isinstance(value, bool) else str(value))]


def shorten(text: str, limit: int = SUMMARY_LIMIT) -> str:
    """The text, cut to `limit` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _and(parts: list[str]) -> str:
    """'a, b and c'."""
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def ask_for(tool: Tool, missing: tuple[str, ...], request: str) -> str:
    """The question to the user when a tool fits but the request lacks values it requires: each
    parameter by its name and its description, which say what to give."""
    properties = tool.parameters.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    zh = has_chinese(request)
    named = [_described(name, properties.get(name), zh) for name in missing]
    if zh:
        return f"要调用 {tool.name}，我还需要知道：{'、'.join(named)}。应该用什么值？"
    values = "a value" if len(named) == 1 else "values"
    return f"To call {tool.name} I need {values} for {_and(named)}, not in the request. What should I use?"


def _described(name: str, schema: Any, zh: bool) -> str:
    """`to` (Recipient email address): a parameter as the question names it, in Chinese in full-width
    brackets."""
    said = " ".join(str(schema.get("description", "")).split()) if isinstance(schema, dict) else ""
    if not said:
        return f"`{name}`"
    said = shorten(said, 80).rstrip(".。")
    return f"`{name}`（{said}）" if zh else f"`{name}` ({said})"


def no_tool_found(request: str, names: list[str]) -> str:
    """The honest answer when no tool fits the request."""
    listed = ", ".join(names[:10]) + (", …" if len(names) > 10 else "")
    if has_chinese(request):
        return (
            f"没有适合“{_quote(request)}”的工具。提供的工具（{listed}）"
            "都与这个请求无关，所以我没有调用任何工具。"
        )
    return (
        f'I found no suitable tool for "{_quote(request)}". None of the tools offered ({listed}) '
        "fits what the request asks for, so I called none."
    )


def not_allowed(request: str) -> str:
    """The answer under `tool_choice: "none"` when the request needs a tool."""
    if has_chinese(request):
        return f'tool_choice 为 "none"，我不能调用工具，所以无法回答“{_quote(request)}”。'
    return (
        f'tool_choice is "none", so I may not call a tool, and I cannot answer "{_quote(request)}" '
        "without one."
    )


def without_tools(request: str) -> str:
    """The answer to a request that offers no tools (its self-introduction): in the request's
    language, or in Chinese in the course's Chinese edition, whose code cells ask in English."""
    if has_chinese(request) or language() == "zh":
        return (
            f"我是 {MODEL_ID}，课程的离线模型：规则加一个小型句子编码器，不是大语言模型。"
            f"我会选择并调用请求描述的工具，再报告结果。这个请求没有提供工具，所以我只能复述它：“{_quote(request)}”"
        )
    return (
        f"I am {MODEL_ID}, the course's offline model: rules and a small sentence encoder, "
        "not an LLM. I choose and call the tools a request describes and report their results. "
        f'This request offers no tools, so I can only repeat it: "{_quote(request)}"'
    )


def _quote(request: str) -> str:
    return shorten(request, QUOTE_LIMIT)
