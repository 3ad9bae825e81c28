"""Guardrails: dirty results cleaned, and the errors that stop a run do stop it."""

import json

import pytest

from wirelab.errors import PermissionDenied, ToolError, error_of
from wirelab.guardrails import Guard, RunStopped, clean_result, looks_like_html, sequential, truncate
from wirelab.parallel import ThreadExecutor
from wirelab.tools import ToolRegistry

BAD_GATEWAY = "<!DOCTYPE html>\n<html><head><title>502 Bad\n Gateway</title></head><body>nginx</body></html>"


def call(name, arguments=None, call_id="call_1"):
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments or {})},
    }


def lookup(order_id: str) -> str:
    """Look an order up."""
    if order_id != "ord_1":
        raise ToolError("not_found", f"no order {order_id!r}")
    return "found"


def delete_invoice(invoice_id: str) -> str:
    """Delete an invoice (not allowed for this user)."""
    raise PermissionDenied("this user may not delete invoices")


TOOLS = ToolRegistry([lookup, delete_invoice])


def test_an_html_error_page_becomes_a_short_structured_error_quoting_its_title():
    error = error_of(clean_result(BAD_GATEWAY))
    assert error["code"] == "upstream_error"
    assert "'502 Bad Gateway'" in error["message"]


def test_html_is_recognised_only_at_the_start_of_a_result():
    assert looks_like_html("  <html lang=en>") and looks_like_html("<!doctype HTML>")
    assert not looks_like_html('{"snippet": "<html> is a tag"}')


def test_an_oversized_result_is_cut_with_a_note_saying_how_much_was_left_out():
    cut = truncate("x" * 5000, 100)
    assert cut.startswith("x" * 100 + "\n[truncated: showing 100 of 5,000 characters")
    assert truncate("short", 100) == "short"


def test_control_characters_and_terminal_colours_are_removed():
    assert clean_result("\x1b[31mred\x1b[0m\x00 ok\tfine\n") == "red ok\tfine\n"


def test_a_permission_error_stops_the_run_instead_of_going_back_to_the_model():
    guard = Guard()
    with pytest.raises(RunStopped) as caught:
        guard([call("delete_invoice", {"invoice_id": "inv_1"})], TOOLS)
    assert caught.value.code == "permission_denied"
    assert caught.value.call["function"]["name"] == "delete_invoice"
    assert len(guard.transcript) == 1


def test_a_correctable_error_goes_back_to_the_model():
    results = Guard()([call("lookup", {"order_id": "ord_9"})], TOOLS)
    assert error_of(results[0])["code"] == "not_found"


def test_the_self_correction_cap_stops_a_model_that_keeps_failing_on_one_tool():
    guard = Guard(max_corrections=2)
    for _ in range(2):
        guard([call("lookup", {"order_id": "ord_9"})], TOOLS)
    with pytest.raises(RunStopped) as caught:
        guard([call("lookup", {"order_id": "ord_9"})], TOOLS)
    assert caught.value.code == "correction_cap"


def test_a_success_resets_the_count_of_failures_in_a_row():
    guard = Guard(max_corrections=1)
    for order in ("ord_9", "ord_1", "ord_9", "ord_1"):
        guard([call("lookup", {"order_id": order})], TOOLS)
    assert guard.failures["lookup"] == 0


def test_the_global_budget_stops_the_run_before_running_the_call_over_it():
    ran = []
    guard = Guard(sequential(lambda c, tools: ran.append(c) or "ok"), max_calls=3)
    guard([call("lookup"), call("lookup", call_id="call_2")], TOOLS)
    with pytest.raises(RunStopped) as caught:
        guard([call("lookup"), call("lookup", call_id="call_2")], TOOLS)
    assert caught.value.code == "budget" and len(ran) == 2 and guard.calls_made == 2


def test_results_are_cleaned_before_the_guard_judges_them():
    guard = Guard(sequential(lambda c, tools: BAD_GATEWAY))
    assert error_of(guard([call("lookup")], TOOLS)[0])["code"] == "upstream_error"


def test_a_guard_wraps_a_parallel_executor_and_keeps_its_order():
    results = Guard(ThreadExecutor())(
        [call("lookup", {"order_id": "ord_1"}), call("lookup", {"order_id": "x"}, "call_2")], TOOLS
    )
    assert results[0] == "found" and error_of(results[1])["code"] == "not_found"


@pytest.mark.parametrize("options", [{"max_calls": 0}, {"max_corrections": -1}, {"max_chars": 0}])
def test_nonsense_limits_are_refused(options):
    with pytest.raises(ValueError):
        Guard(**options)


def test_error_of_reads_only_real_structured_errors():
    assert error_of(PermissionDenied("no").content()) == {"code": "permission_denied", "message": "no"}
    for not_an_error in ('{"temp": 18}', "plain", '{"error": "a string"}', "[1]", '{"error": {}}'):
        assert error_of(not_an_error) is None, not_an_error
