"""The cluster the multi-server tests share: two app servers behind nginx,
on one PostgreSQL database and one Redis (bench/cluster.py), started once
for the whole run (each start migrates a new database), and each test's
own league nights in it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.cluster import Cluster, missing


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    lacking = missing()
    if lacking:
        pytest.fail(f"the multi-server tests need: {', '.join(lacking)}")
    with Cluster(2, extra_env={"APP_LOG_LEVEL": "DEBUG"}) as running:
        yield running


@pytest.fixture
def nights(cluster: Cluster) -> list[dict[str, Any]]:
    """Four clubs' nights, two tables each, new for each test (pytest-randomly
    runs them in any order: no test finds another's hands)."""
    return cluster.seed(4, 2)
