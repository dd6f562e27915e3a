"""Run today's gate on every module of ../MANIFEST.json and record its verdict there.

    .venv/bin/python tests/defects/inputs/set_c/_src/today.py [NAME ...]   # from the repo root

Each module is checked with ``synth check NAME.py --sandbox process --json`` (the gate reads the
module's embedded statement and reference program). ``today_caught`` is whether the gate
rejects it, ``today_failing`` the hard checks that did not pass, ``today_reasons`` their first
reason, cut. The ``inputs`` check's artifacts (what it checked, the phrases it did not read,
the rules it dropped) go to ``today_inputs.json`` next to this file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SET = Path(__file__).resolve().parent.parent
ROOT = SET.parents[3]
SYNTH = ROOT / ".venv" / "bin" / "synth"


def gate(name: str) -> dict:
    run = subprocess.run([str(SYNTH), "check", str(SET / f"{name}.py"), "--sandbox", "process",
                          "--json"], capture_output=True, text=True, cwd=ROOT, timeout=900,
                         check=False)
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"{name}: synth check gave no JSON (exit {run.returncode}):\n"
                         f"{run.stdout[-2000:]}\n{run.stderr[-2000:]}") from None
    failing = [c for c in report["checks"] if c.get("hard") and
               c["status"] not in ("passed", "skipped")]
    inputs = next((c for c in report["checks"] if c["name"] == "inputs"), {})
    return {"today_caught": not report["passed"], "exit": run.returncode,
            "today_failing": [c["name"] for c in failing],
            "today_reasons": {c["name"]: (c.get("reason") or "")[:400] for c in failing},
            "inputs": {"status": inputs.get("status"), "reason": inputs.get("reason"),
                       **(inputs.get("artifacts") or {})}}


def main() -> None:
    path = SET / "MANIFEST.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    names = [m["module"] for m in manifest["modules"]]
    if len(sys.argv) > 1:
        names = [n for n in names if n in sys.argv[1:]]
    with ThreadPoolExecutor(4) as pool:
        results = dict(zip(names, pool.map(gate, names), strict=True))
    saved = SET / "_src" / "today_inputs.json"
    inputs = json.loads(saved.read_text(encoding="utf-8")) if saved.is_file() else {}
    for entry in manifest["modules"]:
        result = results.get(entry["module"])
        if result is None:
            continue
        entry["today_caught"] = result["today_caught"]
        entry["today_failing"] = result["today_failing"]
        entry["today_reasons"] = result["today_reasons"]
        inputs[entry["module"]] = result["inputs"]
        print(f"{entry['module']:34} {entry['kind']:12} exit {result['exit']} "
              f"{'CAUGHT' if result['today_caught'] else 'passes'} {result['today_failing']}")
    path.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    saved.write_text(json.dumps(dict(sorted(inputs.items())), indent=1, ensure_ascii=False)
                     + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
