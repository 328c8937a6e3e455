"""HTML tables that leave out the columns nothing fills: a catalog scan has no code verdicts,
no lab probes and no declared/actual capabilities, so those columns are not drawn at all."""

from __future__ import annotations

from toolwitness.plainclass import plainclass

EMPTY = "–"


@plainclass(frozen=True)
class Column:
    key: str  # also the column's class: `col-<key>` (widths in report.css)
    title: str
    always: bool = False  # drawn even when every cell is empty


def table(
    columns: list[Column], rows: list[list[str]], *, css_class: str, caption: str = ""
) -> str:
    """`rows[i][0]` is the row header; a cell equal to "–" (or "") counts as empty."""
    shown = [
        i
        for i, column in enumerate(columns)
        if i == 0 or column.always or any(row[i] not in (EMPTY, "") for row in rows)
    ]
    head = "".join(
        f'<th scope="col" class="col-{columns[i].key}">{columns[i].title}</th>' for i in shown
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<th scope="row">{row[i]}</th>' if i == 0 else f"<td>{row[i] or EMPTY}</td>"
            for i in shown
        )
        + "</tr>"
        for row in rows
    )
    caption_html = f'<caption class="count">{caption}</caption>' if caption else ""
    return (
        f'<table class="{css_class}">{caption_html}<thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )
