"""PostgreSQL for the tests of the class database (issue 37; dpclass/storage.py): a real
server, started by the project's own ``scripts/postgres.sh`` as ``scripts/serve.sh`` starts
its own, and what the tests ask of it: a fresh empty database, the server restarted or
stopped for a while (the database goes away in the middle of a class and comes back).

The fixtures are in tests/conftest.py:

- ``postgres_url`` (session): the URL of the database ``dpclass`` on a server of this pytest
  process (each xdist worker has its own, so that one worker's restart never breaks the
  other's tests), started with ``postgres.sh start DIR --fast`` (no fsync: a test cluster)
  in a temporary directory, on a port of its own choosing (postgres.sh takes one nothing
  listens on, below the ephemeral ports, and another if it is taken meanwhile), and deleted
  at the end of the session. When it cannot start, the tests that use it skip, with the
  reason, or fail when the environment variable CI is set (CI must run them);
- ``database_url``: a fresh, empty database for each test, once with SQLite (a file in the
  test's tmp_path) and once with PostgreSQL (CREATE DATABASE on that server, dropped after).

``restart(url)`` and ``down(url)`` take the URL of any database of that server.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import uuid
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

REPO_ROOT = Path(__file__).resolve().parents[1]
POSTGRES_SH = REPO_ROOT / "scripts" / "postgres.sh"
TIMEOUT = 300.0  # seconds for one postgres.sh call (a start may first install the package)


class Unavailable(RuntimeError):
    """The server could not be started (the reason, postgres.sh's output with it)."""


@dataclass(frozen=True)
class Server:
    """A running ``scripts/postgres.sh`` cluster: its directory and its database's URL."""

    directory: Path
    url: str  # postgresql+psycopg://USER@127.0.0.1:PORT/dpclass

    @property
    def port(self) -> int:
        return sa.engine.make_url(self.url).port


# The servers this process started, by port.
_SERVERS: dict[int, Server] = {}


def in_ci() -> bool:
    """Whether the environment variable CI is set (to anything but "", 0 or false)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def unavailable(reason: str):
    """Skip the test, with ``reason``; fail it on CI, which must run the database tests."""
    if in_ci():
        pytest.fail(f"{reason}\nCI must run the class database tests (scripts/test.sh "
                    "installs Debian's postgresql).", pytrace=False)
    pytest.skip(reason)


def _postgres_sh(action: str, directory: Path, *args: str) -> str:
    """``bash scripts/postgres.sh ACTION DIRECTORY ARGS``: the last line of its standard
    output (the URL); else Unavailable with what it said."""
    try:
        done = subprocess.run(["bash", str(POSTGRES_SH), action, str(directory), *args],
                              capture_output=True, text=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Unavailable(f"scripts/postgres.sh {action}: {exc}") from exc
    if done.returncode != 0:
        raise Unavailable(f"scripts/postgres.sh {action} {directory} failed (exit "
                          f"{done.returncode}):\n{done.stderr.strip()[-3000:]}")
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def start(directory: Path) -> Server:
    """A test cluster (no fsync) in ``directory``, started; Unavailable if it cannot be."""
    url = _postgres_sh("start", directory, "--fast")
    if not url.startswith("postgresql+psycopg://"):
        raise Unavailable(f"scripts/postgres.sh start printed no URL but {url!r}")
    server = Server(Path(directory), url)
    _SERVERS[server.port] = server
    return server


def server_of(url: str) -> Server:
    """The server (started by this process) that holds the database at ``url``."""
    parsed = sa.engine.make_url(url)
    if not parsed.drivername.startswith("postgresql") or parsed.port not in _SERVERS:
        raise ValueError(f"not a database of a PostgreSQL server of these tests: "
                         f"{parsed.render_as_string(hide_password=True)}")
    return _SERVERS[parsed.port]


def restart(url: str) -> None:
    """A fast restart of the server holding ``url``'s database (``postgres.sh restart``):
    its sessions are ended, open transactions rolled back; it answers again, on the same
    port, when this returns."""
    server = server_of(url)
    again = _postgres_sh("restart", server.directory)
    assert again == server.url, f"restarted at {again}, not {server.url}"


@contextlib.contextmanager
def down(url: str):
    """The server holding ``url``'s database stopped (a fast shutdown) inside the block,
    started again on the same port when it ends."""
    server = server_of(url)
    _postgres_sh("stop", server.directory)
    try:
        yield
    finally:
        again = _postgres_sh("start", server.directory, "--port", str(server.port))
        assert again == server.url, f"started again at {again}, not {server.url}"


def delete(server: Server) -> None:
    """Stop the server and delete its cluster (``postgres.sh delete``)."""
    _SERVERS.pop(server.port, None)
    _postgres_sh("delete", server.directory)


def _admin(url: str) -> sa.Engine:
    """An engine on the server's ``postgres`` database, in autocommit (CREATE and DROP
    DATABASE cannot run in a transaction), without a pool (restarts leave none stale)."""
    return sa.create_engine(sa.engine.make_url(url).set(database="postgres"),
                            isolation_level="AUTOCOMMIT", poolclass=NullPool)


def create_database(url: str) -> str:
    """A new, empty database on the server of ``url``: its URL."""
    name = f"test_{uuid.uuid4().hex[:16]}"
    engine = _admin(url)
    try:
        with engine.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return sa.engine.make_url(url).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    """Drop the database at ``url``, ending the sessions still on it (WITH (FORCE)). When the
    server does not answer (a test left it down) only a warning: the cluster is deleted at
    the end of the session anyway."""
    name = sa.engine.make_url(url).database
    engine = _admin(url)
    try:
        with engine.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    except sa.exc.OperationalError as exc:
        warnings.warn(f"database {name} not dropped: {exc}", stacklevel=2)
    finally:
        engine.dispose()
