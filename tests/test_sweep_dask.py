"""The same sweep on a dask.distributed LocalCluster gives byte-identical per-target records."""

from __future__ import annotations

from pathlib import Path

import pytest
from dask import distributed  # a dev dependency: missing means a broken set-up, not a skip

from sweep_fixtures import build_fixtures, write_list
from toolwitness.cli import main
from toolwitness.sweep.results import dumps_record, read_records
from toolwitness.sweep.task import comparable


def _lines(path: Path) -> dict[str, str]:
    return {r["target"]: dumps_record(comparable(r)) for r in read_records(path)}


@pytest.mark.slow
@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_dask_cluster_matches_local_pool(tmp_path: Path, processes: bool) -> None:
    expected = build_fixtures(tmp_path)
    listing = write_list(tmp_path, list(expected))
    local = tmp_path / "local.jsonl"
    assert main(["sweep", str(listing), "-o", str(local), "--workers", "2"]) == 0
    on_dask = tmp_path / "dask.jsonl"
    # A process cluster's workers are daemonic: its tasks analyse in spawned interpreters,
    # a thread cluster's in forked children; the records must not care.
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=processes,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        assert main(["sweep", str(listing), "-o", str(on_dask), "--scheduler", address]) == 0
    assert {t: line for t, line in _lines(on_dask).items()} == _lines(local)
    assert sorted(_lines(local)) == sorted(expected)
    assert {r["target"]: r["outcome"] for r in read_records(on_dask)} == expected


def test_unreachable_scheduler_is_a_usage_error(tmp_path: Path) -> None:
    listing = write_list(tmp_path, ["x.tgz"])
    argv = ["sweep", str(listing), "-o", str(tmp_path / "r.jsonl"),
            "--scheduler", "tcp://127.0.0.1:9"]  # fmt: skip
    assert main(argv) == 2
