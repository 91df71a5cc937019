"""The presentation of answers: the text board and JSON (:mod:`~cspmines.present.render`), pictures in
SVG and PNG (:mod:`~cspmines.present.picture`) and the figures of benchmarks (:mod:`~cspmines.present.plots`).
Positions and analyses draw themselves in a notebook without it (with :mod:`cspmines.drawing`, below them).
"""
