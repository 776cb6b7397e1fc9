"""The rules of a class activity: what a teacher may set, and who is who.

Three kinds (issue 37): a randomized-response ``poll`` (k-RR, [KBR16]), ``attack`` (be the
attacker of a Laplace or Gaussian release, f-DP [DRS22]) and a private class ``histogram``
(the truncated Laplace histogram, [SPJ22] eq. (2.4)). Each ``*_config`` function checks
what a teacher typed and returns the activity's settings as a plain dict (kept as JSON by
:mod:`dpclass.storage`), or raises ``ValueError`` naming the setting.

Who is who:

- a **join code** is 8 symbols of Crockford's base 32 (40 random bits, shown ``ABCD-EFGH``):
  guessing one among even a thousand live activities takes about 2^30 tries, and wrong
  codes are rate-limited (:mod:`dpclass.storage`);
- a **teacher key** is 256 random bits (``secrets.token_urlsafe(32)``); the database keeps
  only its SHA-256, and a key is checked by comparing hashes in constant time;
- a **student token** is 128 random bits kept in the student's browser (a cookie); the
  database keeps only its SHA-256, one answer per token.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets

from dpcore.errors import ArgumentError
from dpcore.validation import integer_in_range, one_of, positive_scalar

KINDS = ("poll", "attack", "histogram")

# Crockford's base 32: no I, L, O or U, so that a code read off a projector is unambiguous.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8  # 40 bits
CODE_BITS = CODE_LENGTH * 5
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})

QUESTION_MAX = 300  # characters
ANSWER_MAX = 80
ANSWERS_MIN, ANSWERS_MAX = 2, 10
BINS_MIN, BINS_MAX = 2, 20
GROUPS_MAX = 4
EPS_MIN, EPS_MAX = 0.05, 10.0
ROUNDS_MIN, ROUNDS_MAX = 5, 100
BUDGET_MAX = 20.0


def new_code() -> str:
    """A fresh join code: 8 random symbols of :data:`CODE_ALPHABET` (40 bits)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str | None:
    """The code a student typed, as stored (upper case, no spaces or dashes, O read as 0 and
    I, L as 1), or None when it cannot be a code at all."""
    if not isinstance(text, str):
        return None
    code = "".join(text.split()).replace("-", "").upper().translate(_READ_AS)
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def shown_code(code: str) -> str:
    """A code as a teacher projects it: ``ABCD-EFGH``."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def new_secret() -> str:
    """A teacher key or a student token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """The SHA-256 (hex) of a key or token: all the database keeps of it."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def same_digest(secret: str | None, stored: str) -> bool:
    """Whether ``secret`` hashes to ``stored``, compared in constant time."""
    if not isinstance(secret, str) or not secret:
        return False
    return hmac.compare_digest(digest(secret), stored)


def _text(value, name: str, maximum: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ArgumentError("`{name}` must not be empty.", name=name)
    value = value.strip()
    if len(value) > maximum:
        raise ArgumentError("`{name}` must be at most {most} characters long; it has {count}.",
                            name=name, most=maximum, count=len(value))
    return value


def _labels(values, name: str, minimum: int, maximum: int, length: int) -> list[str]:
    if isinstance(values, str) or not hasattr(values, "__iter__"):
        raise ArgumentError("`{name}` must be a list of texts.", name=name)
    labels = [_text(v, name, length) for v in values]
    if not minimum <= len(labels) <= maximum:
        raise ArgumentError("`{name}` must have {least} to {most} entries; it has {count}.",
                            name=name, least=minimum, most=maximum, count=len(labels))
    if len(set(labels)) != len(labels):
        raise ArgumentError("The entries of `{name}` must all differ.", name=name)
    return labels


def _level(value, name: str, maximum: float = EPS_MAX) -> float:
    level = positive_scalar(value, name)
    if not EPS_MIN <= level <= maximum:
        raise ArgumentError("`{name}` must be between {least} and {most}, got {value!r}.",
                            name=name, least=EPS_MIN, most=maximum, value=level)
    return level


def poll_config(question, answers, eps) -> dict:
    """A randomized-response poll: the question (≤ 300 characters), its 2 to 10 answers
    (≤ 80 characters each, all different) and the local privacy level ε (0.05 to 10)."""
    return {"question": _text(question, "question", QUESTION_MAX),
            "answers": _labels(answers, "answers", ANSWERS_MIN, ANSWERS_MAX, ANSWER_MAX),
            "eps": _level(eps, "eps")}


def attack_config(mechanism, level, rounds) -> dict:
    """Be the attacker: the mechanism ("laplace" at ε or "gaussian" at μ), its level (0.05
    to 10) and the rounds each student plays (5 to 100)."""
    return {"mechanism": one_of(mechanism, "mechanism", ("laplace", "gaussian")),
            "level": _level(level, "level"),
            "rounds": integer_in_range(rounds, "rounds", minimum=ROUNDS_MIN,
                                       maximum=ROUNDS_MAX)}


def histogram_config(question, bins, groups, budget) -> dict:
    """A private class histogram: what students enter (≤ 300 characters), the bins they
    choose from (2 to 20), the groups they belong to (1 to 4; e.g. two sections) and the
    teacher's total privacy budget (the sum of the releases' α, at most 20)."""
    group_labels = _labels(groups, "groups", 1, GROUPS_MAX, ANSWER_MAX)
    return {"question": _text(question, "question", QUESTION_MAX),
            "bins": _labels(bins, "bins", BINS_MIN, BINS_MAX, ANSWER_MAX),
            "groups": group_labels,
            "budget": _level(budget, "budget", BUDGET_MAX)}


CONFIGS = {"poll": poll_config, "attack": attack_config, "histogram": histogram_config}


def check_config(kind: str, config: dict) -> dict:
    """``config`` checked again as the ``*_config`` of ``kind`` would make it."""
    kind = one_of(kind, "kind", KINDS)
    if not isinstance(config, dict):
        raise ArgumentError("`{name}` must be a dict.", name="config")
    try:
        return CONFIGS[kind](**config)
    except TypeError:
        raise ArgumentError("`{name}` does not fit a {kind} activity.", name="config",
                            kind=kind) from None


def answer_index(value, name: str, k: int) -> int:
    """An answer's index 0..k-1 (a bool or a non-integer is refused)."""
    if isinstance(value, bool) or not isinstance(value, (int,)) and not (
            isinstance(value, float) and math.isfinite(value) and value == int(value)):
        raise ArgumentError("`{name}` must be a whole number from 0 to {most}, got {value!r}.",
                            name=name, most=k - 1, value=value)
    return integer_in_range(int(value), name, minimum=0, maximum=k - 1)
