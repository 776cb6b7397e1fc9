"""The page "Class poll: randomized response" without its layout (issue 37, activity 1): the
teacher's settings, the class's results computed with dpcore, the student's submit and the
page's sentences (views/class_poll.py draws them).

Each student's phone randomizes their answer with k-ary randomized response ([KBR16]) at
the teacher's ε before sending it (ui.device); the server keeps only the reported answers
(dpclass.storage). From the reported counts the page estimates each answer's true share
(dpcore.ldp.krr_share_estimate) with an approximate 95 % normal interval, and says how the
interval would narrow with more students (dpcore.ldp.krr_interval_halfwidth).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dpclass import activities, storage
from dpcore import ldp
from ui import classroom, links
from ui.format import fmt_number, fmt_param, fmt_pct, fmt_prob
from ui.text import N_, esc, t

# ε on the ldp page's log grid, from the class poll's least ε (0.05) up to 10.
EPS_GRID = tuple(e for e in links.LdpParams.EPS_GRID if e >= activities.EPS_MIN)
DEFAULT_EPS = 2.0
DEFAULT_QUESTION = N_("Have you ever copied homework from a classmate?")
DEFAULT_ANSWERS = (N_("Yes"), N_("No"))
Z = 1.96  # an approximate 95 % normal interval: ± 1.96 standard errors
MIN_ANSWERS = 2  # reports before the page shows an estimate
MAX_STUDENTS = 1000  # the class sizes the scaling chart goes up to
STUDENT_EVERY_S = 2 * classroom.LIVE_EVERY_S  # a student's screen looks for shared results

ANSWER_KEY = "class_poll_answer"  # the answer buttons (ui.device.krr_answer)
SENT = "class_poll_sent"  # session state: code -> the index this browser's phone sent (kept)
PENDING = "class_poll_pending"  # session state: code -> a report not kept yet (try again)

# The figures' names (the page kit's charts and tables; the live fragment replaces them).
SHARES_NAME = N_("The class's answers: reported and estimated shares")
SCALING_NAME = N_("How the interval narrows with more students")
TABLE_NAME = N_("Each answer's estimated share")


# --- The teacher's settings ----------------------------------------------------------------

def answers_from_text(text: str) -> list[str]:
    """The answers a teacher typed, one per line: each stripped, blank lines dropped."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def config(question: str, answers_text: str, eps: float) -> dict:
    """The poll's settings as the class database keeps them (ValueError naming the
    setting that is not accepted: the question, the answers or ε)."""
    return activities.poll_config(question, answers_from_text(answers_text), eps)


def pq(eps: float, k: int) -> tuple[float, float]:
    """k-RR's p (the phone sends the true answer) and q (it sends one given other)."""
    return ldp.krr_probabilities(eps, k)


# --- The class's results -------------------------------------------------------------------

@dataclass(frozen=True)
class Results:
    """The class's reports and what they say about the true shares."""

    counts: np.ndarray  # reported count of each answer
    reported: np.ndarray  # reported shares (counts / n)
    estimate: np.ndarray  # unbiased estimates of the true shares
    lower: np.ndarray  # the approx. 95 % interval's ends
    upper: np.ndarray

    @property
    def n(self) -> int:
        return int(self.counts.sum())


def results(counts, eps: float) -> Results | None:
    """The shares from the reported counts; None before :data:`MIN_ANSWERS` reports."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n < MIN_ANSWERS:
        return None
    estimate, lower, upper = ldp.krr_share_estimate(counts, eps, z=Z)
    return Results(counts, counts / n, estimate, lower, upper)


def class_sizes(n: int) -> np.ndarray:
    """n, 2n, 4n, … up to :data:`MAX_STUDENTS` (n alone when 2n is beyond it)."""
    sizes = [n]
    while sizes[-1] * 2 <= MAX_STUDENTS:
        sizes.append(sizes[-1] * 2)
    return np.array(sizes, dtype=np.int64)


def widest_halfwidth(r: Results, eps: float, sizes) -> np.ndarray:
    """The widest of the answers' half-widths at each class size, at the current plug-in
    shares (as the intervals shown are computed)."""
    return ldp.krr_interval_halfwidth(r.estimate, sizes, eps, z=Z).max(axis=-1)


def results_table(answers: list[str], r: Results) -> pd.DataFrame:
    """One row per answer: the reports and the estimated share with its interval."""
    return pd.DataFrame({"answer": answers, "reported": r.counts.astype(int),
                         "reported share": r.reported, "estimated share": r.estimate,
                         "interval from": r.lower, "interval to": r.upper})


TABLE_HEADERS = {"answer": N_("answer"), "reported": N_("reported"),
                 "reported share": N_("reported share"),
                 "estimated share": N_("estimated true share"),
                 "interval from": N_("95 % interval from"), "interval to": N_("to")}


def forget(kit, said: str | None) -> None:
    """Take out of the page's kit what the live results gave it on their last run (its
    charts and table, and ``said``, their finding): a fragment's rerun draws them again
    with the kit of the page's last full run, and the report holds each once."""
    names = {t(SHARES_NAME), t(SCALING_NAME), t(TABLE_NAME)}
    kit.figures[:] = [(name, fig) for name, fig in kit.figures if name not in names]
    kit.tables[:] = [(name, frame) for name, frame in kit.tables if name not in names]
    if said is not None and said in kit.findings:
        kit.findings.remove(said)


