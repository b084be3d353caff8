import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The printed reference (README, "The printed reference"): two JSON files outside the project, in the
# folder $INNOSCRIPT_REFERENCE names, else in ../shared/reference beside the checkout. Tests that compare
# against printed texts skip without them; the card facts the other tests need are the project's own
# (tests/data/card-facts.json).
REFERENCE_DIR = Path(os.environ.get("INNOSCRIPT_REFERENCE") or ROOT.parent / "shared" / "reference")
REFERENCE = REFERENCE_DIR / "innovation-base-cards.json"
EXPANSIONS = REFERENCE_DIR / "innovation-expansion-cards.json"
NO_REFERENCE = ("the printed reference is not beside this checkout (../shared/reference, or a folder named by "
                "INNOSCRIPT_REFERENCE): see the README")
needs_reference = pytest.mark.skipif(not (REFERENCE.exists() and EXPANSIONS.exists()), reason=NO_REFERENCE)


def _git_status():
    import subprocess
    try:
        r = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                           capture_output=True, text=True)
    except OSError:
        return None
    return r.stdout if r.returncode == 0 else None


# Taken when the suite starts; tests/test_zz_clean_tree.py compares at the end.
STATUS_AT_START = _git_status()


@pytest.fixture(scope="session")
def bundle3e():
    from innoscript.compiler.bundle import compile_edition
    from innoscript.core.editions import load_edition
    return compile_edition(load_edition("3e"))


def regenerate() -> bool:
    """Set INNOSCRIPT_REGEN=1 to rewrite golden files instead of comparing."""
    return os.environ.get("INNOSCRIPT_REGEN") == "1"


# PostgreSQL for the store tests: a server of the session's own, in a temporary folder
# (scripts/temp_postgres.py; scripts/ensure-postgresql installs Debian's package where it is missing), or
# the one that INNOSCRIPT_TEST_POSTGRES names (a postgresql:// URL whose user may create databases).
# Where PostgreSQL can be neither installed nor started, its tests skip with the reason.
@pytest.fixture(scope="session")
def postgres():
    import subprocess
    sys.path.insert(0, str(ROOT / "scripts"))
    from temp_postgres import TempPostgres, Unavailable
    existing = os.environ.get("INNOSCRIPT_TEST_POSTGRES")
    if not existing:
        try:
            r = subprocess.run([str(ROOT / "scripts" / "ensure-postgresql")], capture_output=True, text=True,
                               timeout=300, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as err:
            pytest.skip(f"PostgreSQL cannot be installed here: {err}")
        if r.returncode != 0:
            pytest.skip("PostgreSQL cannot be installed here: "
                        + ((r.stderr or r.stdout).strip().splitlines() or ["ensure-postgresql failed"])[-1])
    server = TempPostgres(durable=False, existing=existing)
    try:
        server.start()
    except Unavailable as err:
        pytest.skip(f"PostgreSQL cannot be started here: {err}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A --db value naming a new, empty database: a SQLite file, and a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "g.sqlite")
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture
def store_of(db):
    """Opens stores on the test's database (`db`), and closes them afterwards."""
    from innoscript.runtime.serving.server import open_store
    made = []

    def make():
        made.append(open_store(db))
        return made[-1]
    yield make
    for store in made:
        store.close()


def raw_sql(db: str, sql: str, params=()):
    """A statement run on the database behind the store's back (`?` for each parameter), as anyone with
    access to the database could."""
    if db.startswith("postgresql://"):
        import psycopg
        with psycopg.connect(db, autocommit=True) as conn:
            cur = conn.execute(sql.replace("?", "%s"), params)
            return cur.fetchall() if cur.description else []
    import sqlite3
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()
