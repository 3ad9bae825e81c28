"""A real JupyterHub with a room of learners: own system user, server, copy, kernel, model; idle ones culled.

JupyterHub (PyPI) behind configurable-http-proxy (npm), run as root: a system user with a private
home per learner (LocalAuthenticator creates them; the test removes them after), LocalProcessSpawner,
the workshop's shared password, nbgitpuller cloning the course (a git repository of this working
tree, served by `git daemon` on 127.0.0.1: offline), idle servers stopping themselves and
jupyterhub-idle-culler as the hub's backstop. Learners act through the hub's REST API and their
server's kernel websocket, concurrently. One learner's kernel then tries to read what is not
theirs (the hub's environment, its cookie secret and database, another learner's home), and one
leaves a cell computing in silence for longer than the idle timeout. The figures it measures are written by
benchmarks/classroom.py, not asserted here.
"""

from __future__ import annotations

import asyncio
import json
import pwd
import re
import secrets
import shutil
import tempfile
import time
from configparser import ConfigParser
from pathlib import Path

import pytest
from tornado.httpclient import HTTPClientError

from classroom.course_checks import read_course_checks
from classroom.hub import (
    LESSON,
    Learner,
    course_repository,
    learner_python,
    learner_session,
    running_hub,
    served_repository,
)

ROOT = Path(__file__).resolve().parents[2]
CITIES = ["Paris", "Tokyo", "Lima", "Oslo", "Cairo", "Sydney", "Madrid", "Toronto"]
# Names of this run's own: a run killed before its clean-up leaves its system users behind, and the
# classroom rightly refuses a name whose account has another home (a CI run failed on one)
RUN = secrets.token_hex(3)
NAMES = [f"learner{i}-{RUN}" for i in range(len(CITIES))]
IDLER = f"idler-{RUN}"
# The idle timeout, well above a kernel's start on two loaded cores: jupyter_server's culler counts a
# kernel that is still starting as idle, and with eight learners starting at once one took 45 s
IDLE_S = 90
SILENT_S = IDLE_S + 60  # computes without a word past the idle timeout and two culler passes (IDLE_S // 4)
# `./course check 02` as a learner runs it in a terminal in ~/course, less the script's set-up step
# (the hub's environment already is the course's): the check writes .course-checks/02.json there
COURSE_CHECK = (
    "import subprocess, sys\n"
    "done = subprocess.run([sys.executable, '-m', 'wirelab.check', '02'], capture_output=True, text=True)\n"
    "print(done.stdout.splitlines()[-1], done.returncode)"
)
SILENT = f"import time\ntime.sleep({SILENT_S})\nopen('silent-done.txt', 'w').write('done')"


