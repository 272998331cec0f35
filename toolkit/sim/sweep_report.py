"""Show a sweep: a terminal table (metrics × points), and a PDF with one chart per metric
against the parameter (95% interval band), or a heat map when two parameters vary.

Charts are reportlab graphics (vector), the bytes deterministic for the same result.
"""

from __future__ import annotations

import fnmatch
import io
import json
import math
from collections.abc import Sequence
from pathlib import Path

from reportlab.graphics.shapes import Circle, Drawing, Line, Polygon, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas
from rich.console import Console
from rich.table import Table

from toolkit.fileio import atomic_write_bytes, atomic_write_text
from toolkit.sim.metrics import MetricValue
from toolkit.sim.report import format_value
from toolkit.sim.report import shown as literal
from toolkit.sim.sweep import DEFAULT_GROUPS, Point, SweepResult, value_text

BAND = colors.Color(0.31, 0.49, 0.67, alpha=0.25)
LINE = colors.HexColor("#2e5f8a")


def select_keys(result: SweepResult, patterns: Sequence[str] = ()) -> list[str]:
    """Metric keys to show: by default the headline, per-seat and game figures; a pattern is
    a key (`team_win`), a group (`event`) or a shell pattern (`figure.sips*`)."""
    if not patterns:
        return result.metric_keys(DEFAULT_GROUPS)
    groups = {m.key: m.group for p in result.points for m in p.metrics}
    keys = result.metric_keys()
    return [
        k for k in keys if any(fnmatch.fnmatchcase(k, pat) or groups[k] == pat for pat in patterns)
    ]


def _label(result: SweepResult, key: str) -> str:
    for point in result.points:
        m = point.metric(key)
        if m is not None:
            return m.label if m.group in ("headline", "seat") else f"{m.group} {m.label}"
    return key


def print_sweep(result: SweepResult, console: Console, keys: Sequence[str]) -> None:
    setup = ", ".join(f"{k}={v}" for k, v in result.setup.items())
    names = ", ".join(p.path for p in result.parameters)
    table = Table(
        title=literal(f"{result.game}: {names} — {setup}"),
        caption=literal("value [95% interval]; the same games at every point; ! marks a finding"),
    )
    table.add_column(literal(names if len(result.parameters) > 1 else "metric"))
    for point in result.points:
        heading = ", ".join(value_text(v) for _, v in point.values)
        table.add_column(literal(heading), justify="right")
    for key in keys:
        cells = []
        for point in result.points:
            m = point.metric(key)
            cells.append("-" if m is None else format_value(m) + (" !" if m.flag else ""))
        table.add_row(literal(_label(result, key)), *(literal(cell) for cell in cells))
    # A terminal wraps what does not fit; piped output (a file, CI logs) gets the full width.
    wide = 34 + 24 * len(result.points)
    if not console.is_terminal and console.width < wide:
        console.width = wide
    console.print(table)


def write_sweep_json(result: SweepResult, path: Path) -> None:
    text = json.dumps(result.to_json(), indent=2, ensure_ascii=False, default=str)
    atomic_write_text(path, text + "\n")


def _fmt(m: MetricValue | None) -> str:
    if m is None or m.value is None or math.isnan(m.value):
        return "-"
    return f"{m.value * 100:.1f}%" if m.kind == "rate" else f"{m.value:.2f}"


def _bounds(values: list[float]) -> tuple[float, float]:
    finite = [v for v in values if v is not None and math.isfinite(v)]
    if not finite:
        return 0.0, 1.0
    low, high = min(finite), max(finite)
    if high - low < 1e-9:
        low, high = low - 0.5 if low else -0.5, high + 0.5 if high else 0.5
    pad = (high - low) * 0.08
    return low - pad, high + pad


def _ticks(low: float, high: float, count: int = 6) -> tuple[list[float], int]:
    """Round tick values (1, 2 or 5 times a power of ten) covering low..high, and the
    decimals that tell them apart."""
    raw = (high - low) / count if high > low else 1.0
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks = [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]
    return ticks, max(0, -math.floor(math.log10(step)))


def _line_chart(result: SweepResult, key: str, width: float, height: float) -> Drawing:
    """The metric against the (first) parameter: the value line and its interval band."""
    d = Drawing(width, height)
    points = result.points
    ms = [p.metric(key) for p in points]
    left, right, bottom, top = 48, width - 12, 34, height - 20
    numeric = len(result.parameters) == 1 and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in result.parameters[0].values
    )
    xs_raw = [float(p.values[0][1]) for p in points] if numeric else list(range(len(points)))
    x_lo, x_hi = min(xs_raw), max(xs_raw)
    x_span = (x_hi - x_lo) or 1.0

    def x(v: float) -> float:
        return (
            left + (v - x_lo) / x_span * (right - left) if len(points) > 1 else (left + right) / 2
        )

    ys = [v for m in ms if m for v in (m.value, m.lo, m.hi) if v is not None]
    rate = any(m and m.kind == "rate" for m in ms)
    y_lo, y_hi = _bounds(ys)
    if rate:
        y_lo, y_hi = max(0.0, y_lo), min(1.0, y_hi)

    def y(v: float) -> float:
        return bottom + (v - y_lo) / ((y_hi - y_lo) or 1.0) * (top - bottom)

    d.add(String(left, height - 10, _label(result, key), fontName="Helvetica-Bold", fontSize=8))
    scale = 100 if rate else 1
    ticks, digits = _ticks(y_lo * scale, y_hi * scale)
    for shown in ticks:
        tick = shown / scale
        d.add(Line(left, y(tick), right, y(tick), strokeColor=colors.HexColor("#e3e3e3")))
        text = f"{shown:.{digits}f}" + ("%" if rate else "")
        d.add(String(left - 4, y(tick) - 2.5, text, fontSize=6.5, textAnchor="end"))
    band = [
        (x(xr), m.lo, m.hi)
        for xr, m in zip(xs_raw, ms, strict=True)
        if m and m.lo is not None and m.hi is not None
    ]
    if len(band) > 1:
        upper = [c for px, _, hi in band for c in (px, y(hi))]
        lower = [c for px, lo, _ in reversed(band) for c in (px, y(lo))]
        d.add(Polygon(upper + lower, fillColor=BAND, strokeColor=None, strokeWidth=0))
    for px, lo, hi in band:  # the interval as a whisker too (one point, or uneven bands)
        d.add(Line(px, y(lo), px, y(hi), strokeColor=LINE, strokeWidth=0.6))
    line = [(x(xr), m.value) for xr, m in zip(xs_raw, ms, strict=True) if m and m.value is not None]
    if len(line) > 1:
        d.add(PolyLine([c for px, value in line for c in (px, y(value))], strokeColor=LINE))
    for px, value in line:
        d.add(Circle(px, y(value), 1.8, fillColor=LINE, strokeColor=LINE))
    for xr, point in zip(xs_raw, points, strict=True):
        text = value_text(point.values[0][1]) if len(point.values) == 1 else point.label
        d.add(String(x(xr), bottom - 10, text[:24], fontSize=6.5, textAnchor="middle"))
    axis = result.parameters[0].path if len(result.parameters) == 1 else "point"
    d.add(String((left + right) / 2, 6, axis, fontSize=7, textAnchor="middle"))
    return d


