"""Two tasks in one Chinese message, each for its own tool of a household or an office, joined by
a comma or by 并: the lexicon's words for everyday things (风扇, 窗户, 工位, 打印纸, 录制) choose each
clause's tool. The tools and requests are invented here."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool

TEXT = {"type": "string"}
TOOLS = [
    tool("run_fan", "Set the speed of a ceiling fan.", {"speed": {"type": "integer"}}, ("speed",)),
    tool("shut_window", "Close the windows of a room.", {"room": TEXT}, ("room",)),
    tool(
        "record_channel",
        "Record a channel on the TV recorder.",
        {"channel": {"type": "integer"}},
        ("channel",),
    ),
    tool("buy_paper", "Buy reams of printer paper.", {"reams": {"type": "integer"}}, ("reams",)),
]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("把风扇调到3档并关上储藏室的窗户", ["run_fan", "shut_window"]),
        ("买5包打印纸，再录制12频道", ["buy_paper", "record_channel"]),
    ],
)
def test_each_clause_calls_its_own_tool(client, text: str, names: list[str]) -> None:
    reply = client.chat.completions.create(
        model="wirelab-offline", messages=[{"role": "user", "content": text}], tools=TOOLS
    )
    calls = reply.choices[0].message.tool_calls or []
    assert sorted(c.function.name for c in calls) == sorted(names)
    assert all(json.loads(c.function.arguments) for c in calls)
