"""Checks for lab 00: a first request, with the client and by hand."""

from __future__ import annotations

from typing import Any

from wirelab.check import attempt, exercise, expect, passed
from wirelab.edition import say
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
        say(
            f"ask(llm, {QUESTION!r}) sent {sent}: send exactly one request with exactly one user "
            "message whose content is the question",
            f"ask(llm, {QUESTION!r}) 发送的是 {sent}：应当只发送一个请求，其中只有一条 user 消息，"
            "content 就是问题本身",
        ),
    )
    expect(
        isinstance(answer, str),
        say(
            f"ask(...) returned {type(answer).__name__}: return the reply's "
            "text, response.choices[0].message.content, not the whole response",
            f"ask(...) 返回的是 {type(answer).__name__}：应当返回回复的文本 "
            "response.choices[0].message.content，而不是整个响应",
        ),
    )
    expect(
        answer == _reference(llm).choices[0].message.content,
        say(
            f"ask(llm, {QUESTION!r}) returned {answer[:60]!r}: send exactly one user message "
            "with that question as its content",
            f"ask(llm, {QUESTION!r}) 返回了 {answer[:60]!r}：应当只发送一条 user 消息，content 就是这个问题",
        ),
    )
    passed(
        say(
            "ask sends one user message and returns the reply's text",
            "ask 发送一条 user 消息，返回回复的文本",
        )
    )


@exercise
def check_ask_by_hand(ask_by_hand: Any, base_url: str, llm: Any) -> None:
    body = attempt(ask_by_hand, base_url, QUESTION)
    expect(
        isinstance(body, dict),
        say(
            f"ask_by_hand returned {type(body).__name__}: return response.json(), the parsed body, as a dict",
            f"ask_by_hand 返回的是 {type(body).__name__}：应当返回 response.json()，即解析后的响应体（dict）",
        ),
    )
    expect(
        body.get("object") == "chat.completion",
        say(
            f"the body is not a chat completion ({str(body)[:80]}): POST to "
            f"{base_url}chat/completions with a JSON body holding 'model' and 'messages'",
            f"响应体不是 chat completion（{str(body)[:80]}）：应当向 {base_url}chat/completions "
            "发送 POST 请求，JSON 请求体中包含 'model' 和 'messages'",
        ),
    )
    expected = _reference(llm).choices[0].message.content
    got = body["choices"][0]["message"]["content"]
    expect(
        got == expected,
        say(
            f"the reply text was {got!r}, expected {expected!r}: "
            "send the same model and a single user message",
            f"回复文本是 {got!r}，应为 {expected!r}：请使用同一个 model，只发送一条 user 消息",
        ),
    )
    passed(
        say(
            "ask_by_hand gets the same completion over plain HTTP",
            "ask_by_hand 直接用 HTTP 拿到了同样的补全结果",
        )
    )


@exercise
def check_token_usage(token_usage: Any, llm: Any) -> None:
    body = _reference(llm).model_dump()
    usage = body["usage"]
    got = attempt(token_usage, body)
    want = (usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"])
    expect(
        isinstance(got, tuple) and len(got) == 3,
        say(
            f"token_usage returned {got!r}: return a tuple (prompt, completion, total)",
            f"token_usage 返回了 {got!r}：应当返回元组 (prompt, completion, total)",
        ),
    )
    expect(
        sorted(got) != sorted(want) or got == want,
        say(
            f"token_usage returned {got}: the right numbers in another order; return "
            "(prompt_tokens, completion_tokens, total_tokens), in that order",
            f"token_usage 返回了 {got}：数字对了，顺序不对；请按 "
            "(prompt_tokens, completion_tokens, total_tokens) 的顺序返回",
        ),
    )
    expect(
        got == want,
        say(
            f"token_usage returned {got}, expected {want}: read them from body['usage']",
            f"token_usage 返回了 {got}，应为 {want}：请从 body['usage'] 中读取",
        ),
    )
    passed(
        say(
            "token_usage reads prompt, completion and total tokens from the usage field",
            "token_usage 从 usage 字段读出了提示、补全和总 token 数",
        )
    )
