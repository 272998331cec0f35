"""Show a balance report: rich tables on the terminal, JSON, and a PDF with charts.

Every line of figures comes from `iter_metrics()`, the one metric registry: a metric added
there shows up here, in the JSON, in the PDF and in sweeps without a change in this file.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas
from rich.console import Console
from rich.table import Table

from toolkit.fileio import atomic_write_bytes, atomic_write_text
from toolkit.sim.metrics import MetricValue, SimReport, iter_metrics

WIN_GROUPS = ("seat", "role")
PER_GAME_GROUPS = ("event", "figure")


def _num(value: float | None, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def format_value(m: MetricValue, interval: bool = True) -> str:
    """A metric as text: rates in %, numbers with two digits, the 95% interval in brackets."""
    if m.value is None or math.isnan(m.value):
        return "-"
    if m.kind == "rate":
        text = f"{m.value * 100:5.1f}%"
        if interval and m.lo is not None and m.hi is not None:
            text += f" [{m.lo * 100:.1f}–{m.hi * 100:.1f}]"
        return text
    digits = 2 if m.kind == "number" else 3
    text = _num(m.value, digits)
    if interval and m.lo is not None and m.hi is not None and not math.isnan(m.lo):
        text += f" [{_num(m.lo, digits)}–{_num(m.hi, digits)}]"
    return text


def shown(text: object) -> str:
    """A name from the game or its engine (a figure, an event, a role, a card) as literal
    text for rich: `[bold red]` in a figure's name is printed, not applied, and its control
    characters (ESC) are shown escaped instead of reaching the terminal."""
    from rich.markup import escape

    from toolkit.diagnostics.printable import printable

    return escape(printable(str(text), ""))


def print_report(report: SimReport, console: Console) -> None:
    title = f"{report.game} — {report.games} games ({report.setup_text})"
    head = Table(title=shown(title), show_header=False)
    head.add_column("figure")
    head.add_column(shown("value [95% CI]"))
    for m in iter_metrics(report, ["headline"]):
        head.add_row(shown(m.label), format_value(m) + ("  [red]![/red]" if m.flag else ""))
    console.print(head)
    fair = report.fair_share
    title = f"fair share {_num(fair * 100)}%" if fair else "co-operative: no fair share"
    wins = Table(title=f"Win rate ({title})")
    for col in ("seat / role", "games", "win rate [95% CI]", "Holm", "flag"):
        wins.add_column(shown(col))
    for m in iter_metrics(report, WIN_GROUPS):
        flag = "[red]UNFAIR[/red]" if m.flag else ""
        wins.add_row(shown(m.label), str(m.n), shown(format_value(m)), shown(m.note), flag)
    console.print(wins)
    per_game = list(iter_metrics(report, PER_GAME_GROUPS))
    if per_game:
        own = Table(title="Per game")
        for col in ("figure", "mean [95% CI]", "median", "p95", "max"):
            own.add_column(shown(col))
        for m in per_game:
            s = m.summary
            assert s is not None
            cells = (m.label, format_value(m), _num(s.median), _num(s.p95), _num(s.max))
            own.add_row(*(shown(cell) for cell in cells))
        console.print(own)
    cards = list(iter_metrics(report, ["card"]))
    if cards:
        dead = [m.label for m in cards if m.flag]
        console.print(shown(f"cards never played: {', '.join(dead) if dead else 'none'}"))
    if report.notable:
        console.print(shown(f"notable games (playset replay … --game N): {notable_text(report)}"))


def notable_text(report: SimReport) -> str:
    """`longest #12 (240 turns), widest margin #3 (9), timeout #40`."""
    units = {"longest": " turns", "shortest": " turns", "widest_margin": ""}
    parts = []
    for n in report.notable:
        value = f" ({n.value:g} turns)" if n.kind == "timeout" else f" ({n.value:g}{units[n.kind]})"
        parts.append(f"{n.kind.replace('_', ' ')} #{n.game}{value}")
    return ", ".join(parts)


def write_json(report: SimReport, path: Path) -> None:
    text = json.dumps(report.to_json(), indent=2, ensure_ascii=False, default=str)
    atomic_write_text(path, text + "\n")


def _histogram_drawing(hist: list[dict[str, float]], width: float, height: float) -> Drawing:
    drawing = Drawing(width, height)
    chart = VerticalBarChart()
    # types-reportlab types a chart's size as int; reportlab takes any number
    chart.x, chart.y, chart.width, chart.height = 40, 30, width - 60, height - 50  # type: ignore[assignment]
    chart.data = [[h["games"] for h in hist] or [0]]
    chart.categoryAxis.categoryNames = [str(int(h["from"])) for h in hist] or [""]
    chart.categoryAxis.labels.fontSize = 6
    chart.categoryAxis.labels.angle = 45
    chart.categoryAxis.labels.boxAnchor = "ne"
    chart.valueAxis.valueMin = 0
    chart.valueAxis.labels.fontSize = 7
    chart.bars[0].fillColor = colors.HexColor("#4f7cac")
    drawing.add(chart)
    drawing.add(String(width / 2, 5, "turns per game", fontSize=8, textAnchor="middle"))
    return drawing


def _intervals_drawing(rows: list[MetricValue], fair: float | None, width: float) -> Drawing:
    row_h = 14
    height = row_h * len(rows) + 40
    drawing = Drawing(width, height)
    left, right = 90, width - 20
    scale = right - left
    lows = [row.lo or 0.0 for row in rows] + ([fair] if fair else [])
    highs = [row.hi or 0.0 for row in rows] + ([fair] if fair else [])
    low = max(0.0, math.floor((min(lows) - 0.02) * 20) / 20) if rows else 0.0
    high = min(1.0, math.ceil((max(highs) + 0.02) * 20) / 20) if rows else 1.0
    span = max(high - low, 0.05)

    def x(p: float) -> float:
        return left + (p - low) / span * scale

    for i in range(6):
        tick = low + span * i / 5
        drawing.add(Line(x(tick), 20, x(tick), height - 10, strokeColor=colors.lightgrey))
        drawing.add(String(x(tick), 8, f"{tick * 100:.0f}%", fontSize=7, textAnchor="middle"))
    if fair:
        drawing.add(Line(x(fair), 20, x(fair), height - 10, strokeColor=colors.red))
    for i, row in enumerate(rows):
        y = height - 20 - i * row_h
        drawing.add(String(left - 6, y - 3, row.label[:18], fontSize=7, textAnchor="end"))
        colour = colors.HexColor("#c0392b") if row.flag else colors.HexColor("#2e86c1")
        lo, hi, p = row.lo or 0.0, row.hi or 0.0, row.value or 0.0
        drawing.add(Line(x(lo), y, x(hi), y, strokeColor=colour, strokeWidth=2))
        # types-reportlab types Rect's **kw without Unpack: every keyword is refused
        dot = Rect(x(p) - 2, y - 2, 4, 4, fillColor=colour, strokeColor=colour)  # type: ignore[arg-type]
        drawing.add(dot)
    return drawing


def write_pdf(report: SimReport, path: Path) -> None:
    """A one-page PDF (more if many roles): headline figures and two charts. Deterministic."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    pdf.setTitle(f"{report.game} balance report")
    width, height = A4
    y = height - 20 * mm
    pdf.setFont("Helvetica-Bold", 14)
    pdf.drawString(20 * mm, y, f"{report.game}: {report.games} simulated games")
    pdf.setFont("Helvetica", 9)
    y -= 6 * mm
    pdf.drawString(20 * mm, y, report.setup_text)
    y -= 2 * mm
    for m in iter_metrics(report, ["headline"]):
        y -= 4.4 * mm
        pdf.drawString(20 * mm, y, m.label)
        pdf.drawString(75 * mm, y, format_value(m) + ("  (!)" if m.flag else ""))
    if report.notable:
        y -= 4.4 * mm
        pdf.drawString(
            20 * mm, y, f"notable games (playset replay --game N): {notable_text(report)}"[:130]
        )
    chart_w = width - 40 * mm
    hist = _histogram_drawing([dict(b) for b in report.length_histogram], chart_w, 55 * mm)
    y -= 58 * mm
    hist.drawOn(pdf, 20 * mm, y)
    rows = list(iter_metrics(report, WIN_GROUPS))
    pdf.setFont("Helvetica-Bold", 10)
    y -= 8 * mm
    pdf.drawString(20 * mm, y, "Win rate with 95% interval (red line: fair share)")
    per_page = max(1, int((y - 20 * mm) // 14) - 3)
    for start in range(0, len(rows), per_page):
        drawing = _intervals_drawing(rows[start : start + per_page], report.fair_share, chart_w)
        if y - drawing.height < 15 * mm:
            pdf.showPage()
            y = height - 20 * mm
        y -= drawing.height
        drawing.drawOn(pdf, 20 * mm, y)
    per_game = list(iter_metrics(report, PER_GAME_GROUPS))
    if per_game:
        pdf.showPage()
        y = height - 20 * mm
        pdf.setFont("Helvetica-Bold", 10)
        pdf.drawString(20 * mm, y, "Per game: mean [95% CI] / median / p95 / max")
        pdf.setFont("Helvetica", 8)
        for m in per_game:
            y -= 4.2 * mm
            if y < 15 * mm:
                pdf.showPage()
                pdf.setFont("Helvetica", 8)
                y = height - 20 * mm
            s = m.summary
            assert s is not None
            pdf.drawString(20 * mm, y, m.label)
            rest = " / ".join(_num(v, 2) for v in (s.median, s.p95, s.max))
            pdf.drawString(90 * mm, y, f"{format_value(m)} / {rest}")
        dead = [m.label for m in iter_metrics(report, ["card"]) if m.flag]
        y -= 8 * mm
        pdf.drawString(20 * mm, y, f"cards never played: {', '.join(dead) if dead else 'none'}")
    pdf.showPage()
    pdf.save()
    atomic_write_bytes(path, buffer.getvalue())
