"""The errors dpcore raises for arguments it refuses, kept structured.

Every refusal of dpcore is an :class:`ArgumentError` (a ``ValueError``): its English
message, as ``str(error)`` gives it, plus what it was made from: the message's
*template* (``"`{name}` must be a finite number > 0, got {value!r}."``) and the *fields*
that fill it (``name="eps"``, ``value=0``). dpcore speaks English only and knows no user
interface; a caller that speaks another language looks the template up in its own
catalog, as the dashboard does (``ui.text.error_text``), and fills in the same fields,
never parsing the English text. The templates are whole sentences, written once where
the error is raised, and the dashboard's catalog extraction reads them from there
(``scripts/i18n.py``).

Conventions of the fields:

- ``name`` (and any field whose key starts with ``name_``) holds the name of a parameter
  of the function that refused its argument (``"eps"``), which a caller may show as its
  own symbol (``ε``);
- a :class:`Phrase` in a field is a noun phrase with its own template and fields (the
  histogram and column an upload error is about), rendered, and translated, the same way;
- every other field is a value, formatted by the template's format spec.
"""

from __future__ import annotations

__all__ = ["ArgumentError", "Phrase", "parameter_fields"]


def _render(template: str, fields: dict) -> str:
    """``template`` filled with ``fields`` (no fields: the template is the text itself,
    braces and all)."""
    return template.format(**fields) if fields else template


def parameter_fields(fields: dict) -> list[str]:
    """The keys of ``fields`` that hold parameter names: ``name`` and ``name_…``.

    Source: none (this project's own convention for :class:`ArgumentError`).

    Parameters
    ----------
    fields : dict
        An :class:`ArgumentError`'s or :class:`Phrase`'s fields.

    Returns
    -------
    list of str
        The keys, in the order of ``fields``.

    Examples
    --------
    >>> parameter_fields({"name_a": "x1", "value": 3, "name": "alpha"})
    ['name_a', 'name']
    """
    return [key for key in fields if key == "name" or key.startswith("name_")]


class Phrase:
    """A noun phrase of an error message, kept as template and fields like the message.

    ``str(phrase)`` is its English text. An upload error names what it is about
    ("Histogram A (column "2020")") with a phrase, so that a caller translating the
    message translates the phrase too.

    Source: none (this project's own).

    Parameters
    ----------
    template : str
        The phrase with ``{field}`` places (``str.format`` syntax).
    **fields
        The values of the places.

    Attributes
    ----------
    template : str
        As given.
    fields : dict
        As given.

    Examples
    --------
    >>> who = Phrase('Histogram {histogram} (column "{column}")', histogram="B", column="2020")
    >>> str(who)
    'Histogram B (column "2020")'
    """

    __slots__ = ("fields", "template")

    def __init__(self, template: str, /, **fields):
        self.template = template
        self.fields = fields

    def __str__(self) -> str:
        return _render(self.template, self.fields)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, **{self.fields!r})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, Phrase) and other.template == self.template
                and other.fields == self.fields)

    def __hash__(self) -> int:
        return hash((self.template, tuple(sorted(self.fields))))


class ArgumentError(ValueError):
    """An argument dpcore refuses: a ``ValueError`` that keeps its message's template and
    fields, so that a caller can say it in another language.

    ``str(error)`` is the English message: ``template.format(**fields)``, or the template
    as it is when there are no fields.

    Source: none (input checking, this project's own).

    Parameters
    ----------
    template : str
        The message, a whole sentence, with ``{field}`` places (``str.format`` syntax);
        parameter names in backticks, as ``"`{name}`"``.
    **fields
        The values of the places; see the module's conventions (``name``, ``name_…``,
        :class:`Phrase`).

    Attributes
    ----------
    template : str
        As given.
    fields : dict
        As given.

    Examples
    --------
    >>> err = ArgumentError("`{name}` must be a finite number > 0, got {value!r}.",
    ...                     name="eps", value=0)
    >>> str(err), err.parameter, isinstance(err, ValueError)
    ('`eps` must be a finite number > 0, got 0.', 'eps', True)
    >>> err.template
    '`{name}` must be a finite number > 0, got {value!r}.'
    """

    def __init__(self, template: str, /, **fields):
        self.template = template
        self.fields = fields
        super().__init__(_render(template, fields))

    def __reduce__(self):
        # Pickled (by an executor or a cache) with its template and fields, not only its text.
        return _rebuild, (type(self), self.template, self.fields)

    @property
    def parameter(self) -> str | None:
        """The name of the first parameter the message names, or None."""
        keys = parameter_fields(self.fields)
        return str(self.fields[keys[0]]) if keys else None


def _rebuild(cls, template, fields):
    return cls(template, **fields)
