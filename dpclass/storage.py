"""The one module that reads and writes what a class submits (issue 37).

SQLAlchemy Core on the database at ``DPCLASS_DATABASE_URL``: a PostgreSQL URL
(``postgresql+psycopg://…``) when several replicas serve a class (``scripts/serve.sh
--replicas N`` sets one), else a SQLite file, ``$DPCLASS_DATA_DIR/class.db`` (default
``.data/class.db`` in the repository, git-ignored). The schema is brought up to date by the
Alembic migrations of ``dpclass/migrations`` when a :class:`Store` opens.

Every write is one transaction, committed before the call returns: what a call
acknowledges is on disk. A database that cannot be reached raises :class:`Unavailable`
(the page asks to try again; nothing was written). Activities expire (default 12 hours,
``DPCLASS_TTL_HOURS``) and are then deleted with everything that belongs to them, as they
are when a teacher deletes one; closing an activity deletes its raw histogram values.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import exc

from dpclass import activities
from dpcore.errors import ArgumentError

REPO_ROOT = Path(__file__).resolve().parents[1]
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
URL_VARIABLE = "DPCLASS_DATABASE_URL"
DATA_DIR_VARIABLE = "DPCLASS_DATA_DIR"
TTL_VARIABLE = "DPCLASS_TTL_HOURS"
DEFAULT_TTL_HOURS = 12.0

# Wrong join codes: per browser, few (a code cannot be guessed in practice anyway); per
# address, many: a whole class sits behind one school address and typos must never lock
# the room out.
RATE_WINDOW_S = 600.0
WRONG_CODES_PER_BROWSER = 10
WRONG_CODES_PER_ADDRESS = 500

metadata = sa.MetaData()
# The tables as the migrations leave them (dpclass/migrations/versions): the queries' names.
ACTIVITIES = sa.Table(
    "activities", metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("kind", sa.String(16)), sa.Column("config", sa.Text),
    sa.Column("teacher_key_hash", sa.String(64)), sa.Column("created_at", sa.Float),
    sa.Column("expires_at", sa.Float), sa.Column("closed_at", sa.Float),
    sa.Column("shared", sa.Boolean))


def _owned(name: str, *columns: sa.Column) -> sa.Table:
    return sa.Table(name, metadata, sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("code", sa.String(16)), *columns, sa.Column("at", sa.Float))


POLL = _owned("poll_answers", sa.Column("student", sa.String(64)),
              sa.Column("reported", sa.Integer))
ATTACK = _owned("attack_tallies", sa.Column("student", sa.String(64)),
                sa.Column("false_alarms", sa.Integer), sa.Column("null_rounds", sa.Integer),
                sa.Column("misses", sa.Integer), sa.Column("alt_rounds", sa.Integer))
VALUES = _owned("histogram_values", sa.Column("student", sa.String(64)),
                sa.Column("grp", sa.Integer), sa.Column("value", sa.Integer))
RELEASES = _owned("histogram_releases", sa.Column("alpha", sa.Float),
                  sa.Column("counts", sa.Text))
ATTEMPTS = sa.Table("join_attempts", metadata, sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("who", sa.String(80)), sa.Column("at", sa.Float))
OWNED = (POLL, ATTACK, VALUES, RELEASES)
BY_KIND = {"poll": POLL, "attack": ATTACK, "histogram": VALUES}


class StorageError(Exception):
    """A class activity's request that cannot be done; its message is for the reader."""


class Unavailable(StorageError):
    """The database cannot be reached right now: nothing was written; try again."""


class NotFound(StorageError):
    """No activity with that code (never created, deleted, or expired and deleted)."""


class Expired(StorageError):
    """The activity's time is up."""


class Closed(StorageError):
    """The teacher has closed the activity."""


class AlreadyAnswered(StorageError):
    """This browser has already answered this activity (kept: the first answer)."""


class NotTeacher(StorageError):
    """The teacher key does not open this activity."""


class OverBudget(StorageError):
    """A release would spend more than the activity's total privacy budget."""


class RateLimited(StorageError):
    """Too many wrong join codes from this browser or address: wait a few minutes."""


@dataclass(frozen=True)
class Activity:
    """An activity as stored; ``config`` as :mod:`dpclass.activities` made it."""

    code: str
    kind: str
    config: dict
    created_at: float
    expires_at: float
    closed_at: float | None
    shared: bool

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


