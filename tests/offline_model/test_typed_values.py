"""A value of a parameter's own kind says which tool a request means: `typed_margin`.

"Fire it up for 45 minutes" shares no word with a sauna tool, but its duration fits the
sauna's duration parameter and no other tool offered; free text fits any tool, so it does not count.
"""

from __future__ import annotations

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete
from wirelab.offline_model.binding import bind_evidence
from wirelab.offline_model.calls import typed_values
from wirelab.offline_model.evidence import Words
from wirelab.offline_model.meaning import features, weights
from wirelab.offline_model.request import Tool
from wirelab.offline_model.selection import own_points

MINUTES = {"type": "integer", "description": "Session length in minutes"}
SAUNA = tool("heat_sauna", "Heat the sauna for a session.", {"duration_min": MINUTES}, ("duration_min",))
CAMERA = tool("snap_photo", "Take a photo with the doorbell camera.", {"note": {"type": "string"}}, ("note",))
MOWER = tool(
    "mow_lawn",
    "Send the robot mower out on the lawn.",
    {"zone": {"type": "string", "enum": ["front", "back"]}},
    ("zone",),
)
CLOCK = tool(
    "morning_call",
    "Ring the bedside clock at a set time.",
    {"at": {"type": "string", "description": "Clock time, HH:MM"}},
    ("at",),
)


def test_a_duration_for_a_duration_parameter_is_typed_and_free_text_is_not() -> None:
    sauna, camera = Tool(**SAUNA["function"]), Tool(**CAMERA["function"])
    words = Words.of("Fire it up for 45 minutes.")
    assert typed_values(sauna, bind_evidence(sauna, words)) == 1
    assert typed_values(camera, bind_evidence(camera, words)) == 0


def test_a_lone_tool_has_no_typed_margin() -> None:
    [row] = features("Fire it up for 45 minutes.", (Tool(**SAUNA["function"]),), own_points, weights().probe)
    assert row["typed_margin"] == 0.0


@pytest.mark.parametrize(
    ("text", "name", "arguments"),
    [
        ("Fire it up for 45 minutes.", "heat_sauna", '{"duration_min":45}'),
        ("I'd like a 30 minute steam tonight.", "heat_sauna", '{"duration_min":30}'),
        ("Rouse me at 6:40.", "morning_call", '{"at":"06:40"}'),
        ("蒸四十分钟。", "heat_sauna", '{"duration_min":40}'),
    ],
)
def test_a_request_whose_value_fits_one_tool_calls_it(text: str, name: str, arguments: str) -> None:
    body = {"model": "wirelab-offline", "tools": [SAUNA, CAMERA, MOWER, CLOCK]}
    reply = complete({**body, "messages": [{"role": "user", "content": text}]})
    calls = reply["choices"][0]["message"].get("tool_calls") or []
    assert [(c["function"]["name"], c["function"]["arguments"]) for c in calls] == [(name, arguments)]


def test_talk_without_a_value_still_calls_nothing() -> None:
    body = {"model": "wirelab-offline", "tools": [SAUNA, CAMERA, MOWER, CLOCK]}
    reply = complete({**body, "messages": [{"role": "user", "content": "I love a hot steam."}]})
    assert not reply["choices"][0]["message"].get("tool_calls")
