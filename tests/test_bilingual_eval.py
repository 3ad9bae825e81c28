"""wirelab.bilingual_eval: the eval set is well formed, its scorer is right, the snapshot holds."""

import datetime
import json
import re
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest

from tests import model_snapshot
from wirelab import bilingual_eval as ev

ROOT = Path(__file__).resolve().parents[1]
CASES = ev.load()
CATEGORIES = {
    "paraphrase",
    "chit_chat",
    "thanks",
    "negation",
    "topic_only",
    "shared_enums",
    "nested_objects",
    "lists",
    "relative_dates",
    "multiple_intents",
    "follow_up",
    "correction",
    "cross_lingual",
}
CJK = re.compile(r"[\u4e00-\u9fff]")


def one_accepted(options):
    """A concrete value the scorer accepts; None when the argument may be left out."""
    if "" in options:
        return None
    return concrete(options[0])


def concrete(pattern):
    if isinstance(pattern, dict):
        return {k: one_accepted(v) for k, v in pattern.items() if one_accepted(v) is not None}
    if isinstance(pattern, list):
        return [concrete(item) for item in pattern]
    return pattern


def reference_calls(case):
    return [{"name": e["name"], "arguments": concrete(e["arguments"])} for e in case.expected]


def test_the_set_is_big_enough_and_a_third_chinese():
    assert len(CASES) >= 300
    assert sum(case.language == "zh" for case in CASES) * 3 >= len(CASES)
    assert len({case.id for case in CASES}) == len(CASES)


def test_every_category_has_cases_in_both_languages():
    for category in CATEGORIES:
        languages = {case.language for case in CASES if case.category == category}
        assert languages == {"en", "zh"}, category
    assert {case.category for case in CASES} == CATEGORIES


def test_chinese_cases_are_written_in_chinese_and_some_tools_are_described_in_chinese():
    for case in CASES:
        last_user = [m["content"] for m in case.messages if m["role"] == "user"][-1]
        assert bool(CJK.search(last_user)) == (case.language == "zh"), case.id
    descriptions = {t["function"]["description"] for case in CASES for t in case.tools}
    assert sum(bool(CJK.search(d)) for d in descriptions) >= 4


def described_in_chinese(tool) -> bool:
    return bool(CJK.search(tool["function"]["description"]))


def test_cross_lingual_cases_ask_in_one_language_for_tools_described_in_the_other():
    crossed = [case for case in CASES if case.category == "cross_lingual"]
    assert len(crossed) >= 60 and {case.language for case in crossed} == {"en", "zh"}
    for case in crossed:
        wanted = {call["name"] for call in case.expected}
        described = {described_in_chinese(t) for t in case.tools if t["function"]["name"] in wanted}
        assert described == {case.language == "en"}, case.id
        if case.language == "zh":
            assert not any(described_in_chinese(t) for t in case.tools), case.id


def test_there_are_forty_paraphrases_more_than_the_first_set():
    assert sum(case.category == "paraphrase" for case in CASES) >= 53


def test_no_four_word_phrase_of_the_set_comes_from_bfcl():
    from tests.offline_model.test_no_benchmark_leak import bfcl_cases, phrases, user_texts

    ours = set().union(*(phrases(text) for text in user_texts(CASES)))
    theirs = set().union(*(phrases(text) for text in user_texts(bfcl_cases())))
    assert not ours & theirs


def test_each_case_states_the_reference_date_so_relative_dates_have_one_answer():
    data = json.loads(ev.DEFAULT_PATH.read_text())
    day = datetime.date.fromisoformat(data["reference_date"])
    english, chinese = f"{day:%A}, {day.day} {day:%B %Y}", f"{day.year}年{day.month}月{day.day}日"
    for case in CASES:
        system = case.messages[0]
        assert system["role"] == "system" and (english in system["content"] or chinese in system["content"])


def test_the_expected_calls_are_valid_calls_of_the_offered_tools():
    for case in CASES:
        schemas = {t["function"]["name"]: t["function"]["parameters"] for t in case.tools}
        for call in reference_calls(case):
            jsonschema.validate(call["arguments"], schemas[call["name"]])
        assert ev.judge(case, reference_calls(case)).ok, case.id


