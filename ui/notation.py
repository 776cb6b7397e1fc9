"""One symbol per meaning, on every page: the dashboard's notation, and the sources' own.

Every page writes a quantity with the symbol this table gives it; where a source writes it
otherwise, the page says so once, with :func:`in_source` ("k categories (N in Kang, Lee &
Hong 2009)"). The home page shows this table. URL parameter names and CSV column names are
not display labels: they keep their earlier names (``alpha_a``, ``rs_N``, ``M``) so that
shared links and people's scripts keep working.

tests/test_notation.py checks that no page labels the privacy level "α" without its ε form
and that every symbol used for a meaning here is the one the pages show.
"""

from __future__ import annotations

from dataclasses import dataclass

from ui.text import N_, t

# The sources, as a page cites them (docs/references.md has the full references).
SPJ22 = "Son, Park & Jung 2022"
DRS22 = "Dong, Roth & Su 2022"
KLH09 = "Kang, Lee & Hong 2009"
KBR16 = "Kairouz, Bonawitz & Ramage 2016"
BW18 = "Balle & Wang 2018"


@dataclass(frozen=True)
class Symbol:
    """One symbol and its one meaning on every page, and how the sources write it."""

    symbol: str  # a symbol (or words: SIGNIFICANCE)
    meaning: str
    pages: str  # where it appears
    sources: str = ""  # the sources' own symbol for it, where it differs


# The one row whose "symbol" is words (shown through t(); the symbols are shown as they are).
SIGNIFICANCE = N_("significance level")
NOTATION: tuple[Symbol, ...] = (
    Symbol("ε", N_("privacy loss: the privacy level of a mechanism; smaller ε, more privacy"),
           N_("every page"),
           N_("α in Son, Park & Jung 2022 (the Laplace mechanism's noise Lap(2/α))")),
    Symbol("δ", N_("probability with which the ε promise may fail"),
           N_("Gaussian mechanism, f-DP")),
    Symbol("N", N_("people (users, records) in a data set or histogram"), N_("every page"),
           N_("n (records) in Kang, Lee & Hong 2009")),
    Symbol("M", N_("bins of a histogram"), N_("testing pages")),
    Symbol("k", N_("categories of one person's answer or value"),
           N_("randomized response, random substitution, f-DP"), N_("N in Kang, Lee & Hong 2009")),
    Symbol(SIGNIFICANCE, N_("a test's tolerated rate of false alarms (type-I "
                                        "error), e.g. 5%"), N_("testing pages"),
           N_("α in most statistics texts; never α here, where Son, Park & Jung 2022's α is "
              "the privacy level")),
    Symbol("α, β", N_("the type-I and type-II errors of an attacker's test that tries to tell "
                      "D from D′ (the axes of a trade-off curve)"), N_("f-DP"),
           N_("as in Dong, Roth & Su 2022")),
    Symbol("σ", N_("standard deviation of Gaussian noise"), N_("Gaussian mechanism, f-DP")),
    Symbol("Δ", N_("L2 sensitivity: how far one person can move a query's answer"),
           N_("Gaussian mechanism"), N_("Δ₂f in Dwork & Roth 2014")),
    Symbol("μ", N_("the μ of μ-GDP: Δ/σ for the Gaussian mechanism"),
           N_("f-DP, Gaussian mechanism"), N_("as in Dong, Roth & Su 2022")),
    Symbol("γ", N_("ratio of keeping a value to each other value in random substitution"),
           N_("random substitution"), N_("as in Kang, Lee & Hong 2009")),
    Symbol("l", N_("values released per record in l-extended random substitution"),
           N_("random substitution"), N_("as in Kang, Lee & Hong 2009")),
    Symbol("B", N_("bootstrap replicates of a test's null distribution"), N_("testing pages")),
    Symbol("R", N_("repetitions of a simulation"), N_("testing pages, random substitution")),
)


def in_source(source_symbol: str, source: str) -> str:
    """A source's own symbol, said once where a page first uses the quantity:
    "(α in Son, Park & Jung 2022)"."""
    return t("({symbol} in {source})", symbol=source_symbol, source=source)


def privacy_level(symbol_subscript: str = "") -> str:
    """The privacy level of the testing pages, with source 000's symbol: "ε (α in Son, Park
    & Jung 2022)"; ``symbol_subscript`` for histogram A's or B's ("ε_A")."""
    return t("ε{sub} {note}", sub=symbol_subscript, note=in_source("α" + symbol_subscript, SPJ22))


def notation_rows() -> list[dict[str, str]]:
    """The notation table as rows, in the reader's language (the home page shows it)."""
    return [{t("Symbol"): t(s.symbol) if s.symbol == SIGNIFICANCE else s.symbol,
             t("Meaning"): t(s.meaning), t("Where"): t(s.pages),
             t("In the sources"): t(s.sources) if s.sources else "—"} for s in NOTATION]
