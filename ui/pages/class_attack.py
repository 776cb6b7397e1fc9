"""The page "Class game: be the attacker" without its layout (issue 37, activity 2): the
teacher's settings, a student's game played on the server, the class's verdict computed with
dpcore, the figures' inputs and the page's sentences (views/class_attack.py draws them).

f-DP ([DRS22]): a released count came from D (count c) or from D′ (c + 1, one person more),
with Laplace noise of scale 1/ε or Gaussian noise of sd 1/μ. Each student guesses, round after
round, which it was; their false-alarm rate α̂ and miss rate β̂ land on the trade-off plot,
where no guessing rule's true errors lie below the mechanism's curve f
(dpcore.attack.beyond_curve says whether anyone got below it by more than chance).

A student's rounds are drawn on the server when their game starts (dpcore.attack.draw_rounds
with a fresh random source) and kept in the session's state: the browser receives each round's
released number and, once the round is guessed, its world; never a world ahead of its guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

import dpviz.attack
from dpviz.fdp import FDP_COLORS
from dpclass import activities, storage
from dpcore import attack
from ui import classroom, links
from ui.format import fmt_number, fmt_pct
from ui.text import N_, t

# The level (ε or μ) on the ldp page's log grid, from the least the class allows (0.05) to 10.
LEVEL_GRID = tuple(e for e in links.LdpParams.EPS_GRID if e >= activities.EPS_MIN)
DEFAULT_LEVEL = 1.0
DEFAULT_ROUNDS = 20
ROUNDS_STEP = 5
COUNT = 10  # the count c of D; D′ has c + 1
LEVEL = 0.05  # the family-wise level of the verdict
STUDENT_EVERY_S = 2 * classroom.LIVE_EVERY_S  # a student's screen looks for shared results
MECHANISMS = attack.MECHANISMS
MECHANISM_LABELS = {"laplace": N_("Laplace at ε"), "gaussian": N_("Gaussian at μ")}
# The curve's false-alarm rates: a fine linear grid, and a log one near 0, where the
# curve of a large ε or μ falls steeply.
CURVE_ALPHA = np.unique(np.r_[np.linspace(0.0, 1.0, 401), np.geomspace(1e-6, 0.05, 60)])

GAME = "class_attack_game"  # session state: code -> this browser's Game
VERDICT_SAID = "class_attack_said"  # session state: the finding the live results gave last

# The figures' and table's names (the page kit's; the live fragment replaces them).
CLASS_NAME = N_("The class's guesses on the trade-off plot")
OWN_NAME = N_("Your guesses on the trade-off plot")
TABLE_NAME = N_("Each student's errors")


# --- The teacher's settings ----------------------------------------------------------------

def config(mechanism: str, level: float, rounds: int) -> dict:
    """The game's settings as the class database keeps them (ValueError naming the setting
    that is not accepted)."""
    return activities.attack_config(mechanism, level, rounds)


def symbol(mechanism: str) -> str:
    """The level's letter: ε for the Laplace mechanism, μ for the Gaussian one."""
    return "ε" if mechanism == "laplace" else "μ"


# --- A student's game ----------------------------------------------------------------------

@dataclass
class Game:
    """One browser's game: the secret worlds (True: D′) and released numbers of every round,
    drawn when it starts, the guesses so far (True: D′), and what the class database said."""

    worlds: np.ndarray
    released: np.ndarray
    guesses: list[bool] = field(default_factory=list)
    state: str = "playing"  # "playing", "sent", "pending" (database unreachable), "refused"
    problem: str = ""  # the refusal, in the reader's words ("refused", "pending")

    @property
    def rounds(self) -> int:
        return int(self.worlds.size)

    @property
    def played(self) -> int:
        return len(self.guesses)

    @property
    def done(self) -> bool:
        return self.played == self.rounds

    def tally(self) -> attack.AttackTally:
        """The errors of the rounds played (dpcore.attack.tally)."""
        n = self.played
        return attack.tally(self.worlds[:n], np.array(self.guesses, dtype=bool))


def new_game(settings: dict) -> Game:
    """A fresh game: every round drawn now, on the server, from a fresh random source."""
    worlds, released = attack.draw_rounds(settings["mechanism"], settings["level"],
                                          settings["rounds"], count=COUNT,
                                          rng=np.random.default_rng())
    return Game(worlds, released)


