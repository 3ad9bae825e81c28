"""`./course check NN` keeps its outcome in the course folder, and reports as before even where it cannot."""

import json
import os
from datetime import UTC, datetime

import pytest

import wirelab.check.__main__ as cli
from wirelab.check import record as record_module
from wirelab.check.record import record, record_path
from wirelab.check.runner import CheckOutcome, LabReport

LAB = "labs/02_the_six_step_loop_lab.ipynb"
REPORT = LabReport(
    [
        CheckOutcome(3, True, None, "✓ execute_call runs known tools", "check_execute_call"),
        CheckOutcome(
            6, False, None, "✗ accumulate_message is not written yet. Hint: join", "check_accumulate_message"
        ),
    ],
    [],
    summary_failed=True,
)
PRINTED = [  # after the lab's path
    "  ✓ execute_call runs known tools",
    "  ✗ accumulate_message is not written yet. Hint: join",
    "1 of 2 checks pass",
]


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A learner's course folder with lab 02, checked by a stand-in for running it on a kernel."""
    (tmp_path / "labs").mkdir()
    (tmp_path / LAB).write_text("{}")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "run_lab", lambda path: REPORT)
    monkeypatch.setattr(cli, "find_unsaved_work", lambda path: [])
    return tmp_path


def test_a_check_reports_as_before_and_keeps_its_outcome_in_the_course_folder(course, capsys):
    assert cli.main(["02"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{course / LAB}:", *PRINTED] and err == ""
    kept = json.loads((course / ".course-checks" / "02.json").read_text())
    checked_at = datetime.fromisoformat(kept.pop("checked_at"))
    assert checked_at.tzinfo is not None and abs((datetime.now(UTC) - checked_at).total_seconds()) < 60
    assert kept == {
        "lab": "02",
        "notebook": LAB,
        "passed": 1,
        "total": 2,
        "all_passed": False,
        "exercises": [
            {"check": "check_execute_call", "passed": True, "message": "execute_call runs known tools"},
            {
                "check": "check_accumulate_message",
                "passed": False,
                "message": "accumulate_message is not written yet. Hint: join",
            },
        ],
        "other_errors": [],
    }
    assert os.listdir(course / ".course-checks") == ["02.json"]  # no temporary file left behind
    assert os.stat(course / ".course-checks" / "02.json").st_mode & 0o044 == 0o044  # the instructor reads it


def test_the_latest_check_replaces_the_one_before(course):
    first = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    record(REPORT, course / LAB, now=first)
    solved = LabReport([CheckOutcome(3, True, None, "✓ all good", "check_execute_call")], [])
    record(solved, course / LAB)
    kept = json.loads((course / ".course-checks" / "02.json").read_text())
    assert kept["all_passed"] and kept["passed"] == kept["total"] == 1
    assert datetime.fromisoformat(kept["checked_at"]) > first


@pytest.mark.parametrize(
    "unwritable",
    ["a file named .course-checks", "a read-only folder", "a failed rename"],
)
def test_an_unwritable_folder_costs_a_note_never_the_check(course, capsys, monkeypatch, unwritable):
    record(REPORT, course / LAB, now=datetime(2026, 1, 5, 9, 0, tzinfo=UTC))
    before = (course / ".course-checks" / "02.json").read_text()
    if unwritable == "a file named .course-checks":
        (course / ".course-checks" / "02.json").unlink()
        (course / ".course-checks").rmdir()
        (course / ".course-checks").write_text("in the way")
    elif unwritable == "a read-only folder":  # what mkstemp raises there (chmod does not stop root)

        def read_only(**kwargs):
            raise PermissionError(13, "Permission denied")

        monkeypatch.setattr(record_module.tempfile, "mkstemp", read_only)
    else:

        def no_rename(source, destination):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(record_module.os, "replace", no_rename)
    capsys.readouterr()
    assert cli.main(["02"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{course / LAB}:", *PRINTED]
    assert err.startswith("! this result was not saved for the instructor") and err.count("\n") == 1
    if unwritable != "a file named .course-checks":  # the record before is whole, no temporary left
        assert (course / ".course-checks" / "02.json").read_text() == before
        assert os.listdir(course / ".course-checks") == ["02.json"]


def test_only_a_lab_in_a_courses_labs_folder_is_kept(tmp_path):
    assert record_path(tmp_path / "labs" / "08_mcp_server_over_stdio_lab.ipynb") == (
        tmp_path / ".course-checks" / "08.json"
    )
    assert record_path(tmp_path / "solutions" / "02_the_six_step_loop_lab.ipynb") is None
    assert record_path(tmp_path / "labs" / "notes.ipynb") is None
    assert record(REPORT, tmp_path / "solutions" / "02_the_six_step_loop_lab.ipynb") is None
    assert not (tmp_path / ".course-checks").exists()
