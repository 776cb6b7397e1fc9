"""The class activities end to end in Chromium (issue 37): a teacher and three students run
each activity through the real pages, every person in a browser context of their own (their
own cookies), the students on phone viewports (390×844, touch), the teacher at 1280×720.

- the poll: set up, joined three ways (the join link, the code typed on /class, a wrong code
  first), answered by a tap, the teacher's live count and estimate, shared results on a
  student's screen, closed; the teacher key in no address, no page and no Share link;
- presenting mode keeps the teacher's view (the cookie), and a second device of the
  teacher's becomes the teacher's view once given the key;
- the attacker game: three students play their rounds, the teacher's plot counts them;
- the class histogram: three values, two releases that spend the budget, a third refused,
  the two groups compared, the raw values deleted on closing;
- accessibility (axe) of the teacher's and a student's poll view, and a student's view in
  Korean.

One server for the module, on a class database of its own (DPCLASS_DATABASE_URL). Waits are
Playwright's ``expect`` and browserkit.wait_idle only; the live results are waited for as
they refresh themselves (no reload). Every test prints its duration (CLASS_LAPS=1: and
where it spends it). Screenshots go to
test-artifacts/class-*.png; with SCREENSHOTS=1 the poll test also writes the README's
docs/class_teacher.png (1280×720) and docs/class_student.png (390×844).
"""

from __future__ import annotations

import os
import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from browserkit import (ARTIFACTS, EXPECT_TIMEOUT_MS, INIT_SCRIPT, LOAD_TIMEOUT_MS,
                        assert_console_clean, assert_no_traceback, expect, metric,
                        running_server, stop_streamlit, thumb, wait_idle, watched_page)
from conftest import REPO_ROOT
from dpclass import activities
from test_browser import browser  # noqa: F401  (the fixture)
from ui import registry
from ui.text import catalog

pytestmark = pytest.mark.browser

TEACHER_VIEWPORT = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
DOCS = REPO_ROOT / "docs"
TEACHER_COOKIE = "dpclass_teacher_"  # + the code (ui.classroom)
STUDENT_COOKIE = "dpclass_student"

# The plain words the pages say (ui.classroom.PROBLEMS and the pages' own).
NOT_FOUND = "There is no activity with this code: check it with your teacher."
CLOSED = "The teacher has closed this activity: it takes no more answers."
ALREADY = "This browser has already answered: your first answer is kept."
OVER_BUDGET = ("This release would spend more than the activity's total privacy budget: it "
               "was not made.")


def said(text: str, code: str = "en") -> str:
    """``text`` (an English message) as the interface in ``code`` writes it."""
    return text if code == "en" else catalog(code).gettext(text)


# --- fixtures: the server, the people, the clock -----------------------------------------------

@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):  # noqa: F811
    """`streamlit run app.py` on a class database of this module's own."""
    folder = tmp_path_factory.mktemp("class")
    srv = running_server(folder / "server.log",
                         env={"DPCLASS_DATABASE_URL": f"sqlite:///{folder / 'class.db'}",
                              # the live parts refresh every second (students' every 2 s)
                              "DPCLASS_LIVE_EVERY_S": "1"})
    yield srv
    stop_streamlit(srv.proc)


class Room:
    """The people of one test: each a browser context of their own, with one page."""

    def __init__(self, browser, server):  # noqa: F811
        self.browser, self.server = browser, server
        self.contexts, self.pages = [], []
        self.urls: list[str] = []  # every address any page was at

    def person(self, *, phone: bool = True, zoom: float = 1.0):
        """A new browser (context) and its page: a phone (390×844, touch) or the teacher's
        1280×720 screen (at ``zoom``: a layout 1/zoom as large, drawn at 1280×720)."""
        if phone:
            context = self.browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        else:
            context = self.browser.new_context(
                viewport={k: round(v / zoom) for k, v in TEACHER_VIEWPORT.items()},
                device_scale_factor=zoom)
        context.set_default_timeout(EXPECT_TIMEOUT_MS)
        context.add_init_script(INIT_SCRIPT)  # for wait_idle
        self.contexts.append(context)
        page = watched_page(context, self.server.url)
        page.on("framenavigated", lambda frame: self.urls.append(frame.url))
        self.pages.append(page)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def room(browser, server):  # noqa: F811
    room = Room(browser, server)
    log_start = len(server.log())
    try:
        yield room
        for page in room.pages:
            assert_console_clean(page)
    finally:
        room.close()
    new_log = server.log()[log_start:]
    assert "Traceback" not in new_log, f"the server logged an exception:\n{new_log}"


