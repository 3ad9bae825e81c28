"""Every coding drill's checks pass on its solution and all fail on its untouched starter."""

import pytest

from wirelab import interview

DRILLS = sorted(interview.coding_drills())


@pytest.mark.parametrize("name", DRILLS)
def test_the_solution_passes_every_check(name):
    drill = interview.get_drill(name)
    result = interview.check_drill(drill, drill.solution)
    assert result.ok, result.output
    assert result.total >= 5


@pytest.mark.parametrize("name", DRILLS)
def test_the_starter_fails_every_check(name):
    result = interview.check_drill(interview.get_drill(name))
    assert result.total > 0 and result.passed == 0, result.output
