"""Data sources and uploads: the built-in 2020 populations, the paper's shapes, a user's CSV
file; two histograms over common bins (A and B); an upload of categories.

Every control returns what it resolved or why it cannot (a plain sentence), never stopping
the page itself: a page draws its other controls first, then stops with the reason through
its kit. Text from a user's file reaches these sentences through ui.text.esc, and an error's
message (which quotes cells and column names as they are) through ui.text.error_text.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dpcore import datasets, uploads
from ui import internals
from ui.text import N_, error_text, esc, label_family, t

UPLOAD = "upload"
KEPT_SUFFIX = "__kept"  # session state of an upload control's kept file (kept_upload)
AGE_BINNINGS = {1: N_("Single years (86 bins)"), 5: N_("5-year groups (18 bins)"),
                10: N_("10-year groups (9 bins)")}

# The data sources' option labels (a source's label is its URL value): in English here,
# in the reader's language from source_label.
POPULATION_SOURCE = N_("Population 2020: {population}")
SHAPE_SOURCE = N_("Shape: {shape}")
UPLOAD_SOURCE = N_("Uploaded CSV file")
SOURCE_LABELS = {
    **{k: POPULATION_SOURCE.format(population=v) for k, v in datasets.POPULATIONS.items()},
    **{k: SHAPE_SOURCE.format(shape=v) for k, v in datasets.SHAPES.items()},
    UPLOAD: UPLOAD_SOURCE,
}
# The populations' short names ("Korea central"), where a sentence or a pair names them.
SHORT_POPULATIONS = {"usa": N_("USA"), "korea": N_("Korea"),
                     "korea_central": N_("Korea central"),
                     "korea_noncentral": N_("Korea noncentral")}


@label_family(SOURCE_LABELS)
def source_label(source: str) -> str:
    """A data source's option label (a key of SOURCE_LABELS) in the reader's language."""
    if source in datasets.POPULATIONS:
        return t(POPULATION_SOURCE, population=t(datasets.POPULATIONS[source]))
    if source in datasets.SHAPES:
        return t(SHAPE_SOURCE, shape=t(datasets.SHAPES[source]))
    return t(SOURCE_LABELS[source])


def population_short(source: str) -> str:
    """A built-in population's short name in the reader's language: "Korea central" (its
    name without the parenthesis)."""
    if source in SHORT_POPULATIONS:
        return t(SHORT_POPULATIONS[source])
    return t(datasets.POPULATIONS[source]).split(" (")[0]


def age_binning_label(width: int) -> str:
    """An age grouping's option label (a key of AGE_BINNINGS) in the reader's language."""
    return t(AGE_BINNINGS[width])


def source_picker(side: str, *, default: str, key: str) -> str:
    """Selectbox of data sources for histogram `side` ("A" or "B")."""
    keys = list(SOURCE_LABELS)
    return st.selectbox(
        t("Histogram {side}", side=side), keys, index=keys.index(default),
        format_func=source_label, key=key, bind="query-params",
        help=t("A built-in 2020 population by age, one of the shapes of Son, Park & Jung "
               "(2022, section 2.3: uniform, increasing, normal), or a column of your own CSV "
               "file."),
    )


@dataclass(frozen=True)
class Upload:
    """A parsed, validated upload: a table of numeric columns and how to read it."""

    table: pd.DataFrame
    kind: str  # "counts" or "values"


def kept_upload(key: str) -> dict:
    """What the upload control ``key`` keeps for the session: the last file uploaded (its
    name and bytes), the kind chosen and the page's own choices about it (e.g. a column).

    Streamlit forgets a widget that a run does not draw: a control in a tab that is closed
    would lose its file. What is kept here brings it back when the tab is opened again,
    until the user removes the file or uploads another."""
    return st.session_state.setdefault(f"{key}{KEPT_SUFFIX}", {})


def _keep_file(key: str) -> None:
    """on_change of the uploader: keep the new file, or forget the one removed."""
    file, kept = st.session_state.get(key), kept_upload(key)
    for name in ("name", "data"):
        kept.pop(name, None)
    if file is not None and not internals.upload_lost(key):
        kept.update(name=file.name, data=file.getvalue())


def _keep_choice(upload_key: str, key: str) -> None:
    """on_change of the widget ``key`` of the upload ``upload_key``: keep its value."""
    kept_upload(upload_key)[key] = st.session_state.get(key)


def kept_file_uploader(label: str, *, key: str, help: str) -> bytes | None:
    """A CSV file uploader whose file is kept (:func:`kept_upload`); the file's bytes, or
    None before a file is uploaded. Drawn again after runs without it, it uses the file
    uploaded before and says so."""
    file = st.file_uploader(label, type=["csv", "txt"], key=key, on_change=_keep_file,
                            args=(key,), help=help)
    if file is not None:
        return file.getvalue()
    kept = kept_upload(key)
    if "data" not in kept:
        if internals.upload_lost(key):
            st.warning(t("The file shown above is no longer on the server: the page "
                         "reconnected to another server process, or the server restarted. "
                         "Upload it again to go on; your other settings are kept in the "
                         "page's address."), icon=":material/sync_problem:")
        return None
    st.caption(t("Using {name}, uploaded earlier. Upload another file to replace it.",
                 name=esc(kept["name"])), help=t("The file stays with this browser tab's "
                                                 "session until another file replaces it."))
    return kept["data"]


KEY_FILE_MAX_BYTES = 1024  # a class activity's teacher key file is a few lines


def key_file_upload(label: str, *, key: str, help: str) -> bytes | None:
    """A small text file (a class activity's teacher key file, ui.classroom): its bytes, or
    None before one is given or when it is larger than :data:`KEY_FILE_MAX_BYTES` (said)."""
    file = st.file_uploader(label, type=["txt"], key=key, help=help)
    if file is None:
        return None
    data = file.getvalue()
    if len(data) > KEY_FILE_MAX_BYTES:
        st.error(t("This file is too large to be a teacher key file."))
        return None
    return data


def kept_choice(widget, label: str, options: list, *, upload_key: str, key: str,
                default=None, **kwargs):
    """``widget`` (st.selectbox, st.radio) about the upload ``upload_key`` (its column, its
    kind) whose choice is kept with the file (:func:`kept_upload`); before a choice is kept,
    ``default`` if it is an option, else the first option."""
    kept = kept_upload(upload_key).get(key)
    chosen = kept if kept in options else default if default in options else options[0]
    return widget(label, options, index=options.index(chosen),
                  key=key, on_change=_keep_choice, args=(upload_key, key), **kwargs)


def upload_control(key: str = "upload") -> tuple[Upload | None, str | None]:
    """File uploader with its options.

    Returns the parsed upload, or None and why not (no file yet, or what is
    wrong with the file, in plain words). The file and its kind are kept while the control
    is not drawn (:func:`kept_upload`).
    """
    st.markdown(t("**Your CSV file**"))
    kinds = {"counts": t("counts per bin (one row per bin)"),
             "values": t("raw values to bin (one row per person)")}
    kind = kept_choice(
        st.radio, t("The file holds"), list(kinds), upload_key=key, key=f"{key}_kind",
        horizontal=True, format_func=kinds.get,
        help=t("Counts: each row is a bin, each column a histogram (a first column of text "
               "labels is allowed). Raw values: each column lists one value per person, e.g. "
               "ages."),
    )
    data = kept_file_uploader(
        t("CSV file: one column, or two columns for A and B"), key=key,
        help=t("Comma-, semicolon- or tab-separated, UTF-8, up to 5 MB. An optional header row "
               "names the columns."))
    if data is None:
        return None, None
    try:
        table = uploads.read_csv_upload(data)
    except uploads.UploadError as exc:
        return None, t("This file cannot be used: {why}", why=error_text(exc))
    return Upload(table=table, kind=kind), None


def column_picker(upload: Upload, side: str, *, index: int, key: str) -> str:
    cols = list(upload.table.columns)
    return st.selectbox(
        t("Column for {side}", side=side), cols, index=min(index, len(cols) - 1), key=key,
        help=t("Which column of your file is histogram {side}.", side=side),
    )



# ---------------------------------------------------------------------------
# An upload of categories: one value per record, or counts per category
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CategoryCounts:
    """Counts per category read from an uploaded file.

    ``first``: the category index of every record in file order (a file of one
    value per record), None for a file of counts.
    """

    labels: list[str]
    counts: np.ndarray  # whole numbers, as floats
    first: np.ndarray | None
    what: str  # the data in words


@dataclass(frozen=True)
class FoundWords:
    """How a page whose upload of categories can find the kind of its file from the file
    says what it found: whole messages, each marked with N_ and shown through t()."""

    option: str  # the option "found from the file" (the default when offered)
    counts: str  # what was read, as counts: {k} categories, {n} their total, {column}
    values: str  # what was read, one value per record: {n} values, {column}, {k}
    counts_refused: str  # after a refusal of the file read as counts: choose the other kind
    values_refused: str  # after a refusal of the file read as one value per record


@dataclass(frozen=True)
class CategoryWords:
    """How a page's upload of categories names what its file holds (one answer per user, one
    value per record): whole messages, each marked with N_ and shown through t()."""

    kind: str  # the option "a file of one value per record"
    help: str  # the help of the choice between the two kinds of file
    column_help: str  # the help of the column picker
    what: str  # the data in words: {n} values, {column} their column
    not_whole: str  # a count of a file of counts that is not whole: {column}
    # The option that finds the kind from the file and the sentences saying what was read;
    # None: the page offers the two kinds only.
    found: FoundWords | None = None


def category_upload(prefix: str, *, max_categories: int,
                    words: CategoryWords) -> tuple[CategoryCounts | None, str | None]:
    """The upload controls of a page of categories; the counts, or why there are none.

    Widget keys ``{prefix}_file_kind`` (bound to the URL), ``{prefix}_file`` and
    ``{prefix}_col``. The file holds one value per record (``words`` says which: one
    answer per user, …), a column of categories, text or numbers, or counts per category
    (whole numbers, with an optional first column of labels). With ``words.found`` a first
    option, the default, finds which from the file (:func:`dpcore.uploads.guess_file_kind`),
    and the page says what it read. Returns (None, None) while no file is uploaded, (None,
    what is wrong in plain words) for a file that cannot be used.
    """
    found = words.found
    kinds = {"categories": t(words.kind),
             "counts": t("counts per category (one row per category)")}
    if found is not None:  # first, the default; the other options keep their URL values
        kinds = {"detect": t(found.option), **kinds}
    kind = st.radio(
        t("The file holds"), list(kinds), format_func=kinds.get, key=f"{prefix}_file_kind",
        bind="query-params", help=t(words.help))
    data = kept_file_uploader(
        t("CSV file"), key=f"{prefix}_file",
        help=t("Comma-, semicolon- or tab-separated, UTF-8, up to 5 MB, at most "
               "{most:,} categories.", most=max_categories))
    if data is None:
        return None, None
    used, counts_column = kind, None

    def refused(said: str) -> tuple[None, str]:
        """The refusal of the file, ``said`` being its error's text (ui.text.error_text)."""
        why = t("This file cannot be used: {why}", why=said)
        if kind == "detect" and used != "detect":  # how it was read; how to read it otherwise
            other = found.counts_refused if used == "counts" else found.values_refused
            why += " " + t(other)
        return None, why

    try:
        if kind == "detect":
            used, counts_column = uploads.guess_file_kind(data)
        table = (uploads.read_answers_upload(data) if used == "categories"
                 else uploads.read_csv_upload(data))
    except uploads.UploadError as exc:
        return refused(error_text(exc))
    column = kept_choice(st.selectbox, t("Column"), list(table.columns),
                         upload_key=f"{prefix}_file", key=f"{prefix}_col",
                         default=counts_column, help=t(words.column_help))
    try:
        if used == "categories":
            labels, counts, index = uploads.categories_from_column(
                table[column], max_categories=max_categories)
            result = CategoryCounts(labels, counts, index,
                                    t(words.what, n=counts.sum(), column=column))
        else:
            counts = uploads.counts_from_column(table[column], name=None)
            if np.any(counts != np.round(counts)):
                raise uploads.UploadError(words.not_whole, column=column)
            if counts.size > max_categories:
                raise uploads.UploadError(N_(
                    "Your file has {n:,} categories; at most {most:,} are supported."),
                    n=counts.size, most=max_categories)
            labels = ([str(v) for v in table.index]
                      if not isinstance(table.index, pd.RangeIndex)
                      else [str(j) for j in range(1, counts.size + 1)])
            result = CategoryCounts(labels, counts, None,
                                    t('the counts in column "{column}"', column=column))
    except ValueError as exc:  # UploadError and dpcore argument errors
        return refused(error_text(exc))
    if found is not None:  # what was read, in plain words
        read = found.counts if used == "counts" else found.values
        st.info(t(read, k=f"{len(labels):,}", n=f"{counts.sum():,.0f}", column=esc(column)),
                icon=":material/fact_check:")
    return result, None


