"""Gemini's REST shape: generateContent and streamGenerateContent, over plain HTTP."""

import json

import httpx
import pytest

TOOLS = [
    {
        "functionDeclarations": [
            {
                "name": "get_weather",
                "description": "Current weather for a city.",
                "parameters": {
                    "type": "OBJECT",
                    "properties": {"city": {"type": "STRING"}},
                    "required": ["city"],
                },
            }
        ]
    }
]
ASK = {"role": "user", "parts": [{"text": "What is the weather in Paris and in Tokyo?"}]}


@pytest.fixture(scope="module")
def url(server):
    return server.base_url.removesuffix("/v1") + "/v1beta/models/wirelab-offline"


def _generate(url, contents, **extra):
    return httpx.post(f"{url}:generateContent", json={"contents": contents, "tools": TOOLS, **extra})


def test_function_calls_are_parts_with_args_as_an_object(url):
    reply = _generate(url, [ASK]).json()
    parts = reply["candidates"][0]["content"]["parts"]
    assert parts == [
        {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
        {"functionCall": {"name": "get_weather", "args": {"city": "Tokyo"}}},
    ]
    assert reply["candidates"][0]["finishReason"] == "STOP"


def test_function_responses_are_paired_by_name_in_order(url):
    calls = _generate(url, [ASK]).json()["candidates"][0]["content"]
    responses = {
        "role": "user",
        "parts": [
            {"functionResponse": {"name": "get_weather", "response": {"city": "Paris", "temp_c": 18}}},
            {"functionResponse": {"name": "get_weather", "response": {"city": "Tokyo", "temp_c": 24}}},
        ],
    }
    text = _generate(url, [ASK, calls, responses]).json()["candidates"][0]["content"]["parts"][0]["text"]
    assert "18" in text and "24" in text


def test_a_missing_function_response_gets_googles_error_shape(url):
    calls = _generate(url, [ASK]).json()["candidates"][0]["content"]
    one = {
        "role": "user",
        "parts": [{"functionResponse": {"name": "get_weather", "response": {"temp_c": 18}}}],
    }
    reply = _generate(url, [ASK, calls, one])
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["status"] == "INVALID_ARGUMENT" and "number of function response parts" in error["message"]


def test_mode_none_answers_in_words(url):
    reply = _generate(url, [ASK], toolConfig={"functionCallingConfig": {"mode": "NONE"}}).json()
    assert list(reply["candidates"][0]["content"]["parts"][0]) == ["text"]


def test_streaming_sends_each_call_whole(url):
    body = {"contents": [ASK], "tools": TOOLS}
    with httpx.stream("POST", f"{url}:streamGenerateContent?alt=sse", json=body) as reply:
        chunks = [json.loads(line[6:]) for line in reply.iter_lines() if line.startswith("data: ")]
    parts = [part for chunk in chunks for part in chunk["candidates"][0]["content"]["parts"]]
    assert [part["functionCall"]["args"] for part in parts] == [{"city": "Paris"}, {"city": "Tokyo"}]
    assert chunks[-1]["candidates"][0]["finishReason"] == "STOP"


def test_the_real_google_genai_client_runs_a_round_trip_and_streams(server):
    from google import genai
    from google.genai import errors, types

    options = types.HttpOptions(base_url=server.base_url.removesuffix("/v1"), api_version="v1beta")
    gemini = genai.Client(api_key="offline", http_options=options)
    declaration = types.FunctionDeclaration(
        name="get_weather",
        description="Current weather for a city.",
        parameters=types.Schema(
            type="OBJECT", properties={"city": types.Schema(type="STRING")}, required=["city"]
        ),
    )
    manual = types.AutomaticFunctionCallingConfig(disable=True)
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[declaration])], automatic_function_calling=manual
    )
    question = types.Content(
        role="user", parts=[types.Part(text="What is the weather in Paris and in Tokyo?")]
    )
    reply = gemini.models.generate_content(model="wirelab-offline", contents=[question], config=config)
    assert [call.args for call in reply.function_calls] == [{"city": "Paris"}, {"city": "Tokyo"}]
    answers = [
        types.Part.from_function_response(
            name=call.name, response={"temp_c": 18 if call.args["city"] == "Paris" else 24}
        )
        for call in reply.function_calls
    ]
    contents = [question, reply.candidates[0].content, types.Content(role="user", parts=answers)]
    final = gemini.models.generate_content(model="wirelab-offline", contents=contents, config=config)
    assert "18" in final.text and "24" in final.text
    streamed = gemini.models.generate_content_stream(
        model="wirelab-offline", contents=[question], config=config
    )
    assert [call.args["city"] for chunk in streamed for call in chunk.function_calls or []] == [
        "Paris",
        "Tokyo",
    ]
    with pytest.raises(errors.ClientError, match="number of function response parts"):
        gemini.models.generate_content(model="wirelab-offline", contents=contents[:2], config=config)
