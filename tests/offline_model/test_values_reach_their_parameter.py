"""A value the request gives reaches its parameter (issue 22), read on invented tools with
nothing guessed (`guess=False`): a count its description names, a label that belongs to the
next value, a name whose head word says it holds a code."""

from __future__ import annotations

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, properties: dict, required: list[str]) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": required})


LANTERNS = _tool(
    "hang_lanterns",
    "Hang paper lanterns for a festival.",
    {
        "spot": {"type": "string", "description": "Place of the display."},
        "qty": {"type": "integer", "description": "Number of lanterns."},
    },
    ["spot"],
)
SCORE = _tool(
    "record_score",
    "Record the final score of a hockey game.",
    {
        "goals_home": {"type": "integer", "description": "Goals of the home side."},
        "goals_away": {"type": "integer", "description": "Goals of the visitors."},
    },
    ["goals_home", "goals_away"],
)
QUIZ = _tool(
    "join_quiz",
    "Join a pub quiz as a team.",
    {"host_code": {"type": "string", "description": "Code the quizmaster shows."}},
    ["host_code"],
)


def test_an_optional_count_is_named_by_what_its_description_counts():
    assert bind(LANTERNS, "Hang 40 lanterns along the jetty", guess=False).get("qty") == 40


def test_how_many_in_a_description_names_what_is_counted_too():
    tool = _tool(
        "stack_crates", "Stack crates.", {"n": {"type": "integer", "description": "How many crates."}}, []
    )
    assert bind(tool, "stack 9 crates", guess=False) == {"n": 9}


def test_a_label_after_and_belongs_to_the_next_value_not_to_the_one_before():
    said = "the home side is on 4 and the away side is on 2"
    assert bind(SCORE, said, guess=False) == {"goals_home": 4, "goals_away": 2}


def test_a_name_that_ends_in_code_holds_a_code_though_another_word_sounds_like_a_link():
    assert bind(QUIZ, "join with code QZ-481", guess=False) == {"host_code": "QZ-481"}


def test_dep_and_arr_in_a_name_are_where_a_move_starts_and_ends():
    wagon = _tool(
        "move_wagon",
        "Move a freight wagon between two yards.",
        {"dep_yard": {"type": "string"}, "arr_yard": {"type": "string"}},
        ["dep_yard", "arr_yard"],
    )
    assert bind(wagon, "move it to Tilburg from Venlo", guess=False) == {
        "dep_yard": "Venlo",
        "arr_yard": "Tilburg",
    }


def test_a_number_a_string_parameter_took_by_its_label_goes_to_the_number_it_leaves_empty():
    lamp = _tool(
        "dim_lamp",
        "Dim a garden lamp.",
        {"lamp": {"type": "string", "description": "Which lamp."}, "level": {"type": "integer"}},
        ["lamp", "level"],
    )
    assert bind(lamp, "Dim the porch lamp to 2", guess=False) == {"lamp": "porch", "level": 2}


def test_the_verb_that_names_the_tool_labels_no_value_after_it():
    crate = _tool(
        "ship_crate",
        "Ship a crate.",
        {
            "courier": {"type": "string", "description": "Courier, e.g. Bring"},
            "shipping_id": {"type": "string", "description": "Reference on the label."},
        },
        ["courier", "shipping_id"],
    )
    said = bind(crate, "Ship my Bring crate KX4410ZZ", guess=False)
    assert said == {"courier": "Bring", "shipping_id": "KX4410ZZ"}


def test_a_chinese_clock_time_gives_its_minute_to_a_minute_parameter():
    kettle = _tool(
        "schedule_kettle",
        "Boil the kettle at a set time.",
        {"hour": {"type": "integer"}, "minute": {"type": "integer"}},
        ["hour", "minute"],
    )
    assert bind(kettle, "明天8点45分烧水", guess=False) == {"hour": 8, "minute": 45}


def test_a_time_another_parameter_takes_whole_gives_no_count_of_hours_or_minutes():
    kiln = _tool(
        "book_kiln",
        "Book the pottery kiln.",
        {
            "start": {"type": "string", "description": "Start, HH:MM."},
            "hours": {"type": "integer", "description": "How long, default 1."},
            "cool_minutes": {"type": "integer", "description": "Cooling time."},
        },
        ["start"],
    )
    assert bind(kiln, "Book the kiln at half past eight", guess=False) == {"start": "08:30"}
    evening = bind(kiln, "Book the kiln at 9:15 in the evening for 3 hours", guess=False)
    assert evening == {"start": "21:15", "hours": 3}


def test_a_participle_before_the_parameters_own_noun_is_its_value():
    sync = _tool("sync_folder", "Sync a shared folder.", {"folder": {"type": "string"}}, ["folder"])
    assert bind(sync, "Sync the landing folder now", guess=False) == {"folder": "landing"}
    tail = _tool("tail_log", "Show the end of a log file.", {"log": {"type": "string"}}, ["log"])
    assert bind(tail, "tail the billing log", guess=False) == {"log": "billing"}


def test_a_chinese_scale_after_digits_scales_the_number():
    grant = _tool("apply_grant", "Apply for a research grant.", {"amount": {"type": "number"}}, ["amount"])
    assert bind(grant, "申请12万的科研经费", guess=False) == {"amount": 120000}


def test_a_number_said_to_be_at_least_fills_a_lower_bound():
    hikes = _tool(
        "find_hikes",
        "Find hiking trails near a town.",
        {"town": {"type": "string"}, "min_km": {"type": "integer", "description": "Shortest trail length."}},
        ["town"],
    )
    assert bind(hikes, "trails near Keswick of at least 12", guess=False) == {"town": "Keswick", "min_km": 12}


def test_the_words_after_named_fill_a_parameter_that_holds_a_name():
    countdown = _tool(
        "kitchen_countdown",
        "Start a kitchen countdown.",
        {"minutes": {"type": "integer"}, "label": {"type": "string", "description": "Shown on the screen"}},
        ["minutes"],
    )
    said = bind(countdown, "a 12 minute countdown named pasta", guess=False)
    assert said == {"minutes": 12, "label": "pasta"}
