"""Text and source helpers with no project state: UTF-8 safety for anything a model or a
bootcamp wrote (:mod:`~synth.text.utf8`), small AST helpers (:mod:`~synth.text.pyast`), and
when two programs' sources are the same solution (:mod:`~synth.text.solutions`)."""
