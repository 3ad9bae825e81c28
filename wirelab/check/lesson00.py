"""Checks for lab 00: a first request, with the client and by hand."""

from __future__ import annotations

from typing import Any

from wirelab.check import attempt, exercise, expect, passed
from wirelab.llm import model_name

QUESTION = "Hello! Who are you?"


def _reference(llm: Any) -> Any:
    return llm.chat.completions.create(model=model_name(), messages=[{"role": "user", "content": QUESTION}])


class _Recorder:
    """A client that forwards each request to `llm` and keeps it, so a check can read what was sent."""

    def __init__(self, llm: Any) -> None:
        self._llm, self.requests = llm, []
        self.chat = self.completions = self

    def create(self, **request: Any) -> Any:
        self.requests.append(request)
        return self._llm.chat.completions.create(**request)


@exercise
def check_ask(ask: Any, llm: Any) -> None:
    recorder = _Recorder(llm)
    answer = attempt(ask, recorder, QUESTION)
    sent = [r.get("messages") for r in recorder.requests]
    expect(
        sent == [[{"role": "user", "content": QUESTION}]],
        f"ask(llm, {QUESTION!r}) sent {sent}: send exactly one request with exactly one user "
        "message whose content is the question",
    )
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


@exercise
def check_ask_by_hand(ask_by_hand: Any, base_url: str, llm: Any) -> None:
    body = attempt(ask_by_hand, base_url, QUESTION)
    expect(
        isinstance(body, dict),
        f"ask_by_hand returned {type(body).__name__}: return response.json(), the parsed body, as a dict",
    )
    expect(
        body.get("object") == "chat.completion",
        f"the body is not a chat completion ({str(body)[:80]}): POST to "
        f"{base_url}chat/completions with a JSON body holding 'model' and 'messages'",
    )
    expected = _reference(llm).choices[0].message.content
    got = body["choices"][0]["message"]["content"]
    expect(
        got == expected,
        f"the reply text was {got!r}, expected {expected!r}: send the same model and a single user message",
    )
    passed("ask_by_hand gets the same completion over plain HTTP")


@exercise
def check_token_usage(token_usage: Any, llm: Any) -> None:
    body = _reference(llm).model_dump()
    usage = body["usage"]
    got = attempt(token_usage, body)
    want = (usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"])
    expect(
        isinstance(got, tuple) and len(got) == 3,
        f"token_usage returned {got!r}: return a tuple (prompt, completion, total)",
    )
    expect(
        sorted(got) != sorted(want) or got == want,
        f"token_usage returned {got}: the right numbers in another order; return "
        "(prompt_tokens, completion_tokens, total_tokens), in that order",
    )
    expect(got == want, f"token_usage returned {got}, expected {want}: read them from body['usage']")
    passed("token_usage reads prompt, completion and total tokens from the usage field")
