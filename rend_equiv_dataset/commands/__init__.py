"""One module per ``rend-equiv`` subcommand: ``HELP``, ``configure(parser)``, ``run(args)``.

Modules here import only the standard library at import time; the work, and
its heavy imports, happen inside ``run``.
"""