# ---------------------------------------------------------------------------
# Two histograms over common bins
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SideInput:
    """One histogram as the user chose it.

    ``values`` are probabilities to sample from (``fixed`` False) or counts
    to use as they are (``fixed`` True).
    """

    name: str
    values: np.ndarray
    fixed: bool
    # The dpcore expression giving ``values`` for a built-in source (the Code button writes
    # it); None for an upload, whose values the code embeds.
    expression: str | None = None


@dataclass(frozen=True)
class PairInput:
    """Histograms A and B over common bins, or why they cannot be had.

    When ``problem`` is set the other fields may be None; ``waiting`` marks
    the harmless case of a file not uploaded yet.
    """

    labels: list[str] | None
    a: SideInput | None
    b: SideInput | None
    private: bool = False  # both are uploaded, already private histograms
    problem: str | None = None
    waiting: bool = False
    # A caveat shown with the upload (A and B hold the same data), as plain text for the
    # page's report; None when there is none.
    note: str | None = None

    @property
    def sampled(self) -> bool:
        """True when at least one histogram is drawn with a sample size N."""
        return self.a is None or not (self.a.fixed and self.b.fixed)

    def stop_if_unusable(self, kit) -> None:
        """Show why the pair cannot be used (after the controls) and stop the page ``kit``."""
        if self.problem is None:
            return
        if self.waiting:
            kit.wait(self.problem)
        kit.fail(self.problem)


