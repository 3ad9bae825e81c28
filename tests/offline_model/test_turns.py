"""Conversations over several turns (issue 22): a follow-up changes only what it says, keeps the
last call's flag, and names what it replaces; a failed call is repaired, not answered with another
tool; an error written as text is read as one. Invented tools and wording throughout."""

from __future__ import annotations

import json

from tests.offline_model.conftest import tool
from tests.offline_model.test_results import Chat, arguments

LAMP = tool(
    "switch_lamp",
    "Switch a smart lamp on or off.",
    {
        "lamp": {"type": "string", "enum": ["desk", "attic", "porch"]},
        "on": {"type": "boolean", "description": "true to switch on, false to switch off."},
    },
    ("lamp", "on"),
)
FARE = tool(
    "train_fare",
    "Price of a train ticket between two cities.",
    {
        "from_city": {"type": "string", "description": "City of departure."},
        "to_city": {"type": "string", "description": "City of arrival."},
    },
    ("from_city", "to_city"),
)
PODCASTS = tool(
    "find_podcasts",
    "Search podcast episodes about a topic.",
    {
        "topic": {"type": "string", "description": "What the episodes are about."},
        "limit": {"type": "integer"},
    },
    ("topic",),
)
UV = tool("get_uv_index", "UV index forecast for a city.", {"city": {"type": "string"}}, ("city",))
OFFSET = tool(
    "zone_offset",
    "Hours between the clocks of two time zones.",
    {
        "from_zone": {"type": "string", "description": "IANA zone of the first place."},
        "to_zone": {"type": "string", "description": "IANA zone of the second place."},
    },
    ("from_zone", "to_zone"),
)
CLOCK = tool(
    "convert_clock_time",
    "Convert a clock time from one time zone to another.",
    {
        "time": {"type": "string", "description": "HH:MM"},
        "from_zone": {"type": "string"},
        "to_zone": {"type": "string"},
    },
    ("time", "from_zone", "to_zone"),
)
VET = tool(
    "book_vet_visit",
    "Book a visit at the vet for a pet.",
    {
        "pet": {"type": "string", "description": "The pet's name."},
        "day": {"type": "string", "description": "Day of the visit."},
    },
    ("pet", "day"),
)
FEE = tool(
    "wire_fee",
    "Fee for wiring money abroad.",
    {"currency": {"type": "string", "description": "ISO code of the currency sent."}},
    ("currency",),
)


def _after(client, tools: list[dict], first: str, called: dict, then: str) -> Chat:
    """A conversation: `first` got the call `called` (arguments) of tools[0], which succeeded;
    the user then says `then`."""
    chat = Chat(client, first, tools)
    function = {"name": tools[0]["function"]["name"], "arguments": json.dumps(called, ensure_ascii=False)}
    chat.messages.append(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": function}],
        }
    )
    chat.messages.append({"role": "tool", "tool_call_id": "c1", "content": '{"ok": true}'})
    chat.messages.append({"role": "assistant", "content": "Done."})
    chat.messages.append({"role": "user", "content": then})
    return chat


def _made(client, tools: list[dict], text: str, called: dict, result: str, system: str = "") -> Chat:
    """A conversation in which another model already called tools[0] for `text`, and got `result`."""
    chat = Chat(client, text, tools)
    if system:
        chat.messages.insert(0, {"role": "system", "content": system})
    function = {"name": tools[0]["function"]["name"], "arguments": json.dumps(called, ensure_ascii=False)}
    chat.messages.append(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": function}],
        }
    )
    chat.messages.append({"role": "tool", "tool_call_id": "c1", "content": result})
    return chat


def test_a_follow_up_keeps_the_flag_of_the_last_call_it_does_not_restate(client):
    on = {"lamp": "porch", "on": True}
    assert arguments(
        _after(client, [LAMP], "Switch on the porch lamp", on, "The attic lamp as well.").send()
    ) == [{"lamp": "attic", "on": True}]
    off = {"lamp": "porch", "on": False}
    assert arguments(
        _after(client, [LAMP], "Switch off the porch lamp", off, "The desk lamp too.").send()
    ) == [{"lamp": "desk", "on": False}]


