"""The offline model's general understanding rules, one behaviour per test (invented examples)."""

from __future__ import annotations

import datetime
import json

import pytest

from tests.offline_model.conftest import model_tool, tool
from wirelab.offline_model import MODEL_ID, complete
from wirelab.offline_model.binding import bind
from wirelab.offline_model.dates import TODAY, date_as_asked, resolve_date
from wirelab.offline_model.extraction import extract, list_items
from wirelab.offline_model.lexicon import concept
from wirelab.offline_model.normalize import clean
from wirelab.offline_model.request import Tool
from wirelab.offline_model.selection import PlanItem, asks_for_nothing, request_concepts
from wirelab.offline_model.sharing import _kin, bind_plan
from wirelab.offline_model.slots import coded_options, default_of, examples_of, slot_of

STRING = {"type": "string"}
FLAG = {"type": "string", "enum": ["True", "False", "dontcare"]}


def described(text: str, kind: str = "string") -> dict:
    return {"type": kind, "description": text}


def found(text: str, kind: str | None = None) -> list:
    values = extract(clean(text))
    return (
        [(v.kind, v.value) for v in values] if kind is None else [v.value for v in values if v.kind == kind]
    )


def calls(text: str, *tools: Tool) -> list[dict]:
    """The arguments of every call the model makes, end to end through `complete`."""
    offered = [{"type": "function", "function": vars(t)} for t in tools]
    body = {"model": MODEL_ID, "messages": [{"role": "user", "content": text}], "tools": offered}
    message = complete(body)["choices"][0]["message"]
    return [json.loads(call["function"]["arguments"]) for call in message.get("tool_calls") or []]


@pytest.fixture
def today():
    token = TODAY.set(datetime.date(2030, 1, 30))  # a Wednesday
    yield
    TODAY.reset(token)


# 1. What a description says: examples, defaults, codes


def test_a_value_the_description_gives_as_an_example_fills_its_parameter():
    kinds = "Kind of boat, such as Kayak, Canoe, Pedal Boat."
    assert examples_of(kinds) == ("Kayak", "Canoe", "Pedal Boat")
    boat = model_tool("rent_boat", "Rent a boat at the lake.", {"boat": described(kinds)}, ("boat",))
    assert bind(boat, "rent us two kayaks for the afternoon") == {"boat": "Kayak"}  # the description's form
    assert bind(boat, "rent a pedal boat") == {"boat": "Pedal Boat"}


def test_a_descriptions_examples_are_not_cue_words():
    city = described("City name, e.g. Paris.")
    assert concept("paris") not in slot_of("city", city, True).words  # "Paris and in Rome": no label for Rome
    weather = model_tool("weather_now", "Current weather for a city.", {"city": city}, ("city",))
    made = calls("weather in Paris and in Rome and in Oslo", weather)
    assert made == [{"city": "Paris"}, {"city": "Rome"}, {"city": "Oslo"}]


def test_a_default_the_description_states_fills_a_required_parameter_left_out():
    order = described("Sort order. Default is 'desc'.")
    limit = described("How many, defaults to 25.", "integer")
    properties = {"folder": STRING, "order": order, "limit": limit}
    files = model_tool("show_files", "Show the files in a folder.", properties, ("folder", "order", "limit"))
    made = bind(files, "show the files in the folder called attic")
    assert made == {"folder": "attic", "order": "desc", "limit": 25}


@pytest.mark.parametrize(
    "schema, default",
    [
        (described("Pages, defaults to 12", "integer"), 12),
        (described("Ratio. Default: 0.75", "number"), 0.75),
        (described("Dry run; defaults to true", "boolean"), True),
        (described('Theme, default is "dark"'), "dark"),
    ],
)
def test_a_stated_default_is_typed_as_the_schema_says(schema, default):
    assert default_of(schema) == default and type(default_of(schema)) is type(default)