_LAP = [0.0]


def lap(what: str) -> None:
    """Print the time since the last lap (where a test spends its time)."""
    now = time.perf_counter()
    if os.environ.get("CLASS_LAPS") == "1":
        print(f"[lap] {what}: {now - _LAP[0]:.1f} s", flush=True)
    _LAP[0] = now


@pytest.fixture(autouse=True)
def timed(request, capsys):
    """Print how long the test took (the suite's time budget is tight)."""
    start = _LAP[0] = time.perf_counter()
    yield
    took = time.perf_counter() - start
    with capsys.disabled():
        print(f"\n[time] {request.node.name}: {took:.1f} s", flush=True)


# --- helpers ---------------------------------------------------------------------------------

def visit(page, url: str) -> None:
    """Start opening ``url`` (absolute, or a path and query without the leading "/"), and
    go on: the page loads while the test drives other browsers."""
    page.goto(url if url.startswith("http") else f"{page.server_url}/{url}",
              wait_until="commit")


def goto(page, url: str, heading: str) -> None:
    """Open ``url`` (as :func:`visit`) and wait for the heading ``heading``."""
    visit(page, url)
    arrived(page, heading)


def arrived(page, heading: str) -> None:
    """Wait until ``page`` (on its way: :func:`visit`) shows the heading ``heading``."""
    expect(page.get_by_role("heading", name=heading).first).to_be_visible(
        timeout=LOAD_TIMEOUT_MS)


def set_slider(page, label: str, shown: str, key: str, steps: int = 40) -> None:
    """Press ``key`` on the slider ``label`` until it shows ``shown``, one step at a time
    (each step waited for: a slider outside a form reruns the page)."""
    knob = thumb(page, label)
    expect(knob).to_be_visible()
    for _ in range(steps):
        now = knob.get_attribute("aria-valuetext")
        if now == shown:
            break
        knob.focus()
        page.keyboard.press(key)
        expect(knob).not_to_have_attribute("aria-valuetext", now)
    expect(knob).to_have_attribute("aria-valuetext", shown)


def start(page, path: str, title: str, fill, button: str, *, opened: bool = False) -> None:
    """The teacher opens the setup at ``path`` (``opened``: already on its way), fills it
    (``fill(page)``) and starts."""
    if not opened:
        visit(page, path)
    expect(page.get_by_role("heading", name=title).first).to_be_visible(
        timeout=LOAD_TIMEOUT_MS)
    fill(page)
    page.get_by_role("button", name=button).click()
    expect(page.get_by_text(re.compile(r"^Join at "))).to_be_visible()


def join_panel(page) -> tuple[str, str]:
    """The join link and the join code (as stored: no dash) the teacher's screen shows."""
    words = page.get_by_text(re.compile(r"^Join at ")).first
    expect(words).to_be_visible()
    link = re.search(r"https?://\S+", words.inner_text()).group(0)
    shown = page.locator('[data-testid="stMain"] h2 code').first.inner_text().strip()
    code = activities.normal_code(shown)
    assert code and activities.shown_code(code) == shown, shown
    return link, code


def teacher_key(page, code: str) -> str:
    """The teacher key the browser of ``page`` holds for ``code`` (its cookie), once the
    page has written it."""
    name = TEACHER_COOKIE + code
    page.wait_for_function("c => document.cookie.split('; ').some(x => x.startsWith(c))",
                           arg=f"{name}=")
    [key] = [c["value"] for c in page.context.cookies() if c["name"] == name]
    return key


def wait_for_cookie(page, name: str) -> None:
    page.wait_for_function("c => document.cookie.split('; ').some(x => x.startsWith(c))",
                           arg=f"{name}=")


