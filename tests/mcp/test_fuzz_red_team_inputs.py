"""The transport fuzzers, fed the inputs the red-team run found (issue 14): lone surrogate
escapes and duplicate keys, in whole JSON-RPC objects, over stdio and over Streamable HTTP.

tests/test_fuzz_jsonrpc.py generates these objects for `jsonrpc.receive` alone; here the
same generator drives the real servers (in process), so a server path that decodes,
dispatches or encodes them differently from `receive` is found too. Every line or body
gets exactly the answers the protocol calls for, each encodable as UTF-8 with no lone
surrogate, and the server goes on. Huge streamed bodies and slow clients are not generated
here: tests/mcp/test_http_limits.py sends them, and benchmarks/reliability.py measures them.
"""

import asyncio
import collections
import json

from hypothesis import given
from hypothesis import strategies as st

from tests.mcp.test_fuzz_http_transport import ACCEPT, answers, check_answer, exchange
from tests.mcp.test_fuzz_stdio_transport import BOUNDED, INITIALIZE, PROBE, expected_answers, key, serve
from tests.test_fuzz_jsonrpc import raw_objects
from wirelab import jsonrpc

# a request whose method, id or tool name may carry a lone surrogate, and keys that may repeat
tool_call_texts = st.sampled_from(['"\\ud800"', '"\\udfff x"', '"echo"', '"echo", "name": "nope"']).map(
    lambda name: '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": ' + name + "}}"
)
red_team_lines = st.lists(raw_objects() | tool_call_texts, min_size=1, max_size=8)


def carries_no_lone_surrogate(message: dict) -> bool:
    return jsonrpc.lone_surrogate(message) is None and bool(jsonrpc.encode(message).decode("utf-8"))


@BOUNDED
@given(red_team_lines)
def test_over_stdio_each_surrogate_or_duplicate_key_line_gets_its_one_answer(texts):
    data = json.dumps(INITIALIZE).encode() + b"\n" + "\n".join(texts).encode() + b"\n"
    written = serve(data + json.dumps(PROBE).encode() + b"\n")
    assert all(carries_no_lone_surrogate(m) for m in written)
    answers = collections.Counter(key(m["id"]) for m in written if jsonrpc.is_response(m))
    assert answers == expected_answers(data) + collections.Counter({key("probe"): 1})


@BOUNDED
@given(red_team_lines)
def test_over_http_each_surrogate_or_duplicate_key_body_gets_a_documented_json_answer(texts):
    async def post(http, session):
        for text in texts:
            sent = text.encode()
            response = await http.post("/mcp", content=sent, headers={**ACCEPT, **session})
            check_answer(response, sent)
            if response.content:
                response.content.decode("utf-8")  # strict: a lone surrogate cannot be in UTF-8
                assert all(carries_no_lone_surrogate(m) for m in answers(response))

    asyncio.run(exchange(post))