def test_codes_a_description_gives_meanings_to_fill_an_integer_from_the_meaning_named():
    classes = "Seat class: 1 for economy, 2 for business, 3 for first class."
    assert coded_options(classes) == (("economy", 1), ("business", 2), ("first class", 3))
    seat = model_tool("book_seat", "Book a train seat.", {"seat_class": described(classes, "integer")})
    assert bind(seat, "book me a business seat") == {"seat_class": 2}
    assert bind(seat, "book a first class seat") == {"seat_class": 3}


# 2. What is no value, and what labels one

SCARF = model_tool("find_scarf", "Find a scarf in the shop.", {"color": STRING}, ("color",))


@pytest.mark.parametrize(
    "text", ["find a scarf, I hurried", "find a scarf quickly", "find the next scarf", "find the first scarf"]
)
def test_verbs_adverbs_and_determiners_are_no_phrase_values(text):
    assert bind(SCARF, text, guess=False) == {}


def test_a_verb_is_passed_over_for_the_phrase_after_it():
    assert bind(SCARF, "I hurried, find me a scarf in teal", guess=False) == {"color": "teal"}


def test_plural_generic_words_are_no_phrases():
    song = model_tool("play_track", "Play a song.", {"song": STRING}, ("song",))
    assert bind(song, "play song names", guess=False) == {}


def test_a_unit_parameter_takes_a_unit_of_what_it_measures():
    sail = model_tool(
        "boat_speed",
        "Speed of a sailing boat over a passage.",
        {
            "distance": described("distance sailed", "number"),
            "hours": described("time taken in hours", "number"),
            "speed_unit": described("unit of speed for the answer"),
        },
        ("distance", "hours"),
    )
    trip = {"distance": 40, "hours": 5}
    assert bind(sail, "boat speed for 40 km in 5 hours, answer in mph") == {**trip, "speed_unit": "mph"}
    assert bind(sail, "boat speed for 40 km in 5 hours, answer in minutes") == trip


def test_the_unit_of_a_number_another_parameter_takes_is_no_unit_value():
    unit = described("unit of the answer")
    crate = model_tool(
        "pack_crate", "Pack a crate for shipping.", {"load": {"type": "number"}, "unit": unit}, ("load",)
    )
    assert bind(crate, "pack a crate with a load of 30 kilograms") == {"load": 30}
    assert bind(crate, "pack a crate with a load of 30, in kilograms") == {"load": 30, "unit": "kilograms"}


CAKE = model_tool(
    "order_cake",
    "Order a cake from the bakery.",
    {"dessert": described("the dessert wanted"), "painted_by": STRING, "choir_member": STRING},
)


@pytest.mark.parametrize(
    "text, arguments",
    [
        ("order a dessert in Lyon", {}),  # Lyon is where, not which dessert
        ("order the dessert Tarte Tatin", {"dessert": "Tarte Tatin"}),
        ("order a cake painted by Mireille", {"painted_by": "Mireille"}),  # the slot's own word
        ("order a cake for Bea in the choir", {"choir_member": "Bea"}),  # "in" after a value
        ("order a cake for Bea from the choir", {}),
    ],
)
def test_a_preposition_ends_a_label_unless_it_belongs_to_the_slot(text, arguments):
    assert bind(CAKE, text) == arguments


def test_a_count_word_before_enough_digit_numbers_counts_them():
    assert found("multiply two numbers, 4 and 9") == [("number", 4), ("number", 9)]
    assert found("a table for two guests at 8pm") == [("number", 2), ("time", "8pm")]


def test_a_possessive_is_dropped_before_a_noun_only():
    assert found("show me Picasso's sketches", "name") == ["Picasso"]
    assert found("book dinner at Chez Marie's.", "name") == ["Chez Marie's"]


# 3. Codes, dates and times


