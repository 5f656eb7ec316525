# source: https://github.com/encord-team/text-to-image-eval/pull/34
# kind: loaded_weights_not_moved
# bug: the SigLIP wrapper loaded its pretrained model with from_pretrained() but, unlike the sibling CLIP wrapper, never moved it to the selected device, while its preprocessing put pixel values on CUDA, so embedding a dataset failed with CUDA inputs and CPU weights; the fix appends .to(self.device) to the loaded model.
# split: test22
from abc import ABC, abstractmethod
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import torch
from torch.utils.data import DataLoader
from tqdm import tqdm
from transformers import CLIPModel as HFClipModel
from transformers import CLIPProcessor as HFClipProcessor
from transformers import SiglipModel as HFSiglipModel
from transformers import SiglipProcessor as HFSiglipProcessor


class EmbeddingModel(ABC):
    def __init__(self, title: str, title_in_source: Optional[str] = None, device: Optional[str] = None):
        self._title = title
        self._source = title_in_source or title
        device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        if device not in {"cuda", "cpu"} or not getattr(torch, device).is_available():
            raise ValueError(f"Unavailable device: {device}")
        self._device = torch.device(device)

    @property
    def device(self) -> torch.device:
        return self._device

    @abstractmethod
    def _setup(self) -> None: ...

    def define_process_fn(self) -> Callable[[Dict[str, Any]], Dict[str, List[Any]]]:
        def process_fn(batch):
            images = [im.convert("RGB") for im in batch["image"]]
            batch["image"] = [
                self.processor(images=[im], return_tensors="pt").to(self.device).pixel_values.squeeze() for im in images
            ]
            return batch
        return process_fn

    def build_embedding(self, dataloader: DataLoader) -> Tuple[np.ndarray, np.ndarray]:
        embeddings, labels = [], []
        with torch.inference_mode():
            for batch in tqdm(dataloader, desc=f"Embedding with {self._title}"):
                labels.append(batch["labels"])
                feats = self.model.get_image_features(pixel_values=batch["pixel_values"])
                embeddings.append((feats / feats.norm(p=2, dim=-1, keepdim=True)).squeeze().to("cpu"))
        return np.concatenate(embeddings, 0), torch.concatenate(labels).numpy()


class ClosedClipModel(EmbeddingModel):
    def __init__(self, title, title_in_source=None, device=None):
        super().__init__(title, title_in_source, device)
        self._setup()

    def _setup(self):
        self.model = HFClipModel.from_pretrained(self._source).to(self.device)
        self.processor = HFClipProcessor.from_pretrained(self._source)
        self.process_fn = self.define_process_fn()


class SiglipEmbeddingModel(EmbeddingModel):
    def __init__(self, title, title_in_source=None, device=None):
        super().__init__(title, title_in_source, device)
        self._setup()

    def _setup(self):
        self.model = HFSiglipModel.from_pretrained(self._source)  # bug: loaded_weights_not_moved
        self.processor = HFSiglipProcessor.from_pretrained(self._source)
        self.process_fn = self.define_process_fn()


def collate(batch):
    return {
        "pixel_values": torch.stack([b["image"] for b in batch]),
        "labels": torch.tensor([b["label"] for b in batch]),
    }


if __name__ == "__main__":
    from datasets import load_dataset

    model = SiglipEmbeddingModel("siglip", "google/siglip-base-patch16-224")
    ds = load_dataset("cifar10", split="test[:256]").rename_column("img", "image")
    ds.set_transform(model.process_fn)
    loader = DataLoader(ds, batch_size=32, collate_fn=collate)
    emb, lab = model.build_embedding(loader)
    print(emb.shape, lab.shape)
