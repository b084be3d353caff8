"""Runs last: the test run must not have changed the working tree (docs/img, goldens, reports)."""
import subprocess

import pytest

from conftest import ROOT, STATUS_AT_START


def test_the_test_run_leaves_the_tree_as_it_found_it():
    if STATUS_AT_START is None:
        pytest.skip("not a git checkout")
    now = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                         capture_output=True, text=True).stdout
    changed = sorted(set(now.splitlines()) - set(STATUS_AT_START.splitlines()))
    assert not changed, "the tests changed the working tree:\n" + "\n".join(changed)
