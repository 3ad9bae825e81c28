"""benchmarks/run_all.py updates results.md in place; the whole-course timing runs what `./course test` runs.

No benchmark runs here: `run_all.run` is replaced by a stub, so these tests check only how
results.md is rewritten and which notebooks course_runtime.py would execute.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from benchmarks import course_runtime, run_all

ROOT = Path(__file__).resolve().parents[1]

RESULTS = """# Benchmark results

Written by `python benchmarks/run_all.py`; measured on an old machine.

## Wire inspector cost in a kernel

old inspector numbers

## Offline model latency (issue 11)

`python benchmarks/offline_model_latency.py`, written by hand.

| request | median ms |
|---|---|
| hello | 2.49 |

## Knowledge-base retrieval quality in Chinese (lesson 12, issue 16)

```
## not a heading: a line of a benchmark's plain-text output
method     hit@1
```

## The whole course: every lesson and solution

26 notebooks (old)
"""


def section(title: str, body: str) -> str:
    return f"## {title}\n\n{body}\n"


def test_a_section_is_replaced_where_it_stands_and_every_other_is_kept():
    merged = run_all.merge_sections(
        RESULTS, {"Wire inspector cost in a kernel": section("Wire inspector cost in a kernel", "new")}
    )
    before, sections = run_all.split_sections(merged)
    assert before == RESULTS.split("## ")[0]
    assert [title for title, _ in sections] == [title for title, _ in run_all.split_sections(RESULTS)[1]]
    assert "new" in sections[0][1] and "old inspector numbers" not in merged
    for kept in ("| hello | 2.49 |", "## not a heading: a line", "26 notebooks (old)"):
        assert kept in merged


def test_a_heading_inside_a_code_block_does_not_start_a_section():
    _, sections = run_all.split_sections(RESULTS)
    assert len(sections) == 4
    assert (
        "not a heading" in dict(sections)["Knowledge-base retrieval quality in Chinese (lesson 12, issue 16)"]
    )


def test_a_new_section_is_appended_and_the_preamble_can_be_replaced():
    merged = run_all.merge_sections(
        RESULTS, {"New benchmark": section("New benchmark", "fresh")}, "# Benchmark results\n\nnew header\n"
    )
    assert merged.startswith("# Benchmark results\n\nnew header\n\n## Wire inspector cost in a kernel\n")
    assert merged.endswith("## New benchmark\n\nfresh\n")
    assert "measured on an old machine" not in merged


def test_merging_nothing_gives_the_file_back_byte_for_byte():
    assert run_all.merge_sections(RESULTS, {}) == RESULTS
    real = (ROOT / "benchmarks" / "results.md").read_text(encoding="utf-8")
    assert run_all.merge_sections(real, {}) == real


def test_run_all_keeps_the_sections_it_does_not_run(tmp_path, monkeypatch):
    results = tmp_path / "results.md"
    results.write_text(RESULTS, encoding="utf-8")
    monkeypatch.setattr(run_all, "RESULTS", results)
    monkeypatch.setattr(run_all, "REPO", tmp_path)
    monkeypatch.setattr(run_all, "machine", lambda: "- CPU: a test")
    monkeypatch.setattr(
        run_all, "run", lambda benchmark, extra: section(benchmark.title, f"ran {benchmark.script}")
    )
    monkeypatch.setattr("sys.argv", ["run_all.py", "--quick"])

    run_all.main()

    text = results.read_text(encoding="utf-8")
    titles = [title for title, _ in run_all.split_sections(text)[1]]
    assert titles[:4] == [
        "Wire inspector cost in a kernel",
        "Offline model latency (issue 11)",
        "Knowledge-base retrieval quality in Chinese (lesson 12, issue 16)",
        run_all.COURSE_TITLE,
    ]
    assert sorted(titles) == sorted({*titles[:4], *(b.title for b in run_all.BENCHMARKS)})
    assert "| hello | 2.49 |" in text and "## not a heading: a line" in text  # kept as they were
    assert "ran course_runtime.py" in text and "26 notebooks (old)" not in text  # replaced in place
    assert "run_all.py --quick" in text and "- CPU: a test" in text and "an old machine" not in text


def nbval_paths_of_course_test() -> list[str]:
    """The paths on the `course` script's `pytest ... --nbval` line (options and their values left out)."""
    script = (ROOT / "course").read_text(encoding="utf-8").replace("\\\n", " ")
    [line] = [line for line in script.splitlines() if "--nbval" in line and "pytest" in line]
    words = shlex.split(line)
    with_value = {"-n", "--dist", "--nbval-sanitize-with"}
    return [
        word
        for before, word in zip(words, words[1:], strict=False)
        if not word.startswith("-") and before not in with_value and (ROOT / word).exists()
    ]


def test_the_whole_course_timing_runs_the_notebooks_course_test_runs():
    assert list(course_runtime.NBVAL_PATHS) == nbval_paths_of_course_test()
    names = {str(p.relative_to(ROOT)) for p in course_runtime.course_notebooks()}
    for lesson in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for path in (lesson, lesson.parent / "zh" / lesson.name):
            assert str(path.relative_to(ROOT)) in names
        for path in (
            ROOT / "solutions" / f"{lesson.stem}_lab.ipynb",
            ROOT / "solutions" / "zh" / f"{lesson.stem}_lab.ipynb",
        ):
            assert str(path.relative_to(ROOT)) in names
    assert {"notebooks/11_streamable_http_two_eras.ipynb", "notebooks/16_the_official_sdk.ipynb"} <= names
    assert {"drills/flashcards.ipynb", "drills/flashcards.zh.ipynb", "classroom/dashboard.ipynb"} <= names


def test_checkpoints_are_skipped_as_pytest_skips_hidden_folders(tmp_path, monkeypatch):
    for name in (
        "notebooks/00_a.ipynb",
        "notebooks/zh/00_a.ipynb",
        "notebooks/.ipynb_checkpoints/00_a-checkpoint.ipynb",
        "solutions/00_a_lab.ipynb",
        "tests/x/demo.ipynb",
        "drills/flashcards.ipynb",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    monkeypatch.setattr(
        course_runtime, "NBVAL_PATHS", ("tests", "notebooks", "solutions", "drills/flashcards.ipynb")
    )
    found = [str(p.relative_to(tmp_path)) for p in course_runtime.course_notebooks(tmp_path)]
    assert found == [
        "drills/flashcards.ipynb",
        "notebooks/00_a.ipynb",
        "notebooks/zh/00_a.ipynb",
        "solutions/00_a_lab.ipynb",
        "tests/x/demo.ipynb",
    ]


@pytest.mark.parametrize("title", [b.title for b in run_all.BENCHMARKS])
def test_every_section_run_all_writes_is_in_results_md(title):
    _, sections = run_all.split_sections((ROOT / "benchmarks" / "results.md").read_text(encoding="utf-8"))
    assert title in dict(sections)