def default_url() -> str:
    """``DPCLASS_DATABASE_URL`` if set, else the SQLite file in the data directory."""
    url = os.environ.get(URL_VARIABLE, "").strip()
    if url:
        return url
    data = Path(os.environ.get(DATA_DIR_VARIABLE, "") or REPO_ROOT / ".data")
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data / 'class.db'}"


def default_ttl_s() -> float:
    """Seconds an activity lives: ``DPCLASS_TTL_HOURS`` (default 12) hours."""
    raw = os.environ.get(TTL_VARIABLE, "").strip()
    try:
        hours = float(raw) if raw else DEFAULT_TTL_HOURS
    except ValueError:
        hours = DEFAULT_TTL_HOURS
    return max(hours, 1 / 60) * 3600.0


def masked(url: str) -> str:
    """``url`` with any password replaced by ***, for logs and messages."""
    return sa.engine.make_url(url).render_as_string(hide_password=True)


def _engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _sqlite(dbapi_connection, _record):  # pragma: no cover - run by SQLite
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged answer is on disk
            cursor.close()
        return engine
    # pre_ping: a connection the server dropped (a restart) is replaced, not used.
    return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10,
                            pool_timeout=10)


_MIGRATED: set[str] = set()
_MIGRATING = threading.Lock()