def sidebar(page):
    return page.locator('[data-testid="stSidebar"]')


def keyed(page, key: str):
    """The element of the widget keyed ``key`` (Streamlit's class st-key-<key>)."""
    return page.locator(f".st-key-{key}")


def alert(page, kind: str):
    """st.<kind> boxes (kind: Error, Info, Success, Warning)."""
    return page.locator(f'[data-testid="stAlertContent{kind}"]')


def tap_an_answer(page, answers: list[str], index: int, lang: str = "en") -> str:
    """Tap the answer ``index`` on the phone; return what the phone sent, as the page
    says it (the button marked sent, named in the success box)."""
    button = page.get_by_role("button", name=answers[index], exact=True)
    expect(button).to_be_enabled()
    button.tap()
    marked = page.locator('button[aria-current="true"]')
    expect(marked).to_have_count(1)
    sent = marked.inner_text().strip()
    assert sent in answers, sent
    expect(alert(page, "Success")).to_contain_text(
        said("Your phone sent: {answer}.", lang).format(answer=f"«{sent}»"))
    for a in answers:
        expect(page.get_by_role("button", name=a, exact=True)).to_be_disabled()
    return sent


def refreshed(page) -> None:
    """Wait until the page's live part (a fragment that reruns every few seconds) has
    refreshed itself once from now, with no action of the reader's, and drawn."""
    since = page.evaluate("performance.now()")
    page.wait_for_function("t => window.__lt.ws.some(e => e[0] === 'recv' && e[1] > t)",
                           arg=since, polling=100)
    wait_idle(page)


def screenshot(page, name: str) -> None:
    """test-artifacts/<name>.png, once the page is drawn."""
    wait_idle(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, timeout=90_000)


def run_ended(page) -> None:
    """The script run that drew what the test just waited for has ended: the page holds
    this run's buttons, not the last run's (whose callbacks had the last run's round)."""
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stApp\"]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'", polling=50)


def assert_key_nowhere(room: Room, key: str, *share_links: str) -> None:
    """The teacher key in no address any page was at, no page's HTML, no Share link."""
    assert len(key) >= 20, key
    for url in room.urls + [p.url for p in room.pages if not p.is_closed()]:
        assert key not in url, url
    for page in room.pages:
        if not page.is_closed():
            assert key not in page.content(), page.url
            assert key not in page.locator("body").inner_text(), page.url
    for link in share_links:
        assert key not in link, link


def share_link(page) -> str:
    """The link the Share popover gives."""
    page.get_by_role("button", name=re.compile("Share")).first.click()
    box = page.locator('[data-testid="stPopoverBody"] [data-testid="stCode"]').first
    expect(box).to_be_visible()
    link = box.inner_text().strip()
    page.keyboard.press("Escape")
    expect(box).to_be_hidden()
    return link


# --- the poll ---------------------------------------------------------------------------------

POLL_QUESTION = "How often did you skip a class last month without a reason?"
POLL_ANSWERS = ["Never", "Once or twice", "Three times or more"]


def fill_poll(question: str | None = None, answers: list[str] | None = None,
              eps: str | None = None):
    def fill(page) -> None:
        if question is not None:
            page.get_by_label("Question", exact=True).fill(question)
        if answers is not None:
            page.get_by_label("Answers, one per line", exact=True).fill("\n".join(answers))
        if eps is not None:
            set_slider(page, "Privacy level ε", eps, "ArrowRight")
    return fill


def start_poll(page, *, opened: bool = False, **settings) -> tuple[str, str]:
    """The teacher starts a poll (``settings``: fill_poll's; the defaults else); its join
    link and code."""
    start(page, "class_poll", registry.CLASS_POLL.label, fill_poll(**settings),
          "Start the poll", opened=opened)
    return join_panel(page)


