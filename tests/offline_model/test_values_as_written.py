"""Values read whole and as meant (issue 22), on invented tools: a place after "in the", a
decimal with a unit stuck to it, a Chinese count whose unit jieba keeps with it, a street kind,
a title in 《》 and whose work it is, a device's word that names none of its modes; an evening
hour on a 24-hour clock, a small-word parameter's kind from its description, a name after
"labelled", words joined as asked, an airport's code, a list item before a relative clause, and
what follows "say"."""

from __future__ import annotations

from typing import Any

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, required: list[str], **properties: dict[str, Any]) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": required})


def _s(description: str, **more: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **more}


def test_an_article_between_in_and_a_place_still_marks_the_place():
    water = _tool(
        "water_plants",
        "Start the watering system.",
        ["minutes", "location"],
        minutes={"type": "integer", "description": "How long to water, in minutes."},
        location=_s("Where the sprinklers should run."),
    )
    wanted = {"minutes": 12, "location": "Rose Garden"}
    assert bind(water, "Water the Kellerman roses for 12 minutes in the Rose Garden") == wanted


def test_a_decimal_with_a_unit_stuck_to_it_is_one_number_not_a_code():
    audiobook = _tool(
        "play_audiobook",
        "Play an audiobook.",
        ["book"],
        book=_s("Title of the audiobook."),
        rate={"type": "number", "description": "Playback rate, e.g. 1.5."},
    )
    assert bind(audiobook, "Play Harbour of Moths at 1.75x rate")["rate"] == 1.75


def test_a_chinese_count_of_days_has_its_unit_as_digits_do():
    rentals = _tool(
        "rent_bike",
        "Rent a bicycle.",
        ["station"],
        station=_s("Pickup station."),
        days={"type": "integer", "description": "How many days to rent it."},
    )
    assert bind(rentals, "在西湖站租一辆自行车，租五天")["days"] == 5


def test_an_address_ends_with_any_kind_of_street():
    deliver = _tool("deliver_flowers", "Send flowers.", ["address"], address=_s("Delivery street address."))
    assert bind(deliver, "Send roses to 42 Juniper Terrace") == {"address": "42 Juniper Terrace"}


def test_a_title_in_book_quotes_is_one_value_and_the_name_before_it_its_maker():
    films = _tool(
        "find_film",
        "Look up a film.",
        ["title"],
        title=_s("Film title."),
        director=_s("Who directed it."),
    )
    assert bind(films, "查查江远的《北方的河》") == {"title": "北方的河", "director": "江远"}
    assert bind(films, "查一下方远的《海风》") == {"title": "海风", "director": "方远"}


def test_a_device_word_names_none_of_its_modes():
    heat_pump = _tool(
        "set_heat_pump",
        "Control the heat pump.",
        ["mode"],
        mode=_s("Operating mode.", enum=["heat", "cool", "dry"]),
    )
    assert bind(heat_pump, "空调调到制冷") == {"mode": "cool"}
    assert bind(heat_pump, "空调开除湿") == {"mode": "dry"}


def test_chinese_words_for_a_currency_an_episode_and_a_cup_size():
    tip = _tool(
        "send_tip",
        "Send a tip to a streamer.",
        ["amount"],
        amount={"type": "number", "description": "Amount to send."},
        currency=_s("Currency code, upper case."),
    )
    assert bind(tip, "给主播打赏50元") == {"amount": 50, "currency": "CNY"}
    show = _tool(
        "play_show",
        "Play a TV show.",
        ["show"],
        show=_s("Name of the show."),
        episode={"type": "integer", "description": "Episode number."},
        speed={"type": "number", "description": "Playback speed."},
    )
    assert bind(show, "播放《山海小镇》第12集") == {"show": "山海小镇", "episode": 12}
    tea = _tool(
        "order_tea", "Order milk tea.", ["size"], size=_s("Cup size.", enum=["small", "medium", "large"])
    )
    assert bind(tea, "要大杯的奶茶") == {"size": "large"}


def test_an_hour_field_takes_an_evening_time_on_a_24_hour_clock():
    wake = _tool(
        "set_wake_alarm",
        "Set an alarm.",
        ["hours"],
        hours={"type": "integer", "description": "Hour, 0-23."},
        minutes={"type": "integer", "description": "Minute."},
    )
    assert bind(wake, "Set an alarm for 6:45 pm") == {"hours": 18, "minutes": 45}


def test_a_parameter_named_by_a_small_word_takes_the_kind_its_description_says():
    fax = _tool(
        "send_fax",
        "Send a fax.",
        ["to", "cover"],
        to=_s("Fax number of the receiver."),
        cover=_s("Cover note."),
    )
    wanted = {"to": "+33 1 42 68 53 00", "cover": "Contract attached"}
    assert bind(fax, "Fax 'Contract attached' to +33 1 42 68 53 00") == wanted


def test_a_name_after_labelled_is_a_label():
    kiln = _tool(
        "start_kiln",
        "Fire the kiln for a number of minutes.",
        ["minutes"],
        minutes={"type": "integer", "description": "Firing time in minutes."},
        label=_s("Optional label shown on the display."),
    )
    assert bind(kiln, "Fire the kiln for half an hour labelled glaze") == {"minutes": 30, "label": "glaze"}


