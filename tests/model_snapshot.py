"""The offline model's calls on the CI samples, case by case, kept in tests/model_snapshot.json.

For each case of the BFCL CI sample (assets/bfcl_ci_sample.json) and of the bilingual eval set
(assets/bilingual_eval.json) the snapshot holds the calls the model made, in canonical JSON, and
whether they pass. tests/test_bfcl.py and tests/test_bilingual_eval.py run the model and compare
its calls with it, so one changed decision shows; scripts/update_floors.py rewrites it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from wirelab import bfcl, bilingual_eval

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "tests" / "model_snapshot.json"
SAMPLE = ROOT / "assets" / "bfcl_ci_sample.json"
REFRESH = "python scripts/update_floors.py"
ABOUT = (
    "The offline model's calls on the CI samples: for each case, whether it passes and the calls "
    "made ({name, arguments}, canonical JSON). tests/test_bfcl.py and tests/test_bilingual_eval.py "
    "fail on any case that differs. Refresh it with `python scripts/update_floors.py` after changing "
    "the model (it refuses to write a case that went from pass to fail unless given --accept-losses)."
)
TITLES = {"bfcl_sample": "BFCL CI sample", "eval_set": "eval set"}
SOURCES = {
    "bfcl_sample": {"cases": "assets/bfcl_ci_sample.json", "test": "tests/test_bfcl.py"},
    "eval_set": {"cases": "assets/bilingual_eval.json", "test": "tests/test_bilingual_eval.py"},
}


@dataclass(frozen=True)
class Entry:
    """One case as the model answered it: pass or fail, and its calls in canonical JSON."""

    passed: bool
    calls: str
    crashed: str = ""  # the error when the request itself failed: no decision, never written

    @classmethod
    def of(cls, passed: bool, calls: list[dict[str, Any]], crashed: str = "") -> Entry:
        """From `[{"name", "arguments"}]`, written name first, the arguments with sorted keys."""
        pairs = [(canonical(c["name"]), canonical(c["arguments"])) for c in calls]
        listed = ", ".join(f'{{"name": {n}, "arguments": {a}}}' for n, a in pairs)
        return cls(passed, f"[{listed}]", crashed)

    def each(self) -> list[str]:
        """Each call as `name({...})`."""
        if self.crashed:
            return [f"request failed: {self.crashed}"]
        return [f"{c['name']}({canonical(c['arguments'])})" for c in json.loads(self.calls)]

    def shown(self, limit: int = 0) -> str:
        """The calls as `name({...}); name({...})`, or "no call"; cut to `limit` characters if given."""
        return shown(self.each(), limit)


def shown(calls: list[str], limit: int = 0) -> str:
    text = "; ".join(calls) or "no call"
    return text if not limit or len(text) <= limit else text[: limit - 1] + "…"


def was_and_now(old: Entry | None, new: Entry | None, limit: int = 0) -> list[str]:
    """What the calls were and are; the calls both make are counted, not repeated."""
    was, now = old.each() if old else None, new.each() if new else None
    if was == now:  # only the verdict changed
        return [f"same calls: {shown(now or [], limit)}"]
    common = Counter(was) & Counter(now) if was and now else Counter()
    if not common:
        return [
            f"{label}: {shown(calls, limit)}"
            for label, calls in (("was", was), ("now", now))
            if calls is not None
        ]
    same = sum(common.values())
    lines = [f"{same} call{'s' if same > 1 else ''} as before"]
    for label, calls in (("was also", was), ("now also", now)):
        left, rest = Counter(common), []
        for call in calls:
            if left[call]:
                left[call] -= 1
            else:
                rest.append(call)
        if rest:
            lines.append(f"{label}: {shown(rest, limit)}")
    return lines if len(lines) > 1 else [*lines, "(the same calls in another order)"]


Suite = dict[str, Entry]  # case id -> entry, in the suite's order


def canonical(value: Any) -> str:
    """One spelling for one JSON value: sorted keys, Unicode kept."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def bfcl_sample(ids: list[str] | None = None) -> Suite:
    """The model on the BFCL CI sample (or on `ids`), through BFCL's checker."""
    results = bfcl.run(bfcl.load_ids(ids or json.loads(SAMPLE.read_text())["ids"]))
    return {
        r.case.id: Entry.of(
            r.valid,
            [{"name": n, "arguments": a} for call in r.calls for n, a in call.items()],
            r.error if r.error_type == bfcl.REQUEST_FAILED else "",
        )
        for r in results
    }


def eval_set(cases: list[bilingual_eval.Case] | None = None) -> Suite:
    """The model on the bilingual eval set (or on `cases`), through its scorer."""
    failed = "request failed: "
    return {
        o.case.id: Entry.of(
            o.ok, o.calls, o.reason.removeprefix(failed) if o.reason.startswith(failed) else ""
        )
        for o in bilingual_eval.run(cases)
    }


RUNS: dict[str, Callable[[], Suite]] = {"bfcl_sample": bfcl_sample, "eval_set": eval_set}


def take() -> dict[str, Suite]:
    """Run the model on every suite."""
    return {name: run() for name, run in RUNS.items()}


