"""Values the offline model reads by meaning, in either language (issue 22), on invented tools."""

from __future__ import annotations

from wirelab.offline_model.binding import bind
from wirelab.offline_model.correction import correct
from wirelab.offline_model.request import Call, Tool


def _tool(name: str, description: str, properties: dict, required: list[str]) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": required})


PET = {"type": "string", "enum": ["cat", "dog", "fish"]}
FEEDER = _tool("feed_pet", "Give a pet its food.", {"pet": PET, "grams": {"type": "integer"}}, ["pet"])


def test_an_option_is_named_by_a_word_that_means_it_in_either_language():
    assert bind(FEEDER, "Feed the puppy", guess=False) == {"pet": "dog"}
    assert bind(FEEDER, "喂一下小猫", guess=False) == {"pet": "cat"}


def test_no_option_is_read_from_words_that_mean_none():
    assert bind(FEEDER, "Feed them 40 grams now", guess=False) == {"grams": 40}


def test_a_correction_takes_the_listed_value_the_request_means():
    loose = _tool("feed_pet", "Give a pet its food.", {"pet": {"type": "string"}}, ["pet"])
    sent = Call("", "feed_pet", '{"pet": "小狗"}')
    error = {"field": "pet", "message": "pet must be one of cat, fish, dog"}
    assert correct(sent, error, loose, "喂一下小狗") == Call("", "feed_pet", '{"pet":"dog"}')
