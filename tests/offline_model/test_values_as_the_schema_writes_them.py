"""Values written the way a real API's schema asks (issue 22): options a description lists in
prose, codes in the case and shape its examples show, a clock's colon that labels nothing. Read
on invented tools with `guess=False`, so only what the request says is bound."""

from __future__ import annotations

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, properties: dict, required: list[str]) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": required})


def _text(description: str) -> dict:
    return {"type": "string", "description": description}


KETTLE = _tool(
    "kettle_boil",
    "Boils water in the smart kettle.",
    {
        "ml": {"type": "integer", "description": "How much water, in millilitres."},
        "strength": _text("Brew profile: 'green', 'black' or 'herbal'."),
    },
    ["ml"],
)
SUBTITLES = _tool(
    "subs_fetch",
    "Downloads subtitles for a film.",
    {"title": _text("Film title."), "lang": _text("Subtitle language, e.g. 'pt', 'ko'.")},
    ["title", "lang"],
)
MARKET = _tool(
    "deals_list",
    "Lists today's deals in a country's store.",
    {"market": _text("Two-letter country code, e.g. 'us', 'jp'.")},
    ["market"],
)
VOICE = _tool(
    "tts_say",
    "Reads a sentence aloud.",
    {"sentence": _text("What to say."), "locale": _text("Voice locale, e.g. 'en-GB', 'it-IT'.")},
    ["sentence"],
)
NOTE = _tool(
    "alarm_note",
    "Sets a note that pops up at a time of day.",
    {"message": _text("What the note says."), "when": _text("Time of day, 'HH:MM'.")},
    ["message", "when"],
)


def test_options_quoted_after_a_label_s_colon_are_options():
    assert bind(KETTLE, "Boil 500 ml for herbal tea", guess=False) == {"ml": 500, "strength": "herbal"}


def test_a_word_in_another_language_names_the_option_it_means_not_itself():
    assert bind(KETTLE, "烧 300 毫升水泡绿茶", guess=False) == {"ml": 300, "strength": "green"}


def test_a_language_is_written_as_the_code_the_examples_show():
    assert bind(SUBTITLES, "Get Korean subtitles for Parasite", guess=False)["lang"] == "ko"


def test_a_country_code_takes_the_case_the_examples_show():
    assert bind(MARKET, "What deals are on in Japan?", guess=False) == {"market": "jp"}


def test_a_locale_is_written_as_the_tag_the_examples_show():
    assert bind(VOICE, "Say 'buongiorno a tutti' in Italian", guess=False)["locale"] == "it-IT"


def test_a_clock_s_colon_labels_no_text():
    assert bind(NOTE, "At 6:45 remind me to feed the cat", guess=False)["message"] == "feed the cat"


BOOKS = _tool(
    "books_find",
    "Searches the library catalogue.",
    {"query": _text("Words to look for."), "order": _text("Ordering: 'title', 'year' or 'rating'.")},
    ["query"],
)


def test_the_label_of_a_value_another_parameter_took_is_not_free_text():
    said = "Look up novels about lighthouses ordered by rating"
    assert bind(BOOKS, said, guess=False) == {"query": "novels about lighthouses", "order": "rating"}