def test_poll_end_to_end(room, server):
    teacher = room.person(phone=False)
    s1, s2, s3 = students = [room.person() for _ in range(3)]
    # The teacher opens the setup; meanwhile students 2 and 3 open the Class page (each
    # browser loads at once, as in a classroom).
    visit(teacher, "class_poll")
    visit(s2, "class")
    visit(s3, "class")
    start(teacher, "class_poll", registry.CLASS_POLL.label,
          fill_poll(question=POLL_QUESTION, answers=POLL_ANSWERS, eps="3"), "Start the poll",
          opened=True)
    link, code = join_panel(teacher)
    assert link == f"{server.url}/class_poll?code={code}", link
    expect(teacher.get_by_role("heading", name=POLL_QUESTION)).to_be_visible()
    expect(metric(teacher, "Answers received")).to_have_text("0")
    key = teacher_key(teacher, code)
    lap("teacher started")

    # Student 1 opens the join link (from the teacher's "Join at …").
    visit(s1, link)
    # Student 2 types the code on /class, in small letters with the dash.
    expect(s2.get_by_role("heading", name=registry.CLASS_JOIN.label)).to_be_visible(
        timeout=LOAD_TIMEOUT_MS)
    s2.get_by_label("Join code", exact=True).fill(activities.shown_code(code).lower())
    s2.get_by_role("button", name="Join", exact=True).click()
    # Student 3 types a wrong code first: a plain error; then the right one.
    expect(s3.get_by_role("heading", name=registry.CLASS_JOIN.label)).to_be_visible(
        timeout=LOAD_TIMEOUT_MS)
    wrong = ("Z" if code[0] != "Z" else "Y") + code[1:]
    s3.get_by_label("Join code", exact=True).fill(activities.shown_code(wrong))
    s3.get_by_role("button", name="Join", exact=True).click()
    expect(alert(s3, "Error")).to_have_text(re.compile(re.escape(NOT_FOUND) + "$"))
    assert_no_traceback(s3)
    s3.get_by_label("Join code", exact=True).fill(activities.shown_code(code))
    s3.get_by_role("button", name="Join", exact=True).click()
    for s in students:  # every phone shows the question's buttons, none taken yet
        expect(s.get_by_role("heading", name=POLL_QUESTION)).to_be_visible(
            timeout=LOAD_TIMEOUT_MS)
        assert parse_qs(urlsplit(s.url).query).get("code") == [code], s.url
        expect(s.get_by_role("group", name=POLL_QUESTION).get_by_role("button")
               ).to_have_count(3)
        expect(s.get_by_text("Your teacher will show the class's results here.")
               ).to_be_visible()
    lap("three students joined (link, code, wrong code then code)")

    # Each taps an answer and sees what their phone sent.
    sent = [tap_an_answer(s, POLL_ANSWERS, i) for i, s in enumerate(students)]
    lap("students answered")

    # The teacher's screen counts the answers by itself (the live fragment), no reload.
    expect(metric(teacher, "Answers received")).to_have_text("3")
    expect(teacher.get_by_text("With 4× the students (12 instead of 3)")).to_be_visible()
    expect(teacher.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"]').first
           ).to_be_visible()
    expect(teacher.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').first
           ).to_be_visible()
    lap("the teacher's screen shows 3 answers and the estimate")
    screenshot(teacher, "class-poll-teacher")

    # The teacher shows the results: the students' screens show them by themselves.
    switch = sidebar(teacher).get_by_role("switch", name="Show the results to the students")
    expect(switch).not_to_be_checked()
    sidebar(teacher).get_by_text("Show the results to the students").click()
    expect(switch).to_be_checked()
    teacher_link = share_link(teacher)  # (while the students' screens refresh)
    assert urlsplit(teacher_link).path == "/class_poll", teacher_link
    assert parse_qs(urlsplit(teacher_link).query) == {"code": [code], "lang": ["en"]}, (
        teacher_link)
    for s in (s1, s3):
        expect(s.get_by_role("heading", name="The class's results")).to_be_visible()
        for answer in POLL_ANSWERS:
            expect(s.get_by_text(f"«{answer}»: about")).to_be_visible()
    lap("the students' screens show the class's results")
    screenshot(s1, "class-poll-student")
    if os.environ.get("SCREENSHOTS") == "1":
        readme_screenshots(room, teacher, s2, code)

    # The teacher closes: a student who reloads has answered already; a new browser is told
    # the poll is closed.
    sidebar(teacher).get_by_role("button", name="Close the activity").click()
    expect(teacher.get_by_text("This poll is closed")).to_be_visible()
    wait_for_cookie(s2, STUDENT_COOKIE)
    s4 = room.person()
    visit(s4, link)
    s2.reload(wait_until="commit")
    for s in (s2, s4):
        expect(s.get_by_role("heading", name=POLL_QUESTION)).to_be_visible(
            timeout=LOAD_TIMEOUT_MS)
    expect(alert(s2, "Info").filter(has_text=ALREADY)).to_be_visible()
    expect(alert(s4, "Error")).to_have_text(re.compile(re.escape(CLOSED) + "$"))
    for s in (s2, s4):
        expect(s.get_by_role("group", name=POLL_QUESTION)).to_have_count(0)
        assert_no_traceback(s)
    expect(metric(teacher, "Answers received")).to_have_text("3")
    lap("closed: a reload has answered, a new browser is told it is closed")

    assert_key_nowhere(room, key, teacher_link)
    print(f"[poll] the phones sent {sent}")


