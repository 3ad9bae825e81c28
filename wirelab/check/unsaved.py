"""Is a lab open in JupyterLab with work not saved yet? `./course check` runs the file on disk.

The rule: a running Jupyter server has a session for the notebook, and the session's kernel
has executed a cell whose number is not the highest execution count saved in the file.

- ran cells, then saved: the kernel's last count is the file's highest: no warning;
- ran a cell after the last save: the kernel's count is higher: warning;
- restarted the kernel and ran cells without saving: the counts differ: warning;
- only opened the notebook: the kernel has run nothing: no warning.

The kernel's count is read with a silent, empty execute request, which runs nothing, is not
stored in the history and shows nothing in the notebook.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import nbformat

from wirelab.edition import say


def saved_execution_count(path: Path) -> int:
    """The highest execution count saved in the notebook (0 when no cell was run)."""
    nb = nbformat.read(path, as_version=4)
    return max((c.get("execution_count") or 0 for c in nb.cells if c.cell_type == "code"), default=0)


def kernel_execution_count(connection_file: Path, timeout_s: float = 3.0) -> int | None:
    """The number of the last cell the kernel ran (0: none), or None if it does not answer in time."""
    from jupyter_client import BlockingKernelClient

    client = BlockingKernelClient()
    client.load_connection_file(str(connection_file))
    # No heartbeat: one request needs none, and its thread opens a socket lazily, racing stop_channels().
    client.start_channels(hb=False)
    try:
        msg_id = client.execute("", silent=True, store_history=False)
        while True:
            reply = client.get_shell_msg(timeout=timeout_s)
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply["content"].get("execution_count")
    except Exception:  # a busy or gone kernel: nothing can be said
        return None
    finally:
        client.stop_channels()


def _sessions(server: dict[str, Any]) -> list[dict[str, Any]]:
    url = f"{server['url'].rstrip('/')}/api/sessions"
    request = urllib.request.Request(url, headers={"Authorization": f"token {server.get('token', '')}"})
    with urllib.request.urlopen(request, timeout=3) as response:
        return json.load(response)


def kernels_for(
    notebook: Path,
    servers: Iterable[dict[str, Any]],
    sessions: Callable[[dict[str, Any]], list[dict[str, Any]]] = _sessions,
) -> list[str]:
    """Ids of the kernels that running Jupyter servers attach to `notebook`."""
    target, ids = notebook.resolve(), []
    for server in servers:
        try:
            listed = sessions(server)
        except OSError:
            continue
        root = Path(server.get("root_dir") or server.get("notebook_dir") or ".")
        ids += [
            s["kernel"]["id"] for s in listed if s.get("kernel") and (root / s["path"]).resolve() == target
        ]
    return ids


def unsaved_warning(notebook: Path, connection_file: Path) -> str | None:
    """A warning when the kernel behind `connection_file` ran cells that `notebook` does not show."""
    ran = kernel_execution_count(connection_file)
    saved = saved_execution_count(notebook)
    if not ran or ran == saved:
        return None
    return say(
        f"{notebook.name} is open in JupyterLab, whose kernel last ran cell [{ran}], but the saved "
        f"file's latest is [{saved}]: save the notebook (File > Save, Ctrl-S) and check again. "
        "This check runs the file as it is on disk.",
        f"{notebook.name} 已在 JupyterLab 中打开，其内核最后运行的是单元格 [{ran}]，但已保存文件中"
        f"最新的是 [{saved}]：请先保存笔记本（文件 > 保存，Ctrl-S）再检查。"
        "检查运行的是磁盘上已保存的文件。",
        notebook,
    )


def find_unsaved_work(notebook: Path) -> list[str]:
    """Warnings for every kernel of a running Jupyter server that has run unsaved cells of `notebook`."""
    try:
        from jupyter_core.paths import jupyter_runtime_dir
        from jupyter_server.serverapp import list_running_servers
    except ImportError:
        return []
    runtime = Path(jupyter_runtime_dir())
    warnings = []
    for kernel_id in kernels_for(notebook, list_running_servers()):
        connection_file = runtime / f"kernel-{kernel_id}.json"
        if connection_file.exists() and (warning := unsaved_warning(notebook, connection_file)):
            warnings.append(warning)
    return warnings
