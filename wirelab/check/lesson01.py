"""Checks for lab 01: a tool described by hand, and tool calls parsed with care."""

from __future__ import annotations

import json
import re
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say
from wirelab.llm import model_name


def _structure_problem(spec: Any) -> str | None:
    """What is wrong with a hand-written tool spec, or None."""
    if not isinstance(spec, dict) or spec.get("type") != "function":
        return say(
            'the spec must be a dict with "type": "function"', 'spec 必须是带 "type": "function" 的 dict'
        )
    fn = spec.get("function")
    if not isinstance(fn, dict):
        return say(
            'put name, description and parameters under "function"',
            'name、description 和 parameters 要放在 "function" 下面',
        )
    if not re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", str(fn.get("name", ""))):
        return say("the name must be 1–64 letters, digits, _ or -", "name 必须是 1–64 个字母、数字、_ 或 -")
    if not fn.get("description"):
        return say(
            'the function has no "description": the model would know the tool only by its name; '
            "write a sentence saying what it does and when to use it",
            '这个 function 没有 "description"：模型只能凭名字认识这个工具；'
            "写一句话，说明它做什么、什么时候用",
        )
    if len(str(fn["description"])) < 10:
        return say(
            f"the description {fn['description']!r} is too short: "
            "write a few words at least, it is all the model knows",
            f"description {fn['description']!r} 太短了：至少写几个词，模型对这个工具的了解全在这里",
        )
    params = fn.get("parameters", {})
    if params.get("type") != "object" or not isinstance(params.get("properties"), dict):
        return say(
            'parameters must be a JSON Schema {"type": "object", "properties": {...}}',
            'parameters 必须是 JSON Schema {"type": "object", "properties": {...}}',
        )
    return None


@exercise
def check_weather_tool(describe_weather_tool: Any, llm: Any) -> None:
    spec = attempt(describe_weather_tool)
    problem = _structure_problem(spec)
    expect(problem is None, f"weather_tool: {problem}")
    fn = spec["function"]
    props = fn["parameters"]["properties"]
    expect(
        fn["name"] == "get_weather",
        say(
            f"name the tool get_weather, not {fn['name']!r}",
            f"工具要命名为 get_weather，而不是 {fn['name']!r}",
        ),
    )
    expect(
        props.get("city", {}).get("type") == "string",
        say('add a "city" property of type string', '添加一个类型为 string 的 "city" 属性'),
    )
    expect(
        "city" in fn["parameters"].get("required", []),
        say('list "city" in "required"', '把 "city" 列进 "required"'),
    )
    expect(
        set(props.get("unit", {}).get("enum", [])) == {"celsius", "fahrenheit"},
        say(
            'add a "unit" property with "enum": ["celsius", "fahrenheit"]',
            '添加一个带 "enum": ["celsius", "fahrenheit"] 的 "unit" 属性',
        ),
    )
    reply = llm.chat.completions.create(
        model=model_name(),
        tools=[spec],
        messages=[{"role": "user", "content": "What is the weather in Lisbon in celsius?"}],
    )
    calls = reply.choices[0].message.tool_calls or []
    expect(
        bool(calls),
        say(
            "the model did not choose your tool for a weather question: does the "
            "description say it gets the weather for a city?",
            "问天气时模型没有选你的工具：description 里说了它能查询一个城市的天气吗？",
        ),
    )
    passed(
        say(
            f"the model calls your tool: {calls[0].function.name}({calls[0].function.arguments})",
            f"模型调用了你的工具：{calls[0].function.name}({calls[0].function.arguments})",
        )
    )


def _city_tool(name: str, description: str) -> dict:
    city = {"type": "string", "description": "City name, e.g. Paris"}
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": {"city": city}, "required": ["city"]},
        },
    }


TOOLS = [
    _city_tool("get_weather", "Get the current weather for a city."),
    _city_tool("get_time", "Get the current local time in a city."),
]


