"""Checks for lab 00: a first request, with the client and by hand."""

from __future__ import annotations

from typing import Any

from wirelab.check import attempt, expect, passed
from wirelab.llm import model_name

QUESTION = "Hello! Who are you?"


def _reference(llm: Any) -> Any:
    return llm.chat.completions.create(model=model_name(), messages=[{"role": "user", "content": QUESTION}])


def check_ask(ask: Any, llm: Any) -> None:
    answer = attempt(ask, llm, QUESTION)
    expect(
        isinstance(answer, str),
        f"ask(...) returned {type(answer).__name__}: return the reply's "
        "text, response.choices[0].message.content, not the whole response",
    )
    expect(
        answer == _reference(llm).choices[0].message.content,
        f"ask(llm, {QUESTION!r}) returned {answer[:60]!r}: send exactly one user message "
        "with that question as its content",
    )
    passed("ask sends one user message and returns the reply's text")


def check_ask_by_hand(ask_by_hand: Any, base_url: str, llm: Any) -> None:
    body = attempt(ask_by_hand, base_url, QUESTION)
    expect(
        isinstance(body, dict),
        f"ask_by_hand returned {type(body).__name__}: return response.json(), the parsed body, as a dict",
    )
    expect(
        body.get("object") == "chat.completion",
        "the body is not a chat completion: POST to "
        f"{base_url}chat/completions with a JSON body holding 'model' and 'messages'",
    )
    expected = _reference(llm).choices[0].message.content
    got = body["choices"][0]["message"]["content"]
    expect(
        got == expected,
        f"the reply text was {got!r}, expected {expected!r}: send the same model and a single user message",
    )
    passed("ask_by_hand gets the same completion over plain HTTP")


def check_token_usage(token_usage: Any, llm: Any) -> None:
    body = _reference(llm).model_dump()
    usage = body["usage"]
    got = attempt(token_usage, body)
    want = (usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"])
    expect(
        isinstance(got, tuple) and len(got) == 3,
        f"token_usage returned {got!r}: return a tuple (prompt, completion, total)",
    )
    expect(got == want, f"token_usage returned {got}, expected {want}: read them from body['usage']")
    passed("token_usage reads prompt, completion and total tokens from the usage field")
