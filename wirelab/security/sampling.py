"""Sampling risks: a server asks the host's model to write something. The host decides what goes.

With `sampling/createMessage` a server borrows the user's model: it sends
messages, and the host answers with the model's reply. The request is the
server's text, so it carries the server's risks:

- hidden instructions in `systemPrompt` or the messages, steering the model;
- `includeContext` ("thisServer" / "allServers"), which asks the host to
  attach the conversation, other servers' data included, and send the
  model's reply (and what it repeats of it) back to this server;
- `tools`, which let the server drive the model into tool calls;
- a huge `maxTokens`, or many requests, spending the user's money.

`SamplingGuard.handle` is the host's answer to one such request:

    guard = SamplingGuard(approve=ask_the_user, policy=SamplingPolicy(max_tokens=300))
    response = guard.handle(request, sample=chat_sampler(llm, model_name()))

It refuses over the rate limit, checks the params, strips context and tools,
caps `maxTokens`, drops a system prompt with suspicious text, shows the
user the whole request (with findings) and samples only if they approve.
The specification (client/sampling, "Error Handling") names one code for a
refusal: -1, "User rejected sampling request", which this guard sends when
the user says no. It names none for a rate limit (it only says clients
SHOULD rate-limit), so that refusal uses an application code of ours,
`RATE_LIMITED`, outside JSON-RPC's reserved range (-32768..-32000), with
`data.reason` saying why. Left out: reviewing the reply before it goes back
(the spec asks hosts to allow that too), images and audio.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wirelab.security.approval import Finding, hidden_instructions

USER_REJECTED = -1  # client/sampling.mdx: "User rejected sampling request"
RATE_LIMITED = 429  # ours: the spec names no code; outside the reserved range, and reads as "too many"
INVALID_PARAMS = -32602
Params = dict[str, Any]
Sampler = Callable[[Params], dict[str, Any]]


@dataclass(frozen=True)
class SamplingPolicy:
    """What the host allows: a token cap, context and tools (both off), a request rate."""

    max_tokens: int = 512
    allow_context: bool = False
    allow_tools: bool = False
    max_requests: int = 5
    per_seconds: float = 60.0


@dataclass
class SamplingReview:
    """The request as the host will send it, what was changed, and what looked suspicious."""

    params: Params
    changes: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def message_texts(params: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The text of each message: [(where, text)] such as ("messages[0]", "Hi")."""
    texts = []
    for index, message in enumerate(params.get("messages") or []):
        content = message.get("content") if isinstance(message, Mapping) else None
        blocks = content if isinstance(content, list) else [content]
        texts += [
            (f"messages[{index}]", b["text"])
            for b in blocks
            if isinstance(b, Mapping) and isinstance(b.get("text"), str)
        ]
    return texts


def invalid_params(params: Any) -> str | None:
    """Why `params` is not a valid createMessage request, or None."""
    if not isinstance(params, Mapping):
        return "params must be an object"
    if not isinstance(params.get("messages"), list) or not params["messages"]:
        return "messages must be a non-empty array"
    tokens = params.get("maxTokens")
    if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 1:
        return "maxTokens must be a positive integer"
    return None


class SamplingGuard:
    """The host's gate for `sampling/createMessage` requests from one server."""

    def __init__(
        self,
        approve: Callable[[SamplingReview], bool],
        policy: SamplingPolicy = SamplingPolicy(),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.approve, self.policy, self.clock = approve, policy, clock
        self._recent: deque[float] = deque()

    def review(self, params: Params) -> SamplingReview:
        """The request made safe by the policy (no side effects): see the module docstring."""
        safe, changes = dict(params), []
        if safe.get("maxTokens", 0) > self.policy.max_tokens:
            changes.append(f"maxTokens {safe['maxTokens']} capped to {self.policy.max_tokens}")
            safe["maxTokens"] = self.policy.max_tokens
        if safe.get("includeContext", "none") != "none" and not self.policy.allow_context:
            changes.append(f"includeContext {safe['includeContext']!r} set to 'none'")
            safe["includeContext"] = "none"
        if ("tools" in safe or "toolChoice" in safe) and not self.policy.allow_tools:
            changes.append(f"{len(safe.pop('tools', []))} tools removed")
            safe.pop("toolChoice", None)
        findings = [f for where, text in message_texts(safe) for f in hidden_instructions(text, where)]
        system = hidden_instructions(safe.get("systemPrompt") or "", "systemPrompt")
        if system:
            changes.append("systemPrompt dropped: it holds instructions")
            del safe["systemPrompt"]
        return SamplingReview(safe, changes, system + findings)

    def within_rate(self) -> bool:
        """True, and the request counted, unless `max_requests` came in the last `per_seconds`."""
        now = self.clock()
        while self._recent and now - self._recent[0] >= self.policy.per_seconds:
            self._recent.popleft()
        if len(self._recent) >= self.policy.max_requests:
            return False
        self._recent.append(now)
        return True

    def handle(self, request: Mapping[str, Any], sample: Sampler) -> dict[str, Any]:
        """The JSON-RPC response to one `sampling/createMessage` request."""
        reply = {"jsonrpc": "2.0", "id": request.get("id")}
        problem = invalid_params(request.get("params"))
        if problem:
            return reply | {"error": {"code": INVALID_PARAMS, "message": f"Invalid params: {problem}"}}
        if not self.within_rate():
            return reply | _refused(
                RATE_LIMITED,
                f"Sampling rate limit: at most {self.policy.max_requests} "
                f"requests per {self.policy.per_seconds:g} s",
                "rate_limited",
            )
        review = self.review(request["params"])
        if not self.approve(review):
            return reply | _refused(USER_REJECTED, "User rejected sampling request", "user_rejected")
        return reply | {"result": sample(review.params)}


def _refused(code: int, message: str, reason: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "data": {"reason": reason}}}


def chat_sampler(llm: Any, model: str, *, host_context: str = "") -> Sampler:
    """Answer sampling params with a Chat Completions model, as a host would.

    When the params ask for context, `host_context` (the rest of the host's
    conversation) is put before the server's first message: what a naive host does.
    """

    def sample(params: Params) -> dict[str, Any]:
        messages = [{"role": m.get("role", "user"), "content": _text_of(m)} for m in params["messages"]]
        if params.get("includeContext", "none") != "none" and host_context:
            messages[0]["content"] = f"{host_context}\n\n{messages[0]['content']}"
        if params.get("systemPrompt"):
            messages.insert(0, {"role": "system", "content": params["systemPrompt"]})
        reply = llm.chat.completions.create(
            model=model, messages=messages, max_tokens=params["maxTokens"]
        ).choices[0]
        return {
            "role": "assistant",
            "content": {"type": "text", "text": reply.message.content or ""},
            "model": model,
            "stopReason": "maxTokens" if reply.finish_reason == "length" else "endTurn",
        }

    return sample


def _text_of(message: Mapping[str, Any]) -> str:
    return "\n".join(text for _, text in message_texts({"messages": [message]}))
