"""The lessons' client: offline by default, a real provider by environment, observed on its wire."""

import socket
import time

import openai
import pytest

from wirelab import llm
from wirelab.offline_model import MODEL_ID

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


@pytest.fixture
def real_provider(monkeypatch):
    monkeypatch.delenv("WIRELAB_OFFLINE", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "https://provider.invalid/v1")


def test_with_no_configuration_the_client_talks_to_the_offline_model_on_loopback():
    made = llm.client()
    assert isinstance(made, openai.OpenAI)
    assert made.base_url.host == "127.0.0.1"
    assert llm.model_name() == MODEL_ID


def test_a_key_a_base_url_and_a_model_switch_to_a_real_provider_without_code_changes(
    real_provider, monkeypatch
):
    monkeypatch.setenv("WIRELAB_MODEL", "some-model")
    made = llm.client()
    assert str(made.base_url) == "https://provider.invalid/v1/"
    assert llm.model_name() == "some-model"
    assert "provider.invalid" in llm.describe_provider()


def test_a_real_provider_without_a_model_name_is_a_clear_error(real_provider):
    with pytest.raises(RuntimeError, match="set WIRELAB_MODEL"):
        llm.model_name()


def test_a_key_without_a_model_name_stops_the_first_cell_with_one_paragraph_not_a_traceback(real_provider):
    with pytest.raises(llm.ProviderNotConfigured) as raised:
        llm.client()
    (shown,) = raised.value._render_traceback_()  # what IPython prints instead of a traceback
    assert "WIRELAB_MODEL is not set" in shown and "WIRELAB_OFFLINE=1" in shown and "\n" not in shown


def test_a_key_without_a_model_name_is_explained_in_chinese_in_chinese(real_provider, monkeypatch):
    monkeypatch.setenv("WIRELAB_LANG", "zh")
    with pytest.raises(llm.ProviderNotConfigured, match="没有设置 WIRELAB_MODEL"):
        llm.client()


def test_wirelab_offline_wins_over_a_key(real_provider, monkeypatch):
    monkeypatch.setenv("WIRELAB_OFFLINE", "1")
    assert llm.client().base_url.host == "127.0.0.1"


def observed():
    made = llm.client()
    seen = []
    made.wire.subscribe(seen.append)
    return made, seen


def test_a_request_and_its_response_are_published_as_one_paired_exchange():
    made, seen = observed()
    made.chat.completions.create(model=llm.model_name(), messages=[{"role": "user", "content": "hi"}])
    request, response = seen
    assert (request.sender, request.kind, response.sender, response.kind) == (
        "client",
        "request",
        "server",
        "response",
    )
    assert request.exchange == response.exchange
    assert request.method == response.method == "POST /v1/chat/completions"
    assert request.payload["messages"] == [{"role": "user", "content": "hi"}]
    assert response.payload["object"] == "chat.completion" and response.status == 200


def test_a_streamed_response_is_published_once_as_the_list_of_its_events():
    made, seen = observed()
    stream = made.chat.completions.create(
        model=llm.model_name(),
        tools=[WEATHER],
        stream=True,
        messages=[{"role": "user", "content": "Weather in Rome?"}],
    )
    chunks = list(stream)
    events = seen[1].payload
    assert events[-1] == "[DONE]"
    assert [e["id"] for e in events[:-1]] == [c.id for c in chunks]


def test_a_refused_request_is_published_as_an_error_with_its_status():
    made, seen = observed()
    with pytest.raises(openai.BadRequestError):
        made.chat.completions.create(model=llm.model_name(), messages=[])
    assert seen[-1].kind == "error" and seen[-1].status == 400
    assert seen[-1].payload["error"]["param"] == "messages"


def test_nothing_is_published_before_anyone_subscribes():
    made = llm.client()
    made.chat.completions.create(model=llm.model_name(), messages=[{"role": "user", "content": "hi"}])
    seen = []
    made.wire.subscribe(seen.append)
    made.chat.completions.create(model=llm.model_name(), messages=[{"role": "user", "content": "hi"}])
    assert len(seen) == 2


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens once the socket is closed


@pytest.fixture
def unreachable_provider(monkeypatch):
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    monkeypatch.delenv("WIRELAB_OFFLINE", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("WIRELAB_MODEL", "some-model")
    return url


def test_an_unreachable_provider_fails_at_once_in_one_paragraph_naming_url_model_and_variables(
    unreachable_provider,
):
    made = llm.client()
    started = time.monotonic()
    with pytest.raises(llm.ProviderUnreachable) as raised:
        made.chat.completions.create(model=llm.model_name(), messages=[{"role": "user", "content": "hi"}])
    assert time.monotonic() - started < 10  # a hang guard: no retries with backoff, no long wait
    message = str(raised.value)
    assert f"{unreachable_provider}/chat/completions" in message
    assert "'some-model'" in message
    for variable in ("OPENAI_BASE_URL", "WIRELAB_MODEL", "OPENAI_API_KEY", "WIRELAB_OFFLINE=1"):
        assert variable in message
    assert "\n" not in message
    assert raised.value._render_traceback_() == [message]  # IPython shows the paragraph, no traceback
    assert isinstance(raised.value, openai.APIConnectionError)  # code catching openai's error still does


def test_a_real_provider_gets_a_short_connect_timeout_and_few_retries(real_provider, monkeypatch):
    monkeypatch.setenv("WIRELAB_MODEL", "some-model")
    made = llm.client()
    assert made.timeout.connect <= 5
    assert made.max_retries <= 1
    assert llm.client(max_retries=4).max_retries == 4  # explicit options still win
