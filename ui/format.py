"""Numbers and names as the pages write them: one formatter per notation, shared by every
page, so a number reads the same wherever it appears.

Pure functions of their arguments (no Streamlit): tested directly in tests/test_ui_format.py.
"""

from __future__ import annotations

import math
import re
import unicodedata

from ui.text import t

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def times_ten(v: float, decimals: int) -> str:
    """``v`` in scientific notation as people write it: 7.85·10⁷, 1.0·10⁻⁵."""
    mantissa, exponent = f"{v:.{decimals}e}".split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def sig_text(v: float, digits: int) -> str:
    """``v`` to ``digits`` significant digits as ``:g`` writes it, but never in e-notation:
    where ``:g`` would write 2.9e-05 this writes 2.9·10⁻⁵ (prose, metrics and labels never
    show "e-05"). Trailing zeros dropped, as ``:g`` does; no "-0"."""
    text = f"{v + 0.0:.{digits}g}"
    if "e" not in text or not math.isfinite(v):
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def fmt_big(v: float) -> str:
    """4 significant digits; 10⁴ and above as 7.85·10⁷; ∞ (fits a metric)."""
    if math.isinf(v):
        return "∞"
    if abs(v) < 1e4:
        return sig_text(v, 4)
    return times_ten(v, 2)


def fmt_number(v: float) -> str:
    """Compact label for slider values: 0.001, 0.05, 1, 10; 5,000; 50M."""
    if v >= 1_000_000:
        return f"{v / 1_000_000:g}M"
    if v >= 1000:
        return f"{v:,.0f}"
    return sig_text(v, 6)


def fmt_people(v: float, language: str | None = None) -> str:
    """A number of people (N) as a reader says it, never "50M" (M counts a histogram's bins
    here): in English in full from a million on, "50 million", "1.5 million"; in Korean in
    만 and 억 units, "5천만", "100만", "2만", "1억"; below 10,000 in digits, "5,000".
    ``language``: the reader's (:func:`ui.text.language`) when None."""
    from ui.text import language as reader_language

    v = float(v)
    if (language or reader_language()) == "ko":
        if v >= 1e4 and v == int(v):
            eok, man = divmod(int(v), 10**8)
            man, rest = divmod(man, 10**4)
            if not rest:
                parts = [f"{eok:,}억"] if eok else []
                if man:
                    parts.append(f"{man // 1000}천만" if man % 1000 == 0 else f"{man:,}만")
                return " ".join(parts)
        return fmt_number(v) if v < 1e6 else f"{v:,.0f}"
    if v >= 1e6:
        return f"{v / 1e6:g} million"
    return fmt_number(v)


def fmt_peoples(values) -> str:
    """Distinct numbers of people, sorted, as :func:`fmt_people` writes them."""
    return ", ".join(fmt_people(n) for n in sorted({int(v) for v in values}))


def fmt_numbers(values) -> str:
    """Distinct whole numbers, sorted, as slider labels: "1,000, 5,000, 10,000"."""
    return ", ".join(fmt_number(n) for n in sorted({int(v) for v in values}))


def fmt_count(v: float) -> str:
    """An estimated count: 12,345 from 10⁴ on, one decimal below (1,234.5); never "-0"."""
    return f"{v:,.0f}" if abs(v) >= 1e4 else f"{v + 0.0:,.1f}"


def fmt_sci(v: float, digits: int = 2) -> str:
    """δ-style numbers: 1.0·10⁻⁵, 3.7·10⁻¹², 0.05; 0 and 1 as they are."""
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    if 1e-3 <= abs(v) < 1e4:
        return f"{v:.{digits + 1}g}"
    return times_ten(v, digits - 1)


def fmt_param(v: float, digits: int = 4) -> str:
    """ε, σ, Δ, μ: 4 significant digits, thousands separated, huge and tiny in powers of ten."""
    if not math.isfinite(v):
        return "∞" if v > 0 else "—"
    if v != 0 and (abs(v) < 1e-3 or abs(v) >= 1e9):
        return fmt_sci(v, digits)
    if abs(v) >= 1e4:
        return f"{v:,.0f}"
    return sig_text(v, digits)


def fmt_sig(v: float, digits: int = 4) -> str:
    """``digits`` significant digits, never in e-notation (2.9·10⁻⁵); ∞ for infinity."""
    return "∞" if math.isinf(v) else sig_text(v, digits)