@pytest.mark.parametrize(
    "text, values",
    [
        ("rename total_count in D:/logs/run.log", [("code", "total_count"), ("code", "D:/logs/run.log")]),
        ("open ~/notes/todo.txt", [("code", "~/notes/todo.txt")]),
        ("attach report.pdf", [("code", "report.pdf")]),
        ("upgrade to 2.1.3", [("code", "2.1.3")]),
        ("the 1998-99 season", [("code", "1998-99")]),
        ("kids aged 10-12", [("number", 10), ("number", 12)]),  # not -12
        ("a trip to the U.K. soon", [("name", "U.K.")]),  # no file
        ("航班CA981延误了吗", [("code", "CA981")]),
    ],
)
def test_identifiers_paths_versions_and_spans_are_codes(text, values):
    assert found(text) == values


@pytest.mark.parametrize(
    "written, description, year, clock, expected",
    [
        ("July 4th", "Start day, in the format month-day-year.", 2030, "", "07-04-2030"),
        ("July 4, 2030", "The month, as 'mm-yyyy'.", None, "", "07-2030"),
        ("July 4, 2030", "When, as YYYY-MM-DDTHH:MM:SS.", None, "9:30am", "2030-07-04T09:30:00"),
    ],
)
def test_a_date_is_written_as_the_description_asks(written, description, year, clock, expected):
    assert date_as_asked(written, description, year, clock) == expected


def test_a_time_written_after_a_date_joins_it_when_the_description_asks_for_both():
    when = described("Start, as YYYY-MM-DDTHH:MM:SS.")
    meeting = model_tool("set_meeting", "Set up a meeting.", {"when": when}, ("when",))
    assert bind(meeting, "set a meeting on March 5, 2031 at 2pm") == {"when": "2031-03-05T14:00:00"}


RENTAL = model_tool(
    "rent_car",
    "Rent a car.",
    {"pickup_date": described("pickup day, YYYY-MM-DD"), "return_date": described("return day, YYYY-MM-DD")},
    ("pickup_date", "return_date"),
)


def test_a_date_without_a_year_takes_the_year_of_a_later_date():
    assert bind(RENTAL, "rent a car from July 30th to August 2nd 2031") == {
        "pickup_date": "2031-07-30",
        "return_date": "2031-08-02",
    }


@pytest.mark.parametrize(
    "written, iso",
    [
        ("the day after tomorrow", "2030-02-01"),
        ("in 3 days", "2030-02-02"),
        ("in four days", "2030-02-03"),
        ("三天后", "2030-02-02"),
        ("下个月一号", "2030-02-01"),
    ],
)
def test_relative_dates_count_from_the_stated_day(today, written, iso):
    assert resolve_date(written) == iso


def test_relative_dates_fill_date_parameters(today):
    rental = bind(RENTAL, "rent a car from the day after tomorrow to 三天后")
    assert rental == {"pickup_date": "2030-02-01", "return_date": "2030-02-02"}


@pytest.mark.parametrize(
    "text, time",
    [
        ("晚上七点叫我起来", "19:00"),
        ("设置下午三点半的闹钟", "15:30"),
        ("set an alarm for 5 in the afternoon", "17:00"),
    ],
)
def test_clock_times_said_with_a_part_of_the_day(text, time):
    alarm = model_tool("wake_me", "Set an alarm.", {"time": described("clock time, HH:MM")}, ("time",))
    assert bind(alarm, text) == {"time": time}


# 4. Names and places


@pytest.mark.parametrize(
    "text, name",
    [
        ("ask Dr. Ruiz about it", "Dr. Ruiz"),
        ("ask Ada K. Lin about it", "Ada K. Lin"),
        ("a tour of the U.S. soon", "U.S."),
        ("a book on Pope Leo XIII", "Pope Leo XIII"),
        ("notes on the case R vs Adams", "R vs Adams"),
        ("reviews of the Galaxy S23 phone", "Galaxy S23"),  # a product name a code finishes
    ],
)
def test_names_go_on_through_titles_initials_numerals_and_model_codes(text, name):
    assert found(text, "name") == [name]


