"""Run today's gate on every module of ../MANIFEST.json and record its verdict there.

    .venv/bin/python tests/defects/inputs/set_b/_src/today.py     # from the repository root

Each module is checked with ``synth check NAME.py --reference NAME.reference.py --sandbox
process --json``; ``today_caught`` is whether the gate rejects it, ``today_failing`` the hard
checks that did not pass, ``today_reasons`` their first reason, cut to 300 characters.
"""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SET = Path(__file__).resolve().parent.parent
ROOT = SET.parents[3]
SYNTH = ROOT / ".venv" / "bin" / "synth"


def gate(name: str) -> dict:
    run = subprocess.run([str(SYNTH), "check", str(SET / f"{name}.py"), "--reference",
                          str(SET / f"{name}.reference.py"), "--sandbox", "process", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=900, check=False)
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"{name}: synth check gave no JSON (exit {run.returncode}):\n"
                         f"{run.stdout[-2000:]}\n{run.stderr[-2000:]}") from None
    failing = [c for c in report["checks"]
               if c.get("hard") and c["status"] not in ("passed", "skipped")]
    return {"today_caught": not report["passed"],
            "today_failing": [c["name"] for c in failing],
            "today_reasons": {c["name"]: (c.get("reason") or "")[:300] for c in failing}}


def main() -> None:
    path = SET / "MANIFEST.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    names = [m["module"] for m in manifest["modules"]]
    with ThreadPoolExecutor(max_workers=6) as pool:
        verdicts = dict(zip(names, pool.map(gate, names), strict=True))
    for entry in manifest["modules"]:
        entry.update(verdicts[entry["module"]])
        print(f"{entry['module']:32} {entry['kind']:12} caught={entry['today_caught']!s:5} "
              f"{','.join(entry['today_failing'])}")
    path.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
