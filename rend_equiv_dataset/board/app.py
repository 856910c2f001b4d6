"""The leaderboard Space: one Gradio app for ``rend-equiv leaderboard serve`` and ``space/app.py``.

Four tabs over the folder that ``rend-equiv submit`` and ``rend-equiv panel
submit`` write (:mod:`rend_equiv_dataset.board.store`):

- *Leaderboard*: one row per model (its latest submission), sortable by
  accuracy, ECS AUROC, IBEM detection and combined AUROC, each with its 95%
  interval; filters by model type and size when submissions carry them. A
  model's name links to its page.
- *Model page*: the report's plots (detection by edit with the theory's
  prediction, risk–coverage, reliability), its provenance and every
  submission of the model.
- *Judge panels*: the panel table (pivotal gain, call rate, n_eff).
- *Submit*: a predictions JSONL and a model name, validated and scored like
  ``rend-equiv score``; a bad file shows the one-line error and writes
  nothing. Uploads are size-capped.

Everything but :func:`build_app` and :func:`serve` is plain Python (HTML and
Markdown strings), so it is tested without a browser; Gradio is imported
only there.
"""

from __future__ import annotations

import html
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from rend_equiv_dataset.board.store import TABLES, Kind, Snapshot, Table, format_metric, read_board, sort_rows
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.reports import markdown_table

PLOTS = (("detection_by_edit.png", "Detection by edit (bars: observed, 95% interval; marker: the theory's prediction)"),
         ("risk_coverage.png", "Risk–coverage"), ("reliability.png", "Reliability"))
ALL = "all"
SIZES: dict[str, tuple[float, float]] = {"< 3B": (0.0, 3.0), "3–15B": (3.0, 15.0), "15–80B": (15.0, 80.0), "≥ 80B": (80.0, math.inf)}
CSS = """
.board-table { overflow-x: auto; }
.board-table table { border-collapse: collapse; width: 100%; font-size: 14px; }
.board-table th, .board-table td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left; white-space: nowrap; }
.board-table td.metric { font-variant-numeric: tabular-nums; }
"""


class UploadScorer(Protocol):
    """What the *Submit* tab calls with an upload: score it, add it to the board, say how it did.

    The board knows no product; the figure benchmark supplies its scorer
    (:class:`rend_equiv_dataset.figures.scoring.leaderboard.ReleaseUploads`) and the
    command or ``space/app.py`` wires it in. Bad input raises
    :class:`~rend_equiv_dataset.errors.InputError` before anything is written.
    """

    def __call__(self, upload: Path, model_name: str, leaderboard: Path) -> str:
        """Score ``upload`` as ``model_name`` into ``leaderboard``; returns the result shown (``accuracy 0.812``)."""
        ...


@dataclass(frozen=True)
class AppSettings:
    """What the app serves: the leaderboard folder and the scorer of uploads (``None``: the board takes no uploads)."""

    leaderboard: Path
    scorer: UploadScorer | None = None
    max_upload_bytes: int = 50 * 2**20

    @classmethod
    def checked(cls, leaderboard: str | Path, scorer: UploadScorer | None = None, *,
                max_upload_bytes: int = 50 * 2**20) -> AppSettings:
        """Settings whose board folder (if any) exists and reads."""
        folder = Path(leaderboard)
        if folder.exists() and not folder.is_dir():
            raise InputError(f"{folder} exists and is not a folder", field="--leaderboard")
        if not folder.exists() and not folder.resolve().parent.is_dir():
            raise InputError(f"parent folder {folder.resolve().parent} does not exist", field="--leaderboard")
        if folder.is_dir():
            read_board(folder)
        return cls(folder, scorer, max_upload_bytes)


def _cell(value: Any) -> str:
    return "—" if value is None else html.escape(str(value))


def _size(row: dict[str, Any]) -> str:
    value = row.get("params_billions")
    return "—" if value is None else f"{value:g}"


def filter_rows(rows: list[dict[str, Any]], model_type: str = ALL, size: str = ALL) -> list[dict[str, Any]]:
    """The rows of one model type (``all``: every type) and one size bin (``all``: every size).

    >>> rows = [{"model_name": "a", "model_type": "open", "params_billions": 7.0}, {"model_name": "b", "model_type": None, "params_billions": None}]
    >>> [r["model_name"] for r in filter_rows(rows, "open", "3–15B")], len(filter_rows(rows))
    (['a'], 2)
    """
    kept = rows
    if model_type != ALL:
        kept = [r for r in kept if r.get("model_type") == model_type]
    if size != ALL:
        low, high = SIZES[size]
        kept = [r for r in kept if r.get("params_billions") is not None and low <= r["params_billions"] < high]
    return kept


