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
from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError
from wirelab.mcp.server import ServerResourceTemplate

# template, uri, why a slip would show here
TEMPLATE_CASES = [
    ("notes://note/{slug}", "notes://note/stdio", "one variable, one segment"),
    ("notes://note/{slug}", "notes://note/json-rpc", "a dash is part of a segment"),
    ("notes://note/{slug}", "notes://note/", "a variable needs at least one character"),
    ("notes://note/{slug}", "notes://notes/stdio", "the literal part must match exactly"),
    ("notes://note/{slug}", "xnotes://note/stdio", "match the whole URI, not a part of it"),
    ("notes://note/{slug}", "notes://note/stdio/extra", "match the whole URI, up to its end"),
    ("notes://note/{slug}", "notes://note/a/b", "a variable stops at '/'"),
    ("notes://note/{slug}", "notes://note/stdio?x=1", "a variable stops at '?'"),
    ("files://{folder}/{name}", "files://src/main.py", "two variables"),
    ("db://t.{name}", "db://tXusers", "escape the literal parts: '.' is not 'any character'"),
    ("db://t.{name}", "db://t.users", "escaped literals still match themselves"),
    ("weather://{city}/today", "weather://Paris/today", "a literal after a variable"),
]


def _expected(template: str, uri: str) -> dict[str, str] | None:
    return ServerResourceTemplate(template, "t", lambda **variables: "").match(uri)


@exercise
def check_match_template(match_template: Any) -> None:
    for template, uri, why in TEMPLATE_CASES:
        got = attempt(match_template, template, uri)
        want = _expected(template, uri)
        slashed = isinstance(got, dict) and any(c in str(value) for value in got.values() for c in "/?#")
        expect(
            not slashed,
            f"match_template({template!r}, {uri!r}) returned {got!r}: a variable stops at '/', '?' "
            "and '#' (use [^/?#]+, not .+)",
        )
        expect(
            got == want, f"match_template({template!r}, {uri!r}) returned {got!r}, expected {want!r}: {why}"
        )
    passed("match_template finds a template's variables in a URI, and only in a URI it names")


PROMPTS = {
    "summarize": {
        "description": "Ask for a summary of a text.",
        "arguments": [{"name": "text", "required": True}, {"name": "sentences", "required": False}],
        "render": lambda text, sentences="2": f"Summarize in {sentences} sentences:\n\n{text}",
    },
    "greet": {"description": "Say hello.", "arguments": [], "render": lambda: "Hello!"},
}

# params, expected text of the one user message, or None when -32602 is expected; why
PROMPT_CASES: list[tuple[dict[str, Any], str | None, str]] = [
    (
        {"name": "summarize", "arguments": {"text": "abc"}},
        "Summarize in 2 sentences:\n\nabc",
        "the optional argument keeps its default",
    ),
    (
        {"name": "summarize", "arguments": {"text": "abc", "sentences": "3"}},
        "Summarize in 3 sentences:\n\nabc",
        "pass every argument to render",
    ),
    ({"name": "greet"}, "Hello!", '"arguments" may be absent: treat it as {}'),
    ({"name": "summarize", "arguments": {}}, None, 'the required argument "text" is missing'),
    (
        {"name": "summarize", "arguments": {"text": "abc", "tone": "dry"}},
        None,
        'the prompt declares no argument "tone"',
    ),
    ({"name": "translate", "arguments": {}}, None, "there is no prompt named translate"),
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
    for params, text, why in PROMPT_CASES:
        where = f"get_prompt(PROMPTS, {json.dumps(params)})"
        expected = why if text is not None else f"{why}: raise JsonRpcError(INVALID_PARAMS, ...)"
        result, error = _prompt_result(get_prompt, params, expected)
        if text is None:
            expect(
                error is not None and error.code == INVALID_PARAMS,
                f"{where} returned {result!r}: {why}, so raise JsonRpcError(INVALID_PARAMS, ...)"
                + (f" (it raised code {error.code})" if error else ""),
            )
            continue
        expect(error is None, f"{where} raised {error}: {why}")
        want = {
            "description": PROMPTS[params["name"]]["description"],
            "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
        }
        expect(result == want, f"{where} returned {result!r}, expected {want!r}: {why}")
    passed("get_prompt renders messages from the arguments and refuses missing or unknown ones")
