"""In-sandbox sampler of the self-consistency filter (standard library only; run untrusted).

argv: _sampler_job.py CANDIDATE_FILE K SEED [--answers]
Prints one JSON line: {"items": [{"level", "seed", "identity", "prompt"}, ...]} or
{"error": ..., "traceback": ...}. Levels are visited round-robin so every LEVEL is measured.
"""

import hashlib
import importlib.util
import json
import sys
import traceback
from typing import Any


def main() -> None:
    path, k, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with_answers = len(sys.argv) > 4 and sys.argv[4] == "--answers"
    try:
        spec = importlib.util.spec_from_file_location("candidate", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        from synth.bootcamp import BaseBootcamp

        classes = [
            v for v in vars(module).values()
            if isinstance(v, type) and issubclass(v, BaseBootcamp) and v is not BaseBootcamp
            and v.__module__ == "candidate"
        ]
        if len(classes) != 1:
            raise TypeError(f"expected one BaseBootcamp subclass, found {len(classes)}")
        cls = classes[0]
        levels: list[str | None] = [*cls.LEVELS] or [None]
        items = []
        for i in range(k):
            level = levels[i % len(levels)]
            s = int.from_bytes(hashlib.sha256(f"{seed}/{i}".encode()).digest()[:6], "big")
            bc = cls.from_level(level, seed=s) if level is not None else cls(seed=s)
            identity = bc.case_generator()
            prompt = cls.prompt_func(identity)
            item = {"level": level or "default", "seed": s, "identity": identity, "prompt": prompt}
            if with_answers:
                item["answer"] = cls.reference_answer(identity)
            items.append(item)
        out: dict[str, Any] = {"items": items}
    except BaseException as exc:  # report, never hide
        out = {"error": f"{type(exc).__name__}: {exc}"[:500],
               "traceback": "".join(traceback.format_exc())[-2000:]}
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    main()