def _heat_map(result: SweepResult, key: str, width: float, height: float) -> Drawing:
    """Two parameters: rows × columns of cells shaded by the value, with the interval."""
    d = Drawing(width, height)
    p1, p2 = result.parameters[0], result.parameters[1]
    by_values = {tuple(v for _, v in p.values): p for p in result.points}
    cells = [p.metric(key) for p in result.points]
    vals = [m.value for m in cells if m and m.value is not None and math.isfinite(m.value)]
    v_lo, v_hi = (min(vals), max(vals)) if vals else (0.0, 1.0)
    left, bottom, top, right = 70, 30, height - 22, width - 10
    cw = (right - left) / len(p1.values)
    ch = (top - bottom) / len(p2.values)
    d.add(String(left, height - 10, _label(result, key), fontName="Helvetica-Bold", fontSize=8))
    for i, a in enumerate(p1.values):
        d.add(
            String(
                left + (i + 0.5) * cw, bottom - 10, value_text(a), fontSize=7, textAnchor="middle"
            )
        )
        for j, b in enumerate(p2.values):
            point: Point | None = by_values.get((a, b))
            m = point.metric(key) if point else None
            share = 0.0
            if m and m.value is not None and math.isfinite(m.value) and v_hi > v_lo:
                share = (m.value - v_lo) / (v_hi - v_lo)
            fill = colors.Color(1 - 0.65 * share, 1 - 0.45 * share, 1 - 0.2 * share)
            y0 = bottom + j * ch
            # types-reportlab types Rect's **kw without Unpack: every keyword is refused
            cell = Rect(left + i * cw, y0, cw, ch, fillColor=fill, strokeColor=colors.white)  # type: ignore[arg-type]
            d.add(cell)
            ink = colors.white if share > 0.6 else colors.black
            cx = left + (i + 0.5) * cw
            d.add(
                String(cx, y0 + ch / 2 + 1, _fmt(m), fontSize=8, textAnchor="middle", fillColor=ink)
            )
            if m and m.lo is not None and m.hi is not None:
                lo, hi = (m.lo * 100, m.hi * 100) if m.kind == "rate" else (m.lo, m.hi)
                unit = "%" if m.kind == "rate" else ""
                band = f"[{lo:.1f}–{hi:.1f}{unit}]"
                d.add(
                    String(
                        cx, y0 + ch / 2 - 8, band, fontSize=6, textAnchor="middle", fillColor=ink
                    )
                )
    for j, b in enumerate(p2.values):
        y0 = bottom + (j + 0.5) * ch - 2.5
        d.add(String(left - 4, y0, value_text(b), fontSize=7, textAnchor="end"))
    d.add(String((left + right) / 2, 6, p1.path, fontSize=7, textAnchor="middle"))
    d.add(String(8, (bottom + top) / 2, p2.path[:14], fontSize=7))
    return d


def write_sweep_pdf(result: SweepResult, path: Path, keys: Sequence[str]) -> None:
    """One chart per metric, six per A4 page; deterministic bytes."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    pdf.setTitle(f"{result.game} sweep")
    width, height = A4
    chart_w, chart_h = (width - 30 * mm) / 2, 78 * mm
    heat = len(result.parameters) == 2
    names = " × ".join(p.path for p in result.parameters)
    setup = ", ".join(f"{k}={v}" for k, v in result.setup.items())
    per_page = 6
    for start in range(0, max(1, len(keys)), per_page):
        pdf.setFont("Helvetica-Bold", 12)
        pdf.drawString(15 * mm, height - 15 * mm, f"{result.game}: sweep of {names}")
        pdf.setFont("Helvetica", 8)
        pdf.drawString(
            15 * mm,
            height - 20 * mm,
            f"{setup}; shaded band / brackets: 95% interval; same game seeds at every point",
        )
        for i, key in enumerate(keys[start : start + per_page]):
            col, row = i % 2, i // 2
            draw = _heat_map if heat else _line_chart
            drawing = draw(result, key, chart_w, chart_h)
            drawing.drawOn(pdf, 15 * mm + col * chart_w, height - 25 * mm - (row + 1) * chart_h)
        pdf.showPage()
    pdf.save()
    atomic_write_bytes(path, buffer.getvalue())
