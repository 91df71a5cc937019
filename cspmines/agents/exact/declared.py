"""Options declared once: each a dataclass field that carries its check and its documentation.

A field made by :func:`count`, :func:`optional_count`, :func:`number`,
:func:`flag`, :func:`choice`, :func:`named` or :func:`group` keeps an
:class:`Option` in its metadata. A class of such fields, made :func:`declared`
and :class:`Checked`, reads and checks every value when it is made, and its
docstring's ``Parameters`` section is written from them; :func:`table`
writes them as a Markdown table. :mod:`~cspmines.agents.exact.options`
declares the exact agent's options so.

>>> @declared
... @dataclass(frozen=True)
... class Sizes(Checked):
...     'Sizes.'
...     width: int = count(8, least=1, doc="How wide.")
>>> Sizes(width="3").width
3
>>> print(Sizes.__doc__.strip())
Sizes.
<BLANKLINE>
    Parameters
    ----------
    width : int
        How wide.
>>> Sizes(width=0)
Traceback (most recent call last):
...
cspmines.agents.exact.declared.OptionError: exact option width=0 is invalid: it takes a whole number >= 1
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import Field, dataclass, field, fields
from typing import Any

from ...actions import Vocabulary
from ...errors import CspminesError

__all__ = ["Checked", "Option", "OptionError", "choice", "count", "declared", "flag", "group", "named", "number",
           "optional_count", "option_of", "spec_word", "table"]


class OptionError(CspminesError, ValueError):
    """An option the exact agent does not have, or a value it cannot take."""


# -- one option's declaration ----------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """What one option takes and what it does, kept in its field's metadata.

    ``read`` turns a value, or the text of a spec, into the option's type
    (raising ``ValueError`` or ``TypeError`` when it cannot), ``test`` says
    whether the value read is allowed, ``takes`` says in words what is, and
    ``doc`` what the option does (numpydoc text; its first sentence is the
    options table's).

    >>> option = Option("int", "a whole number >= 1", _whole, lambda v: v >= 1, "How many.")
    >>> option.check("n", "3"), option.check("n", 2.0)
    (3, 2)
    >>> option.check("n", 0)
    Traceback (most recent call last):
    ...
    cspmines.agents.exact.declared.OptionError: exact option n=0 is invalid: it takes a whole number >= 1
    """

    kind: str  # the type as the docstring names it
    takes: str
    read: Callable[[Any], Any]
    test: Callable[[Any], bool]
    doc: str

    def check(self, name: str, value):
        """``value`` read as this option's type, or an :class:`OptionError` naming ``name`` and what it takes."""
        try:
            read = self.read(value)
        except (TypeError, ValueError):
            raise OptionError(f"exact option {name}={value} is invalid: it takes {self.takes}") from None
        if not self.test(read):
            raise OptionError(f"exact option {name}={read} is invalid: it takes {self.takes}")
        return read


_OPTION = "option"  # the metadata key of a field's Option


def _declare(default, option: Option) -> Any:
    """A dataclass field of ``default`` that carries ``option`` (typed Any: it stands in for the default)."""
    return field(default=default, metadata={_OPTION: option})


def _any(value) -> bool:
    return True


def count(default: int, doc: str, *, least: int = 0) -> Any:
    """A whole number of at least ``least`` (text from a spec is read)."""
    return _declare(default, Option("int", f"a whole number >= {least}", _whole, lambda v: v >= least, doc))


def optional_count(default: int | None, doc: str, *, least: int = 1) -> Any:
    """A whole number of at least ``least``, or None (``none`` in a spec)."""
    option = Option("int or None", f"a whole number >= {least} or none", _whole_or_none, lambda v: v is None or v >= least, doc)
    return _declare(default, option)


def number(default: float, doc: str, *, below: float | None = None, most: float | None = None) -> Any:
    """A number >= 0, and below ``below`` or at most ``most`` when one is given."""
    if below is not None:
        takes, test = f"a number in [0, {below:g})", lambda v: 0 <= v < below
    elif most is not None:
        takes, test = f"a number in [0, {most:g}]", lambda v: 0 <= v <= most
    else:
        takes, test = "a number >= 0", lambda v: v >= 0
    return _declare(default, Option("float", takes, _real, test, doc))


def flag(default: bool, doc: str) -> Any:
    """True or False (``true``/``false`` or ``1``/``0`` in a spec)."""
    return _declare(default, Option("bool", "true or false", _flag, _any, doc))


def choice(default: Vocabulary, doc: str) -> Any:
    """One of the words of ``default``'s vocabulary, kept as its member (compared as the enum)."""
    vocabulary = type(default)
    kind = "{" + ", ".join(repr(word) for word in vocabulary.words()) + "}"
    return _declare(default, Option(kind, f"one of {', '.join(vocabulary.words())}", vocabulary, _any, doc))


def named(default: str, doc: str, *, what: str) -> Any:
    """A non-empty name; ``what`` says of what (checked where it is used)."""
    return _declare(default, Option("str", f"a {what} name", _text, _any, doc))


def group(default, doc: str) -> Any:
    """A nested value of declared options (as :class:`~cspmines.agents.exact.options.ResearchSwitches`)."""
    kind = type(default)
    return _declare(default, Option(kind.__name__, f"a {kind.__name__} value", functools.partial(_of_kind, kind), _any, doc))


def _whole(value) -> int:
    if isinstance(value, bool):
        raise TypeError("a flag is not a count")
    number = int(value) if isinstance(value, str) else value
    if isinstance(number, float) and number.is_integer():
        return int(number)
    if not isinstance(number, int):
        raise TypeError("not a whole number")
    return number


def _whole_or_none(value) -> int | None:
    if value is None or (isinstance(value, str) and value.lower() == "none"):
        return None
    return _whole(value)


def _real(value) -> float:
    if isinstance(value, bool):
        raise TypeError("a flag is not a number")
    number = float(value)
    if number != number:  # NaN passes no range test by accident
        raise ValueError("not a number")
    return number


def _flag(value) -> bool:
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    if isinstance(value, (bool, int)) and value in (0, 1):
        return bool(value)
    raise ValueError("not true or false")


def _text(value) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError("not a name")
    return value


def _of_kind(kind: type, value):
    if not isinstance(value, kind):
        raise TypeError(f"not a {kind.__name__}")
    return value


# -- a class of declared options -------------------------------------------------------------


def declared(cls):
    """Check that every field of the dataclass ``cls`` declares its option (its check and its
    documentation), and write their ``Parameters`` section into its docstring, before its examples.

    >>> @declared
    ... @dataclass(frozen=True)
    ... class Bare(Checked):
    ...     size: int = 3
    Traceback (most recent call last):
    ...
    TypeError: option Bare.size is declared without its check and documentation (declare it with count, number, flag, choice, ...)
    """
    for each in fields(cls):
        if not isinstance(each.metadata.get(_OPTION), Option):
            raise TypeError(f"option {cls.__name__}.{each.name} is declared without its check and documentation "
                            "(declare it with count, number, flag, choice, ...)")
    head, examples, tail = (cls.__doc__ or "").partition("\n    Examples\n")
    cls.__doc__ = f"{head.rstrip()}\n\n{_parameters(cls)}\n" + (f"\n    Examples\n{tail}" if examples else "")
    return cls


def option_of(each: Field) -> Option:
    return each.metadata[_OPTION]


def _parameters(cls) -> str:
    """The numpydoc ``Parameters`` section of ``cls``'s options, indented as a class docstring is."""
    lines = ["    Parameters", "    ----------"]
    for each in fields(cls):
        option = option_of(each)
        lines.append(f"    {each.name} : {option.kind}")
        lines += [f"        {line}" if line else "" for line in inspect.cleandoc(option.doc).splitlines()]
    return "\n".join(lines)


class Checked:
    """Every field checked (and read from text) when the value is made."""

    def __post_init__(self):
        for each in fields(self):  # type: ignore[arg-type]
            object.__setattr__(self, each.name, option_of(each).check(each.name, getattr(self, each.name)))


def table(declared_fields) -> str:
    """``declared_fields`` (by name) as a Markdown table: name, default, what it takes, and the first
    sentence of what it does."""
    rows = ["| option | default | takes | what it does |", "| --- | --- | --- | --- |"]
    for key, each in declared_fields.items():
        option = option_of(each)
        rows.append(f"| `{key}` | `{spec_word(each.default)}` | {option.takes} | {_first_sentence(option.doc)} |")
    return "\n".join(rows)


def spec_word(value) -> str:
    """``value`` as an agent spec writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _first_sentence(doc: str) -> str:
    """The first sentence of ``doc`` on one line, its reST roles as Markdown code."""
    text = " ".join(doc.split())
    text = re.sub(r":\w+:`~?([\w.]+)`", r"`\1`", text).replace("``", "`")
    return re.split(r"(?<=\.)\s(?=[A-Z0-9(`])", text, maxsplit=1)[0]
