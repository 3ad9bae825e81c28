"""`./course check` warns when JupyterLab's kernel has run cells that the saved lab does not show."""

from pathlib import Path

import nbformat
import pytest

from tests.conftest import started_kernel
from wirelab.check.unsaved import kernels_for, saved_execution_count, unsaved_warning


def notebook(path: Path, counts: list[int | None]) -> Path:
    cells = [nbformat.v4.new_code_cell("x = 1", execution_count=n) for n in counts]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


@pytest.fixture(scope="module")
def kernel():
    with started_kernel() as (manager, client):
        yield manager, client


def test_the_saved_count_is_the_highest_execution_count_in_the_file(tmp_path):
    assert saved_execution_count(notebook(tmp_path / "a.ipynb", [1, None, 3, 2])) == 3
    assert saved_execution_count(notebook(tmp_path / "b.ipynb", [None, None])) == 0


def test_a_kernel_that_has_run_nothing_gives_no_warning_then_unsaved_cells_do(kernel, tmp_path):
    manager, client = kernel
    lab = notebook(tmp_path / "lab.ipynb", [None])
    assert unsaved_warning(lab, Path(manager.connection_file)) is None
    for _ in range(3):
        client.execute_interactive("y = 2", timeout=30)
    warning = unsaved_warning(notebook(lab, [1, 2]), Path(manager.connection_file))
    assert warning is not None and "ran cell [3]" in warning and "latest is [2]" in warning
    assert "save the notebook" in warning
    assert unsaved_warning(notebook(lab, [1, 2, 3]), Path(manager.connection_file)) is None


def test_reading_the_count_runs_nothing_in_the_learners_kernel(kernel, tmp_path):
    manager, client = kernel
    before = client.execute_interactive("z = 3", timeout=30)["content"]["execution_count"]
    unsaved_warning(notebook(tmp_path / "lab.ipynb", [before]), Path(manager.connection_file))
    after = client.execute_interactive("z = 4", timeout=30)["content"]["execution_count"]
    assert after == before + 1


def test_the_kernels_of_a_notebook_are_found_through_each_servers_sessions(tmp_path):
    lab = tmp_path / "labs" / "02_lab.ipynb"
    servers = [{"url": "http://a/", "root_dir": str(tmp_path)}, {"url": "http://down/", "root_dir": "/"}]
    listed = {
        "http://a/": [
            {"path": "labs/02_lab.ipynb", "kernel": {"id": "k1"}},
            {"path": "labs/03_lab.ipynb", "kernel": {"id": "k2"}},
            {"path": "labs/02_lab.ipynb", "kernel": None},
        ]
    }

    def sessions(server):
        if server["url"] not in listed:
            raise ConnectionRefusedError("server gone")
        return listed[server["url"]]

    assert kernels_for(lab, servers, sessions) == ["k1"]


def test_a_lab_run_in_a_real_jupyter_server_but_not_saved_is_found(tmp_path):
    """The whole path: a Jupyter server's session for the lab, its kernel, the saved file."""
    import json
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    from jupyter_client import BlockingKernelClient
    from jupyter_core.paths import jupyter_runtime_dir

    from wirelab.check.unsaved import find_unsaved_work

    lab = notebook(tmp_path / "07_lab.ipynb", [None])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyter",
            "server",
            "--no-browser",
            "--allow-root",  # containers often run as root
            "--ip=127.0.0.1",
            f"--port={port}",
            "--IdentityProvider.token=t",
            f"--ServerApp.root_dir={tmp_path}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/api/sessions"
        body = json.dumps({"path": lab.name, "type": "notebook", "kernel": {"name": "python3"}}).encode()
        request = urllib.request.Request(url, data=body, headers={"Authorization": "token t"}, method="POST")
        for _ in range(120):  # the server takes a few seconds to start on a loaded machine
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    kernel_id = json.load(response)["kernel"]["id"]
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("the Jupyter server did not start")
        assert find_unsaved_work(lab) == []
        client = BlockingKernelClient()
        client.load_connection_file(str(Path(jupyter_runtime_dir()) / f"kernel-{kernel_id}.json"))
        # No heartbeat: its thread would open a REQ socket while stop_channels() closes the
        # context a moment later, a race that surfaced once as zmq's "Too many open files".
        client.start_channels(hb=False)
        client.wait_for_ready(timeout=60)
        client.execute_interactive("answer = 42", timeout=30)
        client.stop_channels()
        (warning,) = find_unsaved_work(lab)
        assert "07_lab.ipynb" in warning and "ran cell [1]" in warning and "latest is [0]" in warning
        notebook(lab, [1])
        assert find_unsaved_work(lab) == []
    finally:
        server.terminate()
        server.wait(timeout=30)
