"""Checks for lab 14: sampling messages, an elicitation answer, safe pagination, a 2026 retry.

`to_chat_messages` is compared with the host's `chat_messages`. `answer_form`
is given filled-in, declined and closed forms. `list_all` pages through fake
servers, one of which hands back the same cursor forever. `retry_request` is
given `InputRequiredResult`s with and without `requestState`.
"""

from __future__ import annotations

import copy
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError
from wirelab.mcp.host import chat_messages
from wirelab.mcp.protocol import argument_problems


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


SAMPLING_CASES = [
    {"messages": [{"role": "user", "content": _text("What is JSON-RPC?")}], "maxTokens": 50},
    {
        "systemPrompt": "Answer in one line.",
        "maxTokens": 50,
        "messages": [
            {"role": "user", "content": _text("Name a transport.")},
            {"role": "assistant", "content": _text("stdio")},
            {"role": "user", "content": [_text("Another one?"), _text("Be brief.")]},
        ],
    },
]
IMAGE_REQUEST = {
    "maxTokens": 50,
    "messages": [
        {"role": "user", "content": {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}}
    ],
}


@exercise
def check_to_chat_messages(to_chat_messages: Any) -> None:
    for params in SAMPLING_CASES:
        got, want = attempt(to_chat_messages, copy.deepcopy(params)), chat_messages(params)
        expect(
            got == want,
            f"to_chat_messages gave {got!r}\nfor {params!r}\nexpected {want!r}: "
            "the systemPrompt (if any) becomes a first system message, each text content is "
            'its "text", and a list of text blocks is joined with "\\n"',
        )
    try:
        refused = to_chat_messages(copy.deepcopy(IMAGE_REQUEST))
    except JsonRpcError as e:
        expect(
            e.code == INVALID_PARAMS,
            f"an image raised JsonRpcError {e.code}: use -32602 "
            "(INVALID_PARAMS), the code for a request this client cannot serve as sent",
        )
    except Exception as e:
        raise CheckFailed(
            f"an image raised {type(e).__name__}: {e}; raise "
            "JsonRpcError(INVALID_PARAMS, ...) so the server gets a clear error"
        ) from None
    else:
        raise CheckFailed(
            f"an image content became {refused!r}: the model here reads text only, "
            "so raise JsonRpcError(INVALID_PARAMS, ...)"
        )
    passed("to_chat_messages turns a sampling request into chat messages and refuses images")


ROOM_FORM = {
    "mode": "form",
    "message": "Book which room, for how many people?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "room": {"type": "string", "enum": ["Lab 1", "Lab 2"]},
            "people": {"type": "integer", "minimum": 1},
        },
        "required": ["room"],
    },
}


@exercise
def check_answer_form(answer_form: Any) -> None:
    for filled, want in [(None, {"action": "cancel"}), (False, {"action": "decline"})]:
        got = attempt(answer_form, copy.deepcopy(ROOM_FORM), filled)
        expect(
            got == want,
            f"answer_form(form, {filled!r}) returned {got!r}, expected {want!r}: "
            "None means the user closed the dialog (cancel), False that they said no (decline)",
        )
    for filled in [{"room": "Lab 2", "people": 3}, {"room": "Lab 1"}]:
        got = attempt(answer_form, copy.deepcopy(ROOM_FORM), dict(filled))
        want = {"action": "accept", "content": filled}
        expect(got == want, f"answer_form(form, {filled!r}) returned {got!r}, expected {want!r}")
    for bad in [{"room": "Kitchen"}, {"people": 2}, {"room": "Lab 1", "people": "two"}]:
        problems = argument_problems(ROOM_FORM["requestedSchema"], bad)
        expect(
            _refuses(answer_form, (copy.deepcopy(ROOM_FORM), dict(bad)), ValueError),
            f"answer_form(form, {bad!r}) sent it, but that content breaks the requested schema "
            f"({'; '.join(problems)}): raise ValueError and let the user correct the form",
        )
    passed("answer_form cancels, declines, accepts valid content and refuses content that breaks the schema")


