"""In a real JupyterLab, Run All on an unsolved lab reaches the end and shows every exercise's status.

Uses the browser fixtures of tests/browser (JupyterLab on 127.0.0.1, Debian's chromium); skipped
without chromium, as they are.
"""

import shutil

from tests.browser.conftest import chromium, lab, page  # noqa: F401 (fixtures)

LAB = "05_errors_are_results_lab.ipynb"  # no model calls: quick on a loaded machine

STATE = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const cells = panel.content.widgets.filter((w) => w.model.type === "code");
    return {
        idle: panel.sessionContext.session.kernel.status === "idle",
        counts: cells.map((w) => w.model.executionCount),
        outputs: cells.map((w) => JSON.stringify(w.model.outputs.toJSON())),
    };
}"""


def test_run_all_on_an_unsolved_lab_runs_every_cell_and_the_summary_lists_each_exercise(lab, page):  # noqa: F811
    shutil.copy(f"labs/{LAB}", lab.root / LAB)
    page.goto(lab.notebook_url(LAB))
    page.wait_for_function(
        "() => window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel?.status === 'idle'",
        timeout=90_000,
    )
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(
        f"() => {{ const s = ({STATE})(); return s.idle && s.counts.every((c) => c !== null); }}",
        timeout=120_000,
    )
    state = page.evaluate(STATE)
    assert all(count is not None for count in state["counts"]), "Run All stopped before the end"
    shown = "\n".join(state["outputs"])
    assert shown.count("✗") >= 3 + 3  # each check cell's line, and again in the summary
    assert "Lab 05: 0 of 3 exercises pass" in shown
    assert "not written yet. Hint:" in shown
