"""Data files shipped with the package, read as text and never imported: the compiled-mode
exemplar (``compiled_exemplar.py``, the part of a compiled bootcamp that the code model
writes), loaded by :mod:`synth.compiled`."""
