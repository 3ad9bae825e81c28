"""The tool-selection eval scores the first call by the function behind it and its arguments."""

import json

import pytest
from openai.types.chat import ChatCompletion

from wirelab.evals import Case, accuracy, evaluate, first_call, judge, load_cases
from wirelab.examples import OFFICE, get_weather, vague_copy
from wirelab.tools import ToolRegistry

GOOD = ToolRegistry(OFFICE)
CASE = Case("Weather in Oslo?", "get_weather", {"city": "Oslo"})


class OneCall:
    """A fake client whose every reply is one call (or none, when `name` is None)."""

    def __init__(self, name, arguments="{}"):
        calls = (
            [{"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}]
            if name
            else None
        )
        self.reply = ChatCompletion.model_validate(
            {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "fake",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "tool_calls" if calls else "stop",
                        "message": {
                            "role": "assistant",
                            "content": None if calls else "hi",
                            "tool_calls": calls,
                        },
                    }
                ],
            }
        )
        self.chat = self.completions = self

    def create(self, **request):
        return self.reply


def test_the_right_tool_with_the_right_arguments_is_ok_whatever_the_case_of_strings():
    assert judge(CASE, GOOD, "get_weather", {"city": "oslo"}).ok


def test_a_badly_named_copy_of_the_expected_function_still_counts_as_the_right_tool():
    vague = ToolRegistry([vague_copy(get_weather, "get_data", "Gets data.")])
    assert judge(CASE, vague, "get_data", {"city": "Oslo"}).ok


def test_a_wrong_tool_a_wrong_argument_or_no_call_is_not_ok():
    assert not judge(CASE, GOOD, "search_contacts", {"city": "Oslo"}).tool_ok
    wrong = judge(CASE, GOOD, "get_weather", {"city": "Rome"})
    assert wrong.tool_ok and not wrong.arguments_ok
    assert not judge(CASE, GOOD, None, {}).ok


def test_first_call_reads_the_name_and_parsed_arguments_and_survives_bad_json():
    assert first_call(OneCall("get_weather", '{"city": "Oslo"}'), "m", GOOD, "q") == (
        "get_weather",
        {"city": "Oslo"},
    )
    assert first_call(OneCall("get_weather", '{"city": '), "m", GOOD, "q") == ("get_weather", {})
    assert first_call(OneCall(None), "m", GOOD, "q") == (None, {})


def test_accuracy_is_the_share_of_ok_outcomes():
    outcomes = evaluate(
        OneCall("get_weather", '{"city": "Oslo"}'),
        "m",
        GOOD,
        [CASE, Case("Weather in Rome?", "get_weather", {"city": "Rome"})],
    )
    assert accuracy(outcomes) == 0.5


def test_an_empty_eval_and_a_malformed_case_file_are_refused(tmp_path):
    with pytest.raises(ValueError):
        accuracy([])
    bad = tmp_path / "cases.json"
    bad.write_text(json.dumps([{"tool": "get_weather"}]))
    with pytest.raises(ValueError, match="needs 'request' and 'tool'"):
        load_cases(bad)
