"""The class database (dpclass.storage), on SQLite and on a real PostgreSQL server: the
migrations from empty, who may do what, one answer per student, expiry and deletion, the
privacy budget, the wrong-code limits, and what is (not) kept."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import sqlalchemy as sa

from dpclass import activities, storage
from dpcore.histogram import perturb_histogram


class Clock:
    """A settable clock for the store (seconds)."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(database_url, clock):
    store = storage.Store(database_url, ttl_s=3600, clock=clock)
    yield store
    store.dispose()


def poll(store, answers=("yes", "no", "maybe"), eps=1.0):
    return store.create("poll", activities.poll_config("Did you sleep 7 hours?", answers, eps))


def test_migrations_run_up_from_an_empty_database(database_url):
    engine = sa.create_engine(database_url)
    assert storage.schema_version(engine) is None
    storage.migrate(engine)
    assert storage.schema_version(engine) == "0001"
    tables = set(sa.inspect(engine).get_table_names())
    assert {"activities", "poll_answers", "attack_tallies", "histogram_values",
            "histogram_releases", "join_attempts", "alembic_version"} <= tables
    storage.migrate(engine)  # again: nothing to do, nothing breaks
    assert storage.schema_version(engine) == "0001"
    engine.dispose()


def test_the_teacher_key_opens_only_its_activity_and_is_not_kept(store):
    first, key = poll(store)
    second, other_key = poll(store)
    assert store.is_teacher(first.code, key)
    assert not store.is_teacher(first.code, other_key)
    assert not store.is_teacher(first.code, None) and not store.is_teacher(first.code, "")
    assert not store.is_teacher("NOSUCHCD", key)
    assert len(key) >= 43  # 256 bits, URL-safe base 64
    assert activities.CODE_BITS >= 30
    for wrong in (other_key, None, key[:-1] + ("A" if key[-1] != "A" else "B")):
        with pytest.raises(storage.NotTeacher):
            store.close(first.code, wrong)
        with pytest.raises(storage.NotTeacher):
            store.share(first.code, wrong)
        with pytest.raises(storage.NotTeacher):
            store.delete(first.code, wrong)
    with store.engine.connect() as connection:
        dumped = repr(connection.execute(sa.select(storage.ACTIVITIES)).all())
    assert key not in dumped and other_key not in dumped


def test_one_answer_per_student_and_only_the_reported_answer_is_kept(store):
    activity, _key = poll(store)
    store.answer_poll(activity.code, "token-a", 2)
    store.answer_poll(activity.code, "token-b", 0)
    with pytest.raises(storage.AlreadyAnswered):
        store.answer_poll(activity.code, "token-a", 1)
    assert store.poll_counts(activity.code).tolist() == [1, 0, 1]  # the first answer kept
    assert store.count(activity.code) == 2
    assert store.has_answered(activity.code, "token-a")
    assert not store.has_answered(activity.code, "token-c")
    with store.engine.connect() as connection:
        rows = connection.execute(sa.select(storage.POLL)).all()
    assert all("token" not in repr(row) for row in rows)  # its hash only


@pytest.mark.parametrize("bad", [3, -1, 1.5, "1", True, None])
def test_an_answer_out_of_range_is_refused_and_nothing_is_kept(store, bad):
    activity, _key = poll(store)
    with pytest.raises(ValueError, match="reported"):
        store.answer_poll(activity.code, "token-a", bad)
    assert store.count(activity.code) == 0


