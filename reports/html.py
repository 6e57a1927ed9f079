"""One self-contained HTML page from blocks of text, tables and PNG images (base64-embedded).

Rendering only: the caller (analyser/cmd_report.py) decides what goes on the page; this
module escapes text, formats table cells and embeds images, so the page needs no other
file and no network.
"""

import base64
import html
from dataclasses import dataclass, field

import pandas as pd

STYLE = """
body { font-family: Georgia, serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #444; }
h2 { margin-top: 2em; border-bottom: 1px solid #bbb; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.55em; text-align: right; }
th { background: #f0f0f0; }
td:first-child, th:first-child, th.text, td.text { text-align: left; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.5em 0; }
.note { color: #555; font-size: 0.9em; }
dl.params { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; }
dl.params dt { font-weight: bold; }
dl.params dd { margin: 0; }
"""


@dataclass
class Text:
    """A paragraph of plain text (escaped); `note` renders it smaller and grey."""

    text: str
    note: bool = False


@dataclass
class Image:
    """A PNG image, embedded as base64, with its alternative text."""

    png: bytes
    alt: str


@dataclass
class Table:
    """A table; `formats` maps a column to a format string such as "{:.1%}" or "{:+.1f}"."""

    frame: pd.DataFrame
    formats: dict = field(default_factory=dict)


@dataclass
class Params:
    """A list of name/value pairs (the run's parameters)."""

    items: list


@dataclass
class Section:
    """A heading and its blocks."""

    heading: str
    blocks: list


def _cell(value, fmt):
    """Text of one table cell: formatted when a format is given and the value is a number."""
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    if fmt and not isinstance(value, str):
        return fmt.format(value)
    return str(value)


def _is_text(value) -> bool:
    return value is None or isinstance(value, str)


def _table(block: Table) -> str:
    """The table; columns of words are aligned left, columns of numbers right."""
    frame = block.frame
    text = {c: ' class="text"' if frame[c].map(_is_text).all() else "" for c in frame.columns}
    head = "".join(f"<th{text[c]}>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = []
    for record in frame.itertuples(index=False):
        cells = "".join(
            f"<td{text[c]}>{html.escape(_cell(v, block.formats.get(c)))}</td>"
            for c, v in zip(frame.columns, record, strict=True)
        )
        rows.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _block(block) -> str:
    if isinstance(block, Text):
        cls = ' class="note"' if block.note else ""
        return f"<p{cls}>{html.escape(block.text)}</p>"
    if isinstance(block, Image):
        data = base64.b64encode(block.png).decode("ascii")
        return f'<img src="data:image/png;base64,{data}" alt="{html.escape(block.alt)}">'
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Params):
        items = "".join(f"<dt>{html.escape(str(k))}</dt><dd>{html.escape(str(v))}</dd>"
                        for k, v in block.items)
        return f'<dl class="params">{items}</dl>'
    raise TypeError(f"unknown block type {type(block).__name__}")


def render_page(title: str, intro: list, sections: list[Section]) -> str:
    """The complete HTML page: title, introductory blocks, then the sections in order."""
    body = [f"<h1>{html.escape(title)}</h1>", *(_block(b) for b in intro)]
    for section in sections:
        body.append(f"<h2>{html.escape(section.heading)}</h2>")
        body.extend(_block(b) for b in section.blocks)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body) + "\n</body>\n</html>\n"
    )
