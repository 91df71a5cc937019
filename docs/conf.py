"""The documentation site: these Markdown pages, the notebooks and an API reference made from the
package's numpydoc docstrings.

Build it from the repository's root (warnings are errors, so a broken cross-reference fails)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html
"""

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the package of this checkout, installed or not

import cspmines  # noqa: E402

# The API pages' sources are made afresh by every build: a page left from a module since renamed would
# document what is no longer there.
shutil.rmtree(Path(__file__).resolve().parent / "generated", ignore_errors=True)

project = "cspmines"
author = "the cspmines developers"
release = version = cspmines.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",  # Markdown pages (MyST) and the notebooks, shown with the outputs they were saved with
]
exclude_patterns = ["_build", "notebooks/conftest.py", "notebooks/.ipynb_checkpoints"]

# The API reference: one page a module, from its docstrings.
# A package's page is its docstring and its modules; each name is documented once, on the page of the
# module that defines it (docs/_templates/autosummary/module.rst), not again where a package imports it.
templates_path = ["_templates"]
autosummary_generate = True
autosummary_imported_members = False
autodoc_inherit_docstrings = False  # a method says what it does here, not what a base class's says
autodoc_typehints = "none"  # the numpydoc sections say the types
numpydoc_show_class_members = False
numpydoc_validation_checks: set = set()

# Markdown: the pages link to each other's headings as on a forge (page.md#a-heading).
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist"]
nb_execution_mode = "off"  # the notebooks are run by the tests; the site shows them as saved

html_theme = "alabaster"
html_title = f"cspmines {release}"

# Every cross-reference must resolve (``-n``: nitpicky). A docstring may name an object where users meet it
# (``cspmines.solve``, ``cspmines.Limit``) or by the module that defines it; the reference page is the
# defining module's, so a name not found as written is looked up through Python: the object it names,
# then that object's own module and qualified name. Names of other libraries are theirs to document.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(builtins|collections|typing|numpy|np|pysat|ortools|gymnasium|networkx|nx|pathlib|fractions|numbers|"
               r"concurrent|threading|starlette|matplotlib|ray|subprocess|io|json|enum|dataclasses|contextlib|random|argparse)(\..*)?"),
    (r"py:.*", r"cspmines\.web\.guard\.Entry"),  # a TypeVar, shown in the bases of the store it types
]


def _defined_at(target: str) -> str | None:
    """The defining module's dotted name of the object ``target`` names (a dotted path from a module): a
    module's own name, a class's or function's module and qualified name, an attribute's under its class's."""
    import importlib

    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        place = found.__name__
        for attribute in parts[cut:]:
            found = getattr(found, attribute, None)
            if found is None:
                return None
            module, qualified = getattr(found, "__module__", None), getattr(found, "__qualname__", None)
            place = found.__name__ if isinstance(found, type(sys)) else (
                f"{module}.{qualified}" if isinstance(module, str) and isinstance(qualified, str) else f"{place}.{attribute}")
        return place
    return None


def _only_one_named(domain, target: str) -> str | None:
    """The one documented object whose dotted name ends with ``target`` (a name used where it is imported,
    or a class's member named with its class), or None where there is none or more than one."""
    ending = "." + target
    found = {name for name in domain.objects if name.endswith(ending)}
    return found.pop() if len(found) == 1 else None


def _resolve_moved(app, env, node, contnode):
    """A Python cross-reference that names an object by where it is imported resolved to where it is defined."""
    if node.get("refdomain") != "py":
        return None
    target, domain = node["reftarget"], env.get_domain("py")
    here = node.get("py:module")
    candidates = [_defined_at(target), here and _defined_at(f"{here}.{target}"), _only_one_named(domain, target)]
    if "." in target:  # a name imported into a package: the one object of that name under the package
        package, name = target.rsplit(".", 1)
        under = {found for found in domain.objects if found.endswith("." + name) and found.startswith(package.split(".")[0])}
        candidates.append(under.pop() if len(under) == 1 else None)
    for defined in candidates:
        if not defined or defined == target:
            continue
        moved = node.deepcopy()
        moved["reftarget"] = defined
        for role in (node["reftype"], "obj"):
            found = domain.resolve_xref(env, node["refdoc"], app.builder, role, defined, moved, contnode)
            if found is not None:
                return found
    return None


def setup(app):
    app.connect("missing-reference", _resolve_moved)
