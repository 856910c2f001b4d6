"""REND-EQUIV from real tables (paper §6): read tables (:mod:`.read`, :mod:`.grid`), keep their real questions
(:mod:`.questions`), build instances (:mod:`.build`), export tables (:mod:`.export`) and digitize charts (:mod:`.digitized`)."""