def _binning_control(sources: list[str], upload: Upload | None, key: str):
    """Return (width, m): age-group width, or the number of equal-width bins."""
    any_pop = any(s in datasets.POPULATIONS for s in sources)
    upload_counts = upload is not None and upload.kind == "counts" and UPLOAD in sources
    if any_pop:
        width = st.radio(
            t("Age groups (bins M)"), list(AGE_BINNINGS), index=1, format_func=age_binning_label,
            key=f"{key}_width", bind="query-params", horizontal=True,
            help=t("The three binnings of Son, Park & Jung (2022): 1-year (0..84, 85+), 5-year "
                   "(0–4 … 80–84, 85+) and 10-year (0–9 … 70–79, 80+) age groups."),
        )
        return int(width), len(datasets.age_bin_labels(width))
    if upload_counts:
        m = len(upload.table)
        st.caption(t("Bins: M = {m}, one per row of your file.", m=m))
        return None, m
    m = st.slider(
        t("Bins M"), min_value=2, max_value=200, value=20, key=f"{key}_m", bind="query-params",
        help=t("Number of equal-width bins for the shapes (and for raw uploaded values)."),
    )
    return None, int(m)


def row_labels(upload: Upload | None, m: int) -> list[str]:
    """The bin labels of a file of counts: its first column of labels if it has one, else
    1 … m."""
    if upload is not None and not isinstance(upload.table.index, pd.RangeIndex):
        return [str(v) for v in upload.table.index]
    return [str(j) for j in range(1, m + 1)]


