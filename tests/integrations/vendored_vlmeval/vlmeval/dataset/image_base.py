"""VENDORED, MINIMAL: ``ImageBaseDataset`` as in VLMEvalKit's ``vlmeval/dataset/image_base.py`` (constructor, row
access, default ``build_prompt``; downloading and display left out)."""

import os.path as osp
from abc import abstractmethod

import pandas as pd

from ..smp import LMUDataRoot


class ImageBaseDataset:
    MODALITY = "IMAGE"
    DATASET_URL = {}
    DATASET_MD5 = {}

    def __init__(self, dataset="MMBench", skip_noimg=True):
        ROOT = LMUDataRoot()
        self.dataset_name = dataset
        self.img_root = osp.join(ROOT, "images", dataset)
        data = self.load_data(dataset)
        self.skip_noimg = skip_noimg
        if skip_noimg and "image" in data:
            data = data[~pd.isna(data["image"])]
        data["index"] = [str(x) for x in data["index"]]
        self.meta_only = True
        if "image" in data:
            data["image"] = [str(x) for x in data["image"]]
            image_map = {x: y for x, y in zip(data["index"], data["image"])}
            for k in image_map:
                if len(image_map[k]) <= 64:
                    image_map[k] = image_map[image_map[k]]
            data["image"] = [image_map[k] for k in data["index"]]
            self.meta_only = False
        if all(x.isdigit() for x in data["index"]):
            data["index"] = [int(x) for x in data["index"]]
        self.data = data
        self.post_build(dataset)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        return dict(self.data.iloc[idx])

    @classmethod
    def supported_datasets(cls):
        return list(cls.DATASET_URL)

    def post_build(self, dataset):
        pass

    def build_prompt(self, line):
        if isinstance(line, int):
            line = self.data.iloc[line]
        msgs = [dict(type="image", value=p) for p in self.dump_image(line)]
        msgs.append(dict(type="text", value=line["question"]))
        return msgs

    @abstractmethod
    def evaluate(self, eval_file, **judge_kwargs):
        pass
