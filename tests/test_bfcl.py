"""wirelab.bfcl: BFCL's cases become Chat Completions requests, and BFCL's checker judges the replies."""

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests import model_snapshot
from wirelab import bfcl


def tool_call(name, arguments):
    return SimpleNamespace(function=SimpleNamespace(name=name, arguments=arguments))


def first_accepted(options):
    """One value BFCL accepts for a parameter, nested dicts too; "" (leave it out) when allowed."""
    chosen = "" if "" in options else options[0]
    if isinstance(chosen, dict):
        return {key: first_accepted(values) for key, values in chosen.items() if first_accepted(values) != ""}
    return chosen


def reference_calls(case):
    return [
        {
            bfcl.tool_name(name): {
                param: first_accepted(options)
                for param, options in params.items()
                if first_accepted(options) != ""
            }
        }
        for expected in case.answer
        for name, params in expected.items()
    ]


def test_every_category_loads_with_its_answers():
    for category in bfcl.CATEGORIES:
        cases = bfcl.load(category)
        assert len(cases) >= 200, category
        assert all(case.category == category and case.messages for case in cases)
        assert all(case.functions or case.irrelevance for case in cases)
        assert all((case.answer is None) == ("irrelevance" in category) for case in cases)


def test_ids_name_their_category():
    assert bfcl.category_of("live_simple_12-3-0") == "live_simple"
    assert bfcl.category_of("parallel_multiple_7") == "parallel_multiple"
    assert bfcl.category_of("simple_python_0") == "simple_python"
    with pytest.raises(ValueError, match="not an id"):
        bfcl.category_of("multi_turn_base_3")


def test_an_unknown_category_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="simple_python"):
        bfcl.load("simple_java")


def test_an_unknown_id_is_refused_by_name():
    with pytest.raises(ValueError, match="simple_python_9999"):
        bfcl.load_ids(["simple_python_1", "simple_python_9999"])
    with pytest.raises(ValueError, match="not an id"):
        bfcl.load_ids(["exec_simple_1"])


def test_a_missing_package_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(bfcl.importlib.util, "find_spec", lambda name: None)
    assert not bfcl.installed()
    with pytest.raises(ModuleNotFoundError, match="--no-deps"):
        bfcl.load("simple_python")


def test_gorilla_types_become_json_schema_at_every_depth():
    doc = {
        "name": "geo.distance",
        "description": "Distance between points.",
        "parameters": {
            "type": "dict",
            "required": ["points"],
            "properties": {
                "points": {"type": "array", "items": {"type": "tuple", "items": {"type": "float"}}},
                "options": {"type": "dict", "properties": {"unit": {"type": "string", "enum": ["km", "mi"]}}},
                "extra": {"type": "any"},
            },
        },
    }
    [tool] = bfcl.to_tools([doc])
    function = tool["function"]
    assert tool["type"] == "function" and function["name"] == "geo_distance"
    params = function["parameters"]
    assert params["type"] == "object" and params["required"] == ["points"]
    assert params["properties"]["points"] == {
        "type": "array",
        "items": {"type": "array", "items": {"type": "number"}},
    }
    assert params["properties"]["options"]["properties"]["unit"] == {"type": "string", "enum": ["km", "mi"]}
    assert params["properties"]["extra"] == {"type": "string"}
    assert doc["parameters"]["type"] == "dict", "the BFCL doc itself is left unchanged"


def test_tool_calls_come_back_in_bfcls_form():
    calls = [tool_call("math_factorial", '{"number": 5}'), tool_call("now", "")]
    assert bfcl.from_tool_calls(calls) == [{"math_factorial": {"number": 5}}, {"now": {}}]
    assert bfcl.from_tool_calls(None) == []
    with pytest.raises(ValueError):
        bfcl.from_tool_calls([tool_call("f", "{not json")])
    with pytest.raises(ValueError, match="not a JSON object"):
        bfcl.from_tool_calls([tool_call("f", "[1, 2]")])


