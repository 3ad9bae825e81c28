"""The nbgrader exchange of docs/jupyterhub.md's Kubernetes setup, run on one machine as its pods run.

The guide's Job script makes the exchange's folders (as root); the graders' server runs as the
UID and group its `hub.extraConfig` gives them (a UID with no /etc/passwd entry, as in the pods),
every learner as the image's user `jovyan`, told apart by JUPYTERHUB_USER as nbgrader does; each
reads the guide's nbgrader_config.py. The grader releases lab 02, two learners fetch and submit,
the second then tries what a learner must not do, and the grader collects both. As root, CI's
user, the test creates `jovyan` when the machine has none and removes it after.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

from classroom.hub import learner_python
from tests.classroom.test_z2jh_config import DOC, config_yaml, exchange_ids, post_start_script

ROOT = Path(__file__).resolve().parents[2]
EXCHANGE = "/srv/nbgrader/exchange"
COURSE = "tools-on-the-wire"
ATTEMPTS = """
import json, os, sys
exchange, course, notebook = sys.argv[1:]
def attempt(act):
    try:
        act()
        return "done"
    except OSError as error:
        return type(error).__name__
print(json.dumps({
    "list inbound": attempt(lambda: os.listdir(f"{exchange}/{course}/inbound")),
    "list feedback": attempt(lambda: os.listdir(f"{exchange}/{course}/feedback")),
    "change the released lab": attempt(lambda: open(notebook, "a").close()),
    "add a released lab": attempt(lambda: os.mkdir(f"{exchange}/{course}/outbound/lab99")),
    "rename the course": attempt(lambda: os.rename(f"{exchange}/{course}", f"{exchange}/mine")),
    "replace its inbound": attempt(lambda: os.rename(f"{exchange}/{course}/inbound", f"{exchange}/x")),
}))
"""


def setup_script() -> str:
    """The shell script of the guide's Job that makes the exchange's folders."""
    (job,) = [b for b in DOC.split("```yaml\n")[1:] if b.startswith("# nbgrader-exchange-setup.yaml")]
    spec = yaml.safe_load(job.split("```")[0])["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    assert container["securityContext"]["runAsUser"] == 0
    assert container["command"][:2] == ["sh", "-euc"]
    return container["command"][2]


def free_uid(wanted: int) -> int:
    """`wanted` if no account has it, else the first UID from 61000 that none has."""
    taken = {a.pw_uid for a in pwd.getpwall()}
    return wanted if wanted not in taken else next(u for u in range(61000, 65000) if u not in taken)


@pytest.fixture(scope="module")
def exchange_run(root):
    ids = exchange_ids()
    (doc_grader_uid, (graders_gid,)), (_, _) = ids["grader"], ids["learner"]
    made_jovyan = False
    try:
        pwd.getpwnam("jovyan")
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--user-group", "jovyan"], check=True)
        made_jovyan = True
    jovyan = pwd.getpwnam("jovyan")
    grader_uid = free_uid(doc_grader_uid)  # after jovyan is made: never the learners' UID
    assert jovyan.pw_gid != graders_gid
    tmp = Path(tempfile.mkdtemp(prefix="exchange-"))
    tmp.chmod(0o711)
    try:
        python = learner_python(tmp / "python")
        exchange = tmp / "exchange"
        script = setup_script().replace(EXCHANGE, str(exchange))
        subprocess.run(["sh", "-euc", script], check=True)
        config = config_yaml()["singleuser"]["extraFiles"]["nbgrader-config"]["stringData"]
        config = config.replace(EXCHANGE, str(exchange))
        config = config.replace(f"os.getuid() == {doc_grader_uid}", f"os.getuid() == {grader_uid}")

        def folder(name: str, uid: int, gid: int) -> Path:
            path = tmp / name
            path.mkdir(mode=0o700)
            (path / "nbgrader_config.py").write_text(config)
            os.chown(path, uid, gid)
            os.chown(path / "nbgrader_config.py", uid, gid)
            return path

        def run(
            args: list[str], cwd: Path, uid: int, gid: int, groups: str, user: str = "", program: str = ""
        ) -> str:
            """Run `program` (the Python) with `args` in `cwd` as `uid`; its output. Fails if it fails."""
            env = {
                "HOME": str(cwd),
                "PATH": f"{python.parent}{os.pathsep}{os.environ['PATH']}",
                "WIRELAB_OFFLINE": "1",
                "USER": "jovyan",  # as repo2docker's image sets it
                **({"JUPYTERHUB_USER": user} if user else {}),
            }
            ids_ = [f"--reuid={uid}", f"--regid={gid}", f"--groups={groups}" if groups else "--clear-groups"]
            done = subprocess.run(
                ["setpriv", *ids_, program or str(python), *args],
                cwd=cwd,
                env=env,
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, done.stdout + done.stderr
            return done.stdout

        grader = folder("grader", grader_uid, grader_uid)
        shutil.copytree(ROOT / "classroom" / "nbgrader" / "source" / "lab02", grader / "source" / "lab02")
        subprocess.run(["chown", "-R", f"{grader_uid}:{grader_uid}", str(grader)], check=True)
        as_grader = {"cwd": grader, "uid": grader_uid, "gid": grader_uid, "groups": str(graders_gid)}
        run(["-m", "nbgrader", "generate_assignment", "lab02"], **as_grader)
        run(["-m", "nbgrader", "release_assignment", "lab02"], **as_grader)
        learners = {}
        for name in ("ada", "bo"):
            home = folder(name, jovyan.pw_uid, jovyan.pw_gid)
            as_learner = {"cwd": home, "uid": jovyan.pw_uid, "gid": jovyan.pw_gid, "groups": "", "user": name}
            run(["-m", "nbgrader", "fetch_assignment", "lab02"], **as_learner)
            run(["-m", "nbgrader", "submit", "lab02"], **as_learner)
            learners[name] = as_learner
        (notebook,) = (exchange / COURSE / "outbound" / "lab02").glob("*.ipynb")
        attempts = run(["-c", ATTEMPTS, str(exchange), COURSE, str(notebook)], **learners["bo"])
        run(["-m", "nbgrader", "collect", "lab02"], **as_grader)
        # the pods' postStart hook, in the grader's pod: the image's copy belongs to jovyan
        copy = tmp / "srv" / "tools-on-the-wire"
        git = ["git", "-c", "user.name=course", "-c", "user.email=course@localhost"]
        subprocess.run([*git, "init", "-q", "-b", "main", str(copy)], check=True)
        (copy / "README.md").write_text("the course\n")
        subprocess.run([*git, "-C", str(copy), "add", "-A"], check=True)
        subprocess.run([*git, "-C", str(copy), "commit", "-q", "-m", "the course"], check=True)
        subprocess.run(["chown", "-R", f"{jovyan.pw_uid}:{jovyan.pw_gid}", str(tmp / "srv")], check=True)
        hook = post_start_script().replace("/srv/tools-on-the-wire", str(copy))
        hook = hook.replace("/home/jovyan", str(grader))
        for _ in range(2):  # the first start clones, a restart pulls
            run(["-c", hook], **as_grader, program="sh")
        yield {
            "attempts": json.loads(attempts),
            "collected": sorted(p.name for p in (grader / "submitted").iterdir()),
            "inbound": sorted(p.name.split("+")[0] for p in (exchange / COURSE / "inbound").iterdir()),
            "grader_uid": grader_uid,
            "grader's copy": (grader / "tools-on-the-wire" / "README.md").read_text(),
            "grader's git config": (grader / ".gitconfig").read_text(),
        }
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if made_jovyan:
            subprocess.run(["userdel", "jovyan"], check=True)


def test_learners_fetch_and_submit_and_the_grader_collects_every_submission(exchange_run):
    assert exchange_run["inbound"] == ["ada", "bo"]  # under their hub names (JUPYTERHUB_USER)
    assert exchange_run["collected"] == ["ada", "bo"]


def test_the_grader_needs_no_passwd_entry_as_in_the_pods(exchange_run):
    with pytest.raises(KeyError):
        pwd.getpwuid(exchange_run["grader_uid"])


def test_a_learner_cannot_list_submissions_or_change_the_course(exchange_run):
    assert exchange_run["attempts"] == {
        "list inbound": "PermissionError",
        "list feedback": "PermissionError",
        "change the released lab": "PermissionError",
        "add a released lab": "PermissionError",
        "rename the course": "PermissionError",
        "replace its inbound": "PermissionError",
    }


def test_the_postStart_hook_gives_the_grader_a_copy_of_the_course_they_do_not_own(exchange_run):
    assert exchange_run["grader's copy"] == "the course\n"
    assert exchange_run["grader's git config"].count("directory = ") == 1  # once, after two starts
