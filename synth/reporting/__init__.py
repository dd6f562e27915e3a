"""What people read: the run report (:mod:`~synth.reporting.report`, with its charts and
templates), the review queue of accepted bootcamps (:mod:`~synth.reporting.review`) and the
audit of an existing library (:mod:`~synth.reporting.audit`)."""