def fmt_prob(v: float, digits: int = 4) -> str:
    """A probability to ``digits`` significant digits, with more where fewer would round it
    to 0 or 1 (or to its complement's rounding): 0.99995, not 1; 1 and 0 only when exact.
    Never in e-notation: 2.9·10⁻⁵."""
    if not 0 < v < 1:
        return sig_text(v, digits)
    for more in range(digits, 17):
        text = sig_text(v, more)
        if text not in ("0", "1"):
            return text
    return sig_text(v, 17)


def fmt_pct(v: float, digits: int = 3) -> str:
    """A probability in percent, ``digits`` significant digits, never rounded to 0% or 100%
    unless it is exactly that, never in e-notation: 2.9·10⁻⁵%, 99.9995%, 5%."""
    if v in (0, 1) or not 0 < v < 1:
        return f"{sig_text(100 * v, digits)}%"
    for more in range(digits, 17):
        text = sig_text(100 * v, more)
        if text not in ("0", "100"):
            return f"{text}%"
    return f"{sig_text(100 * v, 17)}%"


def estimate_parts(v: float, low: float, high: float, *,
                   count: bool = True) -> tuple[str, str, str] | None:
    """An estimate and its interval's ends rounded to the precision the interval supports,
    as three texts: ("450,000", "436,000", "486,000") for 451,043 in [436,112, 486,020], so
    that a metric can show "about 450,000" and its interval apart. The estimate is rounded to
    the power of ten below the interval's width, kept to at least one significant digit
    (0.123 in [0.1, 10] is "about 0.1", not "about 0"); a count's ends to a tenth of that
    step, other ends (a privacy level) to three significant digits. None when the interval
    has no finite positive width or the estimate is not positive."""
    width = float(high) - float(low)
    if not (math.isfinite(width) and width > 0 and v > 0):
        return None
    step = min(10.0 ** math.floor(math.log10(width)), 10.0 ** math.floor(math.log10(v)))

    def rounded(x: float, by: float) -> str:
        r = round(x / by) * by
        if by >= 1:
            return f"{r:,.0f}"
        return f"{r:,.{max(0, -math.floor(math.log10(by)))}f}"

    if count:
        return rounded(v, step), rounded(low, step / 10), rounded(high, step / 10)
    return rounded(v, step), fmt_sig(low, 3), fmt_sig(high, 3)


def fmt_estimate(v: float, low: float, high: float, *, count: bool = True) -> str:
    """An estimate with its interval, rounded to the precision the interval supports
    (:func:`estimate_parts`): "about 450,000 (436,000–486,000)" for 451,043 in [436,112,
    486,020]. Without an interval of positive width: the estimate as a count (or to 4
    significant digits)."""
    parts = estimate_parts(v, low, high, count=count)
    if parts is None:
        return fmt_count(v) if count else fmt_sig(v)
    return t_about(*parts)


def t_about(estimate: str, low: str, high: str) -> str:
    return t("about {estimate} ({low}–{high})", estimate=estimate, low=low, high=high)


def fmt_p(p: float, digits: int = 3) -> str:
    """A p-value to ``digits`` significant digits, never "0": a p-value that underflowed
    to 0 in double precision (below about 1e-308) is written "< 10⁻³⁰⁰"."""
    return "< 10⁻³⁰⁰" if p <= 0 else fmt_sig(p, digits)


def fmt_sig_count(v: float, digits: int = 3) -> str:
    """A whole number rounded to ``digits`` significant digits, thousands separated:
    451,043 as 451,000 (the precision of an interval whose ends have three digits)."""
    return f"{float(f'{v:.{digits}g}'):,.0f}"


def percent_decimals_apart(values, target: float, most: int = 6) -> int:
    """The fewest decimals (up to ``most``) at which every value of ``values`` that differs
    from ``target`` reads, in percent, apart from it: 1 for 0.797 against 0.8 (79.7%)."""
    for decimals in range(most + 1):
        if all(v == target or f"{v:.{decimals}%}" != f"{target:.{decimals}%}" for v in values):
            return decimals
    return most


def fmt_percent_apart(v: float, target: float) -> str:
    """``v`` in percent with the fewest decimals (up to 6) that keep it apart from
    ``target`` when it differs: 79.7% beside an 80% target, never 80%; 80% only for 80%."""
    return f"{v:.{percent_decimals_apart([v], target)}%}"


