"""Checks for lab 01: a tool described by hand, and tool calls parsed with care."""

from __future__ import annotations

import json
import re
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.llm import model_name


def _structure_problem(spec: Any) -> str | None:
    """What is wrong with a hand-written tool spec, or None."""
    if not isinstance(spec, dict) or spec.get("type") != "function":
        return 'the spec must be a dict with "type": "function"'
    fn = spec.get("function")
    if not isinstance(fn, dict):
        return 'put name, description and parameters under "function"'
    if not re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", str(fn.get("name", ""))):
        return "the name must be 1–64 letters, digits, _ or -"
    if not fn.get("description"):
        return (
            'the function has no "description": the model would know the tool only by its name; '
            "write a sentence saying what it does and when to use it"
        )
    if len(str(fn["description"])) < 10:
        return (
            f"the description {fn['description']!r} is too short: "
            "write a few words at least, it is all the model knows"
        )
    params = fn.get("parameters", {})
    if params.get("type") != "object" or not isinstance(params.get("properties"), dict):
        return 'parameters must be a JSON Schema {"type": "object", "properties": {...}}'
    return None


@exercise
def check_weather_tool(describe_weather_tool: Any, llm: Any) -> None:
    spec = attempt(describe_weather_tool)
    problem = _structure_problem(spec)
    expect(problem is None, f"weather_tool: {problem}")
    fn = spec["function"]
    props = fn["parameters"]["properties"]
    expect(fn["name"] == "get_weather", f"name the tool get_weather, not {fn['name']!r}")
    expect(props.get("city", {}).get("type") == "string", 'add a "city" property of type string')
    expect("city" in fn["parameters"].get("required", []), 'list "city" in "required"')
    expect(
        set(props.get("unit", {}).get("enum", [])) == {"celsius", "fahrenheit"},
        'add a "unit" property with "enum": ["celsius", "fahrenheit"]',
    )
    reply = llm.chat.completions.create(
        model=model_name(),
        tools=[spec],
        messages=[{"role": "user", "content": "What is the weather in Lisbon in celsius?"}],
    )
    calls = reply.choices[0].message.tool_calls or []
    expect(
        bool(calls),
        "the model did not choose your tool for a weather question: does the "
        "description say it gets the weather for a city?",
    )
    passed(f"the model calls your tool: {calls[0].function.name}({calls[0].function.arguments})")


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
        f"expected a list of {len(want)} calls, got {parsed!r}",
    )
    expect(parsed == want, f"expected {want}, got {parsed}: arguments must be parsed to a dict")
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
            f"parse_tool_calls raised {type(e).__name__}: {e} for a message without tool_calls "
            "(tool_calls is None): loop over `message.tool_calls or []`"
        ) from None
    expect(
        none_parsed == [],
        f"a message without tool_calls (tool_calls is None) gave {none_parsed!r}: return an empty list",
    )
    _check_malformed(parse_tool_calls, llm, tools)
    passed("parse_tool_calls parses every call and rejects malformed arguments clearly")


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
            f"the ValueError says {str(e)!r}: name the id of the call whose arguments are bad",
        )
        return
    except Exception as e:
        expect(
            False,
            f"malformed arguments raised {type(e).__name__}: raise ValueError instead "
            "(json.JSONDecodeError is a ValueError: catch it and add the call id)",
        )
    raw = bad.tool_calls[0].function.arguments
    got = (
        [c.get("arguments") for c in parsed]
        if isinstance(parsed, list) and all(isinstance(c, dict) for c in parsed)
        else parsed
    )
    became = (
        "became {}, so the tool would run with arguments the model never sent"
        if got == [{}]
        else f"were accepted as {got!r}"
    )
    expect(
        False,
        f"malformed arguments {raw!r} {became}: "
        "let json.loads fail and raise a ValueError naming the call's id",
    )
