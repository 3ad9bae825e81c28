"""Checks for lab 09: match a URI against a URI template, and `prompts/get` with arguments.

`match_template` is compared with the package's `ServerResourceTemplate.match`
on URIs chosen to catch the usual slips (a prefix match, a variable that eats
a `/`, a dot left unescaped). `get_prompt` gets the lab's `PROMPTS`.
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.check import attempt, exercise, expect, passed
from wirelab.check.lesson07 import attempt_case
from wirelab.edition import say
from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError
from wirelab.mcp.server import ServerResourceTemplate

# template, uri, why a slip would show here (English, Chinese)
TEMPLATE_CASES = [
    ("notes://note/{slug}", "notes://note/stdio", ("one variable, one segment", "一个变量，一段路径")),
    (
        "notes://note/{slug}",
        "notes://note/json-rpc",
        ("a dash is part of a segment", "连字符属于路径段的一部分"),
    ),
    (
        "notes://note/{slug}",
        "notes://note/",
        ("a variable needs at least one character", "变量至少要有一个字符"),
    ),
    (
        "notes://note/{slug}",
        "notes://notes/stdio",
        ("the literal part must match exactly", "字面部分必须完全匹配"),
    ),
    (
        "notes://note/{slug}",
        "xnotes://note/stdio",
        ("match the whole URI, not a part of it", "要匹配整个 URI，而不是其中一部分"),
    ),
    (
        "notes://note/{slug}",
        "notes://note/stdio/extra",
        ("match the whole URI, up to its end", "要一直匹配到 URI 的末尾"),
    ),
    ("notes://note/{slug}", "notes://note/a/b", ("a variable stops at '/'", "变量遇到 '/' 就结束")),
    ("notes://note/{slug}", "notes://note/stdio?x=1", ("a variable stops at '?'", "变量遇到 '?' 就结束")),
    ("files://{folder}/{name}", "files://src/main.py", ("two variables", "两个变量")),
    (
        "db://t.{name}",
        "db://tXusers",
        ("escape the literal parts: '.' is not 'any character'", "字面部分要转义：'.' 不是“任意字符”"),
    ),
    (
        "db://t.{name}",
        "db://t.users",
        ("escaped literals still match themselves", "转义后的字面部分仍然匹配它自己"),
    ),
    (
        "weather://{city}/today",
        "weather://Paris/today",
        ("a literal after a variable", "变量后面跟着字面部分"),
    ),
]


def _expected(template: str, uri: str) -> dict[str, str] | None:
    return ServerResourceTemplate(template, "t", lambda **variables: "").match(uri)


@exercise
def check_match_template(match_template: Any) -> None:
    for template, uri, (why_en, why_zh) in TEMPLATE_CASES:
        why = say(why_en, why_zh)
        got = attempt(match_template, template, uri)
        want = _expected(template, uri)
        slashed = isinstance(got, dict) and any(c in str(value) for value in got.values() for c in "/?#")
        expect(
            not slashed,
            say(
                f"match_template({template!r}, {uri!r}) returned {got!r}: a variable stops at '/', '?' "
                "and '#' (use [^/?#]+, not .+)",
                f"match_template({template!r}, {uri!r}) 返回了 {got!r}：变量遇到 '/'、'?' "
                "和 '#' 就结束（用 [^/?#]+，不要用 .+）",
            ),
        )
        expect(
            got == want,
            say(
                f"match_template({template!r}, {uri!r}) returned {got!r}, expected {want!r}: {why}",
                f"match_template({template!r}, {uri!r}) 返回了 {got!r}，应为 {want!r}：{why}",
            ),
        )
    passed(
        say(
            "match_template finds a template's variables in a URI, and only in a URI it names",
            "match_template 能在 URI 中找出模板的变量，而且只在模板所描述的 URI 中找",
        )
    )


PROMPTS = {
    "summarize": {
        "description": "Ask for a summary of a text.",
        "arguments": [{"name": "text", "required": True}, {"name": "sentences", "required": False}],
        "render": lambda text, sentences="2": f"Summarize in {sentences} sentences:\n\n{text}",
    },
    "greet": {"description": "Say hello.", "arguments": [], "render": lambda: "Hello!"},
}

# params, expected text of the one user message, or None when -32602 is expected; why (English, Chinese)
PROMPT_CASES: list[tuple[dict[str, Any], str | None, tuple[str, str]]] = [
    (
        {"name": "summarize", "arguments": {"text": "abc"}},
        "Summarize in 2 sentences:\n\nabc",
        ("the optional argument keeps its default", "可选参数保持它的默认值"),
    ),
    (
        {"name": "summarize", "arguments": {"text": "abc", "sentences": "3"}},
        "Summarize in 3 sentences:\n\nabc",
        ("pass every argument to render", "把每个参数都传给 render"),
    ),
    (
        {"name": "greet"},
        "Hello!",
        ('"arguments" may be absent: treat it as {}', '"arguments" 可能不存在：把它当作 {}'),
    ),
    (
        {"name": "summarize", "arguments": {}},
        None,
        ('the required argument "text" is missing', '缺少必填参数 "text"'),
    ),
    (
        {"name": "summarize", "arguments": {"text": "abc", "tone": "dry"}},
        None,
        ('the prompt declares no argument "tone"', '这个 prompt 没有声明参数 "tone"'),
    ),
    (
        {"name": "translate", "arguments": {}},
        None,
        ("there is no prompt named translate", "没有名为 translate 的 prompt"),
    ),
]


def _prompt_result(get_prompt: Any, params: dict[str, Any], why: str) -> tuple[Any, JsonRpcError | None]:
    def getting(params: dict[str, Any]) -> tuple[Any, JsonRpcError | None]:
        try:
            return get_prompt(PROMPTS, params), None
        except JsonRpcError as error:
            return None, error

    getting.__name__ = getattr(get_prompt, "__name__", "get_prompt")
    return attempt_case(getting, params, why=why)


@exercise
def check_get_prompt(get_prompt: Any) -> None:
    for params, text, (why_en, why_zh) in PROMPT_CASES:
        why = say(why_en, why_zh)
        where = f"get_prompt(PROMPTS, {json.dumps(params)})"
        expected = (
            why
            if text is not None
            else say(
                f"{why}: raise JsonRpcError(INVALID_PARAMS, ...)",
                f"{why}：应当 raise JsonRpcError(INVALID_PARAMS, ...)",
            )
        )
        result, error = _prompt_result(get_prompt, params, expected)
        if text is None:
            expect(
                error is not None and error.code == INVALID_PARAMS,
                say(
                    f"{where} returned {result!r}: {why}, so raise JsonRpcError(INVALID_PARAMS, ...)"
                    + (f" (it raised code {error.code})" if error else ""),
                    f"{where} 返回了 {result!r}：{why}，所以应当 raise JsonRpcError(INVALID_PARAMS, ...)"
                    + (f"（它抛出的 code 是 {error.code}）" if error else ""),
                ),
            )
            continue
        expect(
            error is None,
            say(
                f"{where} raised {error}: {why}",
                f"{where} 抛出了 code 为 {error.code if error else None} 的 JsonRpcError：{why}",
            ),
        )
        want = {
            "description": PROMPTS[params["name"]]["description"],
            "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
        }
        expect(
            result == want,
            say(
                f"{where} returned {result!r}, expected {want!r}: {why}",
                f"{where} 返回了 {result!r}，应为 {want!r}：{why}",
            ),
        )
    passed(
        say(
            "get_prompt renders messages from the arguments and refuses missing or unknown ones",
            "get_prompt 用参数渲染出消息，并拒绝缺失或未知的参数",
        )
    )
