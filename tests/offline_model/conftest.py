"""What the offline model's tests share: the tool their requests offer, and the offline model
served on 127.0.0.1 with the real `openai` client pointed at it (one per test module)."""

import openai
import pytest

from wirelab.offline_model import serve

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


@pytest.fixture(scope="module")
def server():
    with serve() as running:
        yield running


@pytest.fixture(scope="module")
def client(server):
    return openai.OpenAI(base_url=server.base_url, api_key="offline", max_retries=0)
