"""`./course zh` serves the Chinese lesson 00 with JupyterLab's UI in Chinese (locale zh_CN).

The tests start the real script on 127.0.0.1 without a browser, ask the server what a
browser would (the translation setting of this launch, the zh_CN strings of the language
pack), then open the page in chromium and read the menu bar and the lesson. They need the
course set up (`./course test` does that first) and are skipped where `.venv/.installed`
predates requirements.txt, since `./course` would then install.
"""

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx2
import pytest

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
STAMP = ROOT / ".venv" / ".installed"
TOKEN = "course-zh-test"
LESSON = "notebooks/zh/00_setup_and_the_offline_model.ipynb"


def set_up() -> bool:
    newest = max((ROOT / name).stat().st_mtime for name in ("requirements.txt", "pyproject.toml"))
    return STAMP.exists() and STAMP.stat().st_mtime >= newest


@pytest.fixture(scope="module")
def course_zh(tmp_path_factory):
    if not set_up():
        pytest.skip("the course is not set up (.venv/.installed predates requirements.txt)")
    tmp_path = tmp_path_factory.mktemp("course-zh")
    port = free_port()
    log = (tmp_path / "server.log").open("w+")
    args = ["--no-browser", "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={TOKEN}"]
    args += ["--LabApp.expose_app_in_browser=True"]
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
    }
    server = subprocess.Popen(
        [str(ROOT / "course"), "zh", *args],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx2.get(f"{base}/api/status", params={"token": TOKEN}, timeout=2).status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, log.seek(0) or log.read()
            time.sleep(0.3)
        yield base, server
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()


def test_course_zh_opens_the_chinese_lesson_00_with_the_ui_in_chinese(course_zh):
    base, server = course_zh
    auth = {"token": TOKEN}
    setting = httpx2.get(f"{base}/lab/api/settings/@jupyterlab/translation-extension:plugin", params=auth)
    assert setting.status_code == 200
    assert setting.json()["settings"]["locale"] == "zh_CN"
    strings = httpx2.get(f"{base}/lab/api/translations/zh_CN", params=auth).json()
    assert strings["message"] == "", strings["message"]
    lab = strings["data"]["jupyterlab"]
    assert lab[""]["language"] == "zh-CN" and lab["File Browser"] == ["文件管理器"]
    launched = Path(f"/proc/{server.pid}/cmdline").read_text().split("\0")  # `course` execs jupyter lab
    assert f"--LabApp.default_url=/lab/tree/{LESSON}" in launched, launched
    # a workspace of its own: the English edition's open tabs are not restored beside the Chinese
    workspaces = [arg for arg in launched if arg.startswith("--LabApp.workspaces_dir=")]
    assert workspaces and "course-zh" in workspaces[0], launched
    assert httpx2.get(f"{base}/lab/tree/{LESSON}", params=auth).status_code == 200


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_the_page_shows_chinese_menus_and_the_chinese_lesson_00(course_zh, page, output_dir):
    base, _ = course_zh
    page.goto(f"{base}/?token={TOKEN}")  # redirected to the default URL: the Chinese lesson 00
    try:
        page.wait_for_selector(".jp-MarkdownOutput h1", timeout=90_000)
    finally:
        page.screenshot(path=str(output_dir / "course-zh.png"))
    menus = page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").all_inner_texts()
    assert menus[:3] == ["文件", "编辑", "查看"], menus
    heading = page.locator(".jp-MarkdownOutput h1").first.inner_text()
    assert heading.startswith("00 · 环境准备与离线模型"), heading
    glossary = httpx2.get(f"{base}/files/docs/glossary.zh.md", params={"token": TOKEN})
    assert glossary.status_code == 200 and "术语表" in glossary.text  # the lessons' link resolves
