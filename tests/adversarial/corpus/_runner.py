"""Trusted driver run inside the sandbox: import a candidate and exercise its bootcamp.

argv: _runner.py CANDIDATE.py MARKER CONTEXT_JSON. The marker is only there so that the test
can find leftover processes by their command line; CONTEXT_JSON carries test-chosen paths.
"""
import importlib.util
import sys

from synth.bootcamp import BaseBootcamp

spec = importlib.util.spec_from_file_location("candidate", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
classes = [
    c for c in vars(module).values()
    if isinstance(c, type) and issubclass(c, BaseBootcamp) and c is not BaseBootcamp
]
cls = classes[0]
camp = cls(seed=0)
case = camp.case_generator()
prompt = cls.prompt_func(case)
score = cls.verify_score(cls.wrap_answer(cls.reference_answer(case)), case)
print("RUNNER done", cls.__name__, score)
