"""Values read in their context (issue 22): a note keeps the verb of what is to be done, a line
item is the thing its count counts, and a place after 'to' (到) is never where a move starts,
even inside nested objects. Tools and requests are invented for these tests."""

from __future__ import annotations

from wirelab.offline_model.binding import bind
from wirelab.offline_model.lexicon import concept
from wirelab.offline_model.request import Tool

TODO = Tool(
    "add_todo",
    "Add a to-do item for a date.",
    {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "What to do."},
            "date": {"type": "string", "description": "ISO date."},
        },
        "required": ["text", "date"],
    },
)
ITEM = {
    "type": "object",
    "properties": {
        "description": {"type": "string", "description": "What was delivered."},
        "quantity": {"type": "integer", "description": "How many."},
        "unit_price": {"type": "number", "description": "Price of one."},
    },
    "required": ["description", "quantity", "unit_price"],
}
BILL = Tool(
    "bill_client",
    "Bill a client.",
    {
        "type": "object",
        "properties": {
            "client": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "Client name."},
                    "email": {"type": "string", "description": "Where the bill is e-mailed."},
                },
                "required": ["name", "email"],
            },
            "items": {"type": "array", "description": "What is billed.", "items": ITEM},
        },
        "required": ["client", "items"],
    },
)


def _stop(description: str) -> dict:
    return {
        "type": "object",
        "description": description,
        "properties": {"address": {"type": "string", "description": "Street or landmark."}},
        "required": ["address"],
    }


SHUTTLE = Tool(
    "book_shuttle",
    "Book a shuttle from a pickup point to a destination.",
    {
        "type": "object",
        "properties": {"pickup": _stop("Where to be collected."), "dropoff": _stop("Where to go.")},
        "required": ["pickup", "dropoff"],
    },
)


def test_a_note_keeps_the_verb_of_what_is_to_be_done():
    assert bind(TODO, "提醒我周四买牛奶")["text"] == "买牛奶"
    assert bind(TODO, "提醒我下周一给房东打电话")["text"] == "给房东打电话"


def test_a_note_of_only_small_words_of_doing_takes_none_of_them():
    assert bind(TODO, "加个待办：明天给老师发邮件")["text"] == "给老师发邮件"
    assert "text" not in bind(TODO, "周五替我起草", guess=False)


def test_a_line_item_is_the_thing_its_count_counts_with_a_measure_word():
    bound = bind(BILL, "给小米公司（邮箱 pay@mi.example）开账单：8把椅子，每把200元。")
    assert bound["client"] == {"name": "小米公司", "email": "pay@mi.example"}
    assert bound["items"] == [{"description": "椅子", "quantity": 8, "unit_price": 200}]
    assert (
        bind(BILL, "给京东开账单，邮箱 fin@jd.example：三本书，每本50元")["items"][0]["description"] == "书"
    )


def test_a_place_after_to_is_where_the_move_ends_inside_nested_objects_too():
    assert bind(SHUTTLE, "叫车，从体育馆到虹桥机场，三个人") == {
        "pickup": {"address": "体育馆"},
        "dropoff": {"address": "虹桥机场"},
    }
    assert bind(SHUTTLE, "Shuttle from the Old Mill to Harbour Square")["dropoff"] == {
        "address": "Harbour Square"
    }


def test_a_place_after_in_stays_where_a_person_is():
    person = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "city": {"type": "string"}},
        "required": ["name", "city"],
    }
    post = Tool(
        "post_letter",
        "Post a letter.",
        {
            "type": "object",
            "properties": {"sender": person, "recipient": person},
            "required": ["sender", "recipient"],
        },
    )
    assert bind(post, "Post a letter from Ines in Porto to Bram in Ghent", guess=False) == {
        "sender": {"name": "Ines", "city": "Porto"},
        "recipient": {"name": "Bram", "city": "Ghent"},
    }


TOUR = Tool(
    "plan_tour",
    "Plan a walking tour.",
    {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "min_days": {"type": "integer"},
            "max_days": {"type": "integer"},
        },
        "required": ["city"],
    },
)
TRAILS = Tool(
    "find_trails",
    "Find hiking trails.",
    {
        "type": "object",
        "properties": {"min_distance_km": {"type": "number"}, "max_distance_km": {"type": "number"}},
    },
)


def test_both_ends_of_a_range_take_the_unit_written_after_the_second():
    assert bind(TOUR, "杭州三到五天的行程", guess=False) == {"city": "杭州", "min_days": 3, "max_days": 5}
    assert bind(TRAILS, "找五至十公里的徒步路线", guess=False) == {
        "min_distance_km": 5,
        "max_distance_km": 10,
    }
    assert bind(TRAILS, "trails of 4 to 9 km", guess=False) == {"min_distance_km": 4, "max_distance_km": 9}


def test_min_at_the_start_of_a_name_is_a_bound_not_minutes():
    assert bind(TRAILS, "a trail of at least 6 km", guess=False) == {"min_distance_km": 6}


def test_free_text_keeps_the_dots_of_addresses_and_hosts():
    note = Tool(
        "post_note",
        "Post a note to the team board.",
        {"type": "object", "properties": {"note": {"type": "string"}}},
    )
    assert (
        bind(note, "note that the server moved to db2.corp.example today")["note"]
        == "the server moved to db2.corp.example today"
    )
    invite = Tool(
        "invite_all",
        "Invite guests by e-mail.",
        {"type": "object", "properties": {"emails": {"type": "array", "items": {"type": "string"}}}},
    )
    assert bind(invite, "invite a.b@x.example and c.d@y.example to the party")["emails"] == [
        "a.b@x.example",
        "c.d@y.example",
    ]


def test_a_pound_of_weight_and_a_pound_sterling_are_two_concepts():
    assert concept("磅") == concept("lb") != concept("英镑") == concept("gbp")


def test_a_note_leaves_out_the_words_that_ask_to_be_reminded():
    assert bind(TODO, "明天记得带伞")["text"] == "带伞"
    assert bind(TODO, "下周三别忘了交报告")["text"] == "交报告"


def test_a_note_in_english_keeps_its_leading_verb():
    assert bind(TODO, "On Monday, remind me to renew the lease")["text"] == "renew the lease"


def test_a_chinese_diet_word_names_its_option():
    soups = Tool(
        "find_soups",
        "Find soup recipes with the given vegetables.",
        {
            "type": "object",
            "properties": {
                "vegetables": {"type": "array", "items": {"type": "string"}},
                "diet": {"type": "string", "enum": ["vegetarian", "vegan", "keto"]},
            },
            "required": ["vegetables"],
        },
    )
    assert bind(soups, "素食的汤，用南瓜和土豆", guess=False)["diet"] == "vegetarian"
    assert bind(soups, "纯素汤，南瓜和胡萝卜", guess=False) == {
        "vegetables": ["南瓜", "胡萝卜"],
        "diet": "vegan",
    }