def load(path: Path | None = None) -> dict[str, Suite]:
    """The committed snapshot (or the one at `path`); a missing or malformed file is a clear error."""
    path = path or PATH
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {
            name: {case: Entry.of(e["pass"], e["calls"]) for case, e in data[name]["calls"].items()}
            for name in RUNS
        }
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path} is missing or malformed ({error!r}); rebuild it with {REFRESH}") from error


def dumps(snapshot: Mapping[str, Suite]) -> str:
    """The snapshot as JSON with one line per case, so a diff shows each changed case."""
    parts = ["{", f" {canonical('about')}: {canonical(ABOUT)},"]
    for n, (name, suite) in enumerate(snapshot.items()):
        parts.append(f" {canonical(name)}: {{")
        parts += [f"  {canonical(k)}: {canonical(v)}," for k, v in SOURCES[name].items()]
        parts.append('  "calls": {')
        lines = [
            f'   {canonical(case)}: {{"pass": {canonical(e.passed)}, "calls": {e.calls}}}'
            for case, e in suite.items()
        ]
        parts.append(",\n".join(lines))
        parts += ["  }", " }" + ("," if n < len(snapshot) - 1 else "")]
    return "\n".join([*parts, "}"]) + "\n"


@dataclass
class Diff:
    """How one suite's cases differ between the snapshot (`old`) and the model now (`new`)."""

    title: str
    old: Suite
    new: Suite
    lost: list[str] = field(default_factory=list)  # passed, now fails: a regression
    gained: list[str] = field(default_factory=list)  # failed, now passes
    changed: list[str] = field(default_factory=list)  # other calls (or a failed request), same verdict
    added: list[str] = field(default_factory=list)  # a case the snapshot lacks
    removed: list[str] = field(default_factory=list)  # a case no longer in the suite

    def __bool__(self) -> bool:
        return bool(self.lost or self.gained or self.changed or self.added or self.removed)

    def score(self, suite: Suite) -> str:
        return f"{sum(e.passed for e in suite.values())}/{len(suite)}"

    def kinds(self) -> list[tuple[str, list[str]]]:
        """The differing cases by kind, each kind with its label."""
        return [
            ("LOST", self.lost),
            ("gained", self.gained),
            ("changed", self.changed),
            ("new case", self.added),
            ("case gone", self.removed),
        ]

    def counts(self) -> str:
        """One line: the score, and how many cases differ by kind, naming none."""
        crashed = [case for case, entry in self.new.items() if entry.crashed]
        kinds = [*self.kinds(), ("failed requests", crashed)]
        counted = ", ".join(f"{len(cases)} {label}" for label, cases in kinds if cases)
        return f"{self.title}: {self.score(self.new)} pass (snapshot {self.score(self.old)}): {counted}"

    def lines(self, limit: int = 0, most: int = 0, calls: bool = True) -> list[str]:
        """One line per difference, old calls under new (with `calls=False`, only each case's id
        and kind, and whether its request failed); at most `most` cases per kind if given."""
        out = [f"{self.title}: {self.score(self.new)} pass (snapshot {self.score(self.old)})"]
        for label, cases in self.kinds():
            listed = cases[:most] if most else cases
            for case in listed:
                verdict = ""
                if label == "changed":
                    verdict = " (passes)" if self.new[case].passed else " (still fails)"
                if not calls and case in self.new and self.new[case].crashed:
                    verdict += " (request failed)"
                out.append(f"  {label} {case}{verdict}")
                shown = was_and_now(self.old.get(case), self.new.get(case), limit) if calls else []
                out += [f"    {line}" for line in shown]
            if len(listed) < len(cases):
                out.append(f"  … and {len(cases) - len(listed)} more {label}")
        return out

    def failure(self) -> str:
        """The test's message: what differs, and what to do about it."""
        advice = (
            f"The model's calls changed. If that is meant, refresh the snapshot: `{REFRESH}`, and commit it."
        )
        if self.lost:
            advice = (
                f"{len(self.lost)} LOST (passed, now fails): a regression. Fix the model, or if the loss is "
                f"meant, write it with `{REFRESH} --accept-losses`."
            )
        return "\n".join([*self.lines(limit=160, most=8), advice])


def compare(title: str, old: Suite, new: Suite) -> Diff:
    """Every case of `old` and `new` that differs, sorted by kind."""
    diff = Diff(title, old, new)
    diff.removed = [case for case in old if case not in new]
    for case, now in new.items():
        was = old.get(case)
        if was is None:
            diff.added.append(case)
        elif was.passed and not now.passed:
            diff.lost.append(case)
        elif now.passed and not was.passed:
            diff.gained.append(case)
        elif now.calls != was.calls or now.crashed:  # a failed request is no decision
            diff.changed.append(case)
    return diff


def assert_unchanged(name: str, now: Suite, snapshot: Mapping[str, Suite] | None = None) -> None:
    """Fail, naming each differing case, unless suite `name` of the snapshot is what the model did now."""
    diff = compare(TITLES[name], (snapshot or load())[name], now)
    if diff:
        pytest.fail(diff.failure(), pytrace=False)
