"""A real JupyterHub with a room of learners: own server, own copy, own kernel, own model; idle ones culled.

JupyterHub (PyPI) behind configurable-http-proxy (npm), SimpleLocalProcessSpawner with a home per
learner under a temp dir, the workshop's shared password, nbgitpuller cloning the course (a git
repository of this working tree, by file:// URL: offline) and jupyterhub-idle-culler as a hub
service. Learners act through the hub's REST API and their server's kernel websocket, concurrently.
The figures it measures are written by benchmarks/classroom.py, not asserted here.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import time
from configparser import ConfigParser
from pathlib import Path

import pytest
from tornado.httpclient import HTTPClientError

from classroom.course_checks import read_course_checks
from classroom.hub import LESSON, Learner, course_repository, learner_session, running_hub

ROOT = Path(__file__).resolve().parents[2]
CITIES = ["Paris", "Tokyo", "Lima", "Oslo", "Cairo", "Sydney", "Madrid", "Toronto"]
IDLE_S = 30
# `./course check 02` as a learner runs it in a terminal in ~/course, less the script's set-up step
# (the hub's environment already is the course's): the check writes .course-checks/02.json there
COURSE_CHECK = (
    "import subprocess, sys\n"
    "done = subprocess.run([sys.executable, '-m', 'wirelab.check', '02'], capture_output=True, text=True)\n"
    "print(done.stdout.splitlines()[-1], done.returncode)"
)


def sanitize(text: str) -> str:
    config = ConfigParser()
    config.read(ROOT / "tests" / "nbval_sanitize.cfg")
    for section in config.sections():
        text = re.sub(config[section]["regex"], config[section]["replace"], text)
    return text


def shown(outputs: list[dict]) -> str:
    """The text a cell shows, as nbval compares it (streams and plain-text results)."""
    parts = []
    for output in outputs:
        if output["output_type"] == "stream":
            parts.append("".join(output["text"]))
        elif output["output_type"] == "execute_result":
            parts.append("".join(output["data"]["text/plain"]))
        elif output["output_type"] == "error":
            parts.append(f"{output['ename']}: {output['evalue']}")
    return sanitize("".join(parts))


def check_lines(lab: list[list[dict]]) -> list[str]:
    text = "".join(shown(o) for o in lab)
    return [line.strip() for line in text.splitlines() if line.strip().startswith(("✓", "✗"))]


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """Eight learners working at once and a ninth who logs in and walks away; one of the eight, who
    solved lab 02, then runs `./course check 02` while the hub culls the idle one."""
    proxy = ROOT / "node_modules" / ".bin" / "configurable-http-proxy"
    assert proxy.exists(), "configurable-http-proxy is not installed: run npm ci (./course test does)"
    tmp = tmp_path_factory.mktemp("classroom")
    repo = course_repository(tmp / "course.git")
    (tmp / "hub").mkdir()
    with running_hub(tmp / "hub", idle_s=IDLE_S) as hub:

        async def workshop():
            names = [f"learner{i}" for i in range(len(CITIES))]
            await hub.api("POST", "/users", body={"usernames": [*names, "idler"]})
            idler = Learner(hub, "idler")
            await idler.log_in()
            await idler.start_server()
            idle_since = time.monotonic()
            sessions = await asyncio.gather(
                *(
                    learner_session(Learner(hub, name), repo, city, solve=i % 2 == 0)
                    for i, (name, city) in enumerate(zip(names, CITIES, strict=True))
                )
            )
            snooping = sessions[1].learner
            blocked = []
            for attempt in (
                snooping.contents("course", user="learner0"),
                snooping.contents("../learner0/course"),
                snooping.contents("course", token=sessions[0].learner.token, user="learner1"),
            ):
                try:
                    await attempt
                    blocked.append(False)
                except HTTPClientError as e:
                    blocked.append(e.code in (403, 404))

            async def culled_after() -> float:
                while await idler.is_running() and time.monotonic() - idle_since < 6 * IDLE_S:
                    await asyncio.sleep(1)
                return time.monotonic() - idle_since

            checked, culled_s = await asyncio.gather(
                sessions[0].learner.run_cells([COURSE_CHECK], "course"), culled_after()
            )
            still_running = await idler.is_running()
            return sessions, blocked, still_running, culled_s, checked

        yield asyncio.run(workshop())
    shutil.rmtree(tmp, ignore_errors=True)


def test_every_learner_sees_lesson_02_as_it_was_saved(room):
    sessions = room[0]
    saved = json.loads((ROOT / LESSON.removeprefix("course/")).read_text())
    cells = [c for c in saved["cells"] if c["cell_type"] == "code"]
    for session in sessions:
        assert len(session.lesson) == len(cells)
        for cell, outputs in zip(cells, session.lesson, strict=True):
            if "NBVAL_IGNORE_OUTPUT" in "".join(cell["source"]):
                continue
            assert shown(outputs) == shown(cell["outputs"]), (session.learner.name, "".join(cell["source"]))


def test_learners_who_solved_lab_02_pass_its_checks_and_the_others_see_what_to_do(room):
    for index, session in enumerate(room[0]):
        lines = check_lines(session.lab)
        summary = shown(session.lab[-1])
        assert len(lines) >= 3, (session.learner.name, lines)
        if index % 2 == 0:
            assert all(line.startswith("✓") for line in lines), lines
            assert "Lab 02: 3 of 3 exercises pass" in summary
        else:
            assert all(line.startswith("✗") and "not written yet" in line for line in lines), lines
            assert "Lab 02: 0 of 3 exercises pass" in summary


def test_each_learner_has_their_own_kernel_and_model_traffic(room):
    sessions = room[0]
    for session in sessions:  # the kernel imports the course from the learner's own copy
        home = session.learner.hub.state / "home" / session.learner.name
        assert shown(session.probe[3]).strip() == str(home / "course" / "wirelab" / "__init__.py")
    assert len({s.kernel_pid for s in sessions}) == len(sessions)
    for session, city in zip(sessions, CITIES, strict=True):
        asked, traffic = (shown(o) for o in session.probe[1:3])
        assert asked.strip() == city
        assert city in traffic
        assert not [other for other in CITIES if other != city and other in traffic.split("\n", 1)[1]]
        # every kernel message on this learner's websocket answers one of their own requests
        answering = {m["parent_header"].get("username") for m in session.learner.messages_seen}
        assert answering <= {None, session.learner.name}, answering


def test_no_learner_can_read_another_learners_files(room):
    assert room[1] == [True, True, True]


def test_the_idle_learners_server_is_culled(room):
    _, _, still_running, culled_after, _ = room
    assert not still_running, f"still running {culled_after:.0f} s after the last activity"
    assert culled_after >= IDLE_S


def test_a_learners_course_check_lands_in_their_own_course_folder_for_the_dashboard(room):
    sessions, checked = room[0], room[4]
    assert shown(checked[0]).strip() == "3 of 3 checks pass 0"
    homes = sessions[0].learner.hub.state / "home"
    assert (homes / "learner0" / "course" / ".course-checks" / "02.json").is_file()
    course_checks, unreadable = read_course_checks(homes)  # as the dashboard reads the room
    assert not unreadable
    assert [(c.learner, c.lab, c.passed, len(c.exercises)) for c in course_checks] == [
        ("learner0", "02", 3, 3)
    ]