def test_no_call_categories_expect_no_call_and_the_others_expect_calls():
    for case in CASES:
        silent = case.category in {"chit_chat", "thanks", "negation", "topic_only"}
        if silent:
            assert case.expected == [], case.id
        elif case.category != "correction":
            assert case.expected, case.id
    multi = [case for case in CASES if case.category == "multiple_intents"]
    assert all(len(case.expected) >= 2 for case in multi)


def test_follow_ups_and_corrections_carry_an_earlier_call_and_its_result():
    for case in CASES:
        if case.category in {"follow_up", "correction"}:
            roles = [m["role"] for m in case.messages]
            assert "tool" in roles and roles.index("assistant") < roles.index("tool"), case.id
    mcp = [
        c
        for c in CASES
        if c.category == "correction" and any('"isError": true' in str(m) for m in c.messages)
    ]
    assert len(mcp) >= 4


@pytest.mark.parametrize(
    ("accepted", "value", "ok"),
    [
        ("New York", "new-york", True),
        ("Luigi's", "LUIGIS", True),
        ("上海", "上海。", True),
        ("上海", "Shanghai", False),
        (2, 2.0, True),
        (10, "10", False),
        (True, 1, False),
        (["a", "b"], ["b", "a"], True),
        (["a", "b"], ["a"], False),
        ({"name": ["Ann"], "phone": ["", "1"]}, {"name": "ann"}, True),
        ({"name": ["Ann"]}, {"name": "Ann", "phone": "1"}, False),
        ([{"q": [3]}], [{"q": 3}], True),
    ],
)
def test_values_match_by_meaning_not_by_spelling(accepted, value, ok):
    assert ev.value_matches(accepted, value) is ok


def test_a_case_passes_only_with_exactly_the_expected_calls_in_any_order():
    case = next(c for c in CASES if c.category == "multiple_intents")
    calls = reference_calls(case)
    assert ev.judge(case, calls[::-1]).ok
    assert "expected" in ev.judge(case, calls[:1]).reason
    assert not ev.judge(case, [*calls, calls[0]]).ok
    extra = [{**calls[0], "arguments": {**calls[0]["arguments"], "surprise": 1}}, *calls[1:]]
    assert "no call matches" in ev.judge(case, extra).reason


def test_a_no_call_case_fails_on_any_call():
    case = next(c for c in CASES if c.category == "negation")
    assert ev.judge(case, []).ok
    name = case.tools[0]["function"]["name"]
    assert not ev.judge(case, [{"name": name, "arguments": {}}]).ok


def test_replies_with_bad_json_arguments_are_judged_not_crashed():
    call = SimpleNamespace(function=SimpleNamespace(name="f", arguments="{oops"))
    reply = SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(tool_calls=[call]))])
    assert ev.calls_of(reply) == [{"name": "f", "arguments": "{oops"}]
    case = next(c for c in CASES if c.category == "paraphrase")
    assert not ev.judge(case, [{"name": case.expected[0]["name"], "arguments": "{oops"}]).ok


def test_a_file_naming_an_unknown_tool_is_refused_clearly(tmp_path):
    bad = tmp_path / "eval.json"
    bad.write_text(
        json.dumps(
            {
                "tools": [],
                "cases": [
                    {
                        "id": "x",
                        "category": "c",
                        "language": "en",
                        "messages": [],
                        "tools": ["nope"],
                        "expected": [],
                    }
                ],
            }
        )
    )
    with pytest.raises(ValueError, match="unknown tool"):
        ev.load(bad)


def test_the_table_shows_each_category_by_language():
    outcomes = [ev.judge(case, reference_calls(case)) for case in CASES]
    table = ev.table(outcomes)
    assert table.splitlines()[0] == "| category | en | zh | all |"
    en, zh, n = sum(c.language == "en" for c in CASES), sum(c.language == "zh" for c in CASES), len(CASES)
    assert f"| **all** | {en}/{en} (100%) | {zh}/{zh} (100%) | {n}/{n} (100%) |" in table


def test_the_offline_model_makes_the_snapshot_calls_on_the_eval_set():
    """Case by case, the calls and verdicts of tests/model_snapshot.json (scripts/update_floors.py)."""
    model_snapshot.assert_unchanged("eval_set", model_snapshot.eval_set(CASES))
