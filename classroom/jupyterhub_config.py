"""JupyterHub for a workshop on one machine: every learner a system user of their own, in their own home.

Read by `jupyterhub -f classroom/jupyterhub_config.py`, run as root; set through the environment:

    CLASSROOM_STATE      the hub's own folder (database, cookie secret); made private to the hub (0700)
    CLASSROOM_HOMES      the folder of the learners' homes (default /home)
    CLASSROOM_PYTHON     the Python of the learners' servers and kernels, with the course installed,
                         which every learner can run (default: the hub's)
    CLASSROOM_PASSWORD   the workshop's shared password (8 characters or more)
    CLASSROOM_INSTRUCTOR_TOKEN  optional: an admin token for the instructor's scripts
    CLASSROOM_PORT       the public port (default 8000); CLASSROOM_HUB_PORT, CLASSROOM_PROXY_API_PORT
    CLASSROOM_IDLE_S     a server with no kernel and no activity for this long stops (default 3600)
    CLASSROOM_DEMO=1     the single-user demo: no root, every learner runs as the hub's own user

Learners log in with any name and the shared password. At their first login (or when the instructor
adds them) `classroom.accounts.LearnerAuthenticator`, JupyterHub's `LocalAuthenticator`, creates
their system user with a private home under CLASSROOM_HOMES; `LocalProcessSpawner` runs their
server and kernels as that user, never as root. So a learner's code cannot read the hub's
environment (the password, the instructor's token), the hub's folder, or another learner's home.
The demo mode (hub not root) cannot keep any of that apart and says so in its log.

Idle servers: each server stops itself once it has had no kernel and no activity for
CLASSROOM_IDLE_S, and its kernels are culled when idle and unconnected; a busy kernel or an open
notebook keeps it. `jupyterhub-idle-culler`, which sees only the activity servers report (a kernel
computing in silence reports none), runs as a backstop after four times as long.
"""

import os
import pwd
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub's config loader provides it)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from classroom.accounts import NAME_PATTERN, LearnerAuthenticator, check_learner_account  # noqa: E402
from classroom.ports import Ports  # noqa: E402

STATE = Path(os.environ["CLASSROOM_STATE"])
DEMO = os.environ.get("CLASSROOM_DEMO") == "1"
HOMES = Path(os.environ.get("CLASSROOM_HOMES", str(STATE / "home") if DEMO else "/home"))
IDLE_S = int(os.environ.get("CLASSROOM_IDLE_S", "3600"))
PYTHON = os.environ.get("CLASSROOM_PYTHON", sys.executable)
AS_ROOT = os.geteuid() == 0

if AS_ROOT == DEMO:
    sys.exit(
        "classroom: run the hub as root (each learner then runs as a system user of their own), "
        "or set CLASSROOM_DEMO=1 as an ordinary user for a single-user demo; never the demo as root"
    )
STATE.mkdir(parents=True, exist_ok=True)
STATE.chmod(0o700)  # the database and the cookie secret are the hub's alone
HOMES.mkdir(parents=True, exist_ok=True)

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = int(os.environ.get("CLASSROOM_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ.get("CLASSROOM_HUB_PORT", "8081"))
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{os.environ.get('CLASSROOM_PROXY_API_PORT', '8001')}"
c.ConfigurableHTTPProxy.command = [str(ROOT / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")

c.SharedPasswordAuthenticator.user_password = os.environ["CLASSROOM_PASSWORD"]
c.Authenticator.allow_all = True
c.Authenticator.username_pattern = NAME_PATTERN
c.Spawner.cmd = [PYTHON, "-m", "jupyterhub.singleuser"]
PORTS = Ports()  # each server its own port, though the room starts at once (classroom/ports.py)
c.Spawner.post_stop_hook = PORTS.take_back
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120

if AS_ROOT:
    c.JupyterHub.authenticator_class = LearnerAuthenticator
    c.LearnerAuthenticator.homes = str(HOMES)
    c.JupyterHub.spawner_class = "localprocess"

    def home(spawner) -> Path:
        return Path(pwd.getpwnam(spawner.user.name).pw_dir)

    def refuse_other_accounts(spawner) -> None:
        """No server starts as root or as any account that is not a learner's, and each on its own port."""
        check_learner_account(spawner.user.name, HOMES)
        PORTS.give(spawner)

    c.Spawner.pre_spawn_hook = refuse_other_accounts
else:  # the single-user demo: every learner is the hub's own user
    c.JupyterHub.authenticator_class = "shared-password"
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")

    def home(spawner) -> Path:
        return Path(spawner.home_dir)

    c.Spawner.pre_spawn_hook = PORTS.give

c.Spawner.environment = {
    "WIRELAB_OFFLINE": "1",  # the offline model runs inside each kernel: no network, no API key
    "PYTHONPATH": lambda spawner: str(home(spawner) / "course"),
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(max(5, IDLE_S // 4)),
}
c.Spawner.args = [  # the server stops itself when idle: it knows about busy and connected kernels
    f"--ServerApp.shutdown_no_activity_timeout={IDLE_S}",
    f"--MappingKernelManager.cull_idle_timeout={IDLE_S}",
    f"--MappingKernelManager.cull_interval={max(5, IDLE_S // 4)}",
    "--MappingKernelManager.cull_busy=False",
    "--MappingKernelManager.cull_connected=False",
    # A kernel binds the ports its server picked a moment before; when the room starts at once, another
    # learner's kernel can take one in between ("Address already in use"). The restarter then tries new
    # ports, but only if they are not cached: jupyter_client's port cache hands the same ones back.
    "--KernelManager.cache_ports=False",
]
c.JupyterHub.last_activity_interval = max(5, IDLE_S // 4)

c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={4 * IDLE_S}",
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
