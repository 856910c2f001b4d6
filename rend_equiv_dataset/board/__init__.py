"""The leaderboard: the results folder that submissions write (:mod:`.store`) and the Gradio app that shows it (:mod:`.app`).

Importing this package imports neither Gradio nor matplotlib; only
:func:`rend_equiv_dataset.board.app.build_app` needs Gradio.
"""