def table_html(table: Table, rows: list[dict[str, Any]], sort_by: str | None = None, *, link: bool = True) -> str:
    """An HTML table, best first by ``sort_by``: rank, model, type, size, submissions, each headline with its 95% interval."""
    ordered = sort_rows(table, rows, sort_by)
    head = ["rank", "model", "type", "size (B)", "submissions", *(f"{label} [95% CI]" for label in table.labels), "submitted"]
    lines = [f'<div class="board-table"><table id="{table.kind.value}-table"><thead><tr>',
             "".join(f"<th>{html.escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for rank, row in enumerate(ordered, start=1):
        name = html.escape(row["model_name"])
        shown = f'<a href="?model={quote(row["model_name"], safe="/")}">{name}</a>' if link else name
        cells = [str(rank), shown, _cell(row.get("model_type")), _size(row), str(row.get("submissions", 1))]
        cells += [format_metric(row.get(c), row.get(f"{c}_ci")) for c in table.columns]
        cells.append(_cell((row.get("submitted_at") or "")[:10] or None))
        lines.append(f'<tr class="model-row" data-model="{name}">' + "".join(
            f'<td class="{"metric" if 5 <= i < 5 + len(table.columns) else "text"}">{c}</td>' for i, c in enumerate(cells)) + "</tr>")
    if not ordered:
        lines.append(f'<tr><td colspan="{len(head)}">no submissions yet</td></tr>')
    lines.append("</tbody></table></div>")
    return "".join(lines)


def choices(rows: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """The model-type and size filters the rows allow (``all`` first); only ``all`` when no row carries one."""
    types = sorted({r["model_type"] for r in rows if r.get("model_type")})
    sizes = [label for label in SIZES if filter_rows(rows, ALL, label)]
    return [ALL, *types], [ALL, *sizes]


def model_markdown(snapshot: Snapshot, name: str) -> str:
    """A model's page text: provenance of its latest submission and the table of every submission."""
    history = snapshot.history(Kind.FIGURES, name)
    if not history:
        return f"No submission for `{name}`." if name else "Choose a model."
    table = TABLES[Kind.FIGURES]
    latest = snapshot.load(history[-1])
    config = latest["config"]
    provenance = [[key, f"`{json.dumps(config.get(key))}`"]
                  for key in ("model_sha", "model_dtype", "model_type", "params_billions", "submitted_at",
                              "dataset_fingerprint", "package_version", "predictions_sha256", "threshold", "seeds")]
    provenance += [[group, f"`{json.dumps(config.get(group), sort_keys=True)}`"]
                   for group in ("generation", "versions", "bootstrap")]
    submissions = []
    for relative in reversed(history):
        payload = latest if relative == history[-1] else snapshot.load(relative)
        results = payload["results"].get(table.task, {})
        submissions.append([payload["config"].get("submitted_at"),
                            *(format_metric(results.get(c), results.get(f"{c}_ci")) for c in table.columns),
                            f"`{relative}`"])
    lines = [f"## {name}", "", *markdown_table(["provenance", ""], provenance),
             "", f"### Submissions ({len(history)}, latest first)", "",
             *markdown_table(["submitted", *table.labels, "results file"], submissions)]
    return "\n".join(lines) + "\n"


def model_plots(snapshot: Snapshot, name: str) -> list[str | None]:
    """Paths of the latest submission's three plots (``None`` where missing)."""
    history = snapshot.history(Kind.FIGURES, name)
    if not history:
        return [None] * len(PLOTS)
    folder = snapshot.assets(history[-1])
    return [str(folder / file) if (folder / file).is_file() else None for file, _ in PLOTS]


def handle_submission(settings: AppSettings, upload: str | None, model_name: str | None) -> str:
    """Validate, score and submit one upload; returns the status line (``error: …`` on bad input, nothing written)."""
    from rend_equiv_dataset.board.store import check_model_name

    try:
        if settings.scorer is None:
            raise InputError("this board takes no uploads (it was started without a scorer of uploads)")
        name = check_model_name((model_name or "").strip(), "model name")
        if not upload:
            raise InputError("choose a predictions JSONL file to upload", field="predictions")
        size = os.path.getsize(upload)
        if size > settings.max_upload_bytes:
            raise InputError(f"{size} bytes is over the {settings.max_upload_bytes}-byte upload limit", file=Path(upload).name)
        result = settings.scorer(Path(upload), name, settings.leaderboard)
    except InputError as err:
        text = str(err)
        if upload:  # name the file as the user knows it, not by the server's upload folder
            text = text.replace(str(Path(upload).parent) + os.sep, "")
        return "error: " + " ".join(text.split())
    return f"submitted {name}: {result}"


def build_app(settings: AppSettings) -> Any:
    """The Gradio ``Blocks`` app over ``settings.leaderboard`` (imports Gradio)."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    try:
        import gradio as gr
    except ImportError:
        raise InputError("the leaderboard app needs Gradio; install it with: pip install 'rend-equiv[space]'") from None

    figures, panels = TABLES[Kind.FIGURES], TABLES[Kind.PANELS]
    sort_choices = list(zip(figures.labels, figures.columns))
    panel_sorts = list(zip(panels.labels, panels.columns))

    def board_view(sort_by: str, model_type: str, size: str) -> tuple[Any, ...]:
        rows = read_board(settings.leaderboard).rows(Kind.FIGURES)
        types, sizes = choices(rows)
        model_type = model_type if model_type in types else ALL
        size = size if size in sizes else ALL
        return (table_html(figures, filter_rows(rows, model_type, size), sort_by),
                gr.update(choices=types, value=model_type, visible=len(types) > 1),
                gr.update(choices=sizes, value=size, visible=len(sizes) > 1))

    def panel_view(sort_by: str) -> str:
        return table_html(panels, read_board(settings.leaderboard).rows(Kind.PANELS), sort_by, link=False)

    def model_view(name: str | None) -> tuple[Any, ...]:
        snapshot = read_board(settings.leaderboard)
        return (model_markdown(snapshot, name or ""), *model_plots(snapshot, name or ""))

    def model_names() -> list[str]:
        return read_board(settings.leaderboard).names(Kind.FIGURES)

    def on_load(sort_by: str, model_type: str, size: str, panel_sort: str, request: gr.Request) -> tuple[Any, ...]:
        wanted = dict(request.query_params).get("model") if request is not None else None
        names = model_names()
        chosen = wanted if wanted in names else None
        return (*board_view(sort_by, model_type, size), panel_view(panel_sort),
                gr.update(choices=names, value=chosen), *model_view(chosen),
                gr.Tabs(selected="model" if chosen else "board"))

    on_load.__annotations__["request"] = gr.Request  # resolved here: this module's annotations are strings

    def on_submit(upload: str | None, name: str | None, sort_by: str, model_type: str, size: str) -> tuple[Any, ...]:
        status = handle_submission(settings, upload, name)
        return (status, *board_view(sort_by, model_type, size), gr.update(choices=model_names()))

    with gr.Blocks(title="REND-EQUIV leaderboard", analytics_enabled=False, fill_width=True) as demo:
        gr.Markdown("# REND-EQUIV leaderboard\nFigure reading under equivariant edits: accuracy, and how well the "
                    "Equivariance-Consistency Score flags wrong answers. One row per model (its latest submission).")
        with gr.Tabs() as tabs:
            with gr.Tab("Leaderboard", id="board"):
                with gr.Row():
                    sort_by = gr.Dropdown(sort_choices, value=figures.columns[0], label="Sort by", elem_id="sort-by")
                    model_type = gr.Dropdown([ALL], value=ALL, label="Model type", visible=False, elem_id="model-type")
                    size = gr.Dropdown([ALL], value=ALL, label="Model size", visible=False, elem_id="model-size")
                board_table = gr.HTML(elem_id="figure-table-box")
            with gr.Tab("Model page", id="model"):
                model = gr.Dropdown([], label="Model", elem_id="model-choice")
                with gr.Row():
                    images = [gr.Image(label=label, type="filepath", interactive=False) for _, label in PLOTS]
                page = gr.Markdown(elem_id="model-page")
            with gr.Tab("Judge panels", id="panels"):
                panel_sort = gr.Dropdown(panel_sorts, value=panels.columns[0], label="Sort by", elem_id="panel-sort-by")
                panel_table = gr.HTML(elem_id="panel-table-box")
            with gr.Tab("Submit predictions", id="submit"):
                gr.Markdown(f"Upload a predictions JSONL (at most {settings.max_upload_bytes / 2**20:g} MB): one "
                            "`{\"render_id\", \"output\"}` object per rendering, an optional `{\"meta\": {...}}` line first. "
                            "It is validated and scored exactly like `rend-equiv score`.")
                upload = gr.File(label="predictions JSONL", file_types=[".jsonl"], type="filepath", elem_id="upload")
                name = gr.Textbox(label="Model name (org/name)", max_lines=1, elem_id="model-name")
                button = gr.Button("Score and submit", variant="primary", elem_id="submit-button")
                status = gr.Markdown(elem_id="submit-status")

        filters = [sort_by, model_type, size]
        board_outputs = [board_table, model_type, size]
        for control in filters:
            control.change(board_view, filters, board_outputs)
        panel_sort.change(panel_view, [panel_sort], [panel_table])
        model.change(model_view, [model], [page, *images])
        demo.load(on_load, [*filters, panel_sort], [*board_outputs, panel_table, model, page, *images, tabs])
        button.click(on_submit, [upload, name, *filters], [status, *board_outputs, model], concurrency_limit=2)
    return demo


def serve(settings: AppSettings, *, host: str = "127.0.0.1", port: int = 7860) -> None:
    """Build the app and serve it until interrupted."""
    launch(build_app(settings), settings, host=host, port=port)


def launch(demo: Any, settings: AppSettings, *, host: str, port: int) -> None:
    """Serve a built app: uploads capped, files served only from the leaderboard folder, no server-side rendering."""
    settings.leaderboard.mkdir(exist_ok=True)
    demo.queue().launch(
        server_name=host, server_port=port, max_file_size=settings.max_upload_bytes, ssr_mode=False,
        allowed_paths=[str(settings.leaderboard.resolve())], css=CSS, show_error=False, quiet=True,
        theme=_theme(),
    )


def _theme() -> Any:
    """Gradio's default theme with system fonts, so the page asks no font server for anything."""
    import gradio as gr

    system = ["ui-sans-serif", "system-ui", "sans-serif"]
    return gr.themes.Default(font=system, font_mono=["ui-monospace", "monospace"])
