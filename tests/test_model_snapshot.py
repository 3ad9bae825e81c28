"""tests/model_snapshot.py and scripts/update_floors.py: a changed call fails, a loss is never written."""

import importlib.util
import json
import re

import pytest

from tests import model_snapshot as ms

FAIL = pytest.fail.Exception


def entry(passed, name="f", **arguments):
    return ms.Entry.of(passed, [{"name": name, "arguments": arguments}])


def test_the_committed_snapshot_is_in_canonical_form_one_line_per_case():
    text = ms.PATH.read_text(encoding="utf-8")
    snapshot = ms.load()
    assert ms.dumps(snapshot) == text, f"written by hand? rewrite it with {ms.REFRESH}"
    assert json.loads(text)["eval_set"]["calls"]  # plain JSON too
    case_lines = [line for line in text.splitlines() if line.startswith('   "')]
    assert len(case_lines) == sum(len(suite) for suite in snapshot.values())


def test_calls_are_compared_by_value_not_by_spelling():
    assert ms.Entry.of(True, [{"name": "f", "arguments": {"b": 1, "a": "上海"}}]) == entry(
        True, a="上海", b=1
    )
    assert entry(True, a=1) != entry(True, a=1.5)
    assert entry(True).shown() == "f({})" and ms.Entry.of(False, []).shown() == "no call"


def test_each_differing_case_is_sorted_by_kind():
    old = {"a": entry(True), "b": entry(False), "c": entry(True, x=1), "d": entry(False), "e": entry(True)}
    new = {"a": entry(False), "b": entry(True), "c": entry(True, x=2), "d": entry(False), "n": entry(True)}
    diff = ms.compare("t", old, new)
    assert (diff.lost, diff.gained, diff.changed, diff.added, diff.removed) == (
        ["a"],
        ["b"],
        ["c"],
        ["n"],
        ["e"],
    )
    assert not ms.compare("t", new, dict(new))
    crashed = {"d": ms.Entry.of(False, [], "Error code: 500")}  # no call either way, but no decision now
    assert ms.compare("t", {"d": ms.Entry.of(False, [])}, crashed).changed == ["d"]


def real_bfcl_cases():
    """One case the model passes and one it fails, as the model answers them now."""
    committed = ms.load()["bfcl_sample"]
    ids = [
        next(c for c, e in committed.items() if e.passed),
        next(c for c, e in committed.items() if not e.passed),
    ]
    return ids, ms.bfcl_sample(ids)


def test_the_check_passes_when_the_model_makes_the_snapshot_calls():
    ids, now = real_bfcl_cases()
    ms.assert_unchanged("bfcl_sample", now, {"bfcl_sample": dict(now)})


def test_a_regressed_case_fails_the_check_with_its_id_and_old_and_new_calls():
    (passing, failing), now = real_bfcl_cases()
    snapshot = {**now, failing: entry(True, "an_earlier_call", city="Paris")}  # "it used to pass"
    with pytest.raises(FAIL) as failed:
        ms.assert_unchanged("bfcl_sample", now, {"bfcl_sample": snapshot})
    message = str(failed.value)
    assert f"LOST {failing}" in message and passing not in message
    assert (
        'was: an_earlier_call({"city": "Paris"})' in message and f"now: {now[failing].shown(160)}" in message
    )
    assert (
        "1 LOST (passed, now fails): a regression. Fix the model" in message and "--accept-losses" in message
    )
    assert max(len(line) for line in message.splitlines()) <= 200


def test_a_changed_but_passing_case_fails_the_check_asking_for_a_refresh():
    (passing, _), now = real_bfcl_cases()
    snapshot = {**now, passing: entry(True, "another_call")}
    with pytest.raises(FAIL) as failed:
        ms.assert_unchanged("bfcl_sample", now, {"bfcl_sample": snapshot})
    message = str(failed.value)
    assert f"changed {passing} (passes)" in message and "LOST" not in message
    assert "refresh the snapshot: `python scripts/update_floors.py`" in message


def test_a_verdict_that_changed_with_the_same_calls_says_so():
    assert ms.was_and_now(entry(True, x=1), entry(False, x=1)) == ['same calls: f({"x": 1})']
    two = [{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}}]
    assert ms.was_and_now(ms.Entry.of(True, two), ms.Entry.of(True, two[::-1])) == [
        "2 calls as before",
        "(the same calls in another order)",
    ]


