"""String values as the schema asks for them (issue 22), on invented tools: the case its
description names, a date and time where its example has both, the options it lists after a
colon, a Chinese body's whole name, and no option named by the tool's own word."""

from __future__ import annotations

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import examples_of


def _tool(name: str, description: str, **properties: str) -> Tool:
    schema = {k: {"type": "string", "description": v} for k, v in properties.items()}
    return Tool(name, description, {"type": "object", "properties": schema, "required": list(schema)})


def test_a_code_is_written_in_the_case_its_description_asks_for():
    trains = _tool(
        "rail_times",
        "Train times between two stations.",
        origin="Station code of the departure, upper case.",
        destination="Station code of the arrival, upper case.",
    )
    assert bind(trains, "trains from kgx to edb", guess=False) == {"origin": "KGX", "destination": "EDB"}


def test_a_text_to_be_converted_to_upper_case_stays_as_written():
    shout = _tool("shout", "Make text louder.", text="The text to convert to upper case.")
    assert bind(shout, "shout the words 'mind the gap'", guess=False) == {"text": "mind the gap"}


def test_a_time_with_a_date_fills_a_parameter_whose_example_has_both():
    slot = _tool("book_court", "Book a tennis court.", start="When play starts, e.g. '2030-02-01T18:00:00'.")
    assert bind(slot, "book a court on 2031-04-12 at 17:30", guess=False) == {"start": "2031-04-12T17:30:00"}


def test_options_listed_after_a_colon_are_options():
    assert examples_of("Roast level: light, medium or dark.") == ("light", "medium", "dark")
    assert examples_of("Where, as: City, State") == ()
    beans = _tool(
        "order_beans", "Order coffee beans.", roast="Roast level in lower case: light, medium or dark."
    )
    assert bind(beans, "order some Dark beans", guess=False) == {"roast": "dark"}


def test_a_word_of_the_tools_own_name_names_no_option():
    heater = _tool("heater_mode", "Set the heater's mode.", mode="Mode. One of: 'heat', 'eco', 'off'.")
    assert bind(heater, "put the heater on eco", guess=False) == {"mode": "eco"}


def test_a_chinese_name_goes_on_to_the_kind_of_body_it_names():
    firms = _tool("firm_record", "Look up a firm's record.", firm="Name of the firm.")
    assert bind(firms, "查一下金桥物流有限公司", guess=False) == {"firm": "金桥物流有限公司"}


def test_a_summary_or_a_caption_is_free_text_taken_whole():
    bug = _tool("log_fault", "Log a fault with the building's facilities team.", summary="What is wrong")
    photo = _tool("post_photo", "Post the latest photo to the club's page.", caption="Text under the photo")
    assert bind(bug, "Log a fault: the lift on the east side smells of smoke") == {
        "summary": "the lift on the east side smells of smoke"
    }
    assert bind(photo, "Post the latest photo with caption sunset over the old pier") == {
        "caption": "sunset over the old pier"
    }


def test_the_label_after_a_value_another_parameter_took_is_no_free_text():
    desk = _tool(
        "file_ticket",
        "File a ticket with the help desk.",
        priority="low, normal or high",
        summary="What is wrong",
    )
    assert bind(desk, "File a high priority ticket about the heating failing at night") == {
        "priority": "high",
        "summary": "heating failing at night",
    }
