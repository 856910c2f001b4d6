"""This metric's Hub Space: evaluate's Gradio widget over the module in this folder."""

import os

import evaluate
from evaluate.utils import launch_gradio_widget

module = evaluate.load(os.path.dirname(os.path.abspath(__file__)))
launch_gradio_widget(module)
