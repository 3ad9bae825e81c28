"""The one-machine hub's accounts: a learner's system user is made private, an account of the machine
is never a learner, and no mode runs a learner as root.

As root (CI's user): the test creates a learner's system user in a temporary folder of homes, and
removes it after.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from traitlets.config import Config

from classroom.accounts import NAME_PATTERN, LearnerAuthenticator, check_learner_account

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "classroom" / "jupyterhub_config.py"


class FakeUser:
    def __init__(self, name: str) -> None:
        self.name = name


def authenticator(homes: Path) -> LearnerAuthenticator:
    return LearnerAuthenticator(config=Config({"LearnerAuthenticator": {"homes": str(homes)}}))


@pytest.fixture
def homes(root):
    folder = Path(tempfile.mkdtemp(prefix="homes-"))
    folder.chmod(0o755)
    yield folder
    for account in pwd.getpwall():
        if Path(account.pw_dir).parent == folder:
            subprocess.run(["userdel", account.pw_name], check=True)
    subprocess.run(["rm", "-rf", str(folder)], check=True)


def test_a_learners_system_user_has_a_private_home_of_its_own(homes):
    name = f"wl-{secrets.token_hex(3)}"
    asyncio.run(authenticator(homes).add_user(FakeUser(name)))
    account = pwd.getpwnam(name)
    home = Path(account.pw_dir)
    assert home == homes / name and account.pw_uid >= 1000
    assert home.stat().st_uid == account.pw_uid and home.stat().st_mode & 0o777 == 0o700
    assert check_learner_account(name, homes) == account


@pytest.mark.parametrize("name", ["root", "daemon", "nobody"])
def test_an_account_of_the_machine_is_never_a_learner(homes, name):
    with pytest.raises(ValueError, match="not a learner's"):
        asyncio.run(authenticator(homes).add_user(FakeUser(name)))
    with pytest.raises(ValueError, match="not a learner's"):
        check_learner_account(name, homes)  # as the hub checks again before a server starts


def test_names_useradd_would_not_take_as_they_are_are_refused_at_login(homes):
    auth = authenticator(homes)
    auth.username_pattern = NAME_PATTERN
    assert auth.validate_username("ada") and auth.validate_username("learner-7")
    for name in ("Ada", "../ada", "ada smith", "-ada", "a" * 40, "ada$"):
        assert not auth.validate_username(name), name


def load_config(state: Path, **env: str) -> subprocess.CompletedProcess:
    """Read classroom/jupyterhub_config.py as JupyterHub does (with `get_config`), in `env`."""
    code = (
        "import sys\nfrom traitlets.config import Config\nc = Config()\n"
        f"path = {str(CONFIG)!r}\n"
        "exec(compile(open(path).read(), path, 'exec'), {'get_config': lambda: c, '__file__': path})\n"
        "print(c.JupyterHub.spawner_class, c.Spawner.args)"
    )
    base = {"PATH": os.environ["PATH"], "CLASSROOM_STATE": str(state), "CLASSROOM_PASSWORD": "p" * 16}
    return subprocess.run([sys.executable, "-c", code], env={**base, **env}, capture_output=True, text=True)


def test_as_root_the_hub_runs_each_learner_as_their_own_user_and_never_as_root(root, tmp_path):
    done = load_config(tmp_path / "hub", CLASSROOM_HOMES=str(tmp_path / "homes"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("localprocess") and "allow_root" not in done.stdout
    assert (tmp_path / "hub").stat().st_mode & 0o777 == 0o700  # the hub's folder is the hub's alone


def test_the_single_user_demo_refuses_to_run_as_root(root, tmp_path):
    done = load_config(tmp_path / "hub", CLASSROOM_DEMO="1")
    assert done.returncode != 0
    assert "never the demo as root" in done.stderr
