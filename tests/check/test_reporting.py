"""A check reports in a notebook and raises elsewhere; the summary lists every exercise and raises once."""

import pytest

import wirelab.check as check
from wirelab.check import CheckFailed, exercise, expect, passed, summary


@pytest.fixture
def lesson99(monkeypatch):
    """Two exercises of a pretend lesson 99, registered as a lesson module's checks are."""
    monkeypatch.setitem(check.CHECKS, "wirelab.check.lesson99", [])
    monkeypatch.setattr(check, "OUTCOMES", {})
    monkeypatch.setitem(__import__("sys").modules, "wirelab.check.lesson99", object())

    def check_double(double):
        expect(double(2) == 4, f"double(2) returned {double(2)!r}, expected 4")
        passed("double doubles")

    def check_name(name):
        expect(name() == "wire", "name() must return 'wire'")
        passed("name is right")

    for fn in (check_double, check_name):
        fn.__module__ = "wirelab.check.lesson99"
    return exercise(check_double), exercise(check_name)


def test_outside_a_notebook_a_failed_check_raises_its_message(lesson99):
    check_double, _ = lesson99
    with pytest.raises(CheckFailed, match="returned 3, expected 4"):
        check_double(lambda x: 3)


def test_in_a_notebook_a_failed_check_prints_one_line_and_the_summary_raises_once(
    lesson99, monkeypatch, capsys
):
    check_double, check_name = lesson99
    monkeypatch.setattr(check, "in_notebook", lambda: True)
    check_double(lambda x: 3)
    assert capsys.readouterr().out == "✗ double(2) returned 3, expected 4\n"
    with pytest.raises(CheckFailed, match="2 of 2 exercises still to do"):
        summary("99")
    shown = capsys.readouterr().out.splitlines()
    assert shown == [
        "Lab 99: 0 of 2 exercises pass",
        "  ✗ double(2) returned 3, expected 4",
        "  · check_name has not run yet",
    ]


def test_an_unwritten_function_is_reported_with_its_hint_and_a_pass_is_recorded(
    lesson99, monkeypatch, capsys
):
    check_double, check_name = lesson99
    monkeypatch.setattr(check, "in_notebook", lambda: True)

    def unwritten(x):
        raise NotImplementedError("return x * 2")

    check_double(unwritten)
    check_name(lambda: "wire")
    assert "Hint: return x * 2" in capsys.readouterr().out
    check_double(lambda x: 2 * x)
    summary("99")
    assert "Lab 99: 2 of 2 exercises pass" in capsys.readouterr().out.splitlines()
