"""Selection by meaning when the tools' words choose nothing, with tools and requests invented here
(none of them in the training corpus)."""

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete, explain, meaning, training
from wirelab.offline_model.lexicon import concept

ALARM = tool(
    "ring_alarm",
    "Set an alarm clock to ring at a time of day.",
    {"time": {"type": "string", "description": "Time of day, HH:MM."}},
    ("time",),
)
RADIO = tool(
    "tune_radio",
    "Tune the kitchen radio to a station.",
    {"station": {"type": "string", "description": "Station name."}},
    ("station",),
)
LIFT = tool(
    "call_lift",
    "Call the lift to a floor of the building.",
    {"floor": {"type": "integer", "description": "Floor number."}},
    ("floor",),
)
FISH = tool(
    "feed_fish",
    "Drop food into the aquarium.",
    {"pinches": {"type": "integer", "description": "How many pinches of flakes."}},
    (),
)
HOME = [ALARM, RADIO, LIFT, FISH]
NUDGE = tool(
    "add_reminder",
    "Remind the person of a task on a day.",
    {
        "task": {"type": "string", "description": "What to do."},
        "day": {"type": "string", "description": "Day, YYYY-MM-DD."},
    },
    ("task",),
)


def body(text, tools=HOME):
    return {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": tools}


def called(text, tools=HOME):
    return [
        c["function"]["name"]
        for c in complete(body(text, tools))["choices"][0]["message"].get("tool_calls") or []
    ]


def test_the_tools_are_not_in_the_training_corpus():
    names = {t.name for sets in training.load_corpus()["domains"].values() for t in sets["en"]}
    assert not names & {t["function"]["name"] for t in [*HOME, LIGHTS, HEATING, MOP, NUDGE]}


def test_a_reminder_and_an_alarm_are_different_concepts():
    """'remind' and 'alarm' were one group of the lexicon, so the words of a wake-up call tied
    between an alarm tool and a reminder tool, and meaning picked the reminder."""
    assert concept("提醒") != concept("闹钟") and concept("remind") != concept("alarm")


def test_a_wake_up_call_goes_to_the_alarm_and_a_task_to_the_reminder():
    assert called("明早六点用闹钟叫我。", [ALARM, NUDGE]) == ["ring_alarm"]
    assert called("Remind me to repot the cactus on 2026-04-02.", [ALARM, NUDGE]) == ["add_reminder"]


def test_a_request_that_shares_some_words_but_is_chosen_by_none_is_read_for_its_meaning():
    """'floor' and 'time' are the tools' own words, yet words alone choose nothing here."""
    assert called("I need to go down to the 3rd floor, bring it up here.") == ["call_lift"]
    assert called("I must be awake by 6:15 tomorrow, the time matters.") == ["ring_alarm"]


def test_a_statement_that_names_a_tools_topic_keeps_the_words_no():
    """Words saw the alarm's and the lift's topic and chose neither: meaning does not overrule them."""
    assert called("Alarm clocks used to be mechanical.") == []
    assert called("Lifts were a rare thing in old buildings.") == []
    assert called("以前的闹钟都是机械的。") == []


def test_the_chatter_probe_reads_a_statement_as_wanting_no_tool():
    """The probe (512 weights and a bias on the request's vector) gives the log-odds of wanting no tool."""
    probe = meaning.weights().probe
    texts = [
        "My sister loves her aquarium.",
        "Our goldfish is called Bubbles.",
        "The guppies look hungry, two pinches.",
    ]
    first, second, request = meaning.encode(texts) @ probe[:-1] + probe[-1]
    assert first > 0 and second > 0 > request


def test_meaning_still_calls_nothing_for_talk_near_the_tools():
    assert called("Tell me a joke about time.") == []
    assert called("What time is it in Tokyo?") == []


ROOMS = ["hall", "study", "bathroom"]
LIGHTS = tool(
    "dim_lights",
    "Change how bright the lights in a room are.",
    {"room": {"type": "string", "enum": ROOMS}, "percent": {"type": "integer", "description": "0 to 100."}},
    ("room", "percent"),
)
HEATING = tool(
    "heat_room",
    "Set the heating of a room to a temperature.",
    {"room": {"type": "string", "enum": ROOMS}, "celsius": {"type": "integer", "description": "Target."}},
    ("room", "celsius"),
)
MOP = tool(
    "mop_floor",
    "Send the mopping robot to clean a room.",
    {"room": {"type": "string", "enum": ROOMS}},
    ("room",),
)


def test_tools_the_words_tie_on_are_told_apart_by_meaning():
    """Each request names a room every tool takes, and nothing else of theirs: the words tie."""
    tools = [LIGHTS, MOP, HEATING]
    assert called("The study is chilly, bring it up to 21.", tools) == ["heat_room"]
    assert called("书房有点冷，调到21。", tools) == ["heat_room"]
    assert called("Muddy footprints everywhere in the study!", tools) == ["mop_floor"]
    assert called("Too bright in the bathroom, 30 please.", tools) == ["dim_lights"]


def test_explain_shows_where_the_words_tie_and_the_cosines_that_decide():
    stages = {
        s["stage"]: s
        for s in explain(body("The study is chilly, bring it up to 21.", [LIGHTS, MOP, HEATING]))["stages"]
    }
    (tie,) = stages["words tie, meaning decides"]["decision"]
    assert tie["tool"] == "heat_room" == max(tie["cosines"], key=tie["cosines"].get)
    assert set(tie["cosines"]) == {"dim_lights", "mop_floor", "heat_room"}
    assert "words tie, meaning decides" not in {
        s["stage"] for s in explain(body("Tell me a joke."))["stages"]
    }
