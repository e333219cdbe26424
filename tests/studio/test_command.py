"""``rofl studio`` as a command: it prints its URL on 127.0.0.1 with a token, serves it, and stops on a signal."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("uvicorn")

from tests.places import REPO  # noqa: E402


@pytest.mark.slow
def test_rofl_studio_serves_its_token_url_only():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "rofl", "studio", "--no-browser"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = process.stderr.readline()
        found = re.fullmatch(r"rofl studio: (http://127\.0\.0\.1:(\d+)/([\w-]{32})/)  \(Ctrl-C stops it\)\n", line)
        assert found, line
        url, port = found[1], found[2]
        for _ in range(600):  # the server starts listening just after it prints the URL
            try:
                with urllib.request.urlopen(url + "options", timeout=10) as answer:
                    assert answer.status == 200 and b'"fields"' in answer.read()
                break
            except urllib.error.URLError as exc:
                if isinstance(exc, urllib.error.HTTPError):
                    raise
                time.sleep(0.1)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/options", timeout=10)
        refused.value.close()
        assert refused.value.code == 403
    finally:
        process.send_signal(signal.SIGINT)
        status = process.wait(60)
        process.stderr.close()
    assert status == 130  # what every rofl command exits with after Ctrl-C, once uvicorn has shut down


def test_the_studio_names_the_extra_it_needs(monkeypatch):
    import importlib.util

    from tests.clirun import run

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    result = run("studio", "--no-browser")
    assert result.exit_code == 2 and "pip install 'rofl[studio]'" in result.output