def migrate(engine: sa.Engine) -> None:
    """Bring the schema up to date with Alembic (from empty, or from any older version).
    Replicas starting together take turns: PostgreSQL through an advisory lock held for
    the migration's transaction, SQLite through its write lock."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(37037037)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def schema_version(engine: sa.Engine) -> str | None:
    """The Alembic revision the database is at (None before the first migration)."""
    with engine.connect() as connection:
        if not sa.inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def _unavailable(error: Exception) -> Unavailable:
    return Unavailable("The class database cannot be reached right now. Nothing was saved: "
                       "try again in a moment.")


class Store:
    """The class activities in one database (see the module's docstring).

    ``clock`` gives the time in seconds (tests pass their own to test expiry)."""

    def __init__(self, url: str | None = None, *, ttl_s: float | None = None, clock=time.time):
        self.url = url or default_url()
        self.ttl_s = default_ttl_s() if ttl_s is None else float(ttl_s)
        self.clock = clock
        self.engine = _engine(self.url)
        with _MIGRATING:
            if self.url not in _MIGRATED:
                try:
                    migrate(self.engine)
                except (exc.OperationalError, exc.InterfaceError) as error:
                    raise _unavailable(error) from error
                _MIGRATED.add(self.url)

    def dispose(self) -> None:
        """Close the store's connections (a test's store, at its end)."""
        self.engine.dispose()

    # --- plumbing -------------------------------------------------------------------------
    def _run(self, work, *, write: bool):
        """``work(connection)`` in one transaction (committed when ``write``); a database
        that cannot be reached becomes :class:`Unavailable`."""
        try:
            with (self.engine.begin() if write else self.engine.connect()) as connection:
                return work(connection)
        except exc.DBAPIError as error:
            if isinstance(error, (exc.OperationalError, exc.InterfaceError)) \
                    or error.connection_invalidated:
                raise _unavailable(error) from error
            raise

    def _row(self, connection, code: str):
        row = connection.execute(sa.select(ACTIVITIES).where(ACTIVITIES.c.code == code)).first()
        if row is None:
            raise NotFound("There is no activity with this code: check it with your teacher.")
        return row

    @staticmethod
    def _activity(row) -> Activity:
        return Activity(row.code, row.kind, json.loads(row.config), row.created_at,
                        row.expires_at, row.closed_at, bool(row.shared))

    def _open_row(self, connection, code: str):
        """The activity's row if students may still submit to it."""
        row = self._row(connection, code)
        if row.expires_at <= self.clock():
            raise Expired("This activity has ended (its time is up).")
        if row.closed_at is not None:
            raise Closed("The teacher has closed this activity: it takes no more answers.")
        return row

    def _teacher_row(self, connection, code: str, key: str | None):
        row = self._row(connection, code)
        if not activities.same_digest(key, row.teacher_key_hash):
            raise NotTeacher("This browser does not hold the teacher key of this activity.")
        return row

    # --- activities -----------------------------------------------------------------------
    def create(self, kind: str, config: dict) -> tuple[Activity, str]:
        """A new activity of ``kind`` with ``config`` (checked again here); returns it and
        its teacher key, which only the teacher's browser keeps."""
        config = activities.check_config(kind, config)
        key = activities.new_secret()
        now = self.clock()

        def work(connection):
            self._purge(connection, now)
            for _ in range(8):  # 40-bit codes: a clash is all but impossible; retry anyway
                code = activities.new_code()
                if connection.execute(sa.select(ACTIVITIES.c.code).where(
                        ACTIVITIES.c.code == code)).first() is None:
                    break
            connection.execute(ACTIVITIES.insert().values(
                code=code, kind=kind, config=json.dumps(config),
                teacher_key_hash=activities.digest(key), created_at=now,
                expires_at=now + self.ttl_s, closed_at=None, shared=False))
            return code

        code = self._run(work, write=True)
        return Activity(code, kind, config, now, now + self.ttl_s, None, False), key

    def get(self, code: str) -> Activity:
        """The activity (:class:`NotFound`; :class:`Expired` once its time is up)."""
        def work(connection):
            row = self._row(connection, code)
            if row.expires_at <= self.clock():
                raise Expired("This activity has ended (its time is up).")
            return self._activity(row)
        return self._run(work, write=False)

    def is_teacher(self, code: str, key: str | None) -> bool:
        """Whether ``key`` is this activity's teacher key (constant-time comparison)."""
        def work(connection):
            row = connection.execute(sa.select(ACTIVITIES.c.teacher_key_hash).where(
                ACTIVITIES.c.code == code)).first()
            return row is not None and activities.same_digest(key, row.teacher_key_hash)
        return self._run(work, write=False)

    def share(self, code: str, key: str | None, shared: bool = True) -> None:
        """Show (or hide) the activity's results on the students' screens."""
        def work(connection):
            self._teacher_row(connection, code, key)
            connection.execute(ACTIVITIES.update().where(ACTIVITIES.c.code == code)
                               .values(shared=bool(shared)))
        self._run(work, write=True)

    def close(self, code: str, key: str | None) -> None:
        """Take no more answers; a histogram's raw values are deleted (its releases stay)."""
        def work(connection):
            row = self._teacher_row(connection, code, key)
            if row.closed_at is None:
                connection.execute(ACTIVITIES.update().where(ACTIVITIES.c.code == code)
                                   .values(closed_at=self.clock()))
            connection.execute(VALUES.delete().where(VALUES.c.code == code))
        self._run(work, write=True)

    def delete(self, code: str, key: str | None) -> None:
        """Delete the activity and everything that belongs to it."""
        def work(connection):
            self._teacher_row(connection, code, key)
            self._delete(connection, [code])
        self._run(work, write=True)

    @staticmethod
    def _delete(connection, codes: list[str]) -> None:
        if not codes:
            return
        for table in OWNED:
            connection.execute(table.delete().where(table.c.code.in_(codes)))
        connection.execute(ACTIVITIES.delete().where(ACTIVITIES.c.code.in_(codes)))

    def _purge(self, connection, now: float) -> int:
        codes = list(connection.execute(sa.select(ACTIVITIES.c.code).where(
            ACTIVITIES.c.expires_at <= now)).scalars())
        self._delete(connection, codes)
        connection.execute(ATTEMPTS.delete().where(ATTEMPTS.c.at < now - RATE_WINDOW_S))
        return len(codes)

    def purge_expired(self) -> int:
        """Delete every expired activity with what belongs to it; returns how many."""
        return self._run(lambda connection: self._purge(connection, self.clock()), write=True)

    # --- what students submit -------------------------------------------------------------
    def _submit(self, code: str, kind: str, student: str, values: dict) -> None:
        if not isinstance(student, str) or not student:
            raise ArgumentError("`{name}` must not be empty.", name="student")
        table = BY_KIND[kind]

        def work(connection):
            row = self._open_row(connection, code)
            if row.kind != kind:
                raise NotFound("This code belongs to another kind of activity.")
            config = json.loads(row.config)
            checked = _checked(kind, config, values)
            student_hash = activities.digest(student)
            if connection.execute(sa.select(table.c.id).where(
                    table.c.code == code, table.c.student == student_hash)).first():
                raise AlreadyAnswered("This browser has already answered: your first "
                                      "answer is kept.")
            connection.execute(table.insert().values(code=code, student=student_hash,
                                                     at=self.clock(), **checked))
        try:
            self._run(work, write=True)
        except exc.IntegrityError as error:  # two submits of one student at once
            raise AlreadyAnswered("This browser has already answered: your first answer "
                                  "is kept.") from error

    def has_answered(self, code: str, student: str | None) -> bool:
        """Whether the token ``student`` has submitted to this activity."""
        if not student:
            return False

        def work(connection):
            kind = self._row(connection, code).kind
            table = BY_KIND[kind]
            return connection.execute(sa.select(table.c.id).where(
                table.c.code == code,
                table.c.student == activities.digest(student))).first() is not None
        return self._run(work, write=False)

    def answer_poll(self, code: str, student: str, reported: int) -> None:
        """Keep one student's REPORTED answer (drawn in their browser); the true one never
        reaches the server."""
        self._submit(code, "poll", student, {"reported": reported})

    def submit_attack(self, code: str, student: str, *, false_alarms: int, null_rounds: int,
                      misses: int, alt_rounds: int) -> None:
        """Keep one student's four counts from their rounds of the attacker game."""
        self._submit(code, "attack", student, {
            "false_alarms": false_alarms, "null_rounds": null_rounds, "misses": misses,
            "alt_rounds": alt_rounds})

    def submit_value(self, code: str, student: str, *, group: int, value: int) -> None:
        """Keep one student's raw value (a bin's index) and group until the activity
        closes."""
        self._submit(code, "histogram", student, {"grp": group, "value": value})

    # --- what a teacher reads -------------------------------------------------------------
    def count(self, code: str) -> int:
        """How many students have submitted (anyone may know this)."""
        def work(connection):
            table = BY_KIND[self._row(connection, code).kind]
            return connection.execute(sa.select(sa.func.count()).select_from(table).where(
                table.c.code == code)).scalar_one()
        return self._run(work, write=False)

    def poll_counts(self, code: str) -> np.ndarray:
        """How many students reported each answer (the reported answers' histogram)."""
        def work(connection):
            row = self._row(connection, code)
            k = len(json.loads(row.config)["answers"])
            counts = np.zeros(k, dtype=np.int64)
            for reported, n in connection.execute(
                    sa.select(POLL.c.reported, sa.func.count()).where(POLL.c.code == code)
                    .group_by(POLL.c.reported)):
                counts[reported] = n
            return counts
        return self._run(work, write=False)

    def attack_tallies(self, code: str) -> np.ndarray:
        """Every student's (false alarms, rounds in D, misses, rounds in D′), one row each,
        in the order they submitted."""
        def work(connection):
            self._row(connection, code)
            rows = connection.execute(
                sa.select(ATTACK.c.false_alarms, ATTACK.c.null_rounds, ATTACK.c.misses,
                          ATTACK.c.alt_rounds).where(ATTACK.c.code == code)
                .order_by(ATTACK.c.id)).all()
            return np.array(rows, dtype=np.int64).reshape(-1, 4)
        return self._run(work, write=False)

    def histogram_counts(self, code: str, key: str | None) -> np.ndarray:
        """The class's raw counts, groups × bins: for the teacher's releases only."""
        def work(connection):
            return self._counts(connection, self._teacher_row(connection, code, key))
        return self._run(work, write=False)

    @staticmethod
    def _counts(connection, row) -> np.ndarray:
        config = json.loads(row.config)
        counts = np.zeros((len(config["groups"]), len(config["bins"])), dtype=np.int64)
        for grp, value, n in connection.execute(
                sa.select(VALUES.c.grp, VALUES.c.value, sa.func.count())
                .where(VALUES.c.code == row.code).group_by(VALUES.c.grp, VALUES.c.value)):
            counts[grp, value] = n
        return counts

    def release(self, code: str, key: str | None, alpha: float, release) -> np.ndarray:
        """Release the class histogram at privacy level ``alpha``: ``release(counts,
        alpha)`` draws the noisy histograms (groups × bins) from the raw counts, inside the
        transaction that checks and records the budget, so that two clicks never spend
        more than the total. Raises :class:`OverBudget` when the releases' α would add up
        to more than the activity's budget."""
        from dpcore.histogram import budget_check  # sequential composition

        def work(connection):
            row = self._teacher_row(connection, code, key)
            if row.closed_at is not None:
                raise Closed("This activity is closed: its raw values are deleted.")
            if connection.dialect.name != "sqlite":  # SQLite: one writer at a time already
                connection.execute(sa.select(ACTIVITIES.c.code).where(
                    ACTIVITIES.c.code == code).with_for_update())
            spent = [a for (a,) in connection.execute(
                sa.select(RELEASES.c.alpha).where(RELEASES.c.code == code))]
            budget = json.loads(row.config)["budget"]
            try:
                budget_check(sum(spent), alpha, budget)
            except ValueError as error:
                raise OverBudget(str(error)) from None
            noisy = np.asarray(release(self._counts(connection, row), alpha), dtype=float)
            connection.execute(RELEASES.insert().values(
                code=code, alpha=float(alpha), counts=json.dumps(noisy.tolist()),
                at=self.clock()))
            return noisy
        return self._run(work, write=True)

    def releases(self, code: str) -> list[tuple[float, np.ndarray]]:
        """The activity's released histograms, oldest first: (α, groups × bins)."""
        def work(connection):
            self._row(connection, code)
            return [(alpha, np.array(json.loads(counts))) for alpha, counts in
                    connection.execute(sa.select(RELEASES.c.alpha, RELEASES.c.counts)
                                       .where(RELEASES.c.code == code)
                                       .order_by(RELEASES.c.id))]
        return self._run(work, write=False)

    # --- joining --------------------------------------------------------------------------
    def join(self, typed: str, *, browser: str, address: str) -> Activity:
        """The activity a student's typed code opens. Wrong codes are counted per browser
        and per address; past the limits (:data:`WRONG_CODES_PER_BROWSER`,
        :data:`WRONG_CODES_PER_ADDRESS` within :data:`RATE_WINDOW_S`) every code is
        refused with :class:`RateLimited` until the window has passed."""
        now = self.clock()
        who = [f"b:{activities.digest(browser)[:32]}", f"a:{address}"[:80]]

        def work(connection):
            since = now - RATE_WINDOW_S
            counts = [connection.execute(sa.select(sa.func.count()).select_from(ATTEMPTS)
                                         .where(ATTEMPTS.c.who == w, ATTEMPTS.c.at > since))
                      .scalar_one() for w in who]
            if counts[0] >= WRONG_CODES_PER_BROWSER or counts[1] >= WRONG_CODES_PER_ADDRESS:
                raise RateLimited("Too many wrong codes from this device: wait a few "
                                  "minutes, then type the code again.")
            code = activities.normal_code(typed)
            row = None if code is None else connection.execute(
                sa.select(ACTIVITIES).where(ACTIVITIES.c.code == code)).first()
            # A class joining clears what has expired (after the read: a student whose
            # activity has just expired is told it has ended, not that it never was).
            self._purge(connection, now)
            if row is None:
                connection.execute(ATTEMPTS.insert(), [{"who": w, "at": now} for w in who])
                return None
            return row

        row = self._run(work, write=True)
        if row is None:
            raise NotFound("There is no activity with this code: check it with your teacher.")
        if row.expires_at <= now:
            raise Expired("This activity has ended (its time is up).")
        return self._activity(row)

    def table_counts(self) -> dict[str, int]:
        """Rows in every table (the tests check that nothing remains after a delete)."""
        def work(connection):
            return {t.name: connection.execute(sa.select(sa.func.count()).select_from(t))
                    .scalar_one() for t in (ACTIVITIES, *OWNED, ATTEMPTS)}
        return self._run(work, write=False)


def _checked(kind: str, config: dict, values: dict) -> dict:
    """A submission's values checked against the activity's settings."""
    if kind == "poll":
        return {"reported": activities.answer_index(values["reported"], "reported",
                                                    len(config["answers"]))}
    if kind == "histogram":
        return {"grp": activities.answer_index(values["grp"], "group", len(config["groups"])),
                "value": activities.answer_index(values["value"], "value",
                                                 len(config["bins"]))}
    rounds = config["rounds"]
    checked = {name: activities.answer_index(values[name], name, rounds + 1)
               for name in ("false_alarms", "null_rounds", "misses", "alt_rounds")}
    if checked["null_rounds"] + checked["alt_rounds"] != rounds:
        raise ArgumentError("`{name}` and `{name_other}` must add up to the {rounds} rounds.",
                            name="null_rounds", name_other="alt_rounds", rounds=rounds)
    if checked["false_alarms"] > checked["null_rounds"] or \
            checked["misses"] > checked["alt_rounds"]:
        raise ArgumentError("`{name}` and `{name_other}` cannot exceed their rounds.",
                            name="false_alarms", name_other="misses")
    return checked