@pytest.mark.parametrize(
    "text, name",
    [
        ("Tell Sam I will be there at 5", "Sam"),  # the speaker's "I", not a numeral: "Sam I" before
        ("text Anna I love the flowers", "Anna"),
        ("a book on Peter I", "Peter I"),  # a numeral: nothing, a mark or a name's small word follows it
        ("the reign of Elizabeth I of England", "Elizabeth I of England"),
    ],
)
def test_an_i_after_a_name_is_the_speaker_when_a_lower_case_word_follows(text, name):
    assert found(text, "name") == [name]


def test_a_label_before_a_code_makes_no_product_name():
    assert found("the badge with ID Q42", "name") == []
    assert "Q42" in found("the badge with ID Q42", "code")


def test_a_region_followed_by_a_comma_stays_the_region():
    hotel = model_tool(
        "reserve_stay", "Reserve a room to stay in.", {"location": STRING, "nights": {"type": "integer"}}
    )
    assert bind(hotel, "reserve a room in Riga, Latvia, in May") == {"location": "Riga, Latvia"}


def test_chinese_names_sort_into_people_and_places():
    person = {"type": "object", "properties": {"name": described("姓名"), "city": described("城市")}}
    person["required"] = ["name", "city"]
    sides = {"sender": {**person, "description": "寄件人"}, "recipient": {**person, "description": "收件人"}}
    parcel = model_tool("send_parcel", "寄快递。", sides, ("sender", "recipient"))
    assert bind(parcel, "从南京的陈静寄给西安的赵磊") == {
        "sender": {"name": "陈静", "city": "南京"},
        "recipient": {"name": "赵磊", "city": "西安"},
    }


def test_a_chinese_place_name_goes_on_with_its_facility():
    taxi = model_tool("call_taxi", "叫出租车。", {"destination": described("目的地")}, ("destination",))
    assert bind(taxi, "叫一辆车去西湖酒店") == {"destination": "西湖酒店"}


def test_a_citys_initials_fill_a_place_parameter_as_the_city():
    weather = model_tool("weather_now", "Current weather for a city.", {"city": STRING}, ("city",))
    assert bind(weather, "is it windy in LA") == {"city": "Los Angeles"}
    assert bind(weather, "is it windy in NYC") == {"city": "New York City"}


# 5. Flags, assignment order, years and lists

CABIN = model_tool(
    "find_cabin", "Find a holiday cabin.", {"area": STRING, "has_sauna": FLAG, "pets_allowed": FLAG}
)


@pytest.mark.parametrize(
    "text, flags",
    [
        ("find a cabin in Lapland with a sauna", {"has_sauna": "True"}),
        ("find a cabin in Lapland, no sauna", {"has_sauna": "False"}),
        ("find a cabin in Lapland where pets are allowed", {"pets_allowed": "True"}),
        ("find a cabin in Lapland", {}),
    ],
)
def test_a_flag_written_as_an_enum_is_set_by_its_words(text, flags):
    assert bind(CABIN, text) == {"area": "Lapland", **flags}


def test_a_flag_a_description_asks_whether_is_set_by_that_word():
    express = {"city": described("目的城市"), "express": described("是否加急", "boolean")}
    parcel = model_tool("send_parcel", "寄快递。", express, ("city",))
    assert bind(parcel, "加急寄到北京") == {"city": "北京", "express": True}
    assert bind(parcel, "寄到北京，不要加急") == {"city": "北京", "express": False}
    assert bind(parcel, "寄到北京") == {"city": "北京"}


def test_small_words_of_a_flags_name_do_not_set_it():
    celsius = described("answer in Celsius", "boolean")
    reader = model_tool(
        "room_temperature", "Read the room temperature.", {"room": STRING, "in_celsius": celsius}
    )
    assert bind(reader, "room temperature of the attic in kelvin") == {"room": "attic"}
    assert bind(reader, "room temperature of the attic in celsius") == {"room": "attic", "in_celsius": True}


