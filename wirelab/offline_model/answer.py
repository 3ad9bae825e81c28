"""Stage 7, answer: say what the tools returned, in natural sentences, in the user's language.

    >>> from wirelab.offline_model.results import read_result
    >>> done = [(Call("", "get_weather", '{"city":"Paris"}'), read_result('{"temp_c": 18, "sky": "cloudy"}'))]
    >>> say(done, "What's the weather in Paris?")
    'get_weather (city Paris) returned temp_c 18 and sky cloudy.'
    >>> say(done, "巴黎天气怎么样？")
    'get_weather（city：Paris）的结果：temp_c 为 18，sky 为 cloudy。'

Chinese in, Chinese out: a request with Chinese characters is answered in
Chinese. Each result becomes one sentence that names the tool and the
arguments it was called with (so the reader can check the call), then its
fields in words; an error says what went wrong, in the tool's own words. Long results are shortened.
The other texts the model writes (no suitable tool, `tool_choice: "none"`, a
request with no tools) are here too, in both languages.
"""

from __future__ import annotations

from wirelab.edition import language
from wirelab.offline_model.normalize import has_chinese, identifier_words
from wirelab.offline_model.request import MODEL_ID, Call
from wirelab.offline_model.results import ToolResult, shorten

QUOTE_LIMIT = 200
ARGUMENT_LIMIT = 3


def say(results: list[tuple[Call, ToolResult]], request: str) -> str:
    """One sentence per tool result, in the request's language."""
    chinese = has_chinese(request)
    return "\n".join(_sentence(call, result, chinese) for call, result in results)


def _sentence(call: Call, result: ToolResult, chinese: bool) -> str:
    if result.error is not None:
        if chinese:
            return f"{call.name} 调用失败：{result.message()}"
        return f'{call.name} failed: "{result.message()}"'
    called = call.name + _arguments(call, chinese)
    asked = set(_shown(call).values())
    facts = [(key, value) for key, value in result.facts() if value not in map(str, asked)] or result.facts()
    if chinese:
        parts = [f"{key} 为 {value}" if key else value for key, value in facts]
        return shorten(f"{called}的结果：{'，'.join(parts) or '（空）'}。")
    parts = [f"{key} {value}" if key else value for key, value in facts]
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts) or "nothing"
    return shorten(f"{called} returned {listed}.")


def _shown(call: Call) -> dict[str, str | int | float]:
    """The first few scalar arguments of a call, so the reader sees what was asked."""
    arguments = call.parsed() or {}
    scalars = [
        (k, v) for k, v in arguments.items() if isinstance(v, str | int | float) and not isinstance(v, bool)
    ]
    return dict(scalars[:ARGUMENT_LIMIT])


def _arguments(call: Call, chinese: bool) -> str:
    """' (city Paris)', or '（city：Paris）' in Chinese."""
    shown = _shown(call)
    if not shown:
        return ""
    if chinese:
        return "（" + "，".join(f"{k}：{v}" for k, v in shown.items()) + "）"
    return " (" + ", ".join(f"{k} {v}" for k, v in shown.items()) + ")"


def _quote(text: str) -> str:
    return shorten(text, QUOTE_LIMIT)


def ask_for(tool: str, missing: tuple[str, ...], request: str) -> str:
    """The question to the user when a tool fits but the request lacks values it requires."""
    named = [" ".join(identifier_words(name)) for name in missing]
    if has_chinese(request):
        return f"要调用 {tool}，我还需要知道：{'、'.join(named)}。请告诉我，我再继续。"
    listed = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
    return f"To call {tool} I need the {listed}, which the request does not say. What should I use?"


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
            "我会选择并调用请求描述的工具，"
            f"再报告结果。这个请求没有提供工具，所以我只能复述它：“{_quote(request)}”"
        )
    return (
        f"I am {MODEL_ID}, the course's offline model: rules and a small sentence encoder, "
        "not an LLM. I choose and call the tools a request describes and report their results. "
        f'This request offers no tools, so I can only repeat it: "{_quote(request)}"'
    )