def game_of(code: str) -> Game | None:
    """This session's game of ``code``, if it started one."""
    return st.session_state.get(GAME, {}).get(code)


def start_game(code: str, settings: dict) -> Game:
    game = new_game(settings)
    st.session_state.setdefault(GAME, {})[code] = game
    return game


def guess(code: str, index: int, alt: bool) -> None:
    """A button's callback: the guess ``alt`` (True: D′) for round ``index``. A click on a
    round already guessed (a double click) is ignored."""
    game = game_of(code)
    if game is not None and game.played == index and not game.done:
        game.guesses.append(bool(alt))


def submit(code: str, token: str, game: Game) -> bool:
    """Send the finished game's four counts (True once the class database holds them). A
    refusal is kept in the game, in plain words; when the database cannot be reached the
    game stays in the session, to send again as it is: nothing is lost."""
    tally = game.tally()
    try:
        classroom.store().submit_attack(code, token, false_alarms=tally.false_alarms,
                                        null_rounds=tally.null_rounds, misses=tally.misses,
                                        alt_rounds=tally.alt_rounds)
    except storage.Unavailable as error:
        game.state, game.problem = "pending", classroom.error_text(error)
        return False
    except (storage.StorageError, ValueError) as error:
        game.state, game.problem = "refused", classroom.error_text(error)
        return False
    game.state, game.problem = "sent", ""
    return True


# --- The class's results -------------------------------------------------------------------

