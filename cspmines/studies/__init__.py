"""Studies: a TOML file names suites, agents, games and where to play them; one command plays it
(resumable) and writes its results and its report.

* :mod:`~cspmines.studies.spec`: the file read and checked (:func:`read_study`);
* :mod:`~cspmines.studies.run`: the games played into ``DIR/results.jsonl`` (:func:`run_study`);
* :mod:`~cspmines.studies.report`: ``DIR/report.md`` and the figures (:func:`write_report`).
"""

from .report import write_report
from .run import StudyResult, run_study
from .spec import Study, StudyError, StudySuite, parse_study, read_study

__all__ = ["Study", "StudyError", "StudyResult", "StudySuite", "parse_study", "read_study", "run_study", "write_report"]
