"""The task's statement, read by trusted code with no model: its sections and examples
(:mod:`~synth.statement.sections`), what its Input section says (:mod:`~synth.statement.spec`),
and an input checker derived from it and validated on its examples
(:mod:`~synth.statement.check`). The gate's ``inputs`` check and the workflow's size repair use
this one parser."""

from synth.statement.check import InputChecker, Violation, derive
from synth.statement.sections import Sections, split_sections
from synth.statement.shapes import InputSpec
from synth.statement.spec import parse_input_spec

__all__ = ["InputChecker", "InputSpec", "Sections", "Violation", "derive", "parse_input_spec",
           "split_sections"]
