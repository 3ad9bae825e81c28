"""`./course check NN` as a learner reads it: an unsaved-work warning first, then what was checked."""

from __future__ import annotations

from pathlib import Path

from wirelab.check import __main__ as command
from wirelab.check.runner import CheckOutcome, LabReport

LAB = Path("labs/02_the_six_step_loop_lab.ipynb")
ZH_LAB = Path("labs/zh/02_the_six_step_loop_lab.ipynb")


def run(monkeypatch, capsys, lab: Path, warnings: list[str]) -> list[str]:
    passing = LabReport([CheckOutcome(3, True, None, "✓ fine", "check_a")], [])
    monkeypatch.setattr(command, "find_lab", lambda name, root: lab)
    monkeypatch.setattr(command, "find_unsaved_work", lambda path: warnings)
    monkeypatch.setattr(command, "run_lab", lambda path: passing)
    monkeypatch.setattr(command, "record", lambda report, path: None)
    assert command.main(["02"]) == 0
    return capsys.readouterr().out.splitlines()


def test_the_unsaved_work_warning_comes_first_and_the_summary_names_the_saved_file(monkeypatch, capsys):
    lines = run(monkeypatch, capsys, LAB, ["lab is open with unsaved cells"])
    assert lines[0] == "! lab is open with unsaved cells"
    assert lines[-1].startswith("1 of 1 checks pass in the saved file")


def test_without_unsaved_work_the_summary_is_plain(monkeypatch, capsys):
    assert run(monkeypatch, capsys, LAB, [])[-1] == "1 of 1 checks pass"


def test_a_chinese_lab_is_summarised_in_chinese(monkeypatch, capsys):
    monkeypatch.delenv("WIRELAB_LANG", raising=False)
    assert run(monkeypatch, capsys, ZH_LAB, [])[-1] == "1 项检查中通过 1 项"
