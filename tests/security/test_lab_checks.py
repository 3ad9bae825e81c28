"""Lab 13's checks reject the usual wrong answers with a message that says what to change."""

import hashlib
import json
import tempfile
from pathlib import Path

import pytest

from wirelab.check import CheckFailed
from wirelab.check.lesson13 import check_deputy_stopped, check_find_secrets, check_pins, check_resolve_inside
from wirelab.errors import ToolError
from wirelab.llm import client


def unsorted_pin(spec):
    return hashlib.sha256(json.dumps(spec).encode()).hexdigest()


def description_only_pin(spec):
    return hashlib.sha256(spec["function"]["description"].encode()).hexdigest()


def changed_only(approved, specs):
    return [
        s["function"]["name"]
        for s in specs
        if s["function"]["name"] in approved and approved[s["function"]["name"]] != unsorted_pin(s)
    ]


@pytest.mark.parametrize(
    "pin, message",
    [(unsorted_pin, "sort_keys=True"), (description_only_pin, "changing the tool's parameters")],
)
def test_a_pin_that_depends_on_key_order_or_misses_a_field_fails(pin, message):
    with pytest.raises(CheckFailed, match=message):
        check_pins(pin, changed_only)


def test_holding_back_only_changed_tools_forgets_the_never_approved_ones():
    def pin(spec):
        return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()

    def changed(approved, specs):
        return [
            s["function"]["name"]
            for s in specs
            if s["function"]["name"] in approved and approved[s["function"]["name"]] != pin(s)
        ]

    with pytest.raises(CheckFailed, match="never approved"):
        check_pins(pin, changed)


def test_a_roots_check_by_string_prefix_is_caught():
    def by_prefix(requested, root):
        resolved = (root / requested).resolve()
        if not str(resolved).startswith(str(root.resolve())):
            raise ValueError("outside")
        return resolved

    with pytest.raises(CheckFailed, match="is_relative_to, not startswith|percent-encoded"):
        check_resolve_inside(by_prefix)


def test_a_roots_check_without_resolve_misses_the_symlink():
    def without_resolve(requested: str, root: Path) -> Path:
        if ".." in requested or requested.startswith("/") or "%" in requested:
            raise ValueError("refused")
        return (root / requested).absolute()

    with pytest.raises(CheckFailed):
        check_resolve_inside(without_resolve)


def test_the_roots_check_leaves_no_folder_behind_whether_it_passes_or_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def resolve_inside(requested: str, root: Path) -> Path:
        if "%2" in requested.lower() or "%25" in requested:
            raise ValueError("encoded")
        resolved = (root / requested).resolve()
        if not resolved.is_relative_to(root.resolve()):
            raise ValueError("outside")
        return resolved

    check_resolve_inside(resolve_inside)
    with pytest.raises(CheckFailed):
        check_resolve_inside(lambda requested, root: root / requested)
    assert list(tmp_path.iterdir()) == []


def test_a_secret_finder_that_looks_only_at_the_top_level_is_caught():
    def shallow(arguments, secrets):
        return [
            key
            for key, value in arguments.items()
            if isinstance(value, str) and any(s in value for s in secrets.values())
        ]

    with pytest.raises(CheckFailed, match="walk dicts"):
        check_find_secrets(shallow)


def test_a_check_that_looks_only_at_the_top_level_lets_the_deputy_mail_the_key():
    def shallow(call, tools):
        body = json.loads(call["function"]["arguments"]).get("body")
        if isinstance(body, str) and "sk-live" in body:
            raise ToolError("secret_blocked", "secret")

    with pytest.raises(CheckFailed, match="went out with the key"):
        check_deputy_stopped(shallow, client())


def test_a_check_that_crashes_is_reported_as_such():
    def crashes(call, tools):
        raise KeyError("arguments")

    with pytest.raises(CheckFailed, match="raised KeyError"):
        check_deputy_stopped(crashes, client())
