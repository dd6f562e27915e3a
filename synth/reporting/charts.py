"""Small SVG charts for `synth report`: horizontal bars and (grouped) columns with a shaded band.

Hand-written SVG so the report page stays one file with no scripts and no external assets; labels
are escaped (they come from run records, which may hold model text).
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from markupsafe import Markup

if TYPE_CHECKING:
    import pandas as pd

_W = 560


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def hbar_svg(
    rows: Sequence[tuple[str, float]], label: str, value_fmt: str = "{:,.0f}", css: str = "bar"
) -> Markup:
    """Horizontal bars (one per row), labels left, values right of the bar."""
    if not rows:
        return Markup('<p class="empty">nothing to chart</p>')
    line, left, right = 26, 150, 90
    height = line * len(rows) + 10
    top = max((v for _, v in rows), default=0.0) or 1.0
    parts = [
        f'<svg class="chart" viewBox="0 0 {_W} {height}" role="img" aria-label="{_esc(label)}">'
        f"<title>{_esc(label)}</title>"
    ]
    for i, (name, value) in enumerate(rows):
        y = 5 + i * line
        w = (_W - left - right) * (value / top)
        parts.append(
            f'<text class="lbl" x="{left - 8}" y="{y + 16}" text-anchor="end">{_esc(name)}</text>'
            f'<rect class="{css}" x="{left}" y="{y + 3}" width="{w:.1f}" height="{line - 8}" rx="3">'
            f"<title>{_esc(name)}: {_esc(value_fmt.format(value))}</title></rect>"
            f'<text class="val" x="{left + w + 6:.1f}" y="{y + 16}">{_esc(value_fmt.format(value))}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def columns_svg(
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    label: str,
    y_max: float | None = None,
    y_band: tuple[float, float] | None = None,
    x_band: tuple[float, float] | None = None,
    y_fmt: str = "{:g}",
    x_edges: Sequence[str] | None = None,
    zero_labels: bool = False,
) -> Markup:
    """Vertical (grouped) columns with their values on top. ``y_band`` shades a value range;
    ``x_band`` a range of the x axis scaled to [0, 1] (a histogram over [0, 1]); ``x_edges``
    labels the boundaries between columns instead of the columns (one more than ``labels``);
    ``zero_labels`` writes the value of empty columns too (a rate of 0 is news, a count is not)."""
    if not labels:
        return Markup('<p class="empty">nothing to chart</p>')
    legend = 22 if len(series) > 1 else 0
    h, left, bottom, top_pad = 240 + legend, 44, 34 + legend, 24
    plot_w, plot_h = _W - left - 10, h - bottom - top_pad
    values = [v for _, vs in series for v in vs if v is not None]
    top = y_max if y_max is not None else (max(values, default=0.0) or 1.0)
    y_of = lambda v: top_pad + plot_h * (1 - min(v, top) / top)  # noqa: E731
    parts = [
        f'<svg class="chart" viewBox="0 0 {_W} {h}" role="img" aria-label="{_esc(label)}">'
        f"<title>{_esc(label)}</title>"
    ]
    if x_band is not None:
        x0, x1 = (left + plot_w * max(0.0, min(1.0, b)) for b in x_band)
        parts.append(
            f'<rect class="band" x="{x0:.1f}" y="{top_pad}" width="{x1 - x0:.1f}" '
            f'height="{plot_h}"><title>band {x_band[0]:g}–{x_band[1]:g}</title></rect>'
        )
        for x, edge in ((x0, x_band[0]), (x1, x_band[1])):
            parts.append(
                f'<line class="band-edge" x1="{x:.1f}" x2="{x:.1f}" y1="{top_pad}" '
                f'y2="{top_pad + plot_h}"/><text class="tick band-lbl" x="{x:.1f}" '
                f'y="{top_pad - 3}" text-anchor="middle">{edge:g}</text>'
            )
    if y_band is not None:
        y0, y1 = y_of(y_band[1]), y_of(y_band[0])
        parts.append(
            f'<rect class="band" x="{left}" y="{y0:.1f}" width="{plot_w}" '
            f'height="{y1 - y0:.1f}"><title>band {y_band[0]:g}–{y_band[1]:g}</title></rect>'
        )
    for tick in (0.0, top / 2, top):
        y = y_of(tick)
        parts.append(
            f'<line class="grid" x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="tick" x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{_esc(y_fmt.format(tick))}</text>"
        )
    slot = plot_w / len(labels)
    width = slot * 0.8 / max(1, len(series))
    for i, name in enumerate(labels):
        x = left + slot * i + slot * 0.1
        for j, (sname, vs) in enumerate(series):
            v = vs[i]
            if v is None:
                continue
            y = y_of(v)
            parts.append(
                f'<rect class="col s{j}" x="{x + j * width:.1f}" y="{y:.1f}" '
                f'width="{width - 2:.1f}" height="{top_pad + plot_h - y:.1f}" rx="2">'
                f"<title>{_esc(name)} · {_esc(sname)}: {_esc(y_fmt.format(v))}</title></rect>"
            )
            if v > 0 or zero_labels:
                parts.append(
                    f'<text class="val" x="{x + j * width + width / 2 - 1:.1f}" y="{y - 4:.1f}" '
                    f'text-anchor="middle">{_esc(y_fmt.format(v))}</text>'
                )
        if x_edges is None:
            parts.append(
                f'<text class="tick" x="{left + slot * (i + 0.5):.1f}" y="{h - bottom + 16}" '
                f'text-anchor="middle">{_esc(name)}</text>'
            )
    for i, text in enumerate(x_edges or []):
        parts.append(
            f'<text class="tick" x="{left + slot * i:.1f}" y="{h - bottom + 16}" '
            f'text-anchor="middle">{_esc(text)}</text>'
        )
    parts.append(
        f'<line class="axis" x1="{left}" x2="{left + plot_w}" y1="{top_pad + plot_h}" '
        f'y2="{top_pad + plot_h}"/>'
    )
    if len(series) > 1:
        for j, (sname, _) in enumerate(series):
            x = left + 8 + j * 170
            parts.append(
                f'<rect class="col s{j}" x="{x}" y="{h - 14}" width="10" height="10"/>'
                f'<text class="tick" x="{x + 14}" y="{h - 5}">{_esc(sname)}</text>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))


def _values(column: Sequence[object]) -> list[float | None]:
    """Numbers of a table column; missing values (None, NaN) stay missing."""
    out: list[float | None] = []
    for v in column:
        number = float(v) if isinstance(v, int | float) else None
        out.append(number if number is not None and not math.isnan(number) else None)
    return out


def charts(tables: Mapping[str, pd.DataFrame], cost_usd: float,
           band: tuple[float, float]) -> dict[str, Markup]:
    """The page's charts, from a run report's tables (:attr:`synth.reporting.report.Report.tables`),
    its total cost and the filter's pass-rate band."""
    t = tables
    funnel = [(str(r["stage"]), float(r["tasks"])) for r in t["yield"].to_dict("records")]
    reasons = [(f"{r['reason_code']}", float(r["tasks"])) for r in t["reasons"].to_dict("records")]
    hist = t["pass_rates"]
    levels = t["calibration_levels"]
    stage = (
        t["tokens_by_stage"]
        .groupby("stage", sort=False)[["cost_usd", "tokens_in", "tokens_out"]]
        .sum()
    )
    if cost_usd > 0:
        spend = [(str(k), float(v)) for k, v in stage["cost_usd"].items()]
        spend_chart = hbar_svg(spend, "cost per stage", "${:,.4f}", css="bar cost")
    else:
        spend = [(str(k), float(r.tokens_in + r.tokens_out)) for k, r in stage.iterrows()]
        spend_chart = hbar_svg(spend, "tokens per stage (no prices)", "{:,.0f}", css="bar cost")
    return {
        "yield": hbar_svg(funnel, "yield funnel"),
        "reasons": hbar_svg(reasons, "rejection reasons", css="bar bad"),
        "rounds": hbar_svg(
            [
                (f"{r['rounds_needed']} round(s)", float(r["tasks"]))
                for r in t["rounds"].to_dict("records")
            ],
            "rounds needed",
        ),
        "pass_rates": columns_svg(
            list(hist["bin"]),
            [("tasks", [float(x) for x in hist["tasks"]])],
            "filter pass-rate histogram",
            x_band=band,
            y_fmt="{:.0f}",
            y_max=2.0 * max(1, math.ceil(float(hist["tasks"].max() or 0) / 2)),
            x_edges=[f"{x:g}" for x in [*hist["low"], 1.0]],
        ),
        "calibration": columns_svg(
            list(levels["level"]),
            [
                ("all filtered", _values(levels["mean_rate_all"].tolist())),
                ("accepted", _values(levels["mean_rate_accepted"].tolist())),
            ],
            "mean pass rate per level",
            y_max=1.0,
            y_band=band,
            y_fmt="{:.2f}",
            zero_labels=True,
        ),
        "spend": spend_chart,
    }
