"""The PostgreSQL server of the class database tests (issue 37; tests/pgkit.py,
scripts/postgres.sh): it answers through SQLAlchemy and psycopg 3, comes back after a
restart or a stop, and ``database_url`` gives each test an empty database of its own with
each backend. Without a server these tests skip (on CI they fail)."""

from __future__ import annotations

import subprocess

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

import pgkit


def scalar(url: str, query: str):
    engine = sa.create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return connection.execute(sa.text(query)).scalar_one()
    finally:
        engine.dispose()


def test_the_server_answers_through_sqlalchemy_and_psycopg(postgres_url):
    engine = sa.create_engine(postgres_url, poolclass=NullPool)
    assert engine.dialect.driver == "psycopg"
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT version()")).scalar_one().startswith(
            "PostgreSQL ")
        assert connection.execute(sa.text("SELECT current_database()")).scalar_one() == \
            "dpclass"
        settings = {name: connection.execute(sa.text(f"SHOW {name}")).scalar_one()
                    for name in ("listen_addresses", "server_encoding", "fsync")}
    engine.dispose()
    # Only this machine; UTF-8 (names in Korean); a test cluster: no fsync.
    assert settings == {"listen_addresses": "127.0.0.1", "server_encoding": "UTF8",
                        "fsync": "off"}
    status = subprocess.run(
        ["bash", str(pgkit.POSTGRES_SH), "status", str(pgkit.server_of(postgres_url).directory)],
        capture_output=True, text=True, timeout=60)
    assert (status.returncode, status.stdout.strip()) == (0, postgres_url), status.stderr


def test_after_a_restart_or_a_stop_new_connections_work(postgres_url):
    pooled = sa.create_engine(postgres_url, pool_pre_ping=True)  # as dpclass.storage's
    held = sa.create_engine(postgres_url, poolclass=NullPool).connect()
    try:
        assert pooled.connect().execute(sa.text("SELECT 1")).scalar_one() == 1
        pid = held.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()
        pgkit.restart(postgres_url)
        # The session open across the restart was ended...
        with pytest.raises(sa.exc.OperationalError):
            held.execute(sa.text("SELECT 1"))
        # ...a new connection is a new session, and the pool replaces its stale one.
        assert scalar(postgres_url, "SELECT pg_backend_pid()") != pid
        with pooled.connect() as connection:
            assert connection.execute(sa.text("SELECT 1")).scalar_one() == 1
        with pgkit.down(postgres_url):
            with pytest.raises(sa.exc.OperationalError):
                scalar(postgres_url, "SELECT 1")
        assert scalar(postgres_url, "SELECT 1") == 1
        with pooled.connect() as connection:
            assert connection.execute(sa.text("SELECT 1")).scalar_one() == 1
    finally:
        held.close()
        pooled.dispose()


SEEN: set[str] = set()  # the databases database_url gave in this process


@pytest.mark.parametrize("round_", [1, 2])
def test_database_url_gives_an_empty_database_of_its_own(database_url, round_, tmp_path):
    assert database_url not in SEEN
    SEEN.add(database_url)
    url = sa.engine.make_url(database_url)
    if url.drivername == "sqlite":
        assert url.database == str(tmp_path / "class.db")
    else:
        assert url.drivername == "postgresql+psycopg"
        assert url.database not in ("dpclass", "postgres", "template0", "template1")
    engine = sa.create_engine(database_url, poolclass=NullPool)
    try:
        assert sa.inspect(engine).get_table_names() == []  # nothing from another test
        with engine.begin() as connection:
            connection.execute(sa.text("CREATE TABLE answers (n integer)"))
            connection.execute(sa.text("INSERT INTO answers VALUES (1)"))
        assert sa.inspect(engine).get_table_names() == ["answers"]
    finally:
        engine.dispose()


def test_a_dropped_database_is_gone_even_with_a_session_open(postgres_url):
    url = pgkit.create_database(postgres_url)
    name = sa.engine.make_url(url).database
    engine = sa.create_engine(url, poolclass=NullPool)
    left_open = engine.connect()
    try:
        assert left_open.execute(sa.text("SELECT current_database()")).scalar_one() == name
        pgkit.drop_database(url)
        assert scalar(postgres_url, f"SELECT count(*) FROM pg_database WHERE datname = '{name}'"
                      ) == 0
    finally:
        left_open.invalidate()
        engine.dispose()


def test_no_server_skips_here_and_fails_on_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no server"):
        pgkit.unavailable("no server")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run"):
        pgkit.unavailable("no server")


@pytest.mark.parametrize("args, says", [
    ([], "an action and a directory"),
    (["begin", "/nonexistent"], "unknown action 'begin'"),
    (["start", "/nonexistent", "--port", "70000"], "from 1 to 65535"),
    (["stop", "/nonexistent", "--fast"], "go with start"),
])
def test_postgres_sh_refuses_bad_arguments_in_plain_words(args, says):
    """Before installing or starting anything: exit 2 and a sentence naming the mistake."""
    refused = subprocess.run(["bash", str(pgkit.POSTGRES_SH), *args], capture_output=True,
                             text=True, timeout=30)
    assert refused.returncode == 2, refused.stderr
    assert says in refused.stderr