# --- The student's answer ------------------------------------------------------------------

def sent_answer(code: str) -> int | None:
    """The index this browser's phone sent for ``code`` and the class database kept."""
    return st.session_state.get(SENT, {}).get(code)


def pending_answer(code: str) -> int | None:
    """A report of this browser for ``code`` the class database could not keep yet."""
    return st.session_state.get(PENDING, {}).get(code)


def submit(code: str, token: str, reported: int) -> bool:
    """Keep the answer a student's phone reported (its index): True once the class
    database holds it. A refusal is shown in plain words (ui.classroom.error_text); when the
    database cannot be reached the report is held in the session, to send again as it is
    (a new draw would say more about the true answer), and nothing is lost."""
    pending = st.session_state.setdefault(PENDING, {})
    pending[code] = reported
    try:
        classroom.store().answer_poll(code, token, reported)
    except storage.Unavailable as error:
        st.error(classroom.error_text(error), icon=":material/error:")
        return False
    except (storage.StorageError, ValueError) as error:
        pending.pop(code, None)
        st.error(classroom.error_text(error), icon=":material/error:")
        return False
    pending.pop(code, None)
    st.session_state.setdefault(SENT, {})[code] = reported
    return True


# --- Sentences -----------------------------------------------------------------------------

def quoted(answer: str) -> str:
    """An answer inside a Markdown sentence: as typed, between guillemets."""
    return f"«{esc(answer)}»"


def what_happens(eps: float) -> str:
    return t("Each student's phone perturbs their answer with k-ary randomized response at "
             "ε = {eps} before sending it: the true answer never leaves the phone.",
             eps=fmt_number(eps))


def sent_text(answers: list[str], j: int, eps: float) -> str:
    """What the student's phone sent and why that protects them, with the numbers."""
    k = len(answers)
    p, q = pq(eps, k)
    values = dict(answer=quoted(answers[j]), p=fmt_pct(p), q=fmt_pct(q), others=k - 1,
                  ratio=fmt_param(float(np.exp(eps))), eps=fmt_number(eps))
    chance = (t("A phone sends the true answer with probability p = {p}, otherwise the other "
                "answer (probability q = {q}).", **values) if k == 2 else
              t("A phone sends the true answer with probability p = {p}, otherwise one of the "
                "{others} other answers, each with probability q = {q}.", **values))
    return " ".join((
        t("Your phone sent: {answer}.", **values), chance,
        t("So {answer} is at most e^ε = {ratio} times more likely under one true answer than "
          "under another (ε = {eps}): whoever sees it cannot be sure of your true answer.",
          **values),
        t("Your true answer never left your phone: nobody, not even the teacher or the "
          "server, saw it.")))


def interval_caption() -> str:
    return t("Each interval is an approximate 95 % normal interval for that answer's true "
             "share, one answer at a time: the estimate ± 1.96 standard errors, the variance "
             "evaluated at the estimated shares (plug-in, clipped at 0 and renormalised). It "
             "is rough for a small class or a share near 0. An estimate may fall below 0 % "
             "or above 100 %: it is unbiased, not clipped.")


def scaling_sentence(n: int, now: float, later: float) -> str:
    """What 4× the students would do to the widest interval."""
    return t("With 4× the students ({more} instead of {n}), the widest interval would be "
             "± {later} instead of ± {now}: the half-width falls as 1/√n.",
             more=f"{4 * n:,}", n=f"{n:,}", later=points(later), now=points(now))


def points(share: float) -> str:
    """A half-width (a share) in percentage points."""
    return t("{v} points", v=f"{100 * share:.1f}")


def estimate_finding(answers: list[str], r: Results) -> str:
    """The class's estimate in one plain sentence (the report's finding)."""
    parts = ", ".join(t("“{answer}” {share} ({low} to {high})", answer=a,
                        share=fmt_share_signed(e), low=fmt_share_signed(lo),
                        high=fmt_share_signed(hi))
                      for a, e, lo, hi in zip(answers, r.estimate, r.lower, r.upper))
    return t("{n} students answered. Estimated true shares (approx. 95 % intervals): "
             "{parts}.", n=f"{r.n:,}", parts=parts)


def fmt_share_signed(v: float) -> str:
    """A share in percent, one decimal, as the table rounds it (may be below 0)."""
    return f"{100 * v + 0.0:.1f}%"


def pq_caption(eps: float, k: int) -> str:
    """What happens on the phones, with p and q (the teacher's view)."""
    p, q = pq(eps, k)
    return " ".join((what_happens(eps), t(
        "With {k} answers it sends the true answer with probability p = {p} and each other "
        "answer with probability q = {q}.", k=k, p=fmt_prob(p), q=fmt_prob(q))))


def estimate_list(answers: list[str], r: Results) -> str:
    """The estimate as a Markdown list, one answer a line (for a phone's narrow screen)."""
    return "\n".join(t("- {answer}: about {share} (95 % interval {low} to {high})",
                       answer=quoted(a), share=fmt_share_signed(e),
                       low=fmt_share_signed(lo), high=fmt_share_signed(hi))
                     for a, e, lo, hi in zip(answers, r.estimate, r.lower, r.upper))


def report_settings(config: dict) -> dict[str, str]:
    """The poll's settings as the report lists them (the teacher's text as typed: the
    report escapes it)."""
    return {t("question"): config["question"], t("answers"): " | ".join(config["answers"]),
            "ε": fmt_number(config["eps"])}
