"""When the words choose a tool the request cannot fill, a tool nearer in meaning that it fills
is called instead (`policy.callable_reading`), with tools and requests invented here."""

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.policy import callable_reading
from wirelab.offline_model.selection import PlanItem

CURRENCY = {"type": "string", "description": "ISO 4217 code, e.g. GBP."}
TIP = model_tool(
    "leave_tip",
    "Leave a tip for the waiter at a table, in some currency.",
    {
        "amount": {"type": "number"},
        "currency": CURRENCY,
        "table": {"type": "integer", "description": "Table number."},
    },
    ("amount", "currency", "table"),
)
SCALE = model_tool(
    "log_suitcase_weight",
    "Note the weight of a suitcase before a flight, in kilograms or pounds.",
    {"weight": {"type": "number"}, "unit": {"type": "string", "enum": ["kg", "lb"]}},
    ("weight", "unit"),
)
TOOLS = (TIP, SCALE)


def test_a_tool_the_request_cannot_fill_gives_way_to_a_nearer_one_it_fills():
    item = PlanItem("My suitcase weighs 40 pounds, write that down.", TIP)
    assert callable_reading(item, TOOLS).tool is SCALE


def test_a_tool_the_request_fills_is_kept():
    item = PlanItem("Leave a tip of 5 pounds at table 12.", TIP)
    assert callable_reading(item, TOOLS) is item


def test_a_negated_request_keeps_its_item():
    item = PlanItem("Don't write down that my suitcase weighs 40 pounds.", TIP)
    assert callable_reading(item, TOOLS) is item