class PagedServer:
    """A fake `tools/list` serving `pages` in order; when `loops`, the same cursor forever."""

    def __init__(self, pages: list[list[str]], loops: bool = False) -> None:
        self.pages, self.loops, self.asked = pages, loops, []

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(dict(params))
        if len(self.asked) > 20:
            raise CheckFailed(
                "list_all asked for more than 20 pages of a server that repeats its "
                "cursor: remember the cursors seen and raise RuntimeError on a repeat"
            )
        expect(method == "tools/list", f"list_all sent {method!r}: send the method it was given")
        if self.loops:
            return {"tools": [{"name": "again"}], "nextCursor": "same"}
        expect(
            params.get("cursor", "") is not None,
            f"list_all sent params {params!r}: the first page is asked for without a cursor "
            "(params {}), never with cursor None",
        )
        index = int(params["cursor"].removeprefix("page-")) if "cursor" in params else 0
        result: dict[str, Any] = {"tools": [{"name": n} for n in self.pages[index]]}
        if index + 1 < len(self.pages):
            result["nextCursor"] = f"page-{index + 1}"
        return result


def _refuses(fn: Any, args: tuple, error: type[Exception]) -> bool:
    """Does `fn(*args)` raise `error`? Another exception is a CheckFailed that names it."""
    try:
        fn(*args)
    except error:
        return True
    except CheckFailed:
        raise
    except Exception as e:
        raise CheckFailed(
            f"{fn.__name__} raised {type(e).__name__}: {e}; raise {error.__name__} here"
        ) from None
    return False


@exercise
def check_list_all(list_all: Any) -> None:
    for pages in [[["a", "b"], ["c", "d"], ["e"]], [["only"]], [["a"], [], ["b"]]]:
        server = PagedServer(pages)
        got = attempt(list_all, server.request, "tools/list", "tools")
        want = [{"name": n} for page in pages for n in page]
        expect(
            got == want,
            f"list_all over pages {pages} returned {got!r}, expected {want!r}: "
            "collect result[key] of every page, following nextCursor until a page has none",
        )
        expect(
            server.asked[0] == {},
            f"the first request had params {server.asked[0]!r}: the first page is asked for without a cursor",
        )
        expect(
            len(server.asked) == len(pages),
            f"list_all asked {len(server.asked)} times for {len(pages)} pages",
        )
    looping = PagedServer([], loops=True)
    expect(
        _refuses(list_all, (looping.request, "tools/list", "tools"), RuntimeError),
        "list_all returned although the server sent the same cursor again: raise RuntimeError "
        "when a cursor repeats",
    )
    passed("list_all follows nextCursor to the last page and stops a server that loops")


ORIGINAL = {
    "jsonrpc": "2.0",
    "id": 7,
    "method": "tools/call",
    "params": {"name": "book_room", "arguments": {"room": "Lab 2"}},
}
INPUT_REQUIRED = {
    "resultType": "input_required",
    "requestState": "opaque+/=state",
    "inputRequests": {
        "day": {
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "Which day?",
                "requestedSchema": {"type": "object", "properties": {"day": {"type": "string"}}},
            },
        }
    },
}
ANSWERS = {"day": {"action": "accept", "content": {"day": "Tuesday"}}}


@exercise
def check_retry_request(retry_request: Any) -> None:
    original = copy.deepcopy(ORIGINAL)
    got = attempt(retry_request, original, copy.deepcopy(INPUT_REQUIRED), copy.deepcopy(ANSWERS), 8)
    expect(
        original == ORIGINAL,
        "retry_request changed the request it was given: build a new "
        "one (the original may still be shown or logged)",
    )
    want = {
        "jsonrpc": "2.0",
        "id": 8,
        "method": "tools/call",
        "params": {**ORIGINAL["params"], "inputResponses": ANSWERS, "requestState": "opaque+/=state"},
    }
    expect(
        got == want,
        f"retry_request returned {got!r}\nexpected {want!r}: the same method and "
        "params, a new id, the answers as inputResponses and requestState echoed exactly",
    )
    stateless = {k: v for k, v in INPUT_REQUIRED.items() if k != "requestState"}
    got = attempt(retry_request, copy.deepcopy(ORIGINAL), stateless, copy.deepcopy(ANSWERS), 8)
    expect(
        "requestState" not in got.get("params", {}),
        f"retry_request sent requestState "
        f"{got.get('params', {}).get('requestState')!r} although the server sent none: a client "
        "MUST NOT include one then",
    )
    for args, why in [
        ((copy.deepcopy(ANSWERS), 7), "the retry reused id 7: the spec wants a new id"),
        (({}, 8), 'no answer for the input request "day": raise before retrying'),
    ]:
        expect(
            _refuses(
                retry_request, (copy.deepcopy(ORIGINAL), copy.deepcopy(INPUT_REQUIRED), *args), ValueError
            ),
            f"{why} (raise ValueError)",
        )
    passed("retry_request builds the 2026-07-28 retry: new id, inputResponses, requestState as sent")
