"""Shared test set-up: every test and every notebook kernel talks to the offline model."""

import os

os.environ["WIRELAB_OFFLINE"] = "1"
os.environ.pop("WIRELAB_MODEL", None)
