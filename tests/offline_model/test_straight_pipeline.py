"""A straight pipeline (issue 22): a piece's values are extracted once, and each stage reads the
evidence binding built instead of binding the same text again. Tools and requests invented here."""

from collections import Counter

import pytest

from tests.offline_model.conftest import model_tool
from wirelab.offline_model import MODEL_ID, calls, complete, evidence, meaning
from wirelab.offline_model.selection import PlanItem, own_points
from wirelab.offline_model.sharing import bind_plan, with_calls

PARCEL = model_tool(
    "ship_parcel",
    "Send a parcel by courier between two towns.",
    {"weight_kg": {"type": "number"}, "origin": {"type": "string"}, "destination": {"type": "string"}},
    ("weight_kg", "origin", "destination"),
)
FERN = model_tool(
    "water_plant",
    "Water a house plant with some millilitres of water.",
    {"plant": {"type": "string"}, "millilitres": {"type": "integer"}},
    ("plant", "millilitres"),
)
KILN = model_tool(
    "fire_kiln",
    "Fire the pottery kiln to a temperature in Celsius.",
    {"celsius": {"type": "integer"}},
    ("celsius",),
)
TOOLS = (PARCEL, FERN, KILN)
WIRE_TOOLS = [
    {
        "type": "function",
        "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
    }
    for t in TOOLS
]


@pytest.fixture
def counted(monkeypatch):
    """How often values are extracted and an Evidence is built, from here on (`texts`: each text
    extraction read), with no piece's values left from an earlier test."""
    counts: Counter[str] = Counter()
    extract, of = evidence.extract, evidence.Evidence.of.__func__
    evidence.Words.of.cache_clear()

    def counting_extract(text, *args, **kwargs):
        counts["extract"] += 1
        counts.texts.append(text)
        return extract(text, *args, **kwargs)

    def counting_of(cls, *args, **kwargs):
        counts["Evidence.of"] += 1
        return of(cls, *args, **kwargs)

    counts.texts = []
    monkeypatch.setattr(evidence, "extract", counting_extract)
    monkeypatch.setattr(evidence.Evidence, "of", classmethod(counting_of))
    return counts


@pytest.mark.parametrize(
    "request_text",
    [
        "send 2 kg from Ghent to Namur, then water the fern with 200 ml",
        "fire the kiln to 1200 degrees and water the cactus with 50 ml",
        "把2公斤的包裹从根特寄到那慕尔，然后给蕨类植物浇200毫升水",
    ],
)
def test_a_request_extracts_each_of_its_pieces_once(counted, request_text):
    """Splitting, selection, binding and planning read one piece's values from the same `Words`."""
    complete(
        {"model": MODEL_ID, "messages": [{"role": "user", "content": request_text}], "tools": WIRE_TOOLS}
    )
    again = [text for text, times in Counter(counted.texts).items() if times > 1]
    assert not again, f"extracted more than once: {again}"


def test_selection_by_meaning_extracts_a_piece_once_and_binds_it_once_per_tool(counted):
    meaning.features("send 2 kg from Ghent to Namur", TOOLS, own_points, meaning.weights().probe)
    assert counted == {"extract": 1, "Evidence.of": len(TOOLS)}


def test_a_plan_item_bound_once_is_not_bound_again_by_the_plan(counted):
    item = with_calls(PlanItem("send 2 kg from Ghent to Namur", PARCEL))
    assert counted["Evidence.of"] == 1
    [bound] = bind_plan([item])
    assert bound.arguments == {"weight_kg": 2, "origin": "Ghent", "destination": "Namur"}
    assert counted["Evidence.of"] == 1


def test_the_frames_read_the_binding_of_the_whole_text(counted):
    found = calls.bind_all(FERN, "give the fern 200 ml", guess=False)
    assert found == [{"plant": "fern", "millilitres": 200}]
    assert counted["Evidence.of"] == 1
