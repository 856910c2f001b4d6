"""Answers: the one place model outputs are read and compared.

- :mod:`.parse` — free text → number or label (:func:`~.parse.parse_answer`), the rule every caller uses;
- :mod:`.text` — where the answer is: normalisation, reasoning blocks, markers, sentences;
- :mod:`.numbers` — numbers as written (formats, signs, operands, hedges, number words);
- :mod:`.labels` — label mentions and the aliases a human grader accepts;
- :mod:`.aliases` — other names of a label from maintained data (pycountry, pypinyin) and region abbreviations;
- :mod:`.extractor` — the optional model-based second reader behind ``grade --extractor``;
- :mod:`.relaxed` — relaxed correctness, agreement, residuals and clusters;
- :mod:`.grade` — one output against its target, as ``rend-equiv grade`` and ``metrics/relaxed_accuracy`` use it.
"""