def test_two_submits_at_once_keep_one_answer(store):
    activity, _key = poll(store)
    outcomes = []

    def submit(value):
        try:
            store.answer_poll(activity.code, "same-token", value)
            outcomes.append("ok")
        except storage.AlreadyAnswered:
            outcomes.append("refused")

    threads = [threading.Thread(target=submit, args=(i % 3,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok"] + ["refused"] * 5
    assert store.count(activity.code) == 1


def test_a_closed_or_expired_activity_takes_no_answers(store, clock):
    closed, key = poll(store)
    store.close(closed.code, key)
    with pytest.raises(storage.Closed):
        store.answer_poll(closed.code, "token-a", 0)
    assert store.get(closed.code).closed
    late, _ = poll(store)
    clock.now += 3600
    with pytest.raises(storage.Expired):
        store.answer_poll(late.code, "token-a", 0)
    with pytest.raises(storage.Expired):
        store.get(late.code)


def test_expired_activities_are_deleted_with_everything_they_hold(store, clock):
    activity, key = poll(store)
    store.answer_poll(activity.code, "token-a", 1)
    game, _ = store.create("attack", activities.attack_config("laplace", 1.0, 10))
    store.submit_attack(game.code, "token-a", false_alarms=1, null_rounds=5, misses=2,
                        alt_rounds=5)
    hist, hist_key = store.create("histogram", activities.histogram_config(
        "Hours slept", ["<6", "6-8", ">8"], ["A", "B"], 2.0))
    store.submit_value(hist.code, "token-a", group=1, value=2)
    store.release(hist.code, hist_key, 1.0, lambda c, a: perturb_histogram(c, a, rng=0))
    with pytest.raises(storage.NotFound):
        store.join("WRONGCOD", browser="b", address="10.0.0.1")
    assert store.purge_expired() == 0
    clock.now += 3600 + storage.RATE_WINDOW_S
    assert store.purge_expired() == 3
    assert set(store.table_counts().values()) == {0}
    with pytest.raises(storage.NotFound):
        store.get(activity.code)
    with pytest.raises(storage.NotFound):
        store.delete(activity.code, key)


def test_a_teacher_deletes_an_activity_and_nothing_of_it_remains(store):
    activity, key = poll(store)
    other, _ = poll(store)
    store.answer_poll(activity.code, "token-a", 1)
    store.answer_poll(other.code, "token-a", 1)
    store.delete(activity.code, key)
    counts = store.table_counts()
    assert counts["activities"] == 1 and counts["poll_answers"] == 1  # the other's only
    with pytest.raises(storage.NotFound):
        store.count(activity.code)


def test_closing_a_histogram_deletes_its_raw_values_and_keeps_its_releases(store):
    hist, key = store.create("histogram", activities.histogram_config(
        "Age group", ["<20", "20-29", "30+"], ["Section 1"], 3.0))
    for i, value in enumerate([0, 1, 1, 2, 2, 2]):
        store.submit_value(hist.code, f"token-{i}", group=0, value=value)
    assert store.histogram_counts(hist.code, key).tolist() == [[1, 2, 3]]
    with pytest.raises(storage.NotTeacher):
        store.histogram_counts(hist.code, "not-the-key")
    noisy = store.release(hist.code, key, 1.0, lambda c, a: perturb_histogram(c, a, rng=1))
    store.close(hist.code, key)
    assert store.table_counts()["histogram_values"] == 0
    (alpha, kept), = store.releases(hist.code)
    assert alpha == 1.0 and np.array_equal(kept, noisy)
    with pytest.raises(storage.Closed):
        store.release(hist.code, key, 0.5, lambda c, a: perturb_histogram(c, a, rng=2))


def test_releases_stop_at_the_total_budget(store):
    hist, key = store.create("histogram", activities.histogram_config(
        "Age group", ["<20", "20+"], ["A", "B"], 2.0))
    store.submit_value(hist.code, "t1", group=0, value=1)
    store.submit_value(hist.code, "t2", group=1, value=0)
    seen = []

    def release(counts, alpha):
        seen.append(counts.copy())
        return perturb_histogram(counts, alpha, rng=3)

    assert store.release(hist.code, key, 1.5, release).shape == (2, 2)
    assert seen[0].tolist() == [[0, 1], [1, 0]]  # groups × bins, the raw counts
    with pytest.raises(storage.OverBudget):
        store.release(hist.code, key, 0.6, release)
    store.release(hist.code, key, 0.5, release)  # exactly the budget
    assert [a for a, _ in store.releases(hist.code)] == [1.5, 0.5]
    with pytest.raises(storage.OverBudget):
        store.release(hist.code, key, 0.05, release)
    assert len(seen) == 2  # a refused release draws nothing


def test_attack_tallies_are_checked_against_the_rounds(store):
    game, _ = store.create("attack", activities.attack_config("gaussian", 1.0, 10))
    store.submit_attack(game.code, "t1", false_alarms=1, null_rounds=6, misses=2, alt_rounds=4)
    for bad in (dict(false_alarms=7, null_rounds=6, misses=0, alt_rounds=4),
                dict(false_alarms=0, null_rounds=6, misses=0, alt_rounds=5)):
        with pytest.raises(ValueError):
            store.submit_attack(game.code, "t2", **bad)
    assert store.attack_tallies(game.code).tolist() == [[1, 6, 2, 4]]


def test_wrong_codes_are_limited_per_browser_and_generously_per_address(store, clock):
    activity, _ = poll(store)
    shown = activities.shown_code(activity.code).lower()
    assert store.join(shown, browser="phone-1", address="203.0.113.9").code == activity.code
    for _ in range(storage.WRONG_CODES_PER_BROWSER):
        with pytest.raises(storage.NotFound):
            store.join("ZZZZ-ZZZZ", browser="phone-1", address="203.0.113.9")
    with pytest.raises(storage.RateLimited):  # even the right code, for a while
        store.join(shown, browser="phone-1", address="203.0.113.9")
    # The rest of the room, behind the same school address, is not locked out.
    assert store.join(shown, browser="phone-2", address="203.0.113.9").code == activity.code
    clock.now += storage.RATE_WINDOW_S + 1
    assert store.join(shown, browser="phone-1", address="203.0.113.9").code == activity.code


def test_the_address_limit_stops_a_flood_of_guesses_from_many_browsers(store, monkeypatch):
    monkeypatch.setattr(storage, "WRONG_CODES_PER_ADDRESS", 30)
    activity, _ = poll(store)
    for i in range(30):
        with pytest.raises(storage.NotFound):
            store.join("ZZZZ-ZZZZ", browser=f"phone-{i}", address="198.51.100.7")
    with pytest.raises(storage.RateLimited):
        store.join(activity.code, browser="phone-new", address="198.51.100.7")
    assert store.join(activity.code, browser="phone-new", address="192.0.2.1")


@pytest.mark.parametrize("typed,code", [("abcd-efgh", "ABCDEFGH"), (" ABCD EFGH ", "ABCDEFGH"),
                                        ("0OIL-1234", "0011-1234".replace("-", "")),
                                        ("ABCDEFG", None), ("ABCD-EFGU", None), ("", None)])
def test_a_typed_code_is_read_as_the_projector_shows_it(typed, code):
    assert activities.normal_code(typed) == code


def test_join_codes_are_unguessable_and_unambiguous():
    codes = {activities.new_code() for _ in range(2000)}
    assert len(codes) == 2000
    assert all(len(c) == 8 and set(c) <= set(activities.CODE_ALPHABET) for c in codes)
    assert not set("ILOU") & set(activities.CODE_ALPHABET)
    # Each symbol is uniform over 32: the chi-squared statistic of the symbols' counts over
    # 16,000 draws is far below its 0.1 % point (31 degrees of freedom: 61.1).
    symbols = np.array([activities.CODE_ALPHABET.index(s) for c in codes for s in c])
    counts = np.bincount(symbols, minlength=32)
    expected = symbols.size / 32
    assert ((counts - expected) ** 2 / expected).sum() < 61.1


@pytest.mark.parametrize("kind,config,name", [
    ("poll", dict(question="x" * 301, answers=["a", "b"], eps=1), "question"),
    ("poll", dict(question="Q", answers=[str(i) for i in range(11)], eps=1), "answers"),
    ("poll", dict(question="Q", answers=["a"], eps=1), "answers"),
    ("poll", dict(question="Q", answers=["a", "a"], eps=1), "answers"),
    ("poll", dict(question="Q", answers=["a", "b"], eps=0), "eps"),
    ("poll", dict(question="  ", answers=["a", "b"], eps=1), "question"),
    ("attack", dict(mechanism="rr", level=1, rounds=10), "mechanism"),
    ("attack", dict(mechanism="laplace", level=1, rounds=1000), "rounds"),
    ("histogram", dict(question="Q", bins=["a", "b"], groups=["x"] * 5, budget=1), "groups"),
    ("histogram", dict(question="Q", bins=["a", "b"], groups=["x"], budget=50), "budget"),
])
def test_bad_settings_are_refused_naming_the_setting(store, kind, config, name):
    with pytest.raises(ValueError, match=name):
        store.create(kind, config)
    assert store.table_counts()["activities"] == 0


def test_the_database_going_away_mid_class_loses_no_acknowledged_answer(request):
    """PostgreSQL stopped in the middle of a class, then started again: every answer the
    store acknowledged before is there; one sent while it is down is refused with
    Unavailable (the page asks to try again) and goes through once it is back; a restart
    that drops the pool's connections costs no answer either."""
    import pgkit

    url = pgkit.create_database(request.getfixturevalue("postgres_url"))
    store = storage.Store(url, ttl_s=3600)
    try:
        activity, _ = poll(store)
        acknowledged = 0
        for i in range(5):
            store.answer_poll(activity.code, f"before-{i}", i % 3)
            acknowledged += 1
        with pgkit.down(url):
            with pytest.raises(storage.Unavailable):
                store.answer_poll(activity.code, "during", 1)
            with pytest.raises(storage.Unavailable):
                store.count(activity.code)
        store.answer_poll(activity.code, "during", 1)  # tried again: it goes through
        acknowledged += 1
        pgkit.restart(url)  # the pool's connections are dropped under it
        store.answer_poll(activity.code, "after", 2)
        acknowledged += 1
        assert store.count(activity.code) == acknowledged
        assert store.poll_counts(activity.code).sum() == acknowledged
    finally:
        store.dispose()
        pgkit.drop_database(url)


def test_a_student_joining_clears_expired_activities_and_is_told_theirs_has_ended(store,
                                                                                   clock):
    late, _ = poll(store)
    store.answer_poll(late.code, "token-a", 0)
    clock.now += 3600
    with pytest.raises(storage.Expired):
        store.join(late.code, browser="phone-1", address="203.0.113.9")
    counts = store.table_counts()
    assert counts["activities"] == 0 and counts["poll_answers"] == 0
