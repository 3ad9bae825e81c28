"""A learner's kernel that lost one of its ports to another kernel restarts on new ports.

When the room starts at once, a kernel can die binding a port its server picked a moment
before, because another learner's kernel took it in between. jupyter_server's restarter then
restarts it "with new random ports", but jupyter_client's port cache hands the same ports back,
so all five tries die the same way and the learner's kernel is dead. The hub's servers turn the
cache off (`--KernelManager.cache_ports=False` in `c.Spawner.args`).
"""

import ast
import os

from jupyter_client import KernelManager
from traitlets.config.loader import KVArgParseConfigLoader

from tests.classroom.test_accounts import load_config

PORTS = ("shell_port", "iopub_port", "stdin_port", "hb_port", "control_port")


def server_args(tmp_path) -> list[str]:
    """The arguments the hub gives every learner's server, as the hub reads its config."""
    env = {"CLASSROOM_HOMES": str(tmp_path / "homes")} if os.geteuid() == 0 else {"CLASSROOM_DEMO": "1"}
    done = load_config(tmp_path / "hub", **env)
    assert done.returncode == 0, done.stderr
    return ast.literal_eval(done.stdout.split(" ", 1)[1])


def test_a_learners_kernel_restarted_before_it_is_alive_gets_new_ports(tmp_path):
    config = KVArgParseConfigLoader([a for a in server_args(tmp_path) if a.startswith("--KernelManager.")])
    manager = KernelManager(kernel_name="python3", config=config.load_config())
    manager.start_kernel()
    try:
        before = [getattr(manager, name) for name in PORTS]
        manager.restart_kernel(now=True, newports=True)  # what the restarter does before the kernel is alive
        after = [getattr(manager, name) for name in PORTS]
    finally:
        manager.shutdown_kernel(now=True)
    assert after != before, f"the kernel restarted on the ports it died on: {before}"
