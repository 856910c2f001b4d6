"""VENDORED, MINIMAL: the part of VLMEvalKit's dataset interface REND-EQUIV relies on, for machines where VLMEvalKit
cannot be imported (docs/design.md §8.2). Not VLMEvalKit: a copy of the names and behaviour used, nothing more."""