def test_words_are_joined_by_the_mark_the_description_asks_for():
    channel = _tool(
        "create_channel",
        "Create a chat channel.",
        ["title"],
        title=_s("Lower case, hyphens instead of spaces."),
    )
    assert bind(channel, "Create a channel called Weekly Sync") == {"title": "weekly-sync"}


def test_a_code_the_gazetteer_does_not_know_is_a_place_where_a_code_is_asked_for():
    delays = _tool(
        "check_delays",
        "Flight delays on a route.",
        ["origin", "destination"],
        origin=_s("IATA code of the departure airport."),
        destination=_s("IATA code of the arrival airport."),
    )
    assert bind(delays, "Any delays from ORD to DEN?") == {"origin": "ORD", "destination": "DEN"}


def test_a_list_item_ends_where_a_relative_clause_starts():
    pack = _tool(
        "packing_list",
        "Add things to the packing list.",
        ["things"],
        things={"type": "array", "items": {"type": "string"}, "description": "Things to pack."},
    )
    assert bind(pack, "Add the tent, the boots that still fit and a torch to the packing list") == {
        "things": ["tent", "boots", "torch"]
    }


def test_a_message_after_say_is_what_is_said():
    chat = _tool(
        "message_friend", "Message a friend.", ["friend", "text"], friend=_s("Who."), text=_s("The message.")
    )
    assert bind(chat, "Message Omar and say the gate code changed") == {
        "friend": "Omar",
        "text": "the gate code changed",
    }


def test_a_small_word_parameter_whose_description_offers_two_kinds_takes_either():
    mail = _tool(
        "send_email",
        "Send an email to a person.",
        ["to", "subject"],
        to=_s("Recipient email or name"),
        subject=_s("Subject line"),
    )
    assert bind(mail, "Email Priya with the subject 'Slides and notes'.", guess=False) == {
        "to": "Priya",
        "subject": "Slides and notes",
    }
    assert (
        bind(mail, "Mail omar@example.org, subject 'Planning moved'", guess=False)["to"] == "omar@example.org"
    )


def test_a_list_is_read_whole_and_in_the_order_written():
    """Options of a list in the order the user wrote them, pairs in brackets as lists of two, and
    the values listed, not a flag's words after them (invented tools and requests)."""
    sauce = {"type": "string", "enum": ["pesto", "tomato", "cream", "garlic"]}
    pasta = _tool("cook_pasta", "Cook pasta.", ["sauces"], sauces={"type": "array", "items": sauce})
    assert bind(pasta, "Pasta with garlic, cream and pesto") == {"sauces": ["garlic", "cream", "pesto"]}
    pairs = {"type": "array", "items": {"type": "array", "items": {"type": "number"}}}
    fence = _tool("fence_length", "Length of a fence around corner posts.", ["posts"], posts=pairs)
    assert bind(fence, "Fence around posts at (1, 2), (5, 2) and (5, 7)") == {
        "posts": [[1, 2], [5, 2], [5, 7]]
    }
    things = {"type": "array", "items": {"type": "string"}, "description": "Things to bring."}
    picnic = _tool(
        "plan_picnic",
        "Plan a picnic.",
        ["things"],
        things=things,
        shady={"type": "boolean", "description": "In the shade."},
    )
    assert bind(picnic, "Plan a picnic with lemonade and a blanket, and make it shady") == {
        "things": ["lemonade", "blanket"],
        "shady": True,
    }


def test_a_stated_option_is_taken_however_the_request_words_it():
    """A flag said by its description's own words or set off by a side after its name, a count
    of a common noun its parameter counts, numbers listed with articles (invented tools)."""
    flag = {"type": "boolean", "description": "Only express trains", "default": False}
    trains = _tool("find_trains", "Find train connections.", ["to"], to=_s("Destination."), direct=flag)
    assert bind(trains, "Trains to Ghent, express only") == {"to": "Ghent", "direct": True}
    count = {"type": "integer", "description": "How many results", "default": 10}
    web = {"type": "boolean", "description": "Filter adult content", "default": True}
    find = _tool("web_find", "Search the web.", ["query"], query=_s("Query."), num_results=count, filter=web)
    assert bind(find, "Search for moth species, 7 results, filter off") == {
        "query": "moth species",
        "num_results": 7,
        "filter": False,
    }
    faces = {"type": "array", "items": {"type": "integer"}, "description": "Faces wanted."}
    dice = _tool("dice_odds", "Odds of a roll.", ["faces"], faces=faces, sides={"type": "integer"})
    assert bind(dice, "Odds of rolling a 3 or a 4 on a 12-sided die")["faces"] == [3, 4]


def test_an_array_of_objects_takes_one_object_for_each_counted_item():
    """ "3 lamps at $20 and 2 rugs at $45": one object for each item written after a count (invented tool)."""
    line = {
        "type": "object",
        "properties": {
            "product": {"type": "string"},
            "count": {"type": "integer"},
            "price": {"type": "number"},
        },
        "required": ["product", "count", "price"],
    }
    order = _tool("place_order", "Place a shop order.", ["lines"], lines={"type": "array", "items": line})
    assert bind(order, "Order 3 lamps at $20 and 2 rugs at $45") == {
        "lines": [{"product": "lamps", "count": 3, "price": 20}, {"product": "rugs", "count": 2, "price": 45}]
    }