@exercise
def check_parse_tool_calls(parse_tool_calls: Any, llm: Any, tools: list = TOOLS) -> None:
    ask = "What is the weather in Paris and the time in Tokyo?"
    message = (
        llm.chat.completions.create(
            model=model_name(), tools=tools, messages=[{"role": "user", "content": ask}]
        )
        .choices[0]
        .message
    )
    parsed = attempt(parse_tool_calls, message)
    want = [
        {"id": c.id, "name": c.function.name, "arguments": json.loads(c.function.arguments)}
        for c in message.tool_calls
    ]
    expect(
        isinstance(parsed, list) and len(parsed) == len(want),
        say(
            f"expected a list of {len(want)} calls, got {parsed!r}",
            f"应当是包含 {len(want)} 个调用的列表，实际得到 {parsed!r}",
        ),
    )
    expect(
        parsed == want,
        say(
            f"expected {want}, got {parsed}: arguments must be parsed to a dict",
            f"应为 {want}，实际得到 {parsed}：arguments 必须解析成 dict",
        ),
    )
    text_only = (
        llm.chat.completions.create(
            model=model_name(), tools=tools, tool_choice="none", messages=[{"role": "user", "content": ask}]
        )
        .choices[0]
        .message
    )
    try:
        none_parsed = parse_tool_calls(text_only)
    except Exception as e:
        raise CheckFailed(
            say(
                f"parse_tool_calls raised {type(e).__name__}: {e} for a message without tool_calls "
                "(tool_calls is None): loop over `message.tool_calls or []`",
                "对没有 tool_calls 的消息（tool_calls 为 None），"
                f"parse_tool_calls 抛出了 {type(e).__name__}：{str(e)!r}："
                "应当遍历 `message.tool_calls or []`",
            )
        ) from None
    expect(
        none_parsed == [],
        say(
            f"a message without tool_calls (tool_calls is None) gave {none_parsed!r}: return an empty list",
            f"没有 tool_calls 的消息（tool_calls 为 None）得到了 {none_parsed!r}：应当返回空列表",
        ),
    )
    _check_malformed(parse_tool_calls, llm, tools)
    passed(
        say(
            "parse_tool_calls parses every call and rejects malformed arguments clearly",
            "parse_tool_calls 能解析每个调用，并清楚地拒绝格式错误的参数",
        )
    )


def _check_malformed(parse_tool_calls: Any, llm: Any, tools: list) -> None:
    bad = (
        llm.chat.completions.create(
            model=f"{model_name()}/malformed_arguments",
            tools=tools,
            messages=[{"role": "user", "content": "What is the weather in Paris?"}],
        )
        .choices[0]
        .message
    )
    try:
        parsed = parse_tool_calls(bad)
    except ValueError as e:
        expect(
            bad.tool_calls[0].id in str(e),
            say(
                f"the ValueError says {str(e)!r}: name the id of the call whose arguments are bad",
                f"ValueError 的内容是 {str(e)!r}：要写出参数有误的那个调用的 id",
            ),
        )
        return
    except Exception as e:
        expect(
            False,
            say(
                f"malformed arguments raised {type(e).__name__}: raise ValueError instead "
                "(json.JSONDecodeError is a ValueError: catch it and add the call id)",
                f"格式错误的参数引发了 {type(e).__name__}：应当改为抛出 ValueError"
                "（json.JSONDecodeError 就是一种 ValueError：捕获它，再加上调用的 id）",
            ),
        )
    raw = bad.tool_calls[0].function.arguments
    got = (
        [c.get("arguments") for c in parsed]
        if isinstance(parsed, list) and all(isinstance(c, dict) for c in parsed)
        else parsed
    )
    became = (
        say(
            "became {}, so the tool would run with arguments the model never sent",
            "变成了 {}，工具就会带着模型根本没发过的参数运行",
        )
        if got == [{}]
        else say(f"were accepted as {got!r}", f"被当作 {got!r} 接受了")
    )
    expect(
        False,
        say(
            f"malformed arguments {raw!r} {became}: "
            "let json.loads fail and raise a ValueError naming the call's id",
            f"格式错误的参数 {raw!r} {became}：让 json.loads 失败，并抛出写明调用 id 的 ValueError",
        ),
    )