@pytest.mark.parametrize("category", [c for c in bfcl.CATEGORIES if "irrelevance" not in c])
def test_the_checker_accepts_a_call_built_from_the_possible_answers(category):
    for case in bfcl.load(category)[:15]:
        result = bfcl.check(case, reference_calls(case))
        assert result.valid, (case.id, result.error_type, result.error)


def test_the_checker_compares_values_not_strings():
    case = next(c for c in bfcl.load("simple_python") if c.id == "simple_python_1")
    [expected] = reference_calls(case)
    [(name, arguments)] = expected.items()
    assert bfcl.check(case, [{name: arguments}]).valid
    wrong = {key: 999_999 if isinstance(value, int) else "nonsense" for key, value in arguments.items()}
    verdict = bfcl.check(case, [{name: wrong}])
    assert not verdict.valid and verdict.error_type.startswith("value_error")
    assert bfcl.check(case, [{"some_other_tool": arguments}]).error_type.endswith("wrong_func_name")
    assert bfcl.check(case, []).error_type == bfcl.NO_CALL


def test_in_an_irrelevance_case_any_call_is_wrong_and_no_call_is_right():
    case = bfcl.load("irrelevance")[0]
    name = bfcl.tool_name(case.functions[0]["name"])
    assert bfcl.check(case, []).valid
    verdict = bfcl.check(case, [{name: {}}])
    assert not verdict.valid and verdict.error_type == bfcl.CALLED_ANYWAY


CHECKER_IN_A_FRESH_PROCESS = """
import json, sys
from tests import model_snapshot
from wirelab import bfcl
bfcl.check(bfcl.load("simple_python")[0], [])
bfcl._ast_checker()
print(json.dumps(sorted(sys.modules)))
"""


def test_the_checker_is_imported_without_any_provider_sdk():
    # A fresh process: other tests in this one import provider SDKs the course uses (anthropic).
    run = subprocess.run(
        [sys.executable, "-c", CHECKER_IN_A_FRESH_PROCESS], capture_output=True, text=True, check=True
    )
    modules = set(json.loads(run.stdout.splitlines()[-1]))
    assert "bfcl_eval.eval_checker.ast_eval.ast_checker" in modules
    assert "bfcl_eval.constants.model_config" not in modules, "the stand-in is taken out again"
    assert not {"anthropic", "cohere", "boto3", "mistralai"} & modules


def test_a_stratified_sample_is_reproducible_and_even():
    ids = bfcl.stratified_sample(20, seed=7)
    assert ids == bfcl.stratified_sample(20, seed=7) != bfcl.stratified_sample(20, seed=8)
    per_category = [sum(bfcl.category_of(i) == c for i in ids) for c in bfcl.CATEGORIES]
    assert per_category == [3, 3, 3, 3, 2, 2, 2, 2]
    assert sorted(case.id for case in bfcl.load_ids(ids)) == sorted(ids)


def test_cases_run_through_the_real_openai_client_against_the_offline_model():
    cases = [bfcl.load(category)[0] for category in bfcl.CATEGORIES]
    results = bfcl.run(cases)
    assert [r.case for r in results] == cases
    assert all(r.valid == (r.error_type == "") for r in results)
    assert all(r.error_type != bfcl.REQUEST_FAILED for r in results), [r.error for r in results]
    scores = bfcl.scores(results)
    assert list(scores) == list(bfcl.CATEGORIES)
    assert sum(s.total for s in scores.values()) == len(cases)
    json.dumps([r.calls for r in results])  # plain JSON values, ready for a report


ROOT = Path(__file__).resolve().parents[1]
SAMPLE = json.loads((ROOT / "assets" / "bfcl_ci_sample.json").read_text())


def test_the_ci_sample_is_the_seeded_stratified_draw():
    assert SAMPLE["ids"] == bfcl.stratified_sample(SAMPLE["size"], SAMPLE["seed"])
    assert len(set(SAMPLE["ids"])) == SAMPLE["size"] == 100


def test_the_offline_model_makes_the_snapshot_calls_on_the_ci_sample():
    """Case by case, the calls and verdicts of tests/model_snapshot.json (scripts/update_floors.py)."""
    model_snapshot.assert_unchanged("bfcl_sample", model_snapshot.bfcl_sample())
