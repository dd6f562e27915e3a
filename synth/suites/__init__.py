"""Code test suites: a compiled bootcamp's tests for programs as answers (issue 25).

A compiled bootcamp (:class:`synth.bootcamp.CompiledBootcamp`, stdin programs;
:class:`synth.bootcamp.FunctionBootcamp`, function tasks) holds a verified reference, an input
generator over difficulty levels and the statement its inputs are checked against: all a code-RL
test suite needs. This package turns one into a suite and measures suites:

* :mod:`~synth.suites.format`: the suite (JSON) and its canonical text, read back validated;
* :mod:`~synth.suites.draw`: the cases drawn in the sandbox as export draws them (LEVELS and the
  class's ``STRESS`` preset), rendered as standard input;
* :mod:`~synth.suites.examples`: the statement's own examples;
* :mod:`~synth.suites.inputs`: every generated input judged as the gate judges it in compiled
  mode (the statement's checker, the library's input validator, a function's argument types);
* :mod:`~synth.suites.run`: programs and reference functions run in the sandbox, timed;
* :mod:`~synth.suites.build`: one bootcamp's suite, with what was left out and why;
* :mod:`~synth.suites.export`: ``synth export --format code`` (one code row per bootcamp);
* :mod:`~synth.suites.labelled` and :mod:`~synth.suites.evaluate`: ``synth suite-eval`` (TPR and
  TNR on labelled solutions, which tests catch which faults, a minimised suite).

Nothing here imports a bootcamp: its code runs in sandboxed method servers and jobs, and every
judgement is made on the host from the plain values they return.
"""
