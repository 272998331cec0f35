"""Show a balance report: rich tables on the terminal, JSON, and a PDF with charts."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas
from rich.console import Console
from rich.table import Table

from toolkit.fileio import atomic_write_bytes, atomic_write_text
from toolkit.sim.metrics import Report


def _pct(rate: dict[str, float]) -> str:
    return f"{rate['rate'] * 100:5.1f}% [{rate['lo'] * 100:.1f}–{rate['hi'] * 100:.1f}]"


def _num(value: float | None, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def print_report(report: Report, console: Console) -> None:
    d = report.data
    setup = ", ".join(f"{k}={v}" for k, v in report.setup.items())
    head = Table(title=f"{report.game} — {d['games']} games ({setup})", show_header=False)
    head.add_column("figure")
    head.add_column("value")
    head.add_row("completed", _pct(d["completion"]))
    head.add_row("timeouts (turn cap)", _pct(d["timeouts"]))
    head.add_row("shared win / no winner", _pct(d["shared_or_no_winner"]))
    t, r = d["turns"], d["rounds"]
    head.add_row(
        "turns mean / median / p5–p95",
        f"{_num(t['mean'])} / {_num(t['median'])} / {_num(t['p5'])}–{_num(t['p95'])}",
    )
    head.add_row("rounds mean / median", f"{_num(r['mean'])} / {_num(r['median'])}")
    head.add_row("balance (1 − largest gap)", _num(d["balance"], 3))
    head.add_row("first-player advantage", _num(d["first_player_advantage"], 3))
    head.add_row("decision share", _pct(d["decision_share"]))
    head.add_row("branching factor", _num(d["branching_factor"], 2))
    if "team_win" in d:
        head.add_row("co-operative win", _pct(d["team_win"]))
    console.print(head)
    fair = d["fair_share"]
    title = f"fair share {_num(fair * 100)}%" if fair else "co-operative: no fair share"
    wins = Table(title=f"Win rate ({title})")
    for col in ("seat / role", "games", "win rate [95% CI]", "Holm p", "flag"):
        wins.add_column(col)
    for row in d["seats_win"] + d["roles_win"]:
        label = f"seat {row['seat']}" if "seat" in row else row["role"]
        flag = "[red]UNFAIR[/red]" if row["unfair"] else ""
        wins.add_row(label, str(int(row["n"])), _pct(row), _num(row["p_adjusted"], 3), flag)
    console.print(wins)
    if d["events_per_game"] or d["figures"]:
        own = Table(title="Per game")
        for col in ("figure", "mean", "median", "p95", "max"):
            own.add_column(col)
        for name, s in {**d["events_per_game"], **d["figures"]}.items():
            own.add_row(name, _num(s["mean"], 2), _num(s["median"]), _num(s["p95"]), _num(s["max"]))
        console.print(own)
    dead = [c["card"] for c in d["cards"] if c["dead"]]
    if d["cards"]:
        console.print(f"cards never played: {', '.join(dead) if dead else 'none'}")


def write_json(report: Report, path: Path) -> None:
    doc = {"game": report.game, "setup": report.setup, **report.data}
    atomic_write_text(path, json.dumps(doc, indent=2, ensure_ascii=False, default=str) + "\n")


def _histogram_drawing(hist: list[dict[str, float]], width: float, height: float) -> Drawing:
    drawing = Drawing(width, height)
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 40, 30, width - 60, height - 50
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


def _intervals_drawing(rows: list[dict[str, Any]], fair: float | None, width: float) -> Drawing:
    row_h = 14
    height = row_h * len(rows) + 40
    drawing = Drawing(width, height)
    left, right = 90, width - 20
    scale = right - left
    lows = [row["lo"] for row in rows] + ([fair] if fair else [])
    highs = [row["hi"] for row in rows] + ([fair] if fair else [])
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
        label = f"seat {row['seat']}" if "seat" in row else str(row["role"])
        drawing.add(String(left - 6, y - 3, label[:18], fontSize=7, textAnchor="end"))
        colour = colors.HexColor("#c0392b") if row["unfair"] else colors.HexColor("#2e86c1")
        drawing.add(Line(x(row["lo"]), y, x(row["hi"]), y, strokeColor=colour, strokeWidth=2))
        drawing.add(Rect(x(row["rate"]) - 2, y - 2, 4, 4, fillColor=colour, strokeColor=colour))
    return drawing


def write_pdf(report: Report, path: Path) -> None:
    """A one-page PDF (more if many roles): headline figures and two charts. Deterministic."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    pdf.setTitle(f"{report.game} balance report")
    width, height = A4
    d = report.data
    y = height - 20 * mm
    pdf.setFont("Helvetica-Bold", 14)
    pdf.drawString(20 * mm, y, f"{report.game}: {d['games']} simulated games")
    pdf.setFont("Helvetica", 9)
    y -= 6 * mm
    pdf.drawString(20 * mm, y, ", ".join(f"{k}={v}" for k, v in report.setup.items()))
    lines = [
        f"completed {_pct(d['completion'])}   timeouts {_pct(d['timeouts'])}",
        f"turns: mean {_num(d['turns']['mean'])}, median {_num(d['turns']['median'])}, "
        f"p5 {_num(d['turns']['p5'])}, p95 {_num(d['turns']['p95'])}",
        f"balance {_num(d['balance'], 3)}   first-player advantage "
        f"{_num(d['first_player_advantage'], 3)}   branching {_num(d['branching_factor'], 2)}",
    ]
    if "team_win" in d:
        lines.append(f"co-operative win {_pct(d['team_win'])}")
    for line in lines:
        y -= 5 * mm
        pdf.drawString(20 * mm, y, line)
    chart_w = width - 40 * mm
    hist = _histogram_drawing(d["length_histogram"], chart_w, 60 * mm)
    y -= 65 * mm
    hist.drawOn(pdf, 20 * mm, y)
    rows = d["seats_win"] + d["roles_win"]
    pdf.setFont("Helvetica-Bold", 10)
    y -= 8 * mm
    pdf.drawString(20 * mm, y, "Win rate with 95% interval (red line: fair share)")
    per_page = max(1, int((y - 20 * mm) // 14) - 3)
    for start in range(0, len(rows), per_page):
        chunk = rows[start : start + per_page]
        drawing = _intervals_drawing(chunk, d["fair_share"], chart_w)
        if y - drawing.height < 15 * mm:
            pdf.showPage()
            y = height - 20 * mm
        y -= drawing.height
        drawing.drawOn(pdf, 20 * mm, y)
    figures = {**d["events_per_game"], **d["figures"]}
    if figures:
        pdf.showPage()
        y = height - 20 * mm
        pdf.setFont("Helvetica-Bold", 10)
        pdf.drawString(20 * mm, y, "Per game: mean / median / p95 / max")
        pdf.setFont("Helvetica", 8)
        for name, s in figures.items():
            y -= 4.2 * mm
            if y < 15 * mm:
                pdf.showPage()
                pdf.setFont("Helvetica", 8)
                y = height - 20 * mm
            pdf.drawString(20 * mm, y, name)
            values = (s["mean"], s["median"], s["p95"], s["max"])
            pdf.drawString(90 * mm, y, " / ".join(_num(v, 2) for v in values))
        dead = [c["card"] for c in d["cards"] if c["dead"]]
        y -= 8 * mm
        pdf.drawString(20 * mm, y, f"cards never played: {', '.join(dead) if dead else 'none'}")
    pdf.showPage()
    pdf.save()
    atomic_write_bytes(path, buffer.getvalue())
