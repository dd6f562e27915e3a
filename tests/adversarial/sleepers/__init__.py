"""Sleeper bootcamps (issue 22, part 6): bootcamps that tell when they are judged and lie in
production, and the harness that measures the gate's verdict beside production's
(:mod:`.harness`; the table: ``.venv/bin/python -m tests.adversarial.sleepers.report``)."""
