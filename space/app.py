"""The REND-EQUIV leaderboard Space: the same app as ``rend-equiv leaderboard serve``.

Settings come from the environment (a Space's variables):

- ``REND_EQUIV_LEADERBOARD``: the leaderboard folder (default ``leaderboard`` beside this file);
- ``REND_EQUIV_DATA``: the release folder uploads are scored against (default ``data`` beside
  this file when it exists; without one the submission tab takes no uploads);
- ``REND_EQUIV_MAX_UPLOAD_MB`` (default 50) and ``REND_EQUIV_RESAMPLES`` (default 10000).
"""

import os
from pathlib import Path

from rend_equiv_dataset.board.app import AppSettings, build_app, launch
from rend_equiv_dataset.figures.scoring.leaderboard import ReleaseUploads

HERE = Path(__file__).resolve().parent
_data = os.environ.get("REND_EQUIV_DATA") or (str(HERE / "data") if (HERE / "data").is_dir() else None)
_scorer = ReleaseUploads.checked(_data, int(os.environ.get("REND_EQUIV_RESAMPLES", "10000"))) if _data else None
settings = AppSettings.checked(
    os.environ.get("REND_EQUIV_LEADERBOARD", str(HERE / "leaderboard")),
    _scorer,
    max_upload_bytes=int(float(os.environ.get("REND_EQUIV_MAX_UPLOAD_MB", "50")) * 2**20),
)
demo = build_app(settings)

if __name__ == "__main__":
    launch(demo, settings, host=os.environ.get("GRADIO_SERVER_NAME", "0.0.0.0"),
           port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")))