@pytest.mark.parametrize("required", ["guest_name", "organizer_name"])
def test_required_parameters_take_a_value_before_optional_ones(required):
    party = model_tool(
        "plan_party", "Plan a party.", {"guest_name": STRING, "organizer_name": STRING}, (required,)
    )
    assert bind(party, "plan a party with Ingrid Berg") == {required: "Ingrid Berg"}


@pytest.mark.parametrize("kind, year", [("string", "1987"), ("integer", 1987)])
def test_a_year_fills_a_year_parameter_without_a_label(kind, year):
    films = model_tool("list_films", "List films released in a year.", {"year": {"type": kind}}, ("year",))
    assert bind(films, "list films from 1987") == {"year": year}


def test_list_items_drop_counts_and_containers_and_take_the_singular():
    assert list_items("two green apples and three jars of honey") == ["green apple", "honey"]
    assert list_items("5 lemons, a sack of rice and one melon") == ["lemon", "sack of rice", "melon"]


def test_a_list_of_number_items_is_written_as_reals():
    numbers = {"type": "array", "items": {"type": "number"}}
    mean = model_tool("mean_of", "Mean of some numbers.", {"values": numbers}, ("values",))
    values = bind(mean, "mean of 3, 8 and 10")["values"]
    assert values == [3.0, 8.0, 10.0] and all(isinstance(v, float) for v in values)


# 6. Asking for nothing, and naming options


@pytest.mark.parametrize("text", ["nice day today", "今天很开心呀", "今天心情很好呀"])
def test_small_talk_about_today_or_ending_with_a_particle_asks_for_nothing(text):
    assert asks_for_nothing(text)


def test_an_optional_enum_is_not_set_by_the_tools_own_name_word_alone():
    cabin = {"type": "string", "enum": ["Cruise Suite", "Inside Cabin", "Balcony Room"]}
    cruise = model_tool("book_cruise", "Book a cruise.", {"port": STRING, "cabin": cabin}, ("port",))
    assert bind(cruise, "book a cruise from Genoa") == {"port": "Genoa"}
    assert bind(cruise, "book a cruise from Genoa in a cruise suite") == {
        "port": "Genoa",
        "cabin": "Cruise Suite",
    }


def test_a_hyphenated_word_names_a_spaced_enum_option():
    diet = {"type": "string", "enum": ["Nut Free", "Dairy Free", "Vegan"]}
    cake = model_tool("order_cake", "Order a birthday cake.", {"flavor": STRING, "diet": diet}, ("flavor",))
    assert bind(cake, "order a nut-free lemon cake") == {"flavor": "lemon", "diet": "Nut Free"}


# 7. Commands written out


SHELL = model_tool(
    "shell_run",
    "Runs a command in the terminal of this computer.",
    {"command": described("The command line to run."), "timeout": described("Seconds to wait.", "integer")},
    ("command",),
)


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("show the hidden files here using ls -la ~/projects", "ls -la ~/projects"),
        ("free some disk space: run the command du -sh /var/log.", "du -sh /var/log"),
        ("tidy the build folder using the make clean command", "make clean"),
        ("is my database up? check using pg_isready -h localhost -p 5432", "pg_isready -h localhost -p 5432"),
    ],
)
def test_a_command_written_out_is_called_as_written(text, command):
    assert calls(text, SHELL) == [{"command": command}]  # its numbers are its own, not `timeout`'s


def test_only_a_command_written_out_names_a_command():
    assert "command" in request_concepts("see what changed using git status")
    assert "command" not in request_concepts("pay the invoice using my card")
    assert calls("pay the invoice using my card", SHELL) == []


# 8. Conversions


CONVERT = model_tool(
    "convert_length",
    "Convert a length from one unit to another.",
    {
        "value": described("The value to convert.", "number"),
        "from_unit": described("The unit to convert from."),
        "to_unit": described("The unit to convert to."),
    },
    ("value", "from_unit", "to_unit"),
)