def curve(mechanism: str, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The mechanism's trade-off curve f on :data:`CURVE_ALPHA`."""
    return CURVE_ALPHA, np.asarray(attack.mechanism_tradeoff(mechanism, level)(CURVE_ALPHA),
                                   dtype=float)


def tallies(rows) -> list[attack.AttackTally]:
    """The class database's rows (false alarms, D rounds, misses, D′ rounds) as tallies."""
    return [attack.AttackTally(*map(int, row)) for row in np.asarray(rows).reshape(-1, 4)]


def verdict(counts: list[attack.AttackTally], mechanism: str,
            level: float) -> attack.CurveVerdict | None:
    """Who got beyond the curve by more than chance (None before anyone finished)."""
    if not counts:
        return None
    return attack.beyond_curve(counts, attack.mechanism_tradeoff(mechanism, level),
                               level=LEVEL)


def _row(point: attack.PointVerdict) -> list[float]:
    nan = float("nan")
    return [nan if point.alpha is None else point.alpha,
            nan if point.beta is None else point.beta, *point.alpha_interval,
            *point.beta_interval]


def curve_name(settings: dict) -> str:
    mechanism, level = settings["mechanism"], settings["level"]
    if mechanism == "laplace":
        return t("trade-off curve f: Laplace mechanism, ε = {level}", level=fmt_number(level))
    return t("trade-off curve f: Gaussian mechanism, μ = {level}", level=fmt_number(level))


def percent(v: float) -> str:
    """A confidence or level in percent, to 4 significant digits: 95 %, 98.75 %."""
    return f"{100 * v:.4g} %"


def interval_name(v: attack.CurveVerdict) -> str:
    return t("exact Clopper–Pearson interval, {confidence} each",
             confidence=percent(v.confidence))


def figure(settings: dict, v: attack.CurveVerdict | None, *, you=None, you_verdict=None,
           height: int = 560):
    """The trade-off plot: the curve, the best attacker, and the class's points (``v``,
    with the pooled point from two students on) and/or the reader's own (``you``: a
    verdict's point, with its intervals when ``you_verdict`` is the verdict they come
    from)."""
    mechanism, level = settings["mechanism"], settings["level"]
    alpha, beta = curve(mechanism, level)
    kwargs = {}
    if v is not None:
        kwargs.update(
            students=[_row(p) for p in v.students], flagged=[p.beyond for p in v.students],
            student_names=[t("student {i}", i=i + 1) for i in range(len(v.students))],
            pooled=_row(v.pooled) if len(v.students) > 1 else None,
            interval_name=interval_name(v), students_name=t("students"),
            pooled_name=t("the class pooled (everyone's counts summed)"))
    if you is not None:
        row = _row(you)
        kwargs["you"] = row if you_verdict is not None else row[:2]
        if v is None and you_verdict is not None:
            kwargs["interval_name"] = interval_name(you_verdict)
    return dpviz.attack.attack_figure(
        alpha, beta, curve_name=curve_name(settings), color=FDP_COLORS[mechanism],
        best=attack.best_guess_errors(mechanism, level),
        best_name=t("the best possible attacker (says D′ above c + ½)"),
        you_name=t("you"), height=height, **kwargs)


def results_table(v: attack.CurveVerdict) -> pd.DataFrame:
    """One row per student, in the order they finished: their counts, rates, intervals and
    whether they are beyond the curve."""
    rows = []
    for i, p in enumerate(v.students):
        c = p.tally
        rows.append({"student": i + 1, "false alarms": c.false_alarms, "D rounds": c.null_rounds,
                     "alpha": p.alpha, "alpha from": p.alpha_interval[0],
                     "alpha to": p.alpha_interval[1], "misses": c.misses,
                     "D' rounds": c.alt_rounds, "beta": p.beta,
                     "beta from": p.beta_interval[0], "beta to": p.beta_interval[1],
                     "beyond": p.beyond})
    return pd.DataFrame(rows)


TABLE_HEADERS = {"student": N_("student"), "false alarms": N_("false alarms"),
                 "D rounds": N_("rounds from D"), "alpha": N_("α̂"),
                 "alpha from": N_("α interval from"), "alpha to": N_("to"),
                 "misses": N_("misses"), "D' rounds": N_("rounds from D′"), "beta": N_("β̂"),
                 "beta from": N_("β interval from"), "beta to": N_("to"),
                 "beyond": N_("beyond the curve")}


def forget(kit, said: str | None) -> None:
    """Take out of the page's kit what the live results gave it on their last run (their
    charts and table, and ``said``, their finding): a fragment's rerun draws them again with
    the kit of the page's last full run, and the report holds each once."""
    names = {t(CLASS_NAME), t(OWN_NAME), t(TABLE_NAME)}
    kit.figures[:] = [(name, fig) for name, fig in kit.figures if name not in names]
    kit.tables[:] = [(name, frame) for name, frame in kit.tables if name not in names]
    if said is not None and said in kit.findings:
        kit.findings.remove(said)


# --- Sentences -----------------------------------------------------------------------------

def noise_words(settings: dict) -> str:
    level = fmt_number(settings["level"])
    if settings["mechanism"] == "laplace":
        return t("Laplace noise of scale 1/ε (ε = {level})", level=level)
    return t("Gaussian noise of standard deviation 1/μ (μ = {level})", level=level)


def explain(settings: dict) -> str:
    """The game in three short sentences (the student's screen)."""
    return t("Each round the server secretly picks **D**, a data set whose count is {c}, or "
             "**D′**, the same with one person more (count {c1}), each with probability 1/2, "
             "and shows you the count plus {noise}. You guess which data set it came from. "
             "Saying D′ when it was D is a **false alarm**; saying D when it was D′ is a "
             "**miss**.", c=COUNT, c1=COUNT + 1, noise=noise_words(settings))


def setup_caption(settings: dict) -> str:
    """What the teacher's screen says about the game set up."""
    return t("Each student plays {rounds} rounds: a count of {c} (D) or {c1} (D′) released "
             "with {noise}. Their false-alarm and miss rates land on the plot; no guessing "
             "rule lies below the curve in the long run.", rounds=settings["rounds"], c=COUNT,
             c1=COUNT + 1, noise=noise_words(settings))


def world_label(alt: bool) -> str:
    """A world as the buttons name it."""
    if alt:
        return t("D′ ({n} people)", n=COUNT + 1)
    return t("D ({n} people)", n=COUNT)


def round_feedback(game: Game) -> tuple[bool, str]:
    """Whether the last guess was right, and what to say about it."""
    i = game.played - 1
    truth, said = bool(game.worlds[i]), game.guesses[i]
    number = f"{game.released[i]:.2f}"
    if truth == said:
        return True, t("Round {i}: right. {number} came from {world}.", i=i + 1, number=number,
                       world=world_label(truth))
    if said:
        return False, t("Round {i}: a false alarm. {number} came from {world}; you said D′.",
                        i=i + 1, number=number, world=world_label(truth))
    return False, t("Round {i}: a miss. {number} came from {world}; you said D.", i=i + 1,
                    number=number, world=world_label(truth))


def progress_text(game: Game) -> str:
    c = game.tally()
    right = game.played - c.false_alarms - c.misses
    return t("{played} of {rounds} rounds played: {right} right, {fa} false alarm(s), "
             "{mi} miss(es).", played=game.played, rounds=game.rounds, right=right,
             fa=c.false_alarms, mi=c.misses)


def _rate(value: float | None) -> str:
    return "–" if value is None else fmt_pct(value)


def own_sentence(settings: dict, tally: attack.AttackTally,
                 point: attack.PointVerdict) -> str:
    """The student's errors, and where they lie against the curve."""
    said = t("You made {fa} false alarm(s) in {n0} rounds from D (α̂ = {a}) and {mi} miss(es) "
             "in {n1} rounds from D′ (β̂ = {b}).", fa=tally.false_alarms, n0=tally.null_rounds,
             a=_rate(tally.false_alarm_rate), mi=tally.misses, n1=tally.alt_rounds,
             b=_rate(tally.miss_rate))
    if point.alpha is None or point.beta is None:
        where = t("Every round came from one data set, so one of your rates is undefined: "
                  "your point is not drawn.")
    elif point.beyond:
        where = t("Your point lies below the curve by more than chance allows: no guessing "
                  "rule gets there in the long run. Tell your teacher how you guessed!")
    elif point.beta < float(attack.mechanism_tradeoff(settings["mechanism"],
                                                      settings["level"])(point.alpha)):
        where = t("Your point lies below the curve, but within what chance allows in "
                  "{rounds} rounds: your error bars reach the curve.", rounds=tally.rounds)
    else:
        where = t("Your point lies on or above the curve, as every guessing rule's does in "
                  "the long run.")
    return f"{said} {where}"


def best_sentence(settings: dict) -> str:
    """The best possible attacker, in numbers."""
    a, _b = attack.best_guess_errors(settings["mechanism"], settings["level"])
    return t("The best possible attacker says D′ whenever the number is above {threshold} "
             "(halfway between {c} and {c1}): it expects α = β = {error}, so {error} of its "
             "guesses are wrong in the long run, and no rule makes fewer mistakes.",
             threshold=fmt_number(COUNT + 0.5), c=COUNT, c1=COUNT + 1, error=fmt_pct(a))


def tests_words(v: attack.CurveVerdict) -> str:
    level = percent(v.level)
    if len(v.students) == 1:
        return t("one student, level {level}", level=level)
    return t("Bonferroni over {n} students and the pooled point, family-wise level {level}",
             n=len(v.students), level=level)


def verdict_sentence(v: attack.CurveVerdict) -> str:
    """Who, if anyone, got beyond the curve by more than chance (students by number)."""
    tests = tests_words(v)
    if v.flagged:
        said = t("Beyond the curve by more than chance: {who} ({tests}). No guessing rule "
                 "gets there in the long run: that is very unlikely luck, or someone knew the "
                 "data sets.", who=", ".join(t("student {i}", i=i + 1) for i in v.flagged),
                 tests=tests)
    else:
        said = t("Nobody got beyond the curve by more than chance ({tests}).", tests=tests)
    if len(v.students) > 1 and v.pooled.beyond:
        said = t("{said} The class pooled lies beyond it too.", said=said)
    return said


def interval_caption(v: attack.CurveVerdict) -> str:
    """What the error bars cover."""
    return t("Error bars: each rate's exact Clopper–Pearson interval at {confidence} "
             "confidence, the level {level} shared among the {m} point(s) tested (Bonferroni). "
             "A point counts as beyond the curve only when even the upper ends of both its "
             "intervals lie below it: if everyone guessed honestly, that happens to any of "
             "the points with probability at most {level}. The pooled point sums everyone's "
             "counts; it is a guessing rule's errors when the students played about as many "
             "rounds from D as from D′, as they do on average.",
             confidence=percent(v.confidence), level=percent(v.level), m=v.tests)


def report_settings(settings: dict) -> dict[str, str]:
    return {t("mechanism"): t(MECHANISM_LABELS[settings["mechanism"]]),
            symbol(settings["mechanism"]): fmt_number(settings["level"]),
            t("rounds per student"): str(settings["rounds"]),
            t("count c of D"): str(COUNT)}
