"""What the offline model's tests share: a tool and the way to write one, and the offline model
served on 127.0.0.1 with the real `openai` client pointed at it (one per test module)."""

import openai
import pytest

from wirelab.offline_model import serve
from wirelab.offline_model.request import Tool


def tool(name: str, description: str, properties: dict | None = None, required: tuple[str, ...] = ()) -> dict:
    """A Chat Completions function tool, as a request offers it."""
    parameters = {"type": "object", "properties": properties or {}, "required": list(required)}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


def model_tool(name: str, description: str, properties: dict, required: tuple[str, ...] = ()) -> Tool:
    """The same tool as the model's stages see it, for the tests that call a stage directly."""
    return Tool(**tool(name, description, properties, required)["function"])


UNIT = {"type": "string", "enum": ["celsius", "fahrenheit"]}
WEATHER = tool(
    "get_weather", "Current weather for a city.", {"city": {"type": "string"}, "unit": UNIT}, ("city",)
)
WEATHER_TOOL = Tool(**WEATHER["function"])  # WEATHER for the stages


@pytest.fixture(scope="module")
def server():
    with serve() as running:
        yield running


@pytest.fixture(scope="module")
def client(server):
    return openai.OpenAI(base_url=server.base_url, api_key="offline", max_retries=0)
