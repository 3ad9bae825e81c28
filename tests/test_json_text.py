"""The strict JSON reader every course server uses: each refusal names what it refused, and
JSON-RPC reports the same words as its parse error (-32700)."""

import pytest

from wirelab import jsonrpc
from wirelab.json_text import JsonTextError, loads, lone_surrogate

REFUSED = {
    b"\xff{}": "not valid UTF-8 (byte 0 is 0xff)",
    "{not json": "Expecting property name enclosed in double quotes at character 1",
    '{"a": NaN}': "NaN is not JSON",
    '{"a": 1e400}': "the number 1e400 is out of range",
    '{"a": ' + "9" * 5000 + "}": "an integer of 5000 digits is too long",
    "[" * 100_000 + "]" * 100_000: "nested too deep",
    '{"key": 1, "key": 2}': 'the key "key" appears twice in one object',
}


@pytest.mark.parametrize("text", REFUSED, ids=lambda t: repr(t[:12]))
def test_each_refusal_names_what_it_refused(text):
    with pytest.raises(JsonTextError) as refused:
        loads(text)
    assert REFUSED[text] in str(refused.value)
    with pytest.raises(jsonrpc.JsonRpcError) as parse_error:
        jsonrpc.decode(text)
    assert parse_error.value.code == jsonrpc.PARSE_ERROR
    assert parse_error.value.message == f"Parse error: {refused.value}"


def test_json_that_peers_agree_on_reads_as_json():
    assert loads(b'{"city": "Paris", "days": [1, 2.5], "ok": true, "none": null}') == {
        "city": "Paris",
        "days": [1, 2.5],
        "ok": True,
        "none": None,
    }


def test_a_lone_surrogate_is_found_in_keys_and_nested_values():
    assert lone_surrogate(loads('{"a": ["fine", {"\\ud800": 1}]}')) == "\ud800"
    assert lone_surrogate(loads('{"pair": "\\ud83d\\ude00"}')) is None
