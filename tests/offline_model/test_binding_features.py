"""Binding weighs named features of each (parameter, value) pair (`fit.FEATURES`), on tools and
requests invented here: what each feature reads, the vetoes that are type checking, and
`binding.reasons`, which `explain` shows for every bound argument."""

from __future__ import annotations

import pytest

from wirelab.offline_model import fit
from wirelab.offline_model.binding import bind, reasons
from wirelab.offline_model.evidence import Evidence
from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import slots_of

FERRY = Tool(
    "book_ferry",
    "Book a ferry crossing.",
    {
        "type": "object",
        "properties": {
            "departure_port": {"type": "string", "description": "Port it leaves from."},
            "arrival_port": {"type": "string", "description": "Port it arrives at."},
            "cabins": {"type": "integer", "description": "Number of cabins."},
            "vehicle_length_m": {"type": "number", "description": "Car length in metres."},
        },
        "required": ["departure_port", "arrival_port"],
    },
)


def _rows(tool: Tool, text: str) -> dict[tuple[str, str], dict[str, float] | None]:
    evidence = Evidence.of(tool, text)
    return {
        (slot.name, value.text): fit.features(slot, value, evidence)
        for slot in slots_of(tool.parameters, tool.parameters)
        for value in evidence.values
        if fit.typed_value(slot, value, evidence) is not None
    }


def test_every_feature_has_a_weight_and_a_test():
    assert set(fit.weights().weights) == set(fit.NAMES)
    assert len(set(fit.NAMES)) == len(fit.FEATURES)
    assert all(f.test and f.example for f in fit.FEATURES)


def test_position_and_unit_are_named_features():
    rows = _rows(FERRY, "a crossing from Visby to Nynashamn, 2 cabins, our van is 6 metres long")
    assert rows["departure_port", "Visby"]["position"] == 1.0
    assert rows["arrival_port", "Visby"]["position_opposite"] == 1.0
    assert rows["arrival_port", "Nynashamn"]["position"] == 1.0
    assert rows["vehicle_length_m", "6"]["same_dimension"] == 1.0
    assert rows["cabins", "6"]["measured_count"] == 1.0
    assert rows["cabins", "2"]["label"] > 0


def test_a_value_that_cannot_fill_a_parameter_is_vetoed_not_weighed():
    rows = _rows(FERRY, "from Visby with a 6 metre van")
    assert rows["departure_port", "6"] is None  # a measured quantity is no place


def test_the_points_are_the_weighed_features():
    row = {"label": 3.0, "same_kind": 1.0}
    fitted = fit.weights()
    assert fitted.points(row) == pytest.approx(
        fitted.bias + 3.0 * fitted.weights["label"] + fitted.weights["same_kind"]
    )


def test_reasons_give_each_bound_argument_its_features_and_points():
    text = "a crossing from Visby to Nynashamn, 2 cabins"
    found = reasons(FERRY, text)
    assert {name: r["value"] for name, r in found.items()} == {
        name: v for name, v in bind(FERRY, text, guess=False).items() if name in found
    }
    departure = found["departure_port"]
    assert departure["value"] == "Visby" and "position" in departure["contributions"]
    assert departure["points"] == pytest.approx(
        fit.weights().bias + sum(departure["contributions"].values()), abs=0.01
    )


def test_explain_shows_the_features_behind_each_bound_argument():
    from wirelab.offline_model.explain import explain

    tool = {"type": "function", "function": {"name": FERRY.name, "description": FERRY.description}}
    tool["function"]["parameters"] = FERRY.parameters
    message = {"role": "user", "content": "Book a ferry crossing from Visby to Nynashamn"}
    stages = {
        s["stage"]: s["decision"]
        for s in explain({"model": "wirelab-offline", "tools": [tool], "messages": [message]})["stages"]
    }
    assert stages["bind"]["book_ferry"]["arrival_port"]["value"] == "Nynashamn"
    assert "position" in stages["bind"]["book_ferry"]["arrival_port"]["contributions"]


def test_the_binding_weights_are_written_for_the_current_corpus():
    """Stale weights fail: `scripts/train_offline_model.py` stamps them with the corpus's hash."""
    import json

    from wirelab.offline_model import training

    data = json.loads(fit.WEIGHTS.read_text(encoding="utf-8"))
    assert data["corpus_sha256"] == training.corpus_hash(), "run scripts/train_offline_model.py"
    assert data["chosen"] in data["held_out_exact"] and data["best_held_out"] in data["held_out_exact"]
