"""A note's or a message's text is what the user asks to be said or remembered, as they said it:
- a reminder of only what is to be done: 提醒我晚上九点吃药 -> "吃药" (no thing is named; before,
  nothing was taken and the model asked for the note);
- a Chinese word made of the tool's own words (发短信: send + text message) is the tool's, not the
  message's: 给…发短信说我快到了 -> "我快到了";
- after "saying" or "say" (说), the rest of the clause as written, its own verbs and words of
  when too: "…saying the gate is locked", 说下午的培训推迟到四点了;
- a phone number with its area code in brackets is one number: "(020) 7946 0018";
- a parameter named in pinyin holds a message's text when its description says so (留言内容).
The tools and requests are invented for this test."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import model_tool, tool
from wirelab.offline_model import complete
from wirelab.offline_model.binding import bind

REMINDER = model_tool(
    "add_reminder",
    "Add a reminder at a time.",
    {
        "note": {"type": "string", "description": "What to remember"},
        "time": {"type": "string", "description": "Clock time, HH:MM"},
    },
    ("note", "time"),
)
TEXTER = tool(
    "text_contact",
    "Send a text message to a mobile number.",
    {"mobile": {"type": "string", "description": "Mobile number"}, "body": {"type": "string"}},
    ("mobile", "body"),
)


@pytest.mark.parametrize(
    ("request_text", "note"),
    [("提醒我晚上九点吃药", "吃药"), ("明早七点提醒我去跑步", "去跑步"), ("提醒我周五下午两点开会", "开会")],
)
def test_a_note_of_what_is_to_be_done_alone(request_text, note):
    assert bind(REMINDER, request_text, guess=False)["note"] == note


def test_words_of_doing_for_someone_with_nothing_done_are_no_note():
    assert "note" not in bind(REMINDER, "替我起草", guess=False)


def _arguments(text: str) -> dict:
    body = {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": [TEXTER]}
    calls = complete(body)["choices"][0]["message"]["tool_calls"]
    return json.loads(calls[0]["function"]["arguments"])


@pytest.mark.parametrize(
    ("text", "mobile", "body"),
    [
        ("给13912345678发短信说我快到了", "13912345678", "我快到了"),
        (
            "Send a text message to +44 20 7946 0018 saying the gate is locked",
            "+44 20 7946 0018",
            "the gate is locked",
        ),
        (
            "Send a text message to (020) 7946 0018 and say we are on our way",
            "(020) 7946 0018",
            "we are on our way",
        ),
    ],
)
def test_a_message_says_what_the_user_said(text, mobile, body):
    assert _arguments(text) == {"mobile": mobile, "body": body}


def test_what_is_said_keeps_its_own_words_of_when_and_doing():
    poster = tool(
        "post_chat",
        "Post a chat message to a colleague.",
        {"colleague": {"type": "string"}, "text": {"type": "string", "description": "Message text"}},
        ("colleague", "text"),
    )
    body = {"model": "wirelab-offline", "tools": [poster]}
    body["messages"] = [{"role": "user", "content": "给李娜发个消息，说下午的培训推迟到四点了"}]
    calls = complete(body)["choices"][0]["message"]["tool_calls"]
    assert json.loads(calls[0]["function"]["arguments"]) == {
        "colleague": "李娜",
        "text": "下午的培训推迟到四点了",
    }


# a parameter named in pinyin says what it holds by its description's Chinese words (留言内容)
PAGER = tool(
    "liuyan",
    "给同事留言。",
    {
        "tongshi": {"type": "string", "description": "同事的名字"},
        "wenben": {"type": "string", "description": "留言内容"},
    },
    ("tongshi", "wenben"),
)
JOURNAL = tool(
    "jizhang", "写一篇游记。", {"zhengwen": {"type": "string", "description": "游记正文"}}, ("zhengwen",)
)


@pytest.mark.parametrize(
    ("tools", "request_text", "said"),
    [
        ([PAGER], "给小周留言说钥匙放在前台了", {"tongshi": "小周", "wenben": "钥匙放在前台了"}),
        ([JOURNAL], "写游记，内容是在海边看了日出", {"zhengwen": "在海边看了日出"}),
    ],
)
def test_a_text_parameter_named_in_pinyin_is_read_by_its_description(tools, request_text, said):
    message = {"role": "user", "content": request_text}
    calls = complete({"model": "wirelab-offline", "tools": tools, "messages": [message]})["choices"][0][
        "message"
    ]["tool_calls"]
    assert [json.loads(c["function"]["arguments"]) for c in calls] == [said]
