"""Several calls from one message: intents, lists, frames and shared context (invented examples)."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.calls import bind_all
from wirelab.offline_model.frames import cuts
from wirelab.offline_model.intents import pieces, unwrap
from wirelab.offline_model.request import Tool
from wirelab.offline_model.selection import plan
from wirelab.offline_model.sharing import bind_plan

KETTLE = model_tool(
    "boil_water",
    "Boil water in the kettle to a temperature.",
    {"degrees": {"type": "integer", "description": "target temperature in Celsius"}},
    ("degrees",),
)
LAMP = model_tool(
    "switch_lamp",
    "Switch a lamp in a room on or off.",
    {"room": {"type": "string", "description": "the room the lamp is in"}},
    ("room",),
)


def test_a_message_pasted_in_quotes_is_read_as_the_message():
    assert unwrap('"Boil water to 80 degrees, then switch the lamp in the attic."') == (
        "Boil water to 80 degrees, then switch the lamp in the attic."
    )
    assert unwrap('"Attic" is the room') == '"Attic" is the room'
    items = plan('"Boil water to 80 degrees, then switch the lamp in the attic."', (KETTLE, LAMP))
    assert [item.tool for item in items] == [KETTLE, LAMP]


NUMBER = {"type": "number"}
AREA = model_tool(
    "room_area",
    "Area of a rectangular room.",
    {"width": {"type": "number", "description": "width in metres"}, "length": NUMBER},
    ("width", "length"),
)
SPEED = model_tool(
    "average_speed",
    "Average speed of a trip leg.",
    {
        "distance_km": {"type": "number", "description": "distance in kilometres"},
        "hours": {"type": "number", "description": "time taken in hours"},
        "unit": {"type": "string", "enum": ["kmh", "mph"], "description": "unit of the answer"},
    },
    ("distance_km", "hours"),
)
PARCEL = model_tool(
    "parcel_price",
    "Price of sending a parcel to a city.",
    {"weight_kg": {"type": "number", "description": "weight in kg"}, "city": {"type": "string"}},
    ("weight_kg", "city"),
)
MUSEUMS = model_tool(
    "find_museums",
    "Find museums in a city.",
    {"city": {"type": "string"}, "theme": {"type": "string", "description": "what the museum is about"}},
    ("city",),
)
RAIN = model_tool("yearly_rainfall", "Rainfall in a year.", {"year": {"type": "integer"}}, ("year",))
HARVEST = model_tool("yearly_harvest", "Grain harvest in a year.", {"year": {"type": "integer"}}, ("year",))


def calls_of(text: str, *tools: Tool) -> list[tuple[str, dict]]:
    return [(item.tool.name, item.arguments) for item in bind_plan(plan(text, tools))]


def test_values_given_again_in_order_make_another_call():
    assert bind_all(AREA, "Room A is 4 m by 5 m, room B 3 m by 6 m") == [
        {"width": 4, "length": 5},
        {"width": 3, "length": 6},
    ]
    assert cuts(AREA, "Room A is 4 m by 5 m, room B 3 m by 6 m")[0] == [20]


def test_each_sentence_with_a_full_set_of_values_is_a_call():
    text = "The first leg was 40 km in 2 hours. The second leg was 65 km in 3 hours. Give both in mph."
    assert bind_all(SPEED, text) == [
        {"distance_km": 40, "hours": 2, "unit": "mph"},
        {"distance_km": 65, "hours": 3, "unit": "mph"},
    ]


def test_a_later_call_keeps_what_it_does_not_change():
    text = "How much is a 3 kg parcel to Oslo, and then a 5 kg one?"
    assert bind_all(PARCEL, text) == [{"weight_kg": 3, "city": "Oslo"}, {"weight_kg": 5, "city": "Oslo"}]


def test_a_listed_name_goes_with_the_parameter_of_the_name_before_it():
    assert [call["city"] for call in bind_all(MUSEUMS, "Find museums near Lyon and Turin")] == [
        "Lyon",
        "Turin",
    ]


def test_an_intent_without_its_value_takes_it_from_the_intent_before():
    found = calls_of(
        "What was the rainfall in 1984 and 1990? Also, the harvest in those years?", RAIN, HARVEST
    )
    assert found == [
        ("yearly_rainfall", {"year": 1984}),
        ("yearly_rainfall", {"year": 1990}),
        ("yearly_harvest", {"year": 1984}),
        ("yearly_harvest", {"year": 1990}),
    ]


FENCE = model_tool(
    "paint_fence",
    "Paint a fence.",
    {
        "color": {"type": "string", "description": "paint color"},
        "meters": {"type": "number", "description": "length of fence in meters"},
    },
    ("color", "meters"),
)
PLANTS = model_tool("water_plants", "Water the plants.", {"liters": {"type": "number"}}, ("liters",))


def test_a_closing_question_that_asks_again_makes_no_second_call():
    text = (
        "Paint 20 meters of fence in green. Then water the plants with 5 liters. "
        "So, can you paint the fence and water the plants?"
    )
    assert calls_of(text, FENCE, PLANTS) == [
        ("paint_fence", {"color": "green", "meters": 20}),
        ("water_plants", {"liters": 5}),
    ]


def test_a_count_in_words_is_not_a_value_when_digits_give_them():
    text = "You have two rooms, a kitchen and a hall. The kitchen is 4 m by 5 m. The hall is 2 m by 6 m."
    assert calls_of(text, AREA) == [
        ("room_area", {"width": 4, "length": 5}),
        ("room_area", {"width": 2, "length": 6}),
    ]


def test_context_after_a_full_stop_waits_for_the_next_intent():
    text = (
        "First, water the plants with 5 liters. Second, I have 12 meters of wood, "
        "and green is my color. Please paint the fence."
    )
    assert calls_of(text, FENCE, PLANTS) == [
        ("water_plants", {"liters": 5}),
        ("paint_fence", {"color": "green", "meters": 12}),
    ]


NEWS = model_tool(
    "company_news",
    "Latest news about a company.",
    {"company": {"type": "string", "description": "company name"}, "days": {"type": "integer"}},
    ("company",),
)


def test_a_name_said_again_in_short_is_the_same_value():
    text = "Get the news about Acme Widgets from the last 3 days; I mean the news about Acme."
    assert bind_all(NEWS, text) == [{"company": "Acme Widgets", "days": 3}]


MEDIAN = model_tool(
    "median_of",
    "Median of a list of numbers.",
    {"values": {"type": "array", "items": {"type": "number"}, "description": "the numbers"}},
    ("values",),
)


def test_each_list_in_brackets_for_a_list_parameter_is_a_call():
    text = "Team A scored [3, 9, 4] and team B scored [7, 1, 8]. What is the median of each team?"
    assert bind_all(MEDIAN, text) == [{"values": [3, 9, 4]}, {"values": [7, 1, 8]}]


DINER = model_tool(
    "find_diner",
    "Find a diner in a city by cuisine.",
    {"city": {"type": "string"}, "cuisine": {"type": "string", "enum": ["Thai", "Greek", "Mexican"]}},
    ("city", "cuisine"),
)
DICE = model_tool(
    "dice_odds",
    "Chance of rolling a total with some dice.",
    {"dice": {"type": "integer", "description": "number of dice"}, "total": {"type": "integer"}},
    ("dice", "total"),
)


def test_a_wish_is_a_request_not_an_opinion():
    assert calls_of("I would like to water the plants with 5 liters.", PLANTS) == [
        ("water_plants", {"liters": 5})
    ]
    assert not plan("I like watering plants.", (PLANTS,))


def test_options_listed_together_make_one_call_each():
    assert bind_all(DINER, "Find Thai and Greek diners in Lyon") == [
        {"city": "Lyon", "cuisine": "Thai"},
        {"city": "Lyon", "cuisine": "Greek"},
    ]


def test_context_between_intents_goes_where_its_values_fit():
    text = (
        "Water the plants with 5 liters, then what are the odds with dice? I roll 3 dice for a total of 12."
    )
    assert calls_of(text, PLANTS, DICE) == [
        ("water_plants", {"liters": 5}),
        ("dice_odds", {"dice": 3, "total": 12}),
    ]
    text = (
        "What are the odds with dice? I roll 3 dice for a total of 12. Also water the plants with 5 liters."
    )
    assert calls_of(text, PLANTS, DICE) == [
        ("dice_odds", {"dice": 3, "total": 12}),
        ("water_plants", {"liters": 5}),
    ]


SHOW = model_tool(
    "show_details",
    "Details of an art show at a gallery.",
    {
        "show_name": {"type": "string", "description": "name of the show"},
        "gallery": {"type": "string", "description": "gallery name"},
        "tickets": {"type": "array", "items": {"type": "string", "enum": ["child", "adult", "senior"]}},
    },
    ("show_name", "gallery"),
)


def test_two_sets_of_values_are_two_calls_and_a_last_sentence_holds_for_both():
    text = (
        "Show me the show named 'Blue Hour' in the Tate Gallery, and 'Salt Lines' in the Hayward "
        "Gallery. Plus prices for child and adult."
    )
    found = bind_all(SHOW, text)
    assert [{call["show_name"], call["gallery"]} for call in found] == [
        {"Blue Hour", "Tate Gallery"},
        {"Salt Lines", "Hayward Gallery"},
    ]
    assert [call["tickets"] for call in found] == [["child", "adult"], ["child", "adult"]]


def test_a_sentence_that_named_the_tool_before_its_request_is_not_a_second_call():
    text = (
        "My parcel weighs 3 kg. What is the price to send it? Then water the plants with 5 liters. "
        "So the parcel price to Oslo, please."
    )
    found = calls_of(text, PARCEL, PLANTS)
    assert [name for name, _ in found].count("parcel_price") == 1


SERVER = model_tool(
    "add_server",
    "Register a server.",
    {
        "nickname": {"type": "string", "description": "short name"},
        "host": {"type": "string", "format": "uri"},
        "api_key": {"type": "string", "description": "API key"},
    },
    ("nickname", "host", "api_key"),
)


def test_one_set_of_values_with_codes_around_it_is_one_call():
    text = (
        "Add a new QXR server with the nickname 'alpha' hosted at http://a.example.org. My API key: '98765'."
    )
    assert len(bind_all(SERVER, text)) == 1


TRIP = model_tool(
    "book_trip",
    "Book a trip to a city on a date, avoiding some kinds of roads.",
    {
        "city": {"type": "string"},
        "date": {"type": "string", "description": "date of the trip"},
        "avoid": {"type": "array", "items": {"type": "string"}, "description": "road kinds to avoid"},
    },
    ("city", "date"),
)


def test_a_value_said_twice_with_a_comma_is_one_value():
    assert len(bind_all(TRIP, "Book a trip to Lyon for next Friday, June 5th 2026.")) == 1


def test_items_of_a_list_parameter_start_no_call():
    assert len(bind_all(TRIP, "Book a trip to Lyon on May 3, and avoid 'Tolls' and 'Ferries'.")) == 1


def test_a_title_or_an_abbreviation_does_not_end_a_sentence():
    assert [p.text for p in pieces("Ask Mr. Lee about Acme Inc. today. Then call Dr. Ng.")] == [
        "Ask Mr. Lee about Acme Inc. today",
        "call Dr. Ng",
    ]


LOCAL_TIME = model_tool("time_in", "Current local time in a city.", {"city": {"type": "string"}}, ("city",))
TIME_GAP = model_tool(
    "time_gap",
    "Time difference between two places.",
    {
        "from_zone": {"type": "string", "description": "first city"},
        "to_zone": {"type": "string", "description": "second city"},
    },
    ("from_zone", "to_zone"),
)


def test_two_gaps_of_one_kind_take_the_values_another_intent_listed_in_turn():
    text = "What is the local time in Oslo and Lima, and the time difference between the two cities?"
    assert calls_of(text, LOCAL_TIME, TIME_GAP) == [
        ("time_in", {"city": "Oslo"}),
        ("time_in", {"city": "Lima"}),
        ("time_gap", {"from_zone": "Oslo", "to_zone": "Lima"}),
    ]


TAX = model_tool(
    "sales_tax",
    "Sales tax on a purchase in a city.",
    {"amount": {"type": "number", "description": "purchase amount"}, "city": {"type": "string"}},
    ("amount", "city"),
)
RATIO = model_tool(
    "ratio_of",
    "Ratio of two whole numbers.",
    {
        "a": {"type": "integer", "description": "first number"},
        "b": {"type": "integer", "description": "second number"},
    },
    ("a", "b"),
)


def test_amounts_without_their_label_repeat_the_labelled_one():
    text = "Sales tax on a purchase amount of $30 in Lyon, $52 in Turin and $11 in Oslo"
    assert bind_all(TAX, text) == [
        {"amount": 30, "city": "Lyon"},
        {"amount": 52, "city": "Turin"},
        {"amount": 11, "city": "Oslo"},
    ]


def test_a_list_fills_the_parameters_of_its_kind_before_it_makes_calls():
    assert bind_all(RATIO, "Take two numbers: 6 and 8. What is their ratio?") == [{"a": 6, "b": 8}]
    assert bind_all(RATIO, "Take the numbers 6 and 8, and the numbers 3 and 9.") == [
        {"a": 6, "b": 8},
        {"a": 3, "b": 9},
    ]


def test_a_closing_question_that_names_the_values_again_makes_no_second_call():
    text = (
        "Price a 3 kg parcel to Oslo. Then water the plants with 5 liters. "
        "So what is the parcel price to Oslo, and will the plants be fine?"
    )
    found = calls_of(text, PARCEL, PLANTS)
    assert [name for name, _ in found] == ["parcel_price", "water_plants"]


def test_a_word_that_orders_tasks_asks_for_the_call_again():
    text = "Price a 3 kg parcel to Oslo. Finally, price a parcel to Lima too."
    calls = bind_plan(plan(text, (PARCEL,)))
    assert calls[-1].arguments == {"weight_kg": 3, "city": "Lima"}
    assert len(calls) == 2


def test_also_inside_a_clause_is_no_boundary_and_marks_in_a_row_keep_the_strongest():
    assert [
        (p.text, p.joiner, p.sentence) for p in pieces("Water the plants. Finally, I would also like tea.")
    ] == [
        ("Water the plants", "", True),
        ("I would also like tea", "then", True),
    ]
    assert [p.text for p in pieces("Paint it green, and we also need tea")] == [
        "Paint it green",
        "we",
        "need tea",
    ]


WEATHER_ON_A_DAY = model_tool(
    "get_weather",
    "Current weather in a city on a day.",
    {"city": {"type": "string"}, "day": {"type": "string", "description": "the day, like today or tomorrow"}},
    ("city",),
)


def test_a_later_call_repeats_for_every_value_of_the_list_before():
    found = bind_all(WEATHER_ON_A_DAY, "Weather in Oslo and Rome for today, and then for tomorrow")
    assert [(call["city"], call.get("day")) for call in found] == [
        ("Oslo", "today"),
        ("Rome", "today"),
        ("Oslo", "tomorrow"),
        ("Rome", "tomorrow"),
    ]


def test_many_repeated_values_are_read_in_bounded_time():
    """300 repeated values: at most MAX_CALLS calls, and no runaway. The limit is a hang guard on
    this process's CPU, not a speed claim (about 2 s here; the worst-case benchmark measures speed):
    a wall-clock limit of 5 s failed on a machine busy with other work."""
    import time

    text = "Sales tax on a purchase amount of " + ", ".join(f"${n}.50 in Lyon" for n in range(300))
    started = time.process_time()
    found = bind_all(TAX, text)
    assert len(found) == 8  # at most MAX_CALLS calls from one intent
    assert time.process_time() - started < 20


DRINK = model_tool(
    "mix_drink",
    "Mix a drink of a size, with or without ice.",
    {"size_ml": {"type": "integer", "description": "size in ml"}, "with_ice": {"type": "boolean"}},
    ("size_ml",),
)


def test_a_flag_set_the_other_way_in_a_new_sentence_asks_for_the_call_again():
    text = "Mix a 300 ml drink with ice. What if I mix the drink without ice?"
    assert [item.arguments for item in bind_plan(plan(text, (DRINK,)))] == [
        {"size_ml": 300, "with_ice": True},
        {"size_ml": 300, "with_ice": False},
    ]


def test_numbers_listed_with_commas_and_and_are_one_intent():
    to_celsius = model_tool(
        "fahrenheit_to_celsius",
        "Convert a temperature from Fahrenheit to Celsius.",
        {"fahrenheit": {"type": "number", "description": "Temperature in Fahrenheit."}},
        ("fahrenheit",),
    )
    length = model_tool(
        "convert_length",
        "Convert a length between units.",
        {"value": NUMBER, "from_unit": {"type": "string"}, "to_unit": {"type": "string"}},
        ("value", "from_unit", "to_unit"),
    )
    text = "Convert 50, 68 and 86 degrees Fahrenheit to Celsius."
    assert [p.text for p in pieces(text)] == ["Convert 50, 68 and 86 degrees Fahrenheit to Celsius"]
    [item] = plan(text, (to_celsius, length))
    assert item.tool == to_celsius
    assert bind_all(to_celsius, item.request) == [{"fahrenheit": 50}, {"fahrenheit": 68}, {"fahrenheit": 86}]
    assert [p.text for p in pieces("计算半径为2和5的圆的面积")] == ["计算半径为2和5的圆的面积"]


def test_chinese_names_joined_by_and_are_one_intent():
    population = model_tool(
        "country_population", "Population of a country.", {"country": {"type": "string"}}, ("country",)
    )
    capital = model_tool(
        "country_capital",
        "Find the capital city of a country.",
        {"country": {"type": "string"}},
        ("country",),
    )
    [item] = plan("分别查询肯尼亚和秘鲁的人口。", (population, capital))
    assert item.tool == population
    assert bind_all(population, item.request) == [{"country": "肯尼亚"}, {"country": "秘鲁"}]
    assert len(pieces("张三和李四的邮箱")) == 1
    assert len(pieces("查询天气和预订酒店")) == 2  # two verbs: two tasks


def test_names_listed_for_one_parameter_do_not_fill_another_that_fits_none():
    standings = model_tool(
        "league_table",
        "Current table of a football league.",
        {"league": {"type": "string"}, "season": {"type": "string", "description": "Season, e.g. 2023-24."}},
        ("league",),
    )
    assert bind_all(standings, "Tables of the Eredivisie and the Bundesliga, please") == [
        {"league": "Eredivisie"},
        {"league": "Bundesliga"},
    ]
