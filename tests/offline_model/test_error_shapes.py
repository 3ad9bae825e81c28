"""The model corrects a call from an error in any of the common API shapes (issue 22).

Invented tools and wording: a flat error whose `error` is a code string, FastAPI's
`detail` list, a JSON-Schema validator's `errors` list, an RFC 9457 problem report,
a Chinese message listing values with 、, an error whose keys are Chinese, a format stated
where values would be listed, a value suggested ("did you mean …?"), and an error that points
at no fix.
"""

from __future__ import annotations

import json

from tests.offline_model.conftest import model_tool
from tests.offline_model.test_results import Chat, arguments
from wirelab.offline_model.correction import correct
from wirelab.offline_model.request import Call
from wirelab.offline_model.results import read_result

FAN = {
    "type": "function",
    "function": {
        "name": "set_ceiling_fan",
        "description": "Set the speed of a ceiling fan.",
        "parameters": {
            "type": "object",
            "properties": {"speed": {"type": "string", "description": "Fan speed."}},
            "required": ["speed"],
        },
    },
}
COURT = {
    "type": "function",
    "function": {
        "name": "book_tennis_court",
        "description": "Reserve a tennis court.",
        "parameters": {
            "type": "object",
            "properties": {
                "club": {"type": "string", "description": "Club name."},
                "start": {"type": "string", "description": "Start time."},
            },
            "required": ["club", "start"],
        },
    },
}


def _sent(chat: Chat, tool: dict, **arguments: object) -> None:
    """The call another model made for the user's message, with these arguments."""
    function = {"name": tool["function"]["name"], "arguments": json.dumps(arguments)}
    call = {"id": "call_1", "type": "function", "function": function}
    chat.messages.append({"role": "assistant", "content": None, "tool_calls": [call]})


def _fan_error_after(client, error: dict, text: str = "Put the ceiling fan on Medium") -> list[dict]:
    chat = Chat(client, text, [FAN])
    _sent(chat, FAN, speed="Medium")
    chat.answer(error)
    return arguments(chat.send())


def test_a_flat_error_with_a_code_string_and_a_message_listing_values(client):
    error = {"error": "bad_speed", "field": "speed", "message": "speed must be one of low, medium, high"}
    assert _fan_error_after(client, error) == [{"speed": "medium"}]


def test_fastapi_detail_list(client):
    error = {"detail": [{"loc": ["body", "speed"], "msg": "Input should be 'low', 'medium' or 'high'"}]}
    assert _fan_error_after(client, error) == [{"speed": "medium"}]


def test_a_validator_errors_list_with_a_json_pointer(client):
    error = {"errors": [{"path": "/speed", "message": "must be one of: low, medium, high"}]}
    assert _fan_error_after(client, error) == [{"speed": "medium"}]


def test_a_chinese_message_listing_values(client):
    error = {"error": "invalid", "field": "speed", "message": "speed 必须是 low、medium、high 之一"}
    assert _fan_error_after(client, error, "把吊扇开到 Medium") == [{"speed": "medium"}]


def test_an_error_with_chinese_keys_is_read_as_one(client):
    error = {"错误": "参数无效", "字段": "speed", "说明": "speed 只能是 low、medium、high"}
    assert _fan_error_after(client, error, "把吊扇开到 Medium") == [{"speed": "medium"}]


def test_a_format_where_values_would_be_listed_is_read_into_the_value(client):
    chat = Chat(client, "Book a tennis court at Riverside Club at 7pm", [COURT])
    _sent(chat, COURT, club="Riverside Club", start="7pm")
    chat.answer({"error": "bad_format", "field": "start", "message": "start must be written HH:MM"})
    assert arguments(chat.send()) == [{"club": "Riverside Club", "start": "19:00"}]


NOTEBOOK = model_tool(
    "open_notebook", "Open a notebook by its file name.", {"name": {"type": "string"}}, ("name",)
)


def test_a_value_the_error_suggests_replaces_the_one_it_writes_back():
    said = "No notebook Budget.IPYNB. Did you mean budget.ipynb?"
    error = read_result(json.dumps({"error": "not_found", "message": said})).error or {}
    sent = Call("", "open_notebook", '{"name": "Budget.IPYNB"}')
    fixed = correct(sent, error, NOTEBOOK, "open the notebook Budget.IPYNB")
    assert fixed is not None and json.loads(fixed.arguments) == {"name": "budget.ipynb"}


def test_a_problem_report_about_a_format_is_corrected_from_the_request(client):
    chat = Chat(client, "Book a tennis court at Riverside Club at 6pm", [COURT])
    _sent(chat, COURT, club="Riverside Club", start="6pm")
    chat.answer({"status": 422, "title": "Unprocessable", "detail": "start: use HH:MM on a 24-hour clock"})
    assert arguments(chat.send()) == [{"club": "Riverside Club", "start": "18:00"}]


def test_an_error_that_points_at_no_fix_is_reported_not_sent_again(client):
    chat = Chat(client, "Book a tennis court at Riverside Club at 18:00", [COURT])
    _sent(chat, COURT, club="Riverside Club", start="18:00")
    chat.answer({"error": {"code": "closed", "message": "The club is closed for a tournament."}})
    reply = chat.send()
    assert reply.tool_calls is None and "closed for a tournament" in reply.content


AIR = {
    "type": "function",
    "function": {
        "name": "air_quality",
        "description": "Current air quality index of a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name."}},
            "required": ["city"],
        },
    },
}


def test_an_error_that_only_quotes_the_failed_value_is_reported_not_sent_with_another_value(client):
    """A lookup's KeyError names the city that failed, not what would do: re-reading the request
    would only find the other city asked about, whose call already succeeded."""
    chat = Chat(client, "What is the air quality in Lima and in Quito?", [AIR])
    assert arguments(chat.send()) == [{"city": "Lima"}, {"city": "Quito"}]
    chat.answer({"city": "Lima", "aqi": 41}, {"error": "KeyError: 'Quito'"})
    reply = chat.send()
    assert reply.tool_calls is None and "Quito" in reply.content


UNITS = {"amount": {"type": "number"}, "source_unit": {"type": "string"}, "target_unit": {"type": "string"}}
SCALE = model_tool("convert_weight", "Convert a weight between units.", UNITS, tuple(UNITS))


def test_an_error_naming_one_wrong_field_also_fixes_its_sibling_the_request_names():
    text = "unknown unit 'kilos'; allowed: kg, lb, g, oz"
    error = read_result(json.dumps({"content": [{"type": "text", "text": text}], "isError": True})).error
    sent = Call("", "convert_weight", '{"amount": 3, "source_unit": "kilos", "target_unit": "pounds"}')
    fixed = correct(sent, error, SCALE, "3 kilos in pounds?")
    assert fixed is not None
    assert json.loads(fixed.arguments) == {"amount": 3, "source_unit": "kg", "target_unit": "lb"}
