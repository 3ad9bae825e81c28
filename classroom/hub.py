"""Drive a real JupyterHub the way a room of learners does, over its REST and websocket APIs.

Used by tests/classroom/test_hub.py and benchmarks/classroom.py (as root: every learner is a
system user of their own, created by the hub, removed here when the hub stops):

    with served_repository(repo) as url, running_hub(state, homes, learner_python(env), idle_s=30) as hub:
        learner = Learner(hub, "ada")
        await learner.log_in()          # a token from the hub, with the workshop's password
        await learner.start_server()    # their own jupyterhub-singleuser, as their own user
        await learner.pull_course(url)  # nbgitpuller clones the course into ~/course
        outputs = await learner.run_notebook("course/notebooks/02_the_six_step_loop.ipynb")

A notebook runs cell by cell on a kernel of the learner's own server (the kernels REST API,
then Jupyter's messaging protocol over the kernel's websocket), as JupyterLab runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
AsyncHTTPClient.configure(None, max_clients=64)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def course_repository(dest: Path) -> Path:
    """A git repository of the course as it is in this working tree (tracked and new files)."""
    files = (
        subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    git = ["git", "-c", "user.name=course", "-c", "user.email=course@localhost"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=dest, check=True)
    subprocess.run([*git, "add", "-A"], cwd=dest, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "the course"], cwd=dest, check=True)
    return dest


def reachable_by_others(path: Path) -> bool:
    """Whether a user other than its owner can open `path` (every folder above it searchable)."""
    real = path.resolve()
    return real.stat().st_mode & 0o004 != 0 and all(p.stat().st_mode & 0o001 for p in real.parents)


def learner_python(dest: Path) -> Path:
    """A Python the learners' system users can run, with the course's packages: this one, when they
    can reach it; else (this one lives in a private home, as pyenv's under /root) a virtual
    environment at `dest` from the system's Python of the same version, reading this environment's
    packages (`site.addsitedir` in a .pth file) and Jupyter's files."""
    here = Path(sys.executable)
    if all(reachable_by_others(p) for p in (here, Path(sys.base_prefix) / "lib")):
        return here
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    system = next(
        (Path(d) / version for d in ("/usr/bin", "/usr/local/bin") if (Path(d) / version).exists()), None
    )
    if system is None or not reachable_by_others(system):
        raise RuntimeError(f"no {version} that other users can run: the learners' servers need one")
    subprocess.run([str(system), "-m", "venv", "--without-pip", str(dest)], check=True)
    site_packages = dest / "lib" / version / "site-packages"
    ours = Path(sys.prefix) / "lib" / version / "site-packages"
    (site_packages / "course.pth").write_text(f"import site; site.addsitedir({str(ours)!r})\n")
    for data in ("etc/jupyter", "share/jupyter"):  # Jupyter's server extensions, lab extensions, kernels
        (dest / data).parent.mkdir(parents=True, exist_ok=True)
        (dest / data).symlink_to(Path(sys.prefix) / data)
    shebang = f"#!{Path(sys.prefix) / 'bin' / 'python'}"
    for script in (Path(sys.prefix) / "bin").iterdir():  # the commands (jupyter, nbgrader, alembic...)
        mine = dest / "bin" / script.name
        if script.is_file() and not mine.exists() and script.read_bytes().startswith(shebang.encode()):
            mine.write_text(script.read_text().replace(shebang, f"#!{dest / 'bin' / 'python'}", 1))
            mine.chmod(0o755)
    return dest / "bin" / "python"


@contextlib.contextmanager
def served_repository(repo: Path, timeout_s: float = 30) -> Iterator[str]:
    """Serve the git repository `repo` read-only with `git daemon` on 127.0.0.1; yields its URL.

    Learners clone it as a workshop clones from its git host: through a server, since git refuses
    to read a repository on the disk that another user owns."""
    port = free_port()
    daemon = subprocess.Popen(
        [
            "git",
            "daemon",
            "--reuseaddr",
            "--export-all",
            "--listen=127.0.0.1",
            f"--port={port}",
            f"--base-path={repo.parent}",
            str(repo.parent),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if daemon.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("git daemon did not start") from None
                time.sleep(0.2)
        yield f"git://127.0.0.1:{port}/{repo.name}"
    finally:
        daemon.terminate()
        daemon.wait(10)


def remove_learner_accounts(homes: Path) -> None:
    """Remove the system users the hub created with a home in `homes`, and what they left running."""
    accounts = [a for a in pwd.getpwall() if Path(a.pw_dir).parent == homes]
    for account in accounts:
        for status in Path("/proc").glob("[0-9]*/status"):
            with contextlib.suppress(OSError):
                if status.stat().st_uid == account.pw_uid:
                    os.kill(int(status.parent.name), signal.SIGKILL)
        subprocess.run(["userdel", "--force", account.pw_name], check=True, capture_output=True)


@dataclass
class Hub:
    url: str
    state: Path
    homes: Path
    admin_token: str
    password: str
    process: subprocess.Popen

    async def api(self, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Authorization": f"token {token or self.admin_token}"}
        request = HTTPRequest(
            f"{self.url}/hub/api{path}",
            method=method,
            headers=headers,
            body=None if body is None else json.dumps(body),
            allow_nonstandard_methods=True,
        )
        response = await AsyncHTTPClient().fetch(request)
        return json.loads(response.body) if response.body else None


@contextlib.contextmanager
def running_hub(
    state: Path, homes: Path, python: Path, idle_s: int = 3600, timeout_s: float = 60
) -> Iterator[Hub]:
    """Start JupyterHub (with configurable-http-proxy) on 127.0.0.1 ports, the learners' homes in
    `homes`, their servers run by `python`; stop it and its servers after, and remove the learners'
    system users."""
    port, password, admin_token = free_port(), secrets.token_hex(8), secrets.token_hex(16)
    env = {
        **os.environ,
        "CLASSROOM_STATE": str(state),
        "CLASSROOM_HOMES": str(homes),
        "CLASSROOM_PYTHON": str(python),
        "CLASSROOM_PASSWORD": password,
        "CLASSROOM_INSTRUCTOR_TOKEN": admin_token,
        "CLASSROOM_PORT": str(port),
        "CLASSROOM_HUB_PORT": str(free_port()),
        "CLASSROOM_PROXY_API_PORT": str(free_port()),
        "CLASSROOM_IDLE_S": str(idle_s),
        "PATH": f"{python.parent}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    state.mkdir(mode=0o700, parents=True, exist_ok=True)
    log = (state / "jupyterhub.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyterhub", "-f", str(HERE / "jupyterhub_config.py")],
        cwd=state,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    hub = Hub(f"http://127.0.0.1:{port}", state, homes, admin_token, password, process)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"JupyterHub exited:\n{(state / 'jupyterhub.log').read_text()[-3000:]}")
            try:
                asyncio.run(hub.api("GET", "/"))
                break
            except (OSError, HTTPClientError):
                if time.monotonic() > deadline:
                    raise RuntimeError("JupyterHub did not answer in time") from None
                time.sleep(0.5)
        yield hub
    except BaseException:  # what the hub said, for whoever reads the failure
        print((state / "jupyterhub.log").read_text(errors="replace")[-12000:], file=sys.stderr)
        raise
    finally:
        process.terminate()  # the hub stops the learners' servers, the proxy and its services
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
        log.close()
        if os.geteuid() == 0:
            remove_learner_accounts(homes)


@dataclass
class Learner:
    hub: Hub
    name: str
    token: str = ""
    start_s: float = 0.0
    pull_s: float = 0.0
    messages_seen: list[dict] = field(default_factory=list)

    @property
    def server(self) -> str:
        return f"{self.hub.url}/user/{self.name}"

    async def log_in(self) -> None:
        """Ask the hub for a token with the workshop's password (the hub's REST login)."""
        auth = {"username": self.name, "password": self.hub.password}
        reply = await self._fetch(
            "POST",
            f"{self.hub.url}/hub/api/users/{self.name}/tokens",
            {"auth": auth, "note": "workshop"},
            token="",
        )
        self.token = reply["token"]

    async def start_server(self, timeout_s: float = 180) -> None:
        begin = time.monotonic()
        await self.hub.api("POST", f"/users/{self.name}/server", token=self.token)
        while not await self.is_running():
            if time.monotonic() - begin > timeout_s:
                raise TimeoutError(f"{self.name}'s server did not start")
            await asyncio.sleep(0.2)
        self.start_s = time.monotonic() - begin

    async def is_running(self) -> bool:
        user = await self.hub.api("GET", f"/users/{self.name}")
        server = user["servers"].get("")
        return bool(server and server["ready"])

    async def pull_course(self, repo_url: str, branch: str = "main") -> None:
        """nbgitpuller's API (what its links open) clones the course from `repo_url` into ~/course."""
        begin = time.monotonic()
        query = urlencode({"repo": repo_url, "branch": branch, "targetpath": "course"})
        events: list[dict] = []

        def on_chunk(chunk: bytes) -> None:
            for line in chunk.decode().splitlines():
                if line.startswith("data:"):
                    events.append(json.loads(line[5:]))

        await AsyncHTTPClient().fetch(
            HTTPRequest(
                f"{self.server}/git-pull/api?{query}",
                headers=self._auth(),
                streaming_callback=on_chunk,
                request_timeout=120,
            )
        )
        phases = [e.get("phase") for e in events]
        if "finished" not in phases:
            raise RuntimeError(f"nbgitpuller did not finish for {self.name}: {events[-3:]}")
        self.pull_s = time.monotonic() - begin

    async def contents(self, path: str, token: str | None = None, user: str | None = None) -> dict:
        base = f"{self.hub.url}/user/{user or self.name}"
        return await self._fetch("GET", f"{base}/api/contents/{path}", token=token)

    async def save(self, path: str, notebook: dict) -> None:
        await self._fetch(
            "PUT", f"{self.server}/api/contents/{path}", {"type": "notebook", "content": notebook}
        )

    async def run_notebook(
        self, path: str, extra_cells: list[str] = ()
    ) -> tuple[list[list[dict]], list[dict]]:
        """Run every code cell of the learner's `path`, then `extra_cells`, on a new kernel of their
        own server. Returns each notebook cell's outputs and each extra cell's outputs."""
        notebook = (await self.contents(path))["content"]
        cells = [c["source"] for c in notebook["cells"] if c["cell_type"] == "code"]
        outputs = await self.run_cells([*cells, *extra_cells], str(Path(path).parent))
        return outputs[: len(cells)], outputs[len(cells) :]

    def _socket_request(self, ws_url: str) -> HTTPRequest:
        """A kernel's websocket, given as long to open as every other request here (tornado's
        default, 20 s, is too short when nine learners' servers share two busy cores)."""
        return HTTPRequest(ws_url, headers=self._auth(), connect_timeout=120, request_timeout=120)

    async def run_cells(self, cells: list[str], directory: str) -> list[list[dict]]:
        """Run `cells` one by one on a new kernel of the learner's server, started in `directory`
        (relative to their home); each cell's outputs."""
        kernel = await self._fetch(
            "POST", f"{self.server}/api/kernels", {"name": "python3", "path": directory}
        )
        ws_url = f"{self.server.replace('http', 'ws', 1)}/api/kernels/{kernel['id']}/channels"
        socket_ = await websocket_connect(self._socket_request(ws_url))
        try:
            session = uuid.uuid4().hex
            return [await self._execute(socket_, session, source) for source in cells]
        finally:
            socket_.close()
            await self.shut_down(kernel["id"])

    async def shut_down(self, kernel: str) -> None:
        """Shut down one of the learner's kernels; one already gone (culled) is no error."""
        try:
            await self._fetch("DELETE", f"{self.server}/api/kernels/{kernel}")
        except HTTPClientError as e:
            if e.code != 404:
                raise

    async def run_and_leave(self, code: str, directory: str, timeout_s: float = 120) -> str:
        """Start `code` on a new kernel of the learner's server, then leave while it runs (a learner
        who closes the laptop): the websocket closes once the kernel is busy with it. The kernel's id."""
        kernel = await self._fetch(
            "POST", f"{self.server}/api/kernels", {"name": "python3", "path": directory}
        )
        ws_url = f"{self.server.replace('http', 'ws', 1)}/api/kernels/{kernel['id']}/channels"
        socket_ = await websocket_connect(self._socket_request(ws_url))
        try:
            msg_id = await self._send_execute(socket_, uuid.uuid4().hex, code)
            while True:
                raw = await asyncio.wait_for(socket_.read_message(), timeout_s)
                if raw is None:
                    raise RuntimeError(f"{self.name}'s kernel websocket closed")
                message = {} if isinstance(raw, bytes) else json.loads(raw)
                if (
                    message.get("parent_header", {}).get("msg_id") == msg_id
                    and message.get("content", {}).get("execution_state") == "busy"
                ):
                    return kernel["id"]
        finally:
            socket_.close()

    async def _execute(self, socket_, session: str, code: str, timeout_s: float = 120) -> list[dict]:
        msg_id = await self._send_execute(socket_, session, code)
        outputs, idle, replied = [], False, False
        while not (idle and replied):
            raw = await asyncio.wait_for(socket_.read_message(), timeout_s)
            if raw is None:
                raise RuntimeError(f"{self.name}'s kernel websocket closed")
            if isinstance(raw, bytes):  # a message with binary buffers (widget state): not an output
                continue
            message = json.loads(raw)
            self.messages_seen.append(message)
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            kind = message["msg_type"]
            if kind in ("stream", "execute_result", "display_data", "error"):
                outputs.append({"output_type": kind, **message["content"]})
            idle = idle or (kind == "status" and message["content"]["execution_state"] == "idle")
            replied = replied or kind == "execute_reply"
        return outputs

    async def _send_execute(self, socket_, session: str, code: str) -> str:
        """Send an execute_request for `code` on the kernel's websocket; its msg_id."""
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "session": session,
            "username": self.name,
            "msg_type": "execute_request",
            "version": "5.3",
            "date": "",
        }
        await socket_.write_message(
            json.dumps(
                {
                    "header": header,
                    "parent_header": {},
                    "metadata": {},
                    "channel": "shell",
                    "buffers": [],
                    "content": {
                        "code": code,
                        "silent": False,
                        "store_history": True,
                        "user_expressions": {},
                        "allow_stdin": False,
                        "stop_on_error": False,
                    },
                }
            )
        )
        return msg_id

    def _auth(self, token: str | None = None) -> dict:
        return {"Authorization": f"token {self.token if token is None else token}"}

    async def _fetch(self, method: str, url: str, body: Any = None, token: str | None = None) -> Any:
        headers = self._auth(token) if (token is None or token) else {}
        request = HTTPRequest(
            url,
            method=method,
            headers=headers,
            request_timeout=120,
            body=None if body is None else json.dumps(body),
            allow_nonstandard_methods=True,
        )
        response = await AsyncHTTPClient().fetch(request)
        return json.loads(response.body) if response.body else None


LESSON = "course/notebooks/02_the_six_step_loop.ipynb"
LAB = "course/labs/02_the_six_step_loop_lab.ipynb"
SOLUTION = "course/solutions/02_the_six_step_loop_lab.ipynb"
MEMORY = (
    "import os\n"
    "def rss_mb(pid):\n"
    "    for line in open(f'/proc/{pid}/status'):\n"
    "        if line.startswith('VmRSS:'):\n"
    "            return int(line.split()[1]) / 1024\n"
    "print(os.getpid(), round(rss_mb(os.getpid()), 1), round(rss_mb(os.getppid()), 1))"
)


@dataclass
class Session:
    """What one learner did: the outputs they saw and the figures measured on the way."""

    learner: Learner
    lesson: list[list[dict]]
    lab: list[list[dict]]
    probe: list[list[dict]]
    kernel_pid: int
    kernel_uid: int
    kernel_mb: float
    server_mb: float


def probe_cells(city: str) -> list[str]:
    """Cells run after the lesson: record this kernel's model traffic, ask about `city`, measure memory."""
    return [
        "seen = []\nunsubscribe = llm.wire.subscribe(lambda m: seen.append(repr(m)))",
        f"reply = llm.chat.completions.create(model=model_name(), tools=tools, messages=[\n"
        f"    {{'role': 'user', 'content': 'What is the weather in {city}?'}}])\n"
        "print(json.loads(reply.choices[0].message.tool_calls[0].function.arguments)['city'])",
        "unsubscribe()\nprint(len(seen), '\\n'.join(seen))",
        "import wirelab\nprint(wirelab.__file__)",
        "import os\nprint(os.getuid())",
        MEMORY,
    ]


async def learner_session(learner: Learner, repo_url: str, city: str, solve: bool) -> Session:
    """Log in, start a server, pull the course, run lesson 02 then lab 02 (solved first when `solve`)."""
    await learner.log_in()
    await learner.start_server()
    await learner.pull_course(repo_url)
    lesson, probe = await learner.run_notebook(LESSON, probe_cells(city))
    if solve:  # the learner writes the answers into their own copy of the lab and saves it
        solved = (await learner.contents(SOLUTION))["content"]
        await learner.save(LAB, solved)
    lab, _ = await learner.run_notebook(LAB)
    printed = "".join(o.get("text", "") for o in probe[-1])  # a print may come in several stream messages
    pid, kernel_mb, server_mb = printed.split()
    uid = int("".join(o.get("text", "") for o in probe[-2]))
    return Session(learner, lesson, lab, probe, int(pid), uid, float(kernel_mb), float(server_mb))