def snooping_cell(hub_pid: int, state: Path, other_home: Path) -> str:
    """A cell that tries to read what is not its learner's and prints what it got, as JSON."""
    return f"""
import json, os, pwd
from pathlib import Path

def attempt(read):
    try:
        read()
        return "read"
    except OSError as error:
        return type(error).__name__

me = os.getuid()
foreign = []  # other users' processes whose environment this kernel can read
for environ in Path("/proc").glob("[0-9]*/environ"):
    try:
        if environ.parent.stat().st_uid != me:
            environ.read_bytes()
            foreign.append(environ.parent.name)
    except OSError:
        pass
print(json.dumps({{
    "user": pwd.getpwuid(me).pw_name,
    "uid": me,
    "hub environment": attempt(lambda: open("/proc/{hub_pid}/environ", "rb").read()),
    "cookie secret": attempt(lambda: open({str(state / "jupyterhub_cookie_secret")!r}, "rb").read()),
    "hub database": attempt(lambda: open({str(state / "jupyterhub.sqlite")!r}, "rb").read()),
    "other home": attempt(lambda: os.listdir({str(other_home)!r})),
    "other file": attempt(lambda: open({str(other_home / "course" / "README.md")!r}, "rb").read()),
    "foreign environments": foreign,
}}))
"""


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
def room(root):
    """Eight learners working at once and a ninth who logs in and walks away; then one of the eight,
    who solved lab 02, runs `./course check 02`, another starts a cell silent for SILENT_S and leaves,
    and a third snoops, while the hub culls the idle one."""
    proxy = ROOT / "node_modules" / ".bin" / "configurable-http-proxy"
    assert proxy.exists(), "configurable-http-proxy is not installed: run npm ci (./course test does)"
    # the learners' homes and the course must be reachable by them: not under pytest's private tmp
    tmp = Path(tempfile.mkdtemp(prefix="classroom-"))
    tmp.chmod(0o711)
    (tmp / "homes").mkdir(mode=0o755)
    repo = course_repository(tmp / "course.git")
    python = learner_python(tmp / "python")
    try:
        with (
            served_repository(repo) as url,
            running_hub(tmp / "hub", tmp / "homes", python, idle_s=IDLE_S) as hub,
        ):

            async def workshop():
                await hub.api("POST", "/users", body={"usernames": [*NAMES, IDLER]})
                idler = Learner(hub, IDLER)
                await idler.log_in()
                await idler.start_server()
                idle_since = time.monotonic()
                sessions = await asyncio.gather(
                    *(
                        learner_session(Learner(hub, name), url, city, solve=i % 2 == 0)
                        for i, (name, city) in enumerate(zip(NAMES, CITIES, strict=True))
                    )
                )
                snooping = sessions[1].learner
                blocked = []
                for attempt in (
                    snooping.contents("course", user=NAMES[0]),
                    snooping.contents(f"../{NAMES[0]}/course"),
                    snooping.contents("course", token=sessions[0].learner.token, user=NAMES[1]),
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

                async def computed_in_silence() -> str:
                    """What a learner finds who started SILENT, closed the laptop and came back."""
                    learner = sessions[2].learner
                    kernel = await learner.run_and_leave(SILENT, "course")
                    begin = time.monotonic()
                    await asyncio.sleep(SILENT_S)
                    while True:
                        try:
                            done = await learner.contents("course/silent-done.txt")
                            break
                        except HTTPClientError as e:  # 404: still computing; 424: the server was stopped
                            if e.code != 404 or time.monotonic() - begin > 3 * SILENT_S:
                                return f"HTTP {e.code}"
                            await asyncio.sleep(2)
                    await learner.shut_down(kernel)
                    return done["content"]

                snooped = snooping_cell(hub.process.pid, hub.state, hub.homes / NAMES[0])
                checked, silent, snooped, culled_s = await asyncio.gather(
                    sessions[0].learner.run_cells([COURSE_CHECK], "course"),
                    computed_in_silence(),
                    snooping.run_cells([snooped], "course"),
                    culled_after(),
                )
                still_running = await idler.is_running()
                found = json.loads("".join(o.get("text", "") for o in snooped[0]))
                return sessions, blocked, still_running, culled_s, checked, silent, found

            yield asyncio.run(workshop())
    finally:
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
        home = session.learner.hub.homes / session.learner.name
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
    still_running, culled_after = room[2:4]
    assert not still_running, f"still running {culled_after:.0f} s after the last activity"
    assert culled_after >= IDLE_S


def test_a_learners_course_check_lands_in_their_own_course_folder_for_the_dashboard(room):
    sessions, checked = room[0], room[4]
    assert shown(checked[0]).strip() == "3 of 3 checks pass 0"
    homes = sessions[0].learner.hub.homes
    assert (homes / NAMES[0] / "course" / ".course-checks" / "02.json").is_file()
    course_checks, unreadable = read_course_checks(homes)  # as the dashboard reads the room
    assert not unreadable
    assert [(c.learner, c.lab, c.passed, len(c.exercises)) for c in course_checks] == [(NAMES[0], "02", 3, 3)]


def test_a_kernel_computing_in_silence_longer_than_the_idle_timeout_is_not_culled(room):
    # the learner left while it ran: no websocket, no output, no request for twice the timeout
    assert room[5] == "done"


def test_each_learner_runs_as_their_own_system_user_and_never_as_root(room):
    sessions, found = room[0], room[6]
    assert found["user"] == NAMES[1] and found["uid"] != 0
    uids = {session.learner.name: session.kernel_uid for session in sessions}
    assert 0 not in uids.values() and len(set(uids.values())) == len(sessions), uids
    for name, uid in uids.items():
        assert pwd.getpwuid(uid).pw_name == name


def test_a_learners_kernel_cannot_read_the_hubs_secrets_or_another_learners_home(room):
    found = room[6]
    for what in ("hub environment", "cookie secret", "hub database", "other home", "other file"):
        assert found[what] == "PermissionError", (what, found[what])
    assert found["foreign environments"] == []