@pytest.mark.parametrize(
    "text",
    [
        "A shelf is 30 inches wide. How wide is it in centimeters?",
        "I have a board of 30 inches that I would like to convert into centimeters.",
    ],
)
def test_the_unit_a_number_is_written_in_is_the_one_to_convert_from(text):
    assert bind(CONVERT, text) == {"value": 30, "from_unit": "inches", "to_unit": "centimeters"}


def test_a_parameter_of_another_kind_does_not_share_a_value_for_a_word_of_direction():
    money = model_tool(
        "convert_money",
        "Convert an amount of money between currencies.",
        {"amount": described("Amount.", "number"), "from_currency": STRING, "to_currency": STRING},
        ("amount", "from_currency", "to_currency"),
    )
    assert _kin(money, "from_currency", CONVERT) is None  # "from" says where, not what
    assert _kin(money, "to_currency", money) == "to_currency"


# 9. Words that organise a message are no names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Book the room. Second, I'd like a taxi to Lyon.", ["Lyon"]),
        ("Water the plants. Later, we fly to Quito", ["Quito"]),
        ("Finally, you pick Ravenna", ["Ravenna"]),
        ("Lima, Peru is lovely.", ["Lima"]),  # a city before its comma stays a name
        ("Second", []),
    ],
)
def test_a_word_that_starts_a_sentence_before_a_comma_and_a_clause_is_no_name(text, names):
    assert found(text, "name") == names


def test_how_the_user_is_is_no_value():
    lookup = model_tool(
        "find_species", "Facts about an animal species.", {"species": described("The species.")}, ("species",)
    )
    assert bind(lookup, "I'm curious about the snow leopard") == {"species": "snow leopard"}
    assert bind(lookup, "We're interested in otters") == {"species": "otters"}
    assert bind(lookup, "I'm a big fan of the axolotl") == {"species": "axolotl"}


def test_a_colour_parameter_takes_a_colour_over_other_words():
    blend = model_tool(
        "blend_colors",
        "Blend two colors.",
        {"color1": described("The first color."), "color2": described("The second color.")},
        ("color1", "color2"),
    )
    assert set(bind(blend, "For my poster, blend cyan and magenta").values()) == {"cyan", "magenta"}
    assert set(bind(blend, "I'm making a poster; blend teal with orange").values()) == {"teal", "orange"}


def test_a_question_mark_inside_single_quotes_ends_no_intent():
    translate = model_tool(
        "translate_text",
        "Translate text into another language.",
        {"text": described("The text to translate."), "target": described("Target language.")},
        ("text", "target"),
    )
    text = "Please translate this into German: 'Where is the station?'"
    assert calls(text, translate) == [{"text": "Where is the station?", "target": "German"}]


def test_a_parameter_described_as_an_email_address_takes_the_email():
    mail = model_tool(
        "send_mail",
        "Send an email.",
        {
            "reply_to": described("The email address to answer to."),
            "subject": described("Subject line."),
        },
        ("reply_to", "subject"),
    )
    bound = bind(mail, "Write to Priya at priya@example.org with the subject 'Lunch'")
    assert bound == {"reply_to": "priya@example.org", "subject": "Lunch"}


def test_a_person_named_with_a_title_is_no_place():
    where = model_tool(
        "city_coordinates", "Latitude and longitude of a city.", {"city": described("The city.")}, ("city",)
    )
    assert bind(where, "Where is Tampere, the city where Dr. Okafor teaches?") == {"city": "Tampere"}


def test_a_month_or_a_weekday_is_no_place():
    weather = model_tool(
        "weather_now", "Current weather.", {"location": described("City and state.")}, ("location",)
    )
    assert bind(weather, "Going to Springfield in December. What's the weather like?") == {
        "location": "Springfield"
    }