def _labels(width, m, upload: Upload | None, sources, lo_hi) -> list[str]:
    if width is not None:
        return datasets.age_bin_labels(width)
    if upload is not None and UPLOAD in sources:
        if upload.kind == "counts":
            return row_labels(upload, m)
        if upload.kind == "values" and lo_hi is not None:
            edges = np.linspace(lo_hi[0], lo_hi[1], m + 1)
            return [f"{a:.4g}–{b:.4g}" for a, b in zip(edges[:-1], edges[1:])]
    return [str(j) for j in range(1, m + 1)]


def histogram_pair_control(key: str = "pair") -> PairInput:
    """Pick histograms A and B (source, binning, upload) and resolve them.

    Never stops the page: when the choices cannot be combined (no file yet,
    an unusable file, bins that do not match) the result carries the reason,
    so the page can draw its other controls first and then call
    ``PairInput.stop_if_unusable``.
    """
    # A narrow gap: at 1,280 px the longest source's name filled its box but for 2 px
    c1, c2 = st.columns(2, gap="xsmall")
    with c1:
        src_a = source_picker("A", default="korea_central", key=f"{key}_a")
    with c2:
        src_b = source_picker("B", default="korea_noncentral", key=f"{key}_b")
    sources = [src_a, src_b]
    upload = None
    col_a = col_b = None
    one_file = src_a == src_b == UPLOAD  # A and B are two columns of the one file
    if UPLOAD in sources:
        box = st.container(border=True)
        with box:
            upload, problem = upload_control(key=f"{key}_file")
            if upload is None:
                return PairInput(
                    None, None, None,
                    problem=problem or t("Upload a CSV file to use it as a histogram, or pick "
                                         "a built-in source."),
                    waiting=problem is None,
                )
            cols = st.columns(2)
            if src_a == UPLOAD:
                with cols[0]:
                    col_a = column_picker(upload, "A", index=0, key=f"{key}_col_a")
            if src_b == UPLOAD:
                with cols[1]:
                    col_b = column_picker(upload, "B", index=1 if src_a == UPLOAD else 0,
                                          key=f"{key}_col_b")
            if one_file:
                st.info(t('A and B both come from your one file: A is column "{a}" and B is '
                          'column "{b}". Uploading another file replaces this one for both.',
                          a=esc(col_a), b=esc(col_b)), icon=":material/call_split:")
    width, m = _binning_control(sources, upload, key)

    lo_hi = None
    if upload is not None and upload.kind == "values":
        chosen = [upload.table[c].dropna() for c in (col_a, col_b) if c is not None]
        if any(len(v) == 0 for v in chosen):
            return PairInput(None, None, None, problem=t("A chosen column of your file has no values."))
        if width is None:
            allv = pd.concat(chosen)
            lo, hi = float(allv.min()), float(allv.max())
            # All values equal: one unit-wide range around them.
            lo_hi = (lo, hi) if hi > lo else (lo - 0.5, hi + 0.5)

    def side(src: str, name: str, col: str | None) -> SideInput:
        if src in datasets.POPULATIONS:
            hist = datasets.age_histogram(src, width)
            return SideInput(t(datasets.POPULATIONS[src]), datasets.proportions(hist.to_numpy()),
                             False,
                             f"datasets.proportions(datasets.age_histogram({src!r}, {width})"
                             ".to_numpy())")
        if src in datasets.SHAPES:
            return SideInput(t(datasets.SHAPES[src]), datasets.shape_probabilities(src, m), False,
                             f"datasets.shape_probabilities({src!r}, {m})")
        if upload.kind == "counts":
            counts = uploads.counts_from_column(upload.table[col], name=name)
            if len(counts) != m:
                raise uploads.UploadError(N_(
                    'Histogram {histogram} (column "{column}") has {bins} bins but the age groups '
                    "chosen have {m}. Pick the age grouping with {bins} bins, if there is one, "
                    "or upload counts for 86, 18 or 9 age groups."), histogram=name, column=col,
                    bins=len(counts), m=m)
        else:
            values = upload.table[col].dropna().to_numpy()
            if width is not None:
                counts = age_counts(values, col, width=width)
            else:
                counts = datasets.bin_values(values, m=m, lo=lo_hi[0], hi=lo_hi[1]).astype(float)
        return SideInput(t('your column "{column}"', column=col), counts, True)

    try:
        a = side(src_a, "A", col_a)
        b = side(src_b, "B", col_b)
    except ValueError as exc:  # UploadError and dpcore argument errors
        return PairInput(None, None, None, problem=t("These histograms cannot be compared: {why}",
                                                         why=error_text(exc)))
    note = None
    if one_file and col_a == col_b:  # the file tested against itself
        return PairInput(None, None, None, problem=t(
            'A and B are the same column "{column}" of your file, so the test would compare '
            "that column with itself. Add a second column to your file (one column per "
            "histogram), pick another column for B, or pick a built-in source for B.",
            column=esc(col_a)))
    if one_file and upload.table[col_a].equals(upload.table[col_b]):
        same = N_('Columns "{a}" and "{b}" of your file hold the same numbers: A and B are '
                  "identical, so the test cannot find a difference between them. Check that "
                  "you chose the columns you meant.")
        box.warning(t(same, a=esc(col_a), b=esc(col_b)), icon=":material/content_copy:")
        note = t(same, a=col_a, b=col_b)
    private = False
    if upload is not None:
        uses = {"as_is": t("as they are"), "sample": t("as proportions: draw N people")}
        use = st.radio(
            t("Use the uploaded histogram(s)"), list(uses), horizontal=True, key=f"{key}_use",
            format_func=uses.get,
            help=t("As they are: your counts are the true histogram C. As proportions: draw "
                   "Multinomial(N, counts / total) with the N chosen below."),
        )
        if use == "sample":
            a = SideInput(a.name, datasets.proportions(a.values), False) if a.fixed else a
            b = SideInput(b.name, datasets.proportions(b.values), False) if b.fixed else b
        elif src_a == UPLOAD and src_b == UPLOAD and upload.kind == "counts":
            private = st.checkbox(
                t("These counts are already differentially private (test them as they are)"),
                key=f"{key}_private",
                help=t("For two published private histograms X_A, X_B: no noise is added; give "
                       "the privacy levels ε_A, ε_B they were released with."),
            )
    return PairInput(_labels(width, m, upload, sources, lo_hi), a, b, private, note=note)



# ---------------------------------------------------------------------------
# One uploaded column of ages
# ---------------------------------------------------------------------------


def age_counts(values: np.ndarray, column: str, *, width: int) -> np.ndarray:
    """Counts per age group (``width`` years, datasets.age_bin_labels) of one uploaded column
    of ages, one value per person; a negative age is an UploadError in plain words."""
    if np.any(values < 0):
        raise uploads.UploadError(N_(
            'Column "{column}" has a negative value ({lowest:g}); ages must be 0 or more.'),
            column=column, lowest=values.min())
    return datasets.bin_values(values, width=width).astype(float)
