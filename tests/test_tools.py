"""A typed, documented Python function becomes the description a model reads."""

import enum
from dataclasses import dataclass
from typing import Literal, TypedDict

import pytest
from pydantic import BaseModel

from wirelab.tools import ToolRegistry, function_schema, summary, tool, type_schema


def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius", days: int = 1) -> dict:
    """Current weather and forecast for a city.

    Args:
        city: City name, e.g. "Paris".
        unit: Temperature unit.
        days: How many days of forecast,
            counted from today.
    """
    return {"city": city, "unit": unit, "days": days}


def test_parameters_without_a_default_are_required_and_the_rest_are_optional():
    schema = function_schema(get_weather)
    assert schema["required"] == ["city"]
    assert schema["properties"]["days"]["default"] == 1
    assert schema["additionalProperties"] is False


def test_a_literal_becomes_an_enum_and_docstring_args_become_descriptions():
    props = function_schema(get_weather)["properties"]
    assert props["unit"] == {
        "type": "string",
        "enum": ["celsius", "fahrenheit"],
        "default": "celsius",
        "description": "Temperature unit.",
    }
    assert props["days"]["description"] == "How many days of forecast, counted from today."


def test_the_tool_description_is_the_docstring_up_to_its_first_section():
    assert summary(get_weather.__doc__) == "Current weather and forecast for a city."


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass
class Address:
    """A postal address.

    Args:
        street: Street and number.
    """

    street: str
    postcode: str | None = None


class Filter(TypedDict):
    tag: str


class Order(BaseModel):
    sku: str
    quantity: int = 1


@pytest.mark.parametrize(
    ("hint", "expected"),
    [
        (str, {"type": "string"}),
        (float, {"type": "number"}),
        (bool, {"type": "boolean"}),
        (list[int], {"type": "array", "items": {"type": "integer"}}),
        (dict[str, float], {"type": "object", "additionalProperties": {"type": "number"}}),
        (int | None, {"type": "integer"}),
        (Colour, {"type": "string", "enum": ["red", "blue"]}),
        (Literal[1, 2], {"type": "integer", "enum": [1, 2]}),
    ],
)
def test_each_supported_type_hint_has_its_json_schema(hint, expected):
    assert type_schema(hint) == expected


def test_dataclasses_and_typeddicts_become_nested_objects_with_their_own_required_list():
    address = type_schema(Address)
    assert address["required"] == ["street"]
    assert address["properties"]["street"]["description"] == "Street and number."
    assert type_schema(Filter)["required"] == ["tag"]


def test_a_pydantic_model_describes_itself():
    assert type_schema(Order) == Order.model_json_schema()


def test_an_unsupported_type_is_refused_with_the_list_of_supported_ones():
    with pytest.raises(TypeError, match="cannot describe"):
        type_schema(set[object] | bytes)


def test_star_args_cannot_be_described_to_a_model():
    def anything(*args, **kwargs):
        """Takes anything."""

    with pytest.raises(TypeError, match=r"\*args and \*\*kwargs"):
        function_schema(anything)


def test_a_tool_spec_has_the_chat_completions_shape():
    spec = tool(get_weather).spec()
    assert spec["type"] == "function"
    assert set(spec["function"]) == {"name", "description", "parameters"}


def test_a_tool_name_the_api_would_reject_is_refused_at_definition():
    with pytest.raises(ValueError, match="must match"):
        tool(name="get weather!")(get_weather)


def test_a_registry_refuses_two_tools_with_one_name():
    registry = ToolRegistry([get_weather])
    with pytest.raises(ValueError, match="already registered"):
        registry.add(get_weather)
    assert registry.names == ["get_weather"] and len(registry) == 1