def test_x_instead_of_y_changes_the_parameter_that_held_y(client):
    fare = {"from_city": "Lyon", "to_city": "Turin"}
    first = "How much is a train from Lyon to Turin?"
    assert arguments(_after(client, [FARE], first, fare, "And from Geneva instead of Lyon?").send()) == [
        {"from_city": "Geneva", "to_city": "Turin"}
    ]
    assert arguments(_after(client, [FARE], first, fare, "What about Milan rather than Turin?").send()) == [
        {"from_city": "Lyon", "to_city": "Milan"}
    ]
    lille = {"from_city": "Lille", "to_city": "Turin"}
    chat = _after(
        client, [FARE], "How much is a train from Lille to Turin?", lille, "No, I meant Lyon, not Lille."
    )
    assert arguments(chat.send()) == [{"from_city": "Lyon", "to_city": "Turin"}]
    zh = {"from_city": "里昂", "to_city": "都灵"}
    assert arguments(
        _after(client, [FARE], "里昂到都灵的火车票多少钱？", zh, "目的地换成米兰，不是都灵。").send()
    ) == [{"from_city": "里昂", "to_city": "米兰"}]


def test_a_follow_up_that_says_so_changes_a_free_text_value(client):
    chess = {"topic": "chess"}
    for then in ("Now the same for astronomy.", "And astronomy?"):
        reply = _after(client, [PODCASTS, UV], "Find podcasts about chess.", chess, then).send()
        assert [call.function.name for call in reply.tool_calls] == ["find_podcasts"]
        assert arguments(reply) == [{"topic": "astronomy"}]
    zh = {"topic": "象棋"}
    for then in ("那园艺呢？", "园艺的也要。"):
        assert arguments(_after(client, [PODCASTS, UV], "找关于象棋的播客。", zh, then).send()) == [
            {"topic": "园艺"}
        ]


def test_a_message_after_a_call_that_asks_for_no_tool_continues_nothing(client):
    chess = {"topic": "chess"}
    for then in ("Thanks, that's great!", "I also love tennis.", "What about you, any hobbies?"):
        assert (
            _after(client, [PODCASTS, UV], "Find podcasts about chess.", chess, then).send().tool_calls
            is None
        )


def test_a_failed_call_is_repaired_not_replaced_by_a_tool_the_request_cannot_fill(client):
    """The words lean to the converter, which needs a clock time the request never gives; the
    call already made used the offset tool, and its error is what gets fixed."""
    error = "Error: to_zone must be one of Asia/Tokyo, Europe/Berlin, America/Lima"
    sent = {"from_zone": "Asia/Tokyo", "to_zone": "Berlin"}
    chat = _made(client, [OFFSET, CLOCK], "How many hours apart are Tokyo time and Berlin time?", sent, error)
    reply = chat.send()
    assert [call.function.name for call in reply.tool_calls] == ["zone_offset"]
    assert arguments(reply) == [{"from_zone": "Asia/Tokyo", "to_zone": "Europe/Berlin"}]


def test_an_error_written_as_text_is_corrected(client):
    today = "Today is Monday, 2 February 2026."
    error = "Error: day must be an ISO date (YYYY-MM-DD)"
    chat = _made(
        client, [VET], "Book the vet for Rex tomorrow", {"pet": "Rex", "day": "tomorrow"}, error, today
    )
    assert arguments(chat.send()) == [{"pet": "Rex", "day": "2026-02-03"}]


def test_a_format_described_with_an_example_is_read_from_the_request_not_copied(client):
    """'an ISO 4217 code, e.g. EUR' describes the value: the request's currency is written so,
    the example is not sent."""
    english = "Error: currency must be an ISO 4217 code, e.g. EUR"
    chat = _made(client, [FEE], "What's the fee to wire Swiss francs?", {"currency": "Swiss francs"}, english)
    assert arguments(chat.send()) == [{"currency": "CHF"}]
    chinese = "错误：currency 必须是 ISO 4217 代码，例如 EUR"
    chat = _made(client, [FEE], "汇瑞士法郎的手续费是多少？", {"currency": "瑞士法郎"}, chinese)
    assert arguments(chat.send()) == [{"currency": "CHF"}]


def test_a_text_that_only_mentions_errors_is_a_result(client):
    for text in ("No errors today: UV index 9, very high", "IndexError: UV index 9 is out of the chart"):
        reply = _made(client, [UV], "UV index in Perth?", {"city": "Perth"}, text).send()
        assert reply.tool_calls is None and "UV index 9" in reply.content and "failed" not in reply.content


