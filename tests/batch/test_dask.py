"""``--scheduler``: the same batch on a Dask cluster gives the same outputs and rows."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.clirun import one_error_line, run
from tests.places import REPO

distributed = pytest.importorskip("distributed")

PUZZLES = ("a.rofl", "b.rofl", "c.rofl")


def _statuses(folder: Path) -> dict[str, str]:
    rows = json.loads((folder / "summary.json").read_text())["rows"]
    return {Path(row["picture"]).name: row["status"] for row in rows}


def _same_batch(pictures: Path, tmp_path: Path, address: str) -> None:
    """The batch on the cluster writes what one local process writes, and fails where it fails."""
    here, there = tmp_path / "here", tmp_path / "there"
    assert run("make", pictures, "-o", f"{here}/", "-w", 12, "-j", 1, "-q").exit_code == 1
    result = run("make", pictures, "-o", f"{there}/", "-w", 12, "--scheduler", address, "-q")
    assert result.exit_code == 1
    assert "broken.png" in result.output
    for name in PUZZLES:
        assert (there / name).read_bytes() == (here / name).read_bytes(), name
    assert (
        _statuses(there)
        == _statuses(here)
        == {"a.png": "made", "b.png": "made", "c.bmp": "made", "broken.png": "failed"}
    )


def test_a_local_cluster_gives_the_same_puzzles(pictures, tmp_path):
    # worker threads in this process start in a second; the tasks still travel as bytes
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        _same_batch(pictures, tmp_path, cluster.scheduler_address)


def test_bench_on_a_local_cluster(tmp_path):
    from tests.places import SAMPLES

    table = tmp_path / "table.json"
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster:
        result = run(
            "bench",
            SAMPLES / "hands-up.json",
            SAMPLES / "two-ways.non",
            "-o",
            table,
            "--scheduler",
            cluster.scheduler_address,
        )
    assert result.exit_code == 0
    rows = json.loads(table.read_text())["rows"]
    assert [row["result"] for row in rows] == ["unique", "multiple"]


def test_a_scheduler_out_of_reach_is_one_error(pictures, tmp_path, monkeypatch):
    monkeypatch.setattr("rofl.batch.run.CONNECT_TIMEOUT", "1s")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    result = run("make", pictures, "-o", f"{tmp_path}/out/", "--scheduler", f"tcp://127.0.0.1:{port}")
    one_error_line(result, "--scheduler", "cannot reach")


def test_without_dask_the_error_names_the_extra(pictures, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    result = run("make", pictures, "-o", f"{tmp_path}/out/", "--scheduler", "tcp://127.0.0.1:8786")
    one_error_line(result, "rofl[dask]")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_a_real_scheduler_and_two_worker_processes(pictures, tmp_path):
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, stopped by the test."""
    dask = [str(Path(sys.executable).with_name("dask"))]  # the command Dask installs beside Python
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    address = f"tcp://127.0.0.1:{_free_port()}"
    port = address.rpartition(":")[2]
    common = {"env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    processes = [
        subprocess.Popen(
            [*dask, "scheduler", "--host", "127.0.0.1", "--port", port, "--dashboard-address", ":0"], **common
        )
    ]
    try:
        for _ in range(2):
            worker = [*dask, "worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"]
            processes.append(subprocess.Popen(worker, **common))
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        _same_batch(pictures, tmp_path, address)
    finally:
        for process in reversed(processes):
            process.terminate()
        deadline = time.monotonic() + 30
        for process in processes:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
