"""A system user of their own for every learner on one machine, as JupyterHub's local spawners expect.

`classroom/jupyterhub_config.py` uses `LearnerAuthenticator` when the hub runs as root: JupyterHub's
`LocalAuthenticator` (system users, created when JupyterHub adds a user: at their first login or
when the instructor adds the roster) with the workshop's shared password of
`SharedPasswordAuthenticator`. Each learner's system user has a private home (mode 0700) under
`homes` and a group of their own; `LocalProcessSpawner` then runs their server and kernels as that
user. A name that already belongs to an account that is not a learner's (root, a service, a staff
account) is refused, at login and again before a server starts, so no learner runs as one.
"""

from __future__ import annotations

import contextlib
import pwd
from pathlib import Path

from jupyterhub.auth import LocalAuthenticator
from jupyterhub.authenticators.shared import SharedPasswordAuthenticator
from traitlets import Unicode, default

FIRST_UID = 1000  # UID_MIN of login.defs: the accounts below it are the system's own
NAME_PATTERN = r"^[a-z][a-z0-9_-]{0,30}$"  # names useradd takes as they are


def check_learner_account(name: str, homes: Path) -> pwd.struct_passwd:
    """The account `name` if it is a learner's (an ordinary uid, home `homes/name`); else ValueError."""
    account = pwd.getpwnam(name)
    if account.pw_uid < FIRST_UID or Path(account.pw_dir) != homes / name:
        raise ValueError(
            f"{name!r} is an account of this machine (uid {account.pw_uid}, home {account.pw_dir}), "
            f"not a learner's (home {homes / name}): it cannot be used in the classroom"
        )
    return account


class LearnerAuthenticator(LocalAuthenticator, SharedPasswordAuthenticator):
    """The shared password; a system user with a private home under `homes` for each learner."""

    homes = Unicode("/home", config=True, help="The folder that holds the learners' homes.")

    @default("create_system_users")
    def _default_create_system_users(self) -> bool:
        return True

    @default("add_user_cmd")
    def _default_add_user_cmd(self) -> list[str]:
        # the home private to its learner; bash for JupyterLab's terminals; the name is appended
        return [
            "useradd",
            "--create-home",
            "--base-dir",
            self.homes,
            "--user-group",
            "--shell",
            "/bin/bash",
            "--key",
            "HOME_MODE=0700",
        ]

    async def add_user(self, user) -> None:
        """Refuse an existing account that is not a learner's; create the learner's system user."""
        with contextlib.suppress(KeyError):  # no such account yet: LocalAuthenticator creates it
            check_learner_account(user.name, Path(self.homes))
        await super().add_user(user)
        account = check_learner_account(user.name, Path(self.homes))
        Path(account.pw_dir).chmod(0o700)  # private even where useradd does not know HOME_MODE