SCOOTER = tool(
    "rent_scooter",
    "Rent an electric scooter at a station.",
    {"station": {"type": "string", "description": "Station name."}, "hours": {"type": "integer"}},
    ("station", "hours"),
)


def _answering(client, tools: list[dict], *turns: str):
    """The reply to a conversation of user and assistant messages in turn, with no call yet."""
    chat = Chat(client, turns[0], tools)
    for number, text in enumerate(turns[1:], 1):
        chat.messages.append({"role": "assistant" if number % 2 else "user", "content": text})
    return chat.send()


def test_an_answer_to_the_models_question_completes_the_request_before_it(client):
    reply = _answering(client, [UV, PODCASTS], "What's the UV index going to be?", "Which city?", "Perth")
    assert arguments(reply) == [{"city": "Perth"}]
    asked = "For how many hours?"
    reply = _answering(
        client, [SCOOTER, UV], "I'd like to rent a scooter at Central Station", asked, "3 hours"
    )
    assert arguments(reply) == [{"station": "Central Station", "hours": 3}]
    asked = "要调用 get_uv_index，我还需要知道：city。应该用什么值？"
    assert arguments(_answering(client, [UV, PODCASTS], "紫外线指数是多少？", asked, "悉尼")) == [
        {"city": "悉尼"}
    ]


TABLE = tool(
    "reserve_table", "预订餐厅的座位。", {"people": {"type": "integer", "description": "人数"}}, ("people",)
)


def test_a_missing_value_is_asked_for_with_a_question_in_chinese_as_in_english(client):
    for text in ("我想订餐厅的位子", "Reserve a table for me"):
        reply = Chat(client, text, [TABLE]).send()
        assert reply.tool_calls is None and reply.content.endswith(("?", "？")), reply.content


def test_a_message_that_asks_for_nothing_completes_nothing(client):
    reply = _answering(
        client, [UV, PODCASTS], "What's the UV index going to be?", "Which city?", "thanks, never mind"
    )
    assert reply.tool_calls is None


UV_DAY = tool(
    "get_uv_index",
    "UV index forecast for a city.",
    {"city": {"type": "string"}, "day": {"type": "string", "enum": ["today", "tomorrow"]}},
    ("city",),
)


def test_a_follow_up_changes_every_call_of_the_last_turn(client):
    chat = Chat(client, "UV index in Perth and Darwin today?", [UV_DAY, PODCASTS])
    assert arguments(chat.send()) == [{"city": "Perth", "day": "today"}, {"city": "Darwin", "day": "today"}]
    chat.answer({"uv": 9}, {"uv": 11})
    chat.messages += [{"role": "assistant", "content": "Done."}, {"role": "user", "content": "And tomorrow?"}]
    assert arguments(chat.send()) == [
        {"city": "Perth", "day": "tomorrow"},
        {"city": "Darwin", "day": "tomorrow"},
    ]
    chat.messages[-2:] = [{"role": "user", "content": "And in Cairns?"}]  # asked instead of tomorrow
    assert arguments(chat.send()) == [{"city": "Cairns", "day": "today"}]


def test_a_message_after_one_answered_in_words_is_read_alone(client):
    """Only a message the model asked about is completed: a request answered in words (here by
    another model) lacked nothing, so a place said after it is not added to it."""
    reply = _answering(client, [PODCASTS, UV], "Find podcasts about chess.", "Here are three.", "Perth")
    assert reply.tool_calls is None


def test_the_question_for_a_missing_value_names_the_parameter_and_says_what_it_takes(client):
    """A bare name says too little to answer ("I need the to"): the question gives the name as the
    tool writes it and its description, in the request's language."""
    reply = Chat(client, "What's the fare for a train ticket?", [FARE]).send()
    assert reply.tool_calls is None
    assert "`from_city` (City of departure) and `to_city` (City of arrival)" in reply.content
    reply = Chat(client, "查一下火车票的价格", [FARE, UV]).send()
    assert "`from_city`（City of departure）、`to_city`（City of arrival）" in reply.content
    reply = Chat(client, "What's the UV index going to be?", [UV]).send()
    assert "I need a value for `city`, not in the request" in reply.content  # no description: the name
