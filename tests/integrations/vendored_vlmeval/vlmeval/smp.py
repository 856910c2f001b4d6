"""VENDORED, MINIMAL: ``LMUDataRoot`` as in VLMEvalKit's ``vlmeval/smp/file.py``."""

import os
import os.path as osp


def LMUDataRoot():
    if "LMUData" in os.environ and osp.exists(os.environ["LMUData"]):
        return os.environ["LMUData"]
    root = osp.join(osp.expanduser("~"), "LMUData")
    os.makedirs(root, exist_ok=True)
    return root