def fmt_delta(v: float) -> str:
    """0, 10⁻⁵, 0.01: labels for δ on a slider."""
    if v == 0:
        return "0"
    if v >= 0.001:
        return f"{v:g}"
    return times_ten(v, 0).removeprefix("1·")  # 10⁻⁵, not 1·10⁻⁵


def fmt_share(v: float) -> str:
    """A share in percent, never rounded to a misleading 0% or 100%: 5%, 0.31%, 99.97%."""
    text = f"{v:.0%}"
    if text in ("0%", "100%") and 0 < v < 1:
        text = f"{100 * v:.2g}%" if v < 0.5 else f"{100 * v:.4g}%"
        if text == "100%":
            text = "99.99+%"
    return text


def fmt_prob_pct(v: float) -> str:
    """A probability in percent with 3 significant digits, tiny ones as 3.7·10⁻⁸; never a
    misleading 100%."""
    if v == 0:
        return "0"
    if v < 1e-4:
        return fmt_sci(v)
    text = f"{100 * v:.3g}%"
    return "99.99+%" if text == "100%" and v < 1 else text


def fmt_rel(v: float) -> str:
    """A relative size in percent with three decimals: 5.722%, 0.000%."""
    return f"{v + 0.0:.3%}"


def fmt_seconds(seconds: float) -> str:
    """A run time in words: under a second, 12 s, 3.5 minutes."""
    if seconds < 1:
        return t("under a second")
    if seconds < 90:
        return t("{seconds:.0f} s", seconds=seconds)
    return t("{minutes:.1f} minutes", minutes=seconds / 60)


GREEK_NAMES = dict(zip(
    "αβγδεζηθικλμνξοπρςστυφχψω",
    ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
     "sigma sigma tau upsilon phi chi psi omega").split()))


def slug(text: str) -> str:
    """A file name for ``text``: lower-case ASCII words and Hangul words joined by "_".

    Greek letters become their names ("Power against α" -> "power_against_alpha",
    "χ²" -> "chi2", "α₁" -> "alpha1"); accents, superscripts and subscripts fall back to
    their base characters (Unicode compatibility decomposition, NFKD); other symbols
    separate words.
    """
    # NFKD: "²" -> "2", "₁" -> "1", "é" -> "e" + accent, "µ" (micro) -> "μ", "ϵ" -> "ε";
    # Hangul syllables stay whole (NFKD would split them into jamo): a Korean title keeps
    # its words in the file name.
    chars = [d for c in text
             for d in ([c] if _is_hangul(c) else unicodedata.normalize("NFKD", c))
             if not unicodedata.combining(d)]
    out: list[str] = []
    for i, char in enumerate(chars):
        name = GREEK_NAMES.get(char.lower())
        if name is None:
            out.append(char)
            continue
        before = out[-1] if out else ""
        after = chars[i + 1] if i + 1 < len(chars) else ""
        # A name is a word of its own, except that digits may follow it (α₁ -> alpha1).
        out.append(("_" if before.isascii() and before.isalnum() else "") + name
                   + ("_" if after.isalpha() else ""))
    ascii_text = "".join(out).lower()
    return re.sub(r"[^a-z0-9\uac00-\ud7a3]+", "_", ascii_text).strip("_") or "export"


def _is_hangul(char: str) -> bool:
    return "\uac00" <= char <= "\ud7a3"


def headed(labels: dict[str, str], config: dict | None = None) -> dict:
    """A table's ``column_config`` with each column of ``labels`` headed by its label (column
    -> header, already in the reader's language), its other settings in ``config`` kept. The
    table shows the headers; its frame, and so its CSV, keeps the column names."""
    out = dict(config or {})
    for column, label in labels.items():
        given = out.get(column)
        out[column] = {**given, "label": label} if isinstance(given, dict) else {"label": label}
    return out


def worded(frame, words: dict):
    """``frame`` as a table shows it: each column of ``words`` (column -> a function of a cell
    giving its text in the reader's language) written in words, ``None`` cells as "—". The
    frame itself, and so its CSV, keeps its cells as they are (an interface): give it to the
    page kit's table as ``csv=``."""
    shown = frame.copy()
    for column, word in words.items():
        if column in shown:
            cells = shown[column].astype(object)
            said = {cell: word(cell) for cell in cells.dropna().unique()}
            shown[column] = [said[cell] if cell in said else "—" for cell in cells]
    return shown