def test_a_state_parameter_takes_the_state_and_its_code_when_asked():
    tax = model_tool(
        "sales_tax",
        "Sales tax for a purchase.",
        {
            "amount": described("Purchase amount in dollars.", "number"),
            "state": described("The US state abbreviation, e.g. 'TX'."),
            "city": described("The city, optional."),
        },
        ("amount", "state"),
    )
    assert bind(tax, "I paid $80 in Tucson, Arizona") == {"amount": 80, "state": "AZ", "city": "Tucson"}
    assert bind(tax, "I paid $80 in Oregon") == {"amount": 80, "state": "OR"}


def test_the_name_the_user_gives_as_theirs_is_the_users():
    card = model_tool(
        "send_card",
        "Send a greeting card.",
        {"user_name": described("Sender's name."), "friend_name": described("The friend's name.")},
        ("user_name", "friend_name"),
    )
    assert bind(card, "Send a card to my friend, Tomas. My name is Ines.") == {
        "user_name": "Ines",
        "friend_name": "Tomas",
    }


def test_a_country_is_a_place():
    rooms = model_tool(
        "hyatt_hotel_rooms",
        "Check free rooms at a hotel chain.",
        {
            "location": described("The location of the hotel."),
            "check_in_date": described("Check-in date, YYYY-MM-DD."),
            "hotel_chain": described("The hotel chain."),
        },
        ("location", "check_in_date"),
    )
    text = "Are Hyatt hotels in the United Kingdom free for the check-in date 2031-03-02?"
    assert bind(rooms, text) == {
        "location": "United Kingdom",
        "check_in_date": "2031-03-02",
        "hotel_chain": "Hyatt",
    }


@pytest.mark.parametrize(
    ("text", "unit"), [("a 5-day hike", "day"), ("a 10-year bond", "year"), ("a 3-km run", "km")]
)
def test_a_hyphenated_measure_is_a_number_with_its_unit(text, unit):
    number = next(v for v in extract(clean(text)) if v.kind == "number")
    assert (number.value, number.unit) == (int(text.split()[1].split("-")[0]), unit)


def test_a_hyphen_between_numbers_is_no_unit():
    assert found("a 2-3 person tent", "number") == [2, 3]


def test_the_tools_own_name_written_in_the_request_is_no_value():
    population = model_tool(
        "stats_population_by_region",
        "Population of a region in a year.",
        {"region": described("The region."), "year": described("Year.", "integer")},
        ("region", "year"),
    )
    text = "And in 1990, according to the 'stats.population_by_region' function?"
    assert bind(population, text, guess=False) == {"year": 1990}  # the region is still to be said


def test_the_ends_of_a_range_go_to_the_lower_and_upper_parameters():
    primes = model_tool(
        "count_primes_with_digits",
        "Count primes with given digits in a range.",
        {
            "lower_limit": described("Lower end.", "integer"),
            "upper_limit": described("Upper end.", "integer"),
            "digits": {"type": "array", "items": {"type": "integer"}, "description": "Digits they contain."},
        },
        ("lower_limit", "upper_limit", "digits"),
    )
    bound = bind(primes, "Count the primes with the digits 4 and 7 between 10 and 900")
    assert (bound["lower_limit"], bound["upper_limit"]) == (10, 900)


def test_a_label_before_a_preposition_does_not_label_the_country_after_it():
    price = model_tool(
        "game_price",
        "The selling price of a video game.",
        {
            "title": described("The title of the video game."),
            "platform": described("The gaming platform."),
            "region": described("The region, e.g. France, Japan."),
        },
        ("title", "platform"),
    )
    text = "the price of 'Grim Fandango' on the Sega Saturn platform in the United Kingdom"
    assert bind(price, text) == {
        "title": "Grim Fandango",
        "platform": "Sega Saturn",
        "region": "United Kingdom",
    }


def test_a_planet_parameter_takes_a_planet():
    jump = model_tool(
        "jump_height",
        "How high a person jumps on a planet.",
        {"planet": described("Where."), "height_cm": described("Jump on the ground here, in cm.", "number")},
        ("planet", "height_cm"),
    )
    assert bind(jump, "At the Oslo gym I jump 50 cm; how high on Neptune?") == {
        "planet": "Neptune",
        "height_cm": 50,
    }


