"""The dashboard in Korean and English (issue 22): the catalogs, and the language choice.

Catalogs: every message of the code (``scripts/i18n.py``'s extraction: every ``t("…")``,
``N_("…")`` and, in the figure builders, ``_("…")``, plus dpcore's names the pages show)
is in both catalogs and nothing else is; the English catalog holds each message as itself;
the Korean one translates each (not empty, not fuzzy, not the English text unless the
message is only names, symbols, units and code: :func:`untranslatable`), with the same
``{fields}`` and the same Markdown and LaTeX marks. A message is a whole sentence: never an
f-string or a concatenation (the extractor cannot see one).

Language: a link's ``lang`` opens the page in that language, a bad one falls back to
English with the usual note, the choice survives moving between pages and goes into the
page's link, and switching keeps the view (its tab and options).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from conftest import REPO_ROOT, open_page, run, thread_speaking
from pagekit import LINK_NOTE, link_notes
from ui import links, registry
from ui.text import LANGUAGES, LOCALE_DIR

SPEC = importlib.util.spec_from_file_location("i18n_script", REPO_ROOT / "scripts" / "i18n.py")
i18n = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(i18n)

FIELD = re.compile(r"(?<!\{)\{([^{}:!]*)[^{}]*\}(?!\})")
# Words a Korean text keeps as they are in English: the sources' own English terms (source
# 001 keeps f-DP, trade-off and GDP in English; 000 writes P-value), abbreviations, units,
# names of people, places, formats and software.
KEPT_WORDS = {
    "DP", "GDP", "LDP", "RR", "CLT", "MSE", "RMSE", "SE", "TV", "CSV", "HTML", "PNG", "URL",
    "PDF", "CDF", "IBU", "ln", "exp", "log", "sd", "max", "min", "var", "Lap", "Var", "dpcore",
    "dpviz", "numpy", "scipy", "pandas", "plotly", "Python", "Jupyter", "Streamlit", "pip",
    "value", "trade", "off", "Son", "Park", "Jung", "Dong", "Roth", "Su", "Kang", "Lee", "Hong",
    "Kairouz", "Bonawitz", "Ramage", "Balle", "Wang", "Dwork", "Wilson", "Laplace", "Gaussian",
    "USA", "QR", "et", "al", "vs", "ipynb", "py", "csv", "html", "png", "s", "ms", "µs",
    # Symbols of formulas written in plain text (issue 36): the hyperbolic tangent, as ln
    # and exp; the identity trade-off function Id(α) = 1 − α of Dong, Roth & Su (2022); the
    # distributions' names as formulas write them, as Lap.
    "tanh", "Id", "Multinomial", "Binomial",
}


def catalog(language: str):
    with (LOCALE_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return {m.id: m for m in read_po(f, locale=language) if m.id}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    out = tmp_path_factory.mktemp("i18n") / "messages.pot"
    i18n.extract(out)
    with out.open("rb") as f:
        return {m.id: m for m in read_po(f) if m.id}


def untranslatable(text: str) -> bool:
    """Whether a message is only names, symbols, units and code: every word of two or more
    Latin letters in it is one a Korean text keeps (:data:`KEPT_WORDS`)."""
    plain = re.sub(r"\$[^$]*\$|`[^`]*`|%?\{[^{}]*\}|:material/\w+:|<[^<>]*>", " ", text)
    return all(word in KEPT_WORDS for word in re.findall(r"[A-Za-z]{2,}", plain))


# A formula's words (\text{otherwise}, \operatorname{round}) are translated; their braces
# are LaTeX's, not a template's {fields}.
LATEX_WORDS = re.compile(r"\\(?:text|textrm|mathrm|operatorname|mbox)\s*\{[^{}]*\}")


def marks(text: str) -> dict:
    fields = FIELD.findall(LATEX_WORDS.sub(" ", text))
    return {"fields": sorted(fields), "bold": text.count("**"),
            "dollars": text.count("$"), "backticks": text.count("`"),
            "icons": sorted(re.findall(r":material/\w+:", text)),
            "paragraphs": text.count("\n\n")}


def test_both_catalogs_hold_every_message_of_the_code_and_nothing_else(template):
    for language in LANGUAGES:
        held = catalog(language)
        assert not set(template) - set(held), f"{language}: run scripts/i18n.py update"
        assert not set(held) - set(template), f"{language}: stale; run scripts/i18n.py update"


def test_the_english_catalog_holds_each_message_as_itself():
    for message in catalog("en").values():
        assert message.string == message.id and not message.fuzzy


def test_every_message_is_translated_into_korean_with_the_same_fields_and_marks():
    problems = []
    for message in catalog("ko").values():
        text = message.string
        if not text or message.fuzzy:
            problems.append(("untranslated", message.id))
        elif text == message.id and not untranslatable(message.id):
            problems.append(("the English text", message.id))
        elif marks(text) != marks(message.id):
            problems.append((f"marks {marks(message.id)} != {marks(text)}", message.id))
    assert not problems, f"{len(problems)} messages: {problems[:20]}"


def test_untranslatable_means_names_and_symbols_only():
    assert untranslatable("μ = Δ/σ") and untranslatable("N·l") and untranslatable("f-DP")
    assert untranslatable("{name} (CSV)") and untranslatable("$\\varepsilon$")
    assert not untranslatable("Seed") and not untranslatable("p-value of the test")


def _calls(tree: ast.AST):
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("t", "_", "N_") and node.args):
            yield node


@pytest.mark.parametrize("folder", ["ui", "views", "dpviz", "dpcode"])
def test_every_message_is_one_whole_text_never_an_f_string_or_a_sum(folder):
    """A message built at run time (f-string, concatenation, %-format) cannot be in the
    catalog: the translator must see the whole sentence with its {fields}."""
    found = []
    for path in sorted((REPO_ROOT / folder).rglob("*.py")):
        for call in _calls(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(call.args[0], (ast.JoinedStr, ast.BinOp)):
                found.append(f"{path.relative_to(REPO_ROOT)}:{call.lineno}")
    assert not found


# --- dpcore's refusals -----------------------------------------------------------------------

ERROR_CLASSES = ("ArgumentError", "UploadError", "DegenerateNullError", "Phrase")


def _error_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ERROR_CLASSES or name == "ValueError":
                yield name, node


def test_every_refusal_of_dpcore_keeps_a_whole_template_with_its_fields():
    """dpcore raises no bare ValueError: each refusal is an ArgumentError whose template is
    one literal text (so the extraction reads it into the catalog) and whose fields are
    exactly the template's places, so the dashboard can fill the Korean template with
    them (ui.text.error_text)."""
    import string

    problems = []
    for path in sorted((REPO_ROOT / "dpcore").rglob("*.py")):
        where = path.relative_to(REPO_ROOT)
        for name, call in _error_calls(ast.parse(path.read_text(encoding="utf-8"))):
            if name == "ValueError":
                problems.append(f"{where}:{call.lineno}: ValueError({ast.unparse(call)[11:40]}…)")
                continue
            if not call.args or not isinstance(call.args[0], ast.Constant):
                if not (name == "DegenerateNullError" and call.args
                        and isinstance(call.args[0], ast.Name)):
                    problems.append(f"{where}:{call.lineno}: template is not one literal")
                continue
            places = {field.split(".")[0].split("[")[0]
                      for _, field, _, _ in string.Formatter().parse(call.args[0].value)
                      if field is not None}
            given = {k.arg for k in call.keywords if k.arg} - {"which"}
            if any(k.arg is None for k in call.keywords):
                continue  # **fields: checked when raised
            if places != given:
                problems.append(f"{where}:{call.lineno}: places {sorted(places)} but fields "
                                f"{sorted(given)}")
    assert not problems, problems


def _refusals():
    """Real refusals of dpcore, as pages meet them: bad uploads and refused settings."""
    import pandas as pd

    from dpcore import gaussian, homogeneity, uploads, validation

    calls = [
        lambda: uploads.read_csv_upload(b""),
        lambda: uploads.read_csv_upload(b"a\n1\nten\n"),
        lambda: uploads.read_csv_upload(b"PK\x03\x04junk"),
        lambda: uploads.counts_from_column(pd.Series([1.0, -2.0], name="2020"), name="B"),
        lambda: uploads.counts_from_column(pd.Series([0.0, 0.0], name="x"), name=None),
        lambda: uploads.categories_from_column(["a", "a"]),
        lambda: uploads.check_same_length([1, 2, 3], [4, 5], names=("A", "B")),
        lambda: validation.positive_scalar(0, "eps"),
        lambda: validation.probability_array([0.0, 0.5], "delta"),
        lambda: gaussian.solve_gaussian(eps=0.0, delta=1e-3, sensitivity=1.0, method="tail"),
        lambda: homogeneity.parametric_bootstrap_test([0, 1, 0], [30, 40, 50], 0.1, 0.1,
                                                      n_boot=9, rng=1),
    ]
    for call in calls:
        try:
            call()
        except ValueError as exc:
            yield exc
        else:
            raise AssertionError("no refusal")


def test_dpcore_refusals_are_said_in_korean_with_the_page_symbols():
    """ui.text.error_text says a refusal from its template and fields: the Korean template,
    the user's cells and column names as they are, parameter names as the page's symbols,
    and no English sentence left."""
    from dpcore.errors import ArgumentError
    from ui.text import error_text

    symbols = {"eps": "ε", "delta": "δ", "sensitivity": "Δ", "x1": "X_A"}
    for refusal in _refusals():
        assert isinstance(refusal, ArgumentError), refusal
        english = error_text(refusal, symbols)
        with thread_speaking("ko"):
            korean = error_text(refusal, symbols)
        assert korean != english and re.search("[가-힣]", korean), korean
        assert not english_sentences(korean.replace("\\", "")), korean
        for value in refusal.fields.values():
            if isinstance(value, str) and value.startswith('"'):  # a user's quoted text
                assert value.strip('"') in korean.replace("\\", ""), (value, korean)
        assert "eps" not in korean and "`" not in korean, korean


# --- the language of a session -------------------------------------------------------------


@pytest.fixture
def korean_test_thread():
    with thread_speaking("ko"):
        yield


def test_a_link_opens_the_page_in_its_language_and_keeps_it(korean_test_thread):
    at = open_page(registry.COMPARE.script, None, {"lang": "ko"})
    assert at.session_state["lang"] == "ko"
    assert at.title[0].value == catalog("ko")[registry.COMPARE.title].string
    assert at.query_params["lang"] == ["ko"] or at.query_params["lang"] == "ko"
    at.switch_page(registry.FDP.script)
    run(at)
    assert at.title[0].value == catalog("ko")[registry.FDP.title].string
    assert at.sidebar.radio(key="lang").value == "ko"


def test_a_bad_language_in_a_link_falls_back_to_english_with_the_usual_note():
    at = open_page(registry.LDP.script, registry.LDP.title, {"lang": "xx"})
    assert at.session_state["lang"] == "en"
    notes = link_notes(at)
    assert len(notes) == 1 and "lang" in notes[0] and LINK_NOTE in notes[0]


def test_switching_the_language_keeps_the_open_tab():
    at = open_page(registry.SUBSTITUTION.script, registry.SUBSTITUTION.title,
                   {"rs_tab": "Cost"})
    at.sidebar.radio(key="lang").set_value("ko")
    run(at)
    assert at.session_state["rs_tab"] == catalog("ko")["Cost"].string
    assert at.title[0].value == catalog("ko")[registry.SUBSTITUTION.title].string
    # The address, and so the Share link, names the same tab in the new language (a
    # journey found it dropped: the link then opened another tab than the one shown).
    assert at.query_params["rs_tab"] == catalog("ko")["Cost"].string
    with thread_speaking("ko"):
        at.sidebar.radio(key="lang").set_value("en")
        run(at)
    assert at.session_state["rs_tab"] == "Cost"
    assert at.query_params["rs_tab"] == "Cost"
    assert at.title[0].value == registry.SUBSTITUTION.title


def test_switching_the_language_keeps_the_tab_a_korean_link_named_in_the_address():
    """A journey's shrunk example: a tab named in Korean in the address, then English chosen
    in the sidebar. The view stays on the tab and the address (the Share link) names it in
    English; the tab was once dropped from the address, and the Share link opened another."""
    cost = catalog("ko")["Cost"].string
    with thread_speaking("ko"):
        at = open_page(registry.SUBSTITUTION.script, None, {"lang": "ko", "rs_tab": cost})
        assert at.session_state["rs_tab"] == cost
        at.sidebar.radio(key="lang").set_value("en")
        run(at)
    assert at.session_state["rs_tab"] == "Cost"
    assert at.query_params["rs_tab"] == "Cost"


def test_switching_the_language_keeps_an_option_whose_key_is_also_a_message():
    """A journey's shrunk example: the Gaussian page's "classical" experiment (its method's
    option key, "classical", is also a message, "고전적" in Korean), then Korean chosen in
    the sidebar. The method stays classical; it was once relabelled in the session to a
    text that is no option, the control fell back to "analytic" and σ changed under the
    view while the Share link still said classical."""
    at = open_page(registry.GAUSSIAN.script, None, {"gauss_method": "classical",
                                                    "gauss_eps": "10", "gauss_query": "count"})
    assert at.session_state["gauss_method"] == "classical"
    sigma = at.session_state["gauss_sigma"]
    with thread_speaking("en"):  # the click is sent from the English view
        at.sidebar.radio(key="lang").set_value("ko")
        run(at)
    assert at.session_state["gauss_method"] == "classical"
    assert at.session_state["gauss_sigma"] == sigma
    assert at.query_params["gauss_method"] == catalog("ko")["classical"].string


def test_switching_the_language_sends_a_chosen_options_label_in_the_new_language():
    """Found by the Chromium upload journey: after a switch to Korean, the k-RR data source
    chosen in English ("upload", shown "Uploaded CSV file") kept its English label in the
    browser, which shows, and sends back, the label it was last sent. The switch sends the
    label in the new language."""
    at = open_page(registry.LDP.script, None, {})
    at.selectbox(key="ldp_source").set_value("upload")
    run(at)
    with thread_speaking("en"):  # the click is sent from the English view
        at.sidebar.radio(key="lang").set_value("ko")
        run(at)
    box = at.selectbox(key="ldp_source")
    assert box.value == "upload"
    assert box.proto.set_value and box.proto.raw_value == catalog("ko")["Uploaded CSV file"].string


def test_the_first_visit_follows_the_browser(monkeypatch):
    from ui import language

    class Context:
        locale = "ko-KR"

    class Streamlit:
        context = Context()

    monkeypatch.setattr(language, "st", Streamlit())
    assert language.from_browser() == "ko"
    Context.locale = "de-DE"
    assert language.from_browser() == "en"


# --- every page in Korean ------------------------------------------------------------------

# The sources' titles and journals, cited as they are (docs/references.md).
TITLES = ("Gaussian differential privacy",
          "parametric bootstrap test for comparing differentially private histograms",
          "The Korean Journal of Applied Statistics")
ENGLISH_RUN = re.compile(r"\b[A-Za-z]{3,}(?:[ ,'-]+[A-Za-z]{2,}){2,}")


def english_sentences(text: str) -> list[str]:
    """Runs of three or more English words in a shown text (not inside formulas, code,
    Material icon codes or links), except runs made only of words a Korean text keeps
    (names, units, abbreviations: :data:`KEPT_WORDS`). A user's file name or label would
    be one too: the pages here show built-in data."""
    plain = re.sub(r"\$[^$]*\$|`[^`]*`|:material/\w+:|\(https?://[^)]*\)|https?://\S+", " ",
                   text)
    for title in TITLES:
        plain = plain.replace(title, " ")
    return [run for run in ENGLISH_RUN.findall(plain) if not untranslatable(run)]


def shown_texts(at) -> list[str]:
    texts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success",
                                  "title", "header", "subheader") for e in at.get(kind)]
    for kind in ("metric", "button", "slider", "select_slider", "selectbox", "radio",
                 "number_input", "multiselect", "checkbox", "toggle", "download_button",
                 "text_input"):
        for w in at.get(kind):
            texts += [str(getattr(w, "label", "") or ""), str(getattr(w, "help", "") or "")]
    return texts


@pytest.mark.parametrize("page", registry.PAGES, ids=lambda p: p.name)
def test_every_page_opens_in_korean_with_every_text_translated(page, monkeypatch):
    """The page in Korean: no error, every message it asked for is in the Korean catalog,
    and no English sentence is left in what it shows."""
    from ui import text

    asked_for = set()
    korean = text.messages("ko")
    gettext = text.catalog("ko").gettext

    class Recording:
        @staticmethod
        def gettext(message: str) -> str:
            asked_for.add(message)
            return gettext(message)

    monkeypatch.setattr(text, "catalog", lambda code: Recording)
    at = open_page(page.script, None, {"lang": "ko"})
    assert not at.exception and not at.error
    assert at.session_state["lang"] == "ko"
    assert not {m for m in asked_for if m not in korean}, "not in the Korean catalog"
    left = [run for shown in shown_texts(at) for run in english_sentences(shown)]
    assert not left, left[:10]
    assert not english_headers(at), english_headers(at)
    assert_korean_all_the_way(at)


def assert_korean_all_the_way(at, where: str = "") -> None:
    """Issue 36: no English word or internal name outside the kept terms in the page's
    tables, charts, formulas and messages (tests/koreankit.py), and no N written "50M"
    beside M, the number of bins."""
    from koreankit import MILLIONS, english_on_page
    from shown import shown_texts as every_text

    found = english_on_page(at)
    assert not found, (where, len(found), [f"{w} ({kind}): {text[:80]!r}"
                                           for kind, w, text in found[:10]])
    # (A Markdown code span is a literal, e.g. a class's join code "154M-BTZ1", never an N.)
    millions = [s for s in every_text(at) if MILLIONS.search(re.sub(r"`[^`]*`", "", s))]
    assert not millions, (where, millions[:5])


ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z_ ()'-]{2,}")


def english_headers(at) -> list[str]:
    """Column headers of the tables the report gets that are English words (the report's
    tables are headed as the page's are; their CSV files keep the column names)."""
    from conftest import LAST_KIT

    tables = LAST_KIT[-1].report_tables() if LAST_KIT else []  # the home page has none
    return [f"{name}: {column}" for name, frame in tables for column in frame.columns
            if ENGLISH_WORD.fullmatch(str(column)) and not untranslatable(str(column))]


# The URL parameter of each page's tabs.
TAB_KEYS = {registry.CALIBRATION: "cal_tab", registry.FDP: "fdp_tab",
            registry.GAUSSIAN: "gauss_tab", registry.LDP: "ldp_tab", registry.PLANNER: "plan_tab",
            registry.SUBSTITUTION: "rs_tab"}


@pytest.mark.parametrize("page", list(TAB_KEYS), ids=lambda p: p.name)
def test_every_tab_opens_in_korean_with_every_text_translated(page, korean_test_thread):
    """Each tab of a Korean page (opened by its link, as a shared link opens it): no error,
    no English sentence on the page, no English header in the report's tables."""
    at = open_page(page.script, None, {"lang": "ko"}, timeout=180)
    labels = [tab.label for tab in at.tabs]
    assert len(labels) >= 2 and re.search("[가-힣]", labels[1]), labels
    for label in labels[1:]:  # the first is the page's default view, tested above
        at = open_page(page.script, None, {"lang": "ko", TAB_KEYS[page]: label}, timeout=180)
        assert at.session_state[TAB_KEYS[page]] == label
        assert not at.exception and not at.error, (label, [e.value for e in at.error])
        left = [run for shown in shown_texts(at) for run in english_sentences(shown)]
        assert not left, (label, left[:10])
        assert not english_headers(at), (label, english_headers(at))
        assert_korean_all_the_way(at, label)


def _experiments():
    for page in registry.PAGES:
        module = importlib.import_module(f"ui.pages.{Path(page.script).stem}") \
            if (REPO_ROOT / "ui" / "pages" / Path(page.script).name).exists() else None
        for index, _ in enumerate(getattr(module, "EXPERIMENTS", ())):
            yield pytest.param(page.script, module, index, id=f"{page.name}-{index}")


@pytest.mark.parametrize(("script", "module", "index"), list(_experiments()))
def test_every_try_this_experiment_opens_in_korean(script, module, index, korean_test_thread):
    """Each "Try this" link (written with English labels, as links before ``lang`` were) on
    a Korean page: every value is used (no note on unusable values; a composite label such
    as "Population 2020 by age: Korea" included), the experiment is named in Korean, and the
    view it opens (often another tab) shows no English sentence."""
    from ui.kit import TRY_PARAM
    from ui.text import t

    ex = module.EXPERIMENTS[index]
    at = open_page(script, None, {"lang": "ko"}, timeout=180)
    for key in list(at.query_params):
        del at.query_params[key]
    for key, value in {**ex.query, TRY_PARAM: str(index), "lang": "ko"}.items():
        at.query_params[key] = value
    at.switch_page(script)
    run(at)
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any(t(ex.title) in box.value for box in at.info), [b.value for b in at.info]
    note = links.unusable_note(["{keys}"]).split("{keys}")[0]  # in Korean
    assert not [w.value for w in at.warning if w.value.startswith(note)], "link values unused"
    left = [run for shown in shown_texts(at) for run in english_sentences(shown)]
    assert not left, left[:10]
    assert not english_headers(at), english_headers(at)
    assert_korean_all_the_way(at, ex.title)


def test_korean_writes_numbers_as_english_does_so_the_formatters_stay():
    """Babel's locale data: Korean groups thousands with "," and marks decimals with "." as
    English does, and writes percentages alike, so ui.format's rules serve both languages."""
    from babel.numbers import format_decimal, format_percent

    for x in (0.000123, 1234.5, 50_000_000, -7.25):
        assert format_decimal(x, locale="ko_KR") == format_decimal(x, locale="en_US")
    assert format_percent(0.953, locale="ko_KR") == format_percent(0.953, locale="en_US")


def test_the_korean_check_sees_words_in_tables_charts_formulas_and_messages():
    """tests/koreankit.py counts an English word or identifier wherever a reader meets it,
    and leaves symbols, kept terms and a formula's commands alone."""
    import json

    from koreankit import figure_texts, formula_words, words

    assert words("normal_score") == ["normal", "score"] and words("alpha1") == ["alpha"]
    assert words("정의 불가(undefined)") == ["undefined"]
    assert not words("ε = 0.1, N = 1,000, p-value, Son, Park & Jung (2022), 95% CI"[:-6])
    assert formula_words(r"X & \text{otherwise} \\ \operatorname{round}(x) \alpha") == [
        "otherwise", "round"]
    assert words(r"$\text{power} = 1 - \beta$ 검정력") == ["power"]
    spec = json.dumps({"data": [{"type": "scatter", "x": [1], "y": [2]},
                                {"type": "scatter", "name": "모수적 부트스트랩",
                                 "hovertemplate": "N %{x}<br>rate %{y}<extra></extra>"}],
                       "layout": {"xaxis": {"title": {"text": "N per histogram"}},
                                  "annotations": [{"text": "M = 86"}]}})
    said = [w for _, text in figure_texts(spec) for w in words(text)]
    assert sorted(said) == ["histogram", "per", "rate", "trace"], said