def scroll_to_top(page, element, margin: int = 16) -> None:
    """Scroll the main area so that ``element`` is ``margin`` px under the screen's top."""
    element.evaluate("(e, m) => { e.scrollIntoView({block: 'start'}); "
                     "e.closest('[data-testid=\"stMain\"]').scrollTop -= m; }", margin)
    wait_idle(page)


def readme_screenshots(room: Room, teacher, student, code: str) -> None:
    """docs/class_teacher.png and docs/class_student.png (SCREENSHOTS=1). The teacher's
    view is taken in a browser of its own holding the teacher's cookie, at 80 % zoom (a
    1,600×900 layout drawn at 1280×720) and scrolled to the join code, so that the code, the
    QR code and the results fit one projector's screen; the student's is the phone's screen
    as it is."""
    projector = room.person(phone=False, zoom=0.8)
    projector.context.add_cookies([c for c in teacher.context.cookies()
                                   if c["name"] == TEACHER_COOKIE + code])
    goto(projector, f"class_poll?code={code}", registry.CLASS_POLL.label)
    expect(projector.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"]').first
           ).to_be_visible()
    wait_idle(projector)
    scroll_to_top(projector, projector.locator('[data-testid="stHorizontalBlock"]').filter(
        has=projector.get_by_text(re.compile(r"^Join at "))).first)
    projector.screenshot(path=str(DOCS / "class_teacher.png"), timeout=90_000)
    scroll_to_top(student, student.get_by_role("heading", name=POLL_QUESTION))
    student.screenshot(path=str(DOCS / "class_student.png"), timeout=90_000)


# --- presenting, and the teacher's second device ---------------------------------------------

