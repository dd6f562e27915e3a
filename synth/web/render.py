"""Presentation helpers of the review page: highlighted code, diff rows, the calibration chart.

All text here is untrusted (bootcamp code, model output, level names). Code goes through
pygments, which escapes it; everything else is handed to the autoescaping templates as data.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

_FORMATTER = HtmlFormatter(cssclass="hl", linenos="table", lineanchors="L", anchorlinenos=True)
PYGMENTS_CSS = _FORMATTER.get_style_defs(".hl")


def highlight_python(code: str) -> Markup:
    """Python source as escaped, highlighted HTML (pygments escapes every token)."""
    return Markup(highlight(code, PythonLexer(), _FORMATTER))


@dataclass(frozen=True)
class DiffRow:
    kind: str  # add | del | hunk | file | ctx
    old: int | None
    new: int | None
    text: str


def diff_rows(diff: str) -> list[DiffRow]:
    """A unified diff as rows with old/new line numbers, for a side-numbered table."""
    rows: list[DiffRow] = []
    old = new = 0
    for line in diff.splitlines():
        if line.startswith(("---", "+++")):
            rows.append(DiffRow("file", None, None, line))
        elif line.startswith("@@"):
            try:
                a, b = line.split(" ")[1:3]
                old = int(a[1:].split(",")[0])
                new = int(b[1:].split(",")[0])
            except (ValueError, IndexError):
                pass
            rows.append(DiffRow("hunk", None, None, line))
        elif line.startswith("+"):
            rows.append(DiffRow("add", None, new, line[1:]))
            new += 1
        elif line.startswith("-"):
            rows.append(DiffRow("del", old, None, line[1:]))
            old += 1
        else:
            rows.append(DiffRow("ctx", old, new, line[1:] if line.startswith(" ") else line))
            old += 1
            new += 1
    return rows


@dataclass(frozen=True)
class Bar:
    label: str
    rate: float
    n: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    top: int
    plot_w: int
    plot_h: int
    bars: list[Bar]
    ticks: list[tuple[float, float]]  # (value, y)
    band_y: float
    band_h: float
    band: tuple[float, float]
    overall_y: float | None
    overall: float | None


def calibration_chart(
    levels: list[tuple[str, float, int]], band: tuple[float, float], overall: float | None
) -> Chart:
    """Geometry of a bar chart of pass rate per level with the acceptance band shaded."""
    left, top, plot_h = 44, 14, 200
    slot = 130 if len(levels) <= 5 else 80
    plot_w = max(420, slot * max(1, len(levels)))
    width, height = left + plot_w + 16, top + plot_h + 46

    def y(v: float) -> float:
        return round(top + plot_h * (1.0 - max(0.0, min(1.0, v))), 2)

    bars = []
    bw = slot * 0.56
    for i, (label, rate, n) in enumerate(levels):
        x = left + slot * i + (slot - bw) / 2 + max(0, (plot_w - slot * len(levels)) / 2)
        top_y = y(rate)
        bars.append(Bar(label, rate, n, round(x, 2), top_y, round(bw, 2),
                        round(max(1.5, top + plot_h - top_y), 2)))
    ticks = [(v, y(v)) for v in (0.0, 0.25, 0.5, 0.75, 1.0)]
    return Chart(width, height, left, top, plot_w, plot_h, bars, ticks, y(band[1]),
                 round(y(band[0]) - y(band[1]), 2), band,
                 y(overall) if overall is not None else None, overall)


def rate_bar_width(rate: float | None, width: int = 80) -> float:
    return 0.0 if rate is None else round(width * max(0.0, min(1.0, rate)), 1)
