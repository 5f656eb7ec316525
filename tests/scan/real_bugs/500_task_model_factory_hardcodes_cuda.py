# source: https://github.com/songlab-cal/tape/pull/3
# kind: wrong_device_choice
# bug: the registry helper that builds a task model (from scratch or from a pretrained directory) always ended with model.cuda(), ignoring the device that the setup code had chosen, so --no_cuda / CPU-only runs crashed; the fix drops the hard-coded .cuda() from the factory and has the train/eval/embed entry points move the model to the selected device.
# split: test24
from typing import Optional

import torch
import torch.nn as nn


class SeqConfig:
    def __init__(self, vocab=30, hidden=64, num_labels=2):
        self.vocab = vocab
        self.hidden = hidden
        self.num_labels = num_labels


class SeqClassifier(nn.Module):
    def __init__(self, config: SeqConfig):
        super().__init__()
        self.embed = nn.Embedding(config.vocab, config.hidden)
        self.head = nn.Linear(config.hidden, config.num_labels)

    def forward(self, tokens):
        return self.head(self.embed(tokens).mean(dim=1))

    @classmethod
    def from_pretrained(cls, path: str, num_labels: int):
        model = cls(SeqConfig(num_labels=num_labels))
        model.load_state_dict(torch.load(path, map_location="cpu"))
        return model


class ModelRegistry:
    models = {"classifier": SeqClassifier}

    @classmethod
    def get_task_model(cls, name: str, num_labels: int, load_dir: Optional[str] = None) -> nn.Module:
        model_cls = cls.models[name]
        if load_dir is not None:
            model = model_cls.from_pretrained(load_dir, num_labels=num_labels)
        else:
            model = model_cls(SeqConfig(num_labels=num_labels))
        model = model.cuda()  # bug: wrong_device_choice
        return model


def setup_device(no_cuda: bool):
    if no_cuda or not torch.cuda.is_available():
        return torch.device("cpu")
    return torch.device("cuda")


def run_eval(no_cuda: bool = True):
    device = setup_device(no_cuda)
    model = ModelRegistry.get_task_model("classifier", num_labels=2)
    model.eval()
    tokens = torch.randint(0, 30, (4, 16), device=device)
    with torch.no_grad():
        return model(tokens).argmax(dim=-1)


if __name__ == "__main__":
    print(run_eval(no_cuda=True))