def test_a_list_takes_no_quote_another_parameter_took():
    note = model_tool(
        "save_note",
        "Save a note.",
        {
            "title": described("The note's title."),
            "body": described("The note's text."),
            "tags": {"type": "array", "items": {"type": "string"}, "description": "Tags."},
        },
        ("title", "body"),
    )
    bound = bind(note, "Save a note with the title 'Tuesday' and the body \"call the plumber\"")
    assert bound == {"title": "Tuesday", "body": "call the plumber"}


def test_a_name_that_only_repeats_the_tools_name_is_a_weak_value():
    pair = model_tool(
        "pair_zigbee",
        "Pair a smart-home device.",
        {"device_name": described("Name of the device.")},
        ("device_name",),
    )
    assert bind(pair, "Pair my Zigbee lamp called 'Aria 2'") == {"device_name": "Aria 2"}


DICE = model_tool("roll_dice", "Roll dice.", {"sides": described("Sides of the die.", "integer")}, ("sides",))


def test_the_very_same_call_is_made_once_unless_asked_again():
    once = [PlanItem("Roll a die with 8 sides", DICE), PlanItem("use 8 sides for it", DICE)]
    assert [item.arguments for item in bind_plan(once)] == [{"sides": 8}]
    twice = [PlanItem("Roll a die with 8 sides", DICE), PlanItem("then roll another one with 8 sides", DICE)]
    assert [item.arguments for item in bind_plan(twice)] == [{"sides": 8}] * 2


def test_the_options_a_description_lists_fill_its_parameter():
    cases = model_tool(
        "court_cases",
        "Search court cases.",
        {
            "city": described("Where."),
            "case_kind": described("The type of case. Options include: 'civil', 'criminal', 'family'."),
        },
        ("city",),
    )
    assert bind(cases, "Find cases in Tulsa, only the criminal ones") == {
        "city": "Tulsa",
        "case_kind": "criminal",
    }


@pytest.mark.parametrize(
    ("description", "state"), [("The state, e.g. TX.", "CO"), ("The state of the court.", "Colorado")]
)
def test_a_state_the_request_leaves_out_is_written_as_the_description_shows(description, state):
    court = model_tool(
        "court_search", "Search a court.", {"city": described("City."), "state": described(description)}
    )
    assert bind(court, "Search the court in Denver") == {"city": "Denver", "state": state}


ABACUS = tool(
    "abacus",
    "Work out a sum with two numbers.",
    {
        "left": {"type": "number"},
        "right": {"type": "number"},
        "op": {"type": "string", "enum": ["plus", "minus", "multiply", "divide"]},
    },
    ("left", "right", "op"),
)


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        ("What's 19 times 7?", '{"left":19,"right":7,"op":"multiply"}'),
        ("31 minus 4", '{"left":31,"right":4,"op":"minus"}'),
        ("900减去17等于几", '{"left":900,"right":17,"op":"minus"}'),
    ],
)
def test_an_operator_word_names_its_operation(text, arguments):
    body = {"model": MODEL_ID, "tools": [ABACUS]}
    reply = complete({**body, "messages": [{"role": "user", "content": text}]})
    calls = reply["choices"][0]["message"].get("tool_calls") or []
    assert [(c["function"]["name"], c["function"]["arguments"]) for c in calls] == [("abacus", arguments)]


@pytest.mark.parametrize(
    "text", ["How many times have you been to Lisbon?", "The minus key on my keyboard is stuck"]
)
def test_talk_with_an_operator_word_calls_nothing(text):
    body = {"model": MODEL_ID, "tools": [ABACUS]}
    reply = complete({**body, "messages": [{"role": "user", "content": text}]})
    assert not reply["choices"][0]["message"].get("tool_calls")
