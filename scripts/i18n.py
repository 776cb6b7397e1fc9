"""Keep the dashboard's translation catalogs with Babel (GNU gettext).

    .venv/bin/python scripts/i18n.py update    # extract the messages, merge them into both catalogs
    .venv/bin/python scripts/i18n.py compile   # compile the .mo files (also done on first use)

``update`` runs ``pybabel extract`` over the code (babel.cfg: every ``t("…")``, ``N_("…")``
and, in the figure builders, ``_("…")``; in dpcore, the templates of its errors and the
names pages show) into ``locale/messages.pot``, then ``pybabel
update`` into ``locale/<language>/LC_MESSAGES/messages.po``: new messages arrive empty in
the Korean catalog (to translate), messages gone from the code leave both catalogs, and the
English catalog, English being the source language, holds every message as itself.
tests/test_ui_i18n.py fails while a catalog is behind the code or a message is untranslated.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
TEMPLATE = LOCALE / "messages.pot"
LANGUAGES = ("en", "ko")
KEYWORDS = ("t", "N_", "_")
# dpcore's refusals keep their template (dpcore/errors.py): the dashboard says them from its
# catalog, so the templates written where errors are raised are messages too.
ERROR_KEYWORDS = ("ArgumentError", "UploadError", "DegenerateNullError", "Phrase")
WIDTH = "100"


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(out: Path = TEMPLATE) -> None:
    """The code's messages into the template ``out``."""
    keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
    os.chdir(ROOT)  # locations relative to the repository
    # Babel notes every f-string among a call's arguments; ours are the values of a
    # message's {fields}, never the message (tests/test_ui_i18n.py checks that).
    with contextlib.redirect_stderr(io.StringIO()):
        pybabel("extract", "-F", "babel.cfg", "--no-default-keywords", *keywords,
                "--add-location", "file", "--sort-by-file", "-w", WIDTH, "--omit-header",
                "-o", str(out), ".")
    add_dpcore_texts(out)


def dpcore_errors() -> dict[str, list[str]]:
    """The templates of dpcore's errors (dpcore/errors.py), and of the class activities'
    refused settings (dpclass raises the same errors): source file -> its templates."""
    keywords = [arg for k in ERROR_KEYWORDS for arg in ("-k", k)]
    with tempfile.TemporaryDirectory() as tmp:
        pot = Path(tmp) / "errors.pot"
        with contextlib.redirect_stderr(io.StringIO()):
            pybabel("extract", "--no-default-keywords", *keywords, "--add-location", "file",
                    "--omit-header", "-o", str(pot), "dpcore", "dpclass")
        with pot.open("rb") as f:
            found = read_po(f)
    texts: dict[str, list[str]] = {}
    for message in found:
        if message.id:
            for path, _ in message.locations:
                texts.setdefault(path, []).append(message.id)
    return texts


def dpcore_texts() -> dict[str, list[str]]:
    """dpcore's names that pages show through t() (dpcore itself speaks English and knows
    nothing of the interface): source file -> its texts."""
    sys.path.insert(0, str(ROOT))
    from dpcore import datasets, ldp, study  # noqa: PLC0415

    return {"dpcore/datasets.py": [*datasets.SHAPES.values(), *datasets.POPULATIONS.values()],
            "dpcore/study.py": [effect for _, _, effect in study.PAIRS.values()],
            "dpcore/ldp.py": list(ldp.ESTIMATORS.values())}


def add_dpcore_texts(out: Path) -> None:
    with out.open("rb") as f:
        template = read_po(f)
    for path, texts in [*dpcore_texts().items(), *dpcore_errors().items()]:
        for text in texts:
            template.add(text, locations=[(path, None)])
    with out.open("wb") as f:
        write_po(f, template, width=int(WIDTH), sort_by_file=True, omit_header=True)


def po(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "messages.po"


def update() -> None:
    extract()
    for language in LANGUAGES:
        if not po(language).exists():
            pybabel("init", "-i", str(TEMPLATE), "-d", str(LOCALE), "-l", language, "-w", WIDTH)
        pybabel("update", "-i", str(TEMPLATE), "-d", str(LOCALE), "-l", language,
                "--no-fuzzy-matching", "--ignore-obsolete", "-w", WIDTH)
    for language in LANGUAGES:
        with po(language).open("rb") as f:
            catalog = read_po(f, locale=language)
        catalog.project, catalog.version = "Seeing differential privacy", ""
        catalog.copyright_holder = catalog.last_translator = "the project's contributors"
        catalog.language_team = {"en": "English (the source language)",
                                 "ko": "Korean (terms: docs/glossary.md)"}[language]
        for message in catalog:
            # Messages are str.format templates ({name}); a "%" in one ("95% interval") is
            # text, which Babel's extractor takes for a %-format and would check as one.
            message.flags.discard("python-format")
            if language == "en" and message.id:
                message.string = message.id
        with po(language).open("wb") as f:
            write_po(f, catalog, width=int(WIDTH), sort_by_file=True)


def compile_all() -> None:
    pybabel("compile", "-d", str(LOCALE), "--statistics")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    else:
        sys.exit(__doc__)
