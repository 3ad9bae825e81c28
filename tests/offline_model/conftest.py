"""What the offline model's tests share: a tool and the way to write one, the offline model served
on 127.0.0.1 with the real `openai` client pointed at it (one per test module), and the calls it makes."""

import json

import openai
import pytest

from wirelab.offline_model import MODEL_ID, serve
from wirelab.offline_model.request import Tool


def tool(name: str, description: str, properties: dict | None = None, required: tuple[str, ...] = ()) -> dict:
    """A Chat Completions function tool, as a request offers it."""
    parameters = {"type": "object", "properties": properties or {}, "required": list(required)}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


def calls_through(client: openai.OpenAI, tools: list[dict], text: str) -> list[tuple[str, dict]]:
    """The (name, arguments) of each tool call the served model makes for `text` with `tools` offered."""
    reply = client.chat.completions.create(
        model=MODEL_ID, messages=[{"role": "user", "content": text}], tools=tools
    )
    calls = reply.choices[0].message.tool_calls or []
    return [(c.function.name, json.loads(c.function.arguments)) for c in calls]


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
