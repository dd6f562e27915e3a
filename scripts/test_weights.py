"""Write tests/weights.json from a test run's JUnit XML: the seconds of each unit of work
(tests/xdist_groups.py: a test file, or a one-group folder), which the xdist workers hand out
heaviest first.

    bash scripts/test.sh --junitxml=/tmp/run.xml && .venv/bin/python scripts/test_weights.py /tmp/run.xml

It also prints the 15 heaviest units and the sum, which over two workers is a floor for the
run's wall time.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from xdist_groups import WEIGHTS, unit_of  # noqa: E402


def unit_seconds(junit: Path) -> dict[str, float]:
    """Seconds per unit: each test case's time (setup, call and teardown) by its file."""
    totals: dict[str, float] = defaultdict(float)
    for case in ET.parse(junit).getroot().iter("testcase"):
        path = case.get("file") or case.get("classname", "").replace(".", "/") + ".py"
        totals[unit_of(path)] += float(case.get("time") or 0.0)
    return dict(totals)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    totals = unit_seconds(Path(sys.argv[1]))
    ordered = dict(sorted(((k, round(v, 1)) for k, v in totals.items()), key=lambda kv: -kv[1]))
    WEIGHTS.write_text(json.dumps(ordered, indent=0) + "\n")
    for unit, seconds in list(ordered.items())[:15]:
        print(f"{seconds:8.1f}  {unit}")
    print(f"{sum(ordered.values()):8.1f}  in all, {len(ordered)} units -> {WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
