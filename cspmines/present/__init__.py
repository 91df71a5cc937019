"""The presentation of answers: the text board and JSON (:mod:`~cspmines.present.render`), pictures in
SVG and PNG (:mod:`~cspmines.present.picture`) and the figures of benchmarks (:mod:`~cspmines.present.plots`).

Importing it registers the SVG drawer that positions and analyses draw themselves with in a notebook
(``import cspmines`` does).
"""

from . import picture  # noqa: F401  (registers the drawer)