def test_a_long_diff_is_cut_short_in_the_test_message():
    old = {f"c{i}": entry(False) for i in range(30)}
    message = ms.compare("t", old, {c: entry(True) for c in old}).failure()
    assert "… and 22 more gained" in message and len(message.splitlines()) < 30


@pytest.fixture
def update_floors(tmp_path, monkeypatch):
    """scripts/update_floors.py on a snapshot in tmp_path, with the model's run faked."""
    spec = importlib.util.spec_from_file_location("update_floors", ms.ROOT / "scripts" / "update_floors.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setattr(ms, "PATH", tmp_path / "snapshot.json")
    monkeypatch.setenv("WIRELAB_OFFLINE", "1")

    def run(old, new, *flags):
        ms.PATH.write_text(ms.dumps(old), encoding="utf-8")
        monkeypatch.setattr(ms, "take", lambda: new)
        monkeypatch.setattr("sys.argv", ["update_floors.py", *flags])
        return script.main(), ms.load()

    return run


def suites(bfcl, eval_set=None):
    return {"bfcl_sample": bfcl, "eval_set": eval_set or {"e": entry(True)}}


def test_the_script_writes_gains_and_changed_calls(update_floors, capsys):
    old, new = (
        suites({"a": entry(False)}, {"b": entry(True, x=1)}),
        suites({"a": entry(True)}, {"b": entry(True, x=2)}),
    )
    assert update_floors(old, new, "--cases") == (0, new)
    out = capsys.readouterr().out
    assert "gained a" in out and "changed b (passes)" in out and 'was: f({"x": 1})' in out and "Wrote" in out


def test_the_script_prints_counts_and_names_no_case_unless_asked(update_floors, capsys):
    """Whoever changes the model measures on these sets and never reads them."""
    old = suites({"a": entry(True), "b": entry(False)}, {"e": entry(True, x=1), "f": entry(True)})
    new = suites({"a": entry(False), "b": entry(True)}, {"e": entry(True, x=2), "f": entry(False, x=3)})
    assert update_floors(old, new, "--dry-run") == (0, old)
    out = capsys.readouterr().out
    assert ": 1 LOST, 1 gained\n" in out and ": 1 LOST, 1 changed\n" in out
    assert not {"a", "b", "e", "f", "x"} & set(re.findall(r"\w+", out)), out


def test_the_script_names_bfcl_cases_by_id_only_never_their_calls(update_floors, capsys):
    old = suites({"a": entry(True, "bfcl_tool", x=1), "b": entry(True, "bfcl_tool", x=1)})
    new = suites({"a": entry(False, "bfcl_tool", x=2), "b": entry(True, "bfcl_tool", x=3)})
    new["bfcl_sample"]["c"] = ms.Entry.of(False, [], "no tool named bfcl_tool")
    assert update_floors(old, new, "--dry-run", "--cases") == (0, old)
    out = capsys.readouterr().out
    assert "LOST a\n" in out and "changed b (passes)\n" in out and "new case c (request failed)\n" in out
    assert "bfcl_tool" not in out and '"x"' not in out and "was:" not in out


def test_the_script_refuses_to_write_a_loss_unless_told(update_floors, capsys):
    old, new = suites({"a": entry(True), "b": entry(False)}), suites({"a": entry(False), "b": entry(True)})
    assert update_floors(old, new) == (1, old)
    assert "1 LOST, 1 gained" in capsys.readouterr().out
    assert update_floors(old, new, "--dry-run") == (0, old)
    assert update_floors(old, new, "--accept-losses") == (0, new)


def test_the_script_never_writes_a_failed_request(update_floors, capsys):
    failed = ms.Entry.of(False, [], "Error code: 500")
    old, new = suites({"a": entry(True)}, {"e": entry(True)}), suites({"a": failed}, {"e": failed})
    assert update_floors(old, new, "--accept-losses", "--cases") == (1, old)
    out = capsys.readouterr().out
    assert "LOST a (request failed)" in out and "now: request failed: Error code: 500" in out
    assert "2 request(s) failed" in out