def test_presenting_and_a_second_teacher_device(room, server):
    teacher = room.person(phone=False)
    link, code = start_poll(teacher)
    key = teacher_key(teacher, code)

    # Presenting mode, a new session: the cookie still says teacher.
    teacher.goto(f"{link}&present=1")
    expect(metric(teacher, "Answers received")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    expect(teacher.get_by_role("button", name=re.compile("Stop presenting"))).to_be_visible()
    assert join_panel(teacher) == (link, code)
    default_question = "Have you ever copied homework from a classmate?"
    expect(teacher.get_by_role("group", name=default_question)).to_have_count(0)
    lap("teacher started, then reloaded presenting")

    # The teacher's second device opens the join link: a student's view.
    other = room.person(phone=False)
    goto(other, link, default_question)
    expect(other.get_by_role("group", name=default_question).get_by_role("button")
           ).to_have_count(2)
    expect(other.get_by_text(re.compile(r"^Join at "))).to_have_count(0)
    # Given the key (typed in the password box), it becomes the teacher's view.
    other.get_by_text("Are you the teacher? Go on from this device").click()
    box = other.get_by_label("Or paste the teacher key", exact=True)
    expect(box).to_have_attribute("type", "password")
    box.fill(key)
    box.press("Enter")
    expect(metric(other, "Answers received")).to_have_text("0")
    assert join_panel(other) == (link, code)
    expect(sidebar(other).get_by_role("button", name="Close the activity")).to_be_attached()
    assert teacher_key(other, code) == key  # kept in a cookie for its next visits
    assert_key_nowhere(room, key)
    lap("a second device: a student's view, then the teacher's with the key")


# --- the attacker game ------------------------------------------------------------------------

ROUNDS = 5


def test_attacker_game(room, server):
    teacher = room.person(phone=False)

    def fill(page) -> None:
        expect(page.get_by_role("radio", name="Laplace at ε")).to_be_checked()
        set_slider(page, "Privacy level: ε (Laplace) or μ (Gaussian)", "1", "ArrowLeft")
        set_slider(page, "Rounds per student", str(ROUNDS), "Home", steps=3)

    start(teacher, "class_attack", registry.CLASS_ATTACK.label, fill, "Start the game")
    link, code = join_panel(teacher)
    expect(teacher.get_by_role("heading", name="Be the attacker: Laplace at ε = 1")
           ).to_be_visible()
    expect(metric(teacher, "Students who finished")).to_have_text("0")

    students = [room.person() for _ in range(3)]
    for s in students:  # the three phones load at once
        visit(s, link)
    for s in students:
        arrived(s, "Be the attacker")
    lap("teacher started, students joined")
    # The rounds, student after student: each clicks, and is waited for on the next turn.
    for r in range(ROUNDS):
        for i, s in enumerate(students):
            expect(s.get_by_text(f"Round {r + 1} of {ROUNDS}: the released count")
                   ).to_be_visible()
            run_ended(s)
            choice = "class_attack_guess_alt" if (r + i) % 2 else "class_attack_guess_d"
            keyed(s, choice).get_by_role("button").tap()
    for s in students:
        expect(alert(s, "Success").filter(has_text="Game over: your results are in the "
                                          "teacher's plot.")).to_be_visible()
        expect(s.get_by_text(f"{ROUNDS} of {ROUNDS} rounds played")).to_be_visible()
        assert_no_traceback(s)
    lap("three students played their rounds")

    expect(metric(teacher, "Students who finished")).to_have_text("3")
    expect(teacher.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"]').first
           ).to_be_visible()
    lap("the teacher's plot counts them")
    screenshot(teacher, "class-attack-teacher")
    screenshot(students[0], "class-attack-student")


# --- the class histogram ---------------------------------------------------------------------

BINS = ["Under 6 hours", "6 to 8 hours", "Over 8 hours"]
GROUPS = ["Morning section", "Afternoon section"]


def test_histogram_budget_and_comparison(room, server):
    teacher = room.person(phone=False)

    def fill(page) -> None:
        page.get_by_label("Bins, one per line", exact=True).fill("\n".join(BINS))
        page.get_by_label("Groups, one per line", exact=True).fill("\n".join(GROUPS))
        expect(thumb(page, "Total privacy budget α")).to_have_attribute("aria-valuetext", "2")

    start(teacher, "class_histogram", registry.CLASS_HISTOGRAM.label, fill, "Start")
    link, code = join_panel(teacher)
    expect(metric(teacher, "Values received")).to_have_text("0")

    students = [room.person() for _ in range(3)]
    for s in students:  # the three phones load at once
        visit(s, link)
    for s in students:
        arrived(s, "Hours you slept last night")
    lap("teacher started, students joined")
    for (group, value), s in zip([(0, 0), (0, 1), (1, 2)], students):
        s.locator('[data-testid="stRadio"]').filter(has_text="Your group").get_by_text(
            GROUPS[group], exact=True).tap()
        s.locator('[data-testid="stRadio"]').filter(has_text="Your answer").get_by_text(
            BINS[value], exact=True).tap()
        s.get_by_role("button", name="Send").tap()
    for (group, value), s in zip([(0, 0), (0, 1), (1, 2)], students):
        expect(alert(s, "Success")).to_contain_text(
            f"Sent: «{BINS[value]}», in «{GROUPS[group]}».")

    lap("three values sent")
    expect(metric(teacher, "Values received")).to_have_text("3")
    lap("the teacher's screen counts them")
    set_slider(teacher, "Privacy level α of the next release", "1", "ArrowRight")
    wait_idle(teacher)
    release = keyed(teacher, "class_hist_release_button").get_by_role("button")
    meter = teacher.locator('[data-testid="stMain"] [data-testid="stProgress"]').first
    release.click()
    expect(alert(teacher, "Success").filter(has_text="Released at α = 1.")).to_be_visible()
    expect(meter).to_contain_text("Spent α = 1 of the budget 2: 1 left")
    wait_idle(teacher)
    release.click()
    expect(meter).to_contain_text("Spent α = 2 of the budget 2: 0 left")
    expect(teacher.get_by_text("The whole budget is spent: no more releases can be made.")
           ).to_be_visible()
    wait_idle(teacher)
    release.click()
    expect(alert(teacher, "Error")).to_contain_text(OVER_BUDGET)
    expect(meter).to_contain_text("Spent α = 2 of the budget 2: 0 left")
    assert_no_traceback(teacher)
    lap("two releases, a third refused")

    # The two groups compared on the release shown: the test named, its p-value.
    expect(teacher.get_by_role("heading", name="Compare two groups")).to_be_visible()
    verdict = teacher.locator('[data-testid="stMain"] [data-testid="stAlert"]').filter(
        has_text="At the 5% significance level")
    expect(verdict).to_have_count(1)
    expect(verdict).to_contain_text(re.compile(
        r"the (parametric bootstrap test|calibrated normal-score test)"))
    expect(verdict).to_contain_text(re.compile(r"p-value <? ?\d"))
    expect(metric(teacher, "p-value")).to_have_text(re.compile(r"^(< )?\d(\.\d+)?$"))
    lap("the groups compared")
    screenshot(teacher, "class-histogram-teacher")

    sidebar(teacher).get_by_role("button", name="Close the activity").click()
    expect(alert(teacher, "Info").filter(has_text="the students' raw values are deleted")
           ).to_be_visible()
    expect(keyed(teacher, "class_hist_release_button")).to_have_count(0)
    assert_no_traceback(teacher)


# --- accessibility, and Korean ---------------------------------------------------------------

def test_poll_accessibility_and_a_student_in_korean(room, server):
    from a11ykit import Audit
    from test_ui_i18n import english_sentences

    teacher, student, korean = room.person(phone=False), room.person(), room.person()
    visit(teacher, "class_poll")
    link, _code = start_poll(teacher, opened=True)
    question = "Have you ever copied homework from a classmate?"  # the default, in English
    visit(student, link)
    visit(korean, f"{link}&lang=ko")
    arrived(student, question)
    arrived(korean, question)  # the teacher's words, as typed
    lap("teacher started, two students joined")

    audit = Audit("class-poll")
    audit.record(student, "student, phone, before answering")
    tap_an_answer(student, ["Yes", "No"], 0)
    tap_an_answer(korean, ["Yes", "No"], 1, "ko")
    expect(metric(teacher, "Answers received")).to_have_text("2")
    expect(teacher.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').first
           ).to_be_visible()
    audit.record(student, "student, phone, answered")
    audit.record(teacher, "teacher, 1280x720, two answers")
    serious = audit.save()  # (every violation: test-artifacts/axe-class-poll.json)
    lap("axe: two states of a student's phone, the teacher's view")

    # The Korean student's view is in Korean (the teacher's question and answers left out:
    # typed in English), also once its live part has refreshed itself.
    expect(korean.locator("html")).to_have_attribute("lang", "ko")
    refreshed(korean)
    expect(korean.get_by_role("heading", name=said(registry.CLASS_POLL.label, "ko")).first
           ).to_be_visible()
    screenshot(korean, "class-poll-student-ko")
    shown = korean.locator('[data-testid="stMain"]').inner_text().replace(question, " ")
    english = english_sentences(shown)
    problems = []
    if serious:
        problems.append(f"serious or critical axe violations: {serious}")
    if english:
        problems.append(f"English in the Korean student's view: {english[:10]}")
    assert not problems, "\n".join(problems)
