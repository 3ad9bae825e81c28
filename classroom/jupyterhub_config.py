"""JupyterHub for a workshop on one machine: every learner gets their own server in their own home.

Read by `jupyterhub -f classroom/jupyterhub_config.py`; set through the environment:

    CLASSROOM_STATE      folder for the hub's database, secrets and the learners' homes
    CLASSROOM_PASSWORD   the workshop's shared password (8 characters or more)
    CLASSROOM_PORT       the public port (default 8000); CLASSROOM_HUB_PORT, CLASSROOM_PROXY_API_PORT
    CLASSROOM_IDLE_S     cull a learner's server after this many idle seconds (default 3600)

Learners log in with any name and the shared password (`SharedPasswordAuthenticator`). Their
servers run as local processes with HOME = CLASSROOM_STATE/home/<name>, no system users
(`SimpleLocalProcessSpawner`): fine for a workshop machine, not a security boundary between
learners (see docs/jupyterhub.md for Kubernetes). The course arrives with nbgitpuller's link
(`/user/<name>/git-pull?repo=...`); each learner's kernels import wirelab from their own copy.
`jupyterhub-idle-culler` runs as a hub service and stops idle servers.
"""

import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub's config loader provides it)

ROOT = Path(__file__).resolve().parents[1]
STATE = Path(os.environ["CLASSROOM_STATE"])
IDLE_S = int(os.environ.get("CLASSROOM_IDLE_S", "3600"))
BIN = Path(sys.executable).parent

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = int(os.environ.get("CLASSROOM_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ.get("CLASSROOM_HUB_PORT", "8081"))
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{os.environ.get('CLASSROOM_PROXY_API_PORT', '8001')}"
c.ConfigurableHTTPProxy.command = [str(ROOT / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")

c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = os.environ["CLASSROOM_PASSWORD"]
c.Authenticator.allow_all = True

c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "home" / "{username}")
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
if os.geteuid() == 0:  # containers and CI run as root; the learners' servers then do too
    c.Spawner.args = ["--ServerApp.allow_root=True"]
c.Spawner.environment = {
    "WIRELAB_OFFLINE": "1",  # the offline model runs inside each kernel: no network, no API key
    "PYTHONPATH": lambda spawner: str(Path(spawner.home_dir) / "course"),
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(max(5, IDLE_S // 4)),
}
c.JupyterHub.last_activity_interval = max(5, IDLE_S // 4)

c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={IDLE_S}",
            f"--cull-every={max(5, IDLE_S // 4)}",
        ],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]
if os.environ.get("CLASSROOM_INSTRUCTOR_TOKEN"):  # the instructor's scripts (and the test) create the roster
    c.JupyterHub.services.append(
        {"name": "instructor", "api_token": os.environ["CLASSROOM_INSTRUCTOR_TOKEN"]}
    )
    c.JupyterHub.load_roles.append({"name": "admin", "services": ["instructor"]})
